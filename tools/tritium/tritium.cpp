//===- tritium.cpp - the command-line driver ------------------------------===//
//
// `tritium compile FILE --kernel NAME --signature SIG --emit ast|tile|tile-opt`
// reads a Python file, finds the @triton.jit kernel, specializes it on the
// signature (Triton's AOT convention) and prints the requested stage. With
// `--target cuda:80|cuda:90` it also emits the GPU stages tile-gpu, llir,
// ptx and cubin (ptxas), and `--report` prints the kernel's resources. Errors
// print as `file:line:col: error: ...` with the source line and a caret, and
// exit with status 1.
//
// `tritium run FILE --kernel NAME --grid X[,Y[,Z]] --arg NAME=VALUE ...`
// compiles the kernel specialized on the given values and launches it on the
// interpreter (RunCommand.h).
//
// `tritium aot FILE -k NAME -s SIG [-s SIG ...] -g GRID -n LAUNCHER` writes a
// C launcher embedding the kernel's cubins (AotCommand.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/AstDump.h"
#include "frontend/IRGen.h"
#include "frontend/Modules.h"
#include "frontend/Parser.h"
#include "codegen/Pipeline.h"
#include "codegen/amd/Amd.h"
#include "ir/StageLimit.h"
#include "runtime/cuda/Ptxas.h"
#include "tools/tritium/AotCommand.h"
#include "tools/tritium/CheckCommand.h"
#include "tools/tritium/RunCommand.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace tritium::fe;

namespace {
struct CompileCmd {
  std::string file, kernel, signature, emit = "tile", output;
  int numWarps = 4;
  int numStages = 3;
  bool debug = false;
  bool locations = false;
  std::string target;
  bool report = false;
  int maxnreg = 0;
  bool noFpFusion = false;
  bool timeStages = false;
  double timeLimit = -1; ///< seconds per stage; < 0: TRITIUM_COMPILE_TIME_LIMIT
  std::vector<std::string> modules; // NAME=PATH
};

/// Seconds per compile stage, for --time-stages.
struct StageClock {
  std::vector<std::pair<std::string, double>> stages;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  void lap(const std::string &name) {
    auto now = std::chrono::steady_clock::now();
    stages.emplace_back(name, std::chrono::duration<double>(now - start).count());
    start = now;
  }
  void print() const {
    double total = 0;
    for (auto &[n, s] : stages)
      total += s;
    std::cerr << "stage            seconds\n";
    for (auto &[n, s] : stages)
      std::cerr << std::left << std::setw(16) << n << " " << std::fixed
                << std::setprecision(4) << s << "\n";
    std::cerr << std::left << std::setw(16) << "total" << " " << std::fixed
              << std::setprecision(4) << total << "\n";
  }
};

/// `--module NAME=PATH` sources for the kernel's imports; 0 on success.
int loadModules(const CompileCmd &cmd, ModuleSet &set) {
  for (const std::string &m : cmd.modules) {
    size_t eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) {
      std::cerr << "tritium: error: --module expects NAME=PATH, got '" << m << "'\n";
      return 1;
    }
    std::string name = m.substr(0, eq), path = m.substr(eq + 1);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "tritium: error: --module " << name << ": cannot open '" << path
                << "'\n";
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    if (auto err = set.add(name, ss.str(), path)) {
      std::cerr << "tritium: error: --module " << name << ": " << *err << "\n";
      return 1;
    }
  }
  return 0;
}

/// The GPU stages of an optimized tile module; the result goes to `out`.
/// --target hip:ARCH: tile-gpu, llir, amdgcn or hsaco, and --report.
int emitHip(const CompileCmd &cmd, const std::string &arch, mlir::ModuleOp module,
            std::string &out, StageClock &clock) {
  using tritium::codegen::CudaStage;
  if (cmd.emit == "ptx" || cmd.emit == "cubin") {
    std::cerr << "tritium: error: --emit " << cmd.emit << " is for NVIDIA targets; for "
              << cmd.target << " use --emit amdgcn or hsaco\n";
    return 1;
  }
  CudaStage last = cmd.emit == "tile-gpu" ? CudaStage::TileGpu
                   : cmd.emit == "llir"   ? CudaStage::LLIR
                   : cmd.emit == "hsaco" || cmd.report ? CudaStage::Hsaco
                                                       : CudaStage::PTX;
  tritium::codegen::CudaCompileOptions opts;
  opts.amdArch = arch;
  opts.numWarps = cmd.numWarps;
  opts.numStages = cmd.numStages;
  tritium::codegen::CudaKernelArtifacts art;
  std::string error;
  if (!tritium::codegen::compileForCuda(module, cmd.kernel, opts, art, error, last)) {
    std::cerr << error << "\n";
    return 1;
  }
  clock.start = std::chrono::steady_clock::now();
  clock.stages.insert(clock.stages.end(), art.stageSeconds.begin(), art.stageSeconds.end());
  out = cmd.emit == "tile-gpu" ? art.tileGpu
        : cmd.emit == "llir"   ? art.llir
        : cmd.emit == "hsaco"  ? art.hsaco
                               : art.amdgcn;
  if (cmd.report) {
    std::string why;
    auto r = tritium::codegen::readAmdReport(art.amdgcn, why);
    if (!r) {
      std::cerr << "tritium: error: --report: " << why << "\n";
      return 1;
    }
    std::cerr << "kernel " << r->name << " (" << arch << ", wave" << r->wavefrontSize
              << "): " << r->sgprs << " SGPRs, " << r->vgprs << " VGPRs, " << r->agprs
              << " AGPRs, " << r->sgprSpills << " SGPR spills, " << r->vgprSpills
              << " VGPR spills, " << r->ldsBytes << " bytes static LDS, " << art.sharedBytes
              << " bytes dynamic LDS, " << r->scratchBytes
              << " bytes scratch, occupancy " << r->occupancy << " waves per SIMD, "
              << art.numWarps * 64 << " threads per program\n";
  }
  return 0;
}

int emitCuda(const CompileCmd &cmd, mlir::ModuleOp module, std::string &out,
             StageClock &clock) {
  if (std::string arch = tritium::codegen::parseHipTarget(cmd.target); !arch.empty())
    return emitHip(cmd, arch, module, out, clock);
  unsigned cc = tritium::codegen::parseCudaTarget(cmd.target);
  if (!cc) {
    std::cerr << "tritium: error: --target: expected cuda:80, cuda:90, hip:gfx90a, "
                 "hip:gfx942 or hip:gfx950 (got '"
              << cmd.target << "')\n";
    return 1;
  }
  if (cmd.emit == "amdgcn" || cmd.emit == "hsaco") {
    std::cerr << "tritium: error: --emit " << cmd.emit << " is for AMD targets (hip:gfx942, "
              << "...); for " << cmd.target << " use --emit ptx or cubin\n";
    return 1;
  }
  using tritium::codegen::CudaStage;
  CudaStage last = cmd.emit == "tile-gpu" ? CudaStage::TileGpu
                   : cmd.emit == "llir"   ? CudaStage::LLIR
                                          : CudaStage::PTX;
  tritium::codegen::CudaCompileOptions opts;
  opts.computeCapability = cc;
  opts.numWarps = cmd.numWarps;
  opts.numStages = cmd.numStages;
  opts.maxRegisters = unsigned(cmd.maxnreg);
  opts.fpFusion = !cmd.noFpFusion;
  tritium::codegen::CudaKernelArtifacts art;
  std::string error;
  if (!tritium::codegen::compileForCuda(module, cmd.kernel, opts, art, error, last)) {
    std::cerr << error << "\n";
    return 1;
  }
  clock.start = std::chrono::steady_clock::now();
  clock.stages.insert(clock.stages.end(), art.stageSeconds.begin(), art.stageSeconds.end());
  out = cmd.emit == "tile-gpu" ? art.tileGpu : cmd.emit == "llir" ? art.llir : art.ptx;
  if (cmd.emit != "cubin" && !cmd.report)
    return 0;
  std::string arch = cc >= 90 ? "sm_" + std::to_string(cc) + "a" : "sm_" + std::to_string(cc);
  tritium::cuda::PtxasReport rep;
  auto cubin = tritium::cuda::assemble(art.ptx, arch, &rep);
  if (!cubin) {
    std::cerr << "tritium: error: " << cubin.error().message << "\n";
    return 1;
  }
  clock.lap("ptxas");
  if (cmd.emit == "cubin")
    out = *cubin;
  if (cmd.report)
    std::cerr << "kernel " << art.name << " (" << arch << "): " << rep.registers
              << " registers, " << rep.spillStoreBytes << " bytes spill stores, "
              << rep.spillLoadBytes << " bytes spill loads, " << rep.sharedBytes
              << " bytes static shared, " << art.sharedBytes
              << " bytes dynamic shared, " << art.numWarps * 32
              << " threads per program\n";
  // ptxas's performance notes on wgmma (C75xx: groups serialized, or a
  // wait it had to inject) say why a kernel runs slower than its
  // instructions suggest.
  if (cmd.report) {
    std::stringstream log(rep.log);
    for (std::string line; std::getline(log, line);)
      if (line.find("Performance Loss") != std::string::npos ||
          line.find("(C75") != std::string::npos)
        std::cerr << "tritium: warning: ptxas: " << line.substr(line.find_first_not_of(" ")) << "\n";
  }
  return 0;
}

int runCompile(const CompileCmd &cmd) {
  if (cmd.timeLimit >= 0) {
    tritium::setStageTimeLimit(cmd.timeLimit);
  } else {
    std::string bad;
    tritium::stageTimeLimit(&bad);
    if (!bad.empty()) {
      std::cerr << "tritium: error: " << bad << "\n";
      return 1;
    }
  }
  std::ifstream in(cmd.file, std::ios::binary);
  if (!in) {
    std::cerr << "tritium: error: cannot open '" << cmd.file << "'\n";
    return 1;
  }
  StageClock clock;
  std::stringstream ss;
  ss << in.rdbuf();
  ParseResult parsed = parseSource(cmd.file, ss.str());
  clock.lap("parse");
  if (!parsed.errors.empty()) {
    for (auto &d : parsed.errors)
      std::cerr << d.render();
    return 1;
  }
  std::string out;
  if (cmd.emit == "ast") {
    const FunctionDef *fn = nullptr;
    for (auto &f : parsed.module->functions)
      if (f->name == cmd.kernel)
        fn = f.get();
    if (!fn) {
      for (auto &[name, diag] : parsed.skippedFunctions)
        if (name == cmd.kernel) {
          std::cerr << diag.render();
          return 1;
        }
      std::cerr << "tritium: error: no function named '" << cmd.kernel << "' in "
                << cmd.file << "\n";
      return 1;
    }
    out = dumpFunction(*fn);
  } else {
    // A kernel whose def did not parse reports its syntax error.
    bool found = false;
    for (auto &[name, diag] : parsed.skippedFunctions)
      if (name == cmd.kernel) {
        std::cerr << diag.render();
        return 1;
      }
    for (auto &f : parsed.module->functions)
      found |= f->name == cmd.kernel;
    if (!found) {
      std::cerr << "tritium: error: no function named '" << cmd.kernel << "' in "
                << cmd.file << "\n";
      return 1;
    }
    std::vector<ParamSpec> specs;
    if (auto err = parseSignature(cmd.signature, specs)) {
      std::cerr << "tritium: error: --signature: " << *err << "\n";
      return 1;
    }
    ModuleSet modules;
    if (int rc = loadModules(cmd, modules))
      return rc;
    mlir::MLIRContext ctx;
    CompileOptions opts;
    opts.numWarps = cmd.numWarps;
    opts.numStages = cmd.numStages;
    opts.debug = cmd.debug;
    CompileResult r = compileKernel(ctx, *parsed.module, cmd.kernel, specs, opts,
                                    modules.empty() ? nullptr : &modules);
    clock.lap("ir generation");
    for (auto &p : r.staticPrints)
      std::cerr << p << "\n";
    if (!r.ok()) {
      for (auto &d : r.errors)
        std::cerr << d.render();
      return 1;
    }
    bool gpuStage = cmd.emit == "tile-gpu" || cmd.emit == "llir" || cmd.emit == "ptx" ||
                    cmd.emit == "cubin" || cmd.emit == "amdgcn" || cmd.emit == "hsaco";
    if (gpuStage && cmd.target.empty()) {
      std::cerr << "tritium: error: --emit " << cmd.emit
                << (cmd.emit == "ptx" || cmd.emit == "cubin"
                        ? " needs --target cuda:80 or cuda:90\n"
                    : cmd.emit == "amdgcn" || cmd.emit == "hsaco"
                        ? " needs --target hip:gfx90a, hip:gfx942 or hip:gfx950\n"
                        : " needs --target cuda:80, cuda:90, hip:gfx90a, hip:gfx942 or "
                          "hip:gfx950\n");
      return 1;
    }
    if (cmd.emit == "tile-opt" || gpuStage || !cmd.target.empty())
      if (auto err = optimizeTileModule(*r.module)) {
        std::cerr << "tritium: error: " << *err;
        return 1;
      }
    if (cmd.emit == "tile-opt" || gpuStage || !cmd.target.empty())
      clock.lap("tile passes");
    if (!cmd.target.empty()) {
      std::string gpuOut;
      if (int rc = emitCuda(cmd, *r.module, gpuOut, clock))
        return rc;
      if (gpuStage)
        out = gpuOut;
    }
    llvm::raw_string_ostream os(out);
    mlir::OpPrintingFlags flags;
    if (cmd.locations)
      flags.enableDebugInfo(/*prettyForm=*/true);
    if (out.empty())
      r.module->print(os, flags);
  }
  if (cmd.timeStages)
    clock.print();
  if (cmd.output.empty() || cmd.output == "-") {
    std::cout << out;
  } else {
    std::ofstream o(cmd.output);
    if (!o) {
      std::cerr << "tritium: error: cannot write '" << cmd.output << "'\n";
      return 1;
    }
    o << out;
  }
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"tritium: Triton kernels compiled by a C++ frontend into tile IR"};
  app.require_subcommand(1);
  CompileCmd cmd;
  auto *compile = app.add_subcommand("compile", "compile a @triton.jit kernel");
  compile->add_option("file", cmd.file, "Python file with the kernel")->required();
  compile->add_option("--kernel,-k", cmd.kernel, "kernel (function) name")->required();
  compile->add_option("--signature,-s", cmd.signature,
                      "Triton AOT signature, e.g. \"*fp32:16,*fp32:16,i32,1024\"");
  compile->add_option("--emit", cmd.emit, "output stage")
      ->check(CLI::IsMember({"ast", "tile", "tile-opt", "tile-gpu", "llir", "ptx",
                             "cubin", "amdgcn", "hsaco"}));
  compile->add_option("--target", cmd.target,
                      "GPU target: cuda:80 or cuda:90 (tile-gpu/llir/ptx/cubin), hip:gfx90a, "
                      "hip:gfx942 or hip:gfx950 (tile-gpu/llir/amdgcn/hsaco)");
  compile->add_flag("--no-fp-fusion", cmd.noFpFusion,
                    "round every product and sum (no fused multiply-adds; Triton's "
                    "enable_fp_fusion=False)");
  compile->add_option("--maxnreg", cmd.maxnreg, "registers per thread on the GPU (0: no limit)")
      ->check(CLI::Range(0, 255));
  compile->add_flag("--time-stages", cmd.timeStages,
                    "print the seconds each compile stage took (to stderr)");
  compile->add_option("--time-limit", cmd.timeLimit,
                      "seconds each compile stage may take (0: no limit; default "
                      "TRITIUM_COMPILE_TIME_LIMIT or 300)")
      ->check(CLI::Range(0.0, 1e9));
  compile->add_flag("--report", cmd.report,
                    "print registers, spills and shared memory (runs ptxas)");
  compile->add_option("--num-warps", cmd.numWarps, "warps per program")
      ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
  compile->add_option("--num-stages", cmd.numStages, "software pipelining stages");
  compile->add_flag("--debug", cmd.debug, "keep device_assert checks");
  compile->add_flag("--locations", cmd.locations,
                    "print each op's source location (file:line:col)");
  compile->add_option("-o,--output", cmd.output, "output file (default stdout)");
  compile->add_option("--module", cmd.modules,
                      "NAME=PATH: the source of a module the kernel imports "
                      "(@jit helpers, constexpr globals); repeatable");

  tritium::run::RunOptions run;
  auto *runCmd = app.add_subcommand(
      "run", "compile a @triton.jit kernel for the given arguments and launch it");
  runCmd->footer(
      std::string("VALUE of --arg: an int (i32/i64 by range; 1 is folded), a float "
                  "(fp32), True/False (i1), FILE.npy[:DTYPE] (DTYPE views integer "
                  "data as bf16/fp8), or KIND:DTYPE[d0,d1,...] with KIND randn, rand, "
                  "randint ([-100,100), unsigned [0,200)), zeros, ones, empty (0xFF "
                  "bytes: NaN, for floats; 0xCD for ints). DTYPE: f16 f32 f64 bf16 i8 "
                  "i16 i32 i64 u8 u16 u32 u64 bool.\ndevice: ") +
      (tritium::run::interpreterAvailable() ? "interpreter\n"
                                            : "none (built without the interpreter)\n"));
  auto multi = [](CLI::Option *opt) {
    opt->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  // What a launch is: the kernel, its grid and its arguments (run, debug).
  auto launch = [&multi](CLI::App *c, tritium::run::RunOptions &r) {
    c->add_option("file", r.file, "Python file with the kernel")->required();
    c->add_option("--kernel,-k", r.kernel, "kernel (function) name")->required();
    c->add_option("--grid,-g", r.grid, "grid size X[,Y[,Z]]")->required();
    multi(c->add_option("--constexpr,-c", r.constexprs,
                        "NAME=V for a tl.constexpr parameter (repeatable)"));
    multi(c->add_option("--arg,-a", r.args, "NAME=VALUE for a runtime parameter (repeatable)"));
    c->add_option("--seed", r.seed, "seed of the generators (default 0)");
    c->add_option("--num-warps", r.numWarps, "warps per program")
        ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
    c->add_flag("--debug", r.debug, "keep device_assert checks");
  };
  launch(runCmd, run);
  // What a run observes and checks; `tritium replay` takes them too.
  auto observe = [&multi](CLI::App *c, tritium::run::RunOptions &r) {
    multi(c->add_option("--save", r.saves,
                        "NAME=out.npy: write a buffer after the run (repeatable)"));
    c->add_option("--executors", r.executors,
                  "where the launch runs: interp (default), cuda, or interp,cuda (each from "
                  "the same inputs, then every buffer compared with --check's tolerances)");
    multi(c->add_option("--check", r.checks,
                        "NAME=ref.npy: compare a buffer with a reference (repeatable)"));
    c->add_option("--rtol", r.rtol, "relative tolerance of --check");
    c->add_option("--atol", r.atol, "absolute tolerance of --check");
    c->add_flag("--deterministic", r.deterministic,
                "run programs in order, one at a time");
    c->add_option("--threads", r.threads, "worker threads (0: default)");
    c->add_option("--sanitize", r.sanitize,
                  "interpreter sanitizers, comma-separated: nan (the first op of each "
                  "program that turns finite operands into NaN or Inf), uninit (the first "
                  "read of each program of empty: bytes nothing wrote), race (programs "
                  "touching the same bytes, one storing, unordered by atomics; runs the "
                  "programs in order), overflow (the first signed integer +, -, * of each "
                  "program that overflows); TRITIUM_SANITIZE adds its own; a report fails "
                  "the run");
    c->add_option("--trace", r.trace,
                  "[FILE:]LINE[:NAME]: print the values that line computes (or that it "
                  "gives the variable NAME) each time it runs "
                  "(for program (0, 0, 0), or those --pid gives), masked-off lanes of "
                  "loads as --");
    c->add_flag("--coverage", r.coverage,
                "print, per source line, how many programs ran it and how many lanes "
                "its masked loads and stores had active");
    c->add_option("--coverage-source", r.coverageSource,
                  "PATH: write the kernel's source with those counts before each line");
    multi(c->add_option("--pid", r.pids,
                        "X[,Y[,Z]]: a program --trace prints (repeatable)"));
    c->add_option("--trace-all", r.traceAll,
                  "OUT.npz: every value program (0, 0, 0) (or the first --pid) computes, "
                  "keyed \"file:line:col op\" (\" #k\" on reruns), for numpy.load");
    c->add_flag("--dry-run", r.dryRun,
                "bind and specialize the arguments and compile, but do not launch");
  };
  observe(runCmd, run);
  runCmd->add_option("--record", run.record,
                     "DIR: save the launch (the kernel's source, its options and every "
                     "input buffer) for tritium replay DIR");
  tritium::run::RunOptions replay;
  std::string replayDir;
  auto *replayCmd = app.add_subcommand(
      "replay", "rerun a launch tritium run --record saved, with the same inputs, "
                "observed as run's options ask (--sanitize, --trace, --coverage, ...)");
  replayCmd->add_option("dir", replayDir, "the --record directory")->required();
  observe(replayCmd, replay);
  tritium::run::RunOptions debugRun;
  auto *debugCmd = app.add_subcommand(
      "debug", "run a kernel on the interpreter, stopping before its first op for "
               "commands: break LINE [if pid == (X, Y, Z)], continue, step, next, "
               "print LINE, where, delete, quit (same arguments as run)");
  launch(debugCmd, debugRun);
  observe(debugCmd, debugRun);
  tritium::aot::AotOptions aot;
  auto *aotCmd = app.add_subcommand(
      "aot", "compile a kernel ahead of time into a C launcher (NAME.h, NAME.c) that "
             "embeds its cubins and needs only libcuda");
  aotCmd->add_option("file", aot.file, "Python file with the kernel")->required();
  aotCmd->add_option("--kernel,-k", aot.kernel, "kernel (function) name")->required();
  auto *aotSig = aotCmd->add_option("--signature,-s", aot.signatures,
                                    "Triton AOT signature (repeatable: the launcher picks "
                                    "the most specialized one the arguments fit)");
  multi(aotSig);
  aotSig->required();
  aotCmd->add_option("--grid,-g", aot.grid,
                     "grid: 1 to 3 comma-separated C expressions over the parameters, "
                     "e.g. \"(n + 1023) / 1024\"")
      ->required();
  aotCmd->add_option("--name,-n", aot.name, "the launcher's name (a C identifier)")
      ->required();
  multi(aotCmd->add_option("--target", aot.targets,
                           "cuda:80 or cuda:90 (repeatable; default cuda:90)"));
  aotCmd->add_option("--num-warps,-w", aot.numWarps, "warps per program")
      ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
  aotCmd->add_option("--num-stages", aot.numStages, "software pipelining stages");
  aotCmd->add_option("-o,--output-dir", aot.outDir, "where NAME.h and NAME.c go (default .)");
  auto *checkCmd = app.add_subcommand(
      "check", "run the conformance corpus on each executor against float64 "
               "references (options: tritium check --help)");
  checkCmd->prefix_command(); // every argument goes to the harness
  checkCmd->set_help_flag();
  CLI11_PARSE(app, argc, argv);
  if (checkCmd->parsed())
    return tritium::check::runCheck(argv[0], checkCmd->remaining());
  if (runCmd->parsed())
    return tritium::run::runCommand(run, std::cout, std::cerr);
  if (debugCmd->parsed()) {
    debugRun.interactive = true;
    return tritium::run::runCommand(debugRun, std::cout, std::cerr);
  }
  if (replayCmd->parsed()) {
    if (auto e = tritium::run::readRecord(replayDir, replay)) {
      std::cerr << "tritium: error: " << *e << "\n";
      return 1;
    }
    return tritium::run::runCommand(replay, std::cout, std::cerr);
  }
  if (aotCmd->parsed())
    return tritium::aot::runAot(aot, std::cerr);
  return runCompile(cmd);
}

//===- RunCommand.cpp - `tritium run`: compile and launch a kernel -------===//
//
// Binds command-line values to the kernel's parameters by name, specializes
// exactly as Triton's launcher does (runtime/Specialize.h), compiles through
// runtime/KernelSource.h (frontend and tile pipeline), and launches on the
// interpreter (when this build has it).
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunCommand.h"
#include "tools/tritium/CudaRun.h"

#include "runtime/KernelSource.h"

#include "mlir/IR/MLIRContext.h"

#ifdef TRITIUM_HAVE_INTERPRETER
#include "interpreter/Debugger.h"
#include "interpreter/Interpreter.h"
#endif

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <fstream>
#include <set>
#include <sstream>

using namespace tritium;
using namespace tritium::run;
using namespace tritium::fe;

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string errorLine(const std::string &msg) { return "tritium: error: " + msg + "\n"; }

/// An interpreter RunError as printed: one error line, then any detail.
[[maybe_unused]] std::string runErrorText(const std::string &msg) {
  if (!msg.empty() && msg.back() == '\n')
    return "tritium: error: " + msg;
  return errorLine(msg);
}

/// A SourceError as printed: diagnostics as rendered, a message as one line.
std::string errorText(const rt::SourceError &e) {
  return e.rendered ? e.text : errorLine(e.text);
}
} // namespace

bool tritium::run::interpreterAvailable() {
#ifdef TRITIUM_HAVE_INTERPRETER
  return true;
#else
  return false;
#endif
}

std::optional<std::string> tritium::run::compileAndLaunch(const LaunchSpec &spec,
                                                          std::vector<HostValue> &args,
                                                          LaunchReport &report) {
  auto t0 = Clock::now();
  rt::KernelSource src;
  if (auto e = rt::loadKernelSource(spec.file, spec.source.empty() ? nullptr : &spec.source,
                                    spec.kernel, src))
    return errorText(*e);

  // Bind every parameter: constexprs by value, the others by host value.
  std::string paramList = src.paramList();
  auto findParam = [&](const std::string &n) {
    return std::find_if(src.params.begin(), src.params.end(),
                        [&](const rt::KernelParam &p) { return p.name == n; });
  };
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &n = args[i].name;
    auto it = findParam(n);
    if (it == src.params.end())
      return errorLine("--arg " + n + ": kernel '" + spec.kernel +
                       "' has no parameter '" + n + "' (its parameters: " + paramList + ")");
    if (it->isConstexpr)
      return errorLine("--arg " + n + ": '" + n +
                       "' is a tl.constexpr parameter; give it with --constexpr " + n +
                       "=VALUE");
    if (!byName.emplace(n, i).second)
      return errorLine("--arg " + n + " is given twice");
  }
  for (auto &[n, v] : spec.constexprs) {
    auto it = findParam(n);
    if (it == src.params.end())
      return errorLine("--constexpr " + n + ": kernel '" + spec.kernel +
                       "' has no parameter '" + n + "' (its parameters: " + paramList + ")");
    if (!it->isConstexpr)
      return errorLine("--constexpr " + n + ": '" + n +
                       "' is not a tl.constexpr parameter; give it with --arg " + n +
                       "=VALUE");
    if (v.find(',') != std::string::npos)
      return errorLine("--constexpr " + n + "=" + v + ": values cannot contain ','");
  }
  std::vector<std::string> entries, missing;
  std::vector<size_t> order;   // host values in func.func argument order
  std::vector<size_t> runtime; // and every runtime parameter's, folded ones too
  for (auto &p : src.params) {
    if (p.isVariadic)
      return errorLine("kernel '" + spec.kernel + "' has *args/**kwargs parameters, "
                       "which tritium run cannot bind");
    if (p.isConstexpr) {
      auto it = spec.constexprs.find(p.name);
      std::optional<std::string> lit;
      if (it != spec.constexprs.end())
        lit = it->second;
      else
        lit = p.defaultLiteral;
      if (!lit) {
        missing.push_back("--constexpr " + p.name + "=VALUE");
        continue;
      }
      entries.push_back(*lit);
      continue;
    }
    auto it = byName.find(p.name);
    if (it == byName.end()) {
      const std::optional<std::string> &lit = p.defaultLiteral;
      HostValue v;
      if (!lit || parseHostValue(p.name, *lit, 0, v)) {
        missing.push_back("--arg " + p.name + "=VALUE");
        continue;
      }
      args.push_back(std::move(v));
      it = byName.emplace(p.name, args.size() - 1).first;
    }
    const HostValue &v = args[it->second];
    runtime.push_back(it->second);
    entries.push_back(v.specialization());
    if (!v.folded())
      order.push_back(it->second);
  }
  if (!missing.empty()) {
    std::string list;
    for (auto &m : missing)
      list += (list.empty() ? "" : ", ") + m;
    return errorLine("kernel '" + spec.kernel + "' needs " + list);
  }
  std::string sig;
  for (auto &e : entries)
    sig += (sig.empty() ? "" : ",") + e;
  report.signature = sig;
  mlir::MLIRContext ctx;
  CompileOptions copts;
  copts.numWarps = spec.numWarps;
  copts.debug = spec.debug;
  rt::CompiledKernel compiled;
  auto compileError = rt::compileSpecialization(ctx, src, sig, copts, compiled);
  report.staticPrints = compiled.staticPrints;
  if (compileError)
    return errorText(*compileError);
  report.compileMs = msSince(t0);
  if (spec.dryRun)
    return std::nullopt;
  if (spec.cuda) {
    std::string text = spec.source;
    if (text.empty()) {
      std::ifstream in(spec.file);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::vector<HostValue *> values;
    for (size_t i : runtime)
      values.push_back(&args[i]);
    return launchOnCuda(spec, text, values, report);
  }

#ifdef TRITIUM_HAVE_INTERPRETER
  auto created = interp::Kernel::create(*compiled.module, spec.kernel);
  if (auto *e = std::get_if<interp::RunError>(&created))
    return runErrorText(e->message);
  auto &kernel = std::get<std::unique_ptr<interp::Kernel>>(created);
  std::vector<interp::Arg> iargs;
  for (size_t i : order) {
    HostValue &v = args[i];
    switch (v.kind) {
    case HostValue::Buffer:
      iargs.push_back(interp::Arg::buffer(v.array.data.data(), v.array.data.size(), v.name));
      iargs.back().uninitialized = v.uninitialized;
      break;
    case HostValue::Int:
    case HostValue::Bool:
      iargs.push_back(interp::Arg::integer(v.i));
      break;
    case HostValue::Float:
      iargs.push_back(interp::Arg::floating(v.f));
      break;
    }
  }
  interp::LaunchOptions lopts;
  lopts.grid = spec.grid;
  lopts.deterministic = spec.deterministic;
  lopts.threads = spec.threads;
  if (auto e = interp::parseSanitizers(spec.sanitize, lopts.sanitize))
    return errorLine("--sanitize: " + *e);
  if (auto e = interp::sanitizersFromEnvironment(lopts.sanitize))
    return errorLine(*e);
  lopts.reports = &report.sanitizerReports;
  interp::TraceSpec trace;
  if (spec.traceLine) {
    trace.line = spec.traceLine;
    trace.file = spec.traceFile;
    trace.name = spec.traceName;
    trace.pids = spec.tracePids;
    lopts.trace = &trace;
  }
  interp::Coverage coverage;
  if (spec.coverage)
    lopts.coverage = &coverage;
  interp::Debugger debugger(std::cin, std::cout);
  if (spec.interactive)
    lopts.debugger = &debugger;
  interp::DumpSpec dump;
  if (!spec.traceAll.empty()) {
    dump.pid = spec.tracePids.empty() ? std::array<int64_t, 3>{0, 0, 0} : spec.tracePids[0];
    lopts.dump = &dump;
  }
  auto t1 = Clock::now();
  auto err = kernel->launch(iargs, lopts, &report.printed);
  report.launchMs = msSince(t1);
  report.launched = true;
  if (!spec.traceAll.empty()) {
    // Written even when the launch failed: the values up to the fault.
    std::vector<std::pair<std::string, rt::NpyArray>> arrays;
    for (interp::DumpedValue &v : dump.values) {
      rt::NpyArray a;
      a.dtype = v.npyDtype;
      a.shape = v.shape;
      a.allocate();
      std::memcpy(a.data.data(), v.bytes.data(), std::min(a.data.size(), v.bytes.size()));
      arrays.emplace_back(std::move(v.key), std::move(a));
    }
    if (auto e = rt::writeNpz(spec.traceAll, arrays))
      return errorLine("--trace-all: " + *e);
    report.printed += "trace-all: " + std::to_string(arrays.size()) + " values of program (" +
                      std::to_string(dump.pid[0]) + ", " + std::to_string(dump.pid[1]) + ", " +
                      std::to_string(dump.pid[2]) + ") in " + spec.traceAll +
                      (dump.truncated ? " (stopped at 1 GiB)" : "") + "\n";
  }
  if (spec.coverage && !err) {
    int64_t total = coverage.programs;
    std::string &text = report.coverageText;
    text = "coverage: kernel " + spec.kernel + ", " + std::to_string(total) + " program" +
           (total == 1 ? "" : "s") + "\n";
    for (const interp::LineCoverage &l : coverage.lines) {
      std::string where = l.file + ":" + std::to_string(l.line);
      char buf[96];
      std::string line = "  " + where + std::string(where.size() < 28 ? 28 - where.size() : 1, ' ') +
                         std::to_string(l.programs) + "/" + std::to_string(total) + " programs";
      std::string note = std::to_string(l.programs) + "/" + std::to_string(total);
      if (l.lanes) {
        std::snprintf(buf, sizeof buf, ", lanes %lld/%lld active (%.1f%%)",
                      static_cast<long long>(l.lanesActive), static_cast<long long>(l.lanes),
                      100.0 * double(l.lanesActive) / double(l.lanes));
        line += buf;
        std::snprintf(buf, sizeof buf, " %3.0f%%", 100.0 * double(l.lanesActive) / double(l.lanes));
        note += buf;
        if (!l.lanesActive)
          line += ": its mask is always false";
      }
      if (!l.programs)
        line += ": never ran";
      text += line + " [" + l.ops + "]\n";
      if (l.file == spec.file)
        report.coverageAnnotations[l.line] = note;
    }
  }
  if (err)
    return runErrorText(err->message);
  return std::nullopt;
#else
  (void)order;
  return errorLine("this tritium was built without the interpreter "
                   "(interpreter/ is not built yet), so it cannot launch kernels; "
                   "--dry-run checks the arguments and compiles");
#endif
}

int tritium::run::runCommand(const RunOptions &o, std::ostream &out, std::ostream &err) {
  auto fail = [&](const std::string &msg) {
    err << "tritium: error: " << msg << "\n";
    return 1;
  };
  LaunchSpec spec;
  spec.file = o.file;
  spec.kernel = o.kernel;
  spec.numWarps = o.numWarps;
  spec.debug = o.debug;
  spec.deterministic = o.deterministic;
  spec.threads = o.threads;
  spec.dryRun = o.dryRun;
  spec.sanitize = o.sanitize;
  spec.coverage = o.coverage || !o.coverageSource.empty();
  if (auto e = parseGrid(o.grid, spec.grid))
    return fail(*e);
  if (!o.trace.empty()) {
    // [FILE:]LINE[:NAME]
    std::string rest = o.trace;
    size_t colon = rest.rfind(':');
    auto isName = [](const std::string &s) {
      if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
      for (char c : s)
        if (!(std::isalnum((unsigned char)c) || c == '_'))
          return false;
      return true;
    };
    if (colon != std::string::npos && isName(rest.substr(colon + 1))) {
      spec.traceName = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
      colon = rest.rfind(':');
    }
    std::string line = colon == std::string::npos ? rest : rest.substr(colon + 1);
    if (colon != std::string::npos)
      spec.traceFile = rest.substr(0, colon);
    char *end = nullptr;
    long v = line.empty() ? 0 : std::strtol(line.c_str(), &end, 10);
    if (line.empty() || *end || v <= 0 || v > 1000000000)
      return fail("--trace " + o.trace + ": expected [FILE:]LINE[:NAME] with a line number, "
                  "e.g. --trace 12, --trace kernel.py:12 or --trace 12:acc");
    spec.traceLine = int(v);
  } else if (!o.pids.empty() && o.traceAll.empty()) {
    return fail("--pid chooses the programs --trace prints; give --trace [FILE:]LINE too");
  }
  spec.traceAll = o.traceAll;
  spec.interactive = o.interactive;
  for (const std::string &p : o.pids) {
    std::array<int64_t, 3> pid{0, 0, 0};
    size_t start = 0;
    bool ok = true;
    for (int d = 0; ok && start <= p.size(); ++d) {
      size_t comma = p.find(',', start);
      std::string item = p.substr(start, comma == std::string::npos ? std::string::npos
                                                                     : comma - start);
      char *end = nullptr;
      long long v = item.empty() ? -1 : std::strtoll(item.c_str(), &end, 10);
      ok = d < 3 && !item.empty() && !*end && v >= 0;
      if (ok)
        pid[d] = v;
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
    if (!ok)
      return fail("--pid " + p + ": expected X[,Y[,Z]] (a program id), e.g. --pid 3,0");
    for (int d = 0; d < 3; ++d)
      if (pid[d] >= spec.grid[d])
        return fail("--pid " + p + ": program " + std::to_string(pid[d]) + " on axis " +
                    std::to_string(d) + " is outside the grid [" +
                    std::to_string(spec.grid[0]) + ", " + std::to_string(spec.grid[1]) +
                    ", " + std::to_string(spec.grid[2]) + "]");
    spec.tracePids.push_back(pid);
  }
  for (auto &c : o.constexprs) {
    std::string name, value;
    if (auto e = splitAssignment("--constexpr", c, name, value))
      return fail(*e);
    if (!spec.constexprs.emplace(name, value).second)
      return fail("--constexpr " + name + " is given twice");
  }
  std::vector<HostValue> values;
  std::set<std::string> seen;
  for (auto &a : o.args) {
    std::string name, value;
    if (auto e = splitAssignment("--arg", a, name, value))
      return fail(*e);
    if (!seen.insert(name).second)
      return fail("--arg " + name + " is given twice");
    HostValue v;
    if (auto e = parseHostValue(name, value, o.seed, v))
      return fail(*e);
    values.push_back(std::move(v));
  }
  // --save / --check name buffers; check the references load before running.
  auto findBuffer = [&](const std::string &opt, const std::string &name,
                        std::optional<std::string> &e) -> size_t {
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i].name == name) {
        if (values[i].kind != HostValue::Buffer)
          e = opt + " " + name + ": '" + name + "' is a scalar, not a buffer";
        return i;
      }
    e = opt + " " + name + ": no buffer argument named '" + name + "'";
    return 0;
  };
  std::vector<std::pair<size_t, std::string>> saves;
  for (auto &s : o.saves) {
    std::string name, path;
    std::optional<std::string> e = splitAssignment("--save", s, name, path);
    size_t idx = e ? 0 : findBuffer("--save", name, e);
    if (e)
      return fail(*e);
    saves.emplace_back(idx, path);
  }
  struct Check {
    size_t index;
    std::string path;
    rt::NpyArray ref;
  };
  std::vector<Check> checks;
  for (auto &c : o.checks) {
    std::string name, path;
    std::optional<std::string> e = splitAssignment("--check", c, name, path);
    size_t idx = e ? 0 : findBuffer("--check", name, e);
    if (e)
      return fail(*e);
    Check chk{idx, path, {}};
    if (auto re = rt::readNpy(path, chk.ref))
      return fail("--check " + name + ": " + *re);
    checks.push_back(std::move(chk));
  }

  if (!o.record.empty())
    if (auto e = recordLaunch(o, values, o.record))
      return fail(*e);
  // Each executor in turn, from the same inputs; --trace, --coverage,
  // --sanitize and the debugger observe the interpreter's run.
  std::vector<std::string> executors;
  for (size_t b = 0; b <= o.executors.size();) {
    size_t c = std::min(o.executors.find(',', b), o.executors.size());
    std::string x = o.executors.substr(b, c - b);
    if (x != "interp" && x != "cuda")
      return fail("--executors " + o.executors + ": expected interp, cuda or both "
                  "(e.g. --executors interp,cuda), got '" + x + "'");
    if (std::find(executors.begin(), executors.end(), x) != executors.end())
      return fail("--executors " + o.executors + ": '" + x + "' is given twice");
    executors.push_back(x);
    b = c + 1;
  }
  bool observing = spec.traceLine || spec.coverage || !spec.traceAll.empty() ||
                   spec.interactive || !spec.sanitize.empty();
  if (observing && std::find(executors.begin(), executors.end(), "interp") == executors.end())
    return fail("--trace, --trace-all, --coverage, --sanitize and tritium debug observe the "
                "interpreter; add it: --executors interp," + o.executors);
  const LaunchSpec interpSpec = spec;
  LaunchSpec cudaSpec = spec;
  cudaSpec.cuda = true;
  cudaSpec.traceLine = 0;
  cudaSpec.coverage = false;
  cudaSpec.traceAll.clear();
  cudaSpec.interactive = false;
  cudaSpec.sanitize.clear();
  auto launchOnce = [&](const LaunchSpec &spec, std::vector<HostValue> &values) -> int {
    LaunchReport report;
    auto error = compileAndLaunch(spec, values, report);
    for (auto &p : report.staticPrints)
      err << p << "\n";
    if (!report.signature.empty())
      out << "kernel " << o.kernel << " grid [" << spec.grid[0] << ", " << spec.grid[1]
          << ", " << spec.grid[2] << "] signature " << report.signature << "\n";
    out << report.printed;
    if (!error && !o.dryRun && spec.traceLine &&
        report.printed.find(":" + std::to_string(spec.traceLine) + " program (") ==
            std::string::npos)
      err << "tritium: note: --trace " << o.trace << ": "
          << (spec.traceName.empty() ? "nothing of line " + std::to_string(spec.traceLine)
                                     : "no value of '" + spec.traceName + "' at line " +
                                           std::to_string(spec.traceLine))
          << " ran in the traced programs (the line was not reached, computes nothing a later "
             "line uses, or was folded away by the compiler)\n";
    if (error) {
      out.flush();
      err << *error;
      return 1;
    }
    char line[64];
    std::snprintf(line, sizeof(line), "compile: %.3f ms\n", report.compileMs);
    out << line;
    if (o.dryRun)
      return 0;
    std::snprintf(line, sizeof(line), "launch: %.3f ms\n", report.launchMs);
    out << line;
    out << report.coverageText;
    if (!o.coverageSource.empty()) {
      // The kernel's source, each line after its programs and active lanes.
      std::ifstream in(spec.file);
      std::ofstream cov(o.coverageSource);
      if (!cov)
        return fail("--coverage-source " + o.coverageSource + ": cannot write it");
      std::string text;
      for (int n = 1; std::getline(in, text); ++n) {
        auto it = report.coverageAnnotations.find(n);
        char buf[48];
        std::snprintf(buf, sizeof buf, "%12s | ",
                      it == report.coverageAnnotations.end() ? "" : it->second.c_str());
        cov << buf << text << "\n";
      }
    }
    // A sanitizer's findings fail the run, after the outputs are saved.
    for (const std::string &r : report.sanitizerReports)
      err << r << "\n";
    // compileAndLaunch may append defaulted values, but never reorders ours.
    for (auto &[idx, path] : saves)
      if (auto e = rt::writeNpy(path, values[idx].array))
        return fail("--save " + values[idx].name + ": " + *e);
    bool ok = true;
    for (auto &c : checks) {
      const HostValue &v = values[c.index];
      Tolerance tol = defaultTolerance(*v.elem);
      if (o.rtol)
        tol.rtol = *o.rtol;
      if (o.atol)
        tol.atol = *o.atol;
      CheckResult r = compareWithReference(v, c.ref, c.path, tol);
      out << r.line << "\n";
      ok &= r.pass;
    }
    if (!report.sanitizerReports.empty()) {
      err << "tritium: error: the sanitizer reported " << report.sanitizerReports.size()
          << " program" << (report.sanitizerReports.size() == 1 ? "" : "s") << "\n";
      return 1;
    }
    return ok ? 0 : 1;
  };
  if (executors.size() == 1)
    return launchOnce(executors[0] == "cuda" ? cudaSpec : interpSpec, values);
  const std::vector<HostValue> inputs = values;
  std::vector<std::vector<HostValue>> outputs;
  int status = 0;
  for (const std::string &x : executors) {
    out << "executor " << x << "\n";
    std::vector<HostValue> run = inputs;
    status |= launchOnce(x == "cuda" ? cudaSpec : interpSpec, run);
    outputs.push_back(std::move(run));
  }
  if (o.dryRun || status)
    return status; // nothing to compare
  // Every buffer of the later executors against the first's, with --check's
  // tolerances.
  for (size_t e = 1; e < executors.size(); ++e)
    for (size_t i = 0; i < inputs.size(); ++i) {
      const HostValue &v = outputs[e][i];
      if (v.kind != HostValue::Buffer)
        continue;
      Tolerance tol = defaultTolerance(*v.elem);
      if (o.rtol)
        tol.rtol = *o.rtol;
      if (o.atol)
        tol.atol = *o.atol;
      CheckResult r = compareWithReference(v, outputs[0][i].array, executors[0], tol);
      // "check NAME vs interp: PASS (...)" as "compare NAME, cuda vs interp: PASS (...)"
      size_t verdict = r.line.find(": ");
      out << "compare " << v.name << ", " << executors[e] << " vs " << executors[0]
          << (verdict == std::string::npos ? ": " + r.line : r.line.substr(verdict)) << "\n";
      if (!r.pass)
        status = 1;
    }
  return status;
}

//===- Interpreter.cpp - Kernel::create, Kernel::launch, grid loop -*- C++ -*-===//
//
// create() flattens the kernel once (Program.cpp). launch() registers the
// buffers, writes the scalar arguments into each worker's Frame and runs
// the grid: the only grid loop, parallel over OpenMP threads (dynamic
// schedule) unless deterministic. After a fault, programs with a higher
// linear id than the lowest failing one are skipped, and the fault of the
// lowest failing program is reported, so reports are reproducible. Print
// output is collected per program and flushed in program-id order.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Interpreter.h"
#include "interpreter/Memory.h"
#include "interpreter/Program.h"
#include "interpreter/Coverage.h"
#include "interpreter/Debugger.h"
#include "interpreter/Race.h"

#include "ir/TileDialect.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace tritium::interp {

class KernelImpl {
public:
  Program prog;
  /// The module with `noinline` helpers inlined, when the kernel calls any:
  /// their calls run inline here (a performance hint has no meaning on the
  /// interpreter).
  OwningOpRef<ModuleOp> inlined;
};

Kernel::Kernel(std::unique_ptr<KernelImpl> impl) : impl_(std::move(impl)) {}
Kernel::~Kernel() = default;

std::variant<std::unique_ptr<Kernel>, RunError>
Kernel::create(ModuleOp module, const std::string &kernelName) {
  auto func = module.lookupSymbol<func::FuncOp>(kernelName);
  if (!func)
    return RunError{"no kernel named '" + kernelName + "' in the module"};
  if (!func->hasAttr("tile.kernel"))
    return RunError{lineColOf(func.getLoc()) + ": '" + kernelName +
                    "' is not a kernel (no tile.kernel attribute)"};
  auto impl = std::make_unique<KernelImpl>();
  impl->prog.kernelName = kernelName;
  bool calls = false;
  func.walk([&](func::CallOp) { calls = true; });
  if (calls) {
    impl->inlined = module.clone();
    impl->inlined->walk([](func::CallOp c) { c->removeAttr("no_inline"); });
    PassManager pm(module.getContext());
    pm.addPass(createInlinerPass());
    pm.addPass(createCanonicalizerPass());
    if (failed(pm.run(*impl->inlined)))
      return RunError{lineColOf(func.getLoc()) + ": could not inline the kernel's calls"};
    func = impl->inlined->lookupSymbol<func::FuncOp>(kernelName);
  }
  if (auto err = flattenKernel(func, impl->prog))
    return RunError{*err};
  return std::unique_ptr<Kernel>(new Kernel(std::move(impl)));
}

size_t Kernel::numArgs() const { return impl_->prog.argSlots.size(); }

static std::optional<RunError> writeArg(Frame &f, const Program &p, size_t i,
                                        const Arg &a) {
  int s = p.argSlots[i];
  EK k = p.argKinds[i];
  void *dst = f.slot[s];
  std::string which = "argument " + std::to_string(i);
  if (k == EK::Ptr) {
    if (a.kind == Arg::Float)
      return RunError{which + " is a pointer but a float was given"};
    uint64_t addr = a.kind == Arg::Buffer ? reinterpret_cast<uint64_t>(a.data)
                                          : uint64_t(a.i);
    std::memcpy(dst, &addr, 8);
  } else if (isInt(k)) {
    if (a.kind != Arg::Int)
      return RunError{which + " is an integer (" + kindName(k) +
                      ") but a buffer or float was given"};
    writeInt(dst, 0, k, uint64_t(a.i));
  } else {
    double v = a.kind == Arg::Int ? double(a.i) : a.f;
    if (a.kind == Arg::Buffer)
      return RunError{which + " is a float but a buffer was given"};
    switch (k) {
    case EK::F16: *static_cast<half *>(dst) = half(float(v)); break;
    case EK::BF16: *static_cast<bf16 *>(dst) = bf16(float(v)); break;
    case EK::F32: *static_cast<float *>(dst) = float(v); break;
    case EK::F64: *static_cast<double *>(dst) = v; break;
    default: *static_cast<uint8_t *>(dst) = floatToFp8(k, v, false); break;
    }
  }
  return std::nullopt;
}

std::optional<RunError> Kernel::launch(const std::vector<Arg> &args,
                                       const LaunchOptions &options,
                                       std::string *printOut) {
  const Program &prog = impl_->prog;
  if (args.size() != prog.argSlots.size())
    return RunError{"kernel " + prog.kernelName + " takes " +
                    std::to_string(prog.argSlots.size()) +
                    " runtime arguments, " + std::to_string(args.size()) +
                    " given"};
  for (int d = 0; d < 3; ++d)
    if (options.grid[d] < 0)
      return RunError{"negative grid dimension"};
  if (options.trace)
    if (auto e = checkTraceName(prog, *options.trace))
      return RunError{*e};
  Memory mem;
  mem.trackUninitialized = options.sanitize & SanitizeUninit;
  for (const Arg &a : args)
    if (a.kind == Arg::Buffer)
      mem.add(a.data, a.bytes, a.name, a.uninitialized);
  for (const Arg &a : options.reachable)
    if (a.kind == Arg::Buffer && a.data && a.bytes)
      mem.add(a.data, a.bytes, a.name, false);
  mem.finalize();
  {
    // Validate arguments once, outside the parallel region.
    Frame probe(prog, &mem);
    for (size_t i = 0; i < args.size(); ++i)
      if (auto err = writeArg(probe, prog, i, args[i]))
        return err;
  }
  const int64_t gx = options.grid[0], gy = options.grid[1],
                gz = options.grid[2];
  const int64_t total = gx * gy * gz;
  int threads = 1;
#ifdef _OPENMP
  if (!options.deterministic)
    threads = options.threads > 0 ? options.threads : omp_get_max_threads();
#endif
  if (total < threads)
    threads = std::max<int64_t>(total, 1);
  if (options.debugger)
    threads = 1; // programs in order, stopped from the terminal
  // The race sanitizer runs the programs in order on one thread.
  std::unique_ptr<RaceState> race;
  if (options.sanitize & SanitizeRace) {
    threads = 1;
    race = std::make_unique<RaceState>(mem, options.grid);
  }

  std::unique_ptr<CoverageCounts> coverage;
  if (options.coverage)
    coverage = std::make_unique<CoverageCounts>(prog.numOps);
  std::atomic<int64_t> minFailed{INT64_MAX};
  std::mutex mu;
  std::vector<std::pair<int64_t, std::string>> errors, prints, reports;
  const int64_t chunk = std::max<int64_t>(1, total / (int64_t(threads) * 16));

#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    Frame f(prog, &mem);
    f.nprog = {gx, gy, gz};
    f.checkNan = options.sanitize & SanitizeNan;
    f.checkOverflow = options.sanitize & SanitizeOverflow;
    f.trace = options.trace;
    f.dump = options.dump;
    f.debugger = options.debugger;
    f.race = race.get();
    std::unique_ptr<CoverageCounts> local;
    if (coverage) {
      local = std::make_unique<CoverageCounts>(prog.numOps);
      f.coverage = local.get();
    }
    f.observed = f.checkNan || f.checkOverflow || f.trace || f.coverage || f.dump ||
                 f.debugger;
    for (size_t i = 0; i < args.size(); ++i)
      (void)writeArg(f, prog, i, args[i]);
#pragma omp for schedule(dynamic, chunk)
    for (int64_t lin = 0; lin < total; ++lin) {
      if (lin > minFailed.load(std::memory_order_relaxed))
        continue;
      f.pid = {lin % gx, (lin / gx) % gy, lin / (gx * gy)};
      f.lin = lin;
      f.failed = false;
      f.nanReported = false;
      f.uninitReported = false;
      f.overflowReported = false;
      f.raceReported = false;
      if (race)
        race->startProgram(lin);
      if (f.debugger)
        f.debugger->startProgram(lin, prog.numOps);
      f.lanes = 1;
      runBlock(prog.body, f);
      if (!f.printOut.empty() || f.failed || !f.reports.empty()) {
        std::lock_guard<std::mutex> lock(mu);
        if (!f.printOut.empty())
          prints.emplace_back(lin, std::move(f.printOut));
        if (!f.reports.empty())
          reports.emplace_back(lin, std::move(f.reports));
        f.reports.clear();
        if (f.failed)
          errors.emplace_back(lin, std::move(f.error));
        f.printOut.clear();
      }
      if (f.failed) {
        int64_t cur = minFailed.load();
        while (lin < cur && !minFailed.compare_exchange_weak(cur, lin)) {
        }
      }
    }
    if (local) {
      std::lock_guard<std::mutex> lock(mu);
      coverage->add(*local);
    }
  }
  if (coverage)
    coverage->fold(prog, total, *options.coverage);

  std::sort(prints.begin(), prints.end(),
            [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &p : prints) {
    if (printOut)
      *printOut += p.second;
    else
      std::fwrite(p.second.data(), 1, p.second.size(), stdout);
  }
  if (!printOut && !prints.empty())
    std::fflush(stdout);
  std::sort(reports.begin(), reports.end(),
            [](auto &a, auto &b) { return a.first < b.first; });
  std::vector<std::string> texts;
  for (auto &r : reports)
    texts.push_back(std::move(r.second));
  if (options.reports)
    options.reports->insert(options.reports->end(), texts.begin(), texts.end());
  else
    printReports(texts);
  if (errors.empty())
    return std::nullopt;
  auto first = std::min_element(
      errors.begin(), errors.end(),
      [](auto &a, auto &b) { return a.first < b.first; });
  return RunError{first->second};
}

} // namespace tritium::interp

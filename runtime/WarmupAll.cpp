//===- WarmupAll.cpp - compiling several specializations at once ----------===//
//
// warmupAll (runtime/Tritium.h): each job's tile IR in turn (the kernels
// share one MLIR context), then the GPU code generation and ptxas of all of
// them on a pool of threads (CudaLaunch.h's prepare/run/finish steps: only
// the middle one runs concurrently), then the modules loaded in order. Jobs
// for the HIP device compile and load in turn, in the first step.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaLaunch.h"
#include "runtime/KernelState.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

using namespace tritium;
using tritium::detail::Specialization;

std::vector<Expected<std::string>> tritium::warmupAll(const std::vector<WarmupJob> &jobs,
                                                      unsigned threads) {
  std::vector<Expected<std::string>> results;
  results.reserve(jobs.size());
  // 1. Specialize each job (tile IR, in the shared MLIR context) and start
  // the GPU compiles it needs, once per specialization.
  struct Pending {
    Specialization *sp;
    unsigned cc; // the target cross-compiled for; 0: the device
    rt::CudaJobPtr job;
    std::optional<Error> error;
  };
  std::vector<Pending> pending;
  std::vector<std::optional<size_t>> pendingOf(jobs.size());
  std::vector<Specialization *> lasts(jobs.size(), nullptr);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const WarmupJob &j = jobs[i];
    if (!j.kernel) {
      results.push_back(Error{"warmup job " + std::to_string(i) + ": kernel is null",
                              Error::Argument});
      continue;
    }
    KernelState &st = *j.kernel->state_;
    std::vector<Arg> bound;
    if (auto err = st.bind(j.args, bound)) {
      results.push_back(*err);
      continue;
    }
    auto spec = st.specialize(bound, j.options);
    if (!spec) {
      results.push_back(spec.error());
      continue;
    }
    Specialization &sp = **spec;
    lasts[i] = &sp;
    results.push_back(st.signatureOf(bound));
    unsigned cc = j.cudaComputeCapability;
    if (!cc && j.options.device == Device::Hip) {
      if (auto err = detail::ensureHip(sp, st.src.kernel, j.options))
        results.back() = *err;
      continue;
    }
    if (cc ? sp.gpu && sp.gpuTarget == cc
           : j.options.device != Device::Cuda || (sp.gpu && rt::cudaLoaded(*sp.gpu)))
      continue;
    for (size_t k = 0; k < pending.size() && !pendingOf[i]; ++k)
      if (pending[k].sp == &sp && pending[k].cc == cc)
        pendingOf[i] = k;
    if (pendingOf[i])
      continue;
    const LaunchOptions &o = j.options;
    auto job = cc ? rt::prepareCudaTarget(*sp.compiled.module, st.src.kernel, cc, o.numWarps,
                                          o.numStages, unsigned(o.maxnreg), o.enableFpFusion)
                  : rt::prepareCudaDevice(*sp.compiled.module, st.src.kernel, o.numWarps,
                                          o.numStages, unsigned(o.maxnreg), o.enableFpFusion);
    pendingOf[i] = pending.size();
    if (job)
      pending.push_back({&sp, cc, std::move(*job), std::nullopt});
    else
      pending.push_back({&sp, cc, nullptr, job.error()});
  }
  // 2. Code generation and ptxas, several at once.
  if (!threads)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, std::max<size_t>(pending.size(), 1));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next++) < pending.size();) {
      if (!pending[k].job)
        continue;
      // Nothing may escape a worker thread: an exception becomes the job's
      // error.
      try {
        pending[k].error = rt::runCuda(*pending[k].job);
      } catch (const std::exception &e) {
        pending[k].error = Error{std::string("internal error: ") + e.what(), Error::Other};
      } catch (...) {
        pending[k].error = Error{"internal error", Error::Other};
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  // 3. Load the modules, in order.
  for (Pending &p : pending) {
    if (p.error)
      continue;
    auto loaded = rt::finishCuda(*p.job);
    if (!loaded) {
      p.error = loaded.error();
      continue;
    }
    p.sp->gpu = *loaded;
    p.sp->gpuTarget = p.cc;
    p.sp->infoReady = false;
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (pendingOf[i] && pending[*pendingOf[i]].error)
      results[i] = *pending[*pendingOf[i]].error;
    if (lasts[i])
      jobs[i].kernel->state_->last = lasts[i];
  }
  return results;
}


//===- Ptxas.h - assembling PTX to cubin with NVIDIA's ptxas ----*- C++ -*-===//
//
// The last step of NVIDIA code generation when a CUDA toolkit is present:
// PTX from the NVPTX backend goes through ptxas (run as a child process, no
// shell) to a cubin the driver loads without JIT. ptxas's -v report gives
// the kernel's registers, spills and shared memory before it ever runs.
//
//   PtxasReport report;
//   auto cubin = assemble(ptx, "sm_90a", &report);
//   if (!cubin)
//     return cubin.error(); // ptxas's own diagnostics, with line numbers
//   cache.store(key, {{"kernel.cubin", *cubin}, ...});
//
// Without ptxas (ptxasAvailable() false) callers hand PTX to the driver's
// JIT instead (CudaDevice::loadModule with isPtx).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDA_PTXAS_H
#define TRITIUM_RUNTIME_CUDA_PTXAS_H

#include "runtime/Tritium.h"

#include <string>
#include <vector>

namespace tritium::cuda {

/// What `ptxas -v` says about the kernels it compiled. With several entry
/// functions in one PTX file the numbers are the largest over them.
struct PtxasReport {
  int registers = 0;       // "Used N registers" (per thread)
  int spillStoreBytes = 0; // "N bytes spill stores"
  int spillLoadBytes = 0;  // "N bytes spill loads"
  int stackFrameBytes = 0; // "N bytes stack frame"
  int sharedBytes = 0;     // "N bytes smem" (static shared memory)
  bool parsed = false;     // a "Used N registers" line was seen
  std::string log;         // ptxas's whole output (stdout and stderr)
};

/// The ptxas to run: $TRITIUM_PTXAS, else `ptxas` on PATH, else
/// /usr/local/cuda/bin/ptxas, else $CUDA_HOME/bin/ptxas. Empty when none is
/// an executable file; `whyNot` then lists where it looked.
std::string findPtxas(std::string *whyNot = nullptr);

/// Whether findPtxas() finds one.
bool ptxasAvailable();

/// The version line of `ptxas --version` ("Cuda compilation tools, release
/// 13.0, V13.0.88"), e.g. for a compiler version string in cache keys.
/// Computed once per process.
Expected<std::string> ptxasVersion();

/// Assembles `ptx` for `arch` ("sm_80", "sm_90a") with
/// `ptxas -v --gpu-name=ARCH -O3 in.ptx -o out.cubin` plus `extraArgs`, in
/// a temporary directory removed afterwards. Returns the cubin's bytes, or
/// an error holding ptxas's diagnostics. Fills `report` either way when
/// given.
Expected<std::string> assemble(const std::string &ptx, const std::string &arch,
                               PtxasReport *report = nullptr,
                               const std::vector<std::string> &extraArgs = {});

/// Reads the `-v` lines of ptxas output into `report` (exposed for tests).
void parsePtxasLog(const std::string &log, PtxasReport &report);

} // namespace tritium::cuda

#endif // TRITIUM_RUNTIME_CUDA_PTXAS_H

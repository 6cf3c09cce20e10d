//===- CudaLaunch.h - specialized kernels on an NVIDIA GPU ----------------===//
//
// The GPU leg of the C++ API: one specialization's tile IR goes through the
// code generator (codegen/Pipeline.h) to PTX, ptxas makes a cubin (the
// driver's JIT takes the PTX when there is no ptxas), and the result is
// kept in the on-disk kernel cache (runtime/KernelCache.h) and loaded on the
// device. Launch arguments are device pointers and scalars.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDALAUNCH_H
#define TRITIUM_RUNTIME_CUDALAUNCH_H

#include "runtime/Tritium.h"

#include <functional>
#include <memory>

namespace mlir {
class ModuleOp;
}

namespace tritium::rt {

struct CudaCompiled;

/// Whether a CUDA device can run kernels; `why` says why not.
bool cudaAvailable(std::string *why = nullptr);

/// cuDeviceGetAttribute on the launch device (Tritium.h).
std::optional<int> cudaDeviceAttribute(int attribute, std::string *why);

/// Compiles (or takes from the kernel cache) and loads `kernel` of the
/// optimized tile module for the current device.
Expected<std::shared_ptr<CudaCompiled>>
compileForCudaDevice(mlir::ModuleOp module, const std::string &kernel,
                     unsigned numWarps, unsigned numStages,
                     unsigned maxRegisters = 0, bool fpFusion = true);
/// The same for compute capability `cc` without a device (cross
/// compilation): the artifacts only, nothing loaded.
Expected<std::shared_ptr<CudaCompiled>>
compileForCudaTarget(mlir::ModuleOp module, const std::string &kernel, unsigned cc,
                     unsigned numWarps, unsigned numStages, unsigned maxRegisters = 0,
                     bool fpFusion = true);

/// The same for an AMD target ("gfx90a", "gfx942", "gfx950"), with no GPU
/// needed: tile-gpu.mlir, kernel.ll, kernel.amdgcn and kernel.hsaco (linked
/// by ld.lld), kept in the kernel cache like the CUDA ones.
Expected<std::shared_ptr<CudaCompiled>>
compileForAmdTarget(mlir::ModuleOp module, const std::string &kernel, const std::string &arch,
                    unsigned numWarps, unsigned numStages);

/// What a launcher needs of a compile, for the launchers that cannot see
/// CudaCompiled's definition (the HIP leg, runtime/HipLaunch.cpp, launches
/// what compileForAmdTarget made).
struct CompiledLaunchInfo {
  std::string name;
  unsigned numWarps = 4;
  /// Dynamic shared memory (LDS on AMD) the kernel launches with.
  unsigned sharedBytes = 0;
  /// One letter per LLVM parameter (see CudaCompiled::paramKinds).
  std::string paramKinds;
  bool fromCache = false;
};
CompiledLaunchInfo compiledLaunchInfo(const CudaCompiled &k);
/// The stage `file` of `k` ("kernel.hsaco"), or null when it was not made.
const std::string *compiledArtifact(const CudaCompiled &k, const std::string &file);

/// A compile for the CUDA device in three steps, so that the middle ones
/// of several may run at once (warmupAll): prepareCudaDevice looks in the
/// kernel cache or lowers the module to LLVM IR (it uses the module's MLIR
/// context); runCuda optimizes, emits PTX, runs ptxas and stores the cache
/// entry (it touches nothing shared: safe on any thread); finishCuda loads
/// the module on the device.
struct CudaJob;
struct CudaJobDeleter {
  void operator()(CudaJob *j) const;
};
using CudaJobPtr = std::unique_ptr<CudaJob, CudaJobDeleter>;
Expected<CudaJobPtr> prepareCudaDevice(mlir::ModuleOp module, const std::string &kernel,
                                       unsigned numWarps, unsigned numStages,
                                       unsigned maxRegisters = 0, bool fpFusion = true);
/// The same first step for compute capability `cc` without a device.
Expected<CudaJobPtr> prepareCudaTarget(mlir::ModuleOp module, const std::string &kernel,
                                       unsigned cc, unsigned numWarps, unsigned numStages,
                                       unsigned maxRegisters = 0, bool fpFusion = true);
std::optional<Error> runCuda(CudaJob &job);
Expected<std::shared_ptr<CudaCompiled>> finishCuda(CudaJob &job);

/// Launches with the runtime arguments the kernel's LLVM signature takes
/// (constexprs and ints folded as 1 already dropped): buffers carry device
/// pointers in `data`. `argName(i)` names argument i in errors (called
/// only then).
std::optional<Error> launchCuda(CudaCompiled &k, const Grid &grid,
                                const std::vector<const Arg *> &args,
                                const std::function<std::string(size_t)> &argName,
                                void *stream = nullptr);

/// Whether `k` is loaded on the device (not only cross-compiled).
bool cudaLoaded(const CudaCompiled &k);

/// Fills the GPU stages and resources of `info` from a loaded kernel.
void describeCuda(const CudaCompiled &k, CompiledInfo &info);

/// The resources of a loaded kernel, one line.
std::string cudaReport(const CudaCompiled &k);

} // namespace tritium::rt

#endif

//===- HipLaunch.h - specialized kernels on an AMD GPU ----------*- C++ -*-===//
//
// The HIP leg of the C++ API, beside the CUDA one (CudaLaunch.h): one
// specialization's tile IR is compiled for the architecture of the HIP
// device (compileForAmdTarget: tile-gpu IR, LLVM IR, AMDGCN and the hsaco,
// kept in the kernel cache), the code object is loaded on the device
// through the dlopen'ed HIP runtime (runtime/hip), and launches pass device
// pointers and scalars by the kernel's parameter kinds, with num_warps
// waves of 64 lanes and the kernel's dynamic LDS, on the caller's stream.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_HIPLAUNCH_H
#define TRITIUM_RUNTIME_HIPLAUNCH_H

#include "runtime/Tritium.h"

#include <functional>
#include <memory>

namespace mlir {
class ModuleOp;
}

namespace tritium::rt {

struct HipCompiled;

/// Whether the default HIP device can run kernels: the HIP runtime loads,
/// it sees a device, and the code generator supports that device's
/// architecture. `why` says why not: "no HIP runtime: ...", "no AMD GPU:
/// ...", or the device and its unsupported architecture.
bool hipAvailable(std::string *why = nullptr);

/// Compiles (or takes from the kernel cache) `kernel` of the optimized tile
/// module for the default HIP device's architecture and loads its hsaco
/// there.
Expected<std::shared_ptr<HipCompiled>>
compileForHipDevice(mlir::ModuleOp module, const std::string &kernel,
                    unsigned numWarps, unsigned numStages);

/// Launches with the runtime arguments the kernel's LLVM signature takes
/// (constexprs and ints folded as 1 already dropped): buffers carry device
/// pointers in `data`. The launch runs on the device the pointers are on
/// (the default device when HIP cannot say or there are none), on `stream`
/// (a hipStream_t; null: the null stream). `argName(i)` names argument i
/// in errors (called only then).
std::optional<Error> launchHip(
    HipCompiled &k, const Grid &grid, const std::vector<const Arg *> &args,
    const std::function<std::string(size_t)> &argName, void *stream = nullptr);

/// Fills the GPU stages (ttgir, llir, amdgcn, hsaco) and resources of
/// `info` from a loaded kernel.
void describeHip(const HipCompiled &k, CompiledInfo &info);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_HIPLAUNCH_H

//===- Nvidia.h - The NVPTX back end of the code generator ----------------===//
//
// Target machine, libdevice linking, LLVM optimization and PTX printing for
// NVIDIA GPUs. Assembling PTX into a cubin is the runtime's job (ptxas or
// the driver's JIT), so this layer needs no CUDA installation except
// libdevice for math functions.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVIDIA_NVIDIA_H
#define TRITIUM_CODEGEN_NVIDIA_NVIDIA_H

#include "codegen/TargetInfo.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium::codegen {

/// The NVPTX target machine for sm_<cc> (cached; null if NVPTX is missing).
/// `fpFusion`: a multiply and an add may become one fma (otherwise every
/// product and sum rounds, and PTX says so with .rn).
llvm::TargetMachine *targetMachine(unsigned cc, bool fpFusion = false);
/// Path of libdevice.10.bc: TRITIUM_LIBDEVICE, CUDA_HOME, /usr/local/cuda.
std::string findLibdevice();
/// Links libdevice when `m` calls __nv_* functions.
bool linkLibdevice(llvm::Module &m, std::string &error);
/// Verifies and runs the O3 pipeline.
bool optimizeModule(llvm::Module &m, unsigned cc, std::string &error,
                    bool fpFusion = false);
bool emitPtx(llvm::Module &m, unsigned cc, std::string &ptx, std::string &error,
             bool fpFusion = false);

} // namespace tritium::codegen

#endif

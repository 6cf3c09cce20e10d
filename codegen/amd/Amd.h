//===- Amd.h - The AMDGPU back end of the code generator --------*- C++ -*-===//
//
// Target machine, LLVM optimization, AMDGCN assembly, the code object and
// its link into an hsaco (ld.lld) for AMD GPUs (gfx90a, gfx942, gfx950:
// wave64), and the resource report read from the code object's metadata.
// Running an hsaco is the runtime's job (HIP); none is needed here.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMD_AMD_H
#define TRITIUM_CODEGEN_AMD_AMD_H

#include "codegen/TargetInfo.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium::codegen {

/// Whether `arch` is an AMD target tritium compiles for (gfx90a, gfx942,
/// gfx950).
bool isSupportedAmdArch(const std::string &arch);
/// "hip:gfx942" / "gfx942" -> "gfx942"; "" when not an AMD target.
std::string parseHipTarget(const std::string &target);

std::unique_ptr<TargetInfo> createAmdTargetInfo(const std::string &arch);
/// The AMDGPU target machine for `arch` (cached per thread; null when the
/// build has no AMDGPU target).
llvm::TargetMachine *amdTargetMachine(const std::string &arch);
/// Path of ROCm's ocml.bc: TRITIUM_OCML, $ROCM_PATH/amdgcn/bitcode, then
/// Debian's rocm-device-libs (/usr/lib/x86_64-linux-gnu/amdgcn/bitcode).
std::string findOcml();
/// Links ocml's functions `m` calls (__ocml_*), and ockl's printf
/// (__ockl_printf_*, from ockl.bc beside ocml.bc), and sets the device
/// libraries' control constants for `arch`; an error names a function ocml
/// lacks.
bool linkOcml(llvm::Module &m, const std::string &arch, std::string &error);
/// Verifies and runs the O3 pipeline.
bool optimizeAmdModule(llvm::Module &m, const std::string &arch, std::string &error);
/// The module as AMDGCN assembly (`object` false) or as an ELF relocatable
/// code object (`object` true).
bool emitAmdgcn(llvm::Module &m, const std::string &arch, bool object, std::string &out,
                std::string &error);
/// Links a relocatable code object into a loadable hsaco with ld.lld
/// (TRITIUM_LLD, or ld.lld on PATH, or LLVM's own).
bool linkHsaco(const std::string &object, std::string &hsaco, std::string &error);

/// Resources of one kernel, as its code object's metadata states them.
struct AmdKernelReport {
  std::string name;
  /// .sgpr_count, .vgpr_count (VGPRs and AGPRs together: one register
  /// file on gfx90a and later), .agpr_count.
  int sgprs = -1, vgprs = -1, agprs = -1;
  int sgprSpills = 0, vgprSpills = 0;
  int ldsBytes = 0;     ///< .group_segment_fixed_size
  int scratchBytes = 0; ///< .private_segment_fixed_size
  int wavefrontSize = 64;
  /// Waves per SIMD that fit by registers (512 per lane for VGPRs and
  /// AGPRs together; at most 8).
  int occupancy = 0;
};
/// Reads the `.amdgpu_metadata` block of AMDGCN assembly.
std::optional<AmdKernelReport> readAmdReport(const std::string &amdgcn, std::string &error);

} // namespace tritium::codegen

#endif

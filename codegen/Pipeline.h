//===- Pipeline.h - Tile IR to PTX for one kernel -------------------------===//
//
// The GPU compilation of one specialized kernel, from tile IR (after the
// tile-level pipeline) to PTX, keeping every intermediate stage so tools
// and the kernel cache can show or store it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_PIPELINE_H
#define TRITIUM_CODEGEN_PIPELINE_H

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ModuleOp;
namespace func {
class FuncOp;
}
} // namespace mlir

namespace tritium::codegen {

struct CudaCompileOptions {
  unsigned computeCapability = 90;
  /// Warps per program; 0 takes the kernel's `tile.num_warps` (default 4).
  unsigned numWarps = 0;
  /// Loops whose loads are prefetched one iteration ahead when >= 2 (a
  /// loop's own `tile.num_stages` attribute takes precedence).
  unsigned numStages = 3;
  /// Registers per thread the kernel may use (0: ptxas decides).
  unsigned maxRegisters = 0;
  /// A multiply and an add may become one fused multiply-add (Triton's
  /// enable_fp_fusion, on by default); off, every product and sum rounds.
  bool fpFusion = true;
  /// Loops marked warp_specialize are split into producer and consumer
  /// warps (sm_90; see lowerForCuda for when); off, the mark is ignored.
  bool warpSpecialize = true;
  /// An AMD target ("gfx90a", "gfx942", "gfx950"): when set, the kernel is
  /// compiled for it through the same passes, taking their paths for GPUs
  /// without NVIDIA's features (computeCapability is not used), to AMDGCN
  /// and an hsaco.
  std::string amdArch;
};

/// Where a compile stops: the tgpu IR, the optimized LLVM IR, the target's
/// assembly (PTX; AMDGCN for AMD), or (AMD) the linked code object too.
enum class CudaStage { TileGpu, LLIR, PTX, Hsaco };

struct CudaKernelArtifacts {
  std::string name;
  std::string tileGpu; ///< tgpu IR after layout assignment
  std::string llir;    ///< LLVM IR after libdevice and O3
  std::string ptx;
  std::string amdgcn; ///< AMD: the assembly
  std::string hsaco;  ///< AMD: the code object, linked (ELF)
  unsigned numWarps = 4;
  unsigned sharedBytes = 0; ///< dynamic shared memory per program
  /// Global scratch memory per program (tensor maps); when nonzero the
  /// kernel takes one more parameter after its own: a pointer to
  /// globalScratchBytes times the number of programs.
  unsigned globalScratchBytes = 0;
  /// Seconds spent in each stage, in order ("gpu passes": loop flattening,
  /// pipelining and layout assignment; "lowering": to LLVM IR; "llvm opt":
  /// libdevice and O3; "nvptx": PTX). A kernel compiled again with fewer
  /// pipeline stages (shared memory) counts every attempt.
  std::vector<std::pair<std::string, double>> stageSeconds;
  /// Adds `seconds` to stage `name` (appended when new).
  void addStage(const std::string &name, double seconds);
};

/// Compiles `kernel` of `module` up to `last`. On failure returns false
/// with a message naming the source location when there is one.
bool compileForCuda(mlir::ModuleOp module, const std::string &kernel,
                    const CudaCompileOptions &options, CudaKernelArtifacts &out,
                    std::string &error, CudaStage last = CudaStage::PTX);

/// A kernel lowered to LLVM IR in an LLVM context of its own, between the
/// two halves of compileForCuda.
struct LoweredCuda;
struct LoweredCudaDeleter {
  void operator()(LoweredCuda *l) const;
};
using LoweredCudaPtr = std::unique_ptr<LoweredCuda, LoweredCudaDeleter>;

/// The first half of compileForCuda: the GPU passes and the lowering to
/// LLVM IR (out.tileGpu, the kernel's resources). It works in `module`'s
/// MLIR context, so it runs while nothing else uses that context.
LoweredCudaPtr lowerForCuda(mlir::ModuleOp module, const std::string &kernel,
                            const CudaCompileOptions &options, CudaKernelArtifacts &out,
                            std::string &error);
/// The second half: libdevice, LLVM's optimizations and PTX (out.llir,
/// out.ptx). It touches nothing but `lowered`, so several may run at once
/// on different threads.
bool finishForCuda(LoweredCuda &lowered, CudaKernelArtifacts &out, std::string &error,
                   CudaStage last = CudaStage::PTX);

/// Software pipelining of each loop's global loads (Pipeliner.cpp): loads
/// feeding tensor cores are copied asynchronously into `stages` slots of
/// shared memory (a loop's `tile.num_stages` takes precedence), the others
/// are issued one iteration early. The slots stay within the target's
/// shared memory less a staging area and `holdBack` bytes.
void pipelineLoads(mlir::ModuleOp module, unsigned stages, unsigned computeCapability,
                   unsigned numWarps, int64_t holdBack = 0);

/// Shared memory one program may use on a compute capability (with the
/// opt-in above 48 KB).
unsigned sharedMemoryLimit(unsigned computeCapability);

/// Parses "cuda:90" / "cuda:80" / "sm_90"; returns 0 if not a CUDA target.
unsigned parseCudaTarget(const std::string &target);

/// One letter per parameter of a compiled kernel, as a launch passes it:
/// p pointer, b i1, c i8, s i16, i i32, l i64, f fp32, d fp64, h fp16,
/// B bf16, ? anything else.
std::string paramKinds(mlir::func::FuncOp kernel);

} // namespace tritium::codegen

#endif

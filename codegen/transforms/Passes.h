//===- Passes.h - Passes over the GPU dialect ------------------*- C++ -*-===//
//
// The passes that run between the tile-level pipeline (and the pipeliner)
// and the lowering to LLVM IR, on tile IR whose tensor types carry tgpu
// encodings. Each is a function the code generator's pipeline calls, and a
// pass tile-opt runs (registerGpuPasses).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TRANSFORMS_PASSES_H
#define TRITIUM_CODEGEN_TRANSFORMS_PASSES_H

#include "codegen/layouts/LinearLayout.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <functional>
#include <string>

namespace tritium::codegen {

/// Elements of one vector access along `dim` that the axis analysis
/// allows for a global access of `ptr` under `mask` (1: none).
using VectorWidthFn = std::function<unsigned(mlir::Value ptr, mlir::Value mask, unsigned dim)>;
/// Consecutive elements along `dim` the axis analysis proves `ptr` runs
/// (whatever their alignment; 1: none).
using ContiguityFn = std::function<unsigned(mlir::Value ptr, unsigned dim)>;

struct LayoutOptions {
  unsigned numWarps = 4;
  unsigned computeCapability = 90;
  unsigned warpSize = 32;
  /// AMD CDNA (gfx90a/942/950): products that fit go to MFMA.
  bool mfma = false;
  /// The AMD target ("gfx942"), whose MFMA instructions take fp8 in its
  /// own formats (FNUZ on gfx942, OCP on gfx950).
  std::string amdArch;
  /// Element width the default layouts are made for (defaultLayoutBits).
  unsigned layoutBits = 32;
  /// May be empty: no access is known to be contiguous.
  VectorWidthFn vectorWidth;
  /// May be empty, as vectorWidth.
  ContiguityFn contiguity;
};

/// Bytes an element of `t` takes in memory (pointers 8, i1 and fp8 1).
unsigned elementBytes(mlir::Type t);

/// The element width the default layouts of `func` are made for: the
/// narrowest global access that can move 16 bytes per thread (8 fp16 or 16
/// int8 values rather than 4), so 8- and 16-bit tiles load and store in
/// full-width vectors; 32 when there is none.
unsigned defaultLayoutBits(mlir::Operation *func, const VectorWidthFn &vectorWidth);

/// A range, a splat or a splat constant: made in any layout at no cost.
bool isCheapTile(mlir::Value v);
/// An op computed one register at a time from its operands' registers
/// (arith, addptr, pointer/integer casts), so in any layout its operands
/// can be had in: what rematerialization recomputes.
bool isRecomputableElementwise(mlir::Operation *op);

/// Layout assignment (AssignLayouts.cpp): gives every tensor value of
/// `func` a tgpu encoding on its type and makes each move between layouts
/// an explicit tgpu.convert_layout. Fails (with the reason in `error`)
/// only on IR it cannot lay out.
mlir::LogicalResult assignLayouts(mlir::Operation *func, const LayoutOptions &options,
                                  std::string &error);

/// Conversion removal (RemoveConversions.cpp): each tgpu.convert_layout
/// whose source can be recomputed in the target layout (ranges, splats,
/// constants, and shape and elementwise ops over them) is replaced by that
/// recomputation; values carried through scf.if/scf.for whose readers all
/// convert them take that layout where their sources allow it for free;
/// producers left without users go. Moves that stay within each thread and
/// moves of loaded or computed data remain.
void removeConversions(mlir::Operation *func, const LayoutOptions &options);

/// Warp specialization (WarpSpecialize.cpp): the first loop marked
/// `tile.warp_specialize` whose operands TMA copies (sm_90) is split into a
/// tgpu.warp_specialize op: the program's warps consume, a producer
/// warpgroup launched after them copies. Returns the warps the split adds
/// after those the layouts place (0: no loop was split).
unsigned warpSpecializeLoops(mlir::Operation *func, const LayoutOptions &options);

/// Warpgroup MMA groups (WgmmaGroups.cpp): each tile.dot that wgmma
/// computes (sm_90a) becomes a tgpu.wgmma, with tgpu.wgmma_wait ops placed
/// so that a loop's accumulating product stays in flight across one
/// iteration and every other reader sees final values.
void formWgmmaGroups(mlir::Operation *func, const LayoutOptions &options);
/// Whether formWgmmaGroups leaves product `dot` in flight across an
/// iteration of its loop (the accumulating product of a pipelined loop).
bool wgmmaLeftInFlight(mlir::Operation *dot, const LayoutOptions &options);

/// Operand staging (StageOperands.cpp): each operand of a tgpu.wgmma that
/// the instruction cannot read where it lies is written into the staging
/// area by a tgpu.local_alloc right before the product. Fails (with an
/// error on the product) only for a product whose operand has no swizzled
/// form, which dotUsesWgmma never makes.
mlir::LogicalResult stageOperands(mlir::Operation *func, const LayoutOptions &options);
/// The encoding naming `layout` on a tensor of type `t` (without
/// encoding): the first named form (#tgpu.blocked at the kernel's element
/// width, then at 8 to 64 bits; #tgpu.mma; #tgpu.dot_op) whose map it is,
/// else #tgpu.linear. The name depends on the map and shape only.
mlir::Attribute layoutEncoding(const LinearLayout &layout, mlir::RankedTensorType t,
                               const LayoutOptions &options);

/// Registers `tgpu-assign-layouts`, `tgpu-remove-conversions`,
/// `tgpu-warp-specialize`, `tgpu-wgmma-groups` and `tgpu-stage-operands`
/// with the global pass registry.
void registerGpuPasses();

} // namespace tritium::codegen

#endif

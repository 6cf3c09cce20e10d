//===- Passes.h - tile-level passes and the tile pipeline -------*- C++ -*-===//
//
// The passes that run on tile IR before either executor sees it, and the
// pipeline both executors consume: inline, canonicalize, tile-combine, cse,
// symbol-dce (Triton's make_ttir order).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_TRANSFORMS_PASSES_H
#define TRITIUM_IR_TRANSFORMS_PASSES_H

#include "ir/TileDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tile {

#define GEN_PASS_DECL
#include "ir/transforms/Passes.h.inc"

/// Rewrites every tile.dot_scaled under `root` as upcasts and a tile.dot
/// (the tile-decompose-dot-scaled pass); fails with a diagnostic on a form
/// it cannot rewrite.
LogicalResult decomposeDotScaled(Operation *root);

/// Rewrites every 2-D fp32 tile.dot of input precision bf16x3 or bf16x6
/// under `root` as products of bf16 parts (for tensor cores), summed as the
/// interpreter sums them.
void decomposeBf16Dots(Operation *root);

/// Flattens each loop nest under `root` whose outer scf.for is marked
/// tile.flatten (the tile-flatten-loops pass); nests of another form lose
/// the mark and stay as they are.
void flattenLoops(Operation *root);

/// Rewrites every arith/math op under `root` that computes on fp8 floats
/// to compute in fp32 between tile.fp_to_fp conversions (its fp8 results
/// rounded to nearest even), for the GPU lowering (WidenFp8.cpp).
void widenFp8Arithmetic(Operation *root);

/// inliner -> canonicalize -> tile-combine -> canonicalize -> cse -> symbol-dce
void buildTileOptimizePipeline(OpPassManager &pm);

/// Registers every tile pass and the `tile-optimize` pipeline with the
/// global registry (for tile-opt and tests).
void registerTilePassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "ir/transforms/Passes.h.inc"

} // namespace mlir::tile

#endif // TRITIUM_IR_TRANSFORMS_PASSES_H

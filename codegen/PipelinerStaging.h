//===- PipelinerStaging.h - tiles staged in shared memory ------*- C++ -*-===//
//
// What the software pipeliner (Pipeliner.cpp) shares with the staging of
// tiles outside pipelined loops (PipelinerStaging.cpp): which loads feed
// tensor cores, the shared memory a program may use and a slot takes, loads
// outside loops copied into shared memory once, and descriptor block loads
// rewritten as the masked pointer loads they mean.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_PIPELINERSTAGING_H
#define TRITIUM_CODEGEN_PIPELINERSTAGING_H

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace tritium::codegen::pipeliner {

/// A zero constant (scalar or splat), as cp.async fills masked lanes.
bool isZeroConstant(mlir::Value v);
/// A load that can land in shared memory asynchronously: a 16-bit float
/// tile (rows a multiple of 8 elements, masked-off lanes zero) read only by
/// tensor-core products.
bool feedsTensorCores(mlir::tile::LoadOp load, unsigned cc, unsigned numWarps);
/// Shared memory one program may use on a compute capability (with the
/// opt-in above 48 KB).
unsigned sharedLimit(unsigned cc);
/// Bytes of one slot of `load`'s tile, in the layout the lowering gives it
/// (copySlotLayout).
int64_t slotBytes(mlir::Operation *load, unsigned cc, unsigned numWarps);

/// What the buffers may take: the rest stays for the staging area of the
/// conversions, reductions and products inside the loops.
struct SharedBudget {
  int64_t left;
  bool take(int64_t bytes) {
    if (bytes > left)
      return false;
    left -= bytes;
    return true;
  }
};

/// Whether a product reading `load`'s tile (directly or through a
/// transpose) lies inside a loop, so that the tile is read again on every
/// iteration.
bool readInLoops(mlir::Operation *load);
/// The op of `load`'s block holding its first user, or null.
mlir::Operation *firstUserInBlock(mlir::Operation *load);
/// Loads outside loops that only tensor cores read, inside loops (say the
/// queries of an attention kernel), copied into shared memory once (buffers
/// from `nextBuffer` on, within `budget`).
void stageOutsideLoops(mlir::ModuleOp module, unsigned cc, unsigned numWarps,
                       int64_t &nextBuffer, SharedBudget &budget);
/// Whether `dl` qualifies for a shared-memory slot: a 2-D block of 16-bit or
/// fp8 floats with zero padding from a descriptor made by
/// tile.make_tensor_descriptor, read only by tensor-core products.
bool descriptorLoadFeedsTensorCores(mlir::tile::DescriptorLoadOp dl, unsigned cc,
                                    unsigned numWarps);
/// Each of `loads` becomes the plain masked load it means.
void rewriteDescriptorLoads(llvm::ArrayRef<mlir::tile::DescriptorLoadOp> loads);
/// The qualifying descriptor loads outside loops read by products inside
/// loops, rewritten (then staged by stageOutsideLoops).
void descriptorLoadsOutsideLoops(mlir::ModuleOp module, unsigned cc, unsigned numWarps);

} // namespace tritium::codegen::pipeliner

#endif

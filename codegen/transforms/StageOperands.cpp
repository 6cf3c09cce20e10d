//===- StageOperands.cpp - products' operands into shared memory ----------===//
//
// Hopper's warpgroup MMA reads B, and A unless it sits in the registers of
// its A fragment, from shared memory in a swizzled form. Operands the
// pipeliner already put there (its slots, read in place) stay; every other
// operand of a tgpu.wgmma is written into the staging area first by a
// tgpu.local_alloc right before the product: A as [M, K], B as [K, N] (or,
// 8-bit, stored [N, K]: those are read K-major only, so a slot held the
// other way round is staged again), each on a 1024-byte boundary, A first.
// The product waits for its group at once (WgmmaGroups.cpp), so the area
// is free for the next user after it.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "codegen/layouts/SharedLayout.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tritium::codegen {

LogicalResult stageOperands(Operation *func, const LayoutOptions &o) {
  SmallVector<tgpu::WgmmaOp> products;
  func->walk([&](tgpu::WgmmaOp w) { products.push_back(w); });
  for (tgpu::WgmmaOp w : products) {
    Value ab[2] = {w.getA(), w.getB()};
    std::optional<WgmmaStaging> how[2];
    for (unsigned k = 0; k < 2; ++k)
      how[k] = wgmmaOperandStaging(ab[0], ab[1], k, o.numWarps);
    OpBuilder b(w);
    int64_t at = 0;
    for (unsigned k = 0; k < 2; ++k) {
      if (!how[k])
        continue;
      if (!how[k]->swizzle)
        return w.emitOpError() << "operand " << (k ? "B" : "A") << " (" << ab[k].getType()
                               << ") has no swizzled shared-memory form that wgmma reads";
      auto t = cast<RankedTensorType>(ab[k].getType());
      auto enc = tgpu::SharedEncodingAttr::get(w.getContext(), how[k]->swizzle, 0,
                                               how[k]->transposed);
      auto type = RankedTensorType::get(t.getShape(), t.getElementType(), enc);
      auto alloc = tgpu::LocalAllocOp::create(b, w.getLoc(), type, ab[k],
                                              b.getI64IntegerAttr(at));
      w->setOperand(k, alloc.getResult());
      int64_t bytes = t.getNumElements() * elementBytes(t.getElementType());
      at += (bytes + 1023) / 1024 * 1024;
    }
  }
  return success();
}

} // namespace tritium::codegen

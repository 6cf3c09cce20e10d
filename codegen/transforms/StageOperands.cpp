//===- StageOperands.cpp - products' operands into shared memory ----------===//
//
// Tensor cores read a product's operands from shared memory: Hopper's
// warpgroup MMA through matrix descriptors (B always, A unless it sits in
// the registers of its A fragment), mma.sync on 16-bit floats through
// ldmatrix (A may also sit in its fragment's registers). Operands the
// pipeliner already put there (its slots, read in place) stay; every other
// operand is written into the staging area first by a tgpu.local_alloc
// right before the product, A first, each on a 1024-byte boundary:
//   - wgmma: A as [M, K], B as [K, N] (or, 8-bit, stored [N, K]: those are
//     read K-major only, so a slot held the other way round is staged
//     again), swizzled as the descriptors read them;
//   - mma.sync: as they are, swizzled where the shape allows, else rows
//     padded by 8 elements.
// The product is the area's only reader (a wgmma waits for its group at
// once: WgmmaGroups.cpp), so the area is free for the next user after it.
// Products on other precisions stage inside their lowering.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tritium::codegen {

LogicalResult stageOperands(Operation *func, const LayoutOptions &o) {
  SmallVector<Operation *> products;
  func->walk([&](Operation *op) {
    if (isa<tgpu::WgmmaOp, tile::DotOp>(op))
      products.push_back(op);
  });
  for (Operation *p : products) {
    Value ab[2] = {p->getOperand(0), p->getOperand(1)};
    std::optional<OperandStaging> how[2];
    for (unsigned k = 0; k < 2; ++k)
      how[k] = isa<tgpu::WgmmaOp>(p)
                   ? wgmmaOperandStaging(ab[0], ab[1], k, o.numWarps)
                   : mmaOperandStaging(cast<tile::DotOp>(p), k, o.computeCapability, o.numWarps);
    OpBuilder b(p);
    int64_t at = 0;
    for (unsigned k = 0; k < 2; ++k) {
      if (!how[k])
        continue;
      if (!how[k]->swizzle && !how[k]->pad)
        return p->emitOpError() << "operand " << (k ? "B" : "A") << " (" << ab[k].getType()
                                << ") has no swizzled shared-memory form that wgmma reads";
      auto t = cast<RankedTensorType>(ab[k].getType());
      auto enc = tgpu::SharedEncodingAttr::get(p->getContext(), how[k]->swizzle, how[k]->pad,
                                               how[k]->transposed);
      auto type = RankedTensorType::get(t.getShape(), t.getElementType(), enc);
      auto alloc =
          tgpu::LocalAllocOp::create(b, p->getLoc(), type, ab[k], b.getI64IntegerAttr(at));
      p->setOperand(k, alloc.getResult());
      at += (localAllocLayout(type).bytes() + 1023) / 1024 * 1024;
    }
  }
  return success();
}

} // namespace tritium::codegen

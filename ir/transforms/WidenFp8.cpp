//===- WidenFp8.cpp - fp8 arithmetic computed in fp32 ----------------------===//
//
// fp8 values are storage formats: no GPU instruction adds, multiplies or
// compares them (they are bytes to the LLVM lowering). Triton's typing lets
// arithmetic keep fp8 (`x * y` of two e5m2 tensors is e5m2), so after the
// tile pipeline (and again before the GPU lowering, for modules that come
// from elsewhere) every arith/math op over fp8 floats is rewritten to convert
// its fp8 operands to fp32 (exactly), compute there, and round its fp8
// result back to nearest even: one rounding, as the interpreter computes.
// Data movement (select, constants, loads, stores, shape ops, bitcasts)
// and tile.fp_to_fp stay as they are.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"
#include "ir/transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace {
bool isFp8(Type t) {
  Type e = getElementTypeOrSelf(t);
  return isa<FloatType>(e) && cast<FloatType>(e).getWidth() == 8;
}

/// `t` with its element type replaced by f32.
Type withF32(Type t, MLIRContext *ctx) {
  Type f32 = Float32Type::get(ctx);
  if (auto r = dyn_cast<RankedTensorType>(t))
    return r.clone(f32);
  return f32;
}

/// Whether `op` computes on floats (as opposed to moving them).
bool computes(Operation *op) {
  if (isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp>(op))
    return false;
  if (isa<math::MathDialect>(op->getDialect()))
    return true;
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::RemFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::CmpFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::FPToSIOp, arith::FPToUIOp, arith::ExtFOp, arith::TruncFOp>(op);
}
} // namespace

void mlir::tile::widenFp8Arithmetic(Operation *root) {
  SmallVector<Operation *> todo;
  root->walk([&](Operation *op) {
    if (!computes(op))
      return;
    bool any = false;
    for (Type t : op->getOperandTypes())
      any |= isFp8(t);
    for (Type t : op->getResultTypes())
      any |= isFp8(t);
    if (any)
      todo.push_back(op);
  });
  for (Operation *op : todo) {
    OpBuilder b(op);
    MLIRContext *ctx = op->getContext();
    Location loc = op->getLoc();
    // A conversion between fp8 and another float is one fp_to_fp (which
    // rounds to nearest even when it narrows).
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      Type to = op->getResult(0).getType();
      bool narrows = getElementTypeOrSelf(to).getIntOrFloatBitWidth() <
                     getElementTypeOrSelf(op->getOperand(0).getType()).getIntOrFloatBitWidth();
      tile::RoundingModeAttr mode;
      if (narrows)
        mode = tile::RoundingModeAttr::get(ctx, tile::RoundingMode::RTNE);
      Value v = tile::FpToFpOp::create(b, loc, to, op->getOperand(0), mode);
      op->getResult(0).replaceAllUsesWith(v);
      op->erase();
      continue;
    }
    for (OpOperand &use : op->getOpOperands())
      if (isFp8(use.get().getType()))
        use.set(tile::FpToFpOp::create(b, loc, withF32(use.get().getType(), ctx), use.get(),
                                       tile::RoundingModeAttr()));
    b.setInsertionPointAfter(op);
    for (OpResult r : op->getResults()) {
      if (!isFp8(r.getType()))
        continue;
      Type fp8 = r.getType();
      r.setType(withF32(fp8, ctx));
      auto back = tile::FpToFpOp::create(
          b, loc, fp8, r, tile::RoundingModeAttr::get(ctx, tile::RoundingMode::RTNE));
      r.replaceAllUsesExcept(back, back);
    }
  }
}

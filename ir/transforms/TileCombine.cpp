//===- TileCombine.cpp - the tile-combine pass ----------------------------===//
//
// Fuses op pairs that Triton kernels produce all the time into single tile
// ops (see Passes.td for the formulas). Runs after canonicalize so splats of
// zero are already dense constants.
//
//===----------------------------------------------------------------------===//
#include "ir/transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECOMBINE
#include "ir/transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A dot whose accumulator is zero and whose only use is `use`.
static DotOp zeroAccDot(Value v) {
  auto dot = v.getDefiningOp<DotOp>();
  if (!dot || !dot->hasOneUse())
    return {};
  if (!matchPattern(dot.getC(), m_AnyZeroFloat()) &&
      !matchPattern(dot.getC(), m_Zero()))
    return {};
  return dot;
}

/// add(dot(a, b, 0), d) -> dot(a, b, d) ;  add(d, dot(a, b, 0)) -> dot(a, b, d)
template <typename AddOpT>
struct AddIntoDot : public OpRewritePattern<AddOpT> {
  using OpRewritePattern<AddOpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOpT add,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      DotOp dot = zeroAccDot(add->getOperand(i));
      Value other = add->getOperand(1 - i);
      if (!dot || other.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(
          add, dot.getType(), dot.getA(), dot.getB(), other,
          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
      return success();
    }
    return failure();
  }
};

/// Whether `mask` is the select condition `cond` itself or its splat.
static bool sameCondition(Value mask, Value cond) {
  if (mask == cond)
    return true;
  if (auto splat = mask.getDefiningOp<SplatOp>())
    return splat.getSrc() == cond;
  return false;
}

/// select(m, load(p, m), o) -> load(p, m, o)
struct SelectOfMaskedLoad : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || load.getOther() || !load->hasOneUse() ||
        load.getType() != select.getType())
      return failure();
    if (!sameCondition(load.getMask(), select.getCondition()))
      return failure();
    auto fused = LoadOp::create(
        rewriter, load.getLoc(), load.getPtr(), load.getMask(),
        select.getFalseValue(), load.getCacheAttr(), load.getEvictAttr(),
        load.getIsVolatile());
    rewriter.replaceOp(select, fused.getResult());
    rewriter.eraseOp(load);
    return success();
  }
};

struct TileCombinePass : public mlir::tile::impl::TileCombineBase<TileCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AddIntoDot<arith::AddFOp>, AddIntoDot<arith::AddIOp>,
                 SelectOfMaskedLoad>(&getContext());
    BroadcastOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

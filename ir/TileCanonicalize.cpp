//===- TileCanonicalize.cpp - folds and canonicalization patterns --------===//
//
// Local rewrites every kernel benefits from, run by `canonicalize`. Each
// pattern states its rewrite as a formula. Splats of constants become dense
// constants so arith folds see through them; splat is pushed past shape ops
// so broadcasts of scalars stay scalars as long as possible; pointer chains
// collapse so axis analysis sees one base and one offset.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tile;

/// A splat constant of `type` with the value of a splat or scalar constant.
static Attribute resplat(Attribute constant, ShapedType type) {
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(constant))
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  return {};
}

// splat(constant c) -> dense<c>
OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (value && (isa<IntegerAttr>(value) || isa<FloatAttr>(value)))
    return DenseElementsAttr::get(getType(), value);
  return {};
}

// unsplat(splat(x)) -> x
OpFoldResult UnsplatOp::fold(FoldAdaptor adaptor) {
  if (auto splat = getSrc().getDefiningOp<SplatOp>())
    return splat.getSrc();
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return dense.getSplatValue<Attribute>();
  return {};
}

// broadcast(x : T) -> T  ==  x ;  broadcast(dense<c>) -> dense<c>
OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

// reshape(x : T) -> T  ==  x ;  reshape(dense<c>) -> dense<c>
OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

// trans(x, identity) -> x ;  trans(trans(x, p), q) -> x  when p∘q = id
OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  if (llvm::equal(order, llvm::seq<int32_t>(0, order.size())))
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    ArrayRef<int32_t> p = inner.getOrder();
    bool identity = true;
    for (auto [i, o] : llvm::enumerate(order))
      identity &= p[o] == int32_t(i);
    if (identity)
      return inner.getSrc();
  }
  return resplat(adaptor.getSrc(), getType());
}

// addptr(p, 0) -> p
OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

// bitcast(x : T) -> T  ==  x ;  bitcast(bitcast(x : T)) -> T  ==  x
OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<BitcastOp>())
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
  return {};
}

namespace {
/// shape_op(splat(x)) -> splat(x) : the result type, for any op whose result
/// is a pure rearrangement of its single tensor operand.
template <typename OpT>
struct SplatThrough : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x)
struct BroadcastOfBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                             inner.getSrc());
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x)
struct ReshapeOfReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(
        op, op.getType(), inner.getSrc(),
        op.getAllowReorder() || inner.getAllowReorder());
    return success();
  }
};

/// addptr(addptr(p, a), b) -> addptr(p, a + b)   (a, b of one type)
struct AddPtrChain : public OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(),
                                      inner.getOffset(), op.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), inner.getPtr(),
                                          sum);
    return success();
  }
};
} // namespace

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<SplatThrough<ExpandDimsOp>>(context);
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<SplatThrough<BroadcastOp>, BroadcastOfBroadcast>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<SplatThrough<ReshapeOp>, ReshapeOfReshape>(context);
}

void AddPtrOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<AddPtrChain>(context);
}

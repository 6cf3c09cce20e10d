//===- TileOpsShape.cpp - builders and verifiers of shape ops -------------===//
//
// make_range, splat/unsplat, expand_dims, broadcast, reshape, trans, join,
// split, cat, gather, histogram, sort: the ops whose result shape follows from
// their operands. Builders compute that shape; verifiers check it and name
// both shapes when they disagree.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

static RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = int32_t(getStart()), end = int32_t(getEnd());
  if (end <= start)
    return emitOpError("end ") << end << " must exceed start " << start;
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D, got rank ") << type.getRank();
  if (type.getDimSize(0) != end - start)
    return emitOpError("result length ")
           << type.getDimSize(0) << " differs from end - start = "
           << end - start;
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("range length ") << end - start
                                        << " is not a power of two";
  return success();
}

LogicalResult UnsplatOp::verify() {
  if (tensorOf(getSrc()).getNumElements() != 1)
    return emitOpError("source must hold one element, got shape ")
           << shapeStr(tensorOf(getSrc()).getShape());
  return success();
}

//===----------------------------------------------------------------------===//

void ExpandDimsOp::build(OpBuilder &b, OperationState &state, Value src,
                         int32_t axis) {
  auto type = tensorOf(src);
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + axis, 1);
  build(b, state, RankedTensorType::get(shape, type.getElementType()), src,
        axis);
}

LogicalResult ExpandDimsOp::verify() {
  auto src = tensorOf(getSrc());
  int64_t axis = int64_t(getAxis());
  if (axis > src.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << src.getRank();
  SmallVector<int64_t> shape(src.getShape());
  shape.insert(shape.begin() + axis, 1);
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(shape);
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = tensorOf(getSrc());
  auto dst = getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types differ: ")
           << src.getElementType() << " vs " << dst.getElementType();
  if (src.getRank() != dst.getRank())
    return emitOpError("rank ") << src.getRank() << " of source "
                                << shapeStr(src.getShape())
                                << " differs from result "
                                << shapeStr(dst.getShape());
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError("cannot broadcast ")
             << shapeStr(src.getShape()) << " to "
             << shapeStr(dst.getShape());
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = tensorOf(getSrc());
  auto dst = getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types differ: ")
           << src.getElementType() << " vs " << dst.getElementType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(src.getShape()) << " (" << src.getNumElements()
           << " elements) to " << shapeStr(dst.getShape()) << " ("
           << dst.getNumElements() << " elements)";
  return success();
}

void TransOp::build(OpBuilder &b, OperationState &state, Value src,
                    ArrayRef<int32_t> order) {
  auto type = tensorOf(src);
  SmallVector<int64_t> shape;
  for (int32_t o : order)
    shape.push_back(type.getDimSize(o));
  build(b, state, RankedTensorType::get(shape, type.getElementType()), src,
        order);
}

LogicalResult TransOp::verify() {
  auto src = tensorOf(getSrc());
  ArrayRef<int32_t> order = getOrder();
  if (int64_t(order.size()) != src.getRank())
    return emitOpError("order has ") << order.size()
                                     << " entries for a tensor of rank "
                                     << src.getRank();
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> shape;
  for (int32_t o : order) {
    if (o < 0 || o >= int32_t(order.size()) || seen[o])
      return emitOpError("order is not a permutation of 0..")
             << order.size() - 1;
    seen[o] = true;
    shape.push_back(src.getDimSize(o));
  }
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(shape);
  return success();
}

void JoinOp::build(OpBuilder &b, OperationState &state, Value lhs,
                   Value rhs) {
  auto type = tensorOf(lhs);
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(2);
  build(b, state, RankedTensorType::get(shape, type.getElementType()), lhs,
        rhs);
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> shape(tensorOf(getLhs()).getShape());
  shape.push_back(2);
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(shape);
  return success();
}

void SplitOp::build(OpBuilder &b, OperationState &state, Value src) {
  auto type = tensorOf(src);
  Type out = type.getElementType();
  if (type.getRank() > 1)
    out = RankedTensorType::get(type.getShape().drop_back(),
                                type.getElementType());
  build(b, state, out, out, src);
}

LogicalResult SplitOp::verify() {
  auto src = tensorOf(getSrc());
  if (src.getShape().back() != 2)
    return emitOpError("last dimension must be 2, got shape ")
           << shapeStr(src.getShape());
  Type expect = src.getElementType();
  if (src.getRank() > 1)
    expect = RankedTensorType::get(src.getShape().drop_back(),
                                   src.getElementType());
  auto out = dyn_cast<RankedTensorType>(getOutLHS().getType());
  if (out && src.getRank() > 1
          ? out.getShape() != src.getShape().drop_back() ||
                out.getElementType() != src.getElementType()
          : getOutLHS().getType() != expect)
    return emitOpError("results should be ")
           << expect << ", got " << getOutLHS().getType();
  return success();
}

LogicalResult CatOp::verify() {
  auto src = tensorOf(getLhs());
  int64_t dim = int64_t(getDim());
  if (dim >= src.getRank())
    return emitOpError("dim ") << dim << " out of range for rank "
                               << src.getRank();
  SmallVector<int64_t> shape(src.getShape());
  shape[dim] *= 2;
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(shape);
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = tensorOf(getSrc());
  auto idx = tensorOf(getIndices());
  int64_t axis = int64_t(getAxis());
  if (src.getRank() != idx.getRank())
    return emitOpError("indices rank ") << idx.getRank()
                                        << " differs from source rank "
                                        << src.getRank();
  if (axis >= src.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << src.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && src.getDimSize(d) != idx.getDimSize(d))
      return emitOpError("indices shape ")
             << shapeStr(idx.getShape()) << " must match source shape "
             << shapeStr(src.getShape()) << " except along axis " << axis;
  if (getType().getShape() != idx.getShape() ||
      getType().getElementType() != src.getElementType())
    return emitOpError("result must have the indices' shape and the "
                       "source's element type, got ")
           << getType();
  return success();
}

LogicalResult HistogramOp::verify() {
  if (tensorOf(getSrc()).getRank() != 1 || getType().getRank() != 1)
    return emitOpError("source and result must be 1-D");
  return success();
}

LogicalResult SortOp::verify() {
  int64_t rank = tensorOf(getSrc()).getRank();
  if (int64_t(getAxis()) >= rank)
    return emitOpError("axis ") << getAxis() << " out of range for rank "
                                << rank;
  return success();
}

//===- TileOpsDescriptor.cpp - verifiers of descriptor and map ops --------===//
//
// Tensor descriptors (make_tensor_descriptor, descriptor_load/store/reduce/
// gather/scatter) and map_elementwise: each access must match the
// descriptor's block type; a map region must take and yield scalars.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"

using namespace mlir;
using namespace mlir::tile;

/// A block access through `desc` at `numIndices` coordinates moving `value`.
static LogicalResult verifyAccess(Operation *op, TensorDescType desc,
                                  size_t numIndices, Type value) {
  RankedTensorType block = desc.getBlockType();
  if (int64_t(numIndices) != block.getRank())
    return op->emitOpError("takes ")
           << block.getRank() << " indices for a rank-" << block.getRank()
           << " descriptor, got " << numIndices;
  auto tensor = cast<RankedTensorType>(value);
  if (tensor.getElementType() != block.getElementType() ||
      tensor.getShape() != block.getShape())
    return op->emitOpError("moves ")
           << tensor << " but the descriptor's block is " << block;
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  int64_t rank = block.getRank();
  if (rank < 1 || rank > 5)
    return emitOpError("descriptor rank must be 1 to 5, got ") << rank;
  if (int64_t(getShape().size()) != rank)
    return emitOpError("has ") << getShape().size() << " sizes and "
                               << getStrides().size()
                               << " strides for a block of rank " << rank;
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError("base points to ")
           << getBase().getType().getPointeeType() << " but the block holds "
           << block.getElementType();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyAccess(*this, getDesc().getType(), getIndices().size(),
                      getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyAccess(*this, getDesc().getType(), getIndices().size(),
                      getSrc().getType());
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyAccess(*this, getDesc().getType(), getIndices().size(),
                      getSrc().getType());
}

/// Gather/scatter: a 2-D descriptor whose block is one row; the moved tile
/// has one row per x offset.
static LogicalResult verifyRows(Operation *op, TensorDescType desc,
                                Value xOffsets, Type value) {
  RankedTensorType block = desc.getBlockType();
  auto rows = cast<RankedTensorType>(xOffsets.getType());
  auto tensor = cast<RankedTensorType>(value);
  if (block.getRank() != 2 || rows.getRank() != 1)
    return op->emitOpError("needs a 2-D descriptor and 1-D row offsets, got ")
           << block << " and " << rows;
  SmallVector<int64_t> expect{rows.getDimSize(0), block.getDimSize(1)};
  if (tensor.getShape() != ArrayRef<int64_t>(expect) ||
      tensor.getElementType() != block.getElementType())
    return op->emitOpError("moves ")
           << tensor << " but should move " << shapeStr(expect) << " of "
           << block.getElementType();
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyRows(*this, getDesc().getType(), getXOffsets(), getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyRows(*this, getDesc().getType(), getXOffsets(),
                    getSrc().getType());
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError("needs a body");
  unsigned pack = getPack();
  if (pack == 0)
    return emitOpError("pack must be positive");
  Block &entry = region.front();
  if (entry.getNumArguments() != getSrcs().size() * pack)
    return emitOpError("body takes ")
           << entry.getNumArguments() << " arguments; expected "
           << getSrcs().size() * pack << " (" << getSrcs().size()
           << " operands x pack " << pack << ")";
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    Type expect = getElementTypeOrSelf(getSrcs()[i / pack].getType());
    if (arg.getType() != expect)
      return emitOpError("body argument #")
             << i << " is " << arg.getType() << "; expected " << expect;
  }
  for (Block &block : region)
    if (auto ret = dyn_cast<MapElementwiseReturnOp>(block.getTerminator()))
      if (ret.getResult().size() != getResult().size() * pack)
        return emitOpError("body yields ")
               << ret.getResult().size() << " values; expected "
               << getResult().size() * pack;
  return success();
}

//===- TileOps.cpp - verifiers of memory, dot, reduce and cast ops --------===//
//
// The generated op definitions plus the verifiers of the ops whose rules
// involve element types: memory access, atomics, dot, reduce/scan regions,
// float conversions and bitcasts, print.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "ir/TileOps.cpp.inc"

static ArrayRef<int64_t> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.getShape();
  return {};
}

static unsigned bitWidthOf(Type t) {
  Type e = getElementTypeOrSelf(t);
  if (isa<PointerType>(e))
    return 64;
  return e.getIntOrFloatBitWidth();
}

LogicalResult AddPtrOp::verify() {
  if (isa<RankedTensorType>(getPtr().getType()) !=
          isa<RankedTensorType>(getOffset().getType()) ||
      shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("pointer type ")
           << getPtr().getType() << " and offset type "
           << getOffset().getType() << " must have the same shape";
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a mask");
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  bool isFloat = isa<FloatType>(elem);
  RMWOp op = getAtomicRmwOp();
  if (op == RMWOp::FADD && !isFloat)
    return emitOpError("fadd needs a float element type, got ") << elem;
  if ((op == RMWOp::ADD || op == RMWOp::AND || op == RMWOp::OR ||
       op == RMWOp::XOR || op == RMWOp::MAX || op == RMWOp::MIN ||
       op == RMWOp::UMAX || op == RMWOp::UMIN) &&
      isFloat)
    return emitOpError(stringifyRMWOp(op))
           << " needs an integer element type, got " << elem;
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != b.getRank() || a.getRank() != c.getRank() ||
      (a.getRank() != 2 && a.getRank() != 3))
    return emitOpError("operands must all be 2-D or all 3-D, got ")
           << a << ", " << b << ", " << c;
  int64_t r = a.getRank();
  if (a.getDimSize(r - 1) != b.getDimSize(r - 2))
    return emitOpError("K of a (")
           << a.getDimSize(r - 1) << ") differs from K of b ("
           << b.getDimSize(r - 2) << ")";
  if (c.getDimSize(r - 2) != a.getDimSize(r - 2) ||
      c.getDimSize(r - 1) != b.getDimSize(r - 1))
    return emitOpError("accumulator ")
           << c << " should be " << a.getDimSize(r - 2) << "x"
           << b.getDimSize(r - 1);
  if (r == 3 && (a.getDimSize(0) != b.getDimSize(0) ||
                 a.getDimSize(0) != c.getDimSize(0)))
    return emitOpError("batch sizes differ: ")
           << a.getDimSize(0) << ", " << b.getDimSize(0) << ", "
           << c.getDimSize(0);
  Type ea = a.getElementType(), eb = b.getElementType();
  bool fp8a = isa<FloatType>(ea) && ea.getIntOrFloatBitWidth() == 8;
  bool fp8b = isa<FloatType>(eb) && eb.getIntOrFloatBitWidth() == 8;
  if (ea != eb && !(fp8a && fp8b))
    return emitOpError("operand element types differ: ")
           << ea << " vs " << eb;
  if (isa<IntegerType>(ea) != isa<IntegerType>(c.getElementType()))
    return emitOpError("integer operands need an integer accumulator and "
                       "float operands a float one, got ")
           << ea << " and " << c.getElementType();
  return success();
}

/// Shared checks of reduce and scan combine regions: 2N scalar block
/// arguments matching the operands' element types, N yielded values.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ValueRange srcs) {
  Block &block = region.front();
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region takes ")
           << block.getNumArguments() << " arguments; expected " << 2 * n;
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expect = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expect)
      return op->emitOpError("combine argument #")
             << i << " has type " << block.getArgument(i).getType()
             << "; expected " << expect;
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != n)
    return op->emitOpError("combine region yields ")
           << term->getNumOperands() << " values; expected " << n;
  for (unsigned i = 0; i < n; ++i)
    if (term->getOperand(i).getType() !=
        getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError("combine region yields ")
             << term->getOperand(i).getType() << " at #" << i
             << "; expected " << getElementTypeOrSelf(srcs[i].getType());
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  if (getResult().size() != getSrcs().size())
    return emitOpError("has ") << getResult().size() << " results for "
                               << getSrcs().size() << " operands";
  auto src = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = int64_t(getAxis());
  if (axis >= src.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << src.getRank();
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + axis);
  for (auto [s, r] : llvm::zip(getSrcs(), getResult())) {
    Type elem = getElementTypeOrSelf(s.getType());
    Type expect = shape.empty()
                      ? elem
                      : Type(RankedTensorType::get(shape, elem));
    // (At the GPU level the result carries its own layout.)
    auto rt = dyn_cast<RankedTensorType>(r.getType());
    if (rt && !shape.empty() ? rt.getShape() != ArrayRef<int64_t>(shape) ||
                                   rt.getElementType() != elem
                             : r.getType() != expect)
      return emitOpError("result type ")
             << r.getType() << " should be " << expect;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto src = cast<RankedTensorType>(getSrcs()[0].getType());
  if (int64_t(getAxis()) >= src.getRank())
    return emitOpError("axis ") << getAxis() << " out of range for rank "
                                << src.getRank();
  for (auto [s, r] : llvm::zip(getSrcs(), getResult()))
    if (getElementTypeOrSelf(s.getType()) != getElementTypeOrSelf(r.getType()) ||
        cast<RankedTensorType>(s.getType()).getShape() !=
            cast<RankedTensorType>(r.getType()).getShape())
      return emitOpError("result type ")
             << r.getType() << " should be " << s.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult FpToFpOp::verify() {
  unsigned from = bitWidthOf(getSrc().getType());
  unsigned to = bitWidthOf(getType());
  if (to < from && !getRounding())
    return emitOpError("narrowing ")
           << getElementTypeOrSelf(getSrc().getType()) << " to "
           << getElementTypeOrSelf(getType()) << " needs a rounding mode";
  return success();
}

LogicalResult BitcastOp::verify() {
  unsigned from = bitWidthOf(getSrc().getType());
  unsigned to = bitWidthOf(getType());
  if (from != to)
    return emitOpError("bit widths differ: ")
           << getElementTypeOrSelf(getSrc().getType()) << " has " << from
           << ", " << getElementTypeOrSelf(getType()) << " has " << to;
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned has ")
           << getIsSigned().size() << " entries for " << getArgs().size()
           << " operands";
  return success();
}

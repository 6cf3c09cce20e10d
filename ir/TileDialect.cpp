//===- TileDialect.cpp - dialect registration and type helpers ------------===//
//
// Registers the tile dialect's types and ops, lets the inliner move tile ops
// (every op is legal to inline: programs have no stack), and materializes
// folded constants as `arith.constant`.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "ir/TileDialect.cpp.inc"
#include "ir/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/TileTypes.cpp.inc"

namespace {
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TileDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ir/TileOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface>();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/TileTypes.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

Type mlir::tile::withElementType(Type like, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), element,
                                 tensor.getEncoding());
  return element;
}

Type mlir::tile::getPointeeTypeLike(Type ptrLike) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return ptrLike; // the op verifier reports the non-pointer
  return withElementType(ptrLike, ptr.getPointeeType());
}

Type mlir::tile::getI1TypeLike(Type type) {
  return withElementType(type, IntegerType::get(type.getContext(), 1));
}

Type mlir::tile::getPointerTypeLike(Type elementLike) {
  return withElementType(elementLike,
                         PointerType::get(getElementTypeOrSelf(elementLike)));
}

std::string mlir::tile::shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s + "]";
}

void mlir::tile::registerTileDialects(DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect, cf::ControlFlowDialect>();
  func::registerInlinerExtension(registry);
}

//===- LayoutAssigner.h - the layout assignment's state --------------------===//
//
// The walk that gives every tensor value a layout (AssignLayouts.cpp: its
// rules, the loops and the encodings written back; AssignLayoutsOps.cpp:
// the rule of each op). Internal to those two files.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TRANSFORMS_LAYOUTASSIGNER_H
#define TRITIUM_CODEGEN_TRANSFORMS_LAYOUTASSIGNER_H

#include "codegen/transforms/Passes.h"

#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <string>
#include <vector>

namespace tritium::codegen::layout_assignment {
using namespace mlir;


inline std::vector<int64_t> shapeOf(Type t) {
  auto s = cast<RankedTensorType>(t).getShape();
  return std::vector<int64_t>(s.begin(), s.end());
}

inline bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

/// Distinct elements behind a tensor: a broadcast (after expand_dims) holds
/// only its source's.
inline int64_t distinctElements(Value v) {
  Operation *d = v.getDefiningOp();
  while (d && isa<tile::BroadcastOp, tile::ExpandDimsOp>(d)) {
    v = d->getOperand(0);
    d = v.getDefiningOp();
  }
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getNumElements();
  return 1;
}

class Assigner {
public:
  Assigner(const LayoutOptions &o) : o(o) {}

  LogicalResult run(func::FuncOp func);
  std::string error;

private:
  const LayoutOptions &o;
  llvm::DenseMap<Value, LayoutRef> lay_;
  /// Tiles read in place from shared memory, with their encoding.
  llvm::DenseMap<Value, Attribute> shared_;
  /// Encodings given by their rule rather than found from the map (and
  /// the same in the order they were given, for naming).
  llvm::DenseMap<Value, Attribute> fixed_;
  std::vector<Attribute> fixedOrder_;
  void fix(Value v, Attribute enc) {
    fixed_[v] = enc;
    if (!llvm::is_contained(fixedOrder_, enc))
      fixedOrder_.push_back(enc);
  }
  /// The layout each operand is needed in (re-laying out a loop body
  /// overwrites its entries).
  std::map<OpOperand *, LayoutRef> want_;
  /// Shared buffers whose slots hold their tile transposed.
  std::map<int64_t, bool> transposed_;

  LayoutRef share(LinearLayout l) { return std::make_shared<const LinearLayout>(std::move(l)); }
  LayoutRef def(Type t) {
    return share(LinearLayout::defaultFor(shapeOf(t), o.numWarps, o.layoutBits, o.warpSize));
  }
  LayoutRef get(Value v) { return lay_.lookup(v); }
  void set(Value v, LayoutRef l) {
    if (isTensor(v))
      lay_[v] = std::move(l);
  }
  void need(OpOperand &u, LayoutRef l) {
    if (isTensor(u.get()) && l)
      want_[&u] = std::move(l);
  }
  LogicalResult fail(Operation *op, const llvm::Twine &msg) {
    if (error.empty())
      error = msg.str() + " ('" + op->getName().getStringRef().str() + "')";
    return failure();
  }
  unsigned hint(Value ptr, Value mask, unsigned dim) {
    return o.vectorWidth ? o.vectorWidth(ptr, mask, dim) : 1;
  }

  LogicalResult block(Block &b);
  LogicalResult op(Operation *op);
  LogicalResult forOp(scf::ForOp op);
  LogicalResult ifOp(scf::IfOp op);
  LogicalResult whileOp(scf::WhileOp op);
  LayoutRef elementwise(Operation *op, Type resultType);
  LayoutRef access(Value ptr, Value mask, Value other, LayoutRef a,
                   bool freePointers = false, bool valueMoves = false,
                   unsigned maxBits = 128, bool widen = false, Value stored = Value());
  unsigned atomicBits(tile::AtomicRMWOp op);
  LayoutRef transposedStoreLayout(tile::StoreOp st, LayoutRef value, LayoutRef access);
  LayoutRef asyncCopyLayout(tgpu::AsyncCopyOp copy);
  unsigned storeWidth(tile::StoreOp st, const LinearLayout &l, unsigned &bits);
  LayoutRef carriedPointerLayout(Value arg, LayoutRef init);
  bool canRemat(Value v, const LinearLayout &to, int depth);
  LayoutRef packed(LayoutRef preferred, Type tensorType, unsigned pack);
  void write(func::FuncOp func);
  Attribute encodingFor(const LinearLayout &l, RankedTensorType t);
};

} // namespace tritium::codegen::layout_assignment

#endif

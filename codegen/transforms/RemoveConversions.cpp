//===- RemoveConversions.cpp - Conversions removed by rematerialization ---===//
//
// After layout assignment, a tgpu.convert_layout whose source is cheap to
// compute anywhere (a range, a splat, a splat constant, and expand_dims,
// reshape, broadcast and elementwise ops over such values) is replaced by
// the same computation made in the target layout:
//
//   %s = tile.splat %p : #blocked3          %s' = tile.splat %p : #blocked2
//   %c = tgpu.convert_layout %s             ... uses of %c use %s'
//          : #blocked3 -> #blocked2    =>
//
// Leaves that sit in the target layout within each thread stay (with an
// in-thread conversion, a register pick); a broadcast's source that cannot
// be recomputed is converted itself (a row or column moves, not the tile).
// Loaded and computed data are never recomputed. Producers left without
// users are erased. The lowering emits the same code either way; the IR
// then says where each value is computed.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace tritium::codegen;

namespace {

std::vector<int64_t> shapeOf(Value v) {
  auto s = cast<RankedTensorType>(v.getType()).getShape();
  return std::vector<int64_t>(s.begin(), s.end());
}

class Remover {
public:
  explicit Remover(const LayoutOptions &o) : o(o) {}
  void run(Operation *func);

private:
  const LayoutOptions &o;

  std::optional<LinearLayout> layoutOf(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.getEncoding() || isa<tgpu::SharedEncodingAttr>(t.getEncoding()))
      return std::nullopt;
    return tgpu::toLinearLayout(t.getEncoding(), t.getShape(), o.warpSize);
  }
  /// The encodings the kernel already names its layouts with (a slice, a
  /// product's accumulator), by map and shape: values made here name their
  /// layouts alike, so ops whose operands must agree still verify.
  std::map<std::string, Attribute> inUse_;
  static std::string key(const LinearLayout &l) { return l.str(); }
  RankedTensorType typeIn(Type t, const LinearLayout &l) {
    auto plain = tgpu::withEncoding(t, Attribute());
    Attribute &enc = inUse_[key(l)];
    if (!enc)
      enc = layoutEncoding(l, plain, o);
    return tgpu::withEncoding(plain, enc);
  }
  /// Recomputed op by op: elementwise ops and hints (which make no code).
  static bool isElementwise(Operation *d) {
    return isRecomputableElementwise(d) || isa<tile::HintOp>(d);
  }
  /// Whether `v` can be had in `to` without moving data between threads.
  bool canRemat(Value v, const LinearLayout &to, int depth);
  /// `v` in `to` (canRemat holds), built before the builder's point.
  Value remat(Value v, const LinearLayout &to, OpBuilder &b);
  /// `v` in `to`: recomputed where it can be, else converted.
  Value rematOrConvert(Value v, const LinearLayout &to, OpBuilder &b) {
    if (canRemat(v, to, 0))
      return remat(v, to, b);
    return tgpu::ConvertLayoutOp::create(b, v.getLoc(), typeIn(v.getType(), to), v);
  }
};

bool Remover::canRemat(Value v, const LinearLayout &to, int depth) {
  auto have = layoutOf(v);
  if (!have)
    return false;
  if (*have == to || LinearLayout::threadLocalMap(*have, to))
    return true;
  Operation *d = v.getDefiningOp();
  if (!d || depth > 16 || d->getNumResults() != 1)
    return false;
  if (auto c = dyn_cast<tgpu::ConvertLayoutOp>(d))
    return canRemat(c.getSrc(), to, depth + 1);
  if (isCheapTile(v) || isa<tile::BroadcastOp>(d))
    return true;
  if (auto e = dyn_cast<tile::ExpandDimsOp>(d))
    return canRemat(e.getSrc(), to.sliceDim(e.getAxis()), depth + 1);
  if (auto r = dyn_cast<tile::ReshapeOp>(d))
    return canRemat(r.getSrc(), to.reshape(shapeOf(r.getSrc())), depth + 1);
  if (!isElementwise(d))
    return false;
  for (Value x : d->getOperands())
    if (isa<RankedTensorType>(x.getType()) && !canRemat(x, to, depth + 1))
      return false;
  return true;
}

Value Remover::remat(Value v, const LinearLayout &to, OpBuilder &b) {
  auto have = layoutOf(v);
  if (*have == to)
    return v;
  RankedTensorType type = typeIn(v.getType(), to);
  Operation *d = v.getDefiningOp();
  bool inThread = bool(LinearLayout::threadLocalMap(*have, to));
  if (!d || (inThread && !isCheapTile(v)))
    return tgpu::ConvertLayoutOp::create(b, v.getLoc(), type, v);
  if (auto c = dyn_cast<tgpu::ConvertLayoutOp>(d))
    return remat(c.getSrc(), to, b);
  std::vector<Value> operands;
  if (auto e = dyn_cast<tile::ExpandDimsOp>(d)) {
    operands.push_back(remat(e.getSrc(), to.sliceDim(e.getAxis()), b));
  } else if (auto r = dyn_cast<tile::ReshapeOp>(d)) {
    operands.push_back(remat(r.getSrc(), to.reshape(shapeOf(r.getSrc())), b));
  } else if (auto bc = dyn_cast<tile::BroadcastOp>(d)) {
    operands.push_back(
        rematOrConvert(bc.getSrc(), to.projectTo(shapeOf(bc.getSrc())), b));
  } else {
    for (Value x : d->getOperands())
      operands.push_back(isa<RankedTensorType>(x.getType()) ? remat(x, to, b) : x);
  }
  Operation *n = b.clone(*d);
  for (auto [k, x] : llvm::enumerate(operands))
    n->setOperand(k, x);
  n->getResult(0).setType(type);
  if (auto c = dyn_cast<arith::ConstantOp>(n))
    c.setValueAttr(cast<DenseElementsAttr>(c.getValue()).reshape(type));
  return n->getResult(0);
}

void Remover::run(Operation *func) {
  auto note = [&](Value v) {
    if (auto l = layoutOf(v))
      inUse_.try_emplace(key(*l), cast<RankedTensorType>(v.getType()).getEncoding());
  };
  func->walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          note(a);
    for (Value r : op->getResults())
      note(r);
  });
  std::vector<tgpu::ConvertLayoutOp> converts;
  func->walk([&](tgpu::ConvertLayoutOp c) { converts.push_back(c); });
  for (tgpu::ConvertLayoutOp c : converts) {
    auto from = layoutOf(c.getSrc()), to = layoutOf(c.getResult());
    if (!from || !to || LinearLayout::threadLocalMap(*from, *to))
      continue;
    Operation *d = c.getSrc().getDefiningOp();
    if (!d || !canRemat(c.getSrc(), *to, 0))
      continue;
    OpBuilder b(c);
    Value v = remat(c.getSrc(), *to, b);
    c.getResult().replaceAllUsesWith(v);
    c.erase();
  }
  // Producers nobody reads any more.
  bool erased = true;
  while (erased) {
    erased = false;
    std::vector<Operation *> dead;
    func->walk([&](Operation *op) {
      if (op->use_empty() && op->getNumResults() && isMemoryEffectFree(op) &&
          op->getNumRegions() == 0)
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    erased = !dead.empty();
  }
}

} // namespace

void tritium::codegen::removeConversions(Operation *func, const LayoutOptions &options) {
  Remover(options).run(func);
}

//===- PipelinerSlices.cpp - what an iteration ahead can compute ----------===//
//
// Slices, recurrences and loop-carried chains for the software pipeliner
// (see PipelinerSlices.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/PipelinerSlices.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tritium::codegen;
using pipeliner::ChainLeaves;
using pipeliner::ChainUse;
using pipeliner::Chain;
using pipeliner::Chains;
using pipeliner::Recurrence;
using pipeliner::Recurrences;
namespace tile = mlir::tile;

bool pipeliner::isPureShapeOrArith(Operation *op) {
  StringRef n = op->getName().getStringRef();
  return (n.starts_with("arith.") && op->getNumRegions() == 0) ||
         isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp,
             tile::MakeRangeOp, tile::AddPtrOp, tile::ReshapeOp, tile::HintOp>(op);
}

Recurrences pipeliner::findRecurrences(scf::ForOp loop) {
  Recurrences out;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    Operation *d = yield.getOperand(i).getDefiningOp();
    Value step;
    if (auto add = dyn_cast_or_null<arith::AddIOp>(d)) {
      if (add.getLhs() == arg && loop.isDefinedOutsideOfLoop(add.getRhs()))
        step = add.getRhs();
      else if (add.getRhs() == arg && loop.isDefinedOutsideOfLoop(add.getLhs()))
        step = add.getLhs();
    } else if (auto adv = dyn_cast_or_null<tile::AddPtrOp>(d)) {
      if (adv.getPtr() == arg && loop.isDefinedOutsideOfLoop(adv.getOffset()))
        step = adv.getOffset();
    }
    if (step)
      out[arg] = Recurrence{unsigned(i), step};
  }
  return out;
}

Value pipeliner::scaled(OpBuilder &b, Location loc, Value d, int64_t k) {
  if (k == 1)
    return d;
  if (auto splat = d.getDefiningOp<tile::SplatOp>()) {
    Value x = splat.getOperand();
    Value kx = arith::MulIOp::create(b, loc, x, constantLike(b, loc, x.getType(), k));
    return tile::SplatOp::create(b, loc, d.getType(), kx);
  }
  SplatElementsAttr attr;
  if (matchPattern(d, m_Constant(&attr)) && isa<IntegerType>(attr.getElementType()))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(cast<ShapedType>(d.getType()),
                                       attr.getSplatValue<APInt>() * k));
  return arith::MulIOp::create(b, loc, d, constantLike(b, loc, d.getType(), k));
}

Value pipeliner::advanceBy(OpBuilder &b, Location loc, Value x, Value step, int64_t k) {
  if (k == 0)
    return x;
  Value ks = scaled(b, loc, step, k);
  Type et = getElementTypeOrSelf(x.getType());
  if (isa<tile::PointerType>(et))
    return tile::AddPtrOp::create(b, loc, x.getType(), x, ks);
  return arith::AddIOp::create(b, loc, x, ks);
}

bool pipeliner::collectSlice(Value v, Block *body, Value iv,
                             llvm::SetVector<Operation *> &slice, const Recurrences &rec,
                             const ChainLeaves *leaves, ChainUse *used) {
  if (v == iv || rec.count(v))
    return true;
  if (leaves) {
    if (auto it = leaves->args.find(v); it != leaves->args.end()) {
      if (used)
        used->args.insert(it->second);
      return true;
    }
  }
  Operation *d = v.getDefiningOp();
  if (!d)
    return v.getParentBlock() != body; // other block arguments: invariant only
  if (d->getBlock() != body)
    return !body->getParentOp()->isAncestor(d);
  if (leaves && leaves->ops.contains(d)) {
    if (used)
      used->ops.insert(d);
    return true;
  }
  if (leaves && leaves->allowIf && isa<scf::IfOp>(d) && isMemoryEffectFree(d)) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(d->getRegions(), above);
    above.insert(cast<scf::IfOp>(d).getCondition());
    for (Value o : above)
      if (!collectSlice(o, body, iv, slice, rec, leaves, used))
        return false;
    slice.insert(d);
    return true;
  }
  if (!isPureShapeOrArith(d))
    return false;
  for (Value o : d->getOperands())
    if (!collectSlice(o, body, iv, slice, rec, leaves, used))
      return false;
  slice.insert(d);
  return true;
}

Chains pipeliner::findChains(scf::ForOp loop, const Recurrences &rec) {
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::SmallDenseSet<unsigned> cand;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (!rec.count(arg))
      cand.insert(unsigned(i));
  Chains out;
  for (bool changed = true; changed;) {
    changed = false;
    ChainLeaves leaves;
    leaves.allowIf = true;
    for (unsigned i : cand)
      leaves.args[loop.getRegionIterArgs()[i]] = i;
    out.clear();
    for (unsigned i : llvm::to_vector(cand)) {
      Chain c;
      c.arg = i;
      if (!collectSlice(yield.getOperand(i), body, iv, c.slice, rec, &leaves, &c.reads)) {
        cand.erase(i);
        changed = true;
        break;
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

ChainLeaves pipeliner::chainLeaves(scf::ForOp loop, const Chains &chains) {
  ChainLeaves l;
  for (const Chain &c : chains) {
    l.args[loop.getRegionIterArgs()[c.arg]] = c.arg;
    l.ops.insert(c.slice.begin(), c.slice.end());
  }
  return l;
}

Chains pipeliner::chainsRead(const Chains &chains, const ChainUse &use) {
  llvm::SmallDenseSet<unsigned> need(use.args.begin(), use.args.end());
  for (const Chain &c : chains)
    if (llvm::any_of(use.ops, [&](Operation *op) { return c.slice.contains(op); }))
      need.insert(c.arg);
  for (bool grew = true; grew;) {
    grew = false;
    for (const Chain &c : chains)
      if (need.contains(c.arg))
        for (unsigned a : c.reads.args)
          grew |= need.insert(a).second;
  }
  Chains out;
  for (const Chain &c : chains)
    if (need.contains(c.arg))
      out.push_back(c);
  return out;
}

Value pipeliner::constantLike(OpBuilder &b, Location loc, Type t, int64_t v) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(rt, b.getIntegerAttr(rt.getElementType(), v)));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

Value pipeliner::iterationAhead(OpBuilder &b, Location loc, Value i, Value step, int64_t k) {
  if (k == 0)
    return i;
  Value ks = arith::MulIOp::create(b, loc, step, constantLike(b, loc, step.getType(), k));
  return arith::AddIOp::create(b, loc, i, ks);
}

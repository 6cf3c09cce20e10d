//===- FlattenLoops.cpp - one loop for a tile loop and its k loop ---------===//
//
// `tl.range(..., flatten=True)` (tile.flatten on an scf.for): a loop whose
// body is a prologue, one inner scf.for with bounds invariant to it, and an
// epilogue becomes one loop over all inner iterations of all outer ones,
// so that the software pipeliner keeps its copies in flight across the
// outer iterations (a persistent matmul's tiles) instead of draining and
// refilling its ring at each one:
//
//   for i in [lo, hi) step s (o):            N = trips of the inner loop
//     P = prologue(i, o)                     T = trips of the outer loop * N
//     r = for k in [klo, khi) (x = init(P)): body(k, x)
//     o = epilogue(i, P, r, o)
// becomes, when N > 0,
//   for t in [0, T) (o, x, C, j = 0, i = lo):
//     C = j == 0 ? prologue(i, o) : C        (under scf.if)
//     x = body(klo + j * kstep, j == 0 ? init(C) : x)
//     o = j == N - 1 ? epilogue(i, C, x, o) : o   (under scf.if)
//     j, i = j == N - 1 ? (0, i + s) : (j + 1, i)
// and when N == 0 the loop runs with the inner loop's results replaced by
// its initial values. The position is carried as counters (no division
// per iteration); the prologue's results are carried from one tile's
// first iteration to its others, except cheap side-effect-free ops that
// do not change with the tile (constants, an accumulator's zeros) or
// whose values cannot be carried, which stay in the body. The software
// pipeliner computes the counters and the prologue's scf.if ahead for the
// copies it issues (loop-carried chains), and the accumulator's reset is a
// select on j == 0 that the wgmma lowering turns into the instruction's
// zero-accumulator predicate.
//
// A loop that does not have this form is left as it is (flatten is a hint).
//
//===----------------------------------------------------------------------===//
#include "ir/transforms/Passes.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
namespace tile = mlir::tile;

namespace {

/// Side-effect-free ops cheap enough to compute again in every iteration.
bool isRecomputable(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !isa<tile::DotOp, tile::DotScaledOp, tile::SortOp, tile::HistogramOp,
              tile::GatherOp>(op);
}

/// Whether a loop can carry values of type `t`: placeholder has a value
/// to start its slot with.
bool canCarry(Type t) {
  return isa<IntegerType, FloatType, tile::PointerType>(getElementTypeOrSelf(t));
}

/// A value of type `t` (canCarry) for a carried slot that is written
/// before it is read. Its op is marked tile.placeholder: the axis analysis
/// gives it the identity of its join, so the slot keeps what the values
/// written there share (a tile's row offsets stay contiguous and aligned,
/// and the epilogue's stores stay vectorized).
Value placeholder(OpBuilder &b, Location loc, Type t) {
  Type et = getElementTypeOrSelf(t);
  auto tensor = dyn_cast<RankedTensorType>(t);
  Value v;
  if (isa<IntegerType, FloatType>(et)) {
    v = arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(t)));
  } else if (isa<tile::PointerType>(et)) {
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    Value p = tile::IntToPtrOp::create(b, loc, et, zero);
    v = tensor ? Value(tile::SplatOp::create(b, loc, t, p)) : p;
  } else {
    return {};
  }
  v.getDefiningOp()->setAttr(tile::kPlaceholderAttr, b.getUnitAttr());
  return v;
}

/// Trips of [lo, hi) step s: max(hi - lo, 0) ceil-divided by s (s > 0).
Value tripCount(OpBuilder &b, Location loc, Value lo, Value hi, Value step, bool isUnsigned) {
  Type t = lo.getType();
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
  Value span = b.createOrFold<arith::SubIOp>(loc, hi, lo);
  Value num =
      b.createOrFold<arith::AddIOp>(loc, span, b.createOrFold<arith::SubIOp>(loc, step, one));
  Value trips = isUnsigned ? Value(b.createOrFold<arith::DivUIOp>(loc, num, step))
                           : Value(b.createOrFold<arith::DivSIOp>(loc, num, step));
  Value empty = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle, hi, lo);
  return b.createOrFold<arith::SelectOp>(loc, empty, zero, trips);
}

/// An scf.if with both blocks and no terminators yet.
scf::IfOp ifElse(OpBuilder &b, Location loc, TypeRange types, Value cond) {
  return scf::IfOp::create(b, loc, types, cond, /*addThenBlock=*/true, /*addElseBlock=*/true);
}

struct Nest {
  scf::ForOp outer, inner;
  SmallVector<Operation *> prologue, epilogue;
};

std::optional<Nest> matchNest(scf::ForOp outer) {
  Nest n;
  n.outer = outer;
  Block *body = outer.getBody();
  for (Operation &op : body->without_terminator()) {
    if (auto f = dyn_cast<scf::ForOp>(&op); f && !n.inner) {
      n.inner = f;
      continue;
    }
    (n.inner ? n.epilogue : n.prologue).push_back(&op);
  }
  if (!n.inner)
    return std::nullopt;
  scf::ForOp in = n.inner;
  if (!outer.isDefinedOutsideOfLoop(in.getLowerBound()) ||
      !outer.isDefinedOutsideOfLoop(in.getUpperBound()) ||
      !outer.isDefinedOutsideOfLoop(in.getStep()) ||
      in.getInductionVar().getType() != outer.getInductionVar().getType() ||
      in.getUnsignedCmp() != outer.getUnsignedCmp())
    return std::nullopt;
  // Another loop in the prologue would still run once per tile, between
  // the inner loop's iterations; such nests are left alone.
  for (Operation *op : n.prologue)
    if (op->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); }).wasInterrupted())
      return std::nullopt;
  return n;
}

/// Rewrites one nest; false (IR untouched) when it cannot.
bool flatten(Nest &n) {
  scf::ForOp outer = n.outer, inner = n.inner;
  Location loc = outer.getLoc();
  bool isUnsigned = outer.getUnsignedCmp();
  Type ivType = outer.getInductionVar().getType();

  // Which prologue ops are computed again in every iteration: cheap
  // side-effect-free ones that do not change with the outer iteration
  // (constants, an accumulator's zeros: loop-invariant code), and those
  // whose results cannot be carried. The others run once per outer
  // iteration, under scf.if, their results carried (the software
  // pipeliner computes such values ahead for its copies).
  Value outerIv = outer.getInductionVar();
  llvm::DenseSet<Operation *> recomputed, varying;
  SmallVector<Operation *> once;
  auto fromOuter = [&](Value v) {
    if (v == outerIv || llvm::is_contained(outer.getRegionIterArgs(), v))
      return true;
    Operation *d = v.getDefiningOp();
    return d && varying.contains(d);
  };
  for (Operation *op : n.prologue) {
    if (llvm::any_of(op->getOperands(), fromOuter))
      varying.insert(op);
    bool operandsReady = llvm::all_of(op->getOperands(), [&](Value v) {
      Operation *d = v.getDefiningOp();
      return !d || d->getBlock() != outer.getBody() || recomputed.contains(d);
    });
    bool carriable = llvm::all_of(op->getResultTypes(), canCarry);
    if (isRecomputable(op) && operandsReady && (!varying.contains(op) || !carriable))
      recomputed.insert(op);
    else
      once.push_back(op);
  }
  // The once-per-tile results read after the prologue, carried.
  SmallVector<Value> carriedOnce;
  for (Operation *op : once)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            Operation *a = outer.getBody()->findAncestorOpInBlock(*u);
            return a && (a == inner.getOperation() ||
                         llvm::is_contained(n.epilogue, a));
          }))
        carriedOnce.push_back(r);

  // Every carried slot needs a value to start with (written before it is
  // read): checked before anything is built.
  if (!llvm::all_of(carriedOnce, [&](Value v) { return canCarry(v.getType()); }) ||
      !llvm::all_of(inner.getInitArgs(), [&](Value v) {
        return canCarry(v.getType()) || outer.isDefinedOutsideOfLoop(v);
      }))
    return false;

  OpBuilder b(outer);
  SmallVector<Value> onceInits;
  for (Value v : carriedOnce)
    onceInits.push_back(placeholder(b, loc, v.getType()));

  Value innerTrips = tripCount(b, loc, inner.getLowerBound(), inner.getUpperBound(),
                               inner.getStep(), isUnsigned);
  Value outerTrips = tripCount(b, loc, outer.getLowerBound(), outer.getUpperBound(),
                               outer.getStep(), isUnsigned);
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, 1));
  Value hasInner = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, innerTrips,
      zero);
  auto branch = ifElse(b, loc, outer.getResultTypes(), hasInner);

  // N == 0: the outer loop with the inner loop's results its inits.
  {
    OpBuilder eb = OpBuilder::atBlockEnd(branch.elseBlock());
    auto copy = cast<scf::ForOp>(eb.clone(*outer));
    auto copiedInner = cast<scf::ForOp>(
        &*std::next(copy.getBody()->begin(),
                    std::distance(outer.getBody()->begin(), inner->getIterator())));
    copiedInner.replaceAllUsesWith(copiedInner.getInitArgs());
    copiedInner.erase();
    copy->removeAttr("tile.flatten");
    copy->setAttr("tile.no_pipeline", eb.getUnitAttr()); // nothing to overlap
    scf::YieldOp::create(eb, loc, copy.getResults());
  }

  // N > 0: the fused loop.
  OpBuilder tb = OpBuilder::atBlockEnd(branch.thenBlock());
  Value total = arith::MulIOp::create(tb, loc, outerTrips, innerTrips);
  SmallVector<Value> inits(outer.getInitArgs());
  size_t nOuter = inits.size(), nInner = inner.getInitArgs().size();
  for (Value v : inner.getInitArgs()) {
    // The inner loop's first values are computed in the first iteration
    // of each tile; before that the slot holds a value of the type.
    Value p = placeholder(tb, loc, v.getType());
    inits.push_back(p ? p : v);
  }
  inits.append(onceInits.begin(), onceInits.end());
  // Then the position: j, the inner iteration, and i, the outer one.
  inits.push_back(zero);
  inits.push_back(outer.getLowerBound());
  auto fused = scf::ForOp::create(tb, loc, zero, total, one, inits);
  fused.setUnsignedCmp(isUnsigned);
  for (NamedAttribute a : outer->getAttrs())
    if (a.getName().getValue().starts_with("tile.") && a.getName() != "tile.flatten")
      fused->setAttr(a.getName(), a.getValue());
  for (NamedAttribute a : inner->getAttrs())
    if (a.getName().getValue().starts_with("tile.") && a.getName() != "tile.flatten")
      fused->setAttr(a.getName(), a.getValue());

  Block *fb = fused.getBody();
  if (fb->mightHaveTerminator()) // made when there are no iteration arguments
    fb->getTerminator()->erase();
  OpBuilder fbld = OpBuilder::atBlockEnd(fb);
  auto outerArgs = fused.getRegionIterArgs().take_front(nOuter);
  auto innerArgs = fused.getRegionIterArgs().slice(nOuter, nInner);
  auto onceArgs = fused.getRegionIterArgs().slice(nOuter + nInner, carriedOnce.size());
  Value j = fused.getRegionIterArgs().end()[-2];
  Value i = fused.getRegionIterArgs().back();
  Value k = fbld.createOrFold<arith::AddIOp>(
      loc, inner.getLowerBound(), fbld.createOrFold<arith::MulIOp>(loc, j, inner.getStep()));
  Value first = arith::CmpIOp::create(fbld, loc, arith::CmpIPredicate::eq, j, zero);
  Value last = arith::CmpIOp::create(
      fbld, loc, arith::CmpIPredicate::eq, j,
      arith::SubIOp::create(fbld, loc, innerTrips, one));
  IRMapping map;
  map.map(outerIv, i);
  map.map(outer.getRegionIterArgs(), outerArgs);
  // The prologue: cheap ops in every iteration, in order.
  for (Operation *op : n.prologue)
    if (recomputed.contains(op))
      fbld.clone(*op, map);
  // The others in the first iteration of each outer one.
  if (!once.empty()) {
    auto onceIf = ifElse(fbld, loc, TypeRange(ValueRange(carriedOnce)), first);
    {
      OpBuilder ob = OpBuilder::atBlockEnd(onceIf.thenBlock());
      IRMapping inside = map;
      for (Operation *op : once)
        ob.clone(*op, inside);
      SmallVector<Value> out;
      for (Value v : carriedOnce)
        out.push_back(inside.lookup(v));
      scf::YieldOp::create(ob, loc, out);
    }
    {
      OpBuilder ob = OpBuilder::atBlockEnd(onceIf.elseBlock());
      scf::YieldOp::create(ob, loc, SmallVector<Value>(onceArgs.begin(), onceArgs.end()));
    }
    for (auto [v, r] : llvm::zip(carriedOnce, onceIf.getResults()))
      map.map(v, r);
  }
  // The inner body, its carried values restarted in each tile's first
  // iteration.
  map.map(inner.getInductionVar(), k);
  for (auto [arg, init, carried] :
       llvm::zip(inner.getRegionIterArgs(), inner.getInitArgs(), innerArgs))
    map.map(arg, arith::SelectOp::create(fbld, loc, first, map.lookupOrDefault(init), carried));
  for (Operation &op : inner.getBody()->without_terminator())
    fbld.clone(op, map);
  SmallVector<Value> innerNext;
  for (Value y : inner.getBody()->getTerminator()->getOperands())
    innerNext.push_back(map.lookupOrDefault(y));
  map.map(inner.getResults(), innerNext);
  // The epilogue in the last iteration of each tile.
  auto epi = ifElse(fbld, loc, outer.getResultTypes(), last);
  {
    OpBuilder eb = OpBuilder::atBlockEnd(epi.thenBlock());
    IRMapping inside = map;
    for (Operation *op : n.epilogue)
      eb.clone(*op, inside);
    SmallVector<Value> out;
    for (Value y : outer.getBody()->getTerminator()->getOperands())
      out.push_back(inside.lookupOrDefault(y));
    scf::YieldOp::create(eb, loc, out);
  }
  {
    OpBuilder eb = OpBuilder::atBlockEnd(epi.elseBlock());
    scf::YieldOp::create(eb, loc, SmallVector<Value>(outerArgs.begin(), outerArgs.end()));
  }
  SmallVector<Value> next(epi.getResults());
  next.append(innerNext);
  for (Value v : carriedOnce) // the once-per-tile values as the if made them
    next.push_back(map.lookup(v));
  // The next position: j wraps at the inner trip count, i then steps.
  Value j1 = arith::AddIOp::create(fbld, loc, j, one);
  next.push_back(arith::SelectOp::create(fbld, loc, last, zero, j1));
  next.push_back(arith::SelectOp::create(
      fbld, loc, last, arith::AddIOp::create(fbld, loc, i, outer.getStep()), i));
  scf::YieldOp::create(fbld, loc, next);
  scf::YieldOp::create(tb, loc, fused.getResults().take_front(nOuter));

  outer.replaceAllUsesWith(branch.getResults());
  outer.erase();
  return true;
}

} // namespace

void mlir::tile::flattenLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp f) { // inner nests first
    if (f->hasAttr("tile.flatten"))
      loops.push_back(f);
  });
  for (scf::ForOp f : loops) {
    std::optional<Nest> n = matchNest(f);
    if (!n || !flatten(*n))
      f->removeAttr("tile.flatten");
  }
}

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFLATTENLOOPS
#include "ir/transforms/Passes.h.inc"
} // namespace mlir::tile

namespace {
struct TileFlattenLoopsPass
    : public mlir::tile::impl::TileFlattenLoopsBase<TileFlattenLoopsPass> {
  void runOnOperation() override { mlir::tile::flattenLoops(getOperation()); }
};
} // namespace

//===- PipelinerCandidates.cpp - the loads a pipelined loop issues early --===//
//
// Finding a loop's candidate loads, emitting their pointers, masks and
// indices for another iteration, and the one-iteration-ahead prefetch into
// registers (PipelinerCandidates.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/PipelinerCandidates.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace tritium::codegen::pipeliner {

namespace {

/// Clones `slice` for the iteration whose induction variable is `at`, each
/// recurrence it reads (and each of `roots`) taking its value there
/// (`argAt`); returns the mapping from the loop's values to the clones'.
IRMapping cloneSliceAt(OpBuilder &b, const llvm::SetVector<Operation *> &slice,
                       const Recurrences &rec, ValueRange roots, Value iv, Value at,
                       ArgAt argAt, const IRMapping *chainVals) {
  IRMapping map = chainVals ? *chainVals : IRMapping();
  map.map(iv, at);
  auto mapRecurrence = [&](Value v) {
    auto it = rec.find(v);
    if (it != rec.end() && !map.contains(v))
      map.map(v, argAt(it->second));
  };
  for (Operation *op : slice)
    for (Value o : op->getOperands())
      mapRecurrence(o);
  for (Value r : roots)
    mapRecurrence(r);
  for (Operation *op : slice)
    b.clone(*op, map);
  return map;
}

} // namespace

/// The pointer and mask of `c` in the iteration whose induction variable
/// is `at`, built at `b`; `carried` is the loop-carried pointer's value
/// for that iteration (unused when the pointer is computed), `argAt` the
/// value there of each recurrence the slice reads.
std::pair<Value, Value> emitAt(OpBuilder &b, Candidate &c, Value iv, Value at,
                               Value carried, ArgAt argAt, const IRMapping *chainVals) {
  SmallVector<Value, 2> roots;
  if (c.argIndex < 0)
    roots.push_back(c.load.getPtr());
  if (c.load.getMask())
    roots.push_back(c.load.getMask());
  IRMapping map = cloneSliceAt(b, c.slice, *c.rec, roots, iv, at, argAt, chainVals);
  Value ptr = c.argIndex < 0 ? map.lookupOrDefault(c.load.getPtr()) : carried;
  Value mask = c.load.getMask() ? map.lookupOrDefault(c.load.getMask()) : Value();
  return {ptr, mask};
}

/// `mask & (i < ub)`, splat over the mask's shape when needed.
Value guard(OpBuilder &b, Location loc, Value mask, Value i, Value ub,
            bool isUnsigned, Type ptrType) {
  Value inRange = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, i, ub);
  if (auto rt = dyn_cast<RankedTensorType>(ptrType))
    inRange = tile::SplatOp::create(
        b, loc, RankedTensorType::get(rt.getShape(), b.getI1Type()), inRange);
  return mask ? arith::AndIOp::create(b, loc, mask, inRange) : inRange;
}

std::vector<Candidate> findCandidates(scf::ForOp loop, const Recurrences &rec,
                                      const ChainLeaves *leaves) {
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  std::vector<Candidate> cands;
  for (Operation &op : body->without_terminator()) {
    auto load = dyn_cast<tile::LoadOp>(&op);
    if (!load || load.getIsVolatile())
      continue;
    Candidate c;
    c.load = load;
    c.rec = &rec;
    auto arg = dyn_cast<BlockArgument>(load.getPtr());
    if (arg && arg.getOwner() == body && arg.getArgNumber() > 0) {
      unsigned idx = arg.getArgNumber() - 1;
      auto adv = yield.getOperand(idx).getDefiningOp<tile::AddPtrOp>();
      if (!adv || adv.getPtr() != arg || !loop.isDefinedOutsideOfLoop(adv.getOffset()))
        continue;
      c.argIndex = int(idx);
      c.advance = adv;
    } else {
      // A pointer computed in the body from the induction variable (an
      // invariant one would read what a store in the loop may change).
      Operation *d = load.getPtr().getDefiningOp();
      if (!d || d->getBlock() != body ||
          !collectSlice(load.getPtr(), body, iv, c.slice, rec, leaves, &c.chains))
        continue;
    }
    if (load.getMask() &&
        !collectSlice(load.getMask(), body, iv, c.slice, rec, leaves, &c.chains))
      continue;
    if (load.getOther() && !loop.isDefinedOutsideOfLoop(load.getOther()))
      continue;
    cands.push_back(std::move(c));
  }
  return cands;
}

/// The indices of `c` in the iteration whose induction variable is `at`.
SmallVector<Value> emitIndicesAt(OpBuilder &b, TmaCandidate &c, Value iv, Value at,
                                 ArgAt argAt, const IRMapping *chainVals) {
  IRMapping map =
      cloneSliceAt(b, c.slice, *c.rec, c.load.getIndices(), iv, at, argAt, chainVals);
  SmallVector<Value> out;
  for (Value i : c.load.getIndices())
    out.push_back(map.lookupOrDefault(i));
  return out;
}

void prefetchLoads(scf::ForOp loop, std::vector<Candidate> &cands) {
  if (cands.empty())
    return;
  Value iv = loop.getInductionVar();

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  bool isUnsigned = loop.getUnsignedCmp();
  // The first iteration's loads, before the loop.
  SmallVector<Value> firsts;
  for (Candidate &c : cands) {
    auto [ptr, mask] = emitAt(b, c, iv, loop.getLowerBound(),
                              c.argIndex < 0 ? Value() : loop.getInitArgs()[c.argIndex],
                              [&](const Recurrence &r) { return loop.getInitArgs()[r.index]; });
    mask = guard(b, loc, mask, loop.getLowerBound(), loop.getUpperBound(), isUnsigned,
                 c.load.getPtr().getType());
    auto first = tile::LoadOp::create(b, c.load.getLoc(), ptr, mask, c.load.getOther(), c.load.getCacheAttr(),
                                      c.load.getEvictAttr(), c.load.getIsVolatileAttr());
    firsts.push_back(first);
  }
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  std::vector<Value> nextLoads;
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, firsts, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &ib, Location l, ArrayRef<BlockArgument> newArgs) {
        // Called while the body still sits in the old loop; it is merged
        // after these ops into the new loop's block, whose arguments then
        // replace the old ones.
        Block *nb = newArgs.front().getOwner();
        Value niv = nb->getArgument(0);
        OpBuilder pb = OpBuilder::atBlockBegin(nb);
        Value next = arith::AddIOp::create(pb, l, niv, loop.getStep());
        SmallVector<Value> out;
        for (auto [k, c] : llvm::enumerate(cands)) {
          Value carried;
          if (c.argIndex >= 0) {
            Value ptr = nb->getArgument(c.argIndex + 1);
            carried = tile::AddPtrOp::create(pb, l, ptr.getType(), ptr, c.advance.getOffset());
          }
          auto [nptr, mask] = emitAt(pb, c, iv, next, carried, [&](const Recurrence &r) {
            return advanceBy(pb, l, nb->getArgument(r.index + 1), r.step, 1);
          });
          mask = guard(pb, l, mask, next, loop.getUpperBound(), isUnsigned,
                       c.load.getPtr().getType());
          auto nl = tile::LoadOp::create(pb, c.load.getLoc(), nptr, mask, c.load.getOther(),
                                         c.load.getCacheAttr(), c.load.getEvictAttr(),
                                         c.load.getIsVolatileAttr());
          out.push_back(nl);
          // The body now reads the value loaded one iteration earlier.
          c.load.getResult().replaceAllUsesWith(newArgs[k]);
          c.load.erase();
        }
        return out;
      });
  if (failed(replaced)) // leaves the loop as it was: no prefetch
    return;
}

} // namespace tritium::codegen::pipeliner

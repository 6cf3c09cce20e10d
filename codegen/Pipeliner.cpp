//===- Pipeliner.cpp - prefetch the next iteration's loads ----------------===//
//
// Software pipelining at the tile level, before lowering. A global load at
// the top level of an scf.for body whose pointer is a loop-carried value
// advanced by a loop-invariant offset, and whose mask depends only on the
// induction variable and loop invariants, is issued one iteration early:
//
//   for i (p = p0):  x = load(p, m(i)); ...; yield p + d
// becomes
//   x0 = load(p0, m(lb) & lb < ub)
//   for i (p = p0, x = x0):
//     xn = load(p + d, m(i + s) & i + s < ub)   // in flight during the body
//     ...uses x...; yield p + d, xn
//
// The load of the next tile then overlaps the current iteration's work
// (the products, the reductions). A lane masked off never reads memory, so
// the extra first and last loads touch nothing outside the kernel's data.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
namespace tile = mlir::tile;

namespace {

bool isPureShapeOrArith(Operation *op) {
  StringRef n = op->getName().getStringRef();
  return (n.starts_with("arith.") && op->getNumRegions() == 0) ||
         isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp,
             tile::MakeRangeOp, tile::AddPtrOp>(op);
}

/// The ops of `v`'s backward slice inside `body`, in program order, when
/// every leaf is the induction variable or defined outside the loop.
bool collectSlice(Value v, Block *body, Value iv, llvm::SetVector<Operation *> &slice) {
  if (v == iv)
    return true;
  Operation *d = v.getDefiningOp();
  if (!d)
    return v.getParentBlock() != body; // other block arguments: invariant only
  if (d->getBlock() != body)
    return !body->getParentOp()->isAncestor(d);
  if (!isPureShapeOrArith(d))
    return false;
  for (Value o : d->getOperands())
    if (!collectSlice(o, body, iv, slice))
      return false;
  slice.insert(d);
  return true;
}

struct Candidate {
  tile::LoadOp load;
  unsigned argIndex;       // the loop-carried pointer
  tile::AddPtrOp advance;  // its yielded value: addptr(arg, invariant)
  llvm::SetVector<Operation *> maskSlice;
};

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

void pipelineLoop(scf::ForOp loop) {
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  std::vector<Candidate> cands;
  for (Operation &op : body->without_terminator()) {
    auto load = dyn_cast<tile::LoadOp>(&op);
    if (!load || load.getIsVolatile())
      continue;
    auto arg = dyn_cast<BlockArgument>(load.getPtr());
    if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0)
      continue;
    unsigned idx = arg.getArgNumber() - 1;
    auto adv = yield.getOperand(idx).getDefiningOp<tile::AddPtrOp>();
    if (!adv || adv.getPtr() != arg || !loop.isDefinedOutsideOfLoop(adv.getOffset()))
      continue;
    Candidate c{load, idx, adv, {}};
    if (load.getMask() && !collectSlice(load.getMask(), body, iv, c.maskSlice))
      continue;
    if (load.getOther() && !loop.isDefinedOutsideOfLoop(load.getOther()))
      continue;
    cands.push_back(std::move(c));
  }
  if (cands.empty())
    return;

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  bool isUnsigned = loop.getUnsignedCmp();
  // The first iteration's loads, before the loop.
  SmallVector<Value> firsts;
  for (Candidate &c : cands) {
    IRMapping map;
    map.map(iv, loop.getLowerBound());
    for (Operation *op : c.maskSlice)
      b.clone(*op, map);
    Value mask = c.load.getMask() ? map.lookup(c.load.getMask()) : Value();
    mask = guard(b, loc, mask, loop.getLowerBound(), loop.getUpperBound(), isUnsigned,
                 c.load.getPtr().getType());
    auto first = tile::LoadOp::create(b, c.load.getLoc(), loop.getInitArgs()[c.argIndex],
                                      mask, c.load.getOther(), c.load.getCacheAttr(),
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
          IRMapping map;
          map.map(iv, next);
          for (Operation *op : c.maskSlice)
            pb.clone(*op, map);
          Value mask = c.load.getMask() ? map.lookup(c.load.getMask()) : Value();
          mask = guard(pb, l, mask, next, loop.getUpperBound(), isUnsigned,
                       c.load.getPtr().getType());
          Value ptr = nb->getArgument(c.argIndex + 1);
          Value nptr = tile::AddPtrOp::create(pb, l, ptr.getType(), ptr, c.advance.getOffset());
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

} // namespace

void tritium::codegen::pipelineLoads(mlir::ModuleOp module) {
  std::vector<scf::ForOp> loops;
  module.walk([&](scf::ForOp f) {
    if (!f->hasAttr("tile.no_pipeline"))
      loops.push_back(f);
  });
  for (scf::ForOp f : loops)
    pipelineLoop(f);
}

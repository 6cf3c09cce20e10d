//===- WgmmaGroups.cpp - products as warpgroup MMA groups, and their waits ===//
//
// On sm_90a a tl.dot that Hopper's warpgroup MMA computes (dotUsesWgmma)
// becomes a tgpu.wgmma: one asynchronous group (fence, the k steps,
// commit) whose result is in flight until a tgpu.wgmma_wait. This pass
// places those waits:
//
//   - A product that only feeds itself through its loop (the matmul's
//     accumulator; other readers sit in scf.if ops of the loop body, as a
//     flattened loop's epilogue does) and whose operands lie in shared
//     memory where the pipeliner put them stays in flight while the next
//     iteration's copies are issued: right after it, a wait with
//     pending = 1 says the previous iteration's group is done, then a
//     barrier puts every warpgroup past the slots that group read (the
//     next copies refill them). A warp-specialized loop's consumers need
//     no barrier: their mbarrier arrivals tell the producer instead. The loop waits for all groups after its
//     last iteration. An scf.if of the body that reads the product waits
//     for all groups (pending = 0) at the top of each branch that reads it
//     and yields the registers it waited for (the other branch yields them
//     in flight), so that after the if they are one value again.
//   - A product whose result only goes to the next iteration (attention's
//     P V, added to a rescaled accumulator there) and whose operands lie
//     where the pipeliner put them (or in registers) stays in flight across
//     the back edge: the next iteration waits for it (pending = 0) just
//     before it first reads it, or before its first copy into the slots
//     (then behind a barrier), whichever comes first. Its next products
//     are issued while it runs, as the matmul's are. The loop waits for
//     it after its last iteration. In a warp-specialized consumer loop the
//     next iteration waits for it right after its first product that waits
//     at once (groups complete in order), and releases the previous
//     iteration's slots to the producer there instead of at the end of
//     that iteration; the last iteration's slots after the loop.
//   - Every other product waits at once (pending = 0): its staged
//     operands are rewritten by the next product, or its result is read
//     directly.
//
// `select(p, 0, acc)` as the accumulator (a flattened loop restarting a
// tile) becomes the product's `zero_if p`.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
namespace tile = mlir::tile;

namespace tritium::codegen {
namespace {

/// The accumulator `op` adds to, and the scalar under which it restarts
/// from zero instead: `select(p, 0, x)` with a single use gives (x, p).
std::pair<Value, Value> accumulatorInput(tile::DotOp op) {
  auto sel = op.getC().getDefiningOp<arith::SelectOp>();
  if (sel && sel->hasOneUse() && sel.getCondition().getType().isInteger(1) &&
      matchPattern(sel.getTrueValue(), m_AnyZeroFloat()))
    return {sel.getFalseValue(), sel.getCondition()};
  return {op.getC(), Value()};
}

/// `op`'s result is yielded by its loop into the iteration argument that
/// is only `op`'s accumulator; other readers sit in scf.if ops of the loop
/// body.
bool accumulatesAcrossIterations(tile::DotOp op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop)
    return false;
  std::optional<unsigned> yielded;
  for (OpOperand &use : op->getUses()) {
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user) && user->getParentOp() == loop) {
      if (yielded)
        return false;
      yielded = use.getOperandNumber();
      continue;
    }
    Operation *a = loop.getBody()->findAncestorOpInBlock(*user);
    if (!a || a == user || !isa<scf::IfOp>(a))
      return false;
  }
  if (!yielded)
    return false;
  Value arg = loop.getRegionIterArgs()[*yielded];
  return arg == accumulatorInput(op).first && arg.hasOneUse();
}

/// Whether the slots `loop`'s products read are refilled by a producer
/// that waits for the consumers' mbarrier arrivals (the consumer side of a
/// warp-specialized loop) rather than by the loop's own copies.
bool releasedByArrivals(scf::ForOp loop) {
  bool arrives = false, copies = false;
  loop.getBody()->walk([&](Operation *o) {
    arrives |= isa<tgpu::MbarrierArriveOp>(o);
    copies |= isa<tgpu::AsyncCopyOp, tgpu::TmaCopyOp>(o);
  });
  return arrives && !copies;
}

/// Whether `o` is or holds a copy into the pipeliner's slots.
bool copiesIntoSlots(Operation *o) {
  bool found = false;
  o->walk([&](Operation *x) {
    if (isa<tgpu::AsyncCopyOp, tgpu::TmaCopyOp>(x))
      found = true;
  });
  return found;
}

/// A warp-specialized consumer loop's release of its slots: the one
/// top-level arrive of the body, on slot `slot` (an iteration argument the
/// loop advances around a ring of `numSlots`: next = slot + 1, or 0 after
/// numSlots - 1).
struct SlotRelease {
  tgpu::MbarrierArriveOp arrive;
  BlockArgument slot;
  int64_t numSlots = 0;
};

std::optional<SlotRelease> slotRelease(scf::ForOp loop) {
  SmallVector<tgpu::MbarrierArriveOp> arrives;
  loop.getBody()->walk([&](tgpu::MbarrierArriveOp a) { arrives.push_back(a); });
  if (arrives.size() != 1 || arrives[0]->getParentOp() != loop)
    return std::nullopt;
  auto slot = dyn_cast<BlockArgument>(arrives[0].getSlot());
  if (!slot || slot.getOwner() != loop.getBody() || slot.getArgNumber() == 0)
    return std::nullopt;
  unsigned index = slot.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  // next = select(slot + 1 == n, 0, slot + 1)
  auto sel = yield.getOperand(index).getDefiningOp<arith::SelectOp>();
  if (!sel || !matchPattern(sel.getTrueValue(), m_Zero()))
    return std::nullopt;
  auto inc = sel.getFalseValue().getDefiningOp<arith::AddIOp>();
  auto cmp = sel.getCondition().getDefiningOp<arith::CmpIOp>();
  APInt n;
  if (!inc || !cmp || inc.getLhs() != slot || !matchPattern(inc.getRhs(), m_One()) ||
      cmp.getPredicate() != arith::CmpIPredicate::eq || cmp.getLhs() != inc.getResult() ||
      !matchPattern(cmp.getRhs(), m_ConstantInt(&n)) || n.getSExtValue() < 2)
    return std::nullopt; // (one slot: the next copy needs it back at once)
  return SlotRelease{arrives[0], slot, n.getSExtValue()};
}

/// For a product whose only reader is its loop's yield (into iteration
/// argument `index`), the operation of the body before which the next
/// iteration waits for it: the first that reads the argument or copies
/// into slots. Null when the product cannot be left in flight: it is not
/// directly in a loop's body, or has other readers.
///
/// In a warp-specialized consumer loop (its slots released by an arrive
/// after the product, `release`) the next iteration waits for it right
/// after the first product it waits for at once (a warpgroup's groups
/// complete in order, so the earlier one has too), or before the first
/// reader; the slots of the previous iteration are released there, and
/// `after` says the wait goes after the returned operation.
Operation *deferredWaitPoint(tile::DotOp op, unsigned &index, std::optional<SlotRelease> &release,
                             bool &after) {
  after = false;
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop || !op->hasOneUse())
    return nullptr;
  OpOperand &use = *op->getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) || use.getOwner()->getParentOp() != loop)
    return nullptr;
  bool arrives = false;
  loop.getBody()->walk([&](tgpu::MbarrierArriveOp) { arrives = true; });
  if (arrives) {
    release = slotRelease(loop);
    // The release follows the product in the body, and nothing but the
    // yield reads past it.
    if (!release || !op->isBeforeInBlock(release->arrive))
      return nullptr;
  }
  index = use.getOperandNumber();
  Value arg = loop.getRegionIterArgs()[index];
  for (Operation &x : loop.getBody()->getOperations()) {
    bool reads = llvm::any_of(arg.getUsers(), [&](Operation *u) { return x.isAncestor(u); });
    if (reads || copiesIntoSlots(&x) || isa<scf::YieldOp>(x))
      return release && (copiesIntoSlots(&x) || isa<scf::YieldOp>(x)) ? nullptr : &x;
    if (release) {
      auto w = dyn_cast<tgpu::WgmmaWaitOp>(x);
      if (w && w.getPending() == 0) {
        after = true;
        return &x;
      }
    }
  }
  return nullptr;
}

/// Moves `release`'s arrive from the end of iteration i to `b`'s insertion
/// point in iteration i + 1 (on the previous slot; none in the first
/// iteration), and after `afterLoop` (past the loop) for the last
/// iteration.
void delayRelease(scf::ForOp loop, SlotRelease release, OpBuilder &b,
                  Operation *afterLoop) {
  Location loc = release.arrive.getLoc();
  int64_t barrier = release.arrive.getBarrier();
  Type i32 = b.getI32Type();
  auto previous = [&](Value slot) -> Value {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, 0));
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, 1));
    Value last = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, release.numSlots - 1));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, zero);
    Value down = arith::SubIOp::create(b, loc, slot, one);
    return arith::SelectOp::create(b, loc, first, last, down);
  };
  auto arriveIf = [&](Value cond, Value slot) {
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond, /*withElseRegion=*/false);
    OpBuilder tb = OpBuilder::atBlockBegin(ifOp.thenBlock());
    tgpu::MbarrierArriveOp::create(tb, loc, slot, tb.getI64IntegerAttr(barrier));
  };
  // In the body: past the first iteration, the previous slot.
  Value iv = loop.getInductionVar();
  Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, iv, loop.getLowerBound());
  arriveIf(notFirst, previous(release.slot));
  // After the loop: the last iteration's slot, when there was one.
  b.setInsertionPointAfter(afterLoop);
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, loop.getLowerBound(),
                                    loop.getUpperBound());
  arriveIf(ran, previous(loop.getResult(release.slot.getArgNumber() - 1)));
  release.arrive.erase();
}

/// Whether `region` holds a reader of `v`.
bool readsIn(Value v, Region &region) {
  return llvm::any_of(v.getUsers(),
                      [&](Operation *u) { return region.isAncestor(u->getParentRegion()); });
}

/// Makes the in-flight values `inFlight` (defined in the block holding
/// `ifOp`) final where `ifOp` reads them: each branch that reads one waits
/// for all at its top and yields what it waited for, the other yields them
/// as they are; readers after the if take its new results. Returns the
/// values in flight after the if, in the order given.
SmallVector<Value> waitInBranches(scf::IfOp ifOp, ArrayRef<Value> inFlight) {
  SmallVector<Type> types(ifOp.getResultTypes());
  for (Value v : inFlight)
    types.push_back(v.getType());
  OpBuilder b(ifOp);
  auto grown = scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(),
                                 /*withElseRegion=*/true);
  grown->setAttrs(ifOp->getAttrs());
  for (auto [from, to] : {std::pair{&ifOp.getThenRegion(), &grown.getThenRegion()},
                          std::pair{&ifOp.getElseRegion(), &grown.getElseRegion()}}) {
    to->getBlocks().clear();
    if (from->empty()) { // an if without else: one that yields nothing
      OpBuilder eb(ifOp->getContext());
      eb.createBlock(to);
      scf::YieldOp::create(eb, ifOp.getLoc());
    } else {
      to->takeBody(*from);
    }
    auto yield = cast<scf::YieldOp>(to->front().getTerminator());
    SmallVector<Value> out(yield.getOperands());
    bool reads = llvm::any_of(inFlight, [&](Value v) { return readsIn(v, *to); });
    if (reads) {
      OpBuilder wb(&to->front(), to->front().begin());
      auto wait = tgpu::WgmmaWaitOp::create(wb, ifOp.getLoc(), inFlight, wb.getI64IntegerAttr(0));
      for (auto [x, w] : llvm::zip(inFlight, wait.getResults())) {
        Value v = x;
        v.replaceUsesWithIf(w, [&](OpOperand &use) {
          return use.getOwner() != wait && to->isAncestor(use.getOwner()->getParentRegion());
        });
        out.push_back(w);
      }
    } else {
      out.append(inFlight.begin(), inFlight.end());
    }
    yield->setOperands(out);
  }
  unsigned n = ifOp.getNumResults();
  for (unsigned i = 0; i < n; ++i)
    ifOp.getResult(i).replaceAllUsesWith(grown.getResult(i));
  SmallVector<Value> after;
  for (auto [k, x] : llvm::enumerate(inFlight)) {
    Value v = x;
    Value r = grown.getResult(n + k);
    // Readers left outside the if follow it: earlier ifs took the readers
    // after them, and the rest of the body reads only through ifs.
    v.replaceUsesWithIf(r, [&](OpOperand &use) { return !grown->isAncestor(use.getOwner()); });
    after.push_back(r);
  }
  ifOp.erase();
  return after;
}

} // namespace

bool wgmmaLeftInFlight(Operation *op, const LayoutOptions &o) {
  auto dot = dyn_cast<tile::DotOp>(op);
  return dot && dotUsesWgmma(dot, o.computeCapability, o.numWarps) &&
         accumulatesAcrossIterations(dot) &&
         wgmmaReadsOperandsInPlace(dot.getA(), dot.getB(), o.numWarps);
}

void formWgmmaGroups(Operation *func, const LayoutOptions &o) {
  SmallVector<tile::DotOp> dots;
  func->walk([&](tile::DotOp d) {
    if (dotUsesWgmma(d, o.computeCapability, o.numWarps))
      dots.push_back(d);
  });
  // Products left in flight, per loop, in program order.
  llvm::MapVector<Operation *, SmallVector<Value>> inFlight;
  for (tile::DotOp dot : dots) {
    bool inPlace = wgmmaReadsOperandsInPlace(dot.getA(), dot.getB(), o.numWarps);
    bool keep = inPlace && accumulatesAcrossIterations(dot);
    unsigned index = 0;
    std::optional<SlotRelease> release;
    bool waitAfter = false;
    Operation *waitPoint =
        !keep && inPlace ? deferredWaitPoint(dot, index, release, waitAfter) : nullptr;
    auto [acc, zeroIf] = accumulatorInput(dot);
    Operation *select = zeroIf ? dot.getC().getDefiningOp() : nullptr;
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto group = tgpu::WgmmaOp::create(b, loc, dot.getType(), dot.getA(), dot.getB(), acc, zeroIf);
    if (waitPoint) {
      // In flight across the back edge: the next iteration waits before
      // waitPoint, the loop after its last iteration.
      auto loop = cast<scf::ForOp>(dot->getParentOp());
      dot.replaceAllUsesWith(group.getResult());
      dot.erase();
      if (select)
        select->erase();
      Value arg = loop.getRegionIterArgs()[index];
      if (waitAfter)
        b.setInsertionPointAfter(waitPoint);
      else
        b.setInsertionPoint(waitPoint);
      auto wait = tgpu::WgmmaWaitOp::create(b, loc, ValueRange{arg}, b.getI64IntegerAttr(0));
      arg.replaceAllUsesExcept(wait.getResult(0), wait);
      if (release) {
        // The previous iteration's slots are free once its product is
        // done; the loop's result waits for the last one before release.
        Value result = loop.getResult(index);
        b.setInsertionPointAfter(loop);
        auto after = tgpu::WgmmaWaitOp::create(b, loc, ValueRange{result}, b.getI64IntegerAttr(0));
        result.replaceAllUsesExcept(after.getResult(0), after);
        b.setInsertionPointAfter(wait);
        delayRelease(loop, *release, b, after);
        continue;
      }
      // The copies refill the slots the product read: every warpgroup is
      // past its wait first.
      if (copiesIntoSlots(waitPoint))
        tile::BarrierOp::create(b, loc);
      else
        for (Operation *x = waitPoint; x; x = x->getNextNode())
          if (copiesIntoSlots(x)) {
            b.setInsertionPoint(x);
            tile::BarrierOp::create(b, loc);
            break;
          }
      Value result = loop.getResult(index);
      b.setInsertionPointAfter(loop);
      auto after = tgpu::WgmmaWaitOp::create(b, loc, ValueRange{result}, b.getI64IntegerAttr(0));
      result.replaceAllUsesExcept(after.getResult(0), after);
      continue;
    }
    auto wait = tgpu::WgmmaWaitOp::create(b, loc, ValueRange{group.getResult()},
                                          b.getI64IntegerAttr(keep ? 1 : 0));
    dot.replaceAllUsesWith(wait.getResult(0));
    dot.erase();
    if (select)
      select->erase();
    if (!keep)
      continue;
    if (!releasedByArrivals(cast<scf::ForOp>(wait->getParentOp()))) {
      b.setInsertionPointAfter(wait);
      tile::BarrierOp::create(b, loc);
    }
    inFlight[wait->getParentOp()].push_back(wait.getResult(0));
  }

  for (auto &[op, values] : inFlight) {
    auto loop = cast<scf::ForOp>(op);
    // The body's ifs that read them, in order.
    SmallVector<scf::IfOp> ifs;
    for (Operation &x : loop.getBody()->getOperations())
      if (auto ifOp = dyn_cast<scf::IfOp>(x))
        if (llvm::any_of(values, [&](Value v) {
              return llvm::any_of(v.getUsers(), [&](Operation *u) { return ifOp->isAncestor(u); });
            }))
          ifs.push_back(ifOp);
    for (scf::IfOp ifOp : ifs) {
      SmallVector<Value> read;
      SmallVector<unsigned> at;
      for (auto [k, v] : llvm::enumerate(values))
        if (llvm::any_of(v.getUsers(), [&](Operation *u) { return ifOp->isAncestor(u); })) {
          read.push_back(v);
          at.push_back(unsigned(k));
        }
      SmallVector<Value> after = waitInBranches(ifOp, read);
      for (auto [k, v] : llvm::zip(at, after))
        values[k] = v;
    }
    // After the last iteration, all of them.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<Value> results;
    for (Value v : values)
      for (OpOperand &use : v.getUses())
        if (use.getOwner() == yield)
          results.push_back(loop.getResult(use.getOperandNumber()));
    OpBuilder b(loop->getContext());
    b.setInsertionPointAfter(loop);
    auto wait = tgpu::WgmmaWaitOp::create(b, loop.getLoc(), results, b.getI64IntegerAttr(0));
    for (auto [r, w] : llvm::zip(results, wait.getResults()))
      r.replaceAllUsesExcept(w, wait);
  }
}

} // namespace tritium::codegen

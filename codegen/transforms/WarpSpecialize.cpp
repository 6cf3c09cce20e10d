//===- WarpSpecialize.cpp - producer and consumer warps for TMA loops ----===//
//
// A loop marked `warp_specialize` (tl.range(..., warp_specialize=True)) whose
// operands the pipeliner copies with TMA is split between two kinds of warps
// (sm_90):
//
//   - the consumers, the warps the layouts place (lowerForCuda says how
//     many): the loop as pipelined, less its copies. Each iteration waits
//     for its slot's copies (the ring of "full" mbarriers the copies
//     complete), computes, and then each warp arrives on a slot of a ring
//     of "empty" mbarriers (one arrival per consumer warp): at its end on
//     the slot it read, when every product waits for its group within the
//     iteration; else, where the copies were, on the slot they would have
//     filled (the product that read that slot, an iteration ago, has
//     completed: a wgmma product leaves one group in flight). The code
//     after the loop runs on the consumers only.
//   - a producer warpgroup, launched after them: one thread runs a copy of
//     the loop holding only what the copies need (their indices, predicates
//     and slot, all scalar, and the loop-carried values those read), and
//     before each iteration's copies waits for its slot to be released.
//
// The producer then runs ahead of the consumers by as many slots as the
// ring has, no longer tied to the iteration that issues a product; each
// side sets its register budget (setmaxnreg). The ring's first stages-1
// slots are still filled before the split, by the code the pipeliner put
// there.
//
// A loop is left as it is (and runs on all warps, not specialized) when its
// copies' operands need anything but pure scalar code, when code other than
// a terminator follows an enclosing op, or when code before the loop has
// effects that more warps would repeat (atomics, prints).
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tritium::codegen {
namespace {

/// The producer: one warpgroup (setmaxnreg acts per warpgroup) holding
/// few registers.
constexpr int64_t kProducerWarps = 4;
constexpr int64_t kProducerRegs = 40;

/// Pure scalar code, regions included: what the producer may recompute.
bool isPureScalar(Operation *op) {
  bool ok = true;
  op->walk([&](Operation *o) {
    if (o != op && o->hasTrait<OpTrait::IsTerminator>())
      return;
    for (Type t : o->getResultTypes())
      if (isa<ShapedType, tile::TensorDescType>(t))
        ok = false;
    if (!isMemoryEffectFree(o))
      ok = false;
  });
  return ok;
}

/// Effects that warps repeating the code before the split would repeat.
bool repeatsBadly(Operation *op) {
  bool bad = false;
  op->walk([&](Operation *o) {
    StringRef n = o->getName().getStringRef();
    if (n.contains("atomic") || n == "tile.print" || n == "tile.assert")
      bad = true;
  });
  return bad;
}

struct Split {
  scf::ForOp loop;
  SmallVector<tgpu::TmaCopyOp> copies;
  BlockArgument slot;                 // the copies' slot: an iter_arg
  Value readSlot; // the slot the iteration reads, when it releases that one
  llvm::SetVector<Operation *> slice; // top-level body ops the copies need
  llvm::SmallSetVector<unsigned, 8> carried; // iter_arg numbers they read
};

/// The loop's copies and what they need, or nothing when it cannot split.
std::optional<Split> analyse(scf::ForOp loop, const LayoutOptions &options) {
  Split s;
  s.loop = loop;
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator())
    if (auto c = dyn_cast<tgpu::TmaCopyOp>(op))
      s.copies.push_back(c);
  bool nested = false;
  loop.getBody()->walk([&](tgpu::TmaCopyOp c) { nested |= c->getBlock() != body; });
  if (s.copies.empty() || nested)
    return std::nullopt;
  auto slot = dyn_cast<BlockArgument>(s.copies[0].getSlot());
  if (!slot || slot.getOwner() != body || slot.getArgNumber() == 0)
    return std::nullopt;
  for (auto c : s.copies)
    if (c.getSlot() != slot || c.getBarrier() != s.copies[0].getBarrier() ||
        c.getNumSlots() != s.copies[0].getNumSlots())
      return std::nullopt;
  s.slot = slot;
  // Where no product is left in flight across iterations (each waits for
  // its group before the iteration ends), an iteration releases the slot it
  // read at its end; the producer then refills it for the iteration
  // `stages` on, so that stages-1 iterations' copies are in flight while
  // one computes. A product left in flight still reads its slot in the
  // next iteration, which releases that slot instead (the one it would
  // have filled): one iteration's copies fewer in flight.
  {
    bool inFlight = false;
    loop.getBody()->walk([&](tile::DotOp d) { inFlight |= wgmmaLeftInFlight(d, options); });
    tgpu::MbarrierWaitOp full;
    for (Operation &op : body->without_terminator())
      if (auto w = dyn_cast<tgpu::MbarrierWaitOp>(op);
          w && w.getBarrier() == s.copies[0].getBarrier()) {
        full = w;
        break;
      }
    if (!inFlight && full && full.getSlot().getParentBlock() == body)
      s.readSlot = full.getSlot();
  }

  // Backward slice within the body, through loop-carried values.
  SmallVector<Value> work;
  for (auto c : s.copies)
    work.append(c->operand_begin(), c->operand_end());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body || arg.getArgNumber() == 0)
        continue;
      unsigned k = arg.getArgNumber() - 1;
      if (s.carried.insert(k))
        work.push_back(yield.getOperand(k));
      continue;
    }
    Operation *def = body->findAncestorOpInBlock(*v.getDefiningOp());
    if (!def)
      continue; // defined above the loop
    if (isa<tgpu::TmaCopyOp>(def) || s.slice.contains(def))
      continue;
    if (!isPureScalar(def))
      return std::nullopt;
    s.slice.insert(def);
    def->walk([&](Operation *o) {
      for (Value x : o->getOperands())
        work.push_back(x);
    });
  }
  for (unsigned k : s.carried)
    if (isa<ShapedType>(loop.getRegionIterArgs()[k].getType()))
      return std::nullopt;

  // Only scf.if between the loop and the function, each followed by its
  // block's terminator alone (the consumers run what follows the loop in
  // its own block); what runs before the split runs on every warp.
  for (Operation *in = loop; !isa<func::FuncOp>(in); in = in->getParentOp()) {
    if (in != loop && (!isa<scf::IfOp>(in) || in->getNumResults() ||
                       in->getNextNode() != in->getBlock()->getTerminator()))
      return std::nullopt;
    for (Operation &op : *in->getBlock()) {
      if (&op == in)
        break;
      if (repeatsBadly(&op))
        return std::nullopt;
    }
  }
  return s;
}

void rewrite(Split &s, const LayoutOptions &options, int64_t emptyRing) {
  scf::ForOp loop = s.loop;
  Location loc = loop.getLoc();
  MLIRContext *ctx = loop.getContext();
  OpBuilder b(loop);
  int64_t slots = s.copies[0].getNumSlots();
  tgpu::MbarrierInitOp::create(b, loc, b.getI64IntegerAttr(emptyRing),
                               b.getI64IntegerAttr(slots),
                               b.getI64IntegerAttr(options.numWarps));
  // Registers: the consumers take what the producer leaves of the
  // register file (at most 256, in steps of 8).
  int64_t consumerRegs = std::min<int64_t>(
      256, (65536 / 32 - kProducerWarps * kProducerRegs) / options.numWarps / 8 * 8);
  auto ws = tgpu::WarpSpecializeOp::create(
      b, loc, b.getI64IntegerAttr(kProducerWarps), b.getI64IntegerAttr(consumerRegs),
      b.getI64IntegerAttr(kProducerRegs));
  Block *consumer = new Block();
  ws.getConsumer().push_back(consumer);
  Block *producer = new Block();
  ws.getProducer().push_back(producer);

  // The producer's loop: the slice, a wait for the slot, the copies.
  {
    OpBuilder pb = OpBuilder::atBlockEnd(producer);
    Value zero = arith::ConstantIntOp::create(pb, loc, 0, 32);
    SmallVector<Value> inits;
    for (unsigned k : s.carried)
      inits.push_back(loop.getInitArgs()[k]);
    inits.push_back(zero); // the empty ring's phase for the slot
    auto ploop = scf::ForOp::create(pb, loc, loop.getLowerBound(), loop.getUpperBound(),
                                    loop.getStep(), inits);
    ploop->setAttr("tile.no_pipeline", UnitAttr::get(ctx));
    IRMapping map;
    map.map(loop.getInductionVar(), ploop.getInductionVar());
    for (auto [i, k] : llvm::enumerate(s.carried))
      map.map(loop.getRegionIterArgs()[k], ploop.getRegionIterArgs()[i]);
    Value phase = ploop.getRegionIterArgs().back();
    OpBuilder lb = OpBuilder::atBlockBegin(ploop.getBody());
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (s.slice.contains(&op)) {
        lb.clone(op, map);
        continue;
      }
      if (auto c = dyn_cast<tgpu::TmaCopyOp>(op)) {
        if (c == s.copies.front()) {
          Value parity = phase;
          if (s.readSlot) {
            // The last slot, empty before the first round, waits for the
            // phase before the barrier's first (complete from the start).
            Value w = map.lookup(s.slot);
            Value last = arith::ConstantIntOp::create(lb, loc, slots - 1, 32);
            Value first = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::eq, w, last);
            parity = arith::XOrIOp::create(lb, loc, phase,
                                           arith::ExtUIOp::create(lb, loc, lb.getI32Type(), first));
          }
          tgpu::MbarrierWaitOp::create(lb, loc, map.lookup(s.slot), parity,
                                       lb.getI64IntegerAttr(emptyRing));
        }
        lb.clone(op, map);
      }
    }
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<Value> next;
    for (unsigned k : s.carried)
      next.push_back(map.lookupOrDefault(yield.getOperand(k)));
    // The k-th wait on a slot waits for its k-th release: the parity
    // flips each time the write slot comes back to the last slot, where
    // it starts.
    Value nextSlot = map.lookupOrDefault(yield.getOperand(s.slot.getArgNumber() - 1));
    Value last = arith::ConstantIntOp::create(lb, loc, slots - 1, 32);
    Value wraps = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::eq, nextSlot, last);
    Value flip = arith::ExtUIOp::create(lb, loc, lb.getI32Type(), wraps);
    next.push_back(arith::XOrIOp::create(lb, loc, phase, flip));
    scf::YieldOp::create(lb, loc, next);
  }

  // The consumers: the loop less its copies, then the rest of the block.
  {
    OpBuilder cb(s.copies.front());
    if (s.readSlot) {
      cb.setInsertionPoint(loop.getBody()->getTerminator());
      tgpu::MbarrierArriveOp::create(cb, loc, s.readSlot, cb.getI64IntegerAttr(emptyRing));
    } else {
      tgpu::MbarrierArriveOp::create(cb, loc, s.slot, cb.getI64IntegerAttr(emptyRing));
    }
    for (auto c : s.copies)
      c->erase();
    // What only the copies read goes.
    SmallVector<Operation *> ops;
    for (Operation &op : loop.getBody()->without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops)) // users first
      if (op->use_empty() && isMemoryEffectFree(op))
        op->erase();
    Block *block = loop->getBlock();
    SmallVector<Operation *> move;
    for (Operation *op = loop; op && op != block->getTerminator(); op = op->getNextNode())
      move.push_back(op);
    for (Operation *op : move)
      op->moveBefore(consumer, consumer->end());
  }
  loop->removeAttr("tile.warp_specialize");
}

} // namespace

unsigned warpSpecializeLoops(Operation *func, const LayoutOptions &options) {
  if (options.computeCapability < 90 || options.numWarps < 4)
    return 0;
  SmallVector<scf::ForOp> loops;
  func->walk([&](scf::ForOp loop) {
    if (loop->hasAttr("tile.warp_specialize"))
      loops.push_back(loop);
  });
  int64_t ring = 0;
  func->walk([&](tgpu::MbarrierInitOp init) {
    ring = std::max<int64_t>(ring, init.getBarrier() + 1);
  });
  func->walk([&](tgpu::TmaCopyOp c) {
    ring = std::max<int64_t>(ring, c.getBarrier() + 1);
  });
  bool any = false;
  for (scf::ForOp loop : loops) {
    // One split per kernel: the producer warps end with their region.
    if (any)
      break;
    std::optional<Split> s = analyse(loop, options);
    if (!s)
      continue;
    rewrite(*s, options, ring++);
    any = true;
  }
  return any ? kProducerWarps : 0;
}

} // namespace tritium::codegen

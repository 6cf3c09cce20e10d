//===- Pipeliner.cpp - software pipelining of a loop's loads --------------===//
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
// Loads that only feed tensor-core products (sm_80+), or FMA products of
// float tiles reading them in place (fp32 at full precision), go further,
// also when their pointer is computed from the induction variable: they
// are copied asynchronously (cp.async) into a ring of `num_stages`
// shared-memory slots, stages-1 iterations ahead, and the products read
// their operands straight from the slot (see pipelineAsync). Small tiles
// of 32- or 64-bit elements whose values reach the products through other
// ops (an attention backward's row statistics) are copied along with them
// and read into registers where they are used. Such loads outside loops,
// read by products inside loops, are copied into shared memory once
// (stageOutsideLoops); a product outside loops loads its operands into
// registers (vectorized global loads) and stages them itself. The slots of a kernel
// stay within the target's shared memory less 32 KB for the staging area:
// a loop gets fewer stages, or none, when they would not fit.
//
// Pointers and masks may also be computed from loop-carried recurrences
// (values advanced by an invariant step: block pointers moved by
// tl.advance, running offsets), whose value k iterations on is x + k * d,
// and, for the copies through shared memory, from loop-carried chains
// (values the body updates with side-effect-free ops, scf.if included: a
// flattened loop's counters and per-tile offsets), which are carried
// stages-1 iterations ahead alongside;
// tensor-descriptor block loads feeding products become the masked pointer
// loads they mean first, so the same machinery copies them. On sm_90 they
// are copied by TMA instead (one thread issues them, mbarriers say when a
// slot has landed) wherever the slot can take the swizzled layout TMA
// writes. The copies go after the products that read the slots: a wgmma
// group left in flight is then waited for before its slot is refilled, and
// mma.sync products read their fragments without the copies' issue
// competing with them (an fp64 DMMA matmul: 0.92 -> 1.0 of Triton's time).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "codegen/PipelinerCandidates.h"
#include "codegen/PipelinerSlices.h"
#include "codegen/PipelinerStaging.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tritium::codegen::pipeliner;
namespace tile = mlir::tile;

namespace {

/// The kernel argument (or other value made outside any computation on
/// pointers) that a pointer or pointer tile offsets from; none when it is
/// made some other way (loaded from memory, selected between two).
Value pointerBase(Value p) {
  for (int depth = 0; depth < 64; ++depth) {
    if (auto arg = dyn_cast<BlockArgument>(p)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop)
        return p; // a kernel argument
      if (arg.getArgNumber() == 0)
        return Value();
      p = loop.getInitArgs()[arg.getArgNumber() - 1];
      continue;
    }
    Operation *d = p.getDefiningOp();
    if (!d)
      return Value();
    if (auto a = dyn_cast<tile::AddPtrOp>(d))
      p = a.getPtr();
    else if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, tile::ReshapeOp,
                 tile::HintOp>(d) && d->getNumOperands() >= 1)
      p = d->getOperand(0);
    else
      return Value();
  }
  return Value();
}

/// The bases of the pointers that stores and atomics in `loop` write
/// through (see pointerBase); `unknown` when one has no known base, or an
/// op of another kind may write memory.
std::vector<Value> writtenBases(scf::ForOp loop, bool &unknown) {
  std::vector<Value> written;
  unknown = false;
  loop.getBody()->walk([&](Operation *op) {
    Value p;
    if (auto st = dyn_cast<tile::StoreOp>(op))
      p = st.getPtr();
    else if (auto a = dyn_cast<tile::AtomicRMWOp>(op))
      p = a.getPtr();
    else if (auto a = dyn_cast<tile::AtomicCASOp>(op))
      p = a.getPtr();
    else if (!op->getNumRegions() && !isMemoryEffectFree(op) &&
             !hasSingleEffect<MemoryEffects::Read>(op) &&
             !(op->getDialect() && op->getDialect()->getNamespace() == "tgpu"))
      unknown = true; // (the pipeliner's own ops touch shared memory only)
    if (!p)
      return;
    if (Value b = pointerBase(p))
      written.push_back(b);
    else
      unknown = true;
  });
  return written;
}

/// Whether `c`'s load may read what the loop writes (so that reading it
/// ahead of the iteration it belongs to would miss a store).
bool mayReadWritten(Candidate &c, ArrayRef<Value> written, bool unknownWrite) {
  Value b = pointerBase(c.load.getPtr());
  return !b || unknownWrite || llvm::is_contained(written, b);
}

/// A small tile of 32- or 64-bit elements whose values reach a product of
/// the loop through other ops (the row statistics an attention backward
/// subtracts from its scores): in a loop whose operand tiles are copied
/// asynchronously it is copied along with them, into a slot of its own,
/// and read into registers where it is used, so that no register waits for
/// global memory across the products.
bool reachesProducts(Candidate &c, Block *body) {
  auto t = dyn_cast<RankedTensorType>(c.load.getType());
  if (!t || !t.getElementType().isIntOrFloat())
    return false;
  unsigned bits = t.getElementType().getIntOrFloatBitWidth();
  if ((bits != 32 && bits != 64) || t.getNumElements() * bits / 8 > 4096)
    return false;
  if (c.load.getOther() && !isZeroConstant(c.load.getOther()))
    return false;
  for (Operation *u : c.load->getUsers())
    if (u->getBlock() != body)
      return false;
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Operation *> work(c.load->getUsers().begin(), c.load->getUsers().end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (isa<tile::DotOp>(op))
      return true;
    for (Value r : op->getResults())
      for (Operation *u : r.getUsers())
        if (Operation *a = body->findAncestorOpInBlock(*u))
          work.push_back(a);
  }
  return false;
}

bool feedsTensorCores(Candidate &c, Block *body, unsigned cc, unsigned numWarps) {
  for (Operation *u : c.load->getUsers())
    if (u->getBlock() != body)
      return false;
  return tritium::codegen::pipeliner::feedsTensorCores(c.load, cc, numWarps);
}

/// Multi-stage pipelining through shared memory, for the loads feeding
/// tensor cores (`stages` >= 2 slots per load):
///
///   for s < stages-1: async_copy(p0 + s*d, m(lb + s*step)) -> slot s; commit
///   for i (p, r = 0, w = stages-1):
///     async_wait(stages-2)             // iteration i's copies have landed
///     x = shared_load slot r
///     ...uses x...
///     async_copy(p + (stages-1)*d, m(i + (stages-1)*step)) -> slot w; commit
///     yield p + d, (r+1) % stages, (w+1) % stages
///   async_wait(0)
///
/// The copy into slot w overwrites the slot read one iteration earlier;
/// every thread is past that read once it is past this iteration's wait.
///
/// Descriptor loads in `tma` are copied by TMA instead: one thread issues
/// them (tgpu.tma_copy, predicated on the iteration existing), each slot
/// has an mbarrier that completes when its copies have landed, and the
/// loop carries the parity of the phase the read slot completes next:
///
///   mbarrier_init; for s < stages-1: tma_copy desc[idx(lb + s*step)] -> slot s
///   for i (..., r, w, ph = 0):
///     mbarrier_wait slot r phase ph
///     ...; tma_copy desc[idx(i + (stages-1)*step)] -> slot w if i + ... < ub
///     yield ..., ph ^ (r+1 == stages)
scf::ForOp pipelineAsync(scf::ForOp loop, std::vector<Candidate> &cands,
                         std::vector<TmaCandidate> &tma, const Recurrences &rec,
                         const Chains &chains, unsigned stages, int64_t &nextBuffer) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Operation *before = loop->getPrevNode(); // what precedes the prologue
  Value iv = loop.getInductionVar();
  bool isUnsigned = loop.getUnsignedCmp();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
  std::vector<int64_t> buffers, tmaBuffers;
  for (size_t k = 0; k < cands.size(); ++k)
    buffers.push_back(nextBuffer++);
  for (size_t k = 0; k < tma.size(); ++k)
    tmaBuffers.push_back(nextBuffer++);
  int64_t ring = tma.empty() ? -1 : nextBuffer++;
  // The chains' updates, in program order, run for iteration `at` from
  // the chains' values there (`now`, one per chain): the map gives every
  // value they compute there, `next` their values one iteration on.
  llvm::SetVector<Operation *> chainOps;
  for (Operation &op : loop.getBody()->without_terminator())
    if (llvm::any_of(chains, [&](const Chain &c) { return c.slice.contains(&op); }))
      chainOps.insert(&op);
  auto yieldOp = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto chainsAt = [&](OpBuilder &ob, Value at, ArgAt argAt, ArrayRef<Value> now,
                      std::vector<Value> &next) {
    IRMapping map;
    map.map(iv, at);
    for (auto [c, v] : llvm::zip(chains, now))
      map.map(loop.getRegionIterArgs()[c.arg], v);
    for (Operation *op : chainOps) {
      llvm::SetVector<Value> reads(op->getOperands().begin(), op->getOperands().end());
      getUsedValuesDefinedAbove(op->getRegions(), reads);
      for (Value v : reads)
        if (auto r = rec.find(v); r != rec.end() && !map.contains(v))
          map.map(v, argAt(r->second));
      ob.clone(*op, map);
    }
    next.clear();
    for (const Chain &c : chains)
      next.push_back(map.lookupOrDefault(yieldOp.getOperand(c.arg)));
    return map;
  };
  auto copy = [&](OpBuilder &ob, Location l, Candidate &c, int64_t buffer, Value carried,
                  Value at, Value slot, ArgAt argAt, const IRMapping *cm) {
    auto [ptr, mask] = emitAt(ob, c, iv, at, carried, argAt, cm);
    mask = guard(ob, l, mask, at, ub, isUnsigned, ptr.getType());
    tgpu::AsyncCopyOp::create(ob, c.load.getLoc(), ptr, slot, mask,
                              ob.getI64IntegerAttr(buffer),
                              ob.getI64IntegerAttr(stages));
  };
  Operation *lastTma = nullptr;
  auto tmaCopy = [&](OpBuilder &ob, Location l, TmaCandidate &c, int64_t buffer, Value at,
                     Value slot, ArgAt argAt, const IRMapping *cm) {
    SmallVector<Value> idx = emitIndicesAt(ob, c, iv, at, argAt, cm);
    Value exists = arith::CmpIOp::create(
        ob, l, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, at, ub);
    lastTma = tgpu::TmaCopyOp::create(ob, c.load.getLoc(), c.load.getDesc(), idx, slot, exists,
                                      ob.getI64IntegerAttr(buffer),
                                      ob.getI64IntegerAttr(stages), ob.getI64IntegerAttr(ring));
  };
  // Prologue: the first stages-1 iterations' tiles.
  if (!tma.empty())
    tgpu::MbarrierInitOp::create(b, loc, b.getI64IntegerAttr(ring), b.getI64IntegerAttr(stages),
                                 b.getI64IntegerAttr(int64_t(tma.size())));
  std::vector<Value> ptrs;
  for (Candidate &c : cands)
    ptrs.push_back(c.argIndex < 0 ? Value() : loop.getInitArgs()[c.argIndex]);
  std::vector<Value> chainNow; // the chains' values in iteration s
  for (const Chain &c : chains)
    chainNow.push_back(loop.getInitArgs()[c.arg]);
  for (unsigned s = 0; s + 1 < stages; ++s) {
    Value at = iterationAhead(b, loc, lb, step, s);
    Value slot = arith::ConstantIntOp::create(b, loc, s, 32);
    auto initAhead = [&](const Recurrence &r) {
      return advanceBy(b, loc, loop.getInitArgs()[r.index], r.step, s);
    };
    std::vector<Value> next;
    IRMapping cm = chainsAt(b, at, initAhead, chainNow, next);
    for (auto [k, c] : llvm::enumerate(cands)) {
      if (s > 0 && c.argIndex >= 0)
        ptrs[k] = tile::AddPtrOp::create(b, loc, ptrs[k].getType(), ptrs[k],
                                         c.advance.getOffset());
      copy(b, loc, c, buffers[k], ptrs[k], at, slot, initAhead, &cm);
    }
    for (auto [k, c] : llvm::enumerate(tma))
      tmaCopy(b, loc, c, tmaBuffers[k], at, slot, initAhead, &cm);
    if (!cands.empty())
      tgpu::AsyncCommitOp::create(b, loc);
    chainNow = next;
  }
  // A carried pointer tile's copies read it stages-1 iterations on: the
  // loop carries that tile too, advanced like the original (one addptr
  // per iteration, not the original plus stages-1 steps).
  std::vector<Value> aheadInits;
  for (auto [k, c] : llvm::enumerate(cands))
    if (c.argIndex >= 0)
      aheadInits.push_back(tile::AddPtrOp::create(b, loc, ptrs[k].getType(), ptrs[k],
                                                  c.advance.getOffset()));
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value r0 = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value w0 = arith::ConstantIntOp::create(b, loc, stages - 1, 32);
  SmallVector<Value> inits{r0, w0};
  if (!tma.empty())
    inits.push_back(r0); // the phase parity of slot 0's first fill
  size_t chainBase = inits.size(); // then the chains, stages-1 iterations on
  inits.append(chainNow.begin(), chainNow.end());
  size_t aheadBase = inits.size(); // then the carried pointers copies read
  inits.append(aheadInits.begin(), aheadInits.end());
  Operation *lastRead = nullptr, *lastIssue = nullptr; // bracket the copies
  std::vector<Value> reads;
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &ib, Location l, ArrayRef<BlockArgument> newArgs) {
        Block *nb = newArgs.front().getOwner();
        Value niv = nb->getArgument(0);
        Value rslot = newArgs[0], wslot = newArgs[1];
        OpBuilder pb = OpBuilder::atBlockBegin(nb);
        if (!tma.empty())
          tgpu::MbarrierWaitOp::create(pb, l, rslot, newArgs[2], pb.getI64IntegerAttr(ring));
        if (!cands.empty())
          tgpu::AsyncWaitOp::create(pb, l, pb.getI64IntegerAttr(stages - 2));
        // Products read their slots in place, from the top of the body;
        // a slot read into registers is read right before its first user
        // (this iteration's wait has made it land; the copies of this
        // iteration fill another slot).
        auto readSlot = [&](Operation *load, int64_t buffer, bool toRegisters) {
          OpBuilder rb = pb;
          if (toRegisters)
            if (Operation *first = firstUserInBlock(load))
              rb.setInsertionPoint(first);
          auto x = tgpu::SharedLoadOp::create(rb, load->getLoc(), load->getResult(0).getType(),
                                              rslot, rb.getI64IntegerAttr(buffer));
          load->getResult(0).replaceAllUsesWith(x.getResult());
          if (toRegisters)
            return;
          reads.push_back(x.getResult());
          lastRead = x;
        };
        for (auto [k, c] : llvm::enumerate(cands))
          readSlot(c.load, buffers[k], c.toRegisters);
        for (auto [k, c] : llvm::enumerate(tma))
          readSlot(c.load, tmaBuffers[k], false);
        Value at = iterationAhead(pb, l, niv, loop.getStep(), stages - 1);
        auto bodyAhead = [&](const Recurrence &r) {
          return advanceBy(pb, l, nb->getArgument(r.index + 1), r.step, stages - 1);
        };
        std::vector<Value> chainAhead;
        SmallVector<Value> chainArgs(newArgs.begin() + chainBase,
                                     newArgs.begin() + chainBase + chains.size());
        IRMapping cm = chainsAt(pb, at, bodyAhead, chainArgs, chainAhead);
        std::vector<Value> aheadNext;
        for (auto [k, c] : llvm::enumerate(cands)) {
          Value carried;
          if (c.argIndex >= 0) {
            carried = newArgs[aheadBase + aheadNext.size()];
            aheadNext.push_back(tile::AddPtrOp::create(pb, l, carried.getType(), carried,
                                                       c.advance.getOffset()));
          }
          copy(pb, l, c, buffers[k], carried, at, wslot, bodyAhead, &cm);
        }
        for (auto [k, c] : llvm::enumerate(tma))
          tmaCopy(pb, l, c, tmaBuffers[k], at, wslot, bodyAhead, &cm);
        lastIssue = cands.empty() ? lastTma : tgpu::AsyncCommitOp::create(pb, l);
        Value one = arith::ConstantIntOp::create(pb, l, 1, 32);
        Value n = arith::ConstantIntOp::create(pb, l, stages, 32);
        Value zero = arith::ConstantIntOp::create(pb, l, 0, 32);
        auto advance = [&](Value s, Value &wrapped) -> Value {
          Value next = arith::AddIOp::create(pb, l, s, one);
          wrapped = arith::CmpIOp::create(pb, l, arith::CmpIPredicate::eq, next, n);
          return arith::SelectOp::create(pb, l, wrapped, zero, next);
        };
        Value rWrapped, wWrapped;
        SmallVector<Value> out{advance(rslot, rWrapped), advance(wslot, wWrapped)};
        if (!tma.empty()) // the next fill of slot 0 completes the other phase
          out.push_back(arith::XOrIOp::create(
              pb, l, newArgs[2], arith::ExtUIOp::create(pb, l, pb.getI32Type(), rWrapped)));
        out.append(chainAhead.begin(), chainAhead.end());
        out.append(aheadNext.begin(), aheadNext.end());
        for (Candidate &c : cands)
          c.load.erase();
        for (TmaCandidate &c : tma)
          c.load.erase();
        return out;
      });
  if (failed(replaced)) {
    // The loop is as it was: drop the prologue, last op first.
    while (loop->getPrevNode() != before)
      loop->getPrevNode()->erase();
    return loop;
  }
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  // An original pointer tile nothing reads any more (its loads became the
  // copies) stops advancing: it is carried unchanged, a loop invariant.
  auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  for (Candidate &c : cands) {
    if (c.argIndex < 0)
      continue;
    BlockArgument arg = newLoop.getRegionIterArgs()[c.argIndex];
    Value yielded = newYield.getOperand(c.argIndex);
    auto adv = yielded.getDefiningOp<tile::AddPtrOp>();
    if (!adv || adv.getPtr() != arg || !arg.hasOneUse() || !adv->hasOneUse() ||
        !newLoop.getResult(c.argIndex).use_empty())
      continue;
    newYield->setOperand(c.argIndex, arg);
    adv.erase();
  }
  {
    // The copies move below the last op reading this iteration's slots.
    // Products whose groups run asynchronously (wgmma) wait there for the
    // previous iteration's group, the last reader of the slot the copies
    // overwrite; mma.sync products have read their fragments by then, so
    // issuing the copies does not delay the first products. What computes
    // their pointers, masks and indices stays above the products: it is
    // then done while a wgmma group is issued, not between the wait and
    // the next group (that path bounds how closely groups follow each
    // other).
    Block *body = newLoop.getBody();
    Operation *last = nullptr;
    for (Value x : reads)
      for (Operation *u : x.getUsers())
        if (Operation *a = body->findAncestorOpInBlock(*u))
          if (!last || last->isBeforeInBlock(a))
            last = a;
    if (last && lastRead && lastIssue->isBeforeInBlock(last)) {
      std::vector<Operation *> moved;
      for (Operation *op = lastRead->getNextNode(); op; op = op->getNextNode()) {
        moved.push_back(op);
        if (op == lastIssue)
          break;
      }
      Operation *at = last;
      llvm::SmallPtrSet<Operation *, 16> movedSet;
      for (Operation *op : moved) {
        bool dependsOnMoved = llvm::any_of(op->getOperands(), [&](Value v) {
          Operation *d = v.getDefiningOp();
          return d && movedSet.contains(d);
        });
        if (isMemoryEffectFree(op) && !dependsOnMoved)
          continue;
        movedSet.insert(op);
        op->moveAfter(at);
        at = op;
      }
    }
  }
  OpBuilder after(newLoop->getContext());
  after.setInsertionPointAfter(newLoop);
  tgpu::AsyncWaitOp::create(after, loc, after.getI64IntegerAttr(0));
  return newLoop;
}

struct PipelineOptions {
  unsigned stages, computeCapability, numWarps;
};


/// A tensor descriptor's block load in a loop, read only by tensor-core
/// products, becomes the plain masked load it means, so that it is copied
/// asynchronously like any other operand tile:
///   ptr  = base + (i + arange(B0))[:, None] * stride0 + (j + arange(B1))[None, :]
///   mask = 0 <= row < shape0 and 0 <= col < shape1, other = 0 (the padding).
/// For qualifying loads from a descriptor made outside the loop.
void descriptorLoadsAsPointers(scf::ForOp loop, unsigned cc, unsigned numWarps,
                               ArrayRef<TmaCandidate> tma) {
  std::vector<tile::DescriptorLoadOp> loads;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto dl = dyn_cast<tile::DescriptorLoadOp>(&op))
      if (loop.isDefinedOutsideOfLoop(dl.getDesc()) &&
          llvm::none_of(tma, [&](const TmaCandidate &c) { return c.load == dl; }) &&
          descriptorLoadFeedsTensorCores(dl, cc, numWarps))
        loads.push_back(dl);
  rewriteDescriptorLoads(loads);
}

/// Whether `dl` (a qualifying descriptor load) can be copied by TMA: on
/// sm_90, into a swizzled slot (the layout TMA writes and wgmma reads),
/// read by tensor cores only (FMA products read slots cp.async fills, in
/// rows of their own).
bool tmaCopies(tile::DescriptorLoadOp dl, unsigned cc, unsigned numWarps) {
  if (cc < 90 || !descriptorLoadFeedsTensorCores(dl, cc, numWarps))
    return false;
  if (!tritium::codegen::everyReader(dl.getResult(), [&](Operation *u) {
        return tritium::codegen::dotUsesWgmma(u, cc, numWarps) ||
               tritium::codegen::dotUsesMma(u, cc, numWarps);
      }))
    return false;
  auto t = cast<RankedTensorType>(dl.getType());
  unsigned eb = std::max(1u, t.getElementType().getIntOrFloatBitWidth() / 8);
  return tritium::codegen::SharedLayout::swizzleFor(t.getShape()[0], t.getShape()[1], eb)
      .has_value();
}

/// The descriptor loads of `loop`'s body that TMA copies ahead.
std::vector<TmaCandidate> findTmaCandidates(scf::ForOp loop, const Recurrences &rec,
                                            const ChainLeaves &leaves,
                                            const PipelineOptions &o) {
  std::vector<TmaCandidate> out;
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    auto dl = dyn_cast<tile::DescriptorLoadOp>(&op);
    if (!dl || !loop.isDefinedOutsideOfLoop(dl.getDesc()) ||
        !tmaCopies(dl, o.computeCapability, o.numWarps))
      continue;
    if (llvm::any_of(dl->getUsers(), [&](Operation *u) { return u->getBlock() != body; }))
      continue;
    TmaCandidate c;
    c.load = dl;
    c.rec = &rec;
    if (llvm::all_of(dl.getIndices(), [&](Value i) {
          return collectSlice(i, body, loop.getInductionVar(), c.slice, rec, &leaves,
                              &c.chains);
        }))
      out.push_back(std::move(c));
  }
  return out;
}

void pipelineLoop(scf::ForOp loop, const PipelineOptions &o, int64_t &nextBuffer,
                  SharedBudget &budget) {
  Recurrences rec = findRecurrences(loop);
  unsigned stages = o.stages;
  if (auto a = loop->getAttrOfType<IntegerAttr>("tile.num_stages"))
    stages = unsigned(a.getInt());
  Chains chains = findChains(loop, rec);
  ChainLeaves leaves = chainLeaves(loop, chains);
  std::vector<TmaCandidate> tma;
  if (stages >= 2)
    tma = findTmaCandidates(loop, rec, leaves, o);
  if (o.computeCapability >= 80)
    descriptorLoadsAsPointers(loop, o.computeCapability, o.numWarps, tma);
  std::vector<Candidate> cands = findCandidates(loop, rec, &leaves);
  if (o.computeCapability >= 80 && stages >= 2) {
    std::vector<Candidate> async, side;
    int64_t perStage = 0;
    bool unknownWrite;
    std::vector<Value> written = writtenBases(loop, unknownWrite);
    for (Candidate &c : cands) {
      if (feedsTensorCores(c, loop.getBody(), o.computeCapability, o.numWarps)) {
        async.push_back(c);
        perStage += slotBytes(c.load, o.computeCapability, o.numWarps);
      } else if (reachesProducts(c, loop.getBody()) &&
                 !mayReadWritten(c, written, unknownWrite)) {
        side.push_back(c);
        side.back().toRegisters = true;
      }
    }
    // The small tiles ride along with the products' operand tiles.
    if (!async.empty() || !tma.empty())
      for (Candidate &c : side) {
        async.push_back(c);
        perStage += slotBytes(c.load, o.computeCapability, o.numWarps);
      }
    for (TmaCandidate &c : tma)
      perStage += slotBytes(c.load, o.computeCapability, o.numWarps);
    // Fewer stages when the slots would not fit; none below two.
    while ((!async.empty() || !tma.empty()) && stages >= 2 && !budget.take(stages * perStage))
      --stages;
    if (stages < 2) {
      async.clear();
      tma.clear();
    }
    if (!async.empty() || !tma.empty()) {
      // The chains the copies read, computed ahead with them.
      ChainUse used;
      auto addUse = [&](const ChainUse &u) {
        used.args.insert(u.args.begin(), u.args.end());
        used.ops.insert(u.ops.begin(), u.ops.end());
      };
      for (Candidate &c : async)
        addUse(c.chains);
      for (TmaCandidate &c : tma)
        addUse(c.chains);
      Chains ahead = chainsRead(chains, used);
      loop = pipelineAsync(loop, async, tma, rec, ahead, stages, nextBuffer);
      rec = findRecurrences(loop);
      cands = findCandidates(loop, rec);
    }
  }
  // Prefetching into registers keeps two tiles alive: only for pointers
  // walked through the loop (computed ones are mostly row-wide tiles in
  // loops of one or two trips, where it costs more than it hides; small
  // ones beside tensor-core products hold registers the products need).
  // None reads memory that a store or atomic in the loop may write (same
  // base pointer, or a base not known): the next iteration's value would
  // be read before this iteration's writes.
  bool unknownWrite;
  std::vector<Value> written = writtenBases(loop, unknownWrite);
  llvm::erase_if(cands, [&](Candidate &c) {
    return c.argIndex < 0 || !c.chains.empty() || mayReadWritten(c, written, unknownWrite);
  });
  prefetchLoads(loop, cands);
}

} // namespace

unsigned tritium::codegen::sharedMemoryLimit(unsigned computeCapability) {
  return sharedLimit(computeCapability);
}

namespace {
/// A descriptor load outside loops read by products inside loops (the
/// queries of an attention kernel) is copied by TMA into a slot of its own
/// once, on sm_90:
///   mbarrier_init; tma_copy desc[idx] -> slot 0; ...;
///   mbarrier_wait slot 0 phase 0; x = shared_load slot 0
/// with the wait just before its first user.
void tmaOutsideLoops(ModuleOp module, unsigned cc, unsigned numWarps, int64_t &nextBuffer,
                     SharedBudget &budget) {
  std::vector<tile::DescriptorLoadOp> loads;
  module.walk([&](tile::DescriptorLoadOp dl) {
    if (dl->getParentOfType<LoopLikeOpInterface>() || !tmaCopies(dl, cc, numWarps))
      return;
    if (readInLoops(dl) && budget.take(slotBytes(dl, cc, numWarps)))
      loads.push_back(dl);
  });
  for (tile::DescriptorLoadOp dl : loads) {
    Operation *first = firstUserInBlock(dl);
    if (!first)
      continue;
    int64_t buffer = nextBuffer++, ring = nextBuffer++;
    OpBuilder b(dl);
    Location loc = dl.getLoc();
    tgpu::MbarrierInitOp::create(b, loc, b.getI64IntegerAttr(ring), b.getI64IntegerAttr(1),
                                 b.getI64IntegerAttr(1));
    Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    tgpu::TmaCopyOp::create(b, loc, dl.getDesc(), dl.getIndices(), slot, yes,
                            b.getI64IntegerAttr(buffer), b.getI64IntegerAttr(1),
                            b.getI64IntegerAttr(ring));
    b.setInsertionPoint(first);
    tgpu::MbarrierWaitOp::create(b, loc, slot, slot, b.getI64IntegerAttr(ring));
    auto x = tgpu::SharedLoadOp::create(b, loc, dl.getType(), slot, b.getI64IntegerAttr(buffer));
    dl.getResult().replaceAllUsesWith(x.getResult());
    dl.erase();
  }
}
} // namespace

namespace {
/// Shared memory left to the lowering's staging area (conversions,
/// reductions, epilogues) when the slots are sized. Only what a kernel's
/// loops stage while their slots are live counts (the rest reuses the
/// slots); a kernel that needs more is compiled again with the excess held
/// back (compileForCuda).
constexpr int64_t kScratchReserve = 0;
} // namespace

void tritium::codegen::pipelineLoads(mlir::ModuleOp module, unsigned stages,
                                     unsigned computeCapability, unsigned numWarps,
                                     int64_t holdBack) {
  std::vector<scf::ForOp> loops;
  module.walk([&](scf::ForOp f) {
    if (!f->hasAttr("tile.no_pipeline"))
      loops.push_back(f);
  });
  PipelineOptions o{stages, computeCapability, numWarps};
  int64_t nextBuffer = 0;
  // First, so that a wait for these copies comes before the loops' first
  // copies (which go right before each loop).
  SharedBudget budget{int64_t(sharedLimit(computeCapability)) - kScratchReserve - holdBack};
  if (computeCapability >= 80) {
    tmaOutsideLoops(module, computeCapability, numWarps, nextBuffer, budget);
    descriptorLoadsOutsideLoops(module, computeCapability, numWarps);
    stageOutsideLoops(module, computeCapability, numWarps, nextBuffer, budget);
  }
  // The slots of loops under different ops of the kernel's body are live
  // at different times and share memory (the lowering places buffers by
  // their lives): each such op gets the budget left by the copies made
  // outside loops.
  int64_t left = budget.left;
  Operation *group = nullptr;
  for (scf::ForOp f : loops) {
    Operation *top = f;
    while (top->getParentOp() && !isa<func::FuncOp>(top->getParentOp()))
      top = top->getParentOp();
    if (top != group) {
      group = top;
      budget.left = left;
    }
    pipelineLoop(f, o, nextBuffer, budget);
  }
}

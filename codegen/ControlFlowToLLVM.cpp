//===- ControlFlowToLLVM.cpp - scf.for, scf.if and scf.while -------------===//
//
// Structured control flow as LLVM basic blocks with phis. All scalars are
// uniform across a program, so every branch is uniform and barriers may sit
// anywhere. A loop's carried values take the layouts its body yields (the
// loop is emitted again when they differ from the inits').
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace tritium::codegen;

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// Registers of `vals` in the given layouts (scalars pass through).
std::vector<llvm::Value *> Lowering::flatten(llvm::ArrayRef<Value> vs,
                                             llvm::ArrayRef<LayoutRef> layouts) {
  std::vector<llvm::Value *> out;
  for (auto [v, l] : llvm::zip(vs, layouts)) {
    if (!l) {
      out.push_back(scalar(v));
      continue;
    }
    for (llvm::Value *r : convert(v, *l))
      out.push_back(r);
  }
  return out;
}

namespace {
/// Phi nodes for a list of carried values, one per register.
struct Carried {
  std::vector<LayoutRef> layouts;
  std::vector<llvm::PHINode *> phis;
  /// On AMD, 8- and 16-bit registers cross the back edge packed, four or
  /// two to a 32-bit word: a phi of its own per element would take a whole
  /// VGPR (an fp8 tile loaded one iteration early, 16 bytes a thread, took
  /// 16 VGPRs instead of 4).
  bool pack = false;
  /// Registers per phi (1: not packed).
  std::vector<unsigned> width;

  /// How many registers from `regs[i]` on go into one phi.
  static unsigned groupAt(llvm::ArrayRef<llvm::Value *> regs, size_t i, size_t end) {
    llvm::Type *t = regs[i]->getType();
    unsigned bits = t->isIntegerTy() || t->isHalfTy() || t->isBFloatTy()
                        ? unsigned(t->getPrimitiveSizeInBits())
                        : 0;
    if (bits != 8 && bits != 16)
      return 1;
    unsigned k = 32 / bits;
    if (i + k > end)
      return 1;
    for (unsigned j = 1; j < k; ++j)
      if (regs[i + j]->getType() != t)
        return 1;
    return k;
  }
  /// `regs[i..i+k)` as one 32-bit word, built before `at`.
  static llvm::Value *packed(llvm::ArrayRef<llvm::Value *> regs, size_t i, unsigned k,
                             llvm::Instruction *at) {
    llvm::IRBuilder<> pb(at);
    llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(regs[i]->getType(), k));
    for (unsigned j = 0; j < k; ++j)
      v = pb.CreateInsertElement(v, regs[i + j], uint64_t(j));
    return pb.CreateBitCast(v, pb.getInt32Ty());
  }

  void create(Lowering &L, llvm::ArrayRef<Value> types,
              llvm::ArrayRef<llvm::Value *> init, llvm::BasicBlock *from) {
    // Values' register runs, so that a packed word never spans two.
    size_t k = 0;
    for (LayoutRef l : layouts) {
      size_t n = l ? l->numRegs() : 1, end = k + n;
      while (k < end) {
        unsigned w = pack ? groupAt(init, k, end) : 1;
        llvm::Value *v = w == 1 ? init[k] : packed(init, k, w, from->getTerminator());
        auto *phi = L.b.CreatePHI(v->getType(), 2);
        phi->addIncoming(v, from);
        phis.push_back(phi);
        width.push_back(w);
        elemTypes.push_back(init[k]->getType());
        k += w;
      }
    }
  }
  void bind(Lowering &L, llvm::ArrayRef<Value> vals) {
    // (Phis made without create, an scf.if's, hold one register each.)
    std::vector<llvm::Value *> regs;
    for (size_t i = 0; i < phis.size(); ++i) {
      unsigned w = i < width.size() ? width[i] : 1;
      if (w == 1) {
        regs.push_back(phis[i]);
        continue;
      }
      llvm::Value *v = L.b.CreateBitCast(phis[i], llvm::FixedVectorType::get(elemTypes[i], w));
      for (unsigned j = 0; j < w; ++j)
        regs.push_back(L.b.CreateExtractElement(v, uint64_t(j)));
    }
    unsigned k = 0;
    for (auto [v, l] : llvm::zip(vals, layouts)) {
      unsigned n = l ? l->numRegs() : 1;
      std::vector<llvm::Value *> r(regs.begin() + k, regs.begin() + k + n);
      k += n;
      L.set(v, Lowered{l, r});
    }
  }
  void addIncoming(llvm::ArrayRef<llvm::Value *> vals, llvm::BasicBlock *from) {
    size_t k = 0;
    for (auto [phi, w] : llvm::zip(phis, width)) {
      phi->addIncoming(w == 1 ? vals[k] : packed(vals, k, w, from->getTerminator()), from);
      k += w;
    }
  }

private:
  std::vector<llvm::Type *> elemTypes;
};

/// The layouts the layout assignment gave `vs` (null for scalars).
std::vector<LayoutRef> layoutsOf(Lowering &L, ValueRange vs) {
  std::vector<LayoutRef> out;
  for (Value v : vs)
    out.push_back(isa<RankedTensorType>(v.getType()) ? L.assigned(v.getType()) : nullptr);
  return out;
}
} // namespace

/// Whether `v` (a loop's result) is read only by wgmma waits: an
/// accumulator whose last group is in flight when the loop ends.
static bool waitedLoopResult(Value v) {
  return !v.use_empty() &&
         llvm::all_of(v.getUsers(), [](Operation *u) { return isa<tgpu::WgmmaWaitOp>(u); });
}

LogicalResult Lowering::emitFor(Operation *o) {
  auto op = cast<scf::ForOp>(o);
  llvm::Value *lb = scalar(op.getLowerBound());
  llvm::Value *ub = scalar(op.getUpperBound());
  llvm::Value *step = scalar(op.getStep());
  bool rotated = target.isNvidia() && llvm::any_of(op.getResults(), waitedLoopResult);
  Carried carried;
  // (Packed also on NVIDIA where accumulators cross the back edge in
  // flight: fp16 ones are pairs in 32-bit registers there, and unpacking
  // them before their wait reads registers of a wgmma in flight, which
  // makes ptxas serialize every wgmma (C7514).)
  carried.pack = !target.isNvidia() || rotated;
  carried.layouts = layoutsOf(*this, op.getRegionIterArgs());
  std::vector<Value> inits(op.getInitArgs().begin(), op.getInitArgs().end());
  std::vector<llvm::Value *> initRegs = flatten(inits, carried.layouts);
  bool isUnsigned = op.getUnsignedCmp();
  auto less = [&](llvm::Value *x) {
    return isUnsigned ? b.CreateICmpULT(x, ub) : b.CreateICmpSLT(x, ub);
  };

  // A loop with accumulators in flight at its end is emitted in rotated
  // form: a guard, the body (its test at the bottom), and an exit reached
  // from the last iteration or, through a block of its own, from the guard.
  // Other loops test at the top and leave LLVM to rotate them.
  //
  // That block waits for all wgmma groups (none is in flight there) before
  // the accumulators' initial values are written into the registers the
  // exit's wait reads. ptxas serializes every wgmma of a kernel (C7515, 17%
  // of a matmul) when a path into a wait writes the registers of the
  // products it waits for with no wait before: an optimization that splits
  // the edge from the guard (GVN's PRE does) put the initial values
  // between the loop and its wait. Nor may that path skip waits (C7514).
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *header = rotated ? nullptr : llvm::BasicBlock::Create(ctx, "for.header", fn);
  auto *body = llvm::BasicBlock::Create(ctx, "for.body", fn);
  auto *skip = rotated ? llvm::BasicBlock::Create(ctx, "for.skip", fn) : nullptr;
  auto *exit = llvm::BasicBlock::Create(ctx, "for.exit", fn);
  if (rotated) {
    // (Marked unlikely, the skip block is laid out after the others rather
    // than between the loop and its exit.)
    b.CreateCondBr(less(lb), body, skip, llvm::MDBuilder(ctx).createLikelyBranchWeights());
    b.SetInsertPoint(skip);
    emitWgmmaWait(*this, 0, {});
    b.CreateBr(exit);
    b.SetInsertPoint(body);
  } else {
    b.CreateBr(header);
    b.SetInsertPoint(header);
  }
  llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2, "iv");
  iv->addIncoming(lb, pre);
  carried.create(*this, inits, initRegs, pre);
  if (!rotated) {
    b.CreateCondBr(less(iv), body, exit);
    b.SetInsertPoint(body);
  }

  stagingTouched = true; // what the previous iteration left is not known here
  bool pendingBefore = bulkReadsPending;
  bulkReadsPending |= holdsTmaStore(o);
  set(op.getInductionVar(), Lowered{nullptr, {iv}});
  std::vector<Value> iterArgs(op.getRegionIterArgs().begin(),
                              op.getRegionIterArgs().end());
  carried.bind(*this, iterArgs);
  if (failed(emitBlock(*op.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  std::vector<Value> yielded(yield.getOperands().begin(), yield.getOperands().end());
  std::vector<llvm::Value *> next = flatten(yielded, carried.layouts);
  llvm::Value *ivNext = b.CreateAdd(iv, step);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  if (rotated)
    b.CreateCondBr(less(ivNext), body, exit);
  else
    b.CreateBr(header);
  iv->addIncoming(ivNext, latch);
  carried.addIncoming(next, latch);

  b.SetInsertPoint(exit);
  std::vector<Value> results(op.getResults().begin(), op.getResults().end());
  stagingTouched = true;
  bulkReadsPending |= pendingBefore; // no iteration ran
  if (!rotated) {
    carried.bind(*this, results);
    return success();
  }
  // The results: the initial values from the skip block, the last
  // iteration's otherwise.
  Carried exits;
  exits.pack = carried.pack;
  exits.layouts = carried.layouts;
  exits.create(*this, inits, initRegs, skip);
  exits.addIncoming(next, latch);
  exits.bind(*this, results);
  return success();
}

LogicalResult Lowering::emitIf(Operation *o) {
  auto op = cast<scf::IfOp>(o);
  llvm::Value *cond = scalar(op.getCondition());
  auto *thenBB = llvm::BasicBlock::Create(ctx, "if.then", fn);
  auto *elseBB = llvm::BasicBlock::Create(ctx, "if.else", fn);
  auto *merge = llvm::BasicBlock::Create(ctx, "if.end", fn);
  b.CreateCondBr(cond, thenBB, elseBB);

  auto emitBranch = [&](Region &r) -> LogicalResult {
    return r.empty() ? success() : emitBlock(r.front());
  };

  b.SetInsertPoint(thenBB);
  bool touchedBefore = stagingTouched, pendingBefore = bulkReadsPending;
  if (failed(emitBranch(op.getThenRegion())))
    return failure();
  bool touchedInThen = stagingTouched, pendingInThen = bulkReadsPending;
  stagingTouched = touchedBefore;
  bulkReadsPending = pendingBefore;
  std::vector<LayoutRef> layouts;
  std::vector<llvm::Value *> thenRegs, elseRegs;
  if (op.getNumResults()) {
    auto y = op.thenYield();
    layouts = layoutsOf(*this, op.getResults());
    std::vector<Value> vs(y.getOperands().begin(), y.getOperands().end());
    thenRegs = flatten(vs, layouts);
  }
  llvm::BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(merge);

  b.SetInsertPoint(elseBB);
  if (failed(emitBranch(op.getElseRegion())))
    return failure();
  stagingTouched |= touchedInThen;
  bulkReadsPending |= pendingInThen;
  if (!op.getElseRegion().empty()) {
    if (op.getNumResults()) {
      auto y = op.elseYield();
      std::vector<Value> vs(y.getOperands().begin(), y.getOperands().end());
      elseRegs = flatten(vs, layouts);
    }
  }
  llvm::BasicBlock *elseEnd = b.GetInsertBlock();
  b.CreateBr(merge);

  b.SetInsertPoint(merge);
  Carried c;
  c.layouts = layouts;
  for (auto [t, e] : llvm::zip(thenRegs, elseRegs)) {
    auto *phi = b.CreatePHI(t->getType(), 2);
    phi->addIncoming(t, thenEnd);
    phi->addIncoming(e, elseEnd);
    c.phis.push_back(phi);
  }
  std::vector<Value> results(op.getResults().begin(), op.getResults().end());
  c.bind(*this, results);
  return success();
}

LogicalResult Lowering::emitWhile(Operation *o) {
  auto op = cast<scf::WhileOp>(o);
  Carried carried;
  carried.pack = !target.isNvidia();
  carried.layouts = layoutsOf(*this, op.getBeforeArguments());
  std::vector<Value> inits(op.getInits().begin(), op.getInits().end());
  std::vector<llvm::Value *> initRegs = flatten(inits, carried.layouts);

  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *before = llvm::BasicBlock::Create(ctx, "while.before", fn);
  auto *after = llvm::BasicBlock::Create(ctx, "while.after", fn);
  auto *exit = llvm::BasicBlock::Create(ctx, "while.exit", fn);
  b.CreateBr(before);
  b.SetInsertPoint(before);
  stagingTouched = true;
  bulkReadsPending |= holdsTmaStore(o);
  carried.create(*this, inits, initRegs, pre);
  std::vector<Value> beforeArgs(op.getBeforeArguments().begin(),
                                op.getBeforeArguments().end());
  carried.bind(*this, beforeArgs);
  if (failed(emitBlock(op.getBefore().front())))
    return failure();
  auto cond = op.getConditionOp();
  llvm::Value *c = scalar(cond.getCondition());
  // The forwarded values dominate both the after region and the exit.
  std::vector<Value> fwd(cond.getArgs().begin(), cond.getArgs().end());
  std::vector<Lowered> fwdVals;
  for (Value v : fwd)
    fwdVals.push_back(get(v));
  b.CreateCondBr(c, after, exit);

  b.SetInsertPoint(after);
  for (auto [arg, l] : llvm::zip(op.getAfterArguments(), fwdVals))
    set(arg, l);
  if (failed(emitBlock(op.getAfter().front())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getAfter().front().getTerminator());
  std::vector<Value> ys(yield.getOperands().begin(), yield.getOperands().end());
  std::vector<llvm::Value *> next = flatten(ys, carried.layouts);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  b.CreateBr(before);
  carried.addIncoming(next, latch);

  b.SetInsertPoint(exit);
  for (auto [res, l] : llvm::zip(op.getResults(), fwdVals))
    set(res, l);
  return success();
}


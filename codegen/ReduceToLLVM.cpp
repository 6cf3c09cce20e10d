//===- ReduceToLLVM.cpp - reductions, scans, gather, histogram ------------===//
//
// reduce: combine within a thread (registers along the axis), across lanes
// (butterfly shuffles over the lane bits along the axis), across warps
// (partials staged in shared memory, combined in warp order). The result
// lives in the source layout's slice along the axis; a reduction to a
// scalar leaves every thread with the total.
// scan: the axis is brought into each thread's registers and scanned in
// order. gather and histogram stage through shared memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/InlineAsm.h"

#include <map>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// A shuffle of any scalar type, in 32-bit pieces.
llvm::Value *shuffle(Lowering &L, llvm::Value *v, unsigned mask) {
  auto &b = L.b;
  llvm::Type *t = v->getType();
  if (t->isPointerTy())
    return b.CreateIntToPtr(shuffle(L, b.CreatePtrToInt(v, b.getInt64Ty()), mask), t);
  unsigned bits = t->getPrimitiveSizeInBits();
  llvm::Type *it = llvm::IntegerType::get(L.ctx, bits);
  llvm::Value *x = t->isIntegerTy() ? v : b.CreateBitCast(v, it);
  llvm::Value *r;
  if (bits == 64) {
    llvm::Value *lo = b.CreateTrunc(x, b.getInt32Ty());
    llvm::Value *hi = b.CreateTrunc(b.CreateLShr(x, 32), b.getInt32Ty());
    lo = L.target.shuffleXor(b, lo, mask);
    hi = L.target.shuffleXor(b, hi, mask);
    r = b.CreateOr(b.CreateZExt(lo, it), b.CreateShl(b.CreateZExt(hi, it), 32));
  } else if (bits < 32) {
    r = b.CreateTrunc(L.target.shuffleXor(b, b.CreateZExt(x, b.getInt32Ty()), mask), it);
  } else {
    r = L.target.shuffleXor(b, x, mask);
  }
  return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
}

LogicalResult reduce(Lowering &L, Operation *o) {
  auto op = cast<tile::ReduceOp>(o);
  auto &b = L.b;
  unsigned axis = op.getAxis();
  unsigned nOps = op.getSrcs().size();
  LayoutRef S = L.get(op.getSrcs()[0]).layout;
  if (!S->separable(axis))
    S = L.defaultLayout(op.getSrcs()[0].getType());
  std::vector<std::vector<llvm::Value *>> in;
  for (Value v : op.getSrcs())
    in.push_back(L.convert(v, *S));
  Region &combine = op.getRegion();
  auto combineVals = [&](std::vector<llvm::Value *> &acc,
                         const std::vector<llvm::Value *> &x) -> LogicalResult {
    std::vector<llvm::Value *> args = acc;
    args.insert(args.end(), x.begin(), x.end());
    auto r = L.emitScalarRegion(combine, args);
    if (failed(r))
      return failure();
    acc = *r;
    return success();
  };

  // 1. Within the thread.
  unsigned axisRegMask = 0;
  const auto &rb = S->bases(LinearLayout::Reg);
  for (unsigned i = 0; i < rb.size(); ++i)
    if (rb[i][axis])
      axisRegMask |= 1u << i;
  unsigned replica = S->replicatedMask(LinearLayout::Reg);
  std::map<unsigned, std::vector<llvm::Value *>> acc; // key: reg w/o axis bits
  std::map<unsigned, std::vector<std::pair<int64_t, unsigned>>> members;
  for (unsigned r = 0; r < S->numRegs(); ++r) {
    if (r & replica)
      continue;
    members[r & ~axisRegMask].push_back(
        {S->applyOne(LinearLayout::Reg, r)[axis], r});
  }
  for (auto &[key, regs] : members) {
    std::sort(regs.begin(), regs.end());
    std::vector<llvm::Value *> a;
    for (unsigned k = 0; k < nOps; ++k)
      a.push_back(in[k][regs[0].second]);
    for (size_t i = 1; i < regs.size(); ++i) {
      std::vector<llvm::Value *> x;
      for (unsigned k = 0; k < nOps; ++k)
        x.push_back(in[k][regs[i].second]);
      if (failed(combineVals(a, x)))
        return failure();
    }
    acc[key] = a;
  }

  // 2. Across lanes.
  const auto &lb = S->bases(LinearLayout::Lane);
  for (unsigned bit = 0; bit < lb.size(); ++bit) {
    if (!lb[bit][axis])
      continue;
    for (auto &[key, a] : acc) {
      std::vector<llvm::Value *> x;
      for (llvm::Value *v : a)
        x.push_back(shuffle(L, v, 1u << bit));
      if (failed(combineVals(a, x)))
        return failure();
    }
  }

  // 3. Across warps, through shared memory.
  std::vector<unsigned> warpAxisBits;
  const auto &wb = S->bases(LinearLayout::Warp);
  for (unsigned bit = 0; bit < wb.size(); ++bit)
    if (wb[bit][axis])
      warpAxisBits.push_back(bit);
  LinearLayout R = S->sliceDim(axis);
  std::vector<unsigned> kept = S->sliceKeptRegs(axis);
  if (!warpAxisBits.empty()) {
    unsigned numW = 1u << warpAxisBits.size();
    int64_t slots = std::max<int64_t>(1, R.numElements()) * numW;
    llvm::Value *wIdx = L.i32(0);
    for (unsigned i = 0; i < warpAxisBits.size(); ++i)
      wIdx = b.CreateOr(wIdx, b.CreateShl(b.CreateAnd(b.CreateLShr(L.warpId(), warpAxisBits[i]), 1), i));
    std::vector<unsigned> offsets;
    unsigned bytes = 0;
    for (unsigned k = 0; k < nOps; ++k) {
      offsets.push_back(bytes);
      bytes += unsigned(slots * 8);
    }
    L.reserveShared(bytes);
    L.barrier();
    for (unsigned i = 0; i < kept.size(); ++i) {
      auto it = acc.find(kept[i] & ~axisRegMask);
      if (it == acc.end())
        continue;
      llvm::Value *base = b.CreateMul(R.rank() ? L.linearCoord(R, i) : L.i32(0), L.i32(numW));
      for (unsigned k = 0; k < nOps; ++k) {
        llvm::Type *t = it->second[k]->getType();
        llvm::Type *mt = t->isIntegerTy(1) ? b.getInt8Ty() : t->isPointerTy() ? b.getInt64Ty() : t;
        L.storeShared(it->second[k], L.sharedPtr(mt, b.CreateAdd(base, wIdx), offsets[k]));
      }
    }
    L.barrier();
    for (unsigned i = 0; i < kept.size(); ++i) {
      auto it = acc.find(kept[i] & ~axisRegMask);
      if (it == acc.end())
        continue;
      llvm::Value *base = b.CreateMul(R.rank() ? L.linearCoord(R, i) : L.i32(0), L.i32(numW));
      std::vector<llvm::Value *> a;
      for (unsigned w = 0; w < numW; ++w) {
        std::vector<llvm::Value *> x;
        for (unsigned k = 0; k < nOps; ++k) {
          llvm::Type *t = it->second[k]->getType();
          llvm::Type *mt = t->isIntegerTy(1) ? b.getInt8Ty() : t->isPointerTy() ? b.getInt64Ty() : t;
          x.push_back(L.loadShared(t, L.sharedPtr(mt, b.CreateAdd(base, L.i32(w)), offsets[k])));
        }
        if (w == 0)
          a = x;
        else if (failed(combineVals(a, x)))
          return failure();
      }
      it->second = a;
    }
  }

  // 4. Results in the slice layout (or scalars).
  for (unsigned k = 0; k < nOps; ++k) {
    std::vector<llvm::Value *> regs;
    for (unsigned r : kept) {
      auto it = acc.find(r & ~axisRegMask);
      // A replica register of the slice repeats its first copy.
      if (it == acc.end())
        it = acc.find((r & ~replica) & ~axisRegMask);
      regs.push_back(it->second[k]);
    }
    if (R.rank() == 0)
      L.set(op.getResult()[k], Lowered{nullptr, {regs.front()}});
    else
      L.set(op.getResult()[k], Lowered{L.share(R), regs});
  }
  return success();
}

LogicalResult scan(Lowering &L, Operation *o) {
  auto op = cast<tile::ScanOp>(o);
  unsigned axis = op.getAxis();
  unsigned nOps = op.getSrcs().size();
  LayoutRef S = L.get(op.getSrcs()[0]).layout;
  bool inThread = true;
  for (int k : {1, 2})
    for (const Coord &c : S->bases(LinearLayout::InDim(k)))
      if (c[axis])
        inThread = false;
  if (!inThread || !S->separable(axis))
    S = L.share(LinearLayout::axisInThread(S->shape(), axis, L.numWarps));
  std::vector<std::vector<llvm::Value *>> in;
  for (Value v : op.getSrcs())
    in.push_back(L.convert(v, *S));
  unsigned axisRegMask = 0;
  const auto &rb = S->bases(LinearLayout::Reg);
  for (unsigned i = 0; i < rb.size(); ++i)
    if (rb[i][axis])
      axisRegMask |= 1u << i;
  unsigned replica = S->replicatedMask(LinearLayout::Reg);
  std::map<unsigned, std::vector<std::pair<int64_t, unsigned>>> members;
  for (unsigned r = 0; r < S->numRegs(); ++r)
    if (!(r & replica))
      members[r & ~axisRegMask].push_back({S->applyOne(LinearLayout::Reg, r)[axis], r});
  std::vector<std::vector<llvm::Value *>> out(nOps, std::vector<llvm::Value *>(S->numRegs()));
  for (auto &[key, regs] : members) {
    std::sort(regs.begin(), regs.end());
    if (op.getReverse())
      std::reverse(regs.begin(), regs.end());
    std::vector<llvm::Value *> acc;
    for (auto [c, r] : regs) {
      std::vector<llvm::Value *> x;
      for (unsigned k = 0; k < nOps; ++k)
        x.push_back(in[k][r]);
      if (acc.empty()) {
        acc = x;
      } else {
        std::vector<llvm::Value *> args = acc;
        args.insert(args.end(), x.begin(), x.end());
        auto res = L.emitScalarRegion(op.getRegion(), args);
        if (failed(res))
          return failure();
        acc = *res;
      }
      for (unsigned k = 0; k < nOps; ++k)
        out[k][r] = acc[k];
    }
  }
  for (unsigned k = 0; k < nOps; ++k) {
    for (unsigned r = 0; r < S->numRegs(); ++r)
      if (!out[k][r])
        out[k][r] = out[k][r & ~replica];
    L.set(op.getResult()[k], Lowered{S, out[k]});
  }
  return success();
}

LogicalResult gather(Lowering &L, Operation *o) {
  auto op = cast<tile::GatherOp>(o);
  auto &b = L.b;
  Lowered src = L.get(op.getSrc());
  Lowered idx = L.get(op.getIndices());
  unsigned axis = op.getAxis();
  llvm::Type *t = L.llvmType(op.getSrc().getType());
  llvm::Type *mt = t->isIntegerTy(1) ? b.getInt8Ty() : t->isPointerTy() ? b.getInt64Ty() : t;
  const LinearLayout &sl = *src.layout;
  L.reserveShared(unsigned(sl.numElements() * L.storeBytes(mt)));
  L.barrier();
  for (unsigned r = 0; r < sl.numRegs(); ++r)
    if (!sl.isReplicaReg(r))
      L.storeShared(src.regs[r], L.sharedPtr(mt, L.linearCoord(sl, r)));
  L.barrier();
  const LinearLayout &il = *idx.layout;
  Lowered out{idx.layout, {}};
  for (unsigned r = 0; r < il.numRegs(); ++r) {
    llvm::Value *lin = nullptr;
    for (unsigned d = 0; d < il.rank(); ++d) {
      llvm::Value *c = d == axis ? b.CreateSExtOrTrunc(idx.regs[r], b.getInt32Ty())
                                 : L.coord(il, r, d);
      lin = !lin ? c : b.CreateAdd(b.CreateMul(lin, L.i32(sl.shape()[d])), c);
    }
    out.regs.push_back(L.loadShared(t, L.sharedPtr(mt, lin)));
  }
  L.set(op, std::move(out));
  return success();
}

LogicalResult histogram(Lowering &L, Operation *o) {
  auto op = cast<tile::HistogramOp>(o);
  auto &b = L.b;
  Lowered src = L.get(op.getSrc());
  std::vector<llvm::Value *> mask;
  if (op.getMask())
    mask = L.convert(op.getMask(), *src.layout);
  int64_t bins = cast<RankedTensorType>(op.getType()).getShape()[0];
  LayoutRef outL = L.defaultLayout(op.getType());
  L.reserveShared(unsigned(bins * 4));
  // Zero the bins (each thread its share), count with shared atomics, read.
  L.barrier();
  unsigned threads = L.numWarps * L.target.warpSize();
  for (int64_t base = 0; base < bins; base += threads) {
    llvm::Value *i = b.CreateAdd(L.threadId(), L.i32(base));
    L.guarded(b.CreateICmpULT(i, L.i32(bins)),
              [&] { b.CreateStore(L.i32(0), L.sharedPtr(b.getInt32Ty(), i)); },
              "hist.zero");
  }
  L.barrier();
  llvm::Value *owner = L.isOwner(*src.layout);
  for (unsigned r = 0; r < src.layout->numRegs(); ++r) {
    if (src.layout->isReplicaReg(r))
      continue;
    llvm::Value *v = b.CreateSExtOrTrunc(src.regs[r], b.getInt32Ty());
    llvm::Value *ok = b.CreateAnd(owner, b.CreateICmpULT(v, L.i32(bins)));
    if (!mask.empty())
      ok = b.CreateAnd(ok, mask[r]);
    L.guarded(ok, [&] {
      b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, L.sharedPtr(b.getInt32Ty(), v),
                        L.i32(1), llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
    }, "hist.add");
  }
  L.barrier();
  Lowered out{outL, {}};
  for (unsigned r = 0; r < outL->numRegs(); ++r)
    out.regs.push_back(b.CreateLoad(b.getInt32Ty(),
                                    L.sharedPtr(b.getInt32Ty(), L.linearCoord(*outL, r))));
  L.set(op, std::move(out));
  return success();
}

} // namespace

void tritium::codegen::populateReduceHandlers(HandlerTable &t) {
  t["tile.reduce"] = reduce;
  t["tile.scan"] = scan;
  t["tile.gather"] = gather;
  t["tile.histogram"] = histogram;
}

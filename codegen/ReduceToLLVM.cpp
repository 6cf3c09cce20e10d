//===- ReduceToLLVM.cpp - reductions, scans, gather, histogram ------------===//
//
// reduce: combine within a thread (registers along the axis), across lanes
// (butterfly shuffles over the lane bits along the axis), across warps
// (partials staged in shared memory without bank conflicts, combined in
// warp order by every thread that needs them, once per result when many
// threads hold each result, or by a shuffle tree when the combine is
// long). The result
// lives in the source layout's slice along the axis; a reduction to a
// scalar leaves every thread with the total.
// scan: in a layout whose axis runs registers, lanes, warps, registers from
// its lowest bit up: prefixes within the thread, then across lanes
// (butterfly shuffles of the threads' totals), then across warps (totals
// staged in shared memory), then across the register chunks that repeat
// the whole CTA along the axis. Only associativity is assumed: every
// combine takes its operands in scan order. gather and histogram stage
// through shared memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// The type a value of type `t` takes in shared memory (i1 as a byte,
/// pointers as 64-bit integers).
llvm::Type *stagedType(llvm::IRBuilderBase &b, llvm::Type *t) {
  return t->isIntegerTy(1) ? b.getInt8Ty() : t->isPointerTy() ? b.getInt64Ty() : t;
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

  // 3. Across warps, through shared memory. Each warp along the axis
  // stores its partials in a row of its own, at a position made of the
  // thread's bits that tell the result's elements apart: lane bits lowest,
  // then warp bits, then register bits. For one register the lanes then
  // touch consecutive words (no bank conflicts), and threads holding the
  // same element (replicas) share its position. The rows are then
  // combined one of three ways, whichever costs a thread least (loads,
  // combines weighted by their ops, a second barrier):
  //   - direct: every thread combines all rows at each of its positions;
  //   - serial: each position is combined by one thread, which stores the
  //     total; after a second barrier every thread reads its totals (when
  //     many threads hold each result: their direct loads would repeat);
  //   - tree: a position's rows are read by as many lanes of one warp and
  //     combined by butterfly shuffles, the row-0 lane storing the total
  //     (when the combine is long: its chain is log2 of the rows deep).
  std::vector<unsigned> warpAxisBits;
  const auto &wb = S->bases(LinearLayout::Warp);
  for (unsigned bit = 0; bit < wb.size(); ++bit)
    if (wb[bit][axis])
      warpAxisBits.push_back(bit);
  LinearLayout R = S->sliceDim(axis);
  std::vector<unsigned> kept = S->sliceKeptRegs(axis);
  if (!warpAxisBits.empty()) {
    unsigned logW = warpAxisBits.size(), numW = 1u << logW;
    auto nonZero = [](const std::vector<int64_t> &c) {
      return llvm::any_of(c, [](int64_t x) { return x != 0; });
    };
    unsigned posBits = 0;
    for (auto d : {LinearLayout::Lane, LinearLayout::Warp, LinearLayout::Reg})
      for (const auto &c : R.bases(d))
        posBits += nonZero(c);
    int64_t E = int64_t(1) << posBits; // positions per row
    llvm::Value *lane = L.laneId(), *warp = L.warpId();
    auto bitsOf = [&](llvm::Value *hw, const std::vector<std::vector<int64_t>> &bases,
                      llvm::Value *p, unsigned &k) {
      for (unsigned bit = 0; bit < bases.size(); ++bit)
        if (nonZero(bases[bit])) {
          llvm::Value *x = b.CreateAnd(b.CreateLShr(hw, bit), 1);
          p = b.CreateOr(p, b.CreateShl(x, k++));
        }
      return p;
    };
    unsigned hwBits = 0;
    llvm::Value *threadPos = bitsOf(lane, R.bases(LinearLayout::Lane), L.i32(0), hwBits);
    threadPos = bitsOf(warp, R.bases(LinearLayout::Warp), threadPos, hwBits);
    auto position = [&](unsigned reg) {
      uint64_t c = 0;
      unsigned k = hwBits;
      const auto &rbs = R.bases(LinearLayout::Reg);
      for (unsigned bit = 0; bit < rbs.size(); ++bit)
        if (nonZero(rbs[bit]))
          c |= uint64_t((reg >> bit) & 1) << k++;
      return c ? b.CreateOr(threadPos, L.i32(int64_t(c))) : threadPos;
    };
    llvm::Value *wIdx = L.i32(0);
    for (unsigned i = 0; i < logW; ++i)
      wIdx = b.CreateOr(wIdx, b.CreateShl(b.CreateAnd(b.CreateLShr(warp, warpAxisBits[i]), 1), i));

    // What each way costs a thread.
    int64_t held = 0;
    for (unsigned i = 0; i < kept.size(); ++i)
      held += acc.count(kept[i] & ~axisRegMask) != 0;
    int64_t combineCost = 0;
    for (Operation &op : combine.front().without_terminator()) {
      StringRef name = op.getName().getStringRef();
      bool slow = name.contains("div") || name.contains("rem") || name.contains("sqrt") ||
                  name.contains("exp") || name.contains("log") || isa<func::CallOp>(op);
      combineCost += slow ? 8 : 1;
    }
    int64_t lanes = S->numLanes(), threads = lanes * S->numWarps();
    int64_t n = nOps, barrierCost = 8;
    int64_t rowsCost = numW * n + (numW - 1) * combineCost; // one position, serially
    int64_t direct = held * rowsCost;
    int64_t finish = n + barrierCost + held * n;             // store, barrier, read totals
    int64_t serial = (E + threads - 1) / threads * rowsCost + finish;
    int64_t perWarp = std::max<int64_t>(1, lanes / numW);    // tree: positions a warp combines
    int64_t perPass = perWarp * S->numWarps();
    int64_t tree = numW <= lanes
                       ? (E + perPass - 1) / perPass * (n + logW * (n + combineCost)) + finish
                       : INT64_MAX;
    enum { Direct, Serial, Tree } way = Direct;
    if (L.partition != Lowering::Partition::Producer) {
      if (serial < direct && serial <= tree)
        way = Serial;
      else if (tree < direct)
        way = Tree;
    }
    // A tree's rows are padded by perWarp words: its lanes, reading the
    // rows of consecutive positions, fall on distinct banks.
    int64_t rowStride = way == Tree ? E + perWarp : E;
    int64_t totals = int64_t(numW) * rowStride; // where totals go
    std::vector<unsigned> offsets;
    unsigned bytes = 0;
    for (unsigned k = 0; k < nOps; ++k) {
      offsets.push_back(bytes);
      bytes += unsigned((totals + (way == Direct ? 0 : E)) * 8);
    }
    std::vector<llvm::Type *> types; // the operands' types
    for (unsigned k = 0; k < nOps; ++k)
      types.push_back(acc.begin()->second[k]->getType());
    auto ptrAt = [&](unsigned k, llvm::Value *index) {
      return L.sharedPtr(stagedType(b, types[k]), index, offsets[k]);
    };
    L.reserveShared(bytes);
    L.barrierBeforeStaging();
    llvm::Value *rowBase = b.CreateMul(wIdx, L.i32(rowStride));
    for (unsigned i = 0; i < kept.size(); ++i) {
      auto it = acc.find(kept[i] & ~axisRegMask);
      if (it == acc.end())
        continue;
      llvm::Value *at = b.CreateAdd(rowBase, position(i));
      for (unsigned k = 0; k < nOps; ++k)
        L.storeShared(it->second[k], ptrAt(k, at));
    }
    L.barrier();
    // Combines the rows at position `pos`, in warp order.
    auto combineRows = [&](llvm::Value *pos, std::vector<llvm::Value *> &a) -> LogicalResult {
      for (unsigned w = 0; w < numW; ++w) {
        std::vector<llvm::Value *> x;
        llvm::Value *at = b.CreateAdd(pos, L.i32(int64_t(w) * rowStride));
        for (unsigned k = 0; k < nOps; ++k)
          x.push_back(L.loadShared(types[k], ptrAt(k, at)));
        if (w == 0)
          a = x;
        else if (failed(combineVals(a, x)))
          return failure();
      }
      return success();
    };
    if (way == Direct) {
      for (unsigned i = 0; i < kept.size(); ++i) {
        auto it = acc.find(kept[i] & ~axisRegMask);
        if (it == acc.end())
          continue;
        std::vector<llvm::Value *> a;
        if (failed(combineRows(position(i), a)))
          return failure();
        it->second = a;
      }
    } else {
      if (way == Serial) {
        // Positions tid, tid + threads, ...; with fewer positions than
        // threads, threads past them repeat a position's work and store
        // the same total (totals go after the rows, which stay).
        llvm::Value *tid = b.CreateAdd(b.CreateMul(warp, L.i32(lanes)), lane);
        if (E < threads)
          tid = b.CreateAnd(tid, L.i32(E - 1));
        for (int64_t j = 0; j < (E + threads - 1) / threads; ++j) {
          llvm::Value *pos = b.CreateAdd(tid, L.i32(j * threads));
          std::vector<llvm::Value *> a;
          if (failed(combineRows(pos, a)))
            return failure();
          llvm::Value *at = b.CreateAdd(pos, L.i32(totals));
          for (unsigned k = 0; k < nOps; ++k)
            L.storeShared(a[k], ptrAt(k, at));
        }
      } else {
        // Lane l of warp v reads row l / perWarp of position
        // v * perWarp + l % perWarp; shuffles across the row bits combine
        // lower rows first along the path to row 0, whose lane stores.
        unsigned logPW = llvm::Log2_64(uint64_t(perWarp));
        llvm::Value *row = b.CreateLShr(lane, logPW);
        llvm::Value *first = b.CreateAdd(b.CreateMul(warp, L.i32(perWarp)),
                                         b.CreateAnd(lane, L.i32(perWarp - 1)));
        if (E < perPass)
          first = b.CreateAnd(first, L.i32(E - 1));
        llvm::Value *isRow0 = b.CreateICmpEQ(row, L.i32(0));
        for (int64_t j = 0; j < (E + perPass - 1) / perPass; ++j) {
          llvm::Value *pos = b.CreateAdd(first, L.i32(j * perPass));
          llvm::Value *at = b.CreateAdd(pos, b.CreateMul(row, L.i32(rowStride)));
          std::vector<llvm::Value *> a;
          for (unsigned k = 0; k < nOps; ++k)
            a.push_back(L.loadShared(types[k], ptrAt(k, at)));
          for (unsigned bit = 0; bit < logW; ++bit) {
            std::vector<llvm::Value *> x;
            for (llvm::Value *v : a)
              x.push_back(shuffle(L, v, unsigned(perWarp) << bit));
            if (failed(combineVals(a, x)))
              return failure();
          }
          llvm::Value *dst = b.CreateAdd(pos, L.i32(totals));
          L.guarded(isRow0, [&] {
            for (unsigned k = 0; k < nOps; ++k)
              L.storeShared(a[k], ptrAt(k, dst));
          }, "reduce.total");
        }
      }
      L.barrier();
      for (unsigned i = 0; i < kept.size(); ++i) {
        auto it = acc.find(kept[i] & ~axisRegMask);
        if (it == acc.end())
          continue;
        llvm::Value *at = b.CreateAdd(position(i), L.i32(totals));
        for (unsigned k = 0; k < nOps; ++k)
          it->second[k] = L.loadShared(types[k], ptrAt(k, at));
      }
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

/// Values of a scan's operands at one point (one per operand), and whether
/// they exist there: `valid` null means never, otherwise an i1.
struct Partial {
  std::vector<llvm::Value *> vals;
  llvm::Value *valid = nullptr;
};

LogicalResult scan(Lowering &L, Operation *o) {
  auto op = cast<tile::ScanOp>(o);
  auto &b = L.b;
  unsigned axis = op.getAxis();
  unsigned nOps = op.getSrcs().size();
  bool rev = op.getReverse();
  using Vals = std::vector<llvm::Value *>;
  LayoutRef S = L.get(op.getSrcs()[0]).layout;
  if (!S->scansInOrder(axis))
    S = L.share(LinearLayout::defaultFor(S->shape(), L.numWarps, L.layoutBits,
                                         L.target.warpSize(), axis));
  std::vector<Vals> in;
  for (Value v : op.getSrcs())
    in.push_back(L.convert(v, *S));
  bool failedRegion = false;
  // The combine region over (first, second) in scan order.
  auto comb = [&](const Vals &first, const Vals &second) -> Vals {
    Vals args = first;
    args.insert(args.end(), second.begin(), second.end());
    auto r = L.emitScalarRegion(op.getRegion(), args);
    if (failed(r)) {
      failedRegion = true;
      return first;
    }
    return *r;
  };
  auto select = [&](llvm::Value *c, const Vals &t, const Vals &f) {
    Vals r;
    for (unsigned k = 0; k < nOps; ++k)
      r.push_back(b.CreateSelect(c, t[k], f[k]));
    return r;
  };
  // `before` followed by `x`, where `before` may be missing.
  auto after = [&](const Partial &before, const Vals &x) -> Vals {
    if (!before.valid)
      return x;
    Vals c = comb(before.vals, x);
    auto *k = llvm::dyn_cast<llvm::ConstantInt>(before.valid);
    return k && k->isOne() ? c : select(before.valid, c, x);
  };
  auto then = [&](const Partial &before, const Partial &x) -> Partial {
    if (!x.valid)
      return before;
    if (!before.valid)
      return x;
    Vals joined = after(before, x.vals);
    auto *k = llvm::dyn_cast<llvm::ConstantInt>(x.valid);
    if (k && k->isOne())
      return Partial{joined, b.getTrue()};
    return Partial{select(x.valid, joined, before.vals), b.CreateOr(before.valid, x.valid)};
  };

  // The axis's coordinate bits: low registers, lanes, warps, high registers.
  int64_t firstShared = S->shape()[axis];
  std::vector<std::pair<int64_t, unsigned>> laneBits, warpBits;
  for (auto [d, bits] : {std::pair{LinearLayout::Lane, &laneBits},
                         std::pair{LinearLayout::Warp, &warpBits}}) {
    const auto &bases = S->bases(d);
    for (unsigned i = 0; i < bases.size(); ++i)
      if (bases[i][axis]) {
        bits->push_back({bases[i][axis], i});
        firstShared = std::min(firstShared, bases[i][axis]);
      }
    std::sort(bits->begin(), bits->end());
  }
  unsigned lowMask = 0, highMask = 0;
  const auto &rb = S->bases(LinearLayout::Reg);
  for (unsigned i = 0; i < rb.size(); ++i)
    if (rb[i][axis])
      (rb[i][axis] < firstShared ? lowMask : highMask) |= 1u << i;
  unsigned replica = S->replicatedMask(LinearLayout::Reg);
  auto axisOf = [&](unsigned r) { return S->applyOne(LinearLayout::Reg, r)[axis]; };
  // Rows (registers without axis bits) and their chunks (high registers),
  // each chunk's registers in scan order.
  std::map<unsigned, std::vector<unsigned>> chunksOf;
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> members;
  for (unsigned r = 0; r < S->numRegs(); ++r) {
    if (r & replica)
      continue;
    unsigned row = r & ~(lowMask | highMask), chunk = r & highMask;
    auto &m = members[{row, chunk}];
    if (m.empty())
      chunksOf[row].push_back(chunk);
    m.push_back(r);
  }
  auto inScanOrder = [&](std::vector<unsigned> &regs) {
    std::sort(regs.begin(), regs.end(), [&](unsigned a, unsigned c) {
      return rev ? axisOf(a) > axisOf(c) : axisOf(a) < axisOf(c);
    });
  };
  for (auto &[row, chunks] : chunksOf)
    inScanOrder(chunks);

  // 1. Within the thread: prefixes of each chunk's registers.
  std::vector<Vals> out(nOps, Vals(S->numRegs(), nullptr));
  std::map<std::pair<unsigned, unsigned>, Vals> total;
  for (auto &[key, regs] : members) {
    inScanOrder(regs);
    Vals acc;
    for (unsigned r : regs) {
      Vals x;
      for (unsigned k = 0; k < nOps; ++k)
        x.push_back(in[k][r]);
      acc = acc.empty() ? x : comb(acc, x);
      for (unsigned k = 0; k < nOps; ++k)
        out[k][r] = acc[k];
    }
    total[key] = acc;
  }

  // 2. Across lanes, by butterfly shuffles from the lowest axis bit up:
  // `block` is the total of the lanes that agree with this one on the
  // higher bits, `before` what precedes this lane among them.
  std::map<std::pair<unsigned, unsigned>, Partial> before;
  for (auto &[key, block] : total) {
    Partial pre;
    for (auto [coordBit, bit] : laneBits) {
      Vals other;
      for (llvm::Value *v : block)
        other.push_back(shuffle(L, v, 1u << bit));
      llvm::Value *set = b.CreateICmpNE(b.CreateAnd(L.laneId(), L.i32(1u << bit)), L.i32(0));
      llvm::Value *second = rev ? b.CreateNot(set) : set;
      block = select(second, comb(other, block), comb(block, other));
      pre = then(Partial{other, second}, pre);
    }
    before[key] = pre;
  }

  // 3. Across warps, through shared memory: each warp's totals, then each
  // thread combines those of the warps before its own.
  std::map<std::pair<unsigned, unsigned>, Vals> chunkTotal = total;
  if (!warpBits.empty()) {
    unsigned numW = 1u << warpBits.size();
    llvm::Value *wpos = L.i32(0);
    for (unsigned i = 0; i < warpBits.size(); ++i)
      wpos = b.CreateOr(wpos, b.CreateShl(b.CreateAnd(b.CreateLShr(L.warpId(), warpBits[i].second), 1), i));
    LinearLayout R = S->sliceDim(axis);
    std::vector<unsigned> kept = S->sliceKeptRegs(axis);
    std::map<unsigned, unsigned> sliceReg; // row -> a slice register
    for (unsigned i = 0; i < kept.size(); ++i)
      sliceReg.insert({kept[i] & ~(lowMask | highMask), i});
    unsigned numChunks = 1u << llvm::popcount(highMask);
    int64_t slots = std::max<int64_t>(1, R.numElements()) * numChunks * numW;
    std::vector<unsigned> offsets;
    unsigned bytes = 0;
    for (unsigned k = 0; k < nOps; ++k) {
      offsets.push_back(bytes);
      bytes += unsigned(slots * 8);
    }
    auto slotBase = [&](std::pair<unsigned, unsigned> key) {
      llvm::Value *row = R.rank() ? L.linearCoord(R, sliceReg.at(key.first)) : L.i32(0);
      unsigned chunk = 0, j = 0; // the chunk's index from its high register bits
      for (unsigned i = 0; i < rb.size(); ++i)
        if (highMask >> i & 1)
          chunk |= (key.second >> i & 1) << j++;
      return b.CreateMul(b.CreateAdd(b.CreateMul(row, L.i32(numChunks)), L.i32(chunk)),
                         L.i32(numW));
    };
    L.reserveShared(bytes);
    L.barrier();
    for (auto &[key, block] : total)
      for (unsigned k = 0; k < nOps; ++k)
        L.storeShared(block[k], L.sharedPtr(stagedType(b, block[k]->getType()),
                                            b.CreateAdd(slotBase(key), wpos), offsets[k]));
    L.barrier();
    for (auto &[key, block] : total) {
      llvm::Value *base = slotBase(key);
      Partial warps;
      Vals all;
      for (unsigned i = 0; i < numW; ++i) {
        unsigned w = rev ? numW - 1 - i : i;
        Vals x;
        for (unsigned k = 0; k < nOps; ++k)
          x.push_back(L.loadShared(block[k]->getType(),
                                   L.sharedPtr(stagedType(b, block[k]->getType()),
                                               b.CreateAdd(base, L.i32(w)), offsets[k])));
        llvm::Value *earlier = b.CreateICmp(rev ? llvm::CmpInst::ICMP_UGT : llvm::CmpInst::ICMP_ULT,
                                            L.i32(w), wpos);
        warps = then(warps, Partial{x, earlier});
        if (numChunks > 1)
          all = all.empty() ? x : comb(all, x);
      }
      before[key] = then(warps, before[key]);
      if (numChunks > 1)
        chunkTotal[key] = all;
    }
  }

  // 4. Chunks in scan order: each follows the totals of the ones before.
  for (auto &[row, chunks] : chunksOf) {
    Partial carry;
    for (unsigned chunk : chunks) {
      std::pair<unsigned, unsigned> key{row, chunk};
      Partial pre = then(carry, before[key]);
      for (unsigned r : members[key]) {
        Vals x;
        for (unsigned k = 0; k < nOps; ++k)
          x.push_back(out[k][r]);
        x = after(pre, x);
        for (unsigned k = 0; k < nOps; ++k)
          out[k][r] = x[k];
      }
      carry = then(carry, Partial{chunkTotal[key], b.getTrue()});
    }
  }
  if (failedRegion)
    return failure();
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
  llvm::Type *mt = stagedType(b, t);
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

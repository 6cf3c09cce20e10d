//===- SortToLLVM.cpp - tile.sort on the GPU ------------------------------===//
//
// A short sort axis is brought into each thread's registers (the layout
// scan uses), and every thread sorts its runs of registers along the axis
// with a fixed sorting network (Batcher's odd-even merge sort). A long axis
// stays spread over registers, lanes and warps and is sorted by a bitonic
// network whose steps exchange through registers, shuffles or shared
// memory. The result keeps the layout sorted in. tl.topk is a descending
// sort followed by a gather, so it needs nothing more.
//
// The interpreter's order is a stable sort: integers compare as signed (i1
// as unsigned; the frontend flips the sign bit of unsigned blocks), fp16,
// bf16, fp32 and fp64 by a total order of their bits (numbers by value,
// -0.0 before +0.0, then the NaNs; reversed descending), fp8 numerically
// with NaNs after every number ascending and before them descending, and
// elements that compare equal keep their order. A network is not stable:
// the wide floats sort by their total-order key alone (a bijection of the
// bits, so equal keys are equal elements; the value is recovered from the
// key at the end, and each exchange moves one register, as Triton's
// sort does); fp8 by an integer key that makes the order total: the value
// mapped monotonically onto an unsigned integer (zeros merged, NaNs merged
// and put last), inverted for descending order, then the element's
// original position along the axis. Equal integers are indistinguishable,
// so they compare by value alone.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace tritium::codegen {
/// The compare-exchange steps of Batcher's odd-even merge sort of `n` (a
/// power of two) elements: after running every pair (i, j), i < j, in
/// order, with the smaller element moved to i, the elements are sorted.
/// Exposed for the host test of the network.
std::vector<std::pair<unsigned, unsigned>> sortingNetwork(unsigned n);
/// Sorts `vals`, the registers of one run along the axis in axis order
/// (a power of two of them), in place as tile.sort orders elements of
/// `elem`: the code each thread runs on a short axis. False when `elem`
/// cannot be sorted. Exposed for the host test that runs it.
bool emitSortRegisters(Lowering &L, mlir::Type elem, bool desc,
                       std::vector<llvm::Value *> &vals);
} // namespace tritium::codegen

std::vector<std::pair<unsigned, unsigned>>
tritium::codegen::sortingNetwork(unsigned n) {
  std::vector<std::pair<unsigned, unsigned>> steps;
  for (unsigned p = 1; p < n; p *= 2)
    for (unsigned k = p; k >= 1; k /= 2)
      for (unsigned j = k % p; j + k < n; j += 2 * k)
        for (unsigned i = 0; i < k && i + j + k < n; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p))
            steps.push_back({i + j, i + j + k});
  return steps;
}

namespace {

/// For each run of registers along `axis` (one per position on the other
/// dimensions), its registers in axis order; none when the axis is not
/// entirely in each thread's registers, or its register bits also move
/// along other dimensions.
std::optional<std::vector<std::vector<unsigned>>>
axisRuns(const LinearLayout &l, unsigned axis) {
  for (int k : {1, 2})
    for (const Coord &c : l.bases(LinearLayout::InDim(k)))
      if (c[axis])
        return std::nullopt;
  unsigned axisMask = 0;
  const auto &rb = l.bases(LinearLayout::Reg);
  for (unsigned i = 0; i < rb.size(); ++i) {
    if (!rb[i][axis])
      continue;
    for (unsigned d = 0; d < l.rank(); ++d)
      if (d != axis && rb[i][d])
        return std::nullopt;
    axisMask |= 1u << i;
  }
  unsigned replica = l.replicatedMask(LinearLayout::Reg);
  int64_t n = l.shape()[axis];
  std::map<unsigned, std::vector<std::pair<int64_t, unsigned>>> members;
  for (unsigned r = 0; r < l.numRegs(); ++r)
    if (!(r & replica))
      members[r & ~axisMask].push_back(
          {l.applyOne(LinearLayout::Reg, r)[axis], r});
  std::vector<std::vector<unsigned>> runs;
  for (auto &[key, regs] : members) {
    std::sort(regs.begin(), regs.end());
    if (int64_t(regs.size()) != n)
      return std::nullopt;
    std::vector<unsigned> run;
    for (int64_t i = 0; i < n; ++i) {
      if (regs[i].first != i)
        return std::nullopt;
      run.push_back(regs[i].second);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

/// How the elements of one dtype are ordered.
struct Order {
  enum Kind { Int, PackedKey, WideKey } kind = Int;
  bool isUnsigned = false;     // Int: i1 compares as unsigned
  unsigned bits = 0;           // width of the element's bits
  unsigned primaryBits = 0;    // width of the value's order key
  unsigned idxBits = 0;        // bits of a position along the axis
  llvm::Type *keyTy = nullptr; // PackedKey: the integer compared
  // PackedKey: the key is a bijection of the element's bits (no position;
  // the element is recovered from it).
  bool bijective = false;
  unsigned mant = 0;
  // Floats: the bits that are NaN (as a test on the bits).
  enum Nan { IeeeNan, E4M3FNNan, FnuzNan, NoNan } nan = IeeeNan;
  uint64_t infBits = 0; // IeeeNan: magnitudes above this are NaN
};

std::optional<Order> orderFor(Lowering &L, Type elem, int64_t n) {
  Order o;
  while ((int64_t(1) << o.idxBits) < n)
    ++o.idxBits;
  if (auto it = dyn_cast<IntegerType>(elem)) {
    o.kind = Order::Int;
    o.bits = it.getWidth();
    o.isUnsigned = o.bits == 1;
    return o;
  }
  auto ft = dyn_cast<FloatType>(elem);
  if (!ft)
    return std::nullopt;
  o.bits = ft.getWidth();
  if (elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64()) {
    unsigned mant = ft.getFPMantissaWidth() - 1;
    o.infBits = ((uint64_t(1) << (o.bits - 1 - mant)) - 1) << mant;
    o.nan = Order::IeeeNan;
    o.primaryBits = o.bits;
    o.kind = Order::PackedKey;
    o.bijective = true;
    o.mant = mant;
    o.idxBits = 0;
    o.keyTy = L.b.getIntNTy(o.bits <= 32 ? 32 : 64);
    return o;
  } else if (isa<Float8E5M2Type>(elem)) {
    o.infBits = 0x7c;
    o.nan = Order::IeeeNan;
  } else if (isa<Float8E4M3FNType>(elem)) {
    o.nan = Order::E4M3FNNan;
  } else if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(elem)) {
    o.nan = Order::FnuzNan;
  } else if (isa<Float8E4M3B11FNUZType>(elem)) {
    // Triton's fp8e4b15: every code is finite and 0x80 is -0.
    o.nan = Order::NoNan;
  } else {
    return std::nullopt;
  }
  // fp8 keys get one more bit: a FNUZ format's largest finite value maps
  // to the all-ones byte, so NaN needs a key above it.
  if (o.bits == 8)
    o.primaryBits = 9;
  unsigned total = o.primaryBits + o.idxBits;
  if (total <= 64) {
    o.kind = Order::PackedKey;
    o.keyTy = L.b.getIntNTy(total <= 32 ? 32 : 64);
  } else {
    o.kind = Order::WideKey;
  }
  return o;
}

/// The total-order key of a wide float (the interpreter's totalOrderKey),
/// inverted when descending, in `o.keyTy`.
llvm::Value *bijectiveKey(Lowering &L, const Order &o, llvm::Value *v, bool desc) {
  auto &b = L.b;
  llvm::IntegerType *wt = b.getIntNTy(o.bits);
  llvm::Value *bits = b.CreateBitCast(v, wt);
  llvm::APInt sign = llvm::APInt::getSignMask(o.bits);
  llvm::Value *neg = b.CreateICmpSLT(bits, llvm::ConstantInt::get(wt, 0));
  llvm::Value *f = b.CreateSelect(neg, b.CreateNot(bits),
                                  b.CreateOr(bits, llvm::ConstantInt::get(wt, sign)));
  llvm::Value *k = b.CreateSub(f, llvm::ConstantInt::get(wt, (uint64_t(1) << o.mant) - 1));
  if (desc)
    k = b.CreateNot(k);
  return b.CreateZExt(k, o.keyTy);
}

/// The element whose bijectiveKey is `key`.
llvm::Value *fromBijectiveKey(Lowering &L, const Order &o, llvm::Value *key, bool desc,
                              llvm::Type *elemTy) {
  auto &b = L.b;
  llvm::IntegerType *wt = b.getIntNTy(o.bits);
  llvm::Value *k = b.CreateTrunc(key, wt);
  if (desc)
    k = b.CreateNot(k);
  llvm::Value *f = b.CreateAdd(k, llvm::ConstantInt::get(wt, (uint64_t(1) << o.mant) - 1));
  llvm::APInt sign = llvm::APInt::getSignMask(o.bits);
  // f had the sign bit set for positives (bits | sign), clear for
  // negatives (~bits).
  llvm::Value *pos = b.CreateICmpSLT(f, llvm::ConstantInt::get(wt, 0));
  llvm::Value *bits = b.CreateSelect(pos, b.CreateAnd(f, llvm::ConstantInt::get(wt, ~sign)),
                                     b.CreateNot(f));
  return b.CreateBitCast(bits, elemTy);
}

/// The float `v` (fp8 as its bits) as an unsigned integer of
/// `o.primaryBits` bits that orders like the interpreter: both zeros map to
/// one key, every NaN to the largest (the smallest when descending).
llvm::Value *floatKey(Lowering &L, const Order &o, llvm::Value *v, bool desc) {
  auto &b = L.b;
  unsigned w = o.bits;
  llvm::IntegerType *wt = b.getIntNTy(w);
  llvm::IntegerType *pt = b.getIntNTy(o.primaryBits);
  llvm::Value *bits = v->getType()->isIntegerTy() ? v : b.CreateBitCast(v, wt);
  llvm::APInt sign = llvm::APInt::getSignMask(w);
  llvm::Value *mag = b.CreateAnd(bits, llvm::ConstantInt::get(wt, ~sign));
  // Sign-magnitude to an unsigned order: negatives reversed below the
  // positives.
  llvm::Value *neg = b.CreateICmpSLT(bits, llvm::ConstantInt::get(wt, 0));
  llvm::Value *t =
      b.CreateSelect(neg, b.CreateNot(bits),
                     b.CreateOr(bits, llvm::ConstantInt::get(wt, sign)));
  llvm::Value *isZero = b.CreateICmpEQ(mag, llvm::ConstantInt::get(wt, 0));
  t = b.CreateSelect(isZero, llvm::ConstantInt::get(wt, sign), t);
  t = b.CreateZExt(t, pt);
  llvm::Value *isNan = nullptr;
  switch (o.nan) {
  case Order::IeeeNan:
    isNan = b.CreateICmpUGT(mag, llvm::ConstantInt::get(wt, o.infBits));
    break;
  case Order::E4M3FNNan:
    isNan = b.CreateICmpEQ(mag, llvm::ConstantInt::get(wt, 0x7f));
    break;
  case Order::FnuzNan:
    isNan = b.CreateICmpEQ(bits, llvm::ConstantInt::get(wt, 0x80));
    break;
  case Order::NoNan:
    break;
  }
  if (isNan)
    t = b.CreateSelect(isNan, llvm::ConstantInt::getAllOnesValue(pt), t);
  return desc ? b.CreateNot(t) : t;
}

/// One element being sorted: its value and, for floats, its key (and its
/// original position when the key has no room for it).
struct Elem {
  llvm::Value *val = nullptr, *key = nullptr, *idx = nullptr;
};

/// `val` at position `pos` (i32) along the axis, keyed.
Elem makeElem(Lowering &L, const Order &o, bool desc, llvm::Value *val,
              llvm::Value *pos) {
  auto &b = L.b;
  Elem e;
  e.val = val;
  if (o.kind == Order::Int)
    return e;
  if (o.bijective) {
    e.val = nullptr;
    e.key = bijectiveKey(L, o, val, desc);
    return e;
  }
  llvm::Value *k = floatKey(L, o, val, desc);
  if (o.kind == Order::PackedKey) {
    k = b.CreateZExt(k, o.keyTy);
    if (o.idxBits)
      k = b.CreateOr(b.CreateShl(k, o.idxBits), b.CreateZExt(pos, o.keyTy));
  } else {
    e.idx = pos;
  }
  e.key = k;
  return e;
}

/// True when `x` comes strictly before `y`.
llvm::Value *before(Lowering &L, const Order &o, bool desc, const Elem &x,
                    const Elem &y) {
  auto &b = L.b;
  if (o.kind == Order::Int) {
    if (o.isUnsigned)
      return desc ? b.CreateICmpUGT(x.val, y.val)
                  : b.CreateICmpULT(x.val, y.val);
    return desc ? b.CreateICmpSGT(x.val, y.val) : b.CreateICmpSLT(x.val, y.val);
  }
  // Keys order ascending in both directions (descending is in the key).
  llvm::Value *lt = b.CreateICmpULT(x.key, y.key);
  if (o.kind == Order::WideKey)
    lt = b.CreateOr(lt, b.CreateAnd(b.CreateICmpEQ(x.key, y.key),
                                    b.CreateICmpULT(x.idx, y.idx)));
  return lt;
}

Elem selectElem(Lowering &L, llvm::Value *c, const Elem &x, const Elem &y) {
  auto &b = L.b;
  Elem r;
  if (x.val)
    r.val = b.CreateSelect(c, x.val, y.val);
  if (x.key)
    r.key = b.CreateSelect(c, x.key, y.key);
  if (x.idx)
    r.idx = b.CreateSelect(c, x.idx, y.idx);
  return r;
}

/// Puts the element that comes first in `lo`, the other in `hi` (the
/// reverse when `ascending` is false; it may be a run-time i1).
void compareExchange(Lowering &L, const Order &o, bool desc, Elem &lo, Elem &hi,
                     llvm::Value *ascending = nullptr) {
  auto &b = L.b;
  if (o.kind == Order::Int && !ascending) {
    // min/max: two instructions per step.
    llvm::Value *x = lo.val, *y = hi.val;
    llvm::Value *mn, *mx;
    if (o.bits == 1) {
      mn = b.CreateAnd(x, y);
      mx = b.CreateOr(x, y);
    } else {
      mn = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y);
      mx = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y);
    }
    lo.val = desc ? mx : mn;
    hi.val = desc ? mn : mx;
    return;
  }
  if (o.bijective) {
    // The key is the element: min/max of the keys (descending is in them).
    llvm::Value *x = lo.key, *y = hi.key;
    llvm::Value *mn = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, y);
    llvm::Value *mx = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, x, y);
    lo.key = ascending ? b.CreateSelect(ascending, mn, mx) : mn;
    hi.key = ascending ? b.CreateSelect(ascending, mx, mn) : mx;
    return;
  }
  llvm::Value *swap = before(L, o, desc, hi, lo);
  if (ascending)
    swap = b.CreateSelect(ascending, swap, before(L, o, desc, lo, hi));
  Elem a = lo, c = hi;
  lo = selectElem(L, swap, c, a);
  hi = selectElem(L, swap, a, c);
}

/// A shuffle of any scalar type, in 32-bit pieces.
llvm::Value *shuffle(Lowering &L, llvm::Value *v, unsigned mask) {
  auto &b = L.b;
  llvm::Type *t = v->getType();
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
    r = b.CreateTrunc(
        L.target.shuffleXor(b, b.CreateZExt(x, b.getInt32Ty()), mask), it);
  } else {
    r = L.target.shuffleXor(b, x, mask);
  }
  return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
}

/// Where each bit of a position along `axis` lives: for bit p, the
/// (input dimension, bit) whose basis is exactly 2^p along the axis. None
/// when some basis moves along the axis and another dimension at once, or
/// along the axis by other than a single distinct bit.
std::optional<std::vector<std::pair<LinearLayout::InDim, unsigned>>>
axisBits(const LinearLayout &l, unsigned axis) {
  unsigned nbits = 0;
  while ((int64_t(1) << nbits) < l.shape()[axis])
    ++nbits;
  std::vector<std::pair<LinearLayout::InDim, unsigned>> where(
      nbits, {LinearLayout::Reg, ~0u});
  for (int k = 0; k < 3; ++k) {
    const auto &bases = l.bases(LinearLayout::InDim(k));
    for (unsigned i = 0; i < bases.size(); ++i) {
      int64_t v = bases[i][axis];
      if (!v)
        continue;
      for (unsigned d = 0; d < l.rank(); ++d)
        if (d != axis && bases[i][d])
          return std::nullopt;
      if (!llvm::isPowerOf2_64(uint64_t(v)))
        return std::nullopt;
      unsigned p = llvm::Log2_64(uint64_t(v));
      if (where[p].second != ~0u)
        return std::nullopt;
      where[p] = {LinearLayout::InDim(k), i};
    }
  }
  for (auto &w : where)
    if (w.second == ~0u)
      return std::nullopt;
  return where;
}

/// Bitonic sort of elements spread over registers, lanes and warps: each
/// step pairs positions differing in one bit, inside the thread when that
/// bit is a register bit, by a shuffle for a lane bit, through shared
/// memory for a warp bit. Both partners compute the same comparison, and
/// the order is total, so they agree on which one keeps which element.
void bitonicAcross(
    Lowering &L, const Order &o, bool desc, const LinearLayout &S,
    unsigned axis,
    const std::vector<std::pair<LinearLayout::InDim, unsigned>> &where,
    std::vector<llvm::Value *> &vals) {
  auto &b = L.b;
  unsigned n = unsigned(S.shape()[axis]);
  unsigned replica = S.replicatedMask(LinearLayout::Reg);
  std::vector<unsigned> regs;
  for (unsigned r = 0; r < S.numRegs(); ++r)
    if (!(r & replica))
      regs.push_back(r);
  std::vector<Elem> e(S.numRegs());
  std::vector<llvm::Value *> pos(S.numRegs());
  llvm::Type *elemTy = vals[regs[0]]->getType();
  for (unsigned r : regs) {
    pos[r] = L.coord(S, r, axis);
    e[r] = makeElem(L, o, desc, vals[r], pos[r]);
  }
  int64_t stride = 1;
  for (unsigned d = axis + 1; d < S.rank(); ++d)
    stride *= S.shape()[d];
  auto bitSet = [&](llvm::Value *p, unsigned bit) {
    return b.CreateICmpNE(b.CreateAnd(p, L.i32(bit)), L.i32(0));
  };
  for (unsigned k = 2, kb = 1; k <= n; k *= 2, ++kb) {
    for (unsigned j = k / 2, jb = kb - 1; j >= 1; j /= 2, --jb) {
      auto [dim, bit] = where[jb];
      if (dim == LinearLayout::Reg) {
        for (unsigned r : regs) {
          if (r & (1u << bit))
            continue;
          unsigned r2 = r | (1u << bit);
          llvm::Value *asc = k == n ? nullptr : b.CreateNot(bitSet(pos[r], k));
          compareExchange(L, o, desc, e[r], e[r2], asc);
        }
        continue;
      }
      // The partner's element of each register.
      std::vector<Elem> other(S.numRegs());
      if (dim == LinearLayout::Lane) {
        for (unsigned r : regs) {
          if (e[r].val)
            other[r].val = shuffle(L, e[r].val, 1u << bit);
          if (e[r].key)
            other[r].key = shuffle(L, e[r].key, 1u << bit);
          if (e[r].idx)
            other[r].idx = shuffle(L, e[r].idx, 1u << bit);
        }
      } else {
        // Every component in its own row-major copy of the tile.
        bool withVal = e[regs[0]].val != nullptr;
        llvm::Type *vt = withVal ? e[regs[0]].val->getType() : nullptr;
        llvm::Type *mt = !vt ? nullptr : vt->isIntegerTy(1) ? b.getInt8Ty() : vt;
        unsigned numel = unsigned(S.numElements());
        unsigned keyOff = withVal ? numel * L.storeBytes(mt) : 0;
        keyOff = (keyOff + 7) / 8 * 8;
        unsigned idxOff = keyOff;
        if (e[regs[0]].key)
          idxOff += numel * L.storeBytes(e[regs[0]].key->getType());
        L.reserveShared(idxOff + (e[regs[0]].idx ? numel * 4 : 0));
        auto store = [&](llvm::Value *v, llvm::Type *ty, llvm::Value *i,
                         unsigned off) {
          if (ty != v->getType())
            v = b.CreateZExt(v, ty);
          L.storeShared(v, L.sharedPtr(ty, i, off));
        };
        auto load = [&](llvm::Type *vty, llvm::Type *ty, llvm::Value *i,
                        unsigned off) {
          llvm::Value *v = L.loadShared(ty, L.sharedPtr(ty, i, off));
          return vty != ty ? b.CreateTrunc(v, vty) : v;
        };
        L.barrier();
        for (unsigned r : regs) {
          llvm::Value *i = L.linearCoord(S, r);
          if (withVal)
            store(e[r].val, mt, i, 0);
          if (e[r].key)
            store(e[r].key, e[r].key->getType(), i, keyOff);
          if (e[r].idx)
            store(e[r].idx, e[r].idx->getType(), i, idxOff);
        }
        L.barrier();
        for (unsigned r : regs) {
          llvm::Value *i =
              b.CreateXor(L.linearCoord(S, r), L.i32(int64_t(j) * stride));
          if (withVal)
            other[r].val = load(vt, mt, i, 0);
          if (e[r].key)
            other[r].key =
                load(e[r].key->getType(), e[r].key->getType(), i, keyOff);
          if (e[r].idx)
            other[r].idx =
                load(e[r].idx->getType(), e[r].idx->getType(), i, idxOff);
        }
      }
      // Keep the first of the two when this thread holds the lower
      // position of an ascending pair or the upper of a descending one.
      for (unsigned r : regs) {
        llvm::Value *keepFirst = b.CreateNot(bitSet(pos[r], j));
        if (k != n)
          keepFirst = b.CreateXor(keepFirst, bitSet(pos[r], k));
        if (o.bijective) {
          llvm::Value *x = e[r].key, *y = other[r].key;
          e[r].key = b.CreateSelect(keepFirst, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, y),
                                    b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, x, y));
          continue;
        }
        llvm::Value *takeOther =
            b.CreateSelect(keepFirst, before(L, o, desc, other[r], e[r]),
                           before(L, o, desc, e[r], other[r]));
        e[r] = selectElem(L, takeOther, other[r], e[r]);
      }
    }
  }
  for (unsigned r : regs)
    vals[r] = e[r].val ? e[r].val : fromBijectiveKey(L, o, e[r].key, desc, elemTy);
}

/// Axis lengths up to this are sorted by a network in each thread's
/// registers; longer axes stay spread over lanes and warps (a network over
/// every element of a long axis in each thread is too much code and too
/// many registers).
constexpr int64_t kMaxInThread = 32;

LogicalResult sortOp(Lowering &L, Operation *o) {
  auto op = cast<tile::SortOp>(o);
  unsigned axis = op.getAxis();
  bool desc = op.getDescending();
  auto ty = cast<RankedTensorType>(op.getSrc().getType());
  int64_t n = ty.getShape()[axis];
  std::optional<Order> ord = orderFor(L, ty.getElementType(), n);
  if (!ord)
    return L.fail(o, "tile.sort: unsupported element type");

  auto chosen = sortLayout(*L.get(op.getSrc()).layout, *L.defaultLayout(ty), axis,
                          L.numWarps, L.target.warpSize());
  if (!chosen)
    return L.fail(o, "tile.sort: cannot place the axis in registers");
  LayoutRef S = L.share(chosen->first);
  if (chosen->second) {
    std::vector<llvm::Value *> vals = L.convert(op.getSrc(), *S);
    bitonicAcross(L, *ord, desc, *S, axis, *axisBits(*S, axis), vals);
    unsigned replica = S->replicatedMask(LinearLayout::Reg);
    for (unsigned r = 0; r < S->numRegs(); ++r)
      if (r & replica)
        vals[r] = vals[r & ~replica];
    L.set(op.getResult(), Lowered{S, vals});
    return success();
  }
  auto runs = axisRuns(*S, axis);
  std::vector<llvm::Value *> in = L.convert(op.getSrc(), *S);
  std::vector<llvm::Value *> out(S->numRegs(), nullptr);
  for (const std::vector<unsigned> &run : *runs) {
    std::vector<llvm::Value *> vals;
    for (unsigned r : run)
      vals.push_back(in[r]);
    emitSortRegisters(L, ty.getElementType(), desc, vals);
    for (unsigned i = 0; i < run.size(); ++i)
      out[run[i]] = vals[i];
  }
  unsigned replica = S->replicatedMask(LinearLayout::Reg);
  for (unsigned r = 0; r < S->numRegs(); ++r)
    if (!out[r])
      out[r] = out[r & ~replica];
  L.set(op.getResult(), Lowered{S, out});
  return success();
}

} // namespace

bool tritium::codegen::emitSortRegisters(Lowering &L, Type elem, bool desc,
                                         std::vector<llvm::Value *> &vals) {
  unsigned n = vals.size();
  std::optional<Order> ord = orderFor(L, elem, n);
  if (!ord)
    return false;
  auto steps = sortingNetwork(n);
  if (steps.empty())
    return true;
  std::vector<Elem> e;
  llvm::Type *elemTy = vals[0]->getType();
  for (unsigned i = 0; i < n; ++i)
    e.push_back(makeElem(L, *ord, desc, vals[i], L.i32(i)));
  for (auto [lo, hi] : steps)
    compareExchange(L, *ord, desc, e[lo], e[hi]);
  for (unsigned i = 0; i < n; ++i)
    vals[i] = e[i].val ? e[i].val : fromBijectiveKey(L, *ord, e[i].key, desc, elemTy);
  return true;
}

std::optional<std::pair<LinearLayout, bool>>
tritium::codegen::sortLayout(const LinearLayout &src, const LinearLayout &def, unsigned axis,
                             unsigned numWarps, unsigned lanes) {
  int64_t n = src.shape()[axis];
  if (n > kMaxInThread) {
    // Keep the source layout unless it holds too much of the axis in each
    // thread's registers.
    auto inRegs = [&](const std::vector<std::pair<LinearLayout::InDim, unsigned>> &w) {
      int64_t c = 1;
      for (auto [dim, bit] : w)
        if (dim == LinearLayout::Reg)
          c *= 2;
      return c;
    };
    const LinearLayout *d = &src;
    auto where = axisBits(*d, axis);
    if (!where || inRegs(*where) > kMaxInThread) {
      d = &def;
      where = axisBits(*d, axis);
    }
    if (where)
      return std::make_pair(*d, true);
  }
  if (axisRuns(src, axis))
    return std::make_pair(src, false);
  LinearLayout t = LinearLayout::axisInThread(src.shape(), axis, numWarps, lanes);
  if (!axisRuns(t, axis))
    return std::nullopt;
  return std::make_pair(t, false);
}

void tritium::codegen::populateSortHandlers(HandlerTable &t) {
  t["tile.sort"] = sortOp;
}

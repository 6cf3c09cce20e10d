//===- Descriptor.cpp - tensor descriptors, block accesses -----*- C++ -*-===//
//
// tile.make_tensor_descriptor fills a Desc record (base, shape, strides,
// padding) in its slot. descriptor_load/store/reduce move the block at
// the given offsets; descriptor_gather/scatter move rows x_offsets,
// columns y_offset..y_offset+N of a 2-D descriptor. A lane whose
// coordinate lies outside the described tensor (< 0 or >= shape) is never
// accessed: loads read the padding (zero, or NaN for float padding "nan"),
// stores and reductions skip it. In-bounds lanes are checked against the
// registered buffers like tile.load/tile.store.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Memory.h"
#include "interpreter/Program.h"
#include "interpreter/Race.h"

#include "ir/TileDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tritium::interp {
namespace {

// op.a: rank; op.b: 1 for NaN padding. in = base, shape..., strides...
void makeDesc(const Op &op, Frame &f) {
  Desc d;
  d.base = *f.get<uint64_t>(op.in[0]);
  d.rank = op.a;
  for (int64_t i = 0; i < op.a; ++i) {
    d.shape[i] = int32_t(*f.get<uint32_t>(op.in[1 + i]));
    d.strides[i] = int64_t(*f.get<uint64_t>(op.in[1 + op.a + i]));
  }
  d.padNan = op.b;
  std::memcpy(f.slot[op.res[0]], &d, sizeof d);
}

const Desc &descOf(const Frame &f, int slot) {
  return *reinterpret_cast<const Desc *>(f.slot[slot]);
}

/// Visits every lane of the block at `start`: fn(lane, inBounds, addr);
/// stops when fn returns false.
template <class Fn>
void walkBlock(const Desc &d, const int64_t *start,
               llvm::ArrayRef<int64_t> block, unsigned es, Fn fn) {
  int rank = block.size();
  int64_t total = 1;
  for (int64_t s : block)
    total *= s;
  int64_t idx[Desc::kMaxRank] = {};
  for (int64_t lane = 0; lane < total; ++lane) {
    bool in = true;
    int64_t off = 0;
    for (int k = 0; k < rank; ++k) {
      int64_t c = start[k] + idx[k];
      in &= c >= 0 && c < d.shape[k];
      off += c * d.strides[k];
    }
    if (!fn(lane, in, d.base + uint64_t(off) * es))
      return;
    for (int k = rank - 1; k >= 0; --k) {
      if (++idx[k] < block[k])
        break;
      idx[k] = 0;
    }
  }
}

void padValue(uint8_t *dst, EK k, bool nan) {
  std::memset(dst, 0, elemBytes(k));
  if (!nan || !isFloat(k))
    return;
  switch (k) {
  case EK::F16: {
    uint16_t v = 0x7e00;
    std::memcpy(dst, &v, 2);
    break;
  }
  case EK::BF16: {
    uint16_t v = 0x7fc0;
    std::memcpy(dst, &v, 2);
    break;
  }
  case EK::F32: {
    float v = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(dst, &v, 4);
    break;
  }
  case EK::F64: {
    double v = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(dst, &v, 8);
    break;
  }
  default:
    *dst = floatToFp8(k, std::nan(""), false);
    break;
  }
}

int64_t readStart(const Frame &f, int slot) {
  return int32_t(*f.get<uint32_t>(slot));
}

// op.ints: block shape; in = desc, indices... (load) or desc, src,
// indices... (store/reduce); op.c: reduce kind (store: 0).
void descLoad(const Op &op, Frame &f) {
  const Desc &d = descOf(f, op.in[0]);
  int64_t start[Desc::kMaxRank];
  for (size_t k = 0; k < op.ints.size(); ++k)
    start[k] = readStart(f, op.in[1 + k]);
  unsigned es = elemBytes(op.kind);
  uint8_t pad[8];
  padValue(pad, op.kind, d.padNan);
  uint8_t *r = f.slot[op.res[0]];
  walkBlock(d, start, op.ints, es, [&](int64_t lane, bool in, uint64_t a) {
    if (!in) {
      std::memcpy(r + lane * es, pad, es);
      return true;
    }
    if (!f.mem->ok(a, es, f.bufHint)) {
      reportBadAccess(f, op, "descriptor load", "reads", lane, a, es);
      return false;
    }
    if (f.mem->shadowed)
      checkUninitializedRead(f, op, "descriptor load", lane, a, es);
    if (f.race)
      f.race->plain(f, op, lane, a, es, f.bufHint, false);
    std::memcpy(r + lane * es, reinterpret_cast<const void *>(a), es);
    return true;
  });
}

template <class T> T combineFloat(T old, T v, tile::DescriptorReduceKind k) {
  using C = std::conditional_t<(sizeof(T) < 4), float, T>;
  C a = C(old), b = C(v);
  switch (k) {
  case tile::DescriptorReduceKind::MIN: return T(std::fmin(a, b));
  case tile::DescriptorReduceKind::MAX: return T(std::fmax(a, b));
  default: return T(a + b);
  }
}

template <class U>
U combineInt(U old, U v, tile::DescriptorReduceKind k) {
  using S = std::make_signed_t<U>;
  switch (k) {
  case tile::DescriptorReduceKind::ADD: return U(old + v);
  case tile::DescriptorReduceKind::MIN: return S(old) < S(v) ? old : v;
  case tile::DescriptorReduceKind::MAX: return S(old) > S(v) ? old : v;
  case tile::DescriptorReduceKind::UMIN: return old < v ? old : v;
  case tile::DescriptorReduceKind::UMAX: return old > v ? old : v;
  case tile::DescriptorReduceKind::AND: return U(old & v);
  case tile::DescriptorReduceKind::OR: return U(old | v);
  default: return U(old ^ v);
  }
}

template <class U> U combineBits(U old, U v, EK kind,
                                 tile::DescriptorReduceKind k) {
  auto viaFloat = [&](auto tag) {
    using T = decltype(tag);
    T a, b;
    std::memcpy(static_cast<void *>(&a), &old, sizeof(U));
    std::memcpy(static_cast<void *>(&b), &v, sizeof(U));
    T r = combineFloat<T>(a, b, k);
    U out;
    std::memcpy(&out, static_cast<void *>(&r), sizeof(U));
    return out;
  };
  if constexpr (sizeof(U) == 2) {
    if (kind == EK::F16)
      return viaFloat(half());
    if (kind == EK::BF16)
      return viaFloat(bf16());
  } else if constexpr (sizeof(U) == 4) {
    if (kind == EK::F32)
      return viaFloat(float());
  } else if constexpr (sizeof(U) == 8) {
    if (kind == EK::F64)
      return viaFloat(double());
  }
  return combineInt<U>(old, v, k);
}

// Stores (op.c == 0) or atomically combines (op.c: reduce kind) `src`.
template <class U> void descStore(const Op &op, Frame &f) {
  const Desc &d = descOf(f, op.in[0]);
  const U *src = f.get<U>(op.in[1]);
  int64_t start[Desc::kMaxRank];
  for (size_t k = 0; k < op.ints.size(); ++k)
    start[k] = readStart(f, op.in[2 + k]);
  auto kind = static_cast<tile::DescriptorReduceKind>(op.c);
  walkBlock(d, start, op.ints, sizeof(U), [&](int64_t lane, bool in,
                                              uint64_t a) {
    if (!in)
      return true;
    if (!f.mem->ok(a, sizeof(U), f.bufHint)) {
      reportBadAccess(f, op, op.c ? "descriptor reduce" : "descriptor store",
                      op.c ? "updates" : "writes", lane, a, sizeof(U));
      return false;
    }
    if (f.mem->shadowed) {
      if (op.c)
        checkUninitializedRead(f, op, "descriptor reduce", lane, a, sizeof(U));
      f.mem->unpoison(a, sizeof(U), f.bufHint);
    }
    if (f.race) {
      // A reduction is an atomic update (relaxed); a store a plain write.
      if (op.c)
        f.race->atomic(f, op, lane, a, sizeof(U), f.bufHint, false, false);
      else
        f.race->plain(f, op, lane, a, sizeof(U), f.bufHint, true);
    }
    U *p = reinterpret_cast<U *>(a);
    if (!op.c) {
      std::memcpy(p, &src[lane], sizeof(U));
      return true;
    }
    U old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (!__atomic_compare_exchange_n(
        p, &old, combineBits<U>(old, src[lane], op.kind, kind), false,
        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return true;
  });
}

// Rows x_offsets, columns y..y+N: in = desc, x_offsets, y (, src).
// op.ints = {R, N}; op.a: 1 for scatter.
template <class U> void descRows(const Op &op, Frame &f) {
  const Desc &d = descOf(f, op.in[0]);
  const uint32_t *rows = f.get<uint32_t>(op.in[1]);
  int64_t y = readStart(f, op.in[2]);
  int64_t R = op.ints[0], N = op.ints[1];
  uint8_t pad[8];
  padValue(pad, op.kind, d.padNan);
  bool scatter = op.a;
  U *data = scatter ? f.get<U>(op.in[3]) : f.get<U>(op.res[0]);
  for (int64_t r = 0; r < R; ++r) {
    int64_t start[2] = {int32_t(rows[r]), y};
    int64_t block[2] = {1, N};
    bool ok = true;
    walkBlock(d, start, block, sizeof(U), [&](int64_t j, bool in,
                                              uint64_t a) {
      int64_t lane = r * N + j;
      if (!in) {
        if (!scatter)
          std::memcpy(&data[lane], pad, sizeof(U));
        return true;
      }
      if (!f.mem->ok(a, sizeof(U), f.bufHint)) {
        reportBadAccess(f, op,
                        scatter ? "descriptor scatter" : "descriptor gather",
                        scatter ? "writes" : "reads", lane, a, sizeof(U));
        return ok = false;
      }
      if (f.mem->shadowed) {
        if (scatter)
          f.mem->unpoison(a, sizeof(U), f.bufHint);
        else
          checkUninitializedRead(f, op, "descriptor gather", lane, a, sizeof(U));
      }
      if (f.race)
        f.race->plain(f, op, lane, a, sizeof(U), f.bufHint, scatter);
      if (scatter)
        std::memcpy(reinterpret_cast<void *>(a), &data[lane], sizeof(U));
      else
        std::memcpy(&data[lane], reinterpret_cast<const void *>(a), sizeof(U));
      return true;
    });
    if (!ok)
      return;
  }
}

#define BY_SIZE(F, S)                                                          \
  ((S) == 1   ? Handler(F<uint8_t>)                                            \
   : (S) == 2 ? Handler(F<uint16_t>)                                           \
   : (S) == 4 ? Handler(F<uint32_t>)                                           \
              : Handler(F<uint64_t>))

llvm::SmallVector<int64_t, 4> blockShape(Value desc) {
  auto bt = cast<tile::TensorDescType>(desc.getType()).getBlockType();
  return llvm::SmallVector<int64_t, 4>(bt.getShape());
}

} // namespace

Built buildDescriptor(Builder &b, Operation *mop, Op &op) {
  if (auto m = dyn_cast<tile::MakeTensorDescOp>(mop)) {
    fillCommon(b, mop, op);
    op.a = m.getShape().size();
    if (op.a > Desc::kMaxRank)
      return b.error(mop, "descriptors of rank > 5 are not supported"),
             Built::Error;
    op.b = m.getPadding() == tile::PaddingOption::PAD_NAN;
    op.fn = makeDesc;
    return Built::Ok;
  }
  if (auto l = dyn_cast<tile::DescriptorLoadOp>(mop)) {
    fillCommon(b, mop, op);
    auto bs = blockShape(l.getDesc());
    op.ints.assign(bs.begin(), bs.end());
    op.fn = descLoad;
    return Built::Ok;
  }
  auto st = dyn_cast<tile::DescriptorStoreOp>(mop);
  auto red = dyn_cast<tile::DescriptorReduceOp>(mop);
  if (st || red) {
    Value desc = st ? st.getDesc() : red.getDesc();
    Value src = st ? st.getSrc() : red.getSrc();
    op.in.push_back(b.use(desc));
    op.in.push_back(b.use(src));
    for (Value v : st ? st.getIndices() : red.getIndices())
      op.in.push_back(b.use(v));
    const SlotInfo &si = b.info(op.in[1]);
    op.kind = si.kind;
    op.n = si.elems;
    op.shape.assign(si.shape.begin(), si.shape.end());
    auto bs = blockShape(desc);
    op.ints.assign(bs.begin(), bs.end());
    op.c = red ? int64_t(red.getKind()) : 0;
    using RK = tile::DescriptorReduceKind;
    if (red && isFloat(op.kind) && red.getKind() != RK::ADD &&
        red.getKind() != RK::MIN && red.getKind() != RK::MAX)
      return b.error(mop, "bitwise descriptor reduction of floats"),
             Built::Error;
    if (red && isFp8(op.kind))
      return b.error(mop, "fp8 descriptor reduction"), Built::Error;
    op.fn = BY_SIZE(descStore, elemBytes(op.kind));
    return Built::Ok;
  }
  auto g = dyn_cast<tile::DescriptorGatherOp>(mop);
  auto sc = dyn_cast<tile::DescriptorScatterOp>(mop);
  if (g || sc) {
    fillCommon(b, mop, op);
    int data = g ? op.res[0] : op.in[3];
    const SlotInfo &di = b.info(data);
    op.kind = di.kind;
    op.n = di.elems;
    op.shape.assign(di.shape.begin(), di.shape.end());
    if (di.shape.size() != 2)
      return b.error(mop, "gather/scatter needs a 2-D block"), Built::Error;
    op.ints = {di.shape[0], di.shape[1]};
    op.a = sc ? 1 : 0;
    op.fn = BY_SIZE(descRows, elemBytes(op.kind));
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp

//===- Shape.cpp - program ids, ranges and shape manipulation ---*- C++ -*-===//
//
// get_program_id, get_num_programs, make_range, splat, unsplat, expand_dims,
// reshape, broadcast, trans, join, split, cat, addptr and hint. Row-major
// storage makes expand_dims/reshape/unsplat plain copies; broadcast and
// trans are strided copies with precomputed source strides.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Elementwise.h"

#include "ir/TileDialect.h"

using namespace mlir;

namespace tritium::interp {
namespace {

void programId(const Op &op, Frame &f) {
  *f.get<uint32_t>(op.res[0]) = static_cast<uint32_t>(f.pid[op.a]);
}
void numPrograms(const Op &op, Frame &f) {
  *f.get<uint32_t>(op.res[0]) = static_cast<uint32_t>(f.nprog[op.a]);
}
void makeRange(const Op &op, Frame &f) {
  uint32_t *r = f.get<uint32_t>(op.res[0]);
  for (int64_t i = 0; i < op.n; ++i)
    r[i] = static_cast<uint32_t>(op.a + i);
}
void copyOp(const Op &op, Frame &f) {
  std::memcpy(f.slot[op.res[0]], f.slot[op.in[0]], f.bytes(op.res[0]));
}
template <class T> void splat(const Op &op, Frame &f) {
  T v = *f.get<T>(op.in[0]);
  T *r = f.get<T>(op.res[0]);
  std::fill(r, r + op.n, v);
}
void strided(const Op &op, Frame &f) {
  stridedCopy(f.slot[op.res[0]], f.slot[op.in[0]], op.shape, op.ints,
              elemBytes(op.kind));
}
template <class T> void join(const Op &op, Frame &f) {
  const T *a = f.get<T>(op.in[0]), *b = f.get<T>(op.in[1]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < op.n / 2; ++i) {
    r[2 * i] = a[i];
    r[2 * i + 1] = b[i];
  }
}
template <class T> void split(const Op &op, Frame &f) {
  const T *a = f.get<T>(op.in[0]);
  T *l = f.get<T>(op.res[0]), *r = f.get<T>(op.res[1]);
  for (int64_t i = 0; i < op.n; ++i) {
    l[i] = a[2 * i];
    r[i] = a[2 * i + 1];
  }
}
// cat: op.a = outer count, op.b = lhs chunk bytes, op.c = rhs chunk bytes.
void cat(const Op &op, Frame &f) {
  const uint8_t *a = f.slot[op.in[0]], *b = f.slot[op.in[1]];
  uint8_t *r = f.slot[op.res[0]];
  for (int64_t o = 0; o < op.a; ++o) {
    std::memcpy(r, a + o * op.b, op.b);
    r += op.b;
    std::memcpy(r, b + o * op.c, op.c);
    r += op.c;
  }
}
// addptr: op.a = pointee size; offsets are signed.
template <class U> void addPtr(const Op &op, Frame &f) {
  using SI = std::make_signed_t<U>;
  const uint64_t *p = f.get<uint64_t>(op.in[0]);
  const U *o = f.get<U>(op.in[1]);
  uint64_t *r = f.get<uint64_t>(op.res[0]);
  uint64_t sz = op.a;
  for (int64_t i = 0; i < op.n; ++i)
    r[i] = p[i] + uint64_t(int64_t(SI(o[i]))) * sz;
}

Handler bySize(unsigned s, Handler h1, Handler h2, Handler h4, Handler h8) {
  return s == 1 ? h1 : s == 2 ? h2 : s == 4 ? h4 : h8;
}
#define BY_SIZE(F, S) bySize(S, F<uint8_t>, F<uint16_t>, F<uint32_t>, F<uint64_t>)

} // namespace

Built buildShape(Builder &b, Operation *mop, Op &op) {
  if (!isa<tile::GetProgramIdOp, tile::GetNumProgramsOp, tile::MakeRangeOp,
           tile::SplatOp, tile::UnsplatOp, tile::ExpandDimsOp,
           tile::ReshapeOp, tile::BroadcastOp, tile::TransOp, tile::JoinOp,
           tile::SplitOp, tile::CatOp, tile::AddPtrOp, tile::HintOp>(mop))
    return Built::NotMine;
  fillCommon(b, mop, op);
  unsigned es = elemBytes(op.kind);
  if (auto p = dyn_cast<tile::GetProgramIdOp>(mop)) {
    op.a = static_cast<int>(p.getAxis());
    op.fn = programId;
  } else if (auto p = dyn_cast<tile::GetNumProgramsOp>(mop)) {
    op.a = static_cast<int>(p.getAxis());
    op.fn = numPrograms;
  } else if (auto r = dyn_cast<tile::MakeRangeOp>(mop)) {
    op.a = r.getStart();
    op.fn = makeRange;
  } else if (isa<tile::SplatOp>(mop)) {
    op.fn = BY_SIZE(splat, es);
  } else if (isa<tile::UnsplatOp, tile::ExpandDimsOp, tile::ReshapeOp,
                 tile::HintOp>(mop)) {
    op.fn = copyOp;
  } else if (isa<tile::BroadcastOp>(mop)) {
    auto st = rowMajorStrides(op.srcShape);
    for (size_t d = 0; d < op.shape.size(); ++d)
      op.ints.push_back(op.srcShape[d] == 1 && op.shape[d] != 1 ? 0 : st[d]);
    op.fn = strided;
  } else if (auto t = dyn_cast<tile::TransOp>(mop)) {
    auto st = rowMajorStrides(op.srcShape);
    for (int32_t o : t.getOrder())
      op.ints.push_back(st[o]);
    op.fn = strided;
  } else if (isa<tile::JoinOp>(mop)) {
    op.fn = BY_SIZE(join, es);
  } else if (isa<tile::SplitOp>(mop)) {
    op.fn = BY_SIZE(split, es);
  } else if (auto c = dyn_cast<tile::CatOp>(mop)) {
    int dim = c.getDim();
    auto &ls = op.srcShape;
    auto &rs = b.info(op.in[1]).shape;
    op.a = 1;
    for (int d = 0; d < dim; ++d)
      op.a *= ls[d];
    op.b = op.c = es;
    for (size_t d = dim; d < ls.size(); ++d) {
      op.b *= ls[d];
      op.c *= rs[d];
    }
    op.fn = cat;
  } else if (auto a = dyn_cast<tile::AddPtrOp>(mop)) {
    auto pk = pointeeKindOf(a.getPtr().getType());
    if (!pk)
      return b.error(mop, "cannot interpret pointers to this type"),
             Built::Error;
    op.a = elemBytes(*pk);
    EK ok = b.info(op.in[1]).kind;
    op.fn = BY_SIZE(addPtr, elemBytes(ok));
  }
  return Built::Ok;
}

} // namespace tritium::interp

//===- SortGather.cpp - tile.sort, tile.gather, tile.histogram ---*- C++ -*-===//
//
// sort: stable along an axis, NaNs after every number in ascending order
// (before them in descending order). fp16, bf16, fp32 and fp64 sort by a
// total order of their bits: numbers by value with -0.0 before +0.0, then
// NaNs (the positive ones by rising payload, then the negative ones by
// falling payload); descending is its reverse. Elements that compare
// equal are then bit for bit the same, so the result does not depend on
// the order the sort visits them in (the GPU's sorting network gives the
// same bits). gather: indices checked against the source extent (a fault
// names the lane). histogram: bins of width 1 from 0; out-of-range values
// and masked-off lanes are not counted.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;

namespace tritium::interp {
namespace {

/// The total-order key of an IEEE float's bits (`bits` wide, `mant`
/// mantissa bits): sign-magnitude made unsigned (negatives reversed below
/// the positives), then rotated so that -inf is 0 and the negative NaNs
/// wrap to the top, after the positive ones.
uint64_t totalOrderKey(uint64_t v, unsigned bits, unsigned mant) {
  uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  uint64_t sign = uint64_t(1) << (bits - 1);
  uint64_t f = (v & sign) ? (~v & all) : (v | sign);
  return (f - ((uint64_t(1) << mant) - 1)) & all;
}

// op.ints = {outer, K, inner}; op.a = descending.
void sortOp(const Op &op, Frame &f) {
  int64_t outer = op.ints[0], K = op.ints[1], inner = op.ints[2];
  EK k = op.kind;
  unsigned es = elemBytes(k);
  const uint8_t *src = f.slot[op.in[0]];
  uint8_t *dst = f.slot[op.res[0]];
  std::vector<double> keyF(K);
  std::vector<int64_t> keyI(K);
  std::vector<int64_t> perm(K);
  bool desc = op.a;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto idx = [&](int64_t j) { return (o * K + j) * inner + in; };
      for (int64_t j = 0; j < K; ++j) {
        if (isFloat(k))
          keyF[j] = readFloat(src, idx(j), k);
        else
          keyI[j] = readInt(src, idx(j), k, k != EK::I1);
      }
      std::iota(perm.begin(), perm.end(), 0);
      unsigned mant = k == EK::F16 ? 10 : k == EK::BF16 ? 7 : k == EK::F32 ? 23
                      : k == EK::F64 ? 52 : 0;
      if (mant) {
        std::vector<uint64_t> key(K);
        for (int64_t j = 0; j < K; ++j) {
          uint64_t v = 0;
          std::memcpy(&v, src + idx(j) * es, es);
          key[j] = totalOrderKey(v, es * 8, mant);
        }
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
          return desc ? key[a] > key[b] : key[a] < key[b];
        });
      } else if (isFloat(k))
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
          double x = keyF[a], y = keyF[b];
          bool nx = std::isnan(x), ny = std::isnan(y);
          if (nx || ny)
            return desc ? (nx && !ny) : (!nx && ny);
          return desc ? x > y : x < y;
        });
      else
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
          return desc ? keyI[a] > keyI[b] : keyI[a] < keyI[b];
        });
      for (int64_t j = 0; j < K; ++j)
        std::memcpy(dst + idx(j) * es, src + idx(perm[j]) * es, es);
    }
}

// op.ints = source shape; op.a = axis.
void gatherOp(const Op &op, Frame &f) {
  const SlotInfo &ii = f.prog->slots[op.in[1]];
  unsigned es = elemBytes(op.kind);
  auto srcShape = llvm::ArrayRef<int64_t>(op.ints);
  auto srcStrides = rowMajorStrides(srcShape);
  auto outStrides = rowMajorStrides(op.shape);
  int axis = op.a;
  for (int64_t i = 0; i < op.n; ++i) {
    int64_t index = readInt(f.slot[op.in[1]], i, ii.kind, true);
    if (index < 0 || index >= srcShape[axis]) {
      f.fail(op, "gather index out of range",
             "lane " + laneText(op, i) + " has index " +
                 std::to_string(index) + " along axis " +
                 std::to_string(axis) + " of size " +
                 std::to_string(srcShape[axis]));
      return;
    }
    int64_t off = 0;
    for (size_t d = 0; d < op.shape.size(); ++d) {
      int64_t c = (i / outStrides[d]) % op.shape[d];
      off += (int(d) == axis ? index : c) * srcStrides[d];
    }
    std::memcpy(f.slot[op.res[0]] + i * es, f.slot[op.in[0]] + off * es, es);
  }
}

// op.a: mask slot or -1.
void histogramOp(const Op &op, Frame &f) {
  const SlotInfo &si = f.prog->slots[op.in[0]];
  uint32_t *r = f.get<uint32_t>(op.res[0]);
  std::fill(r, r + op.n, 0u);
  const uint8_t *m = op.a >= 0 ? f.get<uint8_t>(op.a) : nullptr;
  for (int64_t i = 0; i < si.elems; ++i) {
    if (m && !m[i])
      continue;
    int64_t v = readInt(f.slot[op.in[0]], i, si.kind, true);
    if (v >= 0 && v < op.n)
      ++r[v];
  }
}

} // namespace

Built buildSortGather(Builder &b, Operation *mop, Op &op) {
  if (auto s = dyn_cast<tile::SortOp>(mop)) {
    fillCommon(b, mop, op);
    int axis = s.getAxis();
    op.ints = {1, 1, 1};
    for (int d = 0; d < (int)op.shape.size(); ++d)
      op.ints[d < axis ? 0 : d == axis ? 1 : 2] *= op.shape[d];
    op.a = s.getDescending();
    op.fn = sortOp;
    return Built::Ok;
  }
  if (auto g = dyn_cast<tile::GatherOp>(mop)) {
    fillCommon(b, mop, op);
    op.ints.assign(op.srcShape.begin(), op.srcShape.end());
    op.a = g.getAxis();
    op.fn = gatherOp;
    return Built::Ok;
  }
  if (auto h = dyn_cast<tile::HistogramOp>(mop)) {
    op.in.push_back(b.use(h.getSrc()));
    op.a = h.getMask() ? b.use(h.getMask()) : -1;
    op.res.push_back(b.define(h.getResult()));
    op.kind = EK::I32;
    op.n = b.info(op.res[0]).elems;
    op.fn = histogramOp;
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp

//===- ReduceScan.cpp - tile.reduce and tile.scan ----------------*- C++ -*-===//
//
// Combine regions are flattened in lane mode, so one run of the region's op
// list combines many independent lanes at once. reduce is a pairwise tree
// along the axis: each step combines the lower half [0, h) with the upper
// half [h, 2h) of every row for all rows together (lower indices are the
// left operand, so argmin/argmax tie-breaking follows the region). scan is
// a log-step (Hillis-Steele) inclusive scan: log2(K) steps, each running the
// region once over the whole tile (see scanOp). Both are independent of the
// thread count, so results are deterministic.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>

using namespace mlir;

namespace tritium::interp {
namespace {

struct Geometry {
  int64_t outer = 1, k = 1, inner = 1;
};

Geometry geometryOf(llvm::ArrayRef<int64_t> shape, int axis) {
  Geometry g;
  for (int d = 0; d < (int)shape.size(); ++d) {
    if (d < axis)
      g.outer *= shape[d];
    else if (d == axis)
      g.k = shape[d];
    else
      g.inner *= shape[d];
  }
  return g;
}

// op.ints = {outer, K, inner}; op.in = sources; op.res = results.
void reduceOp(const Op &op, Frame &f) {
  const Block &region = *op.regions[0];
  int64_t outer = op.ints[0], K0 = op.ints[1], inner = op.ints[2];
  size_t nops = op.in.size();
  // Working copies of every source, side by side in scratch.
  llvm::SmallVector<size_t, 4> offs;
  size_t total = 0;
  for (size_t i = 0; i < nops; ++i) {
    offs.push_back(total);
    total += (f.bytes(op.in[i]) + 63) & ~size_t(63);
  }
  if (f.scratch.size() < total)
    f.scratch.resize(total);
  for (size_t i = 0; i < nops; ++i)
    std::memcpy(f.scratch.data() + offs[i], f.slot[op.in[i]],
                f.bytes(op.in[i]));
  int64_t K = K0;
  int64_t savedLanes = f.lanes;
  while (K > 1) {
    int64_t h = K / 2;
    f.lanes = outer * h * inner;
    for (size_t i = 0; i < nops; ++i) {
      unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
      uint8_t *w = f.scratch.data() + offs[i];
      uint8_t *lhs = f.slot[region.args[i]], *rhs = f.slot[region.args[nops + i]];
      size_t chunk = h * inner * es;
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(lhs + o * chunk, w + o * K0 * inner * es, chunk);
        std::memcpy(rhs + o * chunk, w + (o * K0 + h) * inner * es, chunk);
      }
    }
    runBlock(region, f);
    if (f.failed)
      break;
    for (size_t i = 0; i < nops; ++i) {
      unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
      uint8_t *w = f.scratch.data() + offs[i];
      const uint8_t *r = f.slot[region.results[i]];
      size_t chunk = h * inner * es;
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(w + o * K0 * inner * es, r + o * chunk, chunk);
        if (K & 1) // carry the odd last element
          std::memmove(w + (o * K0 + h) * inner * es,
                       w + (o * K0 + 2 * h) * inner * es, inner * es);
      }
    }
    K = h + (K & 1);
  }
  f.lanes = savedLanes;
  if (f.failed)
    return;
  for (size_t i = 0; i < nops; ++i) {
    unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
    uint8_t *w = f.scratch.data() + offs[i];
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(f.slot[op.res[i]] + o * inner * es,
                  w + o * K0 * inner * es, inner * es);
  }
}

// Transposes `src` laid out [a][b][inner] into `dst` laid out [b][a][inner]
// (elements of `es` bytes).
template <unsigned ES>
void transposeT(uint8_t *dst, const uint8_t *src, int64_t a, int64_t b) {
  constexpr int64_t kTile = 32;
  for (int64_t a0 = 0; a0 < a; a0 += kTile)
    for (int64_t b0 = 0; b0 < b; b0 += kTile) {
      int64_t a1 = std::min(a, a0 + kTile), b1 = std::min(b, b0 + kTile);
      for (int64_t i = a0; i < a1; ++i)
        for (int64_t j = b0; j < b1; ++j)
          std::memcpy(dst + (j * a + i) * ES, src + (i * b + j) * ES, ES);
    }
}

void transpose(uint8_t *dst, const uint8_t *src, int64_t a, int64_t b,
               int64_t inner, unsigned es) {
  if (a == 1 || b == 1) {
    std::memcpy(dst, src, a * b * inner * es);
    return;
  }
  size_t row = inner * es;
  switch (row) {
  case 1: return transposeT<1>(dst, src, a, b);
  case 2: return transposeT<2>(dst, src, a, b);
  case 4: return transposeT<4>(dst, src, a, b);
  case 8: return transposeT<8>(dst, src, a, b);
  default:
    for (int64_t i = 0; i < a; ++i)
      for (int64_t j = 0; j < b; ++j)
        std::memcpy(dst + (j * a + i) * row, src + (i * b + j) * row, row);
  }
}

// op.ints = {outer, K, inner}; op.a = reverse.
//
// A log-step (Hillis-Steele) inclusive scan. Each operand is laid out
// axis-major, [K][outer][inner], in one of two scratch buffers, so that with
// M = outer * inner the elements at axis positions [lo, hi) are the
// contiguous range [lo * M, hi * M). Step d (1, 2, 4, ... < K) runs the
// region once over (K - d) * M lanes, its arguments pointing straight into
// the current buffer: forward, out[j] = combine(out[j - d], out[j]) for
// j >= d; reverse, out[j] = combine(out[j + d], out[j]) for j < K - d (the
// element earlier in scan order is always the left operand, as in a
// sequential sweep). The combined positions go to the other buffer (the
// region's result values are pointed there when they are plain op results,
// else copied), the d * M untouched elements are copied over, and the
// buffers swap. Finally the buffer is laid back out [outer][K][inner].
void scanOp(const Op &op, Frame &f) {
  const Block &region = *op.regions[0];
  int64_t outer = op.ints[0], K = op.ints[1], inner = op.ints[2];
  int64_t M = outer * inner;
  size_t nops = op.in.size(), nargs = region.args.size();
  llvm::SmallVector<size_t, 4> offs, sizes;
  llvm::SmallVector<unsigned, 4> es;
  size_t total = 0;
  for (size_t i = 0; i < nops; ++i) {
    es.push_back(elemBytes(f.prog->slots[op.in[i]].kind));
    sizes.push_back((size_t(K * M * es[i]) + 63) & ~size_t(63));
    offs.push_back(total);
    total += 2 * sizes[i];
  }
  if (f.scratch.size() < total)
    f.scratch.resize(total);
  for (size_t i = 0; i < nops; ++i)
    transpose(f.scratch.data() + offs[i], f.slot[op.in[i]], outer, K, inner,
              es[i]);
  // Results written in place: defined by an op of the region, not an
  // argument, and yielded once.
  llvm::SmallVector<bool, 4> direct(nops, false);
  for (size_t i = 0; i < nops; ++i) {
    int r = region.results[i];
    if (llvm::is_contained(region.args, r) ||
        llvm::count(region.results, r) != 1)
      continue;
    for (const Op &o : region.ops)
      if (llvm::is_contained(o.res, r))
        direct[i] = true;
  }
  llvm::SmallVector<uint8_t *, 8> savedArgs, savedRes;
  for (int s : region.args)
    savedArgs.push_back(f.slot[s]);
  for (int s : region.results)
    savedRes.push_back(f.slot[s]);
  int64_t savedLanes = f.lanes;
  bool flip = false; // the current values are in the second buffer
  for (int64_t d = 1; d < K && !f.failed; d *= 2) {
    int64_t n = (K - d) * M;
    f.lanes = n;
    auto cur = [&](size_t i) {
      return f.scratch.data() + offs[i] + (flip ? sizes[i] : 0);
    };
    auto nxt = [&](size_t i) {
      return f.scratch.data() + offs[i] + (flip ? 0 : sizes[i]);
    };
    for (size_t i = 0; i < nops; ++i) {
      uint8_t *lo = cur(i), *hi = cur(i) + d * M * es[i];
      // Left operand: the element earlier in scan order.
      f.slot[region.args[i]] = op.a ? hi : lo;
      f.slot[region.args[nops + i]] = op.a ? lo : hi;
      if (direct[i])
        f.slot[region.results[i]] = nxt(i) + (op.a ? 0 : d * M * es[i]);
    }
    runBlock(region, f);
    if (!f.failed)
      for (size_t i = 0; i < nops; ++i) {
        size_t combined = op.a ? 0 : d * M * es[i];
        size_t kept = op.a ? n * es[i] : 0;
        if (!direct[i])
          std::memcpy(nxt(i) + combined, f.slot[region.results[i]],
                      n * es[i]);
        std::memcpy(nxt(i) + kept, cur(i) + kept, d * M * es[i]);
      }
    for (size_t s = 0; s < nargs; ++s)
      f.slot[region.args[s]] = savedArgs[s];
    for (size_t i = 0; i < nops; ++i)
      f.slot[region.results[i]] = savedRes[i];
    flip = !flip;
  }
  f.lanes = savedLanes;
  if (f.failed)
    return;
  for (size_t i = 0; i < nops; ++i)
    transpose(f.slot[op.res[i]],
              f.scratch.data() + offs[i] + (flip ? sizes[i] : 0), K, outer,
              inner, es[i]);
}

} // namespace

Built buildReduceScan(Builder &b, Operation *mop, Op &op) {
  auto red = dyn_cast<tile::ReduceOp>(mop);
  auto scan = dyn_cast<tile::ScanOp>(mop);
  if (!red && !scan)
    return Built::NotMine;
  fillCommon(b, mop, op);
  int axis = red ? red.getAxis() : scan.getAxis();
  Geometry g = geometryOf(op.srcShape, axis);
  op.ints = {g.outer, g.k, g.inner};
  int64_t lanes = red ? g.outer * std::max<int64_t>(g.k / 2, 1) * g.inner
                      : g.outer * std::max<int64_t>(g.k - 1, 1) * g.inner;
  Region &r = red ? red.getCombineOp() : scan.getCombineOp();
  op.regions.push_back(b.buildRegion(r, lanes));
  if (red) {
    op.fn = reduceOp;
  } else {
    op.a = scan.getReverse();
    op.fn = scanOp;
  }
  return Built::Ok;
}

} // namespace tritium::interp

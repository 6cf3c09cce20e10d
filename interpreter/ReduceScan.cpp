//===- ReduceScan.cpp - tile.reduce and tile.scan ----------------*- C++ -*-===//
//
// Combine regions are flattened in lane mode, so one run of the region's op
// list combines many independent lanes at once. reduce is a pairwise tree
// along the axis: each step combines the lower half [0, h) with the upper
// half [h, 2h) of every row for all rows together (lower indices are the
// left operand, so argmin/argmax tie-breaking follows the region). scan is
// a linear inclusive sweep along the axis, each step combining all lanes
// across the other dimensions at once.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

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

// op.ints = {outer, K, inner}; op.a = reverse.
void scanOp(const Op &op, Frame &f) {
  const Block &region = *op.regions[0];
  int64_t outer = op.ints[0], K = op.ints[1], inner = op.ints[2];
  size_t nops = op.in.size();
  int64_t savedLanes = f.lanes;
  f.lanes = outer * inner;
  auto at = [&](int64_t o, int64_t j, unsigned es) {
    return (o * K + j) * inner * es;
  };
  int64_t first = op.a ? K - 1 : 0, dir = op.a ? -1 : 1;
  for (size_t i = 0; i < nops; ++i) {
    unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(f.slot[op.res[i]] + at(o, first, es),
                  f.slot[op.in[i]] + at(o, first, es), inner * es);
  }
  for (int64_t s = 1; s < K && !f.failed; ++s) {
    int64_t j = first + dir * s, prev = j - dir;
    for (size_t i = 0; i < nops; ++i) {
      unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
      size_t chunk = inner * es;
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(f.slot[region.args[i]] + o * chunk,
                    f.slot[op.res[i]] + at(o, prev, es), chunk);
        std::memcpy(f.slot[region.args[nops + i]] + o * chunk,
                    f.slot[op.in[i]] + at(o, j, es), chunk);
      }
    }
    runBlock(region, f);
    if (f.failed)
      break;
    for (size_t i = 0; i < nops; ++i) {
      unsigned es = elemBytes(f.prog->slots[op.in[i]].kind);
      size_t chunk = inner * es;
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(f.slot[op.res[i]] + at(o, j, es),
                    f.slot[region.results[i]] + o * chunk, chunk);
    }
  }
  f.lanes = savedLanes;
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
                      : g.outer * g.inner;
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

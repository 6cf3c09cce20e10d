//===- LinearLayout.cpp - Distributed layouts as linear maps over GF(2) ---===//
//
// Constructors for the layouts codegen uses and the derived operations
// (slice, expand, transpose, reshape, broadcast, thread-local conversion).
// Every operation transforms basis vectors; nothing enumerates elements
// except the register lookup table of threadLocalMap.
//
//===----------------------------------------------------------------------===//
#include "codegen/layouts/LinearLayout.h"

#include <algorithm>

#include <cassert>
#include <map>
#include <sstream>

using namespace tritium::codegen;

namespace {
unsigned log2u(uint64_t v) {
  unsigned l = 0;
  while ((uint64_t(1) << l) < v)
    ++l;
  return l;
}
bool isZero(const Coord &c) {
  for (int64_t v : c)
    if (v)
      return false;
  return true;
}
Coord xorInto(Coord a, const Coord &b) {
  for (size_t i = 0; i < a.size(); ++i)
    a[i] ^= b[i];
  return a;
}
Coord unit(unsigned rank, unsigned dim, int64_t value) {
  Coord c(rank, 0);
  c[dim] = value;
  return c;
}
} // namespace

int64_t tritium::codegen::linearIndex(const Coord &c,
                                      const std::vector<int64_t> &shape) {
  int64_t idx = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    idx = idx * shape[d] + c[d];
  return idx;
}

Coord tritium::codegen::delinearize(int64_t index,
                                    const std::vector<int64_t> &shape) {
  Coord c(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = index % shape[d];
    index /= shape[d];
  }
  return c;
}

LinearLayout::LinearLayout(std::vector<int64_t> shape,
                           std::vector<Coord> regBases,
                           std::vector<Coord> laneBases,
                           std::vector<Coord> warpBases)
    : shape_(std::move(shape)) {
  bases_[Reg] = std::move(regBases);
  bases_[Lane] = std::move(laneBases);
  bases_[Warp] = std::move(warpBases);
}

int64_t LinearLayout::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape_)
    n *= s;
  return n;
}

LinearLayout LinearLayout::blocked(const std::vector<int64_t> &shape,
                                   const std::vector<unsigned> &sizePerThread,
                                   const std::vector<unsigned> &threadsPerWarp,
                                   const std::vector<unsigned> &warpsPerCTA,
                                   const std::vector<unsigned> &order,
                                   unsigned lanesPerWarp) {
  unsigned rank = shape.size();
  std::vector<Coord> reg, lane, warp;
  std::vector<int64_t> covered(rank, 1);
  // Each level continues the coordinate bits where the previous one stopped;
  // bits past the tensor's extent are replicas (zero basis).
  auto fill = [&](std::vector<Coord> &out, const std::vector<unsigned> &per) {
    for (unsigned d : order)
      for (unsigned b = 0; b < log2u(per[d]); ++b) {
        out.push_back(covered[d] < shape[d] ? unit(rank, d, covered[d])
                                            : Coord(rank, 0));
        covered[d] *= 2;
      }
  };
  fill(reg, sizePerThread);
  fill(lane, threadsPerWarp);
  fill(warp, warpsPerCTA);
  assert(lane.size() == log2u(lanesPerWarp) && "threadsPerWarp product");
  (void)lanesPerWarp;
  // The CTA tile repeats in registers over what it does not cover.
  for (unsigned d : order)
    while (covered[d] < shape[d]) {
      reg.push_back(unit(rank, d, covered[d]));
      covered[d] *= 2;
    }
  return LinearLayout(shape, reg, lane, warp);
}

LinearLayout LinearLayout::defaultFor(const std::vector<int64_t> &shape,
                                      unsigned numWarps, unsigned elemBits,
                                      unsigned lanesPerWarp) {
  assert(!shape.empty() && "layouts are for tensors");
  return defaultFor(shape, numWarps, elemBits, lanesPerWarp, unsigned(shape.size() - 1));
}

LinearLayout LinearLayout::defaultFor(const std::vector<int64_t> &shape,
                                      unsigned numWarps, unsigned elemBits,
                                      unsigned lanesPerWarp, unsigned fastDim) {
  return blocked(shape, defaultBlocked(shape, numWarps, elemBits, lanesPerWarp, fastDim),
                 lanesPerWarp);
}

BlockedParams LinearLayout::defaultBlocked(const std::vector<int64_t> &shape,
                                           unsigned numWarps, unsigned elemBits,
                                           unsigned lanesPerWarp, unsigned fastDim) {
  unsigned rank = shape.size();
  assert(rank > 0 && fastDim < rank && "layouts are for tensors");
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  unsigned last = fastDim; // the fastest dimension
  int64_t threads = int64_t(lanesPerWarp) * numWarps;
  int64_t per = std::max<int64_t>(1, 128 / std::max(8u, elemBits));
  per = std::min<int64_t>(per, shape[last]);
  per = std::min<int64_t>(per, std::max<int64_t>(1, numel / threads));
  std::vector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
  order.push_back(fastDim);
  for (unsigned d = rank; d-- > 0;)
    if (d != fastDim)
      order.push_back(d);
  spt[last] = per;
  // Lanes and warps from the fastest dimension on; what is left over lands
  // on the fastest dimension, past its extent, as replicas.
  auto spread = [&](std::vector<unsigned> &out, unsigned count,
                    const std::vector<int64_t> &used) {
    unsigned left = count;
    for (unsigned d : order) {
      int64_t room = std::max<int64_t>(1, shape[d] / used[d]);
      unsigned take = std::min<int64_t>(left, room);
      out[d] = take;
      left /= take;
    }
    out[last] *= left;
  };
  std::vector<int64_t> used(rank);
  for (unsigned d = 0; d < rank; ++d)
    used[d] = spt[d];
  spread(tpw, lanesPerWarp, used);
  for (unsigned d = 0; d < rank; ++d)
    used[d] = int64_t(spt[d]) * tpw[d];
  spread(wpc, numWarps, used);
  return BlockedParams{spt, tpw, wpc, order};
}

namespace {
/// Bases along one dimension of a 2-D tile from `start` doubling, `count`
/// of them (values past `extent` are replicas: zero).
void repeat2d(std::vector<Coord> &out, int64_t start, int64_t extent, unsigned count,
              bool second) {
  int64_t v = start;
  for (unsigned i = 0; i < count; ++i, v *= 2)
    out.push_back(v < extent ? (second ? Coord{0, v} : Coord{v, 0}) : Coord{0, 0});
}

unsigned log2Ceil(int64_t v) {
  unsigned l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}
} // namespace

LinearLayout LinearLayout::mmaAccumulator(int64_t M, int64_t N, unsigned wm, unsigned wn) {
  std::vector<Coord> reg = {{0, 1}, {8, 0}};
  std::vector<Coord> lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coord> warp;
  repeat2d(warp, 16, M, log2Ceil(wm), false);
  repeat2d(warp, 8, N, log2Ceil(wn), true);
  repeat2d(reg, 8 * wn, N, log2Ceil(std::max<int64_t>(1, N / (8 * wn))), true);
  repeat2d(reg, 16 * wm, M, log2Ceil(std::max<int64_t>(1, M / (16 * wm))), false);
  return LinearLayout({M, N}, reg, lane, warp);
}

LinearLayout LinearLayout::batched(const LinearLayout &inner, int64_t batch, unsigned wb) {
  auto lift = [](const std::vector<Coord> &bases) {
    std::vector<Coord> out;
    for (const Coord &c : bases) {
      Coord l = {0};
      l.insert(l.end(), c.begin(), c.end());
      out.push_back(l);
    }
    return out;
  };
  std::vector<Coord> reg = lift(inner.bases(Reg)), lane = lift(inner.bases(Lane)),
                     warp = lift(inner.bases(Warp));
  unsigned rank = inner.rank() + 1;
  int64_t v = 1;
  for (unsigned i = 0; i < log2Ceil(wb); ++i, v *= 2)
    warp.push_back(v < batch ? unit(rank, 0, v) : Coord(rank, 0));
  for (; v < batch; v *= 2)
    reg.push_back(unit(rank, 0, v));
  std::vector<int64_t> shape = {batch};
  shape.insert(shape.end(), inner.shape().begin(), inner.shape().end());
  return LinearLayout(shape, reg, lane, warp);
}

LinearLayout LinearLayout::mfmaAccumulator(int64_t M, int64_t N, unsigned wm, unsigned wn,
                                           unsigned block, bool transposed) {
  std::vector<Coord> reg, lane;
  if (block == 16) {
    // v_mfma_f32_16x16x16: lane % 16 is the column, lane / 16 four rows
    // down; register r is row r of those four.
    reg = {{1, 0}, {2, 0}};
    lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {8, 0}};
  } else {
    // v_mfma_f32_32x32x8: lane % 32 is the column, lane / 32 four rows
    // down; register r is row (r % 4) + 8 * (r / 4).
    reg = {{1, 0}, {2, 0}, {8, 0}, {16, 0}};
    lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}};
  }
  // The product of the swapped operands (B^T A^T) holds each block
  // transposed: rows and columns trade places within it.
  if (transposed)
    for (std::vector<Coord> *v : {&reg, &lane})
      for (Coord &c : *v)
        std::swap(c[0], c[1]);
  int64_t B = block;
  std::vector<Coord> warp;
  repeat2d(warp, B, M, log2Ceil(wm), false);
  repeat2d(warp, B, N, log2Ceil(wn), true);
  repeat2d(reg, B * wn, N, log2Ceil(std::max<int64_t>(1, N / (B * wn))), true);
  repeat2d(reg, B * wm, M, log2Ceil(std::max<int64_t>(1, M / (B * wm))), false);
  return LinearLayout({M, N}, reg, lane, warp);
}

LinearLayout LinearLayout::mfmaOperandA(int64_t M, int64_t K, unsigned wm, unsigned wn,
                                        unsigned block) {
  // The transposed accumulator of [M, K] over wm waves on M: within a
  // block, lane % block is the row and the registers and lane / block the
  // k values of the instruction's steps in order; waves along N replicate.
  LinearLayout acc = mfmaAccumulator(M, K, wm, 1, block, true);
  std::vector<Coord> reg = acc.bases(Reg), lane = acc.bases(Lane), warp = acc.bases(Warp);
  for (unsigned i = 0; i < log2Ceil(wn); ++i)
    warp.push_back({0, 0});
  return LinearLayout({M, K}, reg, lane, warp);
}

LinearLayout LinearLayout::wgmmaAccumulator(int64_t M, int64_t N, unsigned wgm,
                                            unsigned wgn) {
  std::vector<Coord> reg = {{0, 1}, {8, 0}};
  std::vector<Coord> lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coord> warp = {{16, 0}, {32, 0}};
  int64_t perGroupN = std::max<int64_t>(8, N / wgn);
  repeat2d(reg, 8, perGroupN, log2Ceil(perGroupN / 8), true);
  repeat2d(warp, 64, M, log2Ceil(wgm), false);
  repeat2d(warp, perGroupN, N, log2Ceil(wgn), true);
  repeat2d(reg, 64 * wgm, M, log2Ceil(std::max<int64_t>(1, M / (64 * wgm))), false);
  return LinearLayout({M, N}, reg, lane, warp);
}

LinearLayout LinearLayout::mmaOperandA(int64_t M, int64_t K, unsigned wm, unsigned wn) {
  std::vector<Coord> reg = {{0, 1}, {8, 0}, {0, 8}};
  std::vector<Coord> lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coord> warp;
  repeat2d(warp, 16, M, log2Ceil(wm), false);
  for (unsigned i = 0; i < log2Ceil(wn); ++i)
    warp.push_back({0, 0});
  repeat2d(reg, 16, K, log2Ceil(std::max<int64_t>(1, K / 16)), true);
  repeat2d(reg, 16 * wm, M, log2Ceil(std::max<int64_t>(1, M / (16 * wm))), false);
  return LinearLayout({M, K}, reg, lane, warp);
}

LinearLayout LinearLayout::allInThread(const std::vector<int64_t> &shape,
                                       unsigned numWarps,
                                       unsigned lanesPerWarp) {
  unsigned rank = shape.size();
  std::vector<Coord> reg;
  for (unsigned d = rank; d-- > 0;)
    for (int64_t v = 1; v < shape[d]; v *= 2)
      reg.push_back(unit(rank, d, v));
  return LinearLayout(shape, reg,
                      std::vector<Coord>(log2u(lanesPerWarp), Coord(rank, 0)),
                      std::vector<Coord>(log2u(numWarps), Coord(rank, 0)));
}

LinearLayout LinearLayout::axisInThread(const std::vector<int64_t> &shape,
                                        unsigned axis, unsigned numWarps,
                                        unsigned lanesPerWarp) {
  if (shape.size() == 1)
    return allInThread(shape, numWarps, lanesPerWarp);
  std::vector<int64_t> rest = shape;
  rest.erase(rest.begin() + axis);
  LinearLayout l = defaultFor(rest, numWarps, 32, lanesPerWarp).expandDim(axis);
  l.shape_[axis] = shape[axis];
  std::vector<Coord> reg;
  for (int64_t v = 1; v < shape[axis]; v *= 2)
    reg.push_back(unit(shape.size(), axis, v));
  reg.insert(reg.end(), l.bases_[Reg].begin(), l.bases_[Reg].end());
  l.bases_[Reg] = reg;
  return l;
}

Coord LinearLayout::applyOne(InDim d, unsigned index) const {
  Coord c(rank(), 0);
  for (unsigned b = 0; b < bases_[d].size(); ++b)
    if (index >> b & 1)
      c = xorInto(c, bases_[d][b]);
  return c;
}

Coord LinearLayout::apply(unsigned reg, unsigned lane, unsigned warp) const {
  return xorInto(xorInto(applyOne(Reg, reg), applyOne(Lane, lane)),
                 applyOne(Warp, warp));
}

unsigned LinearLayout::replicatedMask(InDim d) const {
  unsigned m = 0;
  for (unsigned b = 0; b < bases_[d].size(); ++b)
    if (isZero(bases_[d][b]))
      m |= 1u << b;
  return m;
}

bool LinearLayout::isReplicaReg(unsigned reg) const {
  return (reg & replicatedMask(Reg)) != 0;
}

std::vector<unsigned> LinearLayout::sliceKeptRegs(unsigned dim) const {
  std::vector<unsigned> keptBits;
  for (unsigned b = 0; b < bases_[Reg].size(); ++b) {
    Coord c = bases_[Reg][b];
    bool movedAlongDim = c[dim] != 0;
    c.erase(c.begin() + dim);
    if (!(movedAlongDim && isZero(c)))
      keptBits.push_back(b);
  }
  std::vector<unsigned> regs;
  for (unsigned i = 0; i < (1u << keptBits.size()); ++i) {
    unsigned r = 0;
    for (unsigned j = 0; j < keptBits.size(); ++j)
      if (i >> j & 1)
        r |= 1u << keptBits[j];
    regs.push_back(r);
  }
  return regs;
}

LinearLayout LinearLayout::sliceDim(unsigned dim) const {
  LinearLayout out;
  out.shape_ = shape_;
  out.shape_.erase(out.shape_.begin() + dim);
  for (int k = 0; k < 3; ++k)
    for (const Coord &b : bases_[k]) {
      Coord c = b;
      bool movedAlongDim = c[dim] != 0;
      c.erase(c.begin() + dim);
      if (k == Reg && movedAlongDim && isZero(c))
        continue;
      out.bases_[k].push_back(c);
    }
  return out;
}

LinearLayout LinearLayout::projectTo(const std::vector<int64_t> &shape) const {
  LinearLayout out = *this;
  out.shape_ = shape;
  for (int k = 0; k < 3; ++k)
    for (Coord &c : out.bases_[k])
      for (unsigned d = 0; d < c.size(); ++d)
        if (shape[d] == 1)
          c[d] = 0;
  return out;
}

bool LinearLayout::separable(unsigned dim) const {
  for (int k = 0; k < 3; ++k)
    for (const Coord &c : bases_[k]) {
      if (!c[dim])
        continue;
      for (unsigned d = 0; d < c.size(); ++d)
        if (d != dim && c[d])
          return false;
    }
  return true;
}

bool LinearLayout::scansInOrder(unsigned dim) const {
  if (!separable(dim))
    return false;
  std::vector<std::pair<int64_t, int>> bits; // (coordinate bit, in-dimension)
  for (int k = 0; k < 3; ++k)
    for (const Coord &c : bases_[k])
      if (c[dim]) {
        if (c[dim] & (c[dim] - 1))
          return false;
        bits.push_back({c[dim], k});
      }
  std::sort(bits.begin(), bits.end());
  int stage = 0; // 0: low registers, 1: lanes, 2: warps, 3: high registers
  for (size_t i = 0; i < bits.size(); ++i) {
    if (i && bits[i].first == bits[i - 1].first)
      return false;
    int want = bits[i].second == Lane ? 1 : bits[i].second == Warp ? 2 : stage == 0 ? 0 : 3;
    if (want < stage)
      return false;
    stage = want;
  }
  return true;
}

LinearLayout LinearLayout::expandDim(unsigned dim) const {
  LinearLayout out = *this;
  out.shape_.insert(out.shape_.begin() + dim, 1);
  for (int k = 0; k < 3; ++k)
    for (Coord &c : out.bases_[k])
      c.insert(c.begin() + dim, 0);
  return out;
}

LinearLayout LinearLayout::transpose(const std::vector<unsigned> &perm) const {
  LinearLayout out;
  for (unsigned p : perm)
    out.shape_.push_back(shape_[p]);
  for (int k = 0; k < 3; ++k)
    for (const Coord &b : bases_[k]) {
      Coord c;
      for (unsigned p : perm)
        c.push_back(b[p]);
      out.bases_[k].push_back(c);
    }
  return out;
}

LinearLayout
LinearLayout::reshape(const std::vector<int64_t> &newShape) const {
  // With power-of-two extents the row-major index is the concatenation of
  // the coordinates' bits, so reading a basis through it stays linear.
  LinearLayout out;
  out.shape_ = newShape;
  for (int k = 0; k < 3; ++k)
    for (const Coord &b : bases_[k])
      out.bases_[k].push_back(delinearize(linearIndex(b, shape_), newShape));
  return out;
}

LinearLayout
LinearLayout::broadcastTo(const std::vector<int64_t> &newShape) const {
  LinearLayout out = *this;
  out.shape_ = newShape;
  for (unsigned d = 0; d < rank(); ++d) {
    if (shape_[d] == newShape[d])
      continue;
    assert(shape_[d] == 1 && "broadcast from size 1 only");
    int64_t v = 1;
    for (int k : {Lane, Warp})
      for (Coord &c : out.bases_[k])
        if (v < newShape[d] && isZero(c)) {
          c[d] = v;
          v *= 2;
        }
    for (; v < newShape[d]; v *= 2)
      out.bases_[Reg].push_back(unit(rank(), d, v));
  }
  return out;
}

LinearLayout LinearLayout::withExtraRegBit(const std::vector<int64_t> &newShape,
                                           const Coord &basis) const {
  LinearLayout out = *this;
  out.shape_ = newShape;
  out.bases_[Reg].push_back(basis);
  return out;
}

std::optional<std::vector<unsigned>>
LinearLayout::threadLocalMap(const LinearLayout &src, const LinearLayout &dst) {
  if (src.rank() != dst.rank())
    return std::nullopt;
  std::vector<bool> projected(src.rank(), false);
  for (unsigned d = 0; d < src.rank(); ++d) {
    if (src.shape_[d] == dst.shape_[d])
      continue;
    if (src.shape_[d] != 1)
      return std::nullopt;
    projected[d] = true;
  }
  auto project = [&](Coord c) {
    for (unsigned d = 0; d < c.size(); ++d)
      if (projected[d])
        c[d] = 0;
    return c;
  };
  for (int k : {Lane, Warp}) {
    if (src.bases_[k].size() != dst.bases_[k].size())
      return std::nullopt;
    for (unsigned b = 0; b < src.bases_[k].size(); ++b)
      if (project(dst.bases_[k][b]) != src.bases_[k][b])
        return std::nullopt;
  }
  std::map<Coord, unsigned> regOf;
  for (unsigned r = src.numRegs(); r-- > 0;)
    regOf[src.applyOne(Reg, r)] = r; // the lowest register wins
  std::vector<unsigned> map;
  map.reserve(dst.numRegs());
  for (unsigned r = 0; r < dst.numRegs(); ++r) {
    auto it = regOf.find(project(dst.applyOne(Reg, r)));
    if (it == regOf.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

unsigned LinearLayout::contiguousRegs(unsigned dim) const {
  unsigned k = 0;
  while (k < bases_[Reg].size() &&
         bases_[Reg][k] == unit(rank(), dim, int64_t(1) << k))
    ++k;
  return 1u << k;
}

std::string LinearLayout::str() const {
  std::ostringstream os;
  auto list = [&](const std::vector<Coord> &v) {
    os << "[";
    for (size_t i = 0; i < v.size(); ++i) {
      os << (i ? ", " : "") << "[";
      for (size_t j = 0; j < v[i].size(); ++j)
        os << (j ? "," : "") << v[i][j];
      os << "]";
    }
    os << "]";
  };
  os << "linear<[";
  for (size_t i = 0; i < shape_.size(); ++i)
    os << (i ? ", " : "") << shape_[i];
  os << "] reg=";
  list(bases_[Reg]);
  os << " lane=";
  list(bases_[Lane]);
  os << " warp=";
  list(bases_[Warp]);
  os << ">";
  return os.str();
}

// Row-major indices of power-of-two shapes are linear over GF(2) like the
// layout, so an element's index is the XOR of what its register, lane and
// warp contribute: runs stay within one thread exactly when lanes and warps
// leave the low log2(pack) index bits alone, and then every run is whole
// when the registers cover those bits.
std::optional<std::vector<std::vector<unsigned>>>
LinearLayout::packedRuns(unsigned pack) const {
  int64_t low = int64_t(pack) - 1;
  for (auto d : {Lane, Warp})
    for (const Coord &c : bases(d))
      if (linearIndex(c, shape_) & low)
        return std::nullopt;
  unsigned replica = replicatedMask(Reg);
  std::map<int64_t, unsigned> regOf; // element index -> register
  for (unsigned r = 0; r < numRegs(); ++r)
    if (!(r & replica))
      regOf[linearIndex(applyOne(Reg, r), shape_)] = r;
  std::vector<std::vector<unsigned>> runs;
  for (auto [first, r] : regOf) {
    if (first & low)
      continue;
    std::vector<unsigned> run;
    for (int64_t k = 0; k <= low; ++k) {
      auto it = regOf.find(first | k);
      if (it == regOf.end())
        return std::nullopt;
      run.push_back(it->second);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

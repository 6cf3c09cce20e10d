//===- LinearLayout.h - Distributed layouts as linear maps over GF(2) -----===//
//
// A layout says which thread holds which element of a tile. Every layout the
// code generator uses (blocked layouts, slices of them, broadcasts, the
// layouts that reshape/trans/join produce) is one instance of a single form:
// a linear map over GF(2) from the bits of (register, lane, warp) to the bits
// of the tensor coordinates. Bit b of the register index contributes
// `regBases[b]` (a coordinate vector), likewise for lane and warp bits, and
// the coordinate of (reg, lane, warp) is the XOR of the contributions of its
// set bits. A zero basis vector means the bit is replicated (several threads
// or registers hold the same element).
//
// Conversions between layouts are derived from the maps alone: a conversion
// stays inside each thread exactly when both layouts give the same lane and
// warp bases (after projecting away broadcast dimensions); otherwise it goes
// through shared memory. Depends on nothing but the standard library.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LAYOUTS_LINEARLAYOUT_H
#define TRITIUM_CODEGEN_LAYOUTS_LINEARLAYOUT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium::codegen {

/// A coordinate vector (one entry per tensor dimension).
using Coord = std::vector<int64_t>;

/// The parameters of a blocked layout (LinearLayout::blocked).
struct BlockedParams {
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
};

class LinearLayout {
public:
  enum InDim { Reg = 0, Lane = 1, Warp = 2 };

  LinearLayout() = default;
  /// `shape` must hold powers of two; each basis vector has shape.size()
  /// entries with every entry < the dimension's size.
  LinearLayout(std::vector<int64_t> shape, std::vector<Coord> regBases,
               std::vector<Coord> laneBases, std::vector<Coord> warpBases);

  /// Triton's blocked layout: `sizePerThread` contiguous elements per thread,
  /// `threadsPerWarp` and `warpsPerCTA` threads/warps per dimension, `order`
  /// listing dimensions from fastest to slowest. Where the tensor is smaller
  /// than the CTA tile, threads hold replicas; where it is larger, the tile
  /// repeats in registers.
  static LinearLayout blocked(const std::vector<int64_t> &shape,
                              const std::vector<unsigned> &sizePerThread,
                              const std::vector<unsigned> &threadsPerWarp,
                              const std::vector<unsigned> &warpsPerCTA,
                              const std::vector<unsigned> &order,
                              unsigned lanesPerWarp = 32);
  /// The default layout for a tile of `shape` with `numWarps` warps: up to
  /// 128 bits contiguous per thread along the last dimension, then lanes and
  /// warps from the last dimension to the first, repeats in registers.
  static LinearLayout defaultFor(const std::vector<int64_t> &shape,
                                 unsigned numWarps, unsigned elemBits,
                                 unsigned lanesPerWarp = 32);
  /// The same with dimension `fastDim` fastest (its elements contiguous in
  /// each thread), then the others from the last to the first: the layout
  /// of an access whose memory runs along `fastDim`.
  static LinearLayout defaultFor(const std::vector<int64_t> &shape,
                                 unsigned numWarps, unsigned elemBits,
                                 unsigned lanesPerWarp, unsigned fastDim);
  /// The blocked parameters defaultFor uses.
  static BlockedParams defaultBlocked(const std::vector<int64_t> &shape,
                                      unsigned numWarps, unsigned elemBits,
                                      unsigned lanesPerWarp, unsigned fastDim);
  static LinearLayout blocked(const std::vector<int64_t> &shape, const BlockedParams &p,
                              unsigned lanesPerWarp = 32) {
    return blocked(shape, p.sizePerThread, p.threadsPerWarp, p.warpsPerCTA, p.order,
                   lanesPerWarp);
  }
  /// A layout with every element of the tile in one register file of each
  /// thread (all lane and warp bits replicated).
  static LinearLayout allInThread(const std::vector<int64_t> &shape,
                                  unsigned numWarps, unsigned lanesPerWarp = 32);
  /// A layout where dimension `axis` lives entirely in registers and the
  /// other dimensions are spread like defaultFor.
  static LinearLayout axisInThread(const std::vector<int64_t> &shape,
                                   unsigned axis, unsigned numWarps,
                                   unsigned lanesPerWarp = 32);

  /// The accumulator of mma.sync m16n8 tiles over [M, N] with `wm` x `wn`
  /// warps: c0,c1 = (lane/4, 2*(lane%4) + {0,1}), c2,c3 the same 8 rows
  /// lower; warps tile (M, N); then repeats over N, then M.
  static LinearLayout mmaAccumulator(int64_t M, int64_t N, unsigned wm, unsigned wn);
  /// A 2-D layout `inner` ([M, N]) lifted to [batch, M, N]: every basis
  /// gains a leading 0; then `wb` warps take consecutive batch entries
  /// (warp bits after inner's, replicas where wb > batch), and the batch
  /// entries left repeat in registers (register bits after inner's). A
  /// thread's register r + inner.numRegs() * i is inner's register r of its
  /// i-th batch entry.
  static LinearLayout batched(const LinearLayout &inner, int64_t batch, unsigned wb);
  /// Operand A ([M, K], 16-bit) of mma.sync m16n8k16 on the same warps:
  /// a0,a1 = (lane/4, 2*(lane%4) + {0,1}), a2,a3 eight rows lower, a4..a7
  /// the same eight columns on; then repeats over K, then M. Warps along N
  /// hold replicas. Consecutive register pairs are the instruction's
  /// 32-bit A registers.
  static LinearLayout mmaOperandA(int64_t M, int64_t K, unsigned wm, unsigned wn);
  /// The accumulator of AMD's MFMA (wave64) over [M, N] with `wm` x `wn`
  /// waves, in `block` x `block` blocks: for v_mfma_f32_32x32x8 (block 32)
  /// lane % 32 is the column, lane / 32 four rows down, register r row
  /// (r % 4) + 8 * (r / 4); for v_mfma_f32_16x16x16 (block 16) lane % 16 is
  /// the column, lane / 16 four rows down, register r row r. Waves tile (M,
  /// N) in blocks, M first; then repeats over N, then M. Each block's
  /// registers (16 or 4) in a row are one instruction's accumulator.
  /// `transposed`: each block as the instruction holds the product of the
  /// swapped operands, B^T A^T: lane % block is the row, and a lane's
  /// registers run along the row (four consecutive columns), so stores and
  /// row reductions take them in runs.
  static LinearLayout mfmaAccumulator(int64_t M, int64_t N, unsigned wm, unsigned wn,
                                      unsigned block = 32, bool transposed = false);
  /// Operand A of AMD's MFMA over [M, K] held in registers, for a product
  /// with `wm` x `wn` waves in `block` x `block` blocks: the transposed
  /// accumulator of [M, K] with the product's waves on M (waves along N
  /// hold replicas). Lane % block is the row; registers 4i..4i+3 are the
  /// four k values of one instruction's A fragment, the instructions' k
  /// steps in order, then repeats over M. A product's transposed
  /// accumulator feeds a second product as A in place when K % block == 0.
  static LinearLayout mfmaOperandA(int64_t M, int64_t K, unsigned wm, unsigned wn,
                                   unsigned block = 32);
  /// The accumulator of wgmma m64nNk over [M, N] with `wgm` x `wgn`
  /// warpgroups: each warpgroup owns a contiguous [64, N / wgn] block per
  /// m64 step; its four warps take 16 rows each, with the lanes and
  /// registers of an m16n8 accumulator repeated along N; warpgroups tile M
  /// first, then N; then repeats over M. With wgn = 1 this is
  /// mmaAccumulator(M, N, 4 * wgm, 1), so the operand A of a chained
  /// product is mmaOperandA(M, K, 4 * wgm, 1).
  static LinearLayout wgmmaAccumulator(int64_t M, int64_t N, unsigned wgm, unsigned wgn);

  const std::vector<int64_t> &shape() const { return shape_; }
  unsigned rank() const { return shape_.size(); }
  const std::vector<Coord> &bases(InDim d) const { return bases_[d]; }
  unsigned numRegs() const { return 1u << bases_[Reg].size(); }
  unsigned numLanes() const { return 1u << bases_[Lane].size(); }
  unsigned numWarps() const { return 1u << bases_[Warp].size(); }
  int64_t numElements() const;

  /// The coordinate of (reg, lane, warp).
  Coord apply(unsigned reg, unsigned lane, unsigned warp) const;
  /// XOR of the bases selected by the set bits of `index` along `d`.
  Coord applyOne(InDim d, unsigned index) const;

  /// Lane (warp) bits whose basis is zero: threads differing only in those
  /// bits hold the same elements.
  unsigned replicatedMask(InDim d) const;
  /// Registers that replicate a lower-numbered register (a zero register
  /// basis bit is set); such registers are skipped by stores.
  bool isReplicaReg(unsigned reg) const;

  /// The layout of the tile with dimension `dim` removed (a reduction's
  /// result): bases lose that coordinate, and register bits that only moved
  /// along it are dropped, so every remaining register is distinct.
  LinearLayout sliceDim(unsigned dim) const;
  /// Register indices of the source layout that survive `sliceDim(dim)`,
  /// in the order of the result's registers: result register i is source
  /// register keptRegs[i].
  std::vector<unsigned> sliceKeptRegs(unsigned dim) const;
  /// Insert a dimension of size 1 at `dim` (expand_dims).
  LinearLayout expandDim(unsigned dim) const;
  /// Permute dimensions: result dimension i is source dimension perm[i].
  LinearLayout transpose(const std::vector<unsigned> &perm) const;
  /// The same map read through a row-major reshape to `newShape`.
  LinearLayout reshape(const std::vector<int64_t> &newShape) const;
  /// Broadcast dimensions of size 1 to the sizes of `newShape`: the new
  /// coordinate bits go first to replicated lane/warp bits, then to new
  /// register bits (appended after the existing ones).
  LinearLayout broadcastTo(const std::vector<int64_t> &newShape) const;
  /// The layout of a source of `shape` (1 where this one may be larger)
  /// that, broadcast, gives this one: each register holds the element
  /// this layout holds there, with the broadcast dimensions' coordinates
  /// zeroed.
  LinearLayout projectTo(const std::vector<int64_t> &shape) const;
  /// Whether every coordinate bit of `dim` comes from bits that touch no
  /// other dimension (a reduction along it combines whole rows).
  bool separable(unsigned dim) const;
  /// Whether a scan along `dim` runs in this layout as it is: every
  /// coordinate bit of `dim` comes from exactly one register, lane or warp
  /// bit whose basis moves along `dim` alone, and from the lowest
  /// coordinate bit up those bits are registers, then lanes, then warps,
  /// then registers again (as in every blocked layout).
  bool scansInOrder(unsigned dim) const;
  /// Append a register bit mapping to `basis` (join and cat use this).
  LinearLayout withExtraRegBit(const std::vector<int64_t> &newShape,
                               const Coord &basis) const;

  /// The source register holding, in `src`, the element that `dst` places
  /// in register r of the same thread, with broadcast dimensions (those
  /// where src has size 1 and dst does not) projected to 0. Empty when the
  /// conversion needs other threads' data.
  static std::optional<std::vector<unsigned>>
  threadLocalMap(const LinearLayout &src, const LinearLayout &dst);

  /// Number of consecutive registers (starting at register 0 and at every
  /// multiple) that hold consecutive elements along `dim`: the widest
  /// vector a thread can move in one access.
  unsigned contiguousRegs(unsigned dim) const;
  /// For each run of `pack` (a power of two) consecutive row-major elements
  /// of the tile, the registers holding it, in element order; none when
  /// some run is split between threads. Replica registers are left out.
  std::optional<std::vector<std::vector<unsigned>>> packedRuns(unsigned pack) const;

  bool operator==(const LinearLayout &o) const {
    return shape_ == o.shape_ && bases_[0] == o.bases_[0] &&
           bases_[1] == o.bases_[1] && bases_[2] == o.bases_[2];
  }
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }

  /// e.g. `linear<[64, 32] reg=[[0,1],[0,2]] lane=[...] warp=[...]>`.
  std::string str() const;

private:
  std::vector<int64_t> shape_;
  std::vector<Coord> bases_[3];
};

/// Row-major linear index of `c` in `shape`.
int64_t linearIndex(const Coord &c, const std::vector<int64_t> &shape);
/// Inverse of linearIndex.
Coord delinearize(int64_t index, const std::vector<int64_t> &shape);

} // namespace tritium::codegen

#endif

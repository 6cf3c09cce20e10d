//===- LinearLayoutTest.cpp - the layout algebra of codegen ---------------===//
//
// Layouts are checked by enumeration: every (register, lane, warp) is mapped
// and the resulting element sets are compared with what Triton's blocked
// layouts, slices, broadcasts and reshapes must hold.
//
//===----------------------------------------------------------------------===//
#include "codegen/layouts/LinearLayout.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <tuple>

using namespace tritium::codegen;

namespace {
/// element -> number of (reg, lane, warp) holding it.
std::map<Coord, int> coverage(const LinearLayout &l) {
  std::map<Coord, int> m;
  for (unsigned w = 0; w < l.numWarps(); ++w)
    for (unsigned t = 0; t < l.numLanes(); ++t)
      for (unsigned r = 0; r < l.numRegs(); ++r)
        ++m[l.apply(r, t, w)];
  return m;
}
} // namespace

TEST_CASE("blocked layout places elements like Triton's", "[layout]") {
  // sizePerThread [1,4], threadsPerWarp [8,4], warpsPerCTA [2,2], order [1,0]
  // on a 32x32 tile: the CTA covers 16x32, so dim 0 repeats twice.
  auto l = LinearLayout::blocked({32, 32}, {1, 4}, {8, 4}, {2, 2}, {1, 0});
  CHECK(l.numRegs() == 8);
  CHECK(l.numLanes() == 32);
  CHECK(l.numWarps() == 4);
  CHECK(l.apply(0, 0, 0) == Coord{0, 0});
  CHECK(l.apply(3, 0, 0) == Coord{0, 3});
  CHECK(l.apply(0, 1, 0) == Coord{0, 4});  // lane 1: next 4 columns
  CHECK(l.apply(0, 4, 0) == Coord{1, 0});  // lane 4: next row
  CHECK(l.apply(0, 0, 1) == Coord{0, 16}); // warp 1: right half
  CHECK(l.apply(0, 0, 2) == Coord{8, 0});  // warp 2: rows 8..15
  CHECK(l.apply(4, 0, 0) == Coord{16, 0}); // the repeat
  auto cov = coverage(l);
  CHECK(cov.size() == 32 * 32);
  for (auto &[c, n] : cov)
    CHECK(n == 1);
  CHECK(l.contiguousRegs(1) == 4);
  CHECK(l.replicatedMask(LinearLayout::Lane) == 0);
}

TEST_CASE("a tile smaller than the CTA is replicated", "[layout]") {
  auto l = LinearLayout::defaultFor({16}, 4, 32);
  auto cov = coverage(l);
  CHECK(cov.size() == 16);
  for (auto &[c, n] : cov)
    CHECK(n == 128 * int(l.numRegs()) / 16);
  CHECK(l.replicatedMask(LinearLayout::Warp) == 3);
}

TEST_CASE("default layouts cover every element once when large enough",
          "[layout]") {
  for (auto shape : std::vector<std::vector<int64_t>>{
           {1024}, {64, 64}, {128, 32}, {2, 8, 64}, {1, 512}, {512, 1}})
    for (unsigned warps : {1u, 4u, 8u}) {
      auto l = LinearLayout::defaultFor(shape, warps, 32);
      auto cov = coverage(l);
      int64_t n = l.numElements();
      CHECK(int64_t(cov.size()) == n);
      int copies = int(l.numRegs() * l.numLanes() * l.numWarps() / n);
      for (auto &[c, k] : cov)
        CHECK(k == copies);
    }
}

TEST_CASE("slice drops the reduced axis and its registers", "[layout]") {
  auto l = LinearLayout::defaultFor({64, 64}, 4, 32);
  auto s = l.sliceDim(1);
  CHECK(s.shape() == std::vector<int64_t>{64});
  std::set<Coord> held;
  for (unsigned w = 0; w < s.numWarps(); ++w)
    for (unsigned t = 0; t < s.numLanes(); ++t)
      for (unsigned r = 0; r < s.numRegs(); ++r)
        held.insert(s.apply(r, t, w));
  CHECK(held.size() == 64);
  // Each kept register is the source register with the axis bits cleared,
  // and holds the same row.
  auto kept = l.sliceKeptRegs(1);
  REQUIRE(kept.size() == s.numRegs());
  for (unsigned i = 0; i < kept.size(); ++i) {
    CHECK(l.applyOne(LinearLayout::Reg, kept[i])[1] == 0);
    CHECK(l.applyOne(LinearLayout::Reg, kept[i])[0] ==
          s.applyOne(LinearLayout::Reg, i)[0]);
  }
}

TEST_CASE("a reduction broadcast back needs no data movement", "[layout]") {
  auto l = LinearLayout::defaultFor({64, 64}, 4, 32);
  auto back = l.sliceDim(1).expandDim(1);
  auto map = LinearLayout::threadLocalMap(back, l);
  REQUIRE(map);
  for (unsigned r = 0; r < l.numRegs(); ++r)
    CHECK(back.applyOne(LinearLayout::Reg, (*map)[r])[0] ==
          l.applyOne(LinearLayout::Reg, r)[0]);
  // A transposed layout is not reachable inside the thread.
  auto t = LinearLayout::defaultFor({64, 64}, 4, 32).transpose({1, 0});
  CHECK_FALSE(LinearLayout::threadLocalMap(t, l));
}

TEST_CASE("broadcastTo fills replicated lanes before registers", "[layout]") {
  auto row = LinearLayout::defaultFor({32}, 4, 32).expandDim(0); // [1, 32]
  auto b = row.broadcastTo({16, 32});
  auto cov = coverage(b);
  CHECK(cov.size() == 16 * 32);
  REQUIRE(LinearLayout::threadLocalMap(row, b));
}

TEST_CASE("reshape and transpose keep each element with its thread",
          "[layout]") {
  auto l = LinearLayout::defaultFor({16, 64}, 4, 32);
  auto r = l.reshape({1024});
  auto t = l.transpose({1, 0});
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned reg = 0; reg < l.numRegs(); ++reg) {
        Coord c = l.apply(reg, lane, w);
        CHECK(r.apply(reg, lane, w) == Coord{c[0] * 64 + c[1]});
        CHECK(t.apply(reg, lane, w) == Coord{c[1], c[0]});
      }
}

TEST_CASE("axisInThread puts a whole axis in each thread", "[layout]") {
  auto l = LinearLayout::axisInThread({8, 32}, 1, 4);
  for (int k : {1, 2})
    for (const Coord &c : l.bases(LinearLayout::InDim(k)))
      CHECK(c[1] == 0);
  auto cov = coverage(l);
  CHECK(cov.size() == 8 * 32);
}

TEST_CASE("scansInOrder: registers, lanes, warps, registers along the axis", "[layout]") {
  // Blocked layouts always scan in place along either axis.
  auto l = LinearLayout::defaultFor({1024}, 4, 32); // 4 per thread, two chunks
  CHECK(l.scansInOrder(0));
  auto m = LinearLayout::defaultFor({16, 128}, 4, 32);
  CHECK(m.scansInOrder(0));
  CHECK(m.scansInOrder(1));
  CHECK(LinearLayout::mmaAccumulator(64, 64, 4, 1).scansInOrder(1));
  // A lane bit above a warp bit along the axis does not.
  CHECK(LinearLayout({64}, {{1}}, {{2}, {4}, {8}, {16}, {32}}, {}).scansInOrder(0));
  CHECK_FALSE(LinearLayout({8}, {}, {{1}, {4}}, {{2}}).scansInOrder(0));
  // Nor does a register bit between lane bits, or two bits on one
  // coordinate bit (XOR-combined).
  CHECK_FALSE(LinearLayout({8}, {{2}}, {{1}, {4}}, {}).scansInOrder(0));
  CHECK_FALSE(LinearLayout({4}, {{1}, {3}}, {}, {}).scansInOrder(0));
  // A basis that moves along another dimension as well is not separable.
  CHECK_FALSE(LinearLayout({2, 2}, {{1, 1}}, {{0, 1}}, {}).scansInOrder(0));
}

TEST_CASE("linear index round trip", "[layout]") {
  std::vector<int64_t> shape = {4, 8, 2};
  for (int64_t i = 0; i < 64; ++i)
    CHECK(linearIndex(delinearize(i, shape), shape) == i);
}

TEST_CASE("mma.sync fragments: accumulator and operand A as PTX places them",
          "[layout]") {
  // One 16x16 tile per warp: PTX's m16n8k16 fragments, group g = lane / 4,
  // thread-in-group t = lane % 4.
  auto acc = LinearLayout::mmaAccumulator(16, 8, 1, 1);
  auto a = LinearLayout::mmaOperandA(16, 16, 1, 1);
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    // c0..c3: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
    CHECK(acc.apply(0, lane, 0) == Coord{g, 2 * t});
    CHECK(acc.apply(1, lane, 0) == Coord{g, 2 * t + 1});
    CHECK(acc.apply(2, lane, 0) == Coord{g + 8, 2 * t});
    CHECK(acc.apply(3, lane, 0) == Coord{g + 8, 2 * t + 1});
    // a0..a7: rows g, g+8; columns 2t, 2t+1 then 2t+8, 2t+9.
    CHECK(a.apply(0, lane, 0) == Coord{g, 2 * t});
    CHECK(a.apply(1, lane, 0) == Coord{g, 2 * t + 1});
    CHECK(a.apply(2, lane, 0) == Coord{g + 8, 2 * t});
    CHECK(a.apply(3, lane, 0) == Coord{g + 8, 2 * t + 1});
    CHECK(a.apply(4, lane, 0) == Coord{g, 2 * t + 8});
    CHECK(a.apply(5, lane, 0) == Coord{g, 2 * t + 9});
    CHECK(a.apply(6, lane, 0) == Coord{g + 8, 2 * t + 8});
    CHECK(a.apply(7, lane, 0) == Coord{g + 8, 2 * t + 9});
  }
  // Larger tiles: each element once (warps along N replicate A).
  auto big = LinearLayout::mmaAccumulator(128, 64, 4, 2);
  for (auto &[c, n] : coverage(big))
    CHECK(n == 1);
  CHECK(coverage(big).size() == 128 * 64);
  auto bigA = LinearLayout::mmaOperandA(128, 64, 4, 2);
  CHECK(coverage(bigA).size() == 128 * 64);
  for (auto &[c, n] : coverage(bigA))
    CHECK(n == 2);
  // With every warp along M, a product's accumulator is already the next
  // product's operand A (attention's P @ V): no data moves.
  auto chain = LinearLayout::threadLocalMap(LinearLayout::mmaAccumulator(128, 64, 8, 1),
                                            LinearLayout::mmaOperandA(128, 64, 8, 1));
  REQUIRE(chain);
  for (unsigned r = 0; r < chain->size(); ++r)
    CHECK((*chain)[r] == r);
  CHECK_FALSE(LinearLayout::threadLocalMap(LinearLayout::mmaAccumulator(128, 64, 4, 2),
                                           LinearLayout::mmaOperandA(128, 64, 4, 2)));
}

TEST_CASE("MFMA accumulators: v_mfma_f32_32x32x8 and 16x16x16 as the CDNA ISA places them", "[layout]") {
  // One 32x32 block per wave of 64 lanes: D[i][j] with j = lane % 32 and
  // i = 8 * (r / 4) + 4 * (lane / 32) + r % 4 for register r < 16.
  auto acc = LinearLayout::mfmaAccumulator(32, 32, 1, 1);
  REQUIRE(acc.numRegs() == 16);
  REQUIRE(acc.numLanes() == 64);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < 16; ++r)
      CHECK(acc.apply(r, lane, 0) ==
            Coord{int64_t(8 * (r / 4) + 4 * (lane / 32) + r % 4), int64_t(lane % 32)});
  // v_mfma_f32_16x16x16: D[4 * (lane / 16) + r][lane % 16], r < 4.
  auto acc16 = LinearLayout::mfmaAccumulator(16, 16, 1, 1, 16);
  REQUIRE(acc16.numRegs() == 4);
  REQUIRE(acc16.numLanes() == 64);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < 4; ++r)
      CHECK(acc16.apply(r, lane, 0) == Coord{int64_t(4 * (lane / 16) + r), int64_t(lane % 16)});
  for (auto &[c, n] : coverage(LinearLayout::mfmaAccumulator(64, 64, 2, 4, 16)))
    CHECK(n == 1);
  // Waves tile M first, then N; registers repeat over N, then M: register
  // 16 * (nt + NT * mt) + r is block (mt, nt) of the wave's.
  auto big = LinearLayout::mfmaAccumulator(128, 128, 2, 2);
  CHECK(big.numRegs() == 16 * 2 * 2);
  for (auto &[c, n] : coverage(big))
    CHECK(n == 1);
  CHECK(coverage(big).size() == 128 * 128);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned mt = 0; mt < 2; ++mt)
      for (unsigned nt = 0; nt < 2; ++nt) {
        Coord c = big.apply(16 * (nt + 2 * mt), 0, w);
        CHECK(c == Coord{int64_t(32 * ((w % 2) + 2 * mt)), int64_t(32 * ((w / 2) + 2 * nt))});
      }
}

TEST_CASE("MFMA accumulators transposed: each block of the product B^T A^T", "[layout]") {
  // With the operands swapped the instruction computes C^T block by block:
  // the register and lane that hold C[i][j] in the plain layout hold
  // C[j][i] within the same block, blocks in place.
  for (unsigned block : {32u, 16u})
    for (auto [M, N, wm, wn] : {std::tuple{128, 128, 2u, 2u}, std::tuple{64, 256, 1u, 4u},
                                std::tuple{256, 64, 4u, 1u}}) {
      auto plain = LinearLayout::mfmaAccumulator(M, N, wm, wn, block);
      auto t = LinearLayout::mfmaAccumulator(M, N, wm, wn, block, true);
      REQUIRE(t.numRegs() == plain.numRegs());
      for (unsigned w = 0; w < wm * wn; ++w)
        for (unsigned lane = 0; lane < 64; ++lane)
          for (unsigned r = 0; r < plain.numRegs(); ++r) {
            Coord p = plain.apply(r, lane, w), c = t.apply(r, lane, w);
            int64_t b = block;
            CHECK(c == Coord{p[0] - p[0] % b + p[1] % b, p[1] - p[1] % b + p[0] % b});
          }
      for (auto &[c, n] : coverage(t))
        CHECK(n == 1);
    }
  // 32x32 blocks: a lane's registers 0..3 are four consecutive columns of
  // its row (lane % 32), so an fp16 store moves 8 bytes at a time.
  auto acc = LinearLayout::mfmaAccumulator(32, 32, 1, 1, 32, true);
  CHECK(acc.contiguousRegs(1) == 4);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < 16; ++r)
      CHECK(acc.apply(r, lane, 0) ==
            Coord{int64_t(lane % 32), int64_t(8 * (r / 4) + 4 * (lane / 32) + r % 4)});
}

TEST_CASE("MFMA operand A in registers: a transposed accumulator feeds the next product",
          "[layout]") {
  // v_mfma_f32_32x32x8: lane % 32 is A's row, lane / 32 the k group of four;
  // registers 4s..4s+3 are k = 8s + 4 * (lane / 32) + 0..3 of step s.
  auto a = LinearLayout::mfmaOperandA(32, 32, 1, 1, 32);
  REQUIRE(a.numRegs() == 16);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < 16; ++r)
      CHECK(a.apply(r, lane, 0) ==
            Coord{int64_t(lane % 32), int64_t(8 * (r / 4) + 4 * (lane / 32) + r % 4)});
  // v_mfma_f32_16x16x16: lane % 16 the row, lane / 16 the k group of four.
  auto a16 = LinearLayout::mfmaOperandA(16, 32, 1, 1, 16);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < a16.numRegs(); ++r)
      CHECK(a16.apply(r, lane, 0) ==
            Coord{int64_t(lane % 16), int64_t(16 * (r / 4) + 4 * (lane / 16) + r % 4)});
  // The scores of Q K^T (waves on M) are P's fragments for P V in place.
  CHECK(LinearLayout::mfmaOperandA(128, 64, 4, 1) ==
        LinearLayout::mfmaAccumulator(128, 64, 4, 1, 32, true));
  // Waves along N of the second product hold replicas of A.
  auto rep = LinearLayout::mfmaOperandA(64, 64, 2, 2);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned lane = 0; lane < 64; ++lane)
      CHECK(rep.apply(0, lane, w) == rep.apply(0, lane, w % 2));
  for (auto &[c, n] : coverage(rep))
    CHECK(n == 2);
}

TEST_CASE("wgmma accumulator: four warps of 16 rows per m64, warpgroups on M then N",
          "[layout]") {
  // One warpgroup, m64n32: warp w holds rows 16w.., each n8 step is an
  // m16n8 accumulator, registers 4j..4j+3 for columns 8j..8j+7.
  auto acc = LinearLayout::wgmmaAccumulator(64, 32, 1, 1);
  CHECK(acc.numRegs() == 16);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned lane = 0; lane < 32; ++lane) {
      int64_t g = lane / 4, t = lane % 4;
      for (int64_t j = 0; j < 4; ++j) {
        CHECK(acc.apply(4 * j + 0, lane, w) == Coord{16 * w + g, 8 * j + 2 * t});
        CHECK(acc.apply(4 * j + 1, lane, w) == Coord{16 * w + g, 8 * j + 2 * t + 1});
        CHECK(acc.apply(4 * j + 3, lane, w) == Coord{16 * w + g + 8, 8 * j + 2 * t + 1});
      }
    }
  // Without a split of N it is the mma.sync accumulator with all warps on M.
  CHECK(LinearLayout::wgmmaAccumulator(128, 256, 2, 1) ==
        LinearLayout::mmaAccumulator(128, 256, 8, 1));
  CHECK(LinearLayout::wgmmaAccumulator(256, 64, 2, 1) ==
        LinearLayout::mmaAccumulator(256, 64, 8, 1));
  // Two warpgroups over N on an m64 tile: contiguous halves of N.
  auto split = LinearLayout::wgmmaAccumulator(64, 128, 1, 2);
  CHECK(split.apply(0, 0, 4) == Coord{0, 64});
  CHECK(split.apply(4 * 7 + 1, 3, 4) == Coord{8 * 0 + 0, 64 + 56 + 7});
  for (auto &[c, n] : coverage(split))
    CHECK(n == 1);
  CHECK(coverage(split).size() == 64 * 128);
  // Repeats over M: warpgroup g's second m64 step starts 64 * wgm rows on.
  auto rep = LinearLayout::wgmmaAccumulator(256, 16, 2, 1);
  CHECK(rep.apply(8, 0, 0) == Coord{128, 0});
  CHECK(rep.apply(0, 0, 4) == Coord{64, 0});
}

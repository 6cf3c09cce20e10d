//===- SharedLayoutTest.cpp - tiles in shared memory ----------------------===//
//
// The swizzled form is checked against the rule the hardware applies (16-byte
// chunk index XOR row within the 8-row atom, for 128-byte rows) and for
// being a bijection; its LinearLayout view against byteOffset.
//
//===----------------------------------------------------------------------===//
#include "codegen/layouts/SharedLayout.h"

#include <catch2/catch.hpp>

#include <set>

using namespace tritium::codegen;

TEST_CASE("swizzle width follows the row's bytes", "[layout]") {
  CHECK(SharedLayout::swizzleFor(64, 64, 2) == 128u);
  CHECK(SharedLayout::swizzleFor(64, 256, 2) == 128u);
  CHECK(SharedLayout::swizzleFor(64, 32, 2) == 64u);
  CHECK(SharedLayout::swizzleFor(64, 16, 2) == 32u);
  CHECK(SharedLayout::swizzleFor(64, 8, 2) == std::nullopt); // 16-byte rows
  CHECK(SharedLayout::swizzleFor(4, 64, 2) == std::nullopt); // under one atom
  CHECK(SharedLayout::swizzleFor(64, 48, 2) == std::nullopt);
  // 8-byte elements: rows padded to 4 mod 16 elements (fp64 fragments).
  for (int64_t cols : {4, 16, 32, 64}) {
    auto l = SharedLayout::best(32, cols, 8, 8);
    CHECK(!l.isSwizzled());
    CHECK((cols + l.pad) % 16 == 4);
  }
  auto p = SharedLayout::best(64, 8, 2, 8);
  CHECK_FALSE(p.isSwizzled());
  CHECK(p.byteOffset(3, 5) == (3 * 16 + 5) * 2);
}

TEST_CASE("128-byte swizzle: chunk XOR row, column blocks one after the other",
          "[layout]") {
  // [64, 256] fp16: four blocks of 64 columns, 64 rows x 128 bytes each.
  auto l = SharedLayout::swizzled(64, 256, 2, 128);
  CHECK(l.blockBytes() == 8192);
  CHECK(l.bytes() == 64 * 256 * 2);
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 256; c += 8) {
      int64_t chunk = (c % 64) / 8;
      CHECK(l.byteOffset(r, c) == (c / 64) * 8192 + r * 128 + ((chunk ^ (r % 8)) * 16));
      CHECK(l.byteOffset(r, c + 3) == l.byteOffset(r, c) + 6); // chunks stay whole
    }
  // Eight rows at one column: eight distinct 16-byte bank groups.
  std::set<int64_t> banks;
  for (int64_t r = 0; r < 8; ++r)
    banks.insert((l.byteOffset(r, 16) % 128) / 16);
  CHECK(banks.size() == 8);
}

TEST_CASE("every swizzle is a bijection and linear", "[layout]") {
  for (unsigned s : {32u, 64u, 128u})
    for (unsigned eb : {1u, 2u, 4u}) {
      int64_t cols = 2 * s / eb, rows = 16;
      auto l = SharedLayout::swizzled(rows, cols, eb, s);
      std::set<int64_t> seen;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          int64_t o = l.byteOffset(r, c);
          CHECK(o % eb == 0);
          CHECK(o < l.bytes());
          seen.insert(o);
        }
      CHECK(int64_t(seen.size()) == rows * cols);
      // The LinearLayout view maps each element index back to its place.
      LinearLayout lin = l.toLinear();
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          CHECK(lin.apply(unsigned(l.byteOffset(r, c) / eb), 0, 0) == Coord{r, c});
    }
}

namespace {
/// The byte offset of (reg, lane, warp) of `from` in `l`, directly.
int64_t offsetIn(const SharedLayout &l, const LinearLayout &from, unsigned reg,
                 unsigned lane, unsigned warp, bool transposed) {
  Coord c = from.apply(reg, lane, warp);
  if (transposed)
    return l.byteOffset(c[1], c[0]);
  int64_t lin = 0;
  for (unsigned d = 0; d < from.rank(); ++d)
    lin = lin * from.shape()[d] + c[d];
  return l.byteOffset(lin / from.shape().back(), lin % from.shape().back());
}

/// Checks registerTerm against the direct offsets of every element; returns
/// how many registers came out as a plain add.
unsigned checkTerms(const SharedLayout &l, const LinearLayout &from, bool transposed) {
  unsigned adds = 0;
  for (unsigned r = 0; r < from.numRegs(); ++r) {
    SharedLayout::RegisterTerm t = l.registerTerm(from, r, transposed);
    if (t.kind == SharedLayout::RegisterTerm::None)
      continue;
    adds += t.kind == SharedLayout::RegisterTerm::Add;
    for (unsigned w = 0; w < from.numWarps(); ++w)
      for (unsigned ln = 0; ln < from.numLanes(); ++ln) {
        int64_t base = offsetIn(l, from, 0, ln, w, transposed);
        int64_t want = offsetIn(l, from, r, ln, w, transposed);
        int64_t got = t.kind == SharedLayout::RegisterTerm::Add ? base + t.constant
                                                                 : base ^ t.constant;
        if (got != want) {
          FAIL_CHECK("reg " << r << " lane " << ln << " warp " << w << " in "
                            << l.str() << ": " << got << " != " << want);
          return adds;
        }
      }
  }
  return adds;
}
} // namespace

TEST_CASE("a register's shared offset is its thread's base plus or XOR a constant",
          "[layout]") {
  // The copies of a 128x64 fp16 operand tile (16 bytes per thread, rows
  // apart by the CTA's 32 rows) into a 128-byte swizzle: every register is
  // the thread's base plus a constant (one address, immediates).
  auto copyA = LinearLayout::blocked({128, 64}, {1, 8}, {4, 8}, {8, 1}, {1, 0});
  auto sw128 = SharedLayout::swizzled(128, 64, 2, 128);
  CHECK(checkTerms(sw128, copyA, false) == copyA.numRegs());
  // A 64x256 tile copied into 64-column blocks.
  auto copyB = LinearLayout::blocked({64, 256}, {1, 8}, {1, 32}, {8, 1}, {1, 0});
  auto swB = SharedLayout::swizzled(64, 256, 2, 128);
  CHECK(checkTerms(swB, copyB, false) == copyB.numRegs());
  // Layouts whose registers move inside the swizzled chunk bits: XOR terms,
  // still exact.
  for (unsigned s : {32u, 64u, 128u})
    for (auto from : {LinearLayout::mmaAccumulator(64, 64, 2, 2),
                      LinearLayout::wgmmaAccumulator(128, 64, 2, 1),
                      LinearLayout::blocked({64, 64}, {2, 2}, {8, 4}, {2, 2}, {0, 1}),
                      LinearLayout::defaultFor({64, 64}, 4, 16)}) {
      int64_t rows = from.shape()[0], cols = from.shape()[1];
      checkTerms(SharedLayout::swizzled(rows, cols, 2, s), from, false);
      checkTerms(SharedLayout::swizzled(cols, rows, 2, s), from, true);
    }
  // Padded rows: adds where the register's bits are apart from the
  // thread's; rank 3 flattened to rows.
  for (unsigned pad : {0u, 8u})
    for (auto from : {LinearLayout::mmaAccumulator(64, 32, 2, 2),
                      LinearLayout::blocked({32, 32}, {1, 4}, {4, 8}, {4, 1}, {1, 0}),
                      LinearLayout::defaultFor({4, 16, 32}, 4, 32)}) {
      int64_t cols = from.shape().back();
      auto l = SharedLayout::padded(from.numElements() / cols, cols, 4, pad);
      CHECK(checkTerms(l, from, false) > 0);
    }
}

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

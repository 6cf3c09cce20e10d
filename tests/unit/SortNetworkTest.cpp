//===- SortNetworkTest.cpp - the sorting network of tile.sort on the GPU --===//
//
// The GPU sort runs the compare-exchange steps of codegen's sortingNetwork
// on each thread's registers. The steps are run here on arrays: every 0/1
// input up to 16 elements (by the 0-1 principle a network that sorts those
// sorts everything) and random inputs of longer lengths, with a total order
// of (value, original position) as the float keys use, which must give the
// result of a stable sort.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace tritium::codegen {
std::vector<std::pair<unsigned, unsigned>> sortingNetwork(unsigned n);
} // namespace tritium::codegen

using tritium::codegen::sortingNetwork;

TEST_CASE("sorting network sorts every 0/1 input", "[sort]") {
  for (unsigned n = 1; n <= 16; n *= 2) {
    auto steps = sortingNetwork(n);
    for (auto [i, j] : steps)
      REQUIRE((i < j && j < n));
    for (uint32_t bits = 0; bits < (1u << n); ++bits) {
      std::vector<int> v(n);
      for (unsigned i = 0; i < n; ++i)
        v[i] = bits >> i & 1;
      for (auto [i, j] : steps)
        if (v[j] < v[i])
          std::swap(v[i], v[j]);
      REQUIRE(std::is_sorted(v.begin(), v.end()));
    }
  }
}

TEST_CASE("sorting network with position tie-breaks is a stable sort",
          "[sort]") {
  std::mt19937 rng(7);
  for (unsigned n = 2; n <= 1024; n *= 2) {
    auto steps = sortingNetwork(n);
    for (int trial = 0; trial < 20; ++trial) {
      // Few distinct values, so ties are common.
      std::uniform_int_distribution<int> dist(0, int(n / 4) + 1);
      std::vector<std::pair<int, unsigned>> v(n);
      for (unsigned i = 0; i < n; ++i)
        v[i] = {dist(rng), i};
      auto expect = v;
      std::stable_sort(expect.begin(), expect.end(),
                       [](auto &a, auto &b) { return a.first < b.first; });
      for (auto [i, j] : steps)
        if (v[j] < v[i])
          std::swap(v[i], v[j]);
      REQUIRE(v == expect);
    }
  }
}

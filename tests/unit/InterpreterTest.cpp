//===- InterpreterTest.cpp - the CPU interpreter against references ------===//
//
// Kernels written as tile IR text (and two examples through the frontend)
// run on small host buffers; expected values are computed independently
// here in double or exact integer arithmetic.
//
//===----------------------------------------------------------------------===//
#include "InterpreterTestUtil.h"

#include <Eigen/Core>
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

using namespace tritium::interp;
using namespace tritium::interp::test;

namespace {

LaunchOptions grid(int64_t x, int64_t y = 1, int64_t z = 1) {
  LaunchOptions o;
  o.grid = {x, y, z};
  return o;
}

// out[i] = OP(a[i], b[i]) over 8 lanes of type T.
std::string binaryKernel(const std::string &op, const std::string &ty,
                         const std::string &rty = "") {
  std::string r = rty.empty() ? ty : rty;
  return R"(
func.func @k(%a: !tile.ptr<)" + ty + R"(>, %b: !tile.ptr<)" + ty +
         R"(>, %o: !tile.ptr<)" + r + R"(>) attributes {tile.kernel} {
  %r = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %pa = tile.splat %a : tensor<8x!tile.ptr<)" + ty + R"(>>
  %pa2 = tile.addptr %pa, %r : tensor<8x!tile.ptr<)" + ty + R"(>>, tensor<8xi32>
  %pb = tile.splat %b : tensor<8x!tile.ptr<)" + ty + R"(>>
  %pb2 = tile.addptr %pb, %r : tensor<8x!tile.ptr<)" + ty + R"(>>, tensor<8xi32>
  %po = tile.splat %o : tensor<8x!tile.ptr<)" + r + R"(>>
  %po2 = tile.addptr %po, %r : tensor<8x!tile.ptr<)" + r + R"(>>, tensor<8xi32>
  %x = tile.load %pa2 : tensor<8x!tile.ptr<)" + ty + R"(>>
  %y = tile.load %pb2 : tensor<8x!tile.ptr<)" + ty + R"(>>
  %z = )" + op + R"( %x, %y : tensor<8x)" + ty + R"(>
  tile.store %po2, %z : tensor<8x!tile.ptr<)" + r + R"(>>
  return
}
)";
}

} // namespace

TEST_CASE("integer arithmetic: signed vs unsigned, C-style division",
          "[interp]") {
  std::vector<int32_t> a = {7, -7, 7, -7, INT32_MIN, 100, -1, 5};
  std::vector<int32_t> b = {2, 2, -2, -2, -1, 7, 3, 3};
  std::vector<int32_t> o(8);
  auto run = [&](const std::string &op) {
    Compiled c = compileIR(binaryKernel(op, "i32"));
    REQUIRE(c.error == "");
    auto err = c.kernel->launch({buf(a, "a"), buf(b, "b"), buf(o, "o")},
                                grid(1));
    REQUIRE(!err);
  };
  run("arith.divsi");
  for (int i = 0; i < 8; ++i) {
    int64_t exp = (a[i] == INT32_MIN && b[i] == -1) ? INT32_MIN
                                                     : int64_t(a[i]) / b[i];
    CHECK(o[i] == exp);
  }
  run("arith.remsi");
  for (int i = 0; i < 8; ++i)
    CHECK(o[i] == ((a[i] == INT32_MIN && b[i] == -1) ? 0 : a[i] % b[i]));
  run("arith.divui");
  for (int i = 0; i < 8; ++i)
    CHECK(uint32_t(o[i]) == uint32_t(a[i]) / uint32_t(b[i]));
  // Shift amounts >= 32 (here -2 as unsigned) behave as the GPU's:
  // shr.u gives 0, shr.s fills with the sign.
  run("arith.shrsi");
  for (int i = 0; i < 8; ++i)
    CHECK(o[i] == (b[i] >= 0 ? a[i] >> b[i] : (a[i] < 0 ? -1 : 0)));
  run("arith.shrui");
  for (int i = 0; i < 8; ++i)
    CHECK(uint32_t(o[i]) == (b[i] >= 0 ? uint32_t(a[i]) >> b[i] : 0u));
  run("arith.muli");
  for (int i = 0; i < 8; ++i)
    CHECK(uint32_t(o[i]) == uint32_t(a[i]) * uint32_t(b[i]));
  run("arith.maxui");
  for (int i = 0; i < 8; ++i)
    CHECK(uint32_t(o[i]) == std::max(uint32_t(a[i]), uint32_t(b[i])));
  run("arith.minsi");
  for (int i = 0; i < 8; ++i)
    CHECK(o[i] == std::min(a[i], b[i]));
}

TEST_CASE("integer division by zero is reported with its lane", "[interp]") {
  std::vector<int32_t> a(8, 1), b(8, 1), o(8);
  b[5] = 0;
  Compiled c = compileIR(binaryKernel("arith.divsi", "i32"));
  auto err = c.kernel->launch({buf(a, "a"), buf(b, "b"), buf(o, "o")},
                              grid(1));
  REQUIRE(err);
  CHECK(err->message.find("integer division by zero in kernel k, program "
                          "(0, 0, 0)") == 0);
  CHECK(err->message.find("lane 5 divides 1 by 0") != std::string::npos);
}

TEST_CASE("fp16 and bf16 arithmetic round per op", "[interp]") {
  using Eigen::half;
  std::vector<half> a(8), b(8), o(8);
  for (int i = 0; i < 8; ++i) {
    a[i] = half(1.0f + i * 0.3333f);
    b[i] = half(0.0009765625f * (i + 1)); // below half's ulp at 1.x
  }
  Compiled c = compileIR(binaryKernel("arith.addf", "f16"));
  REQUIRE(c.error == "");
  REQUIRE(!c.kernel->launch({buf(a, "a"), buf(b, "b"), buf(o, "o")}, grid(1)));
  for (int i = 0; i < 8; ++i)
    CHECK(float(o[i]) == float(half(float(a[i]) + float(b[i]))));
  std::vector<Eigen::bfloat16> x(8), y(8), z(8);
  for (int i = 0; i < 8; ++i) {
    x[i] = Eigen::bfloat16(3.0f + i);
    y[i] = Eigen::bfloat16(1.0f / (i + 3));
  }
  Compiled d = compileIR(binaryKernel("arith.mulf", "bf16"));
  REQUIRE(!d.kernel->launch({buf(x, "a"), buf(y, "b"), buf(z, "o")}, grid(1)));
  for (int i = 0; i < 8; ++i)
    CHECK(float(z[i]) ==
          float(Eigen::bfloat16(float(x[i]) * float(y[i]))));
}

TEST_CASE("float comparisons and NaN rules", "[interp]") {
  float nan = std::nanf("");
  std::vector<float> a = {1, nan, 2, -0.0f, nan, 3, 4, 5};
  std::vector<float> b = {2, 1, 2, 0.0f, nan, nan, 1, 5};
  std::vector<float> o(8);
  Compiled c = compileIR(binaryKernel("arith.maxnumf", "f32"));
  REQUIRE(!c.kernel->launch({buf(a, "a"), buf(b, "b"), buf(o, "o")}, grid(1)));
  CHECK(o[0] == 2);
  CHECK(o[1] == 1);
  CHECK(std::isnan(o[4]));
  CHECK(o[5] == 3);
  Compiled d = compileIR(binaryKernel("arith.maximumf", "f32"));
  REQUIRE(!d.kernel->launch({buf(a, "a"), buf(b, "b"), buf(o, "o")}, grid(1)));
  CHECK(std::isnan(o[1]));
  CHECK(std::isnan(o[5]));
  CHECK(o[3] == 0.0f);
  CHECK(!std::signbit(o[3]));
}

TEST_CASE("vector add with mask: masked lanes untouched", "[interp]") {
  const char *ir = R"(
func.func @k(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c16 = arith.constant 16 : i32
  %pid = tile.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %bs = tile.splat %base : tensor<16xi32>
  %off = arith.addi %bs, %r : tensor<16xi32>
  %ns = tile.splat %n : tensor<16xi32>
  %m = arith.cmpi slt, %off, %ns : tensor<16xi32>
  %px = tile.splat %x : tensor<16x!tile.ptr<f32>>
  %px2 = tile.addptr %px, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %py = tile.splat %y : tensor<16x!tile.ptr<f32>>
  %py2 = tile.addptr %py, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %other = arith.constant dense<100.0> : tensor<16xf32>
  %a = tile.load %px2, %m, %other : tensor<16x!tile.ptr<f32>>
  %b = tile.load %py2, %m : tensor<16x!tile.ptr<f32>>
  %s = arith.addf %a, %b : tensor<16xf32>
  %po = tile.splat %o : tensor<16x!tile.ptr<f32>>
  %po2 = tile.addptr %po, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %po2, %s, %m : tensor<16x!tile.ptr<f32>>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  int n = 37;
  std::vector<float> x(n), y(n), o(48, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = i * 0.5f;
    y[i] = 1000.0f - i;
  }
  // Output buffer registered with only n elements: lanes past n are masked.
  auto err = c.kernel->launch(
      {buf(x, "x"), buf(y, "y"),
       Arg::buffer(o.data(), n * sizeof(float), "o"), Arg::integer(n)},
      grid(3));
  REQUIRE(!err);
  for (int i = 0; i < n; ++i)
    CHECK(o[i] == x[i] + y[i]);
  for (int i = n; i < 48; ++i)
    CHECK(o[i] == -1.0f);
}

TEST_CASE("out-of-bounds load report, word for word", "[interp]") {
  const char *ir = R"(
func.func @add_kernel(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c16 = arith.constant 16 : i32
  %pid = tile.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %bs = tile.splat %base : tensor<16xi32>
  %off = arith.addi %bs, %r : tensor<16xi32>
  %px = tile.splat %x : tensor<16x!tile.ptr<f32>>
  %px2 = tile.addptr %px, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %a = tile.load %px2 : tensor<16x!tile.ptr<f32>> loc("examples/vector_add.py":19:9)
  %po = tile.splat %o : tensor<16x!tile.ptr<f32>>
  %po2 = tile.addptr %po, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %po2, %a : tensor<16x!tile.ptr<f32>>
  return
}
)";
  Compiled c = compileIR(ir, "add_kernel");
  REQUIRE(c.error == "");
  std::vector<float> x(40), o(64);
  for (bool det : {false, true}) {
    LaunchOptions opts = grid(4);
    opts.deterministic = det;
    auto err = c.kernel->launch({buf(x, "x"), buf(o, "o")}, opts);
    REQUIRE(err);
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx",
                  (unsigned long long)(reinterpret_cast<uintptr_t>(x.data()) +
                                       40 * 4));
    // Program 2 is the lowest failing one: its lane 8 is element 40.
    CHECK(err->message ==
          std::string("out-of-bounds load in kernel add_kernel, program (2, "
                      "0, 0), examples/vector_add.py:19: lane 8 reads "
                      "address ") +
              addr + " which is 0 bytes past the end of buffer 'x' (160 bytes)");
  }
}

TEST_CASE("2-D faults name the lane by coordinates, word for word",
          "[interp]") {
  const char *ir = R"(
func.func @k2(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %p = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %q = tile.addptr %p, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %q2 = tile.reshape %q : tensor<32x!tile.ptr<f32>> -> tensor<4x8x!tile.ptr<f32>>
  %a = tile.load %q2 : tensor<4x8x!tile.ptr<f32>> loc("t.py":4:7)
  return
}
)";
  Compiled c = compileIR(ir, "k2");
  REQUIRE(c.error == "");
  std::vector<float> x(19);
  auto err = c.kernel->launch({buf(x, "x")}, grid(1));
  REQUIRE(err);
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx",
                (unsigned long long)(reinterpret_cast<uintptr_t>(x.data()) +
                                     19 * 4));
  CHECK(err->message ==
        std::string("out-of-bounds load in kernel k2, program (0, 0, 0), "
                    "t.py:4: lane (2, 3) reads address ") +
            addr + " which is 0 bytes past the end of buffer 'x' (76 bytes)");
}

TEST_CASE("map_elementwise with branches between blocks is refused cleanly",
          "[interp]") {
  const char *ir = R"(
func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %m = tile.map_elementwise(%r) pack = 1 {
  ^bb0(%a: i32):
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %a, %z : i32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tile.map_elementwise.return %a : i32
  ^bb2:
    tile.map_elementwise.return %z : i32
  } : (tensor<4xi32>) -> tensor<4xi32> loc("t.py":9:5)
  return
}
)";
  Compiled c = compileIR(ir);
  CHECK(!c.kernel);
  CHECK(c.error.find("t.py:9:5: cannot interpret 'tile.map_elementwise' with "
                     "branches between blocks") == 0);
}

TEST_CASE("reduce with custom regions: sum and argmax", "[interp]") {
  const char *ir = R"(
func.func @k(%x: !tile.ptr<f32>, %s: !tile.ptr<f32>, %am: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %px = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %px2 = tile.addptr %px, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %px2 : tensor<64x!tile.ptr<f32>>
  %sum = tile.reduce(%v) axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.reduce.return %t : f32
  } : (tensor<64xf32>) -> f32
  tile.store %s, %sum : !tile.ptr<f32>
  %mv, %mi = tile.reduce(%v, %r) axis = 0 {
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %eq = arith.cmpf oeq, %av, %bv : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %pick = arith.ori %gt, %tie : i1
    %rv = arith.select %pick, %av, %bv : f32
    %ri = arith.select %pick, %ai, %bi : i32
    tile.reduce.return %rv, %ri : f32, i32
  } : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
  tile.store %am, %mi : !tile.ptr<i32>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::vector<float> x(64);
  double ref = 0;
  for (int i = 0; i < 64; ++i) {
    x[i] = float((i * 37) % 23);
    ref += x[i];
  }
  std::vector<float> s(1);
  std::vector<int32_t> am(1);
  REQUIRE(!c.kernel->launch({buf(x, "x"), buf(s, "s"), buf(am, "am")},
                            grid(1)));
  CHECK(s[0] == Approx(ref));
  int best = 0;
  for (int i = 1; i < 64; ++i)
    if (x[i] > x[best])
      best = i;
  CHECK(am[0] == best); // first index among ties
}

TEST_CASE("2-D reduce along each axis and scan (cumsum)", "[interp]") {
  const char *ir = R"(
func.func @k(%x: !tile.ptr<i32>, %rows: !tile.ptr<i32>, %cs: !tile.ptr<i32>) attributes {tile.kernel} {
  %r8 = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %r4 = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %c8 = arith.constant dense<8> : tensor<4x1xi32>
  %e0 = tile.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %e0s = arith.muli %e0, %c8 : tensor<4x1xi32>
  %e1 = tile.expand_dims %r8 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %b0 = tile.broadcast %e0s : tensor<4x1xi32> -> tensor<4x8xi32>
  %b1 = tile.broadcast %e1 : tensor<1x8xi32> -> tensor<4x8xi32>
  %off = arith.addi %b0, %b1 : tensor<4x8xi32>
  %px = tile.splat %x : tensor<4x8x!tile.ptr<i32>>
  %px2 = tile.addptr %px, %off : tensor<4x8x!tile.ptr<i32>>, tensor<4x8xi32>
  %v = tile.load %px2 : tensor<4x8x!tile.ptr<i32>>
  %rs = tile.reduce(%v) axis = 1 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tile.reduce.return %t : i32
  } : (tensor<4x8xi32>) -> tensor<4xi32>
  %pr = tile.splat %rows : tensor<4x!tile.ptr<i32>>
  %pr2 = tile.addptr %pr, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %pr2, %rs : tensor<4x!tile.ptr<i32>>
  %c = tile.scan(%v) axis = 0 reverse = false {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tile.scan.return %t : i32
  } : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %pc = tile.splat %cs : tensor<4x8x!tile.ptr<i32>>
  %pc2 = tile.addptr %pc, %off : tensor<4x8x!tile.ptr<i32>>, tensor<4x8xi32>
  tile.store %pc2, %c : tensor<4x8x!tile.ptr<i32>>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::vector<int32_t> x(32), rows(4), cs(32);
  for (int i = 0; i < 32; ++i)
    x[i] = (i * 7) % 11 - 5;
  REQUIRE(!c.kernel->launch({buf(x, "x"), buf(rows, "rows"), buf(cs, "cs")},
                            grid(1)));
  for (int r = 0; r < 4; ++r) {
    int s = 0;
    for (int j = 0; j < 8; ++j)
      s += x[r * 8 + j];
    CHECK(rows[r] == s);
  }
  for (int j = 0; j < 8; ++j) {
    int s = 0;
    for (int r = 0; r < 4; ++r) {
      s += x[r * 8 + j];
      CHECK(cs[r * 8 + j] == s);
    }
  }
}

namespace {
std::string dotKernel(const std::string &ty, const std::string &acc,
                      const std::string &prec) {
  return R"(
func.func @k(%a: !tile.ptr<)" + ty + R"(>, %b: !tile.ptr<)" + ty +
         R"(>, %o: !tile.ptr<)" + acc + R"(>) attributes {tile.kernel} {
  %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %e0 = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %e0s = arith.muli %e0, %c16 : tensor<16x1xi32>
  %e1 = tile.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %b0 = tile.broadcast %e0s : tensor<16x1xi32> -> tensor<16x16xi32>
  %b1 = tile.broadcast %e1 : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %b0, %b1 : tensor<16x16xi32>
  %pa = tile.splat %a : tensor<16x16x!tile.ptr<)" + ty + R"(>>
  %pa2 = tile.addptr %pa, %off : tensor<16x16x!tile.ptr<)" + ty + R"(>>, tensor<16x16xi32>
  %pb = tile.splat %b : tensor<16x16x!tile.ptr<)" + ty + R"(>>
  %pb2 = tile.addptr %pb, %off : tensor<16x16x!tile.ptr<)" + ty + R"(>>, tensor<16x16xi32>
  %x = tile.load %pa2 : tensor<16x16x!tile.ptr<)" + ty + R"(>>
  %y = tile.load %pb2 : tensor<16x16x!tile.ptr<)" + ty + R"(>>
  %z = arith.constant dense<0> : tensor<16x16x)" + acc + R"(>
  %d = tile.dot %x, %y, %z)" + prec + R"( : tensor<16x16x)" + ty +
         R"(> * tensor<16x16x)" + ty + R"(> -> tensor<16x16x)" + acc + R"(>
  %po = tile.splat %o : tensor<16x16x!tile.ptr<)" + acc + R"(>>
  %po2 = tile.addptr %po, %off : tensor<16x16x!tile.ptr<)" + acc + R"(>>, tensor<16x16xi32>
  tile.store %po2, %d : tensor<16x16x!tile.ptr<)" + acc + R"(>>
  return
}
)";
}

float tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0xfffu + ((u >> 13) & 1u);
  u &= ~0x1fffu;
  std::memcpy(&x, &u, 4);
  return x;
}
} // namespace

TEST_CASE("dot: f32 ieee vs tf32, f16 and i8", "[interp]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> a(256), b(256), ieee(256), t(256);
  for (auto &v : a)
    v = dist(rng);
  for (auto &v : b)
    v = dist(rng);
  std::string zero = "0.0";
  auto fix = [&](std::string s) { // dense<0> -> dense<0.0> for floats
    auto p = s.find("dense<0> : tensor<16x16xf");
    if (p != std::string::npos)
      s.replace(p, 8, "dense<0.0>");
    return s;
  };
  Compiled c1 = compileIR(fix(dotKernel("f32", "f32", ", inputPrecision = ieee")));
  REQUIRE(c1.error == "");
  REQUIRE(!c1.kernel->launch({buf(a, "a"), buf(b, "b"), buf(ieee, "o")}, grid(1)));
  Compiled c2 = compileIR(fix(dotKernel("f32", "f32", ", inputPrecision = tf32")));
  REQUIRE(!c2.kernel->launch({buf(a, "a"), buf(b, "b"), buf(t, "o")}, grid(1)));
  double maxIeee = 0, maxTf = 0, diff = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double r = 0, rt = 0;
      for (int k = 0; k < 16; ++k) {
        r += double(a[i * 16 + k]) * b[k * 16 + j];
        rt += double(tf32(a[i * 16 + k])) * tf32(b[k * 16 + j]);
      }
      maxIeee = std::max(maxIeee, std::fabs(ieee[i * 16 + j] - r));
      maxTf = std::max(maxTf, std::fabs(t[i * 16 + j] - rt));
      diff = std::max(diff, std::fabs(double(t[i * 16 + j]) - ieee[i * 16 + j]));
    }
  CHECK(maxIeee < 1e-5);
  CHECK(maxTf < 1e-5);
  CHECK(diff > 1e-5); // tf32 really differs from ieee

  std::vector<Eigen::half> ha(256), hb(256);
  std::vector<float> ho(256);
  for (int i = 0; i < 256; ++i) {
    ha[i] = Eigen::half(a[i]);
    hb[i] = Eigen::half(b[i]);
  }
  Compiled c3 = compileIR(fix(dotKernel("f16", "f32", "")));
  REQUIRE(c3.error == "");
  REQUIRE(!c3.kernel->launch({buf(ha, "a"), buf(hb, "b"), buf(ho, "o")}, grid(1)));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double r = 0;
      for (int k = 0; k < 16; ++k)
        r += double(float(ha[i * 16 + k])) * float(hb[k * 16 + j]);
      CHECK(std::fabs(ho[i * 16 + j] - r) < 1e-5);
    }

  std::vector<int8_t> ia(256), ib(256);
  std::vector<int32_t> io(256);
  for (int i = 0; i < 256; ++i) {
    ia[i] = int8_t((i * 37) % 255 - 127);
    ib[i] = int8_t((i * 91) % 255 - 127);
  }
  Compiled c4 = compileIR(dotKernel("i8", "i32", ""));
  REQUIRE(c4.error == "");
  REQUIRE(!c4.kernel->launch({buf(ia, "a"), buf(ib, "b"), buf(io, "o")}, grid(1)));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int32_t r = 0;
      for (int k = 0; k < 16; ++k)
        r += int32_t(ia[i * 16 + k]) * ib[k * 16 + j];
      CHECK(io[i * 16 + j] == r);
    }
}

TEST_CASE("atomics under contention across parallel programs", "[interp]") {
  const char *ir = R"(
func.func @k(%c: !tile.ptr<i32>, %f: !tile.ptr<f32>) attributes {tile.kernel} {
  %one = arith.constant 1 : i32
  %old = tile.atomic_rmw add, acq_rel, gpu, %c, %one : !tile.ptr<i32>
  %h = arith.constant 0.5 : f32
  %old2 = tile.atomic_rmw fadd, acq_rel, gpu, %f, %h : !tile.ptr<f32>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::vector<int32_t> counter(1, 0);
  std::vector<float> fsum(1, 0);
  LaunchOptions o = grid(4096);
  o.threads = 4;
  REQUIRE(!c.kernel->launch({buf(counter, "c"), buf(fsum, "f")}, o));
  CHECK(counter[0] == 4096);
  CHECK(fsum[0] == 2048.0f);
}

TEST_CASE("device_print format and assert report", "[interp]") {
  const char *ir = R"(
func.func @k(%n: i32) attributes {tile.kernel} {
  %r = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  tile.print " x: " {hex = false, isSigned = array<i32: 1>} : %r : tensor<4xi32>
  %ns = tile.splat %n : tensor<4xi32>
  %ok = arith.cmpi slt, %r, %ns : tensor<4xi32>
  tile.assert %ok, "r < n" : tensor<4xi1> loc("t.py":7:5)
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::string out;
  REQUIRE(!c.kernel->launch({Arg::integer(4)}, grid(2), &out));
  CHECK(out == "pid (0, 0, 0) idx (0) x: 0\npid (0, 0, 0) idx (1) x: 1\n"
               "pid (0, 0, 0) idx (2) x: 2\npid (0, 0, 0) idx (3) x: 3\n"
               "pid (1, 0, 0) idx (0) x: 0\npid (1, 0, 0) idx (1) x: 1\n"
               "pid (1, 0, 0) idx (2) x: 2\npid (1, 0, 0) idx (3) x: 3\n");
  std::string out2;
  auto err = c.kernel->launch({Arg::integer(2)}, grid(3), &out2);
  REQUIRE(err);
  CHECK(err->message == "device_assert failed in kernel k, program (0, 0, 0), "
                        "t.py:7: lane 2: r < n");
}

TEST_CASE("inline asm is rejected at create time", "[interp]") {
  const char *ir = R"(
func.func @k(%x: i32) attributes {tile.kernel} {
  %y = tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : i32 -> i32 loc("t.py":3:9)
  return
}
)";
  Compiled c = compileIR(ir);
  CHECK(!c.kernel);
  CHECK(c.error.find("t.py:3:9: cannot interpret 'tile.elementwise_inline_asm'") == 0);
}

TEST_CASE("shape ops: trans, join, split, cat, fp8 round trip", "[interp]") {
  const char *ir = R"(
func.func @k(%o: !tile.ptr<i32>, %f: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %m = tile.reshape %r : tensor<8xi32> -> tensor<2x4xi32>
  %t = tile.trans %m {order = array<i32: 1, 0>} : tensor<2x4xi32> -> tensor<4x2xi32>
  %flat = tile.reshape %t : tensor<4x2xi32> -> tensor<8xi32>
  %a, %b = tile.split %t : tensor<4x2xi32> -> tensor<4xi32>
  %j = tile.join %b, %a : tensor<4xi32> -> tensor<4x2xi32>
  %jf = tile.reshape %j : tensor<4x2xi32> -> tensor<8xi32>
  %c = tile.cat %flat, %jf : tensor<8xi32> -> tensor<16xi32>
  %r16 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %po = tile.splat %o : tensor<16x!tile.ptr<i32>>
  %po2 = tile.addptr %po, %r16 : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %po2, %c : tensor<16x!tile.ptr<i32>>
  %pf = tile.splat %f : tensor<8x!tile.ptr<f32>>
  %pf2 = tile.addptr %pf, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %pf2 : tensor<8x!tile.ptr<f32>>
  %e = tile.fp_to_fp %v, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FN>
  %back = tile.fp_to_fp %e : tensor<8xf8E4M3FN> -> tensor<8xf32>
  tile.store %pf2, %back : tensor<8x!tile.ptr<f32>>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::vector<int32_t> o(16);
  std::vector<float> f = {1.0f, 0.3f, 1000.0f, -3.3f, 0.001f, 17.0f, -500.f, 2.5f};
  REQUIRE(!c.kernel->launch({buf(o, "o"), buf(f, "f")}, grid(1)));
  std::vector<int32_t> exp = {0, 4, 1, 5, 2, 6, 3, 7, 4, 0, 5, 1, 6, 2, 7, 3};
  CHECK(o == exp);
  // e4m3fn: 3 mantissa bits, max 448, saturating; 0.3 -> 0.3125 (rtne);
  // 17 is halfway between 16 and 18 -> 16 (even); 0.001 -> 2^-9 (subnormal).
  std::vector<float> fexp = {1.0f, 0.3125f, 448.0f, -3.25f, 0.001953125f,
                             16.0f, -448.0f, 2.5f};
  CHECK(f == fexp);
}

TEST_CASE("scf.for with iter_args and parallel == deterministic", "[interp]") {
  const char *ir = R"(
func.func @k(%o: !tile.ptr<i64>, %n: i32) attributes {tile.kernel} {
  %pid = tile.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) : i32 {
    %p = arith.muli %i, %pid : i32
    %pe = arith.extsi %p : i32 to i64
    %a = arith.addi %acc, %pe : i64
    scf.yield %a : i64
  }
  %po = tile.addptr %o, %pid : !tile.ptr<i64>, i32
  tile.store %po, %s : !tile.ptr<i64>
  return
}
)";
  Compiled c = compileIR(ir);
  REQUIRE(c.error == "");
  std::vector<int64_t> a(64), b(64);
  LaunchOptions p = grid(64), d = grid(64);
  d.deterministic = true;
  REQUIRE(!c.kernel->launch({buf(a, "o"), Arg::integer(10)}, p));
  REQUIRE(!c.kernel->launch({buf(b, "o"), Arg::integer(10)}, d));
  CHECK(a == b);
  for (int i = 0; i < 64; ++i)
    CHECK(a[i] == 45 * i);
}

#ifdef TRITIUM_INTERP_E2E
namespace {
double ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}
} // namespace

TEST_CASE("examples: vector_add and softmax vs double references",
          "[interp][e2e]") {
  std::mt19937 rng(1);
  std::normal_distribution<float> nd;
  {
    Compiled c = compileFile("examples/vector_add.py", "add_kernel",
                                "*fp32:16,*fp32:16,*fp32:16,i32,1024");
    REQUIRE(c.error == "");
    int n = 1 << 20;
    std::vector<float> x(n), y(n), o(n);
    for (int i = 0; i < n; ++i) {
      x[i] = nd(rng);
      y[i] = nd(rng);
    }
    std::vector<Arg> args = {buf(x, "x"), buf(y, "y"), buf(o, "output"),
                             Arg::integer(n)};
    REQUIRE(!c.kernel->launch(args, grid(n / 1024))); // warm-up
    auto t0 = std::chrono::steady_clock::now();
    auto err = c.kernel->launch(args, grid(n / 1024));
    WARN("vector add 2^20: " << ms(t0) << " ms");
    REQUIRE(!err);
    for (int i = 0; i < n; ++i)
      REQUIRE(o[i] == x[i] + y[i]);
  }
  {
    Compiled c = compileFile("examples/softmax.py", "softmax_kernel",
                                "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4");
    REQUIRE(c.error == "");
    int rows = 1024, cols = 1000;
    std::vector<float> x(rows * cols), o(rows * cols);
    for (auto &v : x)
      v = nd(rng);
    std::vector<Arg> args = {buf(o, "output"), buf(x, "input"),
                             Arg::integer(cols), Arg::integer(cols),
                             Arg::integer(rows), Arg::integer(cols)};
    REQUIRE(!c.kernel->launch(args, grid(rows))); // warm-up
    auto t0 = std::chrono::steady_clock::now();
    auto err = c.kernel->launch(args, grid(rows));
    WARN("softmax 1024x1000: " << ms(t0) << " ms");
    REQUIRE(!err);
    double worst = 0;
    for (int r = 0; r < rows; ++r) {
      double mx = -1e300, s = 0;
      for (int j = 0; j < cols; ++j)
        mx = std::max(mx, double(x[r * cols + j]));
      for (int j = 0; j < cols; ++j)
        s += std::exp(double(x[r * cols + j]) - mx);
      for (int j = 0; j < cols; ++j) {
        double ref = std::exp(double(x[r * cols + j]) - mx) / s;
        worst = std::max(worst, std::fabs(o[r * cols + j] - ref) / ref);
      }
    }
    CHECK(worst < 1e-5);
  }
}
#endif

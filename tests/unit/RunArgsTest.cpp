//===- RunArgsTest.cpp - `tritium run` values, specialization, checks -----===//
#include "tools/tritium/RunArgs.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace tritium;
using namespace tritium::run;

namespace {
HostValue value(const std::string &text, uint64_t seed = 0, const std::string &name = "x") {
  HostValue v;
  auto err = parseHostValue(name, text, seed, v);
  INFO(text << ": " << err.value_or(""));
  REQUIRE(!err);
  return v;
}

std::string error(const std::string &text) {
  HostValue v;
  auto err = parseHostValue("x", text, 0, v);
  INFO(text);
  REQUIRE(err);
  return *err;
}
} // namespace

TEST_CASE("run: dtype spellings", "[run]") {
  CHECK(std::string(lookupElemType("fp16")->name) == "f16");
  CHECK(std::string(lookupElemType("float32")->sig) == "fp32");
  CHECK(std::string(lookupElemType("bool")->sig) == "i1");
  CHECK(std::string(lookupElemType("bf16")->npy) == "<u2");
  CHECK(std::string(lookupElemType("fp8e5")->npy) == "|u1");
  CHECK(lookupElemType("c64") == nullptr);
  CHECK(std::string(elemTypeForNpy("<u2")->name) == "u16");
  CHECK(std::string(elemTypeForNpy("|b1")->name) == "bool");
}

TEST_CASE("run: half and bfloat16 conversions round to nearest even", "[run]") {
  CHECK(floatToHalf(1.0f) == 0x3c00);
  CHECK(floatToHalf(-2.0f) == 0xc000);
  CHECK(floatToHalf(65504.0f) == 0x7bff);
  CHECK(floatToHalf(65520.0f) == 0x7c00);
  CHECK(floatToHalf(0.1f) == 0x2e66);
  CHECK(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(floatToHalf(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(floatToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);     // tie -> even
  CHECK(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02); // tie -> even
  CHECK(std::isnan(halfToFloat(floatToHalf(NAN))));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue;
    REQUIRE(floatToHalf(halfToFloat(uint16_t(h))) == h);
    REQUIRE(floatToBf16(bf16ToFloat(uint16_t(h))) == h);
  }
  CHECK(floatToBf16(1.0f) == 0x3f80);
  CHECK(floatToBf16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);
  CHECK(std::isnan(bf16ToFloat(floatToBf16(NAN))));
}

TEST_CASE("run: scalar literals specialize like Triton", "[run]") {
  CHECK(value("42").specialization() == "i32");
  CHECK(value("1").specialization() == "i32:1");
  CHECK(value("1").folded());
  CHECK(value("0").specialization() == "i32:16");
  CHECK(value("98304").specialization() == "i32:16");
  CHECK(value("-16").specialization() == "i32:16");
  CHECK(value("-7").specialization() == "i32");
  CHECK(value("2147483647").specialization() == "i32");
  CHECK(value("2147483648").specialization() == "i64:16");
  CHECK(value("2147483649").specialization() == "i64");
  CHECK(value("-2147483648").specialization() == "i32:16");
  CHECK(value("-2147483649").specialization() == "i64");
  CHECK(value("4294967296").specialization() == "i64:16");
  CHECK(value("0x10").specialization() == "i32:16");
  CHECK(value("1_000").i == 1000);
  HostValue big = value("18446744073709551615");
  CHECK(big.specialization() == "u64");
  CHECK(big.isUnsigned);
  CHECK(value("18446744073709551600").specialization() == "u64:16");
  CHECK(value("1.5").specialization() == "fp32");
  CHECK(value("1e-5").f == 1e-5);
  CHECK(value("1.0").specialization() == "fp32");
  CHECK(value("-inf").f == -INFINITY);
  CHECK(value("True").specialization() == "i1");
  CHECK(value("False").i == 0);
  CHECK_THAT(error("18446744073709551616"), Catch::Contains("does not fit in 64 bits"));
  CHECK_THAT(error("abc"), Catch::Contains("expected an integer, a float, True/False"));
}

TEST_CASE("run: generators", "[run]") {
  HostValue v = value("randn:f32[4,8]");
  CHECK(v.kind == HostValue::Buffer);
  CHECK(v.array.dtype == "<f4");
  CHECK(v.array.shape == std::vector<int64_t>{4, 8});
  CHECK(v.array.data.size() == 128);
  CHECK(v.specialization() == "*fp32:16");
  // Deterministic per (seed, name); different names or seeds differ.
  CHECK(value("randn:f32[64]").array.data == value("randn:f32[64]").array.data);
  CHECK(value("randn:f32[64]", 0, "y").array.data != value("randn:f32[64]").array.data);
  CHECK(value("randn:f32[64]", 1).array.data != value("randn:f32[64]").array.data);

  HostValue n = value("randn:f64[100000]");
  double sum = 0, sq = 0;
  for (size_t i = 0; i < 100000; ++i) {
    double x = loadElement(n.array, *n.elem, i);
    sum += x;
    sq += x * x;
  }
  CHECK(std::fabs(sum / 1e5) < 0.02);
  CHECK(std::fabs(sq / 1e5 - 1) < 0.02);

  auto all = [](const HostValue &h, auto pred) {
    for (size_t i = 0; i < h.array.numElements(); ++i)
      if (!pred(loadElement(h.array, *h.elem, i)))
        return false;
    return true;
  };
  CHECK(all(value("rand:f16[1000]"), [](double x) { return x >= 0 && x <= 1; }));
  CHECK(all(value("rand:bf16[1000]"), [](double x) { return x >= 0 && x <= 1; }));
  HostValue ri = value("randint:i32[1000]");
  CHECK(all(ri, [](double x) { return x >= -100 && x < 100 && x == std::floor(x); }));
  CHECK(!all(ri, [](double x) { return x >= 0; }));
  CHECK(all(value("randint:u8[1000]"), [](double x) { return x >= 0 && x < 200; }));
  CHECK(all(value("randint:bool[100]"), [](double x) { return x == 0 || x == 1; }));
  CHECK(value("randint:bool[100]").specialization() == "*i1:16");
  CHECK(all(value("zeros:i64[7]"), [](double x) { return x == 0; }));
  CHECK(all(value("ones:bf16[7]"), [](double x) { return x == 1; }));
  CHECK(all(value("empty:f16[7]"), [](double x) { return std::isnan(x); }));
  CHECK(all(value("empty:bf16[7]"), [](double x) { return std::isnan(x); }));
  HostValue e = value("empty:i32[3]");
  CHECK(e.array.data[0] == 0xCD);
  CHECK(value("zeros:fp8e5[3]").specialization() == "*fp8e5:16");
  CHECK(value("zeros:f32[]").array.numElements() == 1);
  CHECK(value("zeros:f32[0]").array.numElements() == 0);
  CHECK(value("randn:fp16[3]").specialization() == "*fp16:16");
}

TEST_CASE("run: generator errors explain themselves", "[run]") {
  CHECK_THAT(error("randn:f32[N]"),
             Catch::Contains("shape entry 'N' is not a number; give every size as an integer"));
  CHECK_THAT(error("randn:c64[4]"), Catch::Contains("unknown dtype 'c64'"));
  CHECK_THAT(error("normal:f32[4]"), Catch::Contains("unknown generator 'normal'"));
  CHECK_THAT(error("randn:f32"), Catch::Contains("expected KIND:DTYPE[SHAPE]"));
  CHECK_THAT(error("randn:i32[4]"), Catch::Contains("randn needs a float dtype"));
  CHECK_THAT(error("rand:fp8e5[4]"), Catch::Contains("can only be generated by zeros or empty"));
  CHECK_THAT(error("missing.npy"), Catch::Contains("missing.npy: cannot open file"));
}

TEST_CASE("run: .npy arguments and raw views", "[run]") {
  HostValue src = value("randint:u16[5]");
  src.array.dtype = "<u2";
  REQUIRE(!rt::writeNpy("tritium-run-view.npy", src.array));
  HostValue plain = value("tritium-run-view.npy");
  CHECK(std::string(plain.elem->name) == "u16");
  CHECK(plain.specialization() == "*u16:16");
  HostValue bf = value("tritium-run-view.npy:bf16");
  CHECK(std::string(bf.elem->name) == "bf16");
  CHECK(bf.specialization() == "*bf16:16");
  CHECK_THAT(error("tritium-run-view.npy:f32"), Catch::Contains("cannot view a '<u2' file"));
  std::remove("tritium-run-view.npy");
}

TEST_CASE("run: assignments and grids", "[run]") {
  std::string n, v;
  CHECK(!splitAssignment("--arg", "x = 3", n, v));
  CHECK((n == "x" && v == "3"));
  CHECK(splitAssignment("--arg", "x", n, v));
  CHECK(splitAssignment("--arg", "x=", n, v));
  std::array<int64_t, 3> g;
  CHECK(!parseGrid("96", g));
  CHECK(g == std::array<int64_t, 3>{96, 1, 1});
  CHECK(!parseGrid("4,8,2", g));
  CHECK(g == std::array<int64_t, 3>{4, 8, 2});
  CHECK(parseGrid("1,2,3,4", g));
  CHECK(parseGrid("0", g));
  CHECK(parseGrid("N", g));
}

TEST_CASE("run: --check compares in float64", "[run]") {
  HostValue out = value("randn:f32[3,4]");
  rt::NpyArray ref = out.array;
  CheckResult same = compareWithReference(out, ref, "ref.npy", defaultTolerance(*out.elem));
  CHECK(same.pass);
  CHECK(same.relL2 == 0);
  CHECK_THAT(same.line, Catch::StartsWith("check x vs ref.npy: PASS (12 elements"));

  storeElement(ref, *out.elem, 6, loadElement(ref, *out.elem, 6) + 0.5);
  CheckResult off = compareWithReference(out, ref, "ref.npy", {1e-5, 1e-6});
  CHECK(!off.pass);
  CHECK(off.failures == 1);
  CHECK(std::fabs(off.maxAbs - 0.5) < 1e-6);
  CHECK_THAT(off.line, Catch::Contains("1 of 12 elements differ") && Catch::Contains("at [1, 2]"));
  CHECK(compareWithReference(out, ref, "ref.npy", {0, 0.6}).pass);

  // NaN positions must agree.
  rt::NpyArray nan = out.array;
  storeElement(nan, *out.elem, 0, NAN);
  CheckResult n1 = compareWithReference(out, nan, "r", {1, 1});
  CHECK(!n1.pass);
  CHECK_THAT(n1.line, Catch::Contains("NaN position mismatches, first at [0, 0]"));
  HostValue outNan = out;
  storeElement(outNan.array, *out.elem, 0, NAN);
  CHECK(compareWithReference(outNan, nan, "r", {0, 0}).pass);

  // A float64 reference for a float32 buffer; shapes must match.
  HostValue ref64 = value("zeros:f64[3,4]");
  for (size_t i = 0; i < 12; ++i)
    storeElement(ref64.array, *ref64.elem, i, loadElement(out.array, *out.elem, i));
  CHECK(compareWithReference(out, ref64.array, "r", {0, 0}).pass);
  ref64.array.shape = {12};
  CheckResult shape = compareWithReference(out, ref64.array, "r", {1, 1});
  CHECK(!shape.pass);
  CHECK_THAT(shape.line, Catch::Contains("shape mismatch: the buffer is [3, 4], the reference is [12]"));

  // bf16 buffers compare against their <u2 views as bf16.
  HostValue b = value("randn:bf16[8]");
  CHECK(compareWithReference(b, b.array, "r", {0, 0}).pass);
  CHECK(defaultTolerance(*b.elem).rtol == 1e-2);
  CHECK(defaultTolerance(*lookupElemType("i32")).atol == 0);
}

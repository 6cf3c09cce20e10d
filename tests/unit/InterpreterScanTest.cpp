//===- InterpreterScanTest.cpp - tile.scan against sequential sweeps ------===//
//
// The interpreter runs tile.scan as a log-step (Hillis-Steele) scan
// (interpreter/ReduceScan.cpp). These tests pin its semantics to those of a
// sequential inclusive sweep, out[j] = combine(out[j - 1], x[j]) (from the
// end with reverse = true: out[j] = combine(out[j + 1], x[j])), using
// associative but NON-commutative combines whose results are exact integers
// (affine maps, 2x2 matrix products, "keep the first"), on 1-D, 2-D and 3-D
// tiles along every axis, forward and reverse, with operands of several
// element widths. Also: a 4096-long exact integer cumsum, and a float cumsum
// that must be bitwise the same in sequential and parallel launches.
//
//===----------------------------------------------------------------------===//
#include "InterpreterTestUtil.h"

#include <array>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>

using namespace tritium::interp;
using namespace tritium::interp::test;

namespace {

std::string tensorTy(const std::vector<int64_t> &shape, const std::string &el) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + el + ">";
}

int64_t numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// A kernel: program p loads operand i (element type types[i]) from
/// %in<i> + p * numel as a row-major `shape` tile, scans all operands
/// together along `axis` with the combine region `body` (its block
/// arguments are %l0.. (earlier element) then %r0.. (later element)), and
/// stores result i to %out<i> + p * numel.
std::string scanKernel(const std::vector<std::string> &types,
                       const std::vector<int64_t> &shape, int axis,
                       bool reverse, const std::string &body) {
  std::ostringstream s;
  size_t n = types.size();
  int rank = shape.size();
  std::string offTy = tensorTy(shape, "i32");
  s << "func.func @k(";
  for (size_t i = 0; i < n; ++i)
    s << "%in" << i << ": !tile.ptr<" << types[i] << ">, ";
  for (size_t i = 0; i < n; ++i)
    s << "%out" << i << ": !tile.ptr<" << types[i] << ">"
      << (i + 1 < n ? ", " : "");
  s << ") attributes {tile.kernel} {\n";
  // Row-major element offsets (a dense constant: make_range wants powers
  // of two), plus the program's base.
  s << "  %pid = tile.get_program_id x : i32\n"
    << "  %ne = arith.constant " << numel(shape) << " : i32\n"
    << "  %base = arith.muli %pid, %ne : i32\n"
    << "  %off0 = tile.splat %base : " << offTy << "\n"
    << "  %idx = arith.constant dense<[";
  // Nested brackets, one level per dimension.
  std::function<void(int, int64_t &)> emit = [&](int d, int64_t &next) {
    for (int64_t j = 0; j < shape[d]; ++j) {
      s << (j ? ", " : "");
      if (d + 1 == rank) {
        s << next++;
      } else {
        s << "[";
        emit(d + 1, next);
        s << "]";
      }
    }
  };
  int64_t next = 0;
  emit(0, next);
  s << "]> : " << offTy << "\n"
    << "  %off1 = arith.addi %off0, %idx : " << offTy << "\n";
  std::string off = "%off1";
  std::string srcTys, inTys;
  for (size_t i = 0; i < n; ++i) {
    std::string pt = tensorTy(shape, "!tile.ptr<" + types[i] + ">");
    s << "  %pi" << i << " = tile.splat %in" << i << " : " << pt << "\n"
      << "  %qi" << i << " = tile.addptr %pi" << i << ", " << off << " : "
      << pt << ", " << offTy << "\n"
      << "  %x" << i << " = tile.load %qi" << i << " : " << pt << "\n";
    srcTys += (i ? ", " : "") + tensorTy(shape, types[i]);
  }
  s << "  %z:" << n << " = tile.scan(";
  for (size_t i = 0; i < n; ++i)
    s << (i ? ", " : "") << "%x" << i;
  s << ") axis = " << axis << " reverse = " << (reverse ? "true" : "false")
    << " {\n  ^bb0(";
  for (int side = 0; side < 2; ++side)
    for (size_t i = 0; i < n; ++i)
      s << (side || i ? ", " : "") << (side ? "%r" : "%l") << i << ": "
        << types[i];
  s << "):\n" << body << "  } : (" << srcTys << ") -> (" << srcTys << ")\n";
  for (size_t i = 0; i < n; ++i) {
    std::string pt = tensorTy(shape, "!tile.ptr<" + types[i] + ">");
    s << "  %po" << i << " = tile.splat %out" << i << " : " << pt << "\n"
      << "  %qo" << i << " = tile.addptr %po" << i << ", " << off << " : "
      << pt << ", " << offTy << "\n"
      << "  tile.store %qo" << i << ", %z#" << i << " : " << pt << "\n";
  }
  s << "  return\n}\n";
  return s.str();
}

/// Operand values as int64 (each stored in its own width in the buffers).
using Tuple = std::vector<int64_t>;
using Combine = std::function<Tuple(const Tuple &, const Tuple &)>;

struct Case {
  const char *name;
  std::vector<std::string> types; // i16, i32 or i64
  std::string body;
  Combine combine; // earlier element first; wraps like the IR
  int unitOperand = -1; // an operand whose inputs are only +-1
};

int64_t wrapTo(const std::string &ty, int64_t v) {
  if (ty == "i16")
    return int16_t(uint16_t(v));
  if (ty == "i32")
    return int32_t(uint32_t(v));
  return v;
}

std::vector<Case> cases() {
  std::vector<Case> cs;
  // Affine maps x -> a x + b, composed in scan order ((a, b) then (c, d)
  // is (a c, b c + d)), carried as an i32 and an i64 (a = +-1, so the i32
  // products never wrap and the i64 part stays a ring, hence associative);
  // plus an i16 operand
  // whose combine keeps the earlier element (yields a block argument).
  cs.push_back(
      {"affine+first",
       {"i32", "i64", "i16"},
       "    %ac = arith.muli %l0, %r0 : i32\n"
       "    %c64 = arith.extsi %r0 : i32 to i64\n"
       "    %bc = arith.muli %l1, %c64 : i64\n"
       "    %t = arith.addi %bc, %r1 : i64\n"
       "    tile.scan.return %ac, %t, %l2 : i32, i64, i16\n",
       [](const Tuple &x, const Tuple &y) {
         return Tuple{x[0] * y[0],
                      int64_t(uint64_t(x[1]) * uint64_t(y[0]) + uint64_t(y[1])),
                      x[2]};
       },
       /*unitOperand=*/0});
  // 2x2 integer matrix products (earlier matrix on the left), i32 wrapping.
  cs.push_back(
      {"matmul2x2",
       {"i32", "i32", "i32", "i32"},
       "    %p0 = arith.muli %l0, %r0 : i32\n"
       "    %p1 = arith.muli %l1, %r2 : i32\n"
       "    %m0 = arith.addi %p0, %p1 : i32\n"
       "    %p2 = arith.muli %l0, %r1 : i32\n"
       "    %p3 = arith.muli %l1, %r3 : i32\n"
       "    %m1 = arith.addi %p2, %p3 : i32\n"
       "    %p4 = arith.muli %l2, %r0 : i32\n"
       "    %p5 = arith.muli %l3, %r2 : i32\n"
       "    %m2 = arith.addi %p4, %p5 : i32\n"
       "    %p6 = arith.muli %l2, %r1 : i32\n"
       "    %p7 = arith.muli %l3, %r3 : i32\n"
       "    %m3 = arith.addi %p6, %p7 : i32\n"
       "    tile.scan.return %m0, %m1, %m2, %m3 : i32, i32, i32, i32\n",
       [](const Tuple &a, const Tuple &b) {
         auto u = [](int64_t v) { return uint32_t(v); };
         auto w = [](uint32_t v) { return int64_t(int32_t(v)); };
         return Tuple{w(u(a[0]) * u(b[0]) + u(a[1]) * u(b[2])),
                      w(u(a[0]) * u(b[1]) + u(a[1]) * u(b[3])),
                      w(u(a[2]) * u(b[0]) + u(a[3]) * u(b[2])),
                      w(u(a[2]) * u(b[1]) + u(a[3]) * u(b[3]))};
       }});
  // "Keep the later element" (yields a block argument) next to a sum
  // yielded for two operands (one slot, two results).
  cs.push_back({"last+shared",
                {"i32", "i64", "i64"},
                "    %s = arith.addi %l2, %r2 : i64\n"
                "    tile.scan.return %r0, %s, %s : i32, i64, i64\n",
                [](const Tuple &x, const Tuple &y) {
                  return Tuple{y[0], x[2] + y[2], x[2] + y[2]};
                }});
  return cs;
}

/// Runs `c` on `shape` along `axis` over `programs` programs and checks
/// every lane against a sequential sweep.
void checkCase(const Case &c, const std::vector<int64_t> &shape, int axis,
               bool reverse, int programs = 1) {
  INFO(c.name << " shape " << tensorTy(shape, "") << " axis " << axis
              << (reverse ? " reverse" : " forward"));
  Compiled k = compileIR(scanKernel(c.types, shape, axis, reverse, c.body));
  REQUIRE(k.error == "");
  size_t n = c.types.size();
  int64_t N = numel(shape), total = N * programs;
  std::mt19937_64 rng(N * 131 + axis * 7 + reverse);
  std::vector<std::vector<int64_t>> in(n, std::vector<int64_t>(total)),
      want = in;
  for (size_t i = 0; i < n; ++i)
    for (int64_t e = 0; e < total; ++e)
      in[i][e] = int(i) == c.unitOperand
                     ? (rng() % 2 ? 1 : -1)
                     : wrapTo(c.types[i], int64_t(rng() % 7) - 3 +
                                              (c.types[i] == "i16" ? e : 0));
  // Sequential sweep.
  int64_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t K = shape[axis], outer = N / (K * inner);
  for (int p = 0; p < programs; ++p)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t q = 0; q < inner; ++q) {
        Tuple acc(n);
        for (int64_t s = 0; s < K; ++s) {
          int64_t j = reverse ? K - 1 - s : s;
          int64_t e = p * N + (o * K + j) * inner + q;
          Tuple x(n);
          for (size_t i = 0; i < n; ++i)
            x[i] = in[i][e];
          acc = s == 0 ? x : c.combine(acc, x);
          for (size_t i = 0; i < n; ++i)
            want[i][e] = acc[i];
        }
      }
  // Buffers in each operand's width.
  auto width = [&](size_t i) {
    return c.types[i] == "i16" ? 2 : c.types[i] == "i32" ? 4 : 8;
  };
  std::vector<std::vector<uint8_t>> inB(n), outB(n);
  std::vector<Arg> args;
  for (size_t i = 0; i < n; ++i) {
    inB[i].resize(total * width(i));
    outB[i].assign(total * width(i), 0xCD);
    for (int64_t e = 0; e < total; ++e)
      std::memcpy(inB[i].data() + e * width(i), &in[i][e], width(i));
  }
  for (size_t i = 0; i < n; ++i)
    args.push_back(Arg::buffer(inB[i].data(), inB[i].size(),
                               "in" + std::to_string(i)));
  for (size_t i = 0; i < n; ++i)
    args.push_back(Arg::buffer(outB[i].data(), outB[i].size(),
                               "out" + std::to_string(i)));
  LaunchOptions opts;
  opts.grid = {programs, 1, 1};
  auto err = k.kernel->launch(args, opts);
  INFO((err ? err->message : ""));
  REQUIRE(!err);
  int64_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    for (int64_t e = 0; e < total; ++e) {
      int64_t got = 0;
      std::memcpy(&got, outB[i].data() + e * width(i), width(i));
      got = wrapTo(c.types[i], got);
      if (got != want[i][e] && bad++ < 5)
        FAIL_CHECK("operand " << i << " element " << e << ": got " << got
                              << ", want " << want[i][e]);
    }
  CHECK(bad == 0);
}

} // namespace

TEST_CASE("scan: non-commutative combines, 1-D, forward and reverse",
          "[interp][scan]") {
  for (const Case &c : cases())
    for (int64_t len : {1, 2, 3, 5, 8, 16, 100, 128, 1024})
      for (bool rev : {false, true})
        checkCase(c, {len}, 0, rev);
}

TEST_CASE("scan: non-commutative combines, 2-D and 3-D, every axis",
          "[interp][scan]") {
  for (const Case &c : cases()) {
    for (auto shape : std::vector<std::vector<int64_t>>{
             {4, 8}, {8, 4}, {1, 16}, {16, 1}, {5, 3}, {32, 64}})
      for (int axis : {0, 1})
        for (bool rev : {false, true})
          checkCase(c, shape, axis, rev, 3);
    for (int axis : {0, 1, 2})
      for (bool rev : {false, true})
        checkCase(c, {3, 8, 5}, axis, rev, 2);
  }
}

TEST_CASE("scan: 4096-long integer cumsum is exact", "[interp][scan]") {
  Case add{"cumsum",
           {"i32"},
           "    %t = arith.addi %l0, %r0 : i32\n"
           "    tile.scan.return %t : i32\n",
           [](const Tuple &x, const Tuple &y) {
             return Tuple{int32_t(uint32_t(x[0]) + uint32_t(y[0]))};
           }};
  for (bool rev : {false, true})
    checkCase(add, {4096}, 0, rev, 2);
  Case add64 = add;
  add64.types = {"i64"};
  add64.body = "    %t = arith.addi %l0, %r0 : i64\n"
               "    tile.scan.return %t : i64\n";
  add64.combine = [](const Tuple &x, const Tuple &y) {
    return Tuple{x[0] + y[0]};
  };
  for (int axis : {0, 1})
    checkCase(add64, {64, 64}, axis, false);
}

TEST_CASE("scan: float cumsum is the same in sequential and parallel runs",
          "[interp][scan]") {
  std::vector<int64_t> shape = {64, 128};
  const int programs = 8;
  int64_t N = numel(shape) * programs;
  std::mt19937 rng(5);
  std::normal_distribution<float> nd;
  std::vector<float> x(N);
  for (float &v : x)
    v = nd(rng);
  for (int axis : {0, 1}) {
    Compiled k = compileIR(
        scanKernel({"f32"}, shape, axis, false,
                   "    %t = arith.addf %l0, %r0 : f32\n"
                   "    tile.scan.return %t : f32\n"));
    REQUIRE(k.error == "");
    std::vector<float> seq(N), par(N);
    LaunchOptions o;
    o.grid = {programs, 1, 1};
    o.deterministic = true;
    REQUIRE(!k.kernel->launch({Arg::buffer(x.data(), N * 4, "x"),
                               Arg::buffer(seq.data(), N * 4, "o")},
                              o));
    o.deterministic = false;
    o.threads = 4;
    REQUIRE(!k.kernel->launch({Arg::buffer(x.data(), N * 4, "x"),
                               Arg::buffer(par.data(), N * 4, "o")},
                              o));
    CHECK(std::memcmp(seq.data(), par.data(), N * 4) == 0);
    // Close to a sequential sum in double (log-step rounding differs from
    // a sweep's; the bound is generous for 128 terms of N(0, 1)).
    int64_t K = shape[axis], inner = axis == 0 ? shape[1] : 1;
    int64_t outer = numel(shape) / (K * inner);
    for (int p = 0; p < programs; ++p)
      for (int64_t o2 = 0; o2 < outer; ++o2)
        for (int64_t q = 0; q < inner; ++q) {
          double s = 0;
          for (int64_t j = 0; j < K; ++j) {
            int64_t e = p * numel(shape) + (o2 * K + j) * inner + q;
            s += x[e];
            REQUIRE(std::fabs(seq[e] - s) <= 1e-5 * K);
          }
        }
  }
}

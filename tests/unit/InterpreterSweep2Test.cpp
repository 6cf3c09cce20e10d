//===- InterpreterSweep2Test.cpp - math, reductions, sort, atomics, dot ---===//
//
// The rest of the op sweep (see InterpreterSweepTest.cpp): math functions
// against <cmath> in (long) double within a few ulp; reductions and scans
// over each axis of a 2-D block with exact integer wraparound and
// order-independent float data; sort/flip/histogram/gather; atomics with
// masks returning old values; tl.dot against a float64 reference.
//
//===----------------------------------------------------------------------===//
#include "InterpreterSweep.h"

#include <algorithm>

using namespace sweep;
using tritium::DType;

namespace {
__extension__ typedef unsigned __int128 u128;
constexpr int R = 8, C = 16, N = R * C;
const DType kInts[] = {DType::I8, DType::I16, DType::I32, DType::I64,
                       DType::U8, DType::U16, DType::U32, DType::U64};
const DType kFloats[] = {DType::F16, DType::BF16, DType::F32, DType::F64};

std::string header2d() {
  return "def kern(a_ptr, b_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):\n"
         "    r = tl.arange(0, R)[:, None]\n"
         "    c = tl.arange(0, C)[None, :]\n"
         "    x = tl.load(a_ptr + r * C + c)\n";
}
/// 2-D data: ints are tricky values with repeats and two constant rows (ties);
/// floats are small integers and halves (every sum and order exact).
Buf data2d(DType t, unsigned seed) {
  Buf b = tricky(t, N, seed);
  std::mt19937 g(seed);
  for (int k = 0; k < N; ++k) {
    if (isFloat(t))
      b.setF(k, double(int(g() % 17) - 8) + (g() % 4 == 0 ? 0.5 : 0));
    if (k / C >= 6)
      b.setBits(k, b.bits((k / C - 6) * 3));
  }
  return b;
}
} // namespace

TEST_CASE("sweep: math functions on fp32 and fp64 within a few ulp", "[sweep]") {
  struct Fn {
    const char *expr;
    long double (*ref)(long double, long double, long double);
    double tol; // ulps
    bool fp32Only = false;
  };
  using L = long double;
  const Fn fns[] = {
      {"tl.exp(a)", [](L x, L, L) { return std::exp(x); }, 4},
      {"tl.exp2(a)", [](L x, L, L) { return std::exp2(x); }, 4},
      {"tl.log(a)", [](L x, L, L) { return std::log(x); }, 4},
      {"tl.log2(a)", [](L x, L, L) { return std::log2(x); }, 4},
      {"tl.sin(a)", [](L x, L, L) { return std::sin(x); }, 4},
      {"tl.cos(a)", [](L x, L, L) { return std::cos(x); }, 4},
      {"tl.erf(a)", [](L x, L, L) { return std::erf(x); }, 4},
      {"tl.sqrt(a)", [](L x, L, L) { return std::sqrt(x); }, 2},
      {"tl.rsqrt(a)", [](L x, L, L) { return 1 / std::sqrt(x); }, 2},
      {"tl.floor(a)", [](L x, L, L) { return std::floor(x); }, 0},
      {"tl.ceil(a)", [](L x, L, L) { return std::ceil(x); }, 0},
      {"tl.fma(a, b, c)", [](L x, L y, L z) { return x * y + z; }, 0},
      {"tl.fdiv(a, b)", [](L x, L y, L) { return x / y; }, 2},
      {"tl.sqrt_rn(a)", [](L x, L, L) { return std::sqrt(x); }, 0, true},
      {"tl.div_rn(a, b)", [](L x, L y, L) { return x / y; }, 0, true},
  };
  for (DType t : {DType::F32, DType::F64})
    for (const Fn &fn : fns) {
      if (fn.fp32Only && t != DType::F32)
        continue;
      Buf a = tricky(t, N, 3), b = tricky(t, N, 5), c = tricky(t, N, 7), o(t, N);
      std::mt19937 g(1);
      for (int k = 64; k < N; ++k) // moderate arguments, some large, some tiny
        a.setF(k, roundTo(std::ldexp(double(g() % 100000) / 12345.0 - 2.5, int(g() % 9) - 4), t));
      run("def kern(a_ptr, b_ptr, c_ptr, o_ptr, N: tl.constexpr):\n"
          "    offs = tl.arange(0, N)\n"
          "    a = tl.load(a_ptr + offs)\n    b = tl.load(b_ptr + offs)\n"
          "    c = tl.load(c_ptr + offs)\n    z = " + std::string(fn.expr) + "\n"
          "    tl.static_assert(z.dtype == " + tl(t) + ", 'dtype')\n"
          "    tl.store(o_ptr + offs, z)\n",
          {a.arg(), b.arg(), c.arg(), o.arg()}, {{"N", N}});
      INFO(fn.expr << " " << tl(t));
      for (int k = 0; k < N; ++k) {
        L want = fn.ref(a.f(k), b.f(k), c.f(k));
        // fp32: correctly rounded from the long double value; fp64: the
        // long double value rounded to double.
        double w = t == DType::F32 ? roundTo(double(want), t) : double(want);
        if (fn.tol == 0 && t == DType::F64 && std::string(fn.expr).find("fma") != std::string::npos)
          w = std::fma(a.f(k), b.f(k), c.f(k));
        INFO("lane " << k << ": " << a.f(k) << ", " << b.f(k) << ", " << c.f(k) << " -> "
                     << o.f(k) << " want " << w);
        if (fn.tol == 0)
          CHECK(sameF(o.f(k), w));
        else
          CHECK(ulps(o.f(k), w, t) <= fn.tol);
      }
    }
}

TEST_CASE("sweep: umulhi on 32- and 64-bit ints", "[sweep]") {
  for (DType t : {DType::I32, DType::U32, DType::I64, DType::U64}) {
    Buf a = tricky(t, N, 3), b = tricky(t, N, 5), o(t, N);
    run("def kern(a_ptr, b_ptr, o_ptr, N: tl.constexpr):\n"
        "    offs = tl.arange(0, N)\n"
        "    z = tl.umulhi(tl.load(a_ptr + offs), tl.load(b_ptr + offs))\n"
        "    tl.store(o_ptr + offs, z)\n",
        {a.arg(), b.arg(), o.arg()}, {{"N", N}});
    int w = bitsOf(t);
    for (int k = 0; k < N; ++k) {
      u128 m = w == 64 ? ~u128(0) >> 64 : (u128(1) << w) - 1;
      u128 p = (u128(a.i(k)) & m) * (u128(b.i(k)) & m);
      INFO(tl(t) << " lane " << k << ": " << a.i(k) << " * " << b.i(k));
      CHECK(o.i(k) == wrap(t, uint64_t(p >> w)));
    }
  }
}

TEST_CASE("sweep: reductions over each axis of a 2-D block", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  const char *names[] = {"tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin",
                         "tl.xor_sum", "tl.reduce_or"};
  for (DType t : all)
    for (int fi = 0; fi < 7; ++fi)
      for (int axis : {0, 1}) {
        std::string fn = names[fi];
        if (isFloat(t) && fi >= 5)
          continue;
        // max/min widen < 32-bit ints to int32 and floats to fp32 (standard.py).
        DType outTy = fi >= 3 && fi <= 4 ? DType::I32
                      : (fi == 1 || fi == 2) && bitsOf(t) < 32
                          ? (isFloat(t) ? DType::F32 : DType::I32)
                      : fi == 0 && !isFloat(t) && bitsOf(t) < 32
                          ? (isUnsigned(t) ? DType::U32 : DType::I32)
                          : t;
        Buf a = data2d(t, 17), o(outTy, axis == 0 ? C : R);
        std::string call = fn + "(x, axis=" + std::to_string(axis) +
                           (fi == 3 || fi == 4 ? ", tie_break_left=True)" : ")");
        std::string outOffs = axis == 0 ? "tl.arange(0, C)" : "tl.arange(0, R)";
        INFO(call << " " << tl(t));
        run(header2d() + "    z = " + call + "\n" +
                (t == DType::BF16 ? "" : "    tl.static_assert(z.dtype == " + tl(outTy) + ", 'dtype')\n") +
                "    tl.store(o_ptr + " + outOffs + ", z)\n",
            {a.arg(), a.arg(), o.arg()}, {{"R", R}, {"C", C}});
        for (int j = 0; j < (axis == 0 ? C : R); ++j) {
          auto at = [&](int i) { return axis == 0 ? i * C + j : j * C + i; };
          int len = axis == 0 ? R : C;
          bool u = isUnsigned(t);
          auto less = [&](int p, int q) {
            return isFloat(t) ? a.f(p) < a.f(q) : u ? a.i(p) < a.i(q) : int64_t(a.i(p)) < int64_t(a.i(q));
          };
          INFO("output " << j);
          if (fi == 0 && isFloat(t)) {
            double s = 0;
            for (int i = 0; i < len; ++i)
              s += a.f(at(i));
            CHECK(sameF(o.f(j), s, true));
          } else if (fi == 0 || fi >= 5) {
            uint64_t s = 0;
            for (int i = 0; i < len; ++i)
              s = fi == 0 ? s + a.i(at(i)) : fi == 5 ? s ^ a.i(at(i)) : s | a.i(at(i));
            CHECK(o.i(j) == wrap(outTy, s));
          } else {
            int best = 0;
            for (int i = 1; i < len; ++i)
              if (fi % 2 == 1 ? less(at(best), at(i)) : less(at(i), at(best)))
                best = i; // strict: the first of equals wins
            if (fi >= 3)
              CHECK(o.i(j) == uint64_t(best));
            else if (isFloat(t))
              CHECK(sameF(o.f(j), a.f(at(best)), true));
            else
              CHECK(o.i(j) == a.i(at(best)));
          }
        }
      }
}

TEST_CASE("sweep: cumsum and cumprod over each axis", "[sweep]") {
  for (DType t : {DType::I8, DType::U8, DType::I16, DType::I32, DType::U32, DType::I64,
                  DType::F16, DType::BF16, DType::F32, DType::F64})
    for (bool prod : {false, true})
      for (int axis : {0, 1}) {
        DType outTy = !prod && !isFloat(t) && bitsOf(t) < 32
                          ? (isUnsigned(t) ? DType::U32 : DType::I32)
                          : t;
        Buf a = data2d(t, 23), o(outTy, N);
        if (isFloat(t) && prod)
          for (int k = 0; k < N; ++k) // products stay exact
            a.setF(k, (k % 5 == 0 ? -1.0 : 1.0) * (k % 3 == 0 ? 2.0 : k % 3 == 1 ? 0.5 : 1.0));
        std::string call = std::string(prod ? "tl.cumprod" : "tl.cumsum") + "(x, axis=" +
                           std::to_string(axis) + ")";
        INFO(call << " " << tl(t));
        run(header2d() + "    z = " + call + "\n" +
                (t == DType::BF16 ? "" : "    tl.static_assert(z.dtype == " + tl(outTy) + ", 'dtype')\n") +
                "    tl.store(o_ptr + r * C + c, z)\n",
            {a.arg(), a.arg(), o.arg()}, {{"R", R}, {"C", C}});
        for (int k = 0; k < N; ++k) {
          int i = k / C, j = k % C;
          int len = axis == 0 ? i : j;
          uint64_t s = prod ? 1 : 0;
          double f = prod ? 1 : 0;
          for (int q = 0; q <= len; ++q) {
            int p = axis == 0 ? q * C + j : i * C + q;
            uint64_t v = isFloat(t) ? 0 : wrap(outTy, a.i(p));
            s = prod ? s * v : s + v;
            f = prod ? f * a.d(p) : f + a.d(p);
          }
          INFO("lane " << k);
          if (isFloat(t))
            CHECK(sameF(o.f(k), f, true));
          else
            CHECK(o.i(k) == wrap(outTy, s));
        }
      }
}

TEST_CASE("sweep: sort (signed, unsigned, float), flip, gather, histogram", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  for (DType t : all)
    for (bool desc : {false, true}) {
      Buf a = data2d(t, 29), o(t, N);
      INFO("sort " << tl(t) << (desc ? " descending" : ""));
      run(header2d() + "    tl.store(o_ptr + r * C + c, tl.sort(x, descending=" +
              (desc ? "True" : "False") + "))\n",
          {a.arg(), a.arg(), o.arg()}, {{"R", R}, {"C", C}});
      for (int i = 0; i < R; ++i) {
        std::vector<double> fs;
        std::vector<uint64_t> is;
        for (int j = 0; j < C; ++j)
          isFloat(t) ? fs.push_back(a.f(i * C + j)) : is.push_back(a.i(i * C + j));
        std::sort(fs.begin(), fs.end());
        std::sort(is.begin(), is.end(), [&](uint64_t x, uint64_t y) {
          return isUnsigned(t) ? x < y : int64_t(x) < int64_t(y);
        });
        for (int j = 0; j < C; ++j) {
          int q = desc ? C - 1 - j : j;
          INFO("row " << i << " col " << j);
          if (isFloat(t))
            CHECK(sameF(o.f(i * C + j), fs[q], true));
          else
            CHECK(o.i(i * C + j) == is[q]);
        }
      }
    }
  for (DType t : {DType::I8, DType::U32, DType::I64, DType::F16, DType::F32})
    for (int dim : {0, 1}) {
      Buf a = tricky(t, N, 5), o(t, N);
      INFO("flip " << tl(t) << " dim " << dim);
      run(header2d() + "    tl.store(o_ptr + r * C + c, tl.flip(x, " + std::to_string(dim) + "))\n",
          {a.arg(), a.arg(), o.arg()}, {{"R", R}, {"C", C}});
      for (int k = 0; k < N; ++k) {
        int i = k / C, j = k % C;
        CHECK(o.bits(k) == a.bits(dim == 0 ? (R - 1 - i) * C + j : i * C + (C - 1 - j)));
      }
    }
  for (DType t : {DType::F32, DType::I64, DType::F16, DType::U8})
    for (int axis : {0, 1}) {
      Buf a = tricky(t, N, 7), idx(DType::I32, N), o(t, N);
      std::mt19937 g(3);
      for (int k = 0; k < N; ++k)
        idx.setI(k, g() % (axis == 0 ? R : C));
      INFO("gather " << tl(t) << " axis " << axis);
      run(header2d() + "    i = tl.load(b_ptr + r * C + c)\n"
              "    tl.store(o_ptr + r * C + c, tl.gather(x, i, " + std::to_string(axis) + "))\n",
          {a.arg(), idx.arg(), o.arg()}, {{"R", R}, {"C", C}});
      for (int k = 0; k < N; ++k) {
        int i = k / C, j = k % C, s = int(idx.i(k));
        CHECK(o.bits(k) == a.bits(axis == 0 ? s * C + j : i * C + s));
      }
    }
  for (DType t : {DType::I32, DType::I64, DType::U8, DType::I16})
    for (bool masked : {false, true}) {
      Buf a(t, N), m(DType::I1, N), o(DType::I32, 32);
      std::mt19937 g(9);
      for (int k = 0; k < N; ++k)
        a.setI(k, g() % 32), m.setBits(k, g() % 3 != 0);
      INFO("histogram " << tl(t) << (masked ? " masked" : ""));
      run("def kern(a_ptr, m_ptr, o_ptr, N: tl.constexpr):\n"
          "    offs = tl.arange(0, N)\n    x = tl.load(a_ptr + offs)\n" +
              std::string(masked ? "    h = tl.histogram(x, 32, mask=tl.load(m_ptr + offs))\n"
                                 : "    h = tl.histogram(x, 32)\n") +
              "    tl.static_assert(h.dtype == tl.int32, 'dtype')\n"
              "    tl.store(o_ptr + tl.arange(0, 32), h)\n",
          {a.arg(), m.arg(), o.arg()}, {{"N", N}});
      std::vector<int> want(32, 0);
      for (int k = 0; k < N; ++k)
        want[a.i(k)] += !masked || m.bits(k);
      for (int b = 0; b < 32; ++b)
        CHECK(int(o.i(b)) == want[b]);
    }
}

TEST_CASE("sweep: atomics with masks return old values", "[sweep]") {
  const char *ops[] = {"add", "max", "min", "and", "or", "xor", "xchg", "cas"};
  for (DType t : {DType::I32, DType::U32, DType::I64, DType::U64, DType::F32, DType::F16,
                  DType::BF16})
    for (int oi = 0; oi < 8; ++oi) {
      std::string op = ops[oi];
      if (isFloat(t) && (op == "and" || op == "or" || op == "xor"))
        continue;
      if (bitsOf(t) == 16 && op != "add")
        continue;
      Buf p = tricky(t, N, 3), v = tricky(t, N, 5), m(DType::I1, N), old(t, N);
      for (int k = 0; k < N; ++k) {
        m.setBits(k, k % 4 != 3);
        if (isFloat(t)) { // finite, no ±0 ties for max/min; sums exact or rounded once
          for (Buf *b : {&p, &v})
            if (!std::isfinite(b->f(k)) || b->f(k) == 0)
              b->setF(k, double(k % 7) - 3.25);
        }
        if (op == "cas" && k % 2 == 0)
          v.setBits(k, p.bits(k)); // v is the compare value: half the lanes match
      }
      Buf p0 = p;
      std::string call = op == "cas" ? "tl.atomic_cas(p_ptr + offs, v, v + v)"
                                     : "tl.atomic_" + op + "(p_ptr + offs, v, mask=m)";
      INFO(call << " " << tl(t));
      run("def kern(p_ptr, v_ptr, m_ptr, o_ptr, N: tl.constexpr):\n"
          "    offs = tl.arange(0, N)\n    v = tl.load(v_ptr + offs)\n"
          "    m = tl.load(m_ptr + offs)\n    z = " + call + "\n"
          "    tl.store(o_ptr + offs, z, mask=" + (op == "cas" ? "None" : "m") + ")\n",
          {p.arg(), v.arg(), m.arg(), old.arg()}, {{"N", N}});
      for (int k = 0; k < N; ++k) {
        bool on = op == "cas" || m.bits(k);
        INFO("lane " << k << ": " << p0.d(k) << " op " << v.d(k) << " -> " << p.d(k));
        if (on)
          CHECK(old.bits(k) == p0.bits(k));
        if (!on) {
          CHECK(p.bits(k) == p0.bits(k));
          continue;
        }
        if (isFloat(t)) {
          double x = p0.f(k), y = v.f(k);
          double w = op == "add" ? roundTo(x + y, t) : op == "max" ? std::fmax(x, y)
                     : op == "min" ? std::fmin(x, y) : op == "xchg" ? y
                     : (x == y ? roundTo(2 * y, t) : x);
          CHECK(sameF(p.f(k), w));
          continue;
        }
        uint64_t x = p0.i(k), y = v.i(k), w;
        bool u = isUnsigned(t);
        if (op == "add") w = x + y;
        else if (op == "max") w = (u ? x < y : int64_t(x) < int64_t(y)) ? y : x;
        else if (op == "min") w = (u ? y < x : int64_t(y) < int64_t(x)) ? y : x;
        else if (op == "and") w = x & y;
        else if (op == "or") w = x | y;
        else if (op == "xor") w = x ^ y;
        else if (op == "xchg") w = y;
        else w = x == y ? y + y : x;
        CHECK(p.i(k) == wrap(t, w));
      }
    }
  // Every lane of one program adds to one counter.
  std::vector<int32_t> counter{5};
  Buf ones(DType::I32, N);
  for (int k = 0; k < N; ++k)
    ones.setI(k, k);
  run("def kern(p_ptr, v_ptr, N: tl.constexpr):\n"
      "    offs = tl.arange(0, N)\n"
      "    tl.atomic_add(p_ptr + offs * 0, tl.load(v_ptr + offs))\n",
      {tritium::buffer(counter), ones.arg()}, {{"N", N}});
  CHECK(counter[0] == 5 + N * (N - 1) / 2);
}

TEST_CASE("sweep: dot for fp16, bf16, fp32 (ieee), int8 and fp64 operands", "[sweep]") {
  struct Case {
    DType in, out;
    int K;
    double tol; // relative to sum |a||b|
    std::string extra;
  };
  const Case cases[] = {
      {DType::F16, DType::F32, 16, 1e-6, ""},
      {DType::BF16, DType::F32, 16, 1e-6, ""},
      {DType::F32, DType::F32, 16, 1e-6, ", input_precision='ieee'"},
      {DType::I8, DType::I32, 32, 0, ""},
      {DType::F64, DType::F64, 16, 1e-15, ""},
      {DType::F16, DType::F16, 16, 1e-3, ", out_dtype=tl.float16"},
  };
  const int M = 16, Nn = 16;
  for (const Case &cs : cases) {
    Buf a(cs.in, M * cs.K), b(cs.in, cs.K * Nn), acc(cs.out, M * Nn), o(cs.out, M * Nn);
    std::mt19937 g(7);
    std::normal_distribution<double> nd;
    auto fill = [&](Buf &x) {
      for (size_t k = 0; k < x.n; ++k)
        isFloat(x.t) ? x.setF(k, roundTo(nd(g), x.t)) : x.setI(k, g());
    };
    fill(a), fill(b), fill(acc);
    INFO("dot " << tl(cs.in) << " -> " << tl(cs.out) << cs.extra);
    run("def kern(a_ptr, b_ptr, c_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):\n"
        "    m = tl.arange(0, M)[:, None]\n    n = tl.arange(0, N)[None, :]\n"
        "    k = tl.arange(0, K)\n"
        "    x = tl.load(a_ptr + m * K + k[None, :])\n"
        "    y = tl.load(b_ptr + k[:, None] * N + n)\n"
        "    acc = tl.load(c_ptr + m * N + n)\n"
        "    z = tl.dot(x, y, acc" + cs.extra + ")\n"
        "    tl.static_assert(z.dtype == " + tl(cs.out) + ", 'dtype')\n"
        "    tl.store(o_ptr + m * N + n, z)\n",
        {a.arg(), b.arg(), acc.arg(), o.arg()}, {{"M", M}, {"N", Nn}, {"K", cs.K}});
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < Nn; ++j) {
        double s = acc.d(i * Nn + j), mag = std::fabs(s);
        uint64_t si = acc.i(i * Nn + j);
        for (int k = 0; k < cs.K; ++k) {
          s += a.d(i * cs.K + k) * b.d(k * Nn + j);
          mag += std::fabs(a.d(i * cs.K + k) * b.d(k * Nn + j));
          si += a.i(i * cs.K + k) * b.i(k * Nn + j);
        }
        INFO("(" << i << ", " << j << "): " << o.d(i * Nn + j) << " want " << s);
        if (cs.tol == 0)
          CHECK(o.i(i * Nn + j) == wrap(cs.out, si));
        else
          CHECK(std::fabs(o.d(i * Nn + j) - s) <= cs.tol * mag);
      }
  }
}

//===- InterpreterSweep3Test.cpp - dot precisions, NaNs, fp8 formats ------===//
//
// The third part of the op sweep (see InterpreterSweepTest.cpp): batched
// 3-D dot; fp32 dot under input_precision tf32 and tf32x3; fp8 e4m3 x e5m2
// dot; NaNs in max/min/argmax/argmin reductions and in sort; float
// atomic_max/atomic_min on ±0 and NaN (Triton's integer-atomic
// construction); fp8e4b15 and the fnuz formats (fp8e4b8, fp8e5b16) decoded
// for all 256 codes and encoded with ties and saturation; `not` on
// non-boolean blocks and over-wide shifts only have to fail cleanly.
//
//===----------------------------------------------------------------------===//
#include "InterpreterSweep.h"

#include <algorithm>
#include <tuple>
#include <numeric>

using namespace sweep;
using tritium::DType;

namespace {
const Fmt kTf32{8, 10};
/// `x` rounded to tf32 (10 explicit mantissa bits, nearest-even).
double tf32(double x) { return decode(encode(x, kTf32), kTf32); }

std::vector<double> randn(size_t n, DType t, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<double> nd;
  std::vector<double> v(n);
  for (auto &x : v)
    x = roundTo(nd(g), t);
  return v;
}

/// A (batched) dot kernel: x [B,]MxK, y [B,]KxN, acc and out [B,]MxN; each
/// operand's load is followed by `loadA` / `loadB` (e.g. an fp8 bitcast).
void runDot(int B, int M, int K, int N, Buf &a, Buf &b, Buf &acc, Buf &o,
            const std::string &loadA, const std::string &loadB, const std::string &extra) {
  std::string s = "def kern(a_ptr, b_ptr, c_ptr, o_ptr, B: tl.constexpr, M: tl.constexpr,"
                  " N: tl.constexpr, K: tl.constexpr):\n";
  if (B)
    s += "    bb = tl.arange(0, B)[:, None, None]\n"
         "    m = tl.arange(0, M)[None, :, None]\n    n = tl.arange(0, N)[None, None, :]\n"
         "    ka = tl.arange(0, K)[None, None, :]\n    kb = tl.arange(0, K)[None, :, None]\n";
  else
    s += "    bb = 0\n    m = tl.arange(0, M)[:, None]\n    n = tl.arange(0, N)[None, :]\n"
         "    ka = tl.arange(0, K)[None, :]\n    kb = tl.arange(0, K)[:, None]\n";
  s += "    x = tl.load(a_ptr + bb * M * K + m * K + ka)" + loadA + "\n"
       "    y = tl.load(b_ptr + bb * K * N + kb * N + n)" + loadB + "\n"
       "    acc = tl.load(c_ptr + bb * M * N + m * N + n)\n"
       "    z = tl.dot(x, y, acc" + extra + ")\n"
       "    tl.static_assert(z.dtype == tl.float32, 'dtype')\n"
       "    tl.store(o_ptr + bb * M * N + m * N + n, z)\n";
  run(s, {a.arg(), b.arg(), acc.arg(), o.arg()},
      {{"B", std::max(B, 1)}, {"M", M}, {"N", N}, {"K", K}});
}

/// sum_k fa(a_k) * fb(b_k) + acc in double, and sum |terms| (for tolerances).
struct Ref {
  std::vector<double> sum, mag;
};
template <class FA, class FB>
Ref dotRef(int B, int M, int K, int N, FA fa, FB fb, const Buf &acc) {
  Ref r{std::vector<double>(B * M * N), std::vector<double>(B * M * N)};
  for (int t = 0; t < B; ++t)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        size_t o = (t * M + i) * N + j;
        double s = acc.f(o), m = std::fabs(s);
        for (int k = 0; k < K; ++k) {
          double p = fa((t * M + i) * K + k) * fb((t * K + k) * N + j);
          s += p, m += std::fabs(p);
        }
        r.sum[o] = s, r.mag[o] = m;
      }
  return r;
}
} // namespace

TEST_CASE("sweep3: batched 3-D dot for fp32 (ieee) and fp16", "[sweep]") {
  const int B = 2, M = 16, K = 32, N = 16;
  for (DType t : {DType::F32, DType::F16}) {
    Buf a(t, B * M * K), b(t, B * K * N), acc(DType::F32, B * M * N), o(DType::F32, B * M * N);
    auto va = randn(a.n, t, 1), vb = randn(b.n, t, 2), vc = randn(acc.n, DType::F32, 3);
    for (size_t k = 0; k < a.n; ++k) a.setF(k, va[k]);
    for (size_t k = 0; k < b.n; ++k) b.setF(k, vb[k]);
    for (size_t k = 0; k < acc.n; ++k) acc.setF(k, vc[k]);
    INFO("batched dot " << tl(t));
    runDot(B, M, K, N, a, b, acc, o, "", "",
           t == DType::F32 ? ", input_precision='ieee'" : "");
    Ref r = dotRef(B, M, K, N, [&](size_t k) { return a.f(k); },
                   [&](size_t k) { return b.f(k); }, acc);
    for (size_t k = 0; k < o.n; ++k) {
      INFO("out " << k << ": " << o.f(k) << " want " << r.sum[k]);
      CHECK(std::fabs(o.f(k) - r.sum[k]) <= 2e-6 * r.mag[k]);
    }
  }
}

TEST_CASE("sweep3: fp32 dot with input_precision tf32 and tf32x3", "[sweep]") {
  for (int B : {0, 2}) {
    const int Bn = std::max(B, 1), M = 16, K = 32, N = 16;
    Buf a(DType::F32, Bn * M * K), b(DType::F32, Bn * K * N), acc(DType::F32, Bn * M * N);
    Buf o1(DType::F32, acc.n), o3(DType::F32, acc.n);
    auto va = randn(a.n, DType::F32, 4), vb = randn(b.n, DType::F32, 5),
         vc = randn(acc.n, DType::F32, 6);
    for (size_t k = 0; k < a.n; ++k) a.setF(k, va[k]);
    for (size_t k = 0; k < b.n; ++k) b.setF(k, vb[k]);
    for (size_t k = 0; k < acc.n; ++k) acc.setF(k, vc[k]);
    runDot(B, M, K, N, a, b, acc, o1, "", "", ", input_precision='tf32'");
    runDot(B, M, K, N, a, b, acc, o3, "", "", ", input_precision='tf32x3'");
    // tf32: operands rounded to tf32, products exact (11 x 11 bits), summed
    // in double; the kernel accumulates in fp32.
    Ref rt = dotRef(Bn, M, K, N, [&](size_t k) { return tf32(a.f(k)); },
                    [&](size_t k) { return tf32(b.f(k)); }, acc);
    Ref rx = dotRef(Bn, M, K, N, [&](size_t k) { return a.f(k); },
                    [&](size_t k) { return b.f(k); }, acc);
    double errT = 0, errX3 = 0;
    for (size_t k = 0; k < acc.n; ++k) {
      INFO("B " << B << " out " << k << ": tf32 " << o1.f(k) << " want " << rt.sum[k]
                << "; tf32x3 " << o3.f(k) << " exact " << rx.sum[k]);
      CHECK(std::fabs(o1.f(k) - rt.sum[k]) <= 2e-6 * rt.mag[k]);
      CHECK(std::fabs(o3.f(k) - rx.sum[k]) <= 4e-6 * rx.mag[k]);
      errT = std::max(errT, std::fabs(o1.f(k) - rx.sum[k]) / rx.mag[k]);
      errX3 = std::max(errX3, std::fabs(o3.f(k) - rx.sum[k]) / rx.mag[k]);
    }
    INFO("relative error vs float64: tf32 " << errT << ", tf32x3 " << errX3);
    CHECK(errT > 1e-5);         // tf32 really rounds the operands
    CHECK(errX3 * 30 < errT);   // and tf32x3 is much closer to ieee
  }
}

TEST_CASE("sweep3: fp8 e4m3 x e5m2 dot accumulates in fp32", "[sweep]") {
  const int M = 16, K = 32, N = 16;
  for (bool swap : {false, true}) {
    Fmt fa = swap ? kE5M2 : kE4M3, fb = swap ? kE4M3 : kE5M2;
    std::string ta = swap ? "tl.float8e5" : "tl.float8e4nv", tb = swap ? "tl.float8e4nv" : "tl.float8e5";
    Buf a(DType::U8, M * K), b(DType::U8, K * N), acc(DType::F32, M * N), o(DType::F32, M * N);
    std::mt19937 g(9);
    auto code = [&](Fmt f) { // any finite code (no NaN/inf)
      for (;;) {
        uint64_t c = g() & 0xff;
        if (std::isfinite(decode(c, f)))
          return c;
      }
    };
    for (size_t k = 0; k < a.n; ++k) a.setI(k, code(fa));
    for (size_t k = 0; k < b.n; ++k) b.setI(k, code(fb));
    auto vc = randn(acc.n, DType::F32, 7);
    for (size_t k = 0; k < acc.n; ++k) acc.setF(k, vc[k]);
    INFO("dot " << ta << " x " << tb);
    runDot(0, M, K, N, a, b, acc, o, ".to(" + ta + ", bitcast=True)",
           ".to(" + tb + ", bitcast=True)", "");
    Ref r = dotRef(1, M, K, N, [&](size_t k) { return decode(a.i(k), fa); },
                   [&](size_t k) { return decode(b.i(k), fb); }, acc);
    for (size_t k = 0; k < o.n; ++k) {
      INFO("out " << k << ": " << o.f(k) << " want " << r.sum[k]);
      CHECK(std::fabs(o.f(k) - r.sum[k]) <= 2e-6 * r.mag[k]);
    }
  }
}

namespace {
constexpr int R = 8, C = 16;
const uint32_t kNaN = 0x7fc00000, kNegNaN = 0xffc00123;

/// Rows of small values with NaNs (and ±inf, ±0) in different places.
Buf nanRows(DType t) {
  Buf x(t, R * C);
  std::mt19937 g(11);
  for (int k = 0; k < R * C; ++k)
    x.setF(k, double(int(g() % 13) - 6) + (g() % 3 == 0 ? 0.5 : 0));
  auto nan = [&](int r, int c, bool neg = false) {
    double v = neg ? -NAN : NAN;
    if (t == DType::F32)
      x.setBits(r * C + c, neg ? kNegNaN : kNaN);
    else
      x.setF(r * C + c, v);
  };
  nan(1, 0), nan(2, 15);
  for (int c = 0; c < C; ++c) nan(3, c, c % 2);
  nan(4, 3), nan(4, 7), x.setF(4 * C + 5, INFINITY), x.setF(4 * C + 9, -INFINITY);
  nan(5, 8, true), x.setF(5 * C + 2, 0.0), x.setF(5 * C + 3, -0.0);
  for (int c = 1; c < C - 1; ++c) nan(6, c);
  for (int c = 1; c < C; c += 2) nan(7, c);
  return x;
}

/// Triton's _argmax/_argmin_combine (tie_break_left) over the reduction tree
/// the interpreter documents (ReduceScan.cpp): each step combines the lower
/// half [0, h) with the upper half [h, 2h). A NaN never wins a comparison,
/// so where it ends up depends on the tree -- on a GPU, on the layout.
std::pair<double, int> argTree(std::vector<double> v, bool isMax) {
  std::vector<int> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  for (size_t K = v.size(); K > 1; K /= 2)
    for (size_t i = 0; i < K / 2; ++i) {
      size_t j = i + K / 2;
      bool better = isMax ? v[i] > v[j] : v[i] < v[j];
      if (!(better || (v[i] == v[j] && idx[i] < idx[j])))
        v[i] = v[j], idx[i] = idx[j];
    }
  return {v[0], idx[0]};
}
} // namespace

TEST_CASE("sweep3: max/min/argmax/argmin reductions with NaNs", "[sweep]") {
  for (DType t : {DType::F32, DType::F16}) {
    Buf x = nanRows(t), o(DType::F32, 6 * R), idx(DType::I32, 3 * R);
    INFO(tl(t));
    run("def kern(a_ptr, o_ptr, i_ptr, R: tl.constexpr, C: tl.constexpr):\n"
        "    r = tl.arange(0, R)[:, None]\n    c = tl.arange(0, C)[None, :]\n"
        "    x = tl.load(a_ptr + r * C + c)\n    rows = tl.arange(0, R)\n"
        "    tl.store(o_ptr + rows, tl.max(x, axis=1))\n"
        "    tl.store(o_ptr + R + rows, tl.min(x, axis=1))\n"
        "    tl.store(o_ptr + 2 * R + rows, tl.reduce(x, 1, nanmax))\n"
        "    tl.store(o_ptr + 3 * R + rows, tl.reduce(x, 1, nanmin))\n"
        "    tl.store(i_ptr + rows, tl.argmax(x, axis=1))\n"
        "    tl.store(i_ptr + R + rows, tl.argmin(x, axis=1))\n"
        "    v, j = tl.max(x, axis=1, return_indices=True)\n"
        "    tl.store(o_ptr + 4 * R + rows, v)\n"
        "    tl.store(i_ptr + 2 * R + rows, j)\n"
        "    w, q = tl.min(x, axis=1, return_indices=True)\n"
        "    tl.store(o_ptr + 5 * R + rows, w)\n\n"
        "@triton.jit\ndef nanmax(a, b):\n"
        "    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)\n\n"
        "@triton.jit\ndef nanmin(a, b):\n"
        "    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)\n",
        {x.arg(), o.arg(), idx.arg()}, {{"R", R}, {"C", C}});
    for (int r = 0; r < R; ++r) {
      std::vector<double> row;
      double mx = NAN, mn = NAN;
      bool anyNan = false;
      for (int c = 0; c < C; ++c) {
        double v = x.f(r * C + c);
        row.push_back(v);
        anyNan |= std::isnan(v);
        mx = std::fmax(mx, v), mn = std::fmin(mn, v); // maxnum: NaN ignored
      }
      INFO("row " << r);
      // tl.max/min combine with maxnum/minnum: NaNs are ignored (an all-NaN
      // row gives NaN); PropagateNan.ALL in a custom combine returns NaN.
      CHECK(sameF(o.f(r), mx, true));
      CHECK(sameF(o.f(R + r), mn, true));
      CHECK(sameF(o.f(2 * R + r), anyNan ? NAN : mx, true));
      CHECK(sameF(o.f(3 * R + r), anyNan ? NAN : mn, true));
      auto [vmax, imax] = argTree(row, true);
      auto [vmin, imin] = argTree(row, false);
      CHECK(int(idx.i(r)) == imax);
      CHECK(int(idx.i(R + r)) == imin);
      CHECK(int(idx.i(2 * R + r)) == imax);
      CHECK(sameF(o.f(4 * R + r), vmax));
      CHECK(sameF(o.f(5 * R + r), vmin));
      // Consistent: the value returned is the one at the returned index.
      CHECK(sameF(o.f(4 * R + r), row[idx.i(2 * R + r)]));
      if (!anyNan) { // no NaN: the first maximum / minimum, tree or not
        CHECK(int(idx.i(r)) == int(std::find(row.begin(), row.end(), mx) - row.begin()));
        CHECK(int(idx.i(R + r)) == int(std::find(row.begin(), row.end(), mn) - row.begin()));
      }
    }
  }
}

TEST_CASE("sweep3: sort with NaNs orders the bits totally and puts NaNs last (ascending)",
          "[sweep]") {
  for (DType t : {DType::F32, DType::F16, DType::F64})
    for (bool desc : {false, true}) {
      Buf x = nanRows(t), o(t, R * C), o2(t, R * C);
      std::string src = "def kern(a_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):\n"
                        "    r = tl.arange(0, R)[:, None]\n    c = tl.arange(0, C)[None, :]\n"
                        "    x = tl.load(a_ptr + r * C + c)\n"
                        "    tl.store(o_ptr + r * C + c, tl.sort(x, descending=" +
                        std::string(desc ? "True" : "False") + "))\n";
      INFO("sort " << tl(t) << (desc ? " descending" : ""));
      run(src, {x.arg(), o.arg()}, {{"R", R}, {"C", C}});
      run(src, {x.arg(), o2.arg()}, {{"R", R}, {"C", C}});
      for (int r = 0; r < R; ++r) {
        // Numbers by value with -0.0 before +0.0, then the NaNs (with
        // their bits): the positive ones by rising payload, then the
        // negative ones by falling payload; all of it reversed descending.
        // Equal elements are then equal bits, so the result is the same
        // whatever order the sort visits them in.
        unsigned bits = t == DType::F16 ? 16 : t == DType::F32 ? 32 : 64;
        uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
        uint64_t sign = uint64_t(1) << (bits - 1);
        auto rank = [&](uint64_t v) {
          bool nan = std::isnan(decode(v, fmtOf(t))), neg = (v & sign) != 0;
          uint64_t mag = v & ~sign & all;
          if (nan)
            return std::make_tuple(2, neg ? 1 : 0, neg ? ~mag : mag);
          return std::make_tuple(1, 0, neg ? (~v & all) : (v | sign));
        };
        std::vector<uint64_t> want;
        for (int c = 0; c < C; ++c)
          want.push_back(x.bits(r * C + c));
        std::stable_sort(want.begin(), want.end(), [&](uint64_t p, uint64_t q) {
          return desc ? rank(p) > rank(q) : rank(p) < rank(q);
        });
        for (int c = 0; c < C; ++c) {
          INFO("row " << r << " col " << c << ": " << o.f(r * C + c));
          CHECK(o.bits(r * C + c) == want[c]);
          CHECK(o2.bits(r * C + c) == o.bits(r * C + c)); // deterministic
        }
      }
    }
}

TEST_CASE("sweep3: float atomic_max/atomic_min on ±0 and NaN follow the integer construction",
          "[sweep]") {
  // semantic.atomic_max/min: with neg = sign bit of val,
  //   max: neg ? atomic_umin(bits) : atomic_max(signed bits)
  //   min: neg ? atomic_umax(bits) : atomic_min(signed bits)
  // So memory is ordered by sign-magnitude bits: -NaN < -inf < ... < -0 <
  // +0 < ... < +inf < +NaN; the returned value is the old memory.
  for (DType t : {DType::F32, DType::F64}) {
    bool f32 = t == DType::F32;
    std::vector<uint64_t> s = {0,
                               f32 ? 0x80000000ull : 0x8000000000000000ull,
                               encode(1.0, fmtOf(t)), encode(-1.0, fmtOf(t)),
                               encode(INFINITY, fmtOf(t)), encode(-INFINITY, fmtOf(t)),
                               f32 ? kNaN : 0x7ff8000000000000ull,
                               f32 ? kNegNaN : 0xfff8000000000123ull,
                               f32 ? 0x7fffffffull : 0x7fffffffffffffffull,
                               encode(2.5, fmtOf(t)), encode(-2.5, fmtOf(t)), 1,
                               f32 ? 0x80000001ull : 0x8000000000000001ull};
    const int n = int(s.size() * s.size()), NL = 256;
    for (bool isMax : {true, false}) {
      Buf p(t, NL), v(t, NL), old(t, NL);
      for (int k = 0; k < n; ++k)
        p.setBits(k, s[k / s.size()]), v.setBits(k, s[k % s.size()]);
      Buf p0 = p;
      std::string fn = isMax ? "tl.atomic_max" : "tl.atomic_min";
      INFO(fn << " " << tl(t));
      run("def kern(p_ptr, v_ptr, o_ptr, n: tl.constexpr, N: tl.constexpr):\n"
          "    offs = tl.arange(0, N)\n    m = offs < n\n"
          "    v = tl.load(v_ptr + offs, mask=m)\n"
          "    tl.store(o_ptr + offs, " + fn + "(p_ptr + offs, v, mask=m), mask=m)\n",
          {p.arg(), v.arg(), old.arg()}, {{"n", n}, {"N", NL}});
      int bits = f32 ? 32 : 64;
      for (int k = 0; k < NL; ++k) {
        uint64_t x = p0.bits(k), y = v.bits(k);
        INFO("lane " << k << ": " << p0.f(k) << " (0x" << std::hex << x << ") op " << v.f(k)
                     << " (0x" << y << std::dec << ") -> " << p.f(k));
        if (k >= n) {
          CHECK(p.bits(k) == x);
          continue;
        }
        CHECK(old.bits(k) == x);
        bool neg = (y >> (bits - 1)) & 1;
        int64_t sx = int64_t(wrap(f32 ? DType::I32 : DType::I64, x)),
                sy = int64_t(wrap(f32 ? DType::I32 : DType::I64, y));
        uint64_t w = isMax ? (neg ? std::min(x, y) : (sx > sy ? x : y))
                           : (neg ? std::max(x, y) : (sx < sy ? x : y));
        CHECK(p.bits(k) == w);
      }
      // What that means, spelled out: ±0 and NaNs by their sign bits.
      auto at = [&](int i, int j) { return p.bits(i * int(s.size()) + j); };
      if (isMax) {
        CHECK(at(0, 1) == s[0]); // max(+0, -0) = +0
        CHECK(at(1, 0) == s[0]); // max(-0, +0) = +0
        CHECK(at(2, 6) == s[6]); // max(1, +NaN) = +NaN
        CHECK(at(2, 7) == s[2]); // max(1, -NaN) = 1
        CHECK(at(7, 2) == s[2]); // max(-NaN, 1) = 1
      } else {
        CHECK(at(0, 1) == s[1]); // min(+0, -0) = -0
        CHECK(at(1, 0) == s[1]); // min(-0, +0) = -0
        CHECK(at(3, 1) == s[3]); // min(-1, -0) = -1
        CHECK(at(2, 7) == s[7]); // min(1, -NaN) = -NaN
        CHECK(at(6, 2) == s[2]); // min(+NaN, 1) = 1
      }
    }
  }
}

namespace {
/// Triton's fp8e4b15 (triton/language/extra/cuda/utils.py): 1-4-3 with
/// exponent bias 15, every code finite, exponent 0 subnormal.
double decodeE4b15(uint64_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  double v = e ? std::ldexp(8 + m, e - 15 - 3) : std::ldexp(m, -14 - 3);
  return c & 0x80 ? -v : v;
}
/// Its encoder: fp32 -> fp16 toward zero, |x| = min(|x|, 1.75) (NaN -> 1.75),
/// then (fp16 bits * 2 + 0x80) >> 8: round half away from zero; sign kept.
uint64_t encodeE4b15(double v) {
  double a = std::fabs(v);
  a = std::isnan(a) ? 1.75 : std::min(roundTo(a, DType::F16, /*rtz=*/true), 1.75);
  uint64_t h = encode(a, fmtOf(DType::F16));
  return (std::signbit(v) ? 0x80 : 0) | (((h * 2 + 0x80) >> 8) & 0x7f);
}
/// The fnuz formats: 0x80 is the only NaN, no infinities, no -0.
double decodeFnuz(uint64_t c, int eb, int mb, int bias) {
  if (c == 0x80)
    return NAN;
  int e = (c >> mb) & ((1 << eb) - 1), m = c & ((1 << mb) - 1);
  double v = e ? std::ldexp((1 << mb) + m, e - bias - mb) : std::ldexp(m, 1 - bias - mb);
  return c & 0x80 ? -v : v;
}
/// Nearest-even, saturating to the largest finite value; NaN -> 0x80; a
/// result of zero is +0.
uint64_t encodeFnuz(double v, int eb, int mb, int bias) {
  if (std::isnan(v))
    return 0x80;
  double maxf = decodeFnuz(0x7f, eb, mb, bias), a = std::min(std::fabs(v), maxf);
  int emin = 1 - bias, e;
  std::frexp(a, &e);
  int q = std::max(e - 1, emin) - mb;
  double x = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);
  if (x == 0)
    return 0;
  int xe = std::ilogb(x);
  uint64_t code = xe < emin ? uint64_t(std::ldexp(x, mb - emin))
                            : (uint64_t(xe + bias) << mb) |
                                  (uint64_t(std::ldexp(x, mb - xe)) - (1u << mb));
  return (std::signbit(v) ? 0x80 : 0) | code;
}

/// Values around every binade of a small fp8 format: grid points, ties,
/// near-ties (± one fp16 ulp), saturation and specials.
std::vector<double> fp8Probes(int mb, int emin, int emax) {
  std::vector<double> v = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, 65504, 1e6};
  for (int e = emin - 3; e <= emax + 1; ++e)
    for (int m = 0; m < (2 << mb); ++m) {
      double x = std::ldexp(1.0 + m / double(2 << mb), e); // odd m: a tie
      for (double d : {0.0, 1.0, -1.0})
        v.push_back(roundTo((x + d * std::ldexp(1.0, e - 10)) * ((e + m) % 2 ? -1 : 1),
                            DType::F16));
    }
  for (int k = 0; k < (2 << mb); ++k) // ties between subnormals
    v.push_back(std::ldexp(k + 0.5, emin - mb) * (k % 2 ? -1 : 1));
  return v;
}

/// Decodes all 256 codes of `name` through .to(float32) (and fp16), then
/// encodes `probes` from fp16 and fp32; compares with the references.
void fp8Sweep(const std::string &name, double (*dec)(uint64_t), uint64_t (*enc)(double),
              const std::vector<double> &probes) {
  Buf codes(DType::U8, 256), f32(DType::F32, 256), f16(DType::F16, 256);
  for (int k = 0; k < 256; ++k)
    codes.setI(k, k);
  INFO(name);
  run("def kern(a_ptr, o_ptr, h_ptr):\n    offs = tl.arange(0, 256)\n"
      "    x = tl.load(a_ptr + offs).to(" + name + ", bitcast=True)\n"
      "    tl.store(o_ptr + offs, x.to(tl.float32))\n"
      "    tl.store(h_ptr + offs, x.to(tl.float16))\n",
      {codes.arg(), f32.arg(), f16.arg()});
  for (int k = 0; k < 256; ++k) {
    INFO("code " << k << " -> " << f32.f(k));
    CHECK(sameF(f32.f(k), dec(k)));
    CHECK(sameF(f16.f(k), dec(k)));
  }
  const int NP = 2048;
  REQUIRE(probes.size() <= size_t(NP));
  for (DType src : {DType::F16, DType::F32}) {
    Buf a(src, NP), bits(DType::U8, NP), back(DType::F32, NP);
    for (int k = 0; k < NP; ++k)
      a.setF(k, roundTo(probes[k % probes.size()], src));
    INFO("from " << tl(src));
    run("def kern(a_ptr, b_ptr, o_ptr, N: tl.constexpr):\n    offs = tl.arange(0, N)\n"
        "    x = tl.load(a_ptr + offs).to(" + name + ")\n"
        "    tl.store(b_ptr + offs, x.to(tl.uint8, bitcast=True))\n"
        "    tl.store(o_ptr + offs, x.to(tl.float32))\n",
        {a.arg(), bits.arg(), back.arg()}, {{"N", NP}});
    for (int k = 0; k < NP; ++k) {
      uint64_t want = enc(a.f(k));
      INFO("lane " << k << ": " << a.f(k) << " -> 0x" << std::hex << bits.i(k) << " want 0x"
                   << want << std::dec);
      CHECK(bits.i(k) == want);
      CHECK(sameF(back.f(k), dec(want)));
    }
  }
}
} // namespace

TEST_CASE("sweep3: fp8e4b15 decodes all codes and encodes as Triton's NVIDIA path", "[sweep]") {
  fp8Sweep("tl.float8e4b15", decodeE4b15, encodeE4b15, fp8Probes(3, -14, 1));
}

TEST_CASE("sweep3: fnuz fp8 formats (float8e4b8, float8e5b16)", "[sweep]") {
  fp8Sweep("tl.float8e4b8", [](uint64_t c) { return decodeFnuz(c, 4, 3, 8); },
           [](double v) { return encodeFnuz(v, 4, 3, 8); }, fp8Probes(3, -7, 7));
  fp8Sweep("tl.float8e5b16", [](uint64_t c) { return decodeFnuz(c, 5, 2, 16); },
           [](double v) { return encodeFnuz(v, 5, 2, 16); }, fp8Probes(2, -15, 15));
}

TEST_CASE("sweep3: `not` on non-boolean blocks and over-wide shifts fail cleanly", "[sweep]") {
  // Triton rejects `not` on non-int1 blocks (bitcast to int1), and shifting
  // by >= the bit width is undefined: any value, or an error, but no crash.
  static tritium::Compiler compiler;
  auto tryRun = [&](const std::string &src, std::vector<tritium::Arg> args) {
    auto k = compiler.compileString("import triton\nimport triton.language as tl\n\n"
                                    "@triton.jit\n" + src, "sweep3.py", "kern", {{"N", 64}});
    if (!k)
      return;
    auto err = k->launch({1, 1, 1}, args);
    if (err)
      CHECK(!err->message.empty());
  };
  for (DType t : {DType::I32, DType::F32, DType::I8}) {
    Buf a = tricky(t, 64, 3), o(DType::I1, 64);
    tryRun("def kern(a_ptr, o_ptr, N: tl.constexpr):\n    offs = tl.arange(0, N)\n"
           "    tl.store(o_ptr + offs, not tl.load(a_ptr + offs))\n",
           {a.arg(), o.arg()});
  }
  for (DType t : {DType::I8, DType::U8, DType::I32, DType::U32, DType::I64, DType::U64}) {
    Buf a = tricky(t, 64, 5), b(t, 64), o(t, 64), o2(t, 64);
    for (int k = 0; k < 64; ++k)
      b.setI(k, bitsOf(t) + (k % 4 == 3 ? 200 : k)); // >= width, and negative for i8
    tryRun("def kern(a_ptr, b_ptr, o_ptr, p_ptr, N: tl.constexpr):\n    offs = tl.arange(0, N)\n"
           "    a = tl.load(a_ptr + offs)\n    b = tl.load(b_ptr + offs)\n"
           "    tl.store(o_ptr + offs, a << b)\n    tl.store(p_ptr + offs, a >> b)\n",
           {a.arg(), b.arg(), o.arg(), o2.arg()});
  }
  SUCCEED("no crash");
}

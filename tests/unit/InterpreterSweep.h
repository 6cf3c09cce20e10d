//===- InterpreterSweep.h - helpers for the interpreter op sweeps -*- C++ -*-===//
//
// Shared by InterpreterSweepTest.cpp and InterpreterSweep2Test.cpp: typed host
// buffers for every DType, float formats encoded and decoded here (not with
// the implementation's helpers), Triton's type promotion, and a one-call
// compile-and-launch of a small kernel through the public API.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_INTERPRETERSWEEP_H
#define TRITIUM_TESTS_INTERPRETERSWEEP_H

#include "runtime/Tritium.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace sweep {
using tritium::DType;

inline bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}
inline bool isUnsigned(DType t) {
  return t == DType::U8 || t == DType::U16 || t == DType::U32 || t == DType::U64 ||
         t == DType::I1;
}
inline int bitsOf(DType t) {
  return t == DType::I1 ? 1 : int(tritium::dtypeBytes(t)) * 8;
}
inline std::string tl(DType t) {
  switch (t) {
  case DType::I1: return "tl.int1";
  case DType::I8: return "tl.int8";
  case DType::I16: return "tl.int16";
  case DType::I32: return "tl.int32";
  case DType::I64: return "tl.int64";
  case DType::U8: return "tl.uint8";
  case DType::U16: return "tl.uint16";
  case DType::U32: return "tl.uint32";
  case DType::U64: return "tl.uint64";
  case DType::F16: return "tl.float16";
  case DType::BF16: return "tl.bfloat16";
  case DType::F32: return "tl.float32";
  case DType::F64: return "tl.float64";
  case DType::F8E4NV: return "tl.float8e4nv";
  case DType::F8E5: return "tl.float8e5";
  case DType::F8E4B15: return "tl.float8e4b15";
  case DType::F8E4B8: return "tl.float8e4b8";
  case DType::F8E5B16: return "tl.float8e5b16";
  }
  return "?";
}

/// An IEEE-like binary format: exponent and mantissa bits; `inf` when the
/// all-ones exponent is inf/NaN (else e4m3fn: only S.1111.111 is NaN).
struct Fmt {
  int eb, mb;
  bool inf = true;
};
inline Fmt fmtOf(DType t) {
  switch (t) {
  case DType::F16: return {5, 10};
  case DType::BF16: return {8, 7};
  case DType::F32: return {8, 23};
  default: return {11, 52};
  }
}
const Fmt kE5M2{5, 2}, kE4M3{4, 3, false};

inline double decode(uint64_t b, Fmt f) {
  if (f.eb == 11)
    return [&] { double d; std::memcpy(&d, &b, 8); return d; }();
  int bias = (1 << (f.eb - 1)) - 1;
  bool neg = (b >> (f.eb + f.mb)) & 1;
  uint64_t e = (b >> f.mb) & ((1u << f.eb) - 1), m = b & ((1ull << f.mb) - 1);
  double v;
  if (f.inf && e == (1u << f.eb) - 1)
    v = m ? NAN : INFINITY;
  else if (!f.inf && e == (1u << f.eb) - 1 && m == (1ull << f.mb) - 1)
    v = NAN;
  else if (e == 0)
    v = std::ldexp(double(m), 1 - bias - f.mb);
  else
    v = std::ldexp(double(m | (1ull << f.mb)), int(e) - bias - f.mb);
  return neg ? -v : v;
}

/// Rounds `v` to the format (nearest-even, or toward zero) and returns its
/// bits. Overflow: inf (rtne) or the largest finite (rtz); `satfinite`
/// saturates both (and inf) to the largest finite value, as fp8 does.
inline uint64_t encode(double v, Fmt f, bool rtz = false, bool satfinite = false) {
  if (f.eb == 11) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  int bias = (1 << (f.eb - 1)) - 1, emin = 1 - bias;
  uint64_t sign = uint64_t(std::signbit(v)) << (f.eb + f.mb);
  uint64_t emask = (1u << f.eb) - 1;
  if (std::isnan(v))
    return f.inf ? sign | (emask << f.mb) | (1ull << (f.mb - 1))
                 : sign | (emask << f.mb) | ((1ull << f.mb) - 1);
  // Largest finite: all-ones exponent is reserved unless !inf (then m != all).
  int emax = f.inf ? int(emask) - 1 - bias : int(emask) - bias;
  double maxf = std::ldexp(f.inf ? 2.0 - std::ldexp(1, -f.mb) : 2.0 - std::ldexp(2, -f.mb), emax);
  double a = std::fabs(v);
  auto pack = [&](double x) -> uint64_t {
    if (x == 0)
      return sign;
    int e;
    std::frexp(x, &e);
    e -= 1;
    if (e < emin)
      return sign | uint64_t(std::ldexp(x, f.mb - emin));
    uint64_t m = uint64_t(std::ldexp(x, f.mb - e)) - (1ull << f.mb);
    return sign | (uint64_t(e + bias) << f.mb) | m;
  };
  if (std::isinf(a))
    return satfinite ? pack(maxf) : sign | (emask << f.mb); // rtz keeps inf
  int e;
  std::frexp(a, &e);
  int q = std::max(e - 1, emin) - f.mb; // exponent of one ulp
  double r = std::ldexp(a, -q);
  r = rtz ? std::trunc(r) : std::nearbyint(r);
  double x = std::ldexp(r, q);
  if (x > maxf)
    return (rtz || satfinite) ? pack(maxf) : sign | (emask << f.mb);
  return pack(x);
}
/// `v` rounded to the float dtype `t`, as a double.
inline double roundTo(double v, DType t, bool rtz = false) {
  return decode(encode(v, fmtOf(t), rtz), fmtOf(t));
}

/// An integer wrapped to dtype `t`: truncated and sign/zero-extended to 64
/// bits (I1 keeps bit 0).
inline uint64_t wrap(DType t, uint64_t v) {
  int b = bitsOf(t);
  if (b == 64)
    return v;
  uint64_t m = (1ull << b) - 1;
  v &= m;
  if (!isUnsigned(t) && (v >> (b - 1)) & 1)
    v |= ~m;
  return v;
}

/// A host buffer of `n` elements of `t`; lanes read and written as bits,
/// ints (sign/zero-extended), or doubles.
struct Buf {
  DType t;
  size_t n;
  std::vector<uint64_t> mem;
  Buf(DType t, size_t n) : t(t), n(n), mem((n * tritium::dtypeBytes(t) + 7) / 8 + 2, 0) {}
  size_t es() const { return tritium::dtypeBytes(t); }
  uint64_t bits(size_t i) const {
    uint64_t b = 0;
    std::memcpy(&b, reinterpret_cast<const char *>(mem.data()) + i * es(), es());
    return b;
  }
  void setBits(size_t i, uint64_t b) {
    std::memcpy(reinterpret_cast<char *>(mem.data()) + i * es(), &b, es());
  }
  uint64_t i(size_t k) const { return wrap(t, bits(k)); }
  void setI(size_t k, uint64_t v) { setBits(k, wrap(t, v)); }
  double f(size_t k) const { return decode(bits(k), fmtOf(t)); }
  void setF(size_t k, double v) { setBits(k, encode(v, fmtOf(t))); }
  /// The lane as a double, for either kind (ints may lose precision).
  double d(size_t k) const {
    return isFloat(t) ? f(k) : isUnsigned(t) ? double(i(k)) : double(int64_t(i(k)));
  }
  tritium::Arg arg() {
    return tritium::buffer(mem.data(), n * es(), t == DType::I1 ? DType::I1 : t);
  }
};

/// Triton's computation type for a binary op (semantic.computation_type_impl).
/// Returns false where Triton raises (mixed signedness with / // %).
inline bool promote(DType a, DType b, bool divOrMod, DType &out) {
  auto any = [&](DType t) { return a == t || b == t; };
  if (isFloat(a) || isFloat(b)) {
    out = any(DType::F64) ? DType::F64
          : any(DType::F32) ? DType::F32
          : any(DType::F16) ? (divOrMod ? DType::F32 : DType::F16)
          : (a == DType::BF16 && b == DType::BF16 && !divOrMod) ? DType::BF16
                                                                : DType::F32;
    return true;
  }
  bool ua = isUnsigned(a) && a != DType::I1, ub = isUnsigned(b) && b != DType::I1;
  if (divOrMod && ua != ub)
    return false;
  int ra = bitsOf(a), rb = bitsOf(b);
  if (ua == ub)
    out = ra > rb ? a : b;
  else if (ua)
    out = ra >= rb ? a : b;
  else
    out = rb >= ra ? b : a;
  return true;
}

/// The value of lane `k` of `b` converted to dtype `t` as Triton's cast does
/// (ints: extension by the source's signedness; int->float rounds).
inline uint64_t castI(const Buf &b, size_t k, DType t) {
  if (b.t == DType::I1)
    return b.bits(k) & 1;
  return wrap(t, b.i(k));
}
inline double castF(const Buf &b, size_t k, DType t) {
  double v = isFloat(b.t) ? b.f(k)
             : isUnsigned(b.t) ? double(b.i(k)) // exact below 2^53; rounded after
                               : double(int64_t(b.i(k)));
  if (!isFloat(b.t) && bitsOf(b.t) == 64) {
    // Exact int64 -> t rounding: split into hi/lo parts (double may round).
    uint64_t u = b.i(k);
    bool neg = !isUnsigned(b.t) && int64_t(u) < 0;
    uint64_t mag = neg ? 0 - u : u;
    int msb = 63 - __builtin_clzll(mag | 1);
    int keep = fmtOf(t).mb + 1;
    if (msb >= keep) {
      int drop = msb + 1 - keep;
      uint64_t q = mag >> drop, rem = mag & ((1ull << drop) - 1), half = 1ull << (drop - 1);
      if (rem > half || (rem == half && (q & 1)))
        ++q;
      v = std::ldexp(double(q), drop);
      return roundTo(neg ? -v : v, t);
    }
    v = neg ? -double(mag) : double(mag);
  }
  return roundTo(v, t);
}

/// Tricky values for a dtype (as doubles for floats, bits for ints).
inline std::vector<uint64_t> intSpecials(DType t) {
  int b = bitsOf(t);
  uint64_t mx = isUnsigned(t) ? (b == 64 ? ~0ull : (1ull << b) - 1) : (1ull << (b - 1)) - 1;
  uint64_t mn = isUnsigned(t) ? 0 : wrap(t, 1ull << (b - 1));
  std::vector<uint64_t> v = {0, 1, wrap(t, -1), mx, mn, wrap(t, mx - 1), wrap(t, mn + 1),
                             2, wrap(t, -2), 7, wrap(t, -7), 3, 100,
                             // just above a rounding tie in bf16 (and fp32)
                             0x40400001, 0x4000004000000001ull};
  for (auto &x : v)
    x = wrap(t, x);
  return v;
}
inline std::vector<double> floatSpecials(DType t) {
  double mx = decode(encode(INFINITY, fmtOf(t), true), fmtOf(t));
  double tiny = decode(1, fmtOf(t)); // smallest subnormal
  double minNorm = decode(uint64_t(1) << fmtOf(t).mb, fmtOf(t));
  return {0.0, -0.0, 1.0, -1.0, NAN, INFINITY, -INFINITY, mx, -mx, tiny, -tiny, minNorm,
          0.5, -2.5, 3.0, 1.0 / 3, 7.25, -100.0};
}

/// `n` lanes of dtype `t`: the specials first (shuffled by `seed` into
/// distinct pairings with other buffers), then random values.
inline Buf tricky(DType t, size_t n, unsigned seed) {
  Buf b(t, n);
  std::mt19937_64 g(seed);
  if (isFloat(t)) {
    auto s = floatSpecials(t);
    for (size_t k = 0; k < n; ++k) {
      double v;
      if (k < 64)
        v = s[(k * (seed | 1) + k / s.size()) % s.size()];
      else
        v = std::ldexp(double(int64_t(g() % 2000001) - 1000000), int(g() % 12) - 20);
      b.setF(k, roundTo(v, t));
    }
  } else {
    auto s = intSpecials(t);
    for (size_t k = 0; k < n; ++k)
      b.setI(k, k < 64 ? s[(k * (seed | 1) + k / s.size()) % s.size()] : g());
  }
  return b;
}

/// Compiles `src` (kernel `kern`) and launches one program; REQUIREs success.
inline tritium::Kernel compile(const std::string &src, const tritium::Constexprs &cx = {}) {
  static tritium::Compiler compiler;
  std::string full = "import triton\nimport triton.language as tl\n\n@triton.jit\n" + src;
  auto k = compiler.compileString(full, "sweep.py", "kern", cx);
  INFO(full);
  INFO((k ? "" : k.error().message));
  REQUIRE(k);
  return std::move(*k);
}
inline void run(const std::string &src, std::vector<tritium::Arg> args,
                const tritium::Constexprs &cx = {}, tritium::Grid grid = {1, 1, 1}) {
  auto k = compile(src, cx);
  auto err = k.launch(grid, args);
  INFO(src);
  INFO((err ? err->message : ""));
  REQUIRE(!err);
}

/// Float lanes agree: same bits, or both NaN; `anyZero`: ±0 equal.
inline bool sameF(double got, double want, bool anyZero = false) {
  if (std::isnan(want))
    return std::isnan(got);
  if (got == 0 && want == 0 && anyZero)
    return true;
  return got == want && std::signbit(got) == std::signbit(want);
}
/// |got - want| in units of the dtype's ulp at `want`.
inline double ulps(double got, double want, DType t) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(want) || std::isinf(got))
    return got == want ? 0 : INFINITY;
  int e;
  std::frexp(want == 0 ? std::ldexp(1.0, -1000) : want, &e);
  int mb = fmtOf(t).mb, emin = (t == DType::F64 ? -1022 : -126);
  double ulp = std::ldexp(1.0, std::max(e - 1, emin) - mb);
  return std::fabs(got - want) / ulp;
}
} // namespace sweep

#endif

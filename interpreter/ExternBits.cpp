//===- ExternBits.cpp - libdevice symbols beyond plain float math -*- C++ -*-===//
//
// The libdevice functions that Extern.cpp's unary/binary <cmath> maps cannot
// express: ternary and quaternary float functions, the directed-rounding
// arithmetic (`__nv_fadd_rd` ...), conversions and bit casts, integer and
// bit functions, predicates, and functions with an int operand (ldexp, jn).
//
// Each symbol is one scalar function over raw operand bits (floats as their
// IEEE bits, ints zero-extended to 64 bits) returning the result's bits, with
// the signature it expects ("ff>f": two fp32 operands, fp32 result; codes as
// in the frontend's table: i/u 32-bit int, I/U 64-bit int, f fp32, d fp64).
// Rounding variants run under std::fesetround with the requested mode: IEEE
// arithmetic, conversions and sqrt honour it, so `volatile float r = a / b`
// is the correctly rounded quotient in that direction. This file is built
// with -frounding-math so nothing is folded or moved across the mode change.
//
//===----------------------------------------------------------------------===//
#include "interpreter/ExternBits.h"

#include "llvm/ADT/StringMap.h"

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

namespace tritium::interp {
namespace {

using Fn = uint64_t (*)(const uint64_t *);

struct Entry {
  Fn fn;
  const char *sig; // operand codes, '>', result code
  int mode;        // FE_* rounding mode, or -1 for none
};

// Operand and result bits.
float F(uint64_t b) {
  float f;
  uint32_t u = uint32_t(b);
  std::memcpy(&f, &u, 4);
  return f;
}
double D(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
int32_t I(uint64_t b) { return int32_t(uint32_t(b)); }
uint32_t U(uint64_t b) { return uint32_t(b); }
int64_t LL(uint64_t b) { return int64_t(b); }

/// An integral double saturated to T's range, NaN -> 0 (PTX cvt.*i).
template <class T> uint64_t sat(double r) {
  if (std::isnan(r))
    return 0;
  if (r <= double(std::numeric_limits<T>::min()))
    return uint64_t(std::numeric_limits<T>::min());
  // max + 1 is a power of two, exact in double.
  if (r >= 2.0 * double(std::numeric_limits<T>::max() / 2 + 1))
    return uint64_t(std::numeric_limits<T>::max());
  return uint64_t(T(r));
}

// Directed arithmetic: evaluated under the mode the loop has set.
template <class T> T op1(uint64_t b) {
  if constexpr (sizeof(T) == 4)
    return F(b);
  else
    return D(b);
}
template <class T> uint64_t add(const uint64_t *a) {
  volatile T x = op1<T>(a[0]), y = op1<T>(a[1]);
  volatile T r = x + y;
  return bits(T(r));
}
template <class T> uint64_t sub(const uint64_t *a) {
  volatile T x = op1<T>(a[0]), y = op1<T>(a[1]);
  volatile T r = x - y;
  return bits(T(r));
}
template <class T> uint64_t mul(const uint64_t *a) {
  volatile T x = op1<T>(a[0]), y = op1<T>(a[1]);
  volatile T r = x * y;
  return bits(T(r));
}
template <class T> uint64_t div(const uint64_t *a) {
  volatile T x = op1<T>(a[0]), y = op1<T>(a[1]);
  volatile T r = x / y;
  return bits(T(r));
}
template <class T> uint64_t rcp(const uint64_t *a) {
  volatile T x = op1<T>(a[0]);
  volatile T r = T(1) / x;
  return bits(T(r));
}
template <class T> uint64_t sqrtR(const uint64_t *a) {
  volatile T x = op1<T>(a[0]);
  volatile T r = std::sqrt(T(x));
  return bits(T(r));
}
template <class T> uint64_t fmaR(const uint64_t *a) {
  volatile T x = op1<T>(a[0]), y = op1<T>(a[1]), z = op1<T>(a[2]);
  volatile T r = std::fma(T(x), T(y), T(z));
  return bits(T(r));
}

// Conversions under the loop's mode: nearbyint rounds in the current
// direction, and int -> float and double -> float conversions honour it.
template <class T, class Src> uint64_t toInt(const uint64_t *a) {
  volatile Src x = op1<Src>(a[0]);
  return sat<T>(double(std::nearbyint(Src(x))));
}
template <class Dst, class Src> uint64_t intTo(const uint64_t *a) {
  volatile Src x;
  if constexpr (sizeof(Src) == 4)
    x = Src(uint32_t(a[0]));
  else
    x = Src(a[0]);
  volatile Dst r = Dst(Src(x));
  return bits(Dst(r));
}
uint64_t d2f(const uint64_t *a) {
  volatile double x = D(a[0]);
  volatile float r = float(double(x));
  return bits(float(r));
}

// 1 / sqrt(x) correctly rounded to fp32: the double estimate is within an
// ulp; the neighbour closer to the exact value is picked by comparing
// m^2 x with 1 at the midpoints m (exact in __float128: 74 bits at most).
uint64_t frsqrtRn(const uint64_t *a) {
  float x = F(a[0]);
  if (!(x > 0) || std::isinf(x))
    return bits(float(1.0 / std::sqrt(double(x))));
  float r = float(1.0 / std::sqrt(double(x)));
  auto above = [&](float c, float d) { // is (c+d)/2 above 1/sqrt(x)?
    __float128 m = ((__float128)c + (__float128)d) / 2;
    return m * m * (__float128)x > 1;
  };
  float up = std::nextafter(r, INFINITY), dn = std::nextafter(r, 0.0f);
  if (!above(r, up))
    return bits(up);
  if (above(dn, r))
    return bits(dn);
  return bits(r);
}

template <class T> double norm(const uint64_t *a, int n) {
  long double s = 0;
  for (int i = 0; i < n; ++i) {
    long double v = op1<T>(a[i]);
    if (std::isinf(v))
      return INFINITY;
    s += v * v;
  }
  return double(std::sqrt(s));
}
template <class T, int N> uint64_t normN(const uint64_t *a) {
  return bits(T(norm<T>(a, N)));
}
template <class T, int N> uint64_t rnormN(const uint64_t *a) {
  return bits(T(1.0L / (long double)norm<T>(a, N)));
}
template <class T> uint64_t fmaN(const uint64_t *a) {
  return bits(std::fma(op1<T>(a[0]), op1<T>(a[1]), op1<T>(a[2])));
}

// Integer and bit functions.
uint64_t absI(const uint64_t *a) {
  return uint32_t(I(a[0]) < 0 ? 0u - U(a[0]) : U(a[0]));
}
uint64_t absLL(const uint64_t *a) {
  return LL(a[0]) < 0 ? 0 - a[0] : a[0];
}
uint64_t brev(const uint64_t *a) {
  uint32_t v = U(a[0]), r = 0;
  for (int i = 0; i < 32; ++i)
    r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
uint64_t brevll(const uint64_t *a) {
  uint64_t v = a[0], r = 0;
  for (int i = 0; i < 64; ++i)
    r |= ((v >> i) & 1u) << (63 - i);
  return r;
}
uint64_t bytePerm(const uint64_t *a) {
  uint64_t src = (uint64_t(U(a[1])) << 32) | U(a[0]);
  uint32_t s = U(a[2]), r = 0;
  for (int n = 0; n < 4; ++n)
    r |= uint32_t((src >> (8 * ((s >> (4 * n)) & 7))) & 0xFF) << (8 * n);
  return r;
}
uint64_t mulhi(const uint64_t *a) {
  return uint32_t(uint64_t(int64_t(I(a[0])) * int64_t(I(a[1]))) >> 32);
}
uint64_t umulhi(const uint64_t *a) {
  return (uint64_t(U(a[0])) * U(a[1])) >> 32;
}
uint64_t mul64hi(const uint64_t *a) {
  return uint64_t((__int128)LL(a[0]) * LL(a[1]) >> 64);
}
uint64_t umul64hi(const uint64_t *a) {
  return uint64_t((unsigned __int128)a[0] * a[1] >> 64);
}
int64_t low24(uint64_t b) { return int64_t(I(b << 8) >> 8); }
uint64_t mul24(const uint64_t *a) {
  return uint32_t(uint64_t(low24(a[0]) * low24(a[1])));
}
uint64_t umul24(const uint64_t *a) {
  return uint32_t((U(a[0]) & 0xFFFFFFu) * (U(a[1]) & 0xFFFFFFu));
}
uint64_t sad(const uint64_t *a) {
  int64_t d = int64_t(I(a[0])) - I(a[1]);
  return uint32_t(U(a[2]) + uint32_t(d < 0 ? -d : d));
}
uint64_t usad(const uint64_t *a) {
  uint32_t x = U(a[0]), y = U(a[1]);
  return uint32_t(U(a[2]) + (x > y ? x - y : y - x));
}
uint64_t hadd(const uint64_t *a) {
  return uint32_t((int64_t(I(a[0])) + I(a[1])) >> 1);
}
uint64_t rhadd(const uint64_t *a) {
  return uint32_t((int64_t(I(a[0])) + I(a[1]) + 1) >> 1);
}
uint64_t uhadd(const uint64_t *a) {
  return uint32_t((uint64_t(U(a[0])) + U(a[1])) >> 1);
}
uint64_t urhadd(const uint64_t *a) {
  return uint32_t((uint64_t(U(a[0])) + U(a[1]) + 1) >> 1);
}

// Bit casts and word access.
uint64_t same(const uint64_t *a) { return a[0]; }
uint64_t hiloint2double(const uint64_t *a) {
  return (uint64_t(U(a[0])) << 32) | U(a[1]);
}
uint64_t loint(const uint64_t *a) { return uint32_t(a[0]); }
uint64_t hiint(const uint64_t *a) { return a[0] >> 32; }
// rcp64h: 1/x from the high word of x, keeping the high word of the result.
uint64_t rcp64h(const uint64_t *a) {
  double x = D(a[0] & 0xFFFFFFFF00000000ull);
  return bits(1.0 / x) & 0xFFFFFFFF00000000ull;
}

// Float -> int with a fixed rounding, predicates.
template <class T> uint64_t llrintT(const uint64_t *a) {
  return sat<int64_t>(std::nearbyint(double(op1<T>(a[0]))));
}
template <class T> uint64_t llroundT(const uint64_t *a) {
  return sat<int64_t>(std::round(double(op1<T>(a[0]))));
}
template <class T> uint64_t ilogbT(const uint64_t *a) {
  return uint32_t(std::ilogb(op1<T>(a[0])));
}
uint64_t isnanD(const uint64_t *a) { return std::isnan(D(a[0])); }
uint64_t isinfD(const uint64_t *a) { return std::isinf(D(a[0])); }
uint64_t isfiniteD(const uint64_t *a) { return std::isfinite(D(a[0])); }
uint64_t finiteF(const uint64_t *a) { return std::isfinite(F(a[0])); }
uint64_t signbitD(const uint64_t *a) { return std::signbit(D(a[0])); }

// Functions with an int operand; fp32 via double, rounded once.
template <class T> uint64_t ldexpT(const uint64_t *a) {
  return bits(std::ldexp(op1<T>(a[0]), I(a[1])));
}
template <class T> uint64_t scalbnT(const uint64_t *a) {
  return bits(std::scalbn(op1<T>(a[0]), I(a[1])));
}
template <class T> uint64_t powiT(const uint64_t *a) {
  return bits(T(std::pow(double(op1<T>(a[0])), double(I(a[1])))));
}
template <class T> uint64_t jnT(const uint64_t *a) {
  return bits(T(::jn(I(a[0]), double(op1<T>(a[1])))));
}
template <class T> uint64_t ynT(const uint64_t *a) {
  return bits(T(::yn(I(a[0]), double(op1<T>(a[1])))));
}

// nextafter on fp32 steps by an fp32 ulp (in double it would round back).
uint64_t nextafterF(const uint64_t *a) {
  return bits(std::nextafter(F(a[0]), F(a[1])));
}

// fast_* approximations: the exact functions.
uint64_t fastDiv(const uint64_t *a) { return bits(F(a[0]) / F(a[1])); }
uint64_t fastPow(const uint64_t *a) {
  return bits(float(std::pow(double(F(a[0])), double(F(a[1])))));
}
template <double (*G)(double)> uint64_t fastU(const uint64_t *a) {
  return bits(float(G(double(F(a[0])))));
}
double sinD(double x) { return std::sin(x); }
double cosD(double x) { return std::cos(x); }
double tanD(double x) { return std::tan(x); }
double expD(double x) { return std::exp(x); }
double exp10D(double x) { return std::pow(10.0, x); }
double logD(double x) { return std::log(x); }
double log2D(double x) { return std::log2(x); }
double log10D(double x) { return std::log10(x); }

const llvm::StringMap<Entry> &table() {
  static const llvm::StringMap<Entry> m = [] {
    llvm::StringMap<Entry> t;
    auto add1 = [&](const char *name, Fn fn, const char *sig) {
      t[name] = {fn, sig, -1};
    };
    // `name` + rn/rz/rd/ru, each under its mode.
    auto addR = [&](const std::string &name, Fn fn, const char *sig) {
      const std::pair<const char *, int> modes[] = {{"rn", FE_TONEAREST},
                                                    {"rz", FE_TOWARDZERO},
                                                    {"rd", FE_DOWNWARD},
                                                    {"ru", FE_UPWARD}};
      for (auto [s, mode] : modes)
        t[name + s] = {fn, sig, mode};
    };
    add1("fmaf", fmaN<float>, "fff>f");
    add1("fma", fmaN<double>, "ddd>d");
    add1("norm3df", normN<float, 3>, "fff>f");
    add1("norm3d", normN<double, 3>, "ddd>d");
    add1("rnorm3df", rnormN<float, 3>, "fff>f");
    add1("rnorm3d", rnormN<double, 3>, "ddd>d");
    add1("norm4df", normN<float, 4>, "ffff>f");
    add1("norm4d", normN<double, 4>, "dddd>d");
    add1("rnorm4df", rnormN<float, 4>, "ffff>f");
    add1("rnorm4d", rnormN<double, 4>, "dddd>d");

    addR("fmaf_", fmaR<float>, "fff>f");
    addR("fma_", fmaR<double>, "ddd>d");
    addR("fadd_", add<float>, "ff>f");
    addR("dadd_", add<double>, "dd>d");
    addR("fsub_", sub<float>, "ff>f");
    addR("dsub_", sub<double>, "dd>d");
    addR("fmul_", mul<float>, "ff>f");
    addR("dmul_", mul<double>, "dd>d");
    addR("fdiv_", div<float>, "ff>f");
    addR("ddiv_", div<double>, "dd>d");
    addR("frcp_", rcp<float>, "f>f");
    addR("drcp_", rcp<double>, "d>d");
    addR("fsqrt_", sqrtR<float>, "f>f");
    addR("dsqrt_", sqrtR<double>, "d>d");
    add1("frsqrt_rn", frsqrtRn, "f>f");

    addR("double2float_", d2f, "d>f");
    addR("double2int_", toInt<int32_t, double>, "d>i");
    addR("double2uint_", toInt<uint32_t, double>, "d>i");
    addR("double2ll_", toInt<int64_t, double>, "d>I");
    addR("double2ull_", toInt<uint64_t, double>, "d>I");
    addR("float2int_", toInt<int32_t, float>, "f>i");
    addR("float2uint_", toInt<uint32_t, float>, "f>i");
    addR("float2ll_", toInt<int64_t, float>, "f>I");
    addR("float2ull_", toInt<uint64_t, float>, "f>I");
    addR("int2float_", intTo<float, int32_t>, "i>f");
    addR("uint2float_", intTo<float, uint32_t>, "i>f");
    addR("ll2float_", intTo<float, int64_t>, "I>f");
    addR("ull2float_", intTo<float, uint64_t>, "I>f");
    addR("ll2double_", intTo<double, int64_t>, "I>d");
    addR("ull2double_", intTo<double, uint64_t>, "I>d");
    add1("int2double_rn", intTo<double, int32_t>, "i>d");
    add1("uint2double_rn", intTo<double, uint32_t>, "i>d");

    add1("hiloint2double", hiloint2double, "ii>d");
    add1("double2loint", loint, "d>i");
    add1("double2hiint", hiint, "d>i");
    add1("int_as_float", same, "i>f");
    add1("float_as_int", same, "f>i");
    add1("uint_as_float", same, "i>f");
    add1("float_as_uint", same, "f>i");
    add1("longlong_as_double", same, "I>d");
    add1("double_as_longlong", same, "d>I");
    add1("rcp64h", rcp64h, "d>d");

    add1("abs", absI, "i>i");
    add1("llabs", absLL, "I>I");
    add1("brev", brev, "i>i");
    add1("brevll", brevll, "I>I");
    add1("byte_perm", bytePerm, "iii>i");
    add1("mulhi", mulhi, "ii>i");
    add1("umulhi", umulhi, "ii>i");
    add1("mul64hi", mul64hi, "II>I");
    add1("umul64hi", umul64hi, "II>I");
    add1("mul24", mul24, "ii>i");
    add1("umul24", umul24, "ii>i");
    add1("sad", sad, "iii>i");
    add1("usad", usad, "iii>i");
    add1("hadd", hadd, "ii>i");
    add1("rhadd", rhadd, "ii>i");
    add1("uhadd", uhadd, "ii>i");
    add1("urhadd", urhadd, "ii>i");

    add1("llrintf", llrintT<float>, "f>I");
    add1("llrint", llrintT<double>, "d>I");
    add1("llroundf", llroundT<float>, "f>I");
    add1("llround", llroundT<double>, "d>I");
    add1("ilogbf", ilogbT<float>, "f>i");
    add1("ilogb", ilogbT<double>, "d>i");
    add1("isnand", isnanD, "d>i");
    add1("isinfd", isinfD, "d>i");
    add1("isfinited", isfiniteD, "d>i");
    add1("finitef", finiteF, "f>i");
    add1("signbitd", signbitD, "d>i");

    add1("ldexpf", ldexpT<float>, "fi>f");
    add1("ldexp", ldexpT<double>, "di>d");
    add1("scalbnf", scalbnT<float>, "fi>f");
    add1("scalbn", scalbnT<double>, "di>d");
    add1("powif", powiT<float>, "fi>f");
    add1("powi", powiT<double>, "di>d");
    add1("jnf", jnT<float>, "if>f");
    add1("jn", jnT<double>, "id>d");
    add1("ynf", ynT<float>, "if>f");
    add1("yn", ynT<double>, "id>d");

    add1("nextafterf", nextafterF, "ff>f");
    add1("fast_fdividef", fastDiv, "ff>f");
    add1("fast_powf", fastPow, "ff>f");
    add1("fast_sinf", fastU<sinD>, "f>f");
    add1("fast_cosf", fastU<cosD>, "f>f");
    add1("fast_tanf", fastU<tanD>, "f>f");
    add1("fast_expf", fastU<expD>, "f>f");
    add1("fast_exp10f", fastU<exp10D>, "f>f");
    add1("fast_logf", fastU<logD>, "f>f");
    add1("fast_log2f", fastU<log2D>, "f>f");
    add1("fast_log10f", fastU<log10D>, "f>f");
    return t;
  }();
  return m;
}

EK codeKind(char c) {
  switch (c) {
  case 'i':
  case 'u':
    return EK::I32;
  case 'I':
  case 'U':
    return EK::I64;
  case 'f':
    return EK::F32;
  default:
    return EK::F64;
  }
}

constexpr int kMaxArgs = 4;

void bitsLoop(const Op &op, Frame &f) {
  const Entry &e = *static_cast<const Entry *>(op.ptr);
  int64_t n = op.count(f);
  size_t nin = op.in.size();
  const uint8_t *in[kMaxArgs];
  for (size_t j = 0; j < nin; ++j)
    in[j] = f.slot[op.in[j]];
  uint8_t *r = f.slot[op.res[0]];
  bool wide = op.c == 8;
  int saved = 0;
  if (e.mode >= 0) {
    saved = std::fegetround();
    std::fesetround(e.mode);
  }
  uint64_t a[kMaxArgs];
  for (int64_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < nin; ++j) {
      if (op.ints[j] == 8) {
        std::memcpy(&a[j], in[j] + 8 * i, 8);
      } else {
        uint32_t v;
        std::memcpy(&v, in[j] + 4 * i, 4);
        a[j] = v;
      }
    }
    uint64_t v = e.fn(a);
    if (wide)
      std::memcpy(r + 8 * i, &v, 8);
    else {
      uint32_t w = uint32_t(v);
      std::memcpy(r + 4 * i, &w, 4);
    }
  }
  if (e.mode >= 0)
    std::fesetround(saved);
}

} // namespace

Built buildExternBits(Builder &b, mlir::Operation *mop, Op &op,
                      llvm::StringRef name, const std::string &sym) {
  auto it = table().find(name);
  if (it == table().end())
    return Built::NotMine;
  const Entry &e = it->second;
  llvm::StringRef sig(e.sig);
  auto [args, ret] = sig.split('>');
  auto mismatch = [&] {
    return b.error(mop, "cannot interpret extern function '" + sym +
                            "': expected operands and result of types '" +
                            e.sig + "'"),
           Built::Error;
  };
  if (op.in.size() != args.size() || op.res.size() != 1)
    return mismatch();
  for (size_t j = 0; j < args.size(); ++j) {
    if (b.info(op.in[j]).kind != codeKind(args[j]))
      return mismatch();
    op.ints.push_back(elemBytes(codeKind(args[j])));
  }
  if (op.kind != codeKind(ret[0]))
    return mismatch();
  op.c = elemBytes(op.kind);
  op.ptr = &e;
  op.fn = bitsLoop;
  return Built::Ok;
}

} // namespace tritium::interp

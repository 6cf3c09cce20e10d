//===- Extern.cpp - tile.extern_elementwise via <cmath> ----------*- C++ -*-===//
//
// Maps libdevice symbols (`__nv_<name>f` for fp32, `__nv_<name>` for fp64)
// to the C library; ExternBits.cpp takes the rest of libdevice (ternary
// functions, directed roundings, conversions, integer functions). Unknown symbols are a create-time error naming the
// symbol, so a kernel never silently computes something else.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Elementwise.h"
#include "interpreter/ExternBits.h"

#include "ir/TileDialect.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>

using namespace mlir;

namespace tritium::interp {
namespace {

using U1 = double (*)(double);
using U2 = double (*)(double, double);

double erfinv(double y) {
  if (y <= -1)
    return y == -1 ? -INFINITY : NAN;
  if (y >= 1)
    return y == 1 ? INFINITY : NAN;
  // Giles' approximation refined by Newton steps on erf.
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                     0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941})
      x = c + x * w;
  } else {
    w = std::sqrt(w) - 3.0;
    x = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844,
                     0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
      x = c + x * w;
  }
  x *= y;
  for (int i = 0; i < 3; ++i)
    x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}

double sigNan(double x) { return std::isnan(x) ? 1 : 0; }
double sigInf(double x) { return std::isinf(x) ? 1 : 0; }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double exp10(double x) { return std::pow(10.0, x); }
double saturate(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
double signbitD(double x) { return std::signbit(x) ? 1 : 0; }
double erfcinv(double y) { return erfinv(1.0 - y); }
// Standard normal CDF and its inverse: Φ(x) = erfc(-x/√2)/2,
// Φ⁻¹(p) = √2 erfinv(2p - 1).
double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double normcdfinv(double p) { return std::sqrt(2.0) * erfinv(2.0 * p - 1.0); }
// erfcx(x) = exp(x²) erfc(x), with the asymptotic series where exp overflows.
double erfcx(double x) {
  if (x < 25.0)
    return std::exp(x * x) * std::erfc(x);
  double x2 = x * x;
  return (1.0 / (x * std::sqrt(M_PI))) *
         (1.0 - 1.0 / (2 * x2) + 3.0 / (4 * x2 * x2) - 15.0 / (8 * x2 * x2 * x2));
}

const llvm::StringMap<U1> &unary() {
  static const llvm::StringMap<U1> m = {
      {"tanh", [](double x) { return std::tanh(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"exp2", [](double x) { return std::exp2(x); }},
      {"exp10", exp10},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", rsqrt},
      {"cbrt", [](double x) { return std::cbrt(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"erfc", [](double x) { return std::erfc(x); }},
      {"erfinv", erfinv},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"asinh", [](double x) { return std::asinh(x); }},
      {"acosh", [](double x) { return std::acosh(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"trunc", [](double x) { return std::trunc(x); }},
      {"round", [](double x) { return std::round(x); }},
      {"rint", [](double x) { return std::nearbyint(x); }},
      {"nearbyint", [](double x) { return std::nearbyint(x); }},
      {"lgamma", [](double x) { return std::lgamma(x); }},
      {"tgamma", [](double x) { return std::tgamma(x); }},
      {"saturate", saturate},
      {"isnan", sigNan},
      {"isinf", sigInf},
      {"signbit", signbitD},
      {"sinpi", [](double x) { return std::sin(M_PI * x); }},
      {"cospi", [](double x) { return std::cos(M_PI * x); }},
      {"rcbrt", [](double x) { return 1.0 / std::cbrt(x); }},
      {"erfcinv", erfcinv},
      {"erfcx", erfcx},
      {"normcdf", normcdf},
      {"normcdfinv", normcdfinv},
      {"logb", [](double x) { return std::logb(x); }},
      {"j0", [](double x) { return ::j0(x); }},
      {"j1", [](double x) { return ::j1(x); }},
      {"y0", [](double x) { return ::y0(x); }},
      {"y1", [](double x) { return ::y1(x); }},
      {"cyl_bessel_i0", [](double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }},
      {"cyl_bessel_i1",
       [](double x) { return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x); }},
  };
  return m;
}

const llvm::StringMap<U2> &binary() {
  static const llvm::StringMap<U2> m = {
      {"pow", [](double x, double y) { return std::pow(x, y); }},
      {"powf", [](double x, double y) { return std::pow(x, y); }},
      {"atan2", [](double x, double y) { return std::atan2(x, y); }},
      {"fmod", [](double x, double y) { return std::fmod(x, y); }},
      {"fmin", [](double x, double y) { return std::fmin(x, y); }},
      {"fmax", [](double x, double y) { return std::fmax(x, y); }},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }},
      {"copysign", [](double x, double y) { return std::copysign(x, y); }},
      {"nextafter", [](double x, double y) { return std::nextafter(x, y); }},
      {"remainder", [](double x, double y) { return std::remainder(x, y); }},
      {"fdim", [](double x, double y) { return std::fdim(x, y); }},
      {"div_rn", [](double x, double y) { return x / y; }},
      {"rhypot", [](double x, double y) { return 1.0 / std::hypot(x, y); }},
  };
  return m;
}

// Results of fp32 functions are computed in double and rounded once.
template <class T> void unaryLoop(const Op &op, Frame &f) {
  auto fn = reinterpret_cast<U1>(const_cast<void *>(op.ptr));
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]);
  void *r = f.slot[op.res[0]];
  for (int64_t i = 0; i < n; ++i) {
    double v = fn(double(a[i]));
    if (isInt(op.kind))
      writeInt(r, i, op.kind, uint64_t(int64_t(v)));
    else
      static_cast<T *>(r)[i] = T(v);
  }
}

template <class T> void binaryLoop(const Op &op, Frame &f) {
  auto fn = reinterpret_cast<U2>(const_cast<void *>(op.ptr));
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]), *b = f.get<T>(op.in[1]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = T(fn(double(a[i]), double(b[i])));
}

template <class U> void popcLoop(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const U *a = f.get<U>(op.in[0]);
  uint32_t *r = f.get<uint32_t>(op.res[0]);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = a[i];
    int bits = sizeof(U) * 8;
    switch (op.a) {
    case 0: r[i] = __builtin_popcountll(v); break;
    case 1: r[i] = v ? __builtin_clzll(v) - (64 - bits) : bits; break;
    default: r[i] = v ? __builtin_ctzll(v) + 1 : 0; break; // ffs
    }
  }
}

} // namespace

Built buildExtern(Builder &b, Operation *mop, Op &op) {
  auto e = cast<tile::ExternElementwiseOp>(mop);
  fillCommon(b, mop, op);
  std::string sym = e.getSymbol().str();
  op.text = sym; // reports name the function
  llvm::StringRef name(sym);
  name.consume_front("__nv_");
  name.consume_front("__ocml_");
  EK k = op.srcKind;
  if (Built r = buildExternBits(b, mop, op, name, sym); r != Built::NotMine)
    return r;
  if (name == "popc" || name == "popcll" || name == "clz" || name == "clzll" ||
      name == "ffs" || name == "ffsll") {
    op.a = name.starts_with("popc") ? 0 : name.starts_with("clz") ? 1 : 2;
    op.fn = elemBytes(k) == 8 ? popcLoop<uint64_t> : popcLoop<uint32_t>;
    return Built::Ok;
  }
  if (k == EK::F32 && name.ends_with("f"))
    name = name.drop_back();
  else if (k == EK::F32 && name.ends_with("_f32"))
    name = name.drop_back(4);
  else if (k == EK::F64 && name.ends_with("_f64"))
    name = name.drop_back(4);
  if (k != EK::F32 && k != EK::F64)
    return b.error(mop, "cannot interpret extern function '" + sym + "' on " +
                            kindName(k) + " values"),
           Built::Error;
  if (op.in.size() == 1) {
    auto it = unary().find(name);
    if (it != unary().end()) {
      op.ptr = reinterpret_cast<const void *>(it->second);
      op.fn = k == EK::F32 ? unaryLoop<float> : unaryLoop<double>;
      return Built::Ok;
    }
  } else if (op.in.size() == 2) {
    auto it = binary().find(name);
    if (it != binary().end()) {
      op.ptr = reinterpret_cast<const void *>(it->second);
      op.fn = k == EK::F32 ? binaryLoop<float> : binaryLoop<double>;
      return Built::Ok;
    }
  }
  return b.error(mop, "cannot interpret extern function '" + sym +
                          "': not in the interpreter's libdevice table"),
         Built::Error;
}

} // namespace tritium::interp

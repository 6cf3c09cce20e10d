//===- InterpreterLibdeviceTest.cpp - tl.extra.libdevice on the interpreter ===//
//
// Every libdevice function the interpreter maps (unary and binary, fp32 and
// fp64) run through the whole pipeline on inputs inside its domain and
// compared with <cmath> evaluated here in double: fp32 within 4 ulp, fp64
// within 16 ulp (the interpreter computes in double; the references are
// independent formulas where <cmath> has no such function).
//
//===----------------------------------------------------------------------===//
#include "InterpreterSweep.h"

#include <functional>

using namespace sweep;
using tritium::DType;

namespace {
struct Fn {
  const char *name;
  std::function<double(double, double)> ref;
  double lo, hi; // input range
  int arity = 1;
};

double erfinvRef(double y) { // bisection on erf: slow, independent
  double a = -6, b = 6;
  for (int i = 0; i < 200; ++i) {
    double m = 0.5 * (a + b);
    (std::erf(m) < y ? a : b) = m;
  }
  return 0.5 * (a + b);
}

const std::vector<Fn> &functions() {
  static const std::vector<Fn> fns = {
      {"tanh", [](double x, double) { return std::tanh(x); }, -5, 5},
      {"expm1", [](double x, double) { return std::expm1(x); }, -3, 3},
      {"log1p", [](double x, double) { return std::log1p(x); }, -0.5, 10},
      {"log10", [](double x, double) { return std::log10(x); }, 0.01, 100},
      {"cbrt", [](double x, double) { return std::cbrt(x); }, -27, 27},
      {"rcbrt", [](double x, double) { return 1 / std::cbrt(x); }, 0.1, 27},
      {"erfc", [](double x, double) { return std::erfc(x); }, -2, 2},
      {"erfinv", [](double x, double) { return erfinvRef(x); }, -0.99, 0.99},
      {"erfcinv", [](double x, double) { return erfinvRef(1 - x); }, 0.01, 1.99},
      {"normcdf", [](double x, double) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }, -4, 4},
      {"normcdfinv",
       [](double p, double) { return std::sqrt(2.0) * erfinvRef(2 * p - 1); }, 0.01, 0.99},
      {"tan", [](double x, double) { return std::tan(x); }, -1.2, 1.2},
      {"asin", [](double x, double) { return std::asin(x); }, -1, 1},
      {"acos", [](double x, double) { return std::acos(x); }, -1, 1},
      {"atan", [](double x, double) { return std::atan(x); }, -10, 10},
      {"sinh", [](double x, double) { return std::sinh(x); }, -5, 5},
      {"cosh", [](double x, double) { return std::cosh(x); }, -5, 5},
      {"asinh", [](double x, double) { return std::asinh(x); }, -10, 10},
      {"acosh", [](double x, double) { return std::acosh(x); }, 1, 10},
      {"atanh", [](double x, double) { return std::atanh(x); }, -0.9, 0.9},
      {"sinpi", [](double x, double) { return std::sin(M_PI * x); }, -0.4, 0.4},
      {"cospi", [](double x, double) { return std::cos(M_PI * x); }, -0.4, 0.4},
      {"lgamma", [](double x, double) { return std::lgamma(x); }, 0.5, 10},
      {"tgamma", [](double x, double) { return std::tgamma(x); }, 0.5, 6},
      {"logb", [](double x, double) { return std::logb(x); }, 0.01, 1000},
      {"j0", [](double x, double) { return ::j0(x); }, 0, 2},
      {"j1", [](double x, double) { return ::j1(x); }, 0.1, 1.5},
      {"y0", [](double x, double) { return ::y0(x); }, 0.1, 0.8},
      {"cyl_bessel_i0", [](double x, double) { return std::cyl_bessel_i(0.0, std::fabs(x)); }, -3, 3},
      {"floor", [](double x, double) { return std::floor(x); }, -10, 10},
      {"trunc", [](double x, double) { return std::trunc(x); }, -10, 10},
      {"round", [](double x, double) { return std::round(x); }, -10, 10},
      {"rint", [](double x, double) { return std::nearbyint(x); }, -10, 10},
      {"fabs", [](double x, double) { return std::fabs(x); }, -10, 10},
      {"pow", [](double x, double y) { return std::pow(x, y); }, 0.1, 3, 2},
      {"atan2", [](double y, double x) { return std::atan2(y, x); }, -3, 3, 2},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }, -3, 3, 2},
      {"rhypot", [](double x, double y) { return 1 / std::hypot(x, y); }, 0.5, 3, 2},
      {"fmod", [](double x, double y) { return std::fmod(x, y); }, 0.5, 7, 2},
      {"copysign", [](double x, double y) { return std::copysign(x, y); }, -3, 3, 2},
      {"fdim", [](double x, double y) { return std::fdim(x, y); }, -3, 3, 2},
      {"fmin", [](double x, double y) { return std::fmin(x, y); }, -3, 3, 2},
      {"fmax", [](double x, double y) { return std::fmax(x, y); }, -3, 3, 2},
  };
  return fns;
}
} // namespace

TEST_CASE("libdevice functions on fp32 and fp64", "[sweep][libdevice]") {
  const int n = 64;
  for (DType t : {DType::F32, DType::F64}) {
    for (const Fn &fn : functions()) {
      INFO(std::string("libdevice.") + fn.name + " on " + tl(t));
      Buf x(t, n), y(t, n), out(t, n);
      std::mt19937_64 rng(7);
      std::uniform_real_distribution<double> u(fn.lo, fn.hi);
      for (int i = 0; i < n; ++i) {
        x.setF(i, roundTo(u(rng), t));
        y.setF(i, roundTo(u(rng), t));
      }
      std::string call = fn.arity == 1 ? "tl.extra.libdevice." + std::string(fn.name) + "(a)"
                                       : "tl.extra.libdevice." + std::string(fn.name) + "(a, b)";
      run("def kern(X, Y, O):\n"
          "    from_ = tl.arange(0, 64)\n"
          "    a = tl.load(X + from_)\n"
          "    b = tl.load(Y + from_)\n"
          "    tl.store(O + from_, " + call + ")\n",
          {x.arg(), y.arg(), out.arg()});
      for (int i = 0; i < n; ++i) {
        double want = roundTo(fn.ref(x.f(i), y.f(i)), t);
        double err = ulps(out.f(i), want, t);
        INFO("lane " << i << ": f(" << x.f(i) << ", " << y.f(i) << ") = "
                     << out.f(i) << ", want " << want);
        CHECK(err <= (t == DType::F32 ? 4.0 : 16.0));
      }
    }
  }
}

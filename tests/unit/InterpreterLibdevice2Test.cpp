//===- InterpreterLibdevice2Test.cpp - the rest of libdevice, interpreted -===//
//
// Every libdevice function the frontend exposes that InterpreterLibdeviceTest
// does not already sweep, run through the whole pipeline: directed-rounding
// arithmetic and conversions (checked to bracket the exact value, computed
// in __float128: rd <= exact < next, rz toward zero, rn within half an ulp),
// conversions and bit casts, integer and bit functions, predicates, ternary
// and quaternary functions, int-operand functions, fast_* approximations and
// the remaining unary/binary float functions. References are independent
// formulas here, or <cmath> in double within a few ulps.
//
//===----------------------------------------------------------------------===//
#include "InterpreterSweep.h"

#include <bitset>
#include <cstdio>
#include <functional>

using namespace sweep;
using tritium::DType;

namespace {
using Q = __float128;

int sgn(Q x) { return (x > 0) - (x < 0); }

/// One lane: operands and result, read through their dtypes.
struct Lane {
  const std::vector<Buf> *in;
  const Buf *out;
  int k;
  double f(int j) const { return (*in)[j].f(k); }
  int64_t s(int j) const { return int64_t((*in)[j].i(k)); }
  uint64_t u(int j) const { return (*in)[j].bits(k); }
  double rf() const { return out->f(k); }
  int64_t rs() const { return int64_t(out->i(k)); }
  uint64_t rb() const { return out->bits(k); }
};
using Check = std::function<bool(const Lane &)>;

struct Case {
  std::string fn;  // libdevice name
  std::string sig; // operand codes: i int32, u uint32, I int64, U uint64, f, d
  char ret;        // result code; 'b': an int1 predicate (stored as int32)
  Check check;
  double lo = -8, hi = 8; // float operands
  bool tricky = false;    // float operands from sweep::tricky (NaN, inf, ...)
  int64_t ilo = 0, ihi = -1; // int operands (ihi < ilo: all bit patterns)
};

DType dtOf(char c) {
  switch (c) {
  case 'i': case 'b': return DType::I32;
  case 'u': return DType::U32;
  case 'I': return DType::I64;
  case 'U': return DType::U64;
  case 'f': return DType::F32;
  default: return DType::F64;
  }
}

/// `got` is the exact value (cmp(c) = sign(c - exact)) rounded by `mode`.
template <class T> bool directed(const std::string &mode, T got, const std::function<int(Q)> &cmp) {
  if (std::isnan(got))
    return false;
  T up = std::nextafter(got, T(INFINITY)), dn = std::nextafter(got, -T(INFINITY));
  auto down = [&] { return cmp(Q(got)) <= 0 && (std::isinf(up) || cmp(Q(up)) > 0); };
  auto upw = [&] { return cmp(Q(got)) >= 0 && (std::isinf(dn) || cmp(Q(dn)) < 0); };
  if (mode == "rd")
    return down();
  if (mode == "ru")
    return upw();
  if (mode == "rz")
    return cmp(Q(0)) <= 0 ? down() : upw();
  return cmp((Q(got) + Q(dn)) / 2) <= 0 && cmp((Q(got) + Q(up)) / 2) >= 0;
}
bool dirAs(const std::string &mode, char t, const Lane &l, const std::function<int(Q)> &cmp) {
  return t == 'f' ? directed<float>(mode, float(l.rf()), cmp)
                  : directed<double>(mode, l.rf(), cmp);
}

/// An integral double saturated to the range [lo, hi] of the result.
int64_t satS(double r, double lo, double hi) {
  return std::isnan(r) ? 0 : r <= lo ? int64_t(lo) : r >= hi ? int64_t(hi) : int64_t(r);
}
uint64_t satU(double r, double hi) { // unsigned: [0, hi]
  return std::isnan(r) || r <= 0 ? 0 : r >= hi ? uint64_t(hi) : uint64_t(r);
}
double roundMode(double x, const std::string &m) {
  if (m == "rz")
    return std::trunc(x);
  if (m == "rd")
    return std::floor(x);
  if (m == "ru")
    return std::ceil(x);
  double r = std::floor(x), d = x - r; // nearest, ties to even
  return d > 0.5 || (d == 0.5 && std::fmod(r, 2) != 0) ? r + 1 : r;
}

bool near(double got, double want, char t, double tol) {
  return ulps(got, roundTo(want, dtOf(t)), dtOf(t)) <= tol;
}
Check unaryRef(char t, std::function<double(double)> g, double tol = 4) {
  return [=](const Lane &l) { return near(l.rf(), g(l.f(0)), t, t == 'f' ? tol : 4 * tol); };
}
Check binaryRef(char t, std::function<double(double, double)> g, double tol = 4) {
  return [=](const Lane &l) {
    return near(l.rf(), g(l.f(0), l.f(1)), t, t == 'f' ? tol : 4 * tol);
  };
}

std::vector<Case> cases() {
  std::vector<Case> cs;
  const char *modes[] = {"rn", "rz", "rd", "ru"};
  // Directed-rounding arithmetic in fp32 and fp64.
  for (std::string m : modes) {
    for (char t : {'f', 'd'}) {
      std::string s1(1, t), s2(2, t), s3(3, t);
      cs.push_back({"add_" + m, s2, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) { return sgn(c - (Q(l.f(0)) + Q(l.f(1)))); });
                    }});
      cs.push_back({"sub_" + m, s2, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) { return sgn(c - (Q(l.f(0)) - Q(l.f(1)))); });
                    }});
      cs.push_back({"mul_" + m, s2, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) { return sgn(c - Q(l.f(0)) * Q(l.f(1))); });
                    }});
      cs.push_back({"div_" + m, s2, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) {
                        return sgn(c * Q(l.f(1)) - Q(l.f(0))) * sgn(Q(l.f(1)));
                      });
                    }});
      cs.push_back({"rcp_" + m, s1, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) { return sgn(c * Q(l.f(0)) - 1) * sgn(Q(l.f(0))); });
                    }});
      cs.push_back({"sqrt_" + m, s1, t,
                    [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) { return sgn(c * (c < 0 ? -c : c) - Q(l.f(0))); });
                    },
                    0.01, 100});
      cs.push_back({"fma_" + m, s3, t, [=](const Lane &l) {
                      return dirAs(m, t, l, [&](Q c) {
                        return sgn(c - (Q(l.f(0)) * Q(l.f(1)) + Q(l.f(2))));
                      });
                    }});
    }
    // Conversions.
    cs.push_back({"double2float_" + m, "d", 'f',
                  [=](const Lane &l) { return dirAs(m, 'f', l, [&](Q c) { return sgn(c - Q(l.f(0))); }); },
                  -1e6, 1e6});
    auto toInt = [&](const char *fn, char src, char ret, std::function<bool(double, const Lane &)> ok,
                     double lo, double hi) {
      cs.push_back({std::string(fn) + m, std::string(1, src), ret,
                    [=](const Lane &l) { return ok(roundMode(l.f(0), m), l); }, lo, hi});
    };
    auto i32 = [](double r, const Lane &l) { return l.rs() == satS(r, -2147483648.0, 2147483647.0); };
    auto u32 = [](double r, const Lane &l) { return uint32_t(l.rb()) == satU(r, 4294967295.0); };
    auto i64 = [](double r, const Lane &l) {
      return l.rs() == (std::isnan(r) ? 0
                        : r >= 9223372036854775808.0 ? INT64_MAX
                        : r <= -9223372036854775808.0 ? INT64_MIN
                                                       : int64_t(r));
    };
    auto u64 = [](double r, const Lane &l) {
      return l.rb() == (r >= 18446744073709551616.0 ? UINT64_MAX : r <= 0 ? 0 : uint64_t(r));
    };
    for (char src : {'f', 'd'}) {
      std::string p = src == 'f' ? "float2" : "double2";
      toInt((p + "int_").c_str(), src, 'i', i32, -5e9, 5e9);
      toInt((p + "uint_").c_str(), src, 'i', u32, -1e9, 8e9);
      toInt((p + "ll_").c_str(), src, 'I', i64, -2e19, 2e19);
      toInt((p + "ull_").c_str(), src, 'I', u64, -1e19, 4e19);
      toInt((p + "int_").c_str(), src, 'i', i32, -100, 100); // fractions
    }
    auto fromInt = [&](const char *fn, char src, char t, bool uns) {
      cs.push_back({std::string(fn) + m, std::string(1, src), t, [=](const Lane &l) {
                      Q x = uns ? Q(l.u(0)) : Q(l.s(0));
                      return dirAs(m, t, l, [&](Q c) { return sgn(c - x); });
                    }});
    };
    fromInt("int2float_", 'i', 'f', false);
    fromInt("uint2float_", 'u', 'f', true);
    fromInt("ll2float_", 'I', 'f', false);
    fromInt("ull2float_", 'U', 'f', true);
    fromInt("ll2double_", 'I', 'd', false);
    fromInt("ull2double_", 'U', 'd', true);
  }
  cs.push_back({"int2double_rn", "i", 'd', [](const Lane &l) { return l.rf() == double(l.s(0)); }});
  cs.push_back({"uint2double_rn", "u", 'd', [](const Lane &l) { return l.rf() == double(l.u(0)); }});
  cs.push_back({"rsqrt_rn", "f", 'f',
                [](const Lane &l) {
                  // sign(c - 1/sqrt(x)) = sign(c^2 x - 1) for c > 0
                  return directed<float>("rn", float(l.rf()), [&](Q c) { return sgn(c * c * Q(l.f(0)) - 1); });
                },
                0.001, 1000});

  // Bit casts and words.
  auto bitsEq = [](const Lane &l) { return l.rb() == l.u(0); };
  cs.push_back({"int_as_float", "i", 'f', bitsEq});
  cs.push_back({"uint_as_float", "u", 'f', bitsEq});
  cs.push_back({"float_as_int", "f", 'i', bitsEq});
  cs.push_back({"float_as_uint", "f", 'i', bitsEq});
  cs.push_back({"longlong_as_double", "I", 'd', bitsEq});
  cs.push_back({"double_as_longlong", "d", 'I', bitsEq});
  cs.push_back({"hiloint2double", "ii", 'd', [](const Lane &l) {
                  return l.rb() == ((l.u(0) << 32) | l.u(1));
                }});
  cs.push_back({"double2hiint", "d", 'i', [](const Lane &l) { return uint32_t(l.rb()) == l.u(0) >> 32; }});
  cs.push_back({"double2loint", "d", 'i', [](const Lane &l) { return uint32_t(l.rb()) == uint32_t(l.u(0)); }});
  cs.push_back({"rcp64h", "d", 'd',
                [](const Lane &l) {
                  return (l.rb() & 0xFFFFFFFFu) == 0 && std::fabs(l.rf() * l.f(0) - 1) < 1e-5;
                },
                0.1, 100});

  // Integer and bit functions.
  cs.push_back({"abs", "i", 'i', [](const Lane &l) {
                  return uint32_t(l.rb()) == uint32_t(l.s(0) < 0 ? -l.s(0) : l.s(0));
                }});
  cs.push_back({"abs", "I", 'I', [](const Lane &l) {
                  return l.rb() == (l.s(0) < 0 ? 0 - l.u(0) : l.u(0));
                }});
  cs.push_back({"brev", "i", 'i', [](const Lane &l) {
                  uint32_t v = uint32_t(l.u(0));
                  v = (v >> 16) | (v << 16);
                  v = ((v & 0xFF00FF00u) >> 8) | ((v & 0x00FF00FFu) << 8);
                  v = ((v & 0xF0F0F0F0u) >> 4) | ((v & 0x0F0F0F0Fu) << 4);
                  v = ((v & 0xCCCCCCCCu) >> 2) | ((v & 0x33333333u) << 2);
                  v = ((v & 0xAAAAAAAAu) >> 1) | ((v & 0x55555555u) << 1);
                  return uint32_t(l.rb()) == v;
                }});
  cs.push_back({"brev", "I", 'I', [](const Lane &l) {
                  uint64_t v = l.u(0), r = 0;
                  for (int i = 0; i < 64; ++i, v >>= 1)
                    r = (r << 1) | (v & 1);
                  return l.rb() == r;
                }});
  cs.push_back({"byte_perm", "iii", 'i', [](const Lane &l) {
                  uint8_t bytes[8];
                  for (int i = 0; i < 4; ++i) {
                    bytes[i] = uint8_t(l.u(0) >> (8 * i));
                    bytes[4 + i] = uint8_t(l.u(1) >> (8 * i));
                  }
                  uint32_t r = 0;
                  for (int i = 3; i >= 0; --i)
                    r = (r << 8) | bytes[(l.u(2) >> (4 * i)) & 7];
                  return uint32_t(l.rb()) == r;
                }});
  cs.push_back({"mulhi", "ii", 'i', [](const Lane &l) {
                  return l.rs() == (l.s(0) * l.s(1)) >> 32; // exact in int64
                }});
  cs.push_back({"mulhi", "uu", 'u', [](const Lane &l) { return l.rb() == (l.u(0) * l.u(1)) >> 32; }});
  cs.push_back({"mulhi", "II", 'I', [](const Lane &l) {
                  __int128 p = __int128(l.s(0)) * l.s(1);
                  return l.rs() == int64_t(p >> 64);
                }});
  cs.push_back({"mulhi", "UU", 'U', [](const Lane &l) {
                  // schoolbook on 32-bit halves
                  uint64_t a = l.u(0), b = l.u(1), al = a & 0xFFFFFFFF, ah = a >> 32, bl = b & 0xFFFFFFFF,
                           bh = b >> 32;
                  uint64_t mid = (al * bl >> 32) + (ah * bl & 0xFFFFFFFF) + (al * bh & 0xFFFFFFFF);
                  return l.rb() == ah * bh + (ah * bl >> 32) + (al * bh >> 32) + (mid >> 32);
                }});
  auto s24 = [](int64_t v) { v &= 0xFFFFFF; return v >= 0x800000 ? v - 0x1000000 : v; };
  cs.push_back({"mul24", "ii", 'i', [=](const Lane &l) {
                  return uint32_t(l.rb()) == uint32_t(s24(l.s(0)) * s24(l.s(1)));
                }});
  cs.push_back({"mul24", "uu", 'u', [](const Lane &l) {
                  return l.rb() == uint32_t((l.u(0) & 0xFFFFFF) * (l.u(1) & 0xFFFFFF));
                }});
  cs.push_back({"sad", "iiu", 'i', [](const Lane &l) {
                  int64_t d = l.s(0) - l.s(1);
                  return uint32_t(l.rb()) == uint32_t(l.u(2) + uint64_t(d < 0 ? -d : d));
                }});
  cs.push_back({"sad", "uuu", 'u', [](const Lane &l) {
                  int64_t d = int64_t(l.u(0)) - int64_t(l.u(1));
                  return l.rb() == uint32_t(l.u(2) + uint64_t(d < 0 ? -d : d));
                }});
  cs.push_back({"hadd", "ii", 'i', [](const Lane &l) {
                  return l.rs() == int64_t(std::floor((double(l.s(0)) + double(l.s(1))) / 2));
                }});
  cs.push_back({"hadd", "uu", 'u', [](const Lane &l) {
                  return l.rb() == uint64_t(std::floor((double(l.u(0)) + double(l.u(1))) / 2));
                }});
  cs.push_back({"rhadd", "ii", 'i', [](const Lane &l) {
                  return l.rs() == int64_t(std::floor((double(l.s(0)) + double(l.s(1)) + 1) / 2));
                }});
  cs.push_back({"rhadd", "uu", 'u', [](const Lane &l) {
                  return l.rb() == uint64_t(std::floor((double(l.u(0)) + double(l.u(1)) + 1) / 2));
                }});
  cs.push_back({"clz", "i", 'i', [](const Lane &l) {
                  int n = 0;
                  for (uint32_t v = uint32_t(l.u(0)); n < 32 && !(v & 0x80000000u); v <<= 1)
                    ++n;
                  return l.rs() == n;
                }});
  cs.push_back({"clz", "I", 'i', [](const Lane &l) {
                  int n = 0;
                  for (uint64_t v = l.u(0); n < 64 && !(v >> 63); v <<= 1)
                    ++n;
                  return l.rs() == n;
                }});
  cs.push_back({"popc", "i", 'i', [](const Lane &l) { return l.rs() == int64_t(std::bitset<32>(l.u(0)).count()); }});
  cs.push_back({"popc", "I", 'i', [](const Lane &l) { return l.rs() == int64_t(std::bitset<64>(l.u(0)).count()); }});
  cs.push_back({"ffs", "i", 'i', [](const Lane &l) {
                  int n = 0;
                  for (int i = 0; i < 32 && !n; ++i)
                    n = (l.u(0) >> i) & 1 ? i + 1 : 0;
                  return l.rs() == n;
                }, -8, 8, false, 0, 64});
  cs.push_back({"ffs", "I", 'i', [](const Lane &l) {
                  int n = 0;
                  for (int i = 0; i < 64 && !n; ++i)
                    n = (l.u(0) >> i) & 1 ? i + 1 : 0;
                  return l.rs() == n;
                }});

  // Float -> int with fixed rounding; predicates.
  for (char t : {'f', 'd'}) {
    std::string s1(1, t);
    cs.push_back({"llrint", s1, 'I', [](const Lane &l) { return l.rs() == int64_t(roundMode(l.f(0), "rn")); },
                  -100, 100});
    cs.push_back({"llround", s1, 'I', [](const Lane &l) {
                    return l.rs() == int64_t(l.f(0) < 0 ? -std::floor(-l.f(0) + 0.5) : std::floor(l.f(0) + 0.5));
                  }, -4, 4, false});
    cs.push_back({"ilogb", s1, 'i', [](const Lane &l) {
                    int e;
                    std::frexp(l.f(0), &e);
                    return l.rs() == e - 1;
                  }, -1e6, 1e6});
    cs.push_back({"isnan", s1, 'b', [](const Lane &l) { return l.rs() == (std::isnan(l.f(0)) ? 1 : 0); },
                  0, 0, true});
    cs.push_back({"isinf", s1, 'b', [](const Lane &l) { return l.rs() == (std::isinf(l.f(0)) ? 1 : 0); },
                  0, 0, true});
    cs.push_back({"signbit", s1, 'i', [](const Lane &l) { return (l.rs() != 0) == std::signbit(l.f(0)); },
                  0, 0, true});
  }
  cs.push_back({"finitef", "f", 'b', [](const Lane &l) { return l.rs() == (std::isfinite(l.f(0)) ? 1 : 0); },
                0, 0, true});
  cs.push_back({"isfinited", "d", 'b', [](const Lane &l) { return l.rs() == (std::isfinite(l.f(0)) ? 1 : 0); },
                0, 0, true});

  // Ternary, quaternary, int-operand and fast_* functions.
  for (char t : {'f', 'd'}) {
    std::string s3(3, t), s4(4, t), fi = std::string(1, t) + "i", iff = "i" + std::string(1, t);
    cs.push_back({"fma", s3, t, [=](const Lane &l) {
                    return dirAs("rn", t, l, [&](Q c) { return sgn(c - (Q(l.f(0)) * Q(l.f(1)) + Q(l.f(2)))); });
                  }});
    auto normRef = [](const Lane &l, int n) {
      long double s = 0;
      for (int i = 0; i < n; ++i)
        s += (long double)l.f(i) * l.f(i);
      return double(std::sqrt(s));
    };
    cs.push_back({"norm3d", s3, t, [=](const Lane &l) { return near(l.rf(), normRef(l, 3), t, 2); }});
    cs.push_back({"rnorm3d", s3, t, [=](const Lane &l) { return near(l.rf(), 1 / normRef(l, 3), t, 2); }});
    cs.push_back({"norm4d", s4, t, [=](const Lane &l) { return near(l.rf(), normRef(l, 4), t, 2); }});
    cs.push_back({"rnorm4d", s4, t, [=](const Lane &l) { return near(l.rf(), 1 / normRef(l, 4), t, 2); }});
    cs.push_back({"ldexp", fi, t, [=](const Lane &l) { return l.rf() == roundTo(l.f(0) * std::exp2(double(l.s(1))), dtOf(t)); },
                  -8, 8, false, -20, 20});
    cs.push_back({"scalbn", fi, t, [=](const Lane &l) { return l.rf() == roundTo(l.f(0) * std::exp2(double(l.s(1))), dtOf(t)); },
                  -8, 8, false, -20, 20});
    cs.push_back({"pow", fi, t, [=](const Lane &l) {
                    long double r = 1;
                    for (int i = 0; i < std::abs(int(l.s(1))); ++i)
                      r *= l.f(0);
                    return near(l.rf(), double(l.s(1) < 0 ? 1 / r : r), t, 2);
                  }, 0.5, 2, false, -10, 10});
    cs.push_back({"jn", iff, t, [=](const Lane &l) {
                    // j_n(x) by its power series
                    double x = l.f(1), term = 1, s = 0;
                    int n = int(l.s(0));
                    for (int k = 1; k <= n; ++k)
                      term *= x / 2 / k;
                    for (int k = 0; k < 40; ++k) {
                      s += term;
                      term *= -(x * x / 4) / ((k + 1) * double(k + 1 + n));
                    }
                    return std::fabs(l.rf() - s) <= 1e-6 * std::max(1e-3, std::fabs(s));
                  }, 0.5, 3, false, 0, 4});
    cs.push_back({"yn", iff, t, [=](const Lane &l) {
                    // forward recurrence from y0, y1
                    double x = l.f(1), a = ::y0(x), b = ::y1(x);
                    for (int k = 1; k < int(l.s(0)); ++k) {
                      double c = 2 * k / x * b - a;
                      a = b;
                      b = c;
                    }
                    double want = l.s(0) == 0 ? a : b;
                    return std::fabs(l.rf() - want) <= 1e-5 * std::fabs(want);
                  }, 2.5, 3, false, 0, 4});
  }
  cs.push_back({"fast_dividef", "ff", 'f', binaryRef('f', [](double x, double y) { return x / y; })});
  cs.push_back({"fast_powf", "ff", 'f', binaryRef('f', [](double x, double y) { return std::exp(y * std::log(x)); }), 0.5, 3});
  cs.push_back({"fast_sinf", "f", 'f', unaryRef('f', [](double x) { return std::sin(x); }), 0.1, 1.5});
  cs.push_back({"fast_cosf", "f", 'f', unaryRef('f', [](double x) { return std::cos(x); }), -1.5, 1.5});
  cs.push_back({"fast_tanf", "f", 'f', unaryRef('f', [](double x) { return std::tan(x); }), 0.1, 1.2});
  cs.push_back({"fast_expf", "f", 'f', unaryRef('f', [](double x) { return std::exp(x); })});
  cs.push_back({"fast_exp10f", "f", 'f', unaryRef('f', [](double x) { return std::exp(x * std::log(10.0)); })});
  cs.push_back({"fast_logf", "f", 'f', unaryRef('f', [](double x) { return std::log(x); }), 0.1, 100});
  cs.push_back({"fast_log2f", "f", 'f', unaryRef('f', [](double x) { return std::log(x) / std::log(2.0); }), 0.1, 100});
  cs.push_back({"fast_log10f", "f", 'f', unaryRef('f', [](double x) { return std::log(x) / std::log(10.0); }), 0.1, 100});
  cs.push_back({"saturatef", "f", 'f', unaryRef('f', [](double x) { return std::min(1.0, std::max(0.0, x)); }), -2, 2});

  // Unary and binary float functions the first libdevice sweep leaves out.
  for (char t : {'f', 'd'}) {
    std::string s1(1, t), s2(2, t);
    auto u = [&](const char *fn, std::function<double(double)> g, double lo, double hi) {
      cs.push_back({fn, s1, t, unaryRef(t, g), lo, hi});
    };
    u("exp", [](double x) { return std::exp(x); }, -5, 5);
    u("exp2", [](double x) { return std::exp(x * std::log(2.0)); }, -5, 5);
    u("exp10", [](double x) { return std::exp(x * std::log(10.0)); }, -3, 3);
    u("log", [](double x) { return std::log(x); }, 0.01, 100);
    u("log2", [](double x) { return std::log(x) / std::log(2.0); }, 0.01, 100);
    u("sqrt", [](double x) { return std::sqrt(x); }, 0, 100);
    u("rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.01, 100);
    u("erf", [](double x) { return 1 - std::erfc(x); }, 0.5, 2);
    u("sin", [](double x) { return std::sin(x); }, -3, 3);
    u("cos", [](double x) { return std::cos(x); }, -1.5, 1.5);
    u("ceil", [](double x) { return -std::floor(-x); }, -10, 10);
    u("nearbyint", [](double x) { return roundMode(x, "rn"); }, -10, 10);
    u("y1", [](double x) { return ::y1(x); }, 0.1, 1.5);
    u("cyl_bessel_i1", [](double x) { return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x); }, -3, 3);
    u("abs", [](double x) { return std::fabs(x); }, -10, 10);
    auto b = [&](const char *fn, std::function<double(double, double)> g, double lo, double hi) {
      cs.push_back({fn, s2, t, binaryRef(t, g), lo, hi});
    };
    b("nextafter", [t](double x, double y) {
        return t == 'f' ? double(std::nextafter(float(x), float(y))) : std::nextafter(x, y);
      }, -3, 3);
    b("remainder", [](double x, double y) { return std::fma(-y, roundMode(x / y, "rn"), x); }, 0.5, 7);
    b("pow", [](double x, double y) { return std::exp(y * std::log(x)); }, 0.5, 3);
  }
  return cs;
}

std::string py(char c) {
  switch (c) {
  case 'i': return "tl.int32";
  case 'u': return "tl.uint32";
  case 'I': return "tl.int64";
  case 'U': return "tl.uint64";
  case 'f': return "tl.float32";
  default: return "tl.float64";
  }
}
} // namespace

TEST_CASE("every libdevice function on the interpreter", "[sweep][libdevice]") {
  const int n = 64;
  int seed = 11;
  for (const Case &c : cases()) {
    std::string what = "libdevice." + c.fn + c.sig + " -> " + c.ret;
    INFO(what);
    std::mt19937_64 rng(seed++);
    std::vector<Buf> in;
    std::string src = "def kern(";
    for (size_t j = 0; j < c.sig.size(); ++j) {
      DType t = dtOf(c.sig[j]);
      if (isFloat(t) && c.tricky) {
        in.push_back(tricky(t, n, unsigned(seed * 7 + j)));
        continue;
      }
      Buf b(t, n);
      std::uniform_real_distribution<double> uf(c.lo, c.hi);
      for (int i = 0; i < n; ++i) {
        if (isFloat(t))
          b.setF(i, roundTo(uf(rng), t));
        else if (c.ihi < c.ilo)
          b.setI(i, rng());
        else
          b.setI(i, uint64_t(c.ilo + int64_t(rng() % uint64_t(c.ihi - c.ilo + 1))));
      }
      in.push_back(b);
    }
    std::string body, call = "tl.extra.libdevice." + c.fn + "(";
    std::vector<tritium::Arg> args;
    for (size_t j = 0; j < c.sig.size(); ++j) {
      src += "A" + std::to_string(j) + ", ";
      body += "    a" + std::to_string(j) + " = tl.load(A" + std::to_string(j) + " + i)\n";
      call += (j ? ", a" : "a") + std::to_string(j);
      args.push_back(in[j].arg());
    }
    call += ")";
    if (c.ret == 'b')
      call += ".to(tl.int32)";
    Buf out(dtOf(c.ret), n);
    args.push_back(out.arg());
    src += "O):\n    i = tl.arange(0, 64)\n" + body + "    r = " + call + "\n";
    src += "    tl.static_assert(r.dtype == " + py(c.ret == 'b' ? 'i' : c.ret) + ")\n";
    src += "    tl.store(O + i, r)\n";
    run(src, args);
    for (int i = 0; i < n; ++i) {
      Lane l{&in, &out, i};
      bool ok = c.check(l);
      if (!ok) {
        std::string ops;
        for (size_t j = 0; j < c.sig.size(); ++j)
          ops += (j ? ", " : "") + (isFloat(in[j].t) ? std::to_string(in[j].f(i)) : std::to_string(l.s(j))) +
                 " [0x" + [&] { char b[32]; snprintf(b, 32, "%llx", (unsigned long long)l.u(j)); return std::string(b); }() + "]";
        char rb[32];
        snprintf(rb, 32, "%llx", (unsigned long long)l.rb());
        FAIL_CHECK("lane " << i << ": " << c.fn << "(" << ops << ") = 0x" << rb
                           << " (" << (isFloat(out.t) ? l.rf() : double(l.rs())) << ")");
      }
    }
  }
}

//===- Fp8.cpp - exact fp8 encode/decode ------------------------*- C++ -*-===//
//
// The five fp8 formats as (exponent bits, mantissa bits, bias, special
// values). Decoding is a 256-entry table per format. Encoding rounds a
// double (exact for every fp16/bf16/fp32 input) to the format's grid with
// round-to-nearest-even or toward zero, and saturates overflow (and
// infinities) to the largest finite value as PTX `cvt.satfinite` does; NaN
// maps to the format's NaN.
//
// fp8e4b15 is carried in MLIR's f8E4M3B11FNUZ type, but its values are
// Triton's (triton/language/extra/cuda/utils.py): exponent bias 15, every
// code finite (0x7f = 1.875), -0 = 0x80. Encoding follows that software
// conversion: |x| clamped to 1.75 (NaN too, keeping its sign), then the
// magnitude rounded half away from zero ((fp16 bits * 2 + 0x80) >> 8; fp32
// inputs go through fp16 toward zero first, which gives the same code).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Value.h"

#include <cmath>
#include <limits>

namespace tritium::interp {
namespace {

struct Fp8Format {
  int ebits, mbits, bias;
  bool ieeeInf; // e5m2: all-ones exponent is inf/NaN
  bool fnuz;    // 0x80 is the only NaN; no negative zero
  uint8_t nan;
  double maxFinite;
};

const Fp8Format &formatOf(EK k) {
  static const Fp8Format e4m3fn{4, 3, 7, false, false, 0x7f, 448.0};
  static const Fp8Format e5m2{5, 2, 15, true, false, 0x7f, 57344.0};
  static const Fp8Format e4b15{4, 3, 15, false, false, 0, 1.875};
  static const Fp8Format e4m3fnuz{4, 3, 8, false, true, 0x80, 240.0};
  static const Fp8Format e5m2fnuz{5, 2, 16, false, true, 0x80, 57344.0};
  switch (k) {
  case EK::F8E5M2:
    return e5m2;
  case EK::F8E4M3B11:
    return e4b15;
  case EK::F8E4M3FNUZ:
    return e4m3fnuz;
  case EK::F8E5M2FNUZ:
    return e5m2fnuz;
  default:
    return e4m3fn;
  }
}

double decode(const Fp8Format &f, uint8_t code) {
  bool neg = code & 0x80;
  bool allFinite = &f == &formatOf(EK::F8E4M3B11);
  if (f.fnuz && code == 0x80)
    return std::numeric_limits<double>::quiet_NaN();
  int emask = (1 << f.ebits) - 1, mmask = (1 << f.mbits) - 1;
  int e = (code >> f.mbits) & emask, m = code & mmask;
  if (f.ieeeInf && e == emask)
    return m == 0 ? (neg ? -INFINITY : INFINITY)
                  : std::numeric_limits<double>::quiet_NaN();
  if (!f.ieeeInf && !f.fnuz && !allFinite && e == emask && m == mmask)
    return std::numeric_limits<double>::quiet_NaN();
  double v = e == 0 ? std::ldexp(m, 1 - f.bias - f.mbits)
                    : std::ldexp(1.0 + std::ldexp(m, -f.mbits), e - f.bias);
  return neg ? -v : v;
}

struct Tables {
  float v[5][256];
  Tables() {
    for (int k = 0; k < 5; ++k)
      for (int c = 0; c < 256; ++c)
        v[k][c] = static_cast<float>(
            decode(formatOf(static_cast<EK>(int(EK::F8E4M3FN) + k)), c));
  }
};

} // namespace

float fp8ToFloat(EK k, uint8_t bits) {
  static const Tables tables;
  return tables.v[int(k) - int(EK::F8E4M3FN)][bits];
}

uint8_t floatToFp8(EK k, double v, bool rtz) {
  const Fp8Format &f = formatOf(k);
  if (k == EK::F8E4M3B11) {
    uint8_t sign = std::signbit(v) ? 0x80 : 0;
    double a = std::isnan(v) ? 1.75 : std::min(std::fabs(v), 1.75);
    int e = std::max(a == 0 ? 0 : std::ilogb(a), 1 - f.bias);
    double quantum = std::ldexp(1.0, e - f.mbits);
    double q = std::floor(a / quantum + 0.5); // half away from zero
    double value = q * quantum;
    if (value == 0)
      return sign;
    int ve = std::ilogb(value);
    if (ve < 1 - f.bias)
      return sign | static_cast<uint8_t>(q);
    return sign | static_cast<uint8_t>(((ve + f.bias) << f.mbits) |
                                       (int(std::ldexp(value, f.mbits - ve)) - (1 << f.mbits)));
  }
  if (std::isnan(v))
    return f.nan;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(v);
  int emin = 1 - f.bias;
  double value;
  if (std::isinf(a)) {
    value = f.maxFinite;
  } else if (a == 0) {
    value = 0;
  } else {
    int e = std::max(std::ilogb(a), emin);
    double quantum = std::ldexp(1.0, e - f.mbits);
    double q = a / quantum;
    double qi = rtz ? std::floor(q) : std::nearbyint(q);
    value = std::min(qi * quantum, f.maxFinite);
  }
  if (value == 0)
    return f.fnuz ? 0 : sign;
  int e = std::ilogb(value);
  uint32_t code;
  if (e < emin) {
    code = static_cast<uint32_t>(std::ldexp(value, f.mbits - emin));
  } else {
    uint32_t mant = static_cast<uint32_t>(std::ldexp(value, f.mbits - e)) -
                    (1u << f.mbits);
    code = (static_cast<uint32_t>(e + f.bias) << f.mbits) | mant;
  }
  return static_cast<uint8_t>(sign | code);
}

} // namespace tritium::interp

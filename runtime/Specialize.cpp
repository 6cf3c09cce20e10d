//===- Specialize.cpp - Triton's specialization of launch values ---------===//
//
// Signature entries from actual values, and the fp16/bf16 conversions.
//
//===----------------------------------------------------------------------===//
#include "runtime/Specialize.h"

#include <climits>
#include <cmath>
#include <cstring>

using namespace tritium;

std::string rt::specializePointer(const std::string &elemSig, const void *data) {
  return "*" + elemSig + (reinterpret_cast<uintptr_t>(data) % 16 == 0 ? ":16" : "");
}

std::string rt::specializeInt(int64_t bits, bool isUnsigned) {
  IntClass c = intClass(bits, isUnsigned);
  if (c == IntClass::One)
    return "i32:1";
  const char *type = c == IntClass::U64 ? "u64" : c == IntClass::I32 ? "i32" : "i64";
  return std::string(type) + (divisibleBy16(bits) ? ":16" : "");
}

uint16_t rt::floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // inf, nan (kept quiet)
    return uint16_t(sign | 0x7c00 | (absx > 0x7f800000 ? 0x200 | ((absx >> 13) & 0x3ff) : 0));
  if (absx >= 0x477ff000) // >= 65520 rounds to inf
    return uint16_t(sign | 0x7c00);
  if (absx < 0x38800000) { // below 2^-14: a subnormal half, unit 2^-24
    float a;
    std::memcpy(&a, &absx, 4);
    return uint16_t(sign | uint32_t(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t m = absx - 0x38000000; // rebias the exponent 127 -> 15
  m += 0xfff + ((m >> 13) & 1);   // round to nearest even
  return uint16_t(sign | (m >> 13));
}

float rt::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) {
    float v = std::ldexp(float(m), -24);
    return sign ? -v : v;
  }
  uint32_t bits = e == 31 ? sign | 0x7f800000 | (m << 13) : sign | ((e + 112) << 23) | (m << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t rt::floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return uint16_t((x >> 16) | 0x40);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float rt::bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}


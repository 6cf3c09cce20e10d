//===- Value.h - element kinds and their C++ storage types ------*- C++ -*-===//
//
// A tile in the interpreter is a contiguous row-major array of one element
// kind, living in a value slot of a Frame (see Program.h). This header names
// the kinds, their storage types (integers as unsigned of their width; i1 as
// one byte 0/1; fp16/bf16 as Eigen's types; fp8 as raw bytes; pointers as
// 64-bit addresses) and the float "compute" types arithmetic runs in.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_VALUE_H
#define TRITIUM_INTERPRETER_VALUE_H

#include "mlir/IR/Types.h"

#include <Eigen/Core>

#include <cstdint>
#include <cstring>
#include <optional>

namespace tritium::interp {

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

enum class EK : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3FN,
  F8E5M2,
  F8E4M3B11,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
  Ptr,
};

inline bool isInt(EK k) { return k <= EK::I64; }
inline bool isFloat(EK k) { return k >= EK::F16 && k <= EK::F8E5M2FNUZ; }
inline bool isFp8(EK k) { return k >= EK::F8E4M3FN && k <= EK::F8E5M2FNUZ; }

inline unsigned elemBytes(EK k) {
  switch (k) {
  case EK::I1:
  case EK::I8:
    return 1;
  case EK::I16:
  case EK::F16:
  case EK::BF16:
    return 2;
  case EK::I32:
  case EK::F32:
    return 4;
  case EK::I64:
  case EK::F64:
  case EK::Ptr:
    return 8;
  default:
    return 1; // fp8
  }
}

inline unsigned intBits(EK k) {
  switch (k) {
  case EK::I1:
    return 1;
  case EK::I8:
    return 8;
  case EK::I16:
    return 16;
  case EK::I32:
    return 32;
  default:
    return 64;
  }
}

/// The element kind of a scalar or of a tensor's elements; nullopt for
/// types the interpreter does not know.
std::optional<EK> elementKindOf(mlir::Type type);
/// The pointee's element kind of `!tile.ptr<T>` (or a tensor of them).
std::optional<EK> pointeeKindOf(mlir::Type type);
const char *kindName(EK k);

/// Sign-extends the low `bits` bits of `v`.
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  uint64_t m = uint64_t(1) << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}

/// Reads element `i` of integer storage of kind `k` as a sign- or
/// zero-extended 64-bit value.
inline int64_t readInt(const void *p, int64_t i, EK k, bool isSigned) {
  uint64_t v = 0;
  switch (k) {
  case EK::I1:
  case EK::I8:
    v = static_cast<const uint8_t *>(p)[i];
    break;
  case EK::I16:
    v = static_cast<const uint16_t *>(p)[i];
    break;
  case EK::I32:
    v = static_cast<const uint32_t *>(p)[i];
    break;
  default:
    v = static_cast<const uint64_t *>(p)[i];
    break;
  }
  return isSigned ? sext(v, intBits(k)) : static_cast<int64_t>(v);
}

inline void writeInt(void *p, int64_t i, EK k, uint64_t v) {
  switch (k) {
  case EK::I1:
    static_cast<uint8_t *>(p)[i] = v & 1;
    break;
  case EK::I8:
    static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(v);
    break;
  case EK::I16:
    static_cast<uint16_t *>(p)[i] = static_cast<uint16_t>(v);
    break;
  case EK::I32:
    static_cast<uint32_t *>(p)[i] = static_cast<uint32_t>(v);
    break;
  default:
    static_cast<uint64_t *>(p)[i] = v;
    break;
  }
}

/// fp8 <-> float conversions (Fp8.cpp); exact decode, rtne/rtz encode with
/// saturation to the largest finite value (PTX `.satfinite`).
float fp8ToFloat(EK k, uint8_t bits);
uint8_t floatToFp8(EK k, double v, bool rtz);

/// Reads element `i` of float storage of kind `k` as double.
inline double readFloat(const void *p, int64_t i, EK k) {
  switch (k) {
  case EK::F16:
    return static_cast<float>(static_cast<const half *>(p)[i]);
  case EK::BF16:
    return static_cast<float>(static_cast<const bf16 *>(p)[i]);
  case EK::F32:
    return static_cast<const float *>(p)[i];
  case EK::F64:
    return static_cast<const double *>(p)[i];
  default:
    return fp8ToFloat(k, static_cast<const uint8_t *>(p)[i]);
  }
}

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_VALUE_H

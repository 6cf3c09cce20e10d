//===- Specialize.h - Triton's specialization of launch values --*- C++ -*-===//
//
// How Triton's launcher turns the actual values of a launch into a signature
// entry (the key of its compile cache and the input of the compiler): a
// pointer is `*fp32:16` when its address is divisible by 16, an int equal to
// 1 is folded as a constant (`i32:1`), other ints are `i32`/`i64` by range
// (`u64` from 2^63) with `:16` when divisible by 16, floats are `fp32` and
// bools `i1`. Shared by `tritium run` and the C++ API (Tritium.h); also the
// fp16/bf16 bit conversions hosts use to fill half-precision buffers. Needs
// only the C++ standard library.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_SPECIALIZE_H
#define TRITIUM_RUNTIME_SPECIALIZE_H

#include <climits>
#include <cstdint>
#include <string>

namespace tritium::rt {

/// "*<elemSig>" plus ":16" when `data` is 16-byte aligned.
std::string specializePointer(const std::string &elemSig, const void *data);

/// Whether an int argument is folded into the kernel (it equals 1).
inline bool foldsAsOne(int64_t bits, bool isUnsigned) {
  return !isUnsigned && bits == 1;
}

/// The classes specializeInt puts ints in: folded (equal to 1), u64, i32,
/// i64; and whether the value is divisible by 16 (`:16`).
enum class IntClass { One, U64, I32, I64 };
inline IntClass intClass(int64_t bits, bool isUnsigned) {
  if (foldsAsOne(bits, isUnsigned))
    return IntClass::One;
  if (isUnsigned)
    return IntClass::U64;
  return bits >= INT32_MIN && bits <= INT32_MAX ? IntClass::I32 : IntClass::I64;
}
inline bool divisibleBy16(int64_t bits) { return uint64_t(bits) % 16 == 0; }

/// "i32:1" for 1, else "i32" / "i64" by range ("u64" when `isUnsigned`, a
/// value in [2^63, 2^64) given by its bits) with ":16" when divisible by 16.
std::string specializeInt(int64_t bits, bool isUnsigned);

/// Python floats specialize as fp32, bools as i1.
inline std::string specializeFloat() { return "fp32"; }
inline std::string specializeBool() { return "i1"; }

/// IEEE half and bfloat16 bits, rounding to nearest even (NaN stays NaN).
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBf16(float f);
float bf16ToFloat(uint16_t h);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_SPECIALIZE_H

//===- RunArgs.h - host values for `tritium run` -----------------*- C++ -*-===//
//
// The host side of `tritium run` that needs no compiler: element types, the
// `--arg NAME=VALUE` forms (scalar literals, .npy files, generators), the
// Triton specialization of each value, and `--check` comparisons.
//
// VALUE forms:
//   42, -7, 0x10        int: i32 or i64 by range (u64 above 2^63); 1 folds
//   1.5, 1e-5, inf      float: fp32
//   True / False        bool: i1
//   PATH.npy[:DTYPE]    a buffer loaded from .npy; `:bf16` / `:fp8e5` ...
//                       views uint16 / uint8 data as bf16 / fp8
//   KIND:DTYPE[d0,d1,..] a generated buffer, KIND one of
//       randn    standard normal (floats only)
//       rand     uniform in [0, 1) (floats only)
//       randint  integers, uniform in [-100, 100) for signed ints and
//                floats, [0, 200) for unsigned ints, {0, 1} for bool
//       zeros, ones
//       empty    poison: every byte 0xFF for floats and fp8 (a NaN in every
//                float format), 0xCD for ints and bool
// DTYPE: f16 f32 f64 bf16 i8 i16 i32 i64 u8 u16 u32 u64 bool, the aliases
// fp16 fp32 fp64 float16 float32 float64 int8.. uint8.. i1, and (zeros,
// empty and .npy views only) fp8e4nv fp8e5 fp8e4b15 fp8e4b8 fp8e5b16.
//
// Generated values are reproducible: each argument draws from its own
// std::mt19937_64 stream seeded from --seed and the parameter's name, through
// this file's own uniform/normal transforms (not <random>'s distributions,
// which differ between standard libraries), then rounds to the dtype.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TOOLS_RUNARGS_H
#define TRITIUM_TOOLS_RUNARGS_H

#include "runtime/Npy.h"
#include "runtime/Specialize.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tritium::run {

/// An element type of a host buffer.
struct ElemType {
  enum Class { Float, Int, UInt, Bool, Fp8 };
  const char *name; // canonical spelling: "f32", "bf16", "bool", "fp8e5"
  const char *sig;  // Triton signature type: "fp32", "bf16", "i1", "fp8e5"
  const char *npy;  // .npy dtype the bits are stored as: "<f4", "<u2", "|b1"
  Class cls;
  unsigned bytes;
};

/// The element type spelled `s` (f32, fp32, float32, ...), or null.
const ElemType *lookupElemType(const std::string &s);
/// The element type a .npy dtype holds by default ("<u2" is u16), or null.
const ElemType *elemTypeForNpy(const std::string &npyDtype);

/// One kernel argument's host value.
struct HostValue {
  enum Kind { Buffer, Int, Float, Bool } kind = Int;
  std::string name;
  const ElemType *elem = nullptr; // Buffer
  rt::NpyArray array;             // Buffer: dtype is elem->npy
  int64_t i = 0;                  // Int (bits, for u64), Bool
  bool isUnsigned = false;        // Int in [2^63, 2^64)
  double f = 0;                   // Float
  bool uninitialized = false;     // Buffer made by `empty:`

  /// The Triton signature entry for this value (runtime/Specialize.h):
  /// "*fp32:16" (address % 16 == 0), "i32:1" (== 1, folded), "i32" / "i64"
  /// / "u64" by range with ":16" when divisible by 16, "i1", "fp32".
  std::string specialization() const;
  /// Whether the argument is folded into the kernel (an int equal to 1).
  bool folded() const { return kind == Int && rt::foldsAsOne(i, isUnsigned); }
};

/// Parses `--arg NAME=VALUE`'s VALUE (see the header comment).
std::optional<std::string> parseHostValue(const std::string &name,
                                          const std::string &text, uint64_t seed,
                                          HostValue &out);

/// Splits "NAME=VALUE" (for the option `opt`, used in messages).
std::optional<std::string> splitAssignment(const std::string &opt,
                                           const std::string &text, std::string &name,
                                           std::string &value);

/// Parses "X[,Y[,Z]]" into a 3-D grid of positive sizes.
std::optional<std::string> parseGrid(const std::string &text,
                                     std::array<int64_t, 3> &grid);

/// Element `i` of `a` (whose bits are `t`) as a double.
double loadElement(const rt::NpyArray &a, const ElemType &t, size_t i);
/// Stores `v` rounded to `t` (round to nearest even; ints truncate).
void storeElement(rt::NpyArray &a, const ElemType &t, size_t i, double v);

// The fp16/bf16 conversions live with the specialization rules in runtime/.
using rt::bf16ToFloat;
using rt::floatToBf16;
using rt::floatToHalf;
using rt::halfToFloat;

struct Tolerance {
  double rtol = 0, atol = 0;
};
/// --check defaults: f64 1e-9/1e-12, f32 1e-5/1e-6, f16 and bf16 1e-2/1e-2,
/// ints, bool and fp8 exact.
Tolerance defaultTolerance(const ElemType &t);

struct CheckResult {
  bool pass = false;
  std::string line; // the one-line report
  double relL2 = 0, maxAbs = 0;
  size_t failures = 0;
};
/// Compares buffer `out` with `ref` in float64: the relative L2 error, the
/// worst element and its index, NaN positions; an element passes when
/// |out - ref| <= atol + rtol * |ref|.
CheckResult compareWithReference(const HostValue &out, const rt::NpyArray &ref,
                                 const std::string &refName, Tolerance tol);

/// "[3, 4]" for a shape or a multi-dimensional index.
std::string formatShape(const std::vector<int64_t> &shape);

} // namespace tritium::run

#endif // TRITIUM_TOOLS_RUNARGS_H

//===- Cast.cpp - conversions between element kinds -------------*- C++ -*-===//
//
// arith casts (ext/trunc, int<->float, extf/truncf, bitcast), tile.fp_to_fp
// (fp8 formats, rtne/rtz), tile.bitcast, int_to_ptr and ptr_to_int.
// Float<->float conversions among fp16/bf16/fp32/fp64 have templated fast
// loops; everything else goes through an exact generic path (64-bit
// integers, doubles). fptosi/fptoui saturate and map NaN to 0, as the GPU's
// cvt.rzi does.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Elementwise.h"

#include "ir/TileDialect.h"

#include <cmath>
#include <cstring>
#include <type_traits>

using namespace mlir;

namespace tritium::interp {
namespace {

// `v` rounded to float "to odd": truncated, with the last bit set when
// inexact. Rounding that float once more to fp16/bf16 (at least 2 bits
// narrower) gives the correctly rounded result; going through a
// nearest-even float would round twice (1 + 2^-11 + 2^-40 -> fp16 1.0).
float toFloatOdd(long double v) {
  float r = static_cast<float>(v);
  if (std::isnan(v) || static_cast<long double>(r) == v)
    return r;
  if (std::fabs(static_cast<long double>(r)) > std::fabs(v))
    r = std::nextafter(r, 0.0f); // also inf -> max finite
  uint32_t bits;
  std::memcpy(&bits, &r, 4);
  bits |= 1;
  std::memcpy(&r, &bits, 4);
  return r;
}

template <class S, class D> void floatCast(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const S *a = f.get<S>(op.in[0]);
  D *r = f.get<D>(op.res[0]);
  constexpr bool narrowFromDouble =
      std::is_same_v<S, double> && (std::is_same_v<D, half> || std::is_same_v<D, bf16>);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (narrowFromDouble)
      r[i] = D(toFloatOdd(a[i]));
    else
      r[i] = D(Compute<D>(Compute<S>(a[i])));
  }
}

template <class S> Handler pickFloatCastDst(EK d) {
  switch (d) {
  case EK::F16: return floatCast<S, half>;
  case EK::BF16: return floatCast<S, bf16>;
  case EK::F32: return floatCast<S, float>;
  case EK::F64: return floatCast<S, double>;
  default: return nullptr;
  }
}

Handler pickFloatCast(EK s, EK d) {
  switch (s) {
  case EK::F16: return pickFloatCastDst<half>(d);
  case EK::BF16: return pickFloatCastDst<bf16>(d);
  case EK::F32: return pickFloatCastDst<float>(d);
  case EK::F64: return pickFloatCastDst<double>(d);
  default: return nullptr;
  }
}

// Rounds `v` to a 16-bit float kind toward zero.
template <class H> H toHalfRtz(double v) {
  H h = H(static_cast<float>(v));
  double back = static_cast<float>(h);
  if (std::isfinite(v) && std::fabs(back) > std::fabs(v)) {
    uint16_t bits;
    std::memcpy(&bits, static_cast<void *>(&h), 2);
    bits -= 1; // one ulp toward zero (works for inf -> max finite too)
    std::memcpy(static_cast<void *>(&h), &bits, 2);
  }
  return h;
}

float toFloatRtz(double v) {
  float r = static_cast<float>(v);
  if (std::isfinite(v) && std::fabs(double(r)) > std::fabs(v))
    r = std::nextafter(r, 0.0f);
  return r;
}

void writeFloat(void *p, int64_t i, EK k, double v, bool rtz) {
  switch (k) {
  case EK::F16:
    static_cast<half *>(p)[i] = rtz ? toHalfRtz<half>(v) : half(toFloatOdd(v));
    break;
  case EK::BF16:
    static_cast<bf16 *>(p)[i] = rtz ? toHalfRtz<bf16>(v) : bf16(toFloatOdd(v));
    break;
  case EK::F32:
    static_cast<float *>(p)[i] = rtz ? toFloatRtz(v) : float(v);
    break;
  case EK::F64:
    static_cast<double *>(p)[i] = v;
    break;
  default:
    static_cast<uint8_t *>(p)[i] = floatToFp8(k, v, rtz);
    break;
  }
}

// op.a: source integers are signed; op.b: round toward zero.
enum class CastKind { IntToInt, IntToFloat, FloatToInt, FloatToFloat };

template <CastKind K> void genericCast(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const void *a = f.slot[op.in[0]];
  void *r = f.slot[op.res[0]];
  bool sgn = op.a;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (K == CastKind::IntToInt) {
      writeInt(r, i, op.kind, readInt(a, i, op.srcKind, sgn));
    } else if constexpr (K == CastKind::IntToFloat) {
      int64_t v = readInt(a, i, op.srcKind, sgn);
      if (op.kind == EK::F32 || op.kind == EK::F16 || op.kind == EK::BF16) {
        // Rounded once: fp32 directly, fp16/bf16 through a round-to-odd
        // float of the exact (long double) integer.
        float x = op.kind == EK::F32 ? (sgn ? float(v) : float(uint64_t(v)))
                  : toFloatOdd(sgn ? static_cast<long double>(v)
                                   : static_cast<long double>(uint64_t(v)));
        writeFloat(r, i, op.kind, x, false);
      } else {
        writeFloat(r, i, op.kind, sgn ? double(v) : double(uint64_t(v)),
                   false);
      }
    } else if constexpr (K == CastKind::FloatToInt) {
      double v = std::trunc(readFloat(a, i, op.srcKind));
      unsigned bits = intBits(op.kind);
      uint64_t out;
      if (std::isnan(v)) {
        out = 0;
      } else if (sgn) {
        double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
        int64_t x = v <= lo ? int64_t(lo)
                    : v >= hi ? int64_t(uint64_t(hi) - 1)
                              : int64_t(v);
        if (bits == 64)
          x = v <= lo ? INT64_MIN : v >= hi ? INT64_MAX : int64_t(v);
        out = uint64_t(x);
      } else {
        double hi = std::ldexp(1.0, bits);
        out = v <= 0 ? 0
              : v >= hi ? (bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1)
                        : uint64_t(v);
      }
      writeInt(r, i, op.kind, out);
    } else {
      writeFloat(r, i, op.kind, readFloat(a, i, op.srcKind), op.b);
    }
  }
}

void copyLoop(const Op &op, Frame &f) {
  std::memcpy(f.slot[op.res[0]], f.slot[op.in[0]],
              op.count(f) * elemBytes(op.kind));
}

} // namespace

Built buildCast(Builder &b, Operation *mop, Op &op) {
  if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
           arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp, arith::ExtFOp,
           arith::TruncFOp, arith::BitcastOp, arith::IndexCastOp,
           arith::IndexCastUIOp, tile::FpToFpOp, tile::BitcastOp,
           tile::IntToPtrOp, tile::PtrToIntOp>(mop))
    return Built::NotMine;
  fillCommon(b, mop, op);
  EK s = op.srcKind, d = op.kind;
  if (isa<arith::BitcastOp, tile::BitcastOp, tile::IntToPtrOp,
          tile::PtrToIntOp>(mop)) {
    op.fn = copyLoop;
    return Built::Ok;
  }
  op.a = isa<arith::ExtSIOp, arith::SIToFPOp, arith::FPToSIOp,
             arith::IndexCastOp>(mop);
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(mop))
    op.fn = genericCast<CastKind::IntToInt>;
  else if (isa<arith::SIToFPOp, arith::UIToFPOp>(mop))
    op.fn = genericCast<CastKind::IntToFloat>;
  else if (isa<arith::FPToSIOp, arith::FPToUIOp>(mop))
    op.fn = genericCast<CastKind::FloatToInt>;
  else {
    bool rtz = false;
    if (auto c = dyn_cast<tile::FpToFpOp>(mop))
      rtz = c.getRounding() && *c.getRounding() == tile::RoundingMode::RTZ;
    if (auto c = dyn_cast<arith::TruncFOp>(mop))
      rtz = c.getRoundingmode() &&
            *c.getRoundingmode() == arith::RoundingMode::toward_zero;
    op.b = rtz;
    Handler fast = rtz ? nullptr : pickFloatCast(s, d);
    op.fn = fast ? fast : genericCast<CastKind::FloatToFloat>;
  }
  return Built::Ok;
}

} // namespace tritium::interp

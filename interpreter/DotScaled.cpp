//===- DotScaled.cpp - tile.dot_scaled emulated in fp32 ----------*- C++ -*-===//
//
// Microscaled dot: each operand is upcast to fp32 from its format (e4m3 and
// e5m2 as fp8 bytes, e2m1 as two fp4 values per byte with the low nibble
// first along K, bf16, fp16), multiplied by 2^(scale - 127) per group of 32
// elements along K when u8 e8m0 scales are given (a_scale: M x K/32,
// b_scale: N x K/32; 0xff is NaN) and rounded to the compute type (fp16
// when either format is fp16, else bf16: what the GPU multiplies, and
// Triton's definition of the emulation), then d = a * b + c with fp32
// products and accumulation (Eigen).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>

using namespace mlir;

namespace tritium::interp {
namespace {

using RowMatF =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

float e2m1(uint8_t nib) {
  static const float mag[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  float v = mag[nib & 7];
  return nib & 8 ? -v : v;
}

float scaleOf(uint8_t s) {
  if (s == 0xff)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, int(s) - 127);
}

// Upcasts operand `src` (format `fmt`, storage kind `k`) into the fp32
// rows x K matrix `out`. `kMajor`: K runs along the storage's columns
// (lhs: M x K) or rows (rhs: K x N, written transposed to N x K).
void upcast(const uint8_t *src, EK k, tile::ScaleDotElemType fmt,
            int64_t rows, int64_t K, bool lhs, RowMatF &out) {
  out.resize(rows, K);
  auto at = [&](int64_t r, int64_t kk) -> float {
    // Element (r, kk) of the logical operand (lhs: r = m; rhs: r = n).
    switch (fmt) {
    case tile::ScaleDotElemType::E2M1: {
      int64_t byte = lhs ? r * (K / 2) + kk / 2 : (kk / 2) * rows + r;
      uint8_t v = src[byte];
      return e2m1(kk & 1 ? v >> 4 : v & 15);
    }
    case tile::ScaleDotElemType::E4M3:
      return fp8ToFloat(EK::F8E4M3FN, src[lhs ? r * K + kk : kk * rows + r]);
    case tile::ScaleDotElemType::E5M2:
      return fp8ToFloat(EK::F8E5M2, src[lhs ? r * K + kk : kk * rows + r]);
    default:
      return float(readFloat(src, lhs ? r * K + kk : kk * rows + r, k));
    }
  };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t kk = 0; kk < K; ++kk)
      out(r, kk) = at(r, kk);
}

void applyScale(RowMatF &m, const uint8_t *scale) {
  if (!scale)
    return;
  int64_t groups = (m.cols() + 31) / 32;
  for (int64_t r = 0; r < m.rows(); ++r)
    for (int64_t kk = 0; kk < m.cols(); ++kk)
      m(r, kk) *= scaleOf(scale[r * groups + kk / 32]);
}

/// Rounds every value to fp16 (overflowing to inf) or bf16, nearest even.
void roundTo(RowMatF &m, bool fp16) {
  for (int64_t r = 0; r < m.rows(); ++r)
    for (int64_t kk = 0; kk < m.cols(); ++kk)
      m(r, kk) = fp16 ? float(Eigen::half(m(r, kk))) : float(Eigen::bfloat16(m(r, kk)));
}

// in = a, b, c; op.a/op.b: a_scale/b_scale slots or -1;
// op.ints = {M, N, K, a format, b format}; op.srcKind: a's kind;
// op.c: b's kind.
void dotScaled(const Op &op, Frame &f) {
  int64_t M = op.ints[0], N = op.ints[1], K = op.ints[2];
  auto fa = static_cast<tile::ScaleDotElemType>(op.ints[3]);
  auto fb = static_cast<tile::ScaleDotElemType>(op.ints[4]);
  RowMatF A, Bt;
  upcast(f.slot[op.in[0]], op.srcKind, fa, M, K, true, A);
  upcast(f.slot[op.in[1]], EK(op.c), fb, N, K, false, Bt);
  applyScale(A, op.a >= 0 ? f.slot[op.a] : nullptr);
  applyScale(Bt, op.b >= 0 ? f.slot[op.b] : nullptr);
  bool fp16 = fa == tile::ScaleDotElemType::FP16 || fb == tile::ScaleDotElemType::FP16;
  roundTo(A, fp16);
  roundTo(Bt, fp16);
  Eigen::Map<const RowMatF> C(f.get<float>(op.in[2]), M, N);
  Eigen::Map<RowMatF> D(f.get<float>(op.res[0]), M, N);
  RowMatF prod = A * Bt.transpose();
  D = prod + C;
}

} // namespace

Built buildDotScaled(Builder &b, Operation *mop, Op &op) {
  auto d = dyn_cast<tile::DotScaledOp>(mop);
  if (!d)
    return Built::NotMine;
  op.in = {b.use(d.getA()), b.use(d.getB()), b.use(d.getC())};
  op.a = d.getAScale() ? b.use(d.getAScale()) : -1;
  op.b = d.getBScale() ? b.use(d.getBScale()) : -1;
  op.res.push_back(b.define(d.getD()));
  op.kind = b.info(op.res[0]).kind;
  op.shape.assign(b.info(op.res[0]).shape.begin(),
                  b.info(op.res[0]).shape.end());
  op.srcKind = b.info(op.in[0]).kind;
  op.c = int64_t(b.info(op.in[1]).kind);
  op.n = b.info(op.res[0]).elems;
  if (op.kind != EK::F32 || op.shape.size() != 2)
    return b.error(mop, "dot_scaled: only 2-D fp32 results are supported"),
           Built::Error;
  auto fa = d.getAElemType(), fb = d.getBElemType();
  auto supported = [](tile::ScaleDotElemType t) {
    return t != tile::ScaleDotElemType::E2M3 &&
           t != tile::ScaleDotElemType::E3M2;
  };
  if (!supported(fa) || !supported(fb))
    return b.error(mop, "dot_scaled: e2m3/e3m2 operands are not supported"),
           Built::Error;
  int64_t M = op.shape[0], N = op.shape[1];
  auto aShape = b.info(op.in[0]).shape;
  int64_t K = aShape[1] * (fa == tile::ScaleDotElemType::E2M1 ? 2 : 1);
  op.ints = {M, N, K, int64_t(fa), int64_t(fb)};
  op.fn = dotScaled;
  return Built::Ok;
}

} // namespace tritium::interp

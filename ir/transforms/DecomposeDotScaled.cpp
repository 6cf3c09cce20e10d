//===- DecomposeDotScaled.cpp - dot_scaled as upcasts and a plain dot -----===//
//
// For targets without block-scaled tensor-core instructions (sm_80, sm_90),
// tile.dot_scaled becomes tile ops every executor already runs:
//
//   1. each operand is upcast to the compute type T (fp16 when either
//      format is fp16, else bf16): e4m3/e5m2 through fp_to_fp, bf16/fp16
//      as they are (or through fp32 when the other is the compute type),
//      e2m1 by building T's bits from each nibble (low nibble first along
//      K) and interleaving the two halves along K with join + reshape;
//   2. a given e8m0 scale s becomes the fp32 2^(s - 127) (0xff: NaN,
//      0: 2^-127), broadcast over its 32 values along K; the operand is
//      multiplied by it in fp32 and rounded back to T;
//   3. d = tile.dot(a_T, b_T, c) with fp32 accumulation.
//
// Every value of an e2m1, e4m3 or e5m2 operand is exact in bf16, and a
// power-of-two scale keeps it exact unless it leaves T's range, so the
// result is the exact product rounded only by fp32 accumulation, as the
// interpreter computes it directly.
//
//===----------------------------------------------------------------------===//
#include "ir/transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDECOMPOSEDOTSCALED
#include "ir/transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

struct Decomposer {
  OpBuilder &b;
  Location loc;

  RankedTensorType like(Value v, Type elem) {
    return cast<RankedTensorType>(v.getType()).clone(elem);
  }
  RankedTensorType shaped(ArrayRef<int64_t> shape, Type elem) {
    return RankedTensorType::get(shape, elem);
  }
  Value intConst(RankedTensorType t, int64_t v) {
    auto e = cast<IntegerType>(t.getElementType());
    return arith::ConstantOp::create(
        b, loc, t, DenseElementsAttr::get(t, b.getIntegerAttr(e, v)));
  }
  Value floatConst(RankedTensorType t, double v) {
    return arith::ConstantOp::create(
        b, loc, t, DenseElementsAttr::get(t, b.getFloatAttr(t.getElementType(), v)));
  }

  /// fp bits of one e2m1 nibble (the low 4 bits of the i16 `n`) in T
  /// (`mBits` mantissa bits, exponent bias `bias`).
  Value nibbleToBits(Value n, unsigned mBits, int bias, int64_t half) {
    auto t = cast<RankedTensorType>(n.getType());
    Value em = arith::AndIOp::create(b, loc, n, intConst(t, 7));
    Value sign = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, n, intConst(t, 8)), intConst(t, 12));
    // em >= 2: 2^((em >> 1) - 1) * (1 + (em & 1) / 2), a normal number.
    Value normal = arith::AddIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, em, intConst(t, mBits - 1)),
        intConst(t, int64_t(bias - 1) << mBits));
    Value isNormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, em,
                                           intConst(t, 2));
    Value isHalf =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, em, intConst(t, 1));
    Value small = arith::SelectOp::create(b, loc, isHalf, intConst(t, half), intConst(t, 0));
    Value mag = arith::SelectOp::create(b, loc, isNormal, normal, small);
    return arith::OrIOp::create(b, loc, mag, sign);
  }

  /// Operand `x` in format `fmt` as a tensor of T with K unpacked.
  Value upcast(Value x, ScaleDotElemType fmt, FloatType T, bool lhs) {
    auto xt = cast<RankedTensorType>(x.getType());
    Type elem = xt.getElementType();
    switch (fmt) {
    case ScaleDotElemType::BF16:
    case ScaleDotElemType::FP16: {
      if (elem == T)
        return x;
      Value f32 = arith::ExtFOp::create(b, loc, like(x, b.getF32Type()), x);
      return arith::TruncFOp::create(b, loc, like(x, T), f32);
    }
    case ScaleDotElemType::E4M3:
    case ScaleDotElemType::E5M2: {
      Type f8 = fmt == ScaleDotElemType::E4M3 ? Type(b.getType<Float8E4M3FNType>())
                                               : Type(b.getType<Float8E5M2Type>());
      if (elem != f8)
        x = BitcastOp::create(b, loc, like(x, f8), x);
      return FpToFpOp::create(b, loc, like(x, T), x, RoundingModeAttr());
    }
    case ScaleDotElemType::E2M1:
    default: {
      bool bf16 = T.isBF16();
      auto i16 = like(x, b.getI16Type());
      Value wide = arith::ExtUIOp::create(b, loc, i16, x);
      Value lo = arith::AndIOp::create(b, loc, wide, intConst(i16, 15));
      Value hi = arith::ShRUIOp::create(b, loc, wide, intConst(i16, 4));
      unsigned mBits = bf16 ? 7 : 10;
      int bias = bf16 ? 127 : 15;
      int64_t half = bf16 ? 0x3F00 : 0x3800;
      auto asT = [&](Value n) {
        return BitcastOp::create(b, loc, like(x, T), nibbleToBits(n, mBits, bias, half))
            .getResult();
      };
      Value first = asT(lo), second = asT(hi);
      Value j = JoinOp::create(b, loc, first, second); // [R, C, 2]
      int64_t R = xt.getDimSize(0), C = xt.getDimSize(1);
      if (lhs) // [M, K/2, 2] -> [M, K]
        return ReshapeOp::create(b, loc, shaped({R, 2 * C}, T), j, false);
      // [K/2, N, 2] -> [K/2, 2, N] -> [K, N]
      Value t = TransOp::create(b, loc, j, ArrayRef<int32_t>{0, 2, 1});
      return ReshapeOp::create(b, loc, shaped({2 * R, C}, T), t, false);
    }
    }
  }

  /// `v` (T, K unpacked) times the e8m0 scales `s` ([rows, K/32] i8),
  /// computed in fp32 and rounded back to T.
  Value applyScale(Value v, Value s, bool lhs) {
    auto vt = cast<RankedTensorType>(v.getType());
    auto st = cast<RankedTensorType>(s.getType());
    int64_t rows = st.getDimSize(0), groups = st.getDimSize(1);
    int64_t K = lhs ? vt.getDimSize(1) : vt.getDimSize(0);
    int64_t group = K / groups;
    auto i32 = like(s, b.getI32Type());
    Value wide = arith::ExtUIOp::create(b, loc, i32, s);
    // 2^(s-127) as fp32 bits: s << 23, and 2^-127 (a subnormal) for s = 0.
    Value bits = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wide, intConst(i32, 0)),
        intConst(i32, 1 << 22), arith::ShLIOp::create(b, loc, wide, intConst(i32, 23)));
    auto f32 = like(s, b.getF32Type());
    Value scale = BitcastOp::create(b, loc, f32, bits);
    scale = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wide, intConst(i32, 255)),
        floatConst(f32, std::numeric_limits<double>::quiet_NaN()), scale);
    Value full;
    Type F = b.getF32Type();
    if (lhs) { // [M, G] -> [M, G, 1] -> [M, G, group] -> [M, K]
      Value e = ExpandDimsOp::create(b, loc, scale, 2);
      Value br = BroadcastOp::create(b, loc, shaped({rows, groups, group}, F), e);
      full = ReshapeOp::create(b, loc, shaped({rows, K}, F), br, false);
    } else { // [N, G] -> [G, N] -> [G, 1, N] -> [G, group, N] -> [K, N]
      Value t = TransOp::create(b, loc, scale, ArrayRef<int32_t>{1, 0});
      Value e = ExpandDimsOp::create(b, loc, t, 1);
      Value br = BroadcastOp::create(b, loc, shaped({groups, group, rows}, F), e);
      full = ReshapeOp::create(b, loc, shaped({K, rows}, F), br, false);
    }
    Value wideV = arith::ExtFOp::create(b, loc, like(v, F), v);
    Value prod = arith::MulFOp::create(b, loc, wideV, full);
    return arith::TruncFOp::create(b, loc, vt, prod);
  }
};

} // namespace

LogicalResult mlir::tile::decomposeDotScaled(Operation *root) {
  SmallVector<DotScaledOp> ops;
  root->walk([&](DotScaledOp op) { ops.push_back(op); });
  for (DotScaledOp op : ops) {
    auto dt = cast<RankedTensorType>(op.getD().getType());
    auto at = cast<RankedTensorType>(op.getA().getType());
    if (dt.getRank() != 2 || !dt.getElementType().isF32() || at.getRank() != 2)
      return op.emitError("dot_scaled: only 2-D operands with an fp32 result can be "
                          "decomposed");
    auto fa = op.getAElemType(), fb = op.getBElemType();
    for (auto f : {fa, fb})
      if (f == ScaleDotElemType::E2M3 || f == ScaleDotElemType::E3M2)
        return op.emitError("dot_scaled: e2m3/e3m2 operands are not supported");
    for (Value s : {op.getAScale(), op.getBScale()}) {
      if (!s)
        continue;
      auto st = cast<RankedTensorType>(s.getType());
      int64_t K = at.getDimSize(1) * (fa == ScaleDotElemType::E2M1 ? 2 : 1);
      if (st.getRank() != 2 || st.getDimSize(1) == 0 || K % st.getDimSize(1) != 0)
        return op.emitError("dot_scaled: scales must have shape [rows, K/group]");
    }
    OpBuilder b(op);
    Decomposer d{b, op.getLoc()};
    bool fp16 = fa == ScaleDotElemType::FP16 || fb == ScaleDotElemType::FP16;
    FloatType T = fp16 ? FloatType(b.getF16Type()) : FloatType(b.getBF16Type());
    Value a = d.upcast(op.getA(), fa, T, true);
    Value bb = d.upcast(op.getB(), fb, T, false);
    if (op.getAScale())
      a = d.applyScale(a, op.getAScale(), true);
    if (op.getBScale())
      bb = d.applyScale(bb, op.getBScale(), false);
    Value r = DotOp::create(b, op.getLoc(), op.getD().getType(), a, bb, op.getC(),
                            InputPrecision::IEEE, 0);
    op.getD().replaceAllUsesWith(r);
    op.erase();
  }
  return success();
}

// fp32 products of input precision bf16x3 / bf16x6: each operand x is
// split into bf16 parts x0 = bf16(x), x1 = bf16(x - x0), x2 = bf16(x - x0 -
// x1) (two parts for bf16x3, three for bf16x6), and the products xi * yj
// with i + j < parts are summed, smallest first, into a zero accumulator
// that is then added to c: bf16 tile.dot ops, which run on tensor cores.
void mlir::tile::decomposeBf16Dots(Operation *root) {
  std::vector<DotOp> dots;
  root->walk([&](DotOp op) {
    auto aT = cast<RankedTensorType>(op.getA().getType());
    auto bT = cast<RankedTensorType>(op.getB().getType());
    auto cT = cast<RankedTensorType>(op.getC().getType());
    auto prec = op.getInputPrecision();
    if ((prec == InputPrecision::BF16x3 || prec == InputPrecision::BF16x6) &&
        cT.getRank() == 2 && aT.getElementType().isF32() && bT.getElementType().isF32() &&
        cT.getElementType().isF32())
      dots.push_back(op);
  });
  for (DotOp op : dots) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    int parts = op.getInputPrecision() == InputPrecision::BF16x6 ? 3 : 2;
    auto split = [&](Value x) {
      auto t = cast<RankedTensorType>(x.getType());
      auto bt = RankedTensorType::get(t.getShape(), b.getBF16Type());
      std::vector<Value> out;
      Value r = x;
      for (int p = 0; p < parts; ++p) {
        Value h = arith::TruncFOp::create(b, loc, bt, r);
        out.push_back(h);
        if (p + 1 < parts)
          r = arith::SubFOp::create(b, loc, r, arith::ExtFOp::create(b, loc, t, h));
      }
      return out;
    };
    std::vector<Value> a = split(op.getA()), bb = split(op.getB());
    auto cT = cast<RankedTensorType>(op.getC().getType());
    Value acc = arith::ConstantOp::create(
        b, loc, cT, DenseElementsAttr::get(cT, b.getF32FloatAttr(0.0f).getValue()));
    for (int s = parts - 1; s >= 0; --s)
      for (int i = 0; i <= s; ++i) {
        int j = s - i;
        if (i >= parts || j >= parts)
          continue;
        acc = DotOp::create(b, loc, cT, a[i], bb[j], acc, InputPrecision::IEEE, 0);
      }
    Value d = arith::AddFOp::create(b, loc, op.getC(), acc);
    op.getD().replaceAllUsesWith(d);
    op.erase();
  }
}

namespace {
struct TileDecomposeDotScaledPass
    : public mlir::tile::impl::TileDecomposeDotScaledBase<TileDecomposeDotScaledPass> {
  void runOnOperation() override {
    if (failed(decomposeDotScaled(getOperation())))
      signalPassFailure();
  }
};
} // namespace

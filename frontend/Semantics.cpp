//===- Semantics.cpp - Triton's typing rules over tile IR values ----------===//
//
// Literal typing, NumPy broadcasting, kind/width type promotion (with Python
// scalars of a lower-or-equal kind not taking part), casts between every pair
// of dtypes, and the Python operators on blocks: C-style integer `//` and
// `%`, signed/unsigned comparisons and shifts, pointer arithmetic. Each rule
// matches Triton's documented semantics (TRITON.md §1 "Global semantic rules").
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <limits>

using namespace tritium::fe;
using namespace mlir;

mlir::Type Emitter::irType(DType d, const std::vector<int64_t> &shape) {
  mlir::Type t = d.toMlir(&ctx);
  if (shape.empty())
    return t;
  return RankedTensorType::get(shape, t);
}

mlir::Value Emitter::constInt(DType d, int64_t v,
                              const std::vector<int64_t> &shape) {
  auto elem = mlir::cast<IntegerType>(d.toMlir(&ctx));
  auto attr = IntegerAttr::get(elem, APInt(elem.getWidth(), uint64_t(v),
                                           /*isSigned=*/d.isSigned(),
                                           /*implicitTrunc=*/true));
  if (shape.empty())
    return arith::ConstantOp::create(b, loc(cur), attr);
  auto type = RankedTensorType::get(shape, elem);
  return arith::ConstantOp::create(b, loc(cur),
                                   DenseElementsAttr::get(type, attr));
}

mlir::Value Emitter::constFloat(DType d, double v,
                                const std::vector<int64_t> &shape) {
  auto elem = mlir::cast<FloatType>(d.toMlir(&ctx));
  bool lost = false;
  APFloat value(v);
  value.convert(elem.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  auto attr = FloatAttr::get(elem, value);
  if (shape.empty())
    return arith::ConstantOp::create(b, loc(cur), attr);
  auto type = RankedTensorType::get(shape, elem);
  return arith::ConstantOp::create(b, loc(cur),
                                   DenseElementsAttr::get(type, attr));
}

DType Emitter::typeOf(const TValue &v, SourceLoc l) {
  switch (v.kind) {
  case TValue::Tensor:
    return v.dtype;
  case TValue::Bool:
    return DType::I1;
  case TValue::Int:
    // Python int literals are typed by range: i32, u32, i64, u64.
    if (v.unsignedInt)
      return DType::U64;
    if (v.i >= INT32_MIN && v.i <= INT32_MAX)
      return DType::I32;
    if (v.i > INT32_MAX && v.i <= int64_t(UINT32_MAX))
      return DType::U32;
    return DType::I64;
  case TValue::Float: {
    double a = std::fabs(v.f);
    return (std::isfinite(v.f) && a > std::numeric_limits<float>::max())
               ? DType::F64
               : DType::F32;
  }
  default:
    error(l, "expected a tensor or a number, got " + v.typeStr() +
                 (v.kind == TValue::None ? "" : " " + v.repr()));
  }
}

TValue Emitter::toTensor(const TValue &v, SourceLoc l) {
  cur = l;
  switch (v.kind) {
  case TValue::Tensor:
    return v;
  case TValue::Bool:
    return TValue::tensor(constInt(DType::I1, v.b), DType::I1, {});
  case TValue::Int: {
    DType d = typeOf(v, l);
    return TValue::tensor(constInt(d, v.i), d, {});
  }
  case TValue::Float: {
    DType d = typeOf(v, l);
    return TValue::tensor(constFloat(d, v.f), d, {});
  }
  default:
    error(l, "expected a tensor or a number, got " + v.typeStr() +
                 (v.kind == TValue::None ? "" : " " + v.repr()));
  }
}

TValue Emitter::splatTo(const TValue &scalar, const std::vector<int64_t> &shape) {
  if (shape.empty())
    return scalar;
  auto type = mlir::cast<RankedTensorType>(irType(scalar.dtype, shape));
  Value v = tile::SplatOp::create(b, loc(cur), type, scalar.v);
  return TValue::tensor(v, scalar.dtype, shape);
}

std::vector<int64_t> Emitter::broadcastShapes(const std::vector<int64_t> &a,
                                              const std::vector<int64_t> &bs,
                                              SourceLoc l) {
  size_t rank = std::max(a.size(), bs.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - bs.size() ? 1 : bs[i - (rank - bs.size())];
    if (da != db && da != 1 && db != 1)
      error(l, "cannot broadcast shapes " + shapeText(a) + " and " +
                   shapeText(bs) + ": dimension " + std::to_string(i) +
                   " is " + std::to_string(da) + " vs " + std::to_string(db));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

TValue Emitter::broadcastTo(const TValue &v0, const std::vector<int64_t> &shape,
                            SourceLoc l) {
  TValue v = toTensor(v0, l);
  cur = l;
  if (v.shape == shape)
    return v;
  if (v.shape.empty())
    return splatTo(v, shape);
  if (v.shape.size() > shape.size())
    error(l, "cannot broadcast " + v.typeStr() + " to shape " + shapeText(shape));
  // Pad the rank on the left with 1s, then repeat size-1 dimensions.
  std::vector<int64_t> padded(shape.size() - v.shape.size(), 1);
  padded.insert(padded.end(), v.shape.begin(), v.shape.end());
  for (size_t i = 0; i < shape.size(); ++i)
    if (padded[i] != shape[i] && padded[i] != 1)
      error(l, "cannot broadcast " + v.typeStr() + " to shape " +
                   shapeText(shape));
  Value cur_ = v.v;
  if (padded != v.shape)
    cur_ = tile::ReshapeOp::create(
        b, loc(l), mlir::cast<RankedTensorType>(irType(v.dtype, padded)), cur_);
  if (padded != shape)
    cur_ = tile::BroadcastOp::create(
        b, loc(l), mlir::cast<RankedTensorType>(irType(v.dtype, shape)), cur_);
  return TValue::tensor(cur_, v.dtype, shape);
}

void Emitter::broadcastPair(TValue &a, TValue &c, SourceLoc l) {
  a = toTensor(a, l);
  c = toTensor(c, l);
  if (a.shape == c.shape)
    return;
  auto shape = broadcastShapes(a.shape, c.shape, l);
  a = broadcastTo(a, shape, l);
  c = broadcastTo(c, shape, l);
}

/// Kind order of Triton's promotion: bool < int < float.
static int kindOf(DType d) {
  if (d.isBool()) return 0;
  if (d.isInt()) return 1;
  return 2;
}

static DType integerPromote(DType a, DType c) {
  unsigned ar = a.bits(), cr = c.bits();
  bool au = a.isUnsigned(), cu = c.isUnsigned();
  if (au == cu)
    return ar > cr ? a : c;
  if (au)
    return ar >= cr ? a : c;
  return cr >= ar ? c : a;
}

static bool isDivOrMod(BinOpKind op) {
  return op == BinOpKind::Div || op == BinOpKind::Mod ||
         op == BinOpKind::FloorDiv;
}

DType Emitter::promote(const TValue &a, const TValue &c, BinOpKind op,
                       SourceLoc l) {
  DType at = typeOf(a, l), ct = typeOf(c, l);
  if (at.isPtr() || ct.isPtr())
    error(l, "expected numbers, got " + a.typeStr() + " and " + c.typeStr() +
                 ": pointers only support + and - with integer offsets");
  bool divMod = isDivOrMod(op);
  bool aScalar = a.isConstexpr(), cScalar = c.isConstexpr();
  // A Python number of a lower-or-equal kind does not take part.
  if (aScalar != cScalar) {
    DType s = aScalar ? at : ct, t = aScalar ? ct : at;
    if (kindOf(s) <= kindOf(t)) {
      if (divMod && (t.kind == DType::F16 || t.kind == DType::BF16))
        return DType::F32;
      return t;
    }
  }
  if (at.kind == DType::F64 || ct.kind == DType::F64)
    return DType::F64;
  if (at.kind == DType::F32 || ct.kind == DType::F32)
    return DType::F32;
  if (at.kind == DType::F16 || ct.kind == DType::F16)
    return divMod ? DType::F32 : DType::F16;
  if (at.kind == DType::BF16 || ct.kind == DType::BF16) {
    if (divMod) return DType::F32;
    return at.kind == ct.kind ? DType::BF16 : DType::F32;
  }
  if (at.isFP8() && ct.isFP8())
    return at == ct ? at : DType(DType::F16);
  if (at.isFP8() || ct.isFP8()) // fp8 with an int
    return at.isFP8() ? at : ct;
  if (divMod && at.isUnsigned() != ct.isUnsigned() && !at.isBool() &&
      !ct.isBool())
    error(l, "Cannot use /, // or % with " + at.name() + " and " + ct.name() +
                 " because they have different signedness; cast them to the "
                 "same signedness");
  return integerPromote(at, ct);
}

TValue Emitter::cast(const TValue &v0, DType to, SourceLoc l, bool bitcast,
                     const std::string &rounding) {
  TValue v = toTensor(v0, l);
  cur = l;
  DType from = v.dtype;
  if (from == to)
    return v;
  mlir::Type dst = irType(to, v.shape);
  auto result = [&](Value r) { return TValue::tensor(r, to, v.shape); };
  Location L = loc(l);
  if (bitcast) {
    if (from.bits() != to.bits())
      error(l, "cannot bitcast " + from.name() + " (" +
                   std::to_string(from.bits()) + " bits) to " + to.name() +
                   " (" + std::to_string(to.bits()) + " bits)");
    if (dst == v.v.getType())
      return result(v.v); // signedness only
    return result(tile::BitcastOp::create(b, L, dst, v.v));
  }
  if (from.isPtr() || to.isPtr()) {
    if (from.isPtr() && to.isPtr())
      return result(tile::BitcastOp::create(b, L, dst, v.v));
    if (from.isPtr() && to.kind == DType::I1) {
      Value i = tile::PtrToIntOp::create(b, L, irType(DType::I64, v.shape), v.v);
      Value z = constInt(DType::I64, 0, v.shape);
      return result(arith::CmpIOp::create(b, L, arith::CmpIPredicate::ne, i, z));
    }
    if (from.isPtr() && to.isInt() && to.bits() == 64)
      return result(tile::PtrToIntOp::create(b, L, dst, v.v));
    if (to.isPtr() && from.isInt() && from.bits() == 64)
      return result(tile::IntToPtrOp::create(b, L, dst, v.v));
    error(l, "cannot cast " + from.name() + " to " + to.name());
  }
  if (!rounding.empty() && rounding != "rtne" && rounding != "rtz")
    error(l, "fp_downcast_rounding must be 'rtne' or 'rtz', got '" + rounding + "'");
  if (from.isFloat() && to.isFloat()) {
    bool narrowing = to.bits() < from.bits() ||
                     (to.bits() == from.bits()); // fp16 <-> bf16, fp8 <-> fp8
    if (from.isFP8() || to.isFP8() || rounding == "rtz" ||
        (from.bits() == to.bits())) {
      if (from.bits() == to.bits() && !from.isFP8() && !to.isFP8()) {
        // fp16 <-> bf16 goes through fp32.
        TValue mid = cast(v, DType::F32, l);
        return cast(mid, to, l, false, rounding);
      }
      tile::RoundingModeAttr mode;
      if (narrowing)
        mode = tile::RoundingModeAttr::get(
            &ctx, rounding == "rtz" ? tile::RoundingMode::RTZ
                                    : tile::RoundingMode::RTNE);
      return result(tile::FpToFpOp::create(b, L, dst, v.v, mode));
    }
    if (to.bits() > from.bits())
      return result(arith::ExtFOp::create(b, L, dst, v.v));
    return result(arith::TruncFOp::create(b, L, dst, v.v));
  }
  if (to.kind == DType::I1) { // x != 0
    if (from.isFloat()) {
      Value z = constFloat(from, 0.0, v.shape);
      return result(arith::CmpFOp::create(b, L, arith::CmpFPredicate::UNE, v.v, z));
    }
    Value z = constInt(from, 0, v.shape);
    return result(arith::CmpIOp::create(b, L, arith::CmpIPredicate::ne, v.v, z));
  }
  if (from.isInt() && to.isInt()) {
    if (to.bits() == from.bits())
      return result(v.v); // signedness only
    if (to.bits() < from.bits())
      return result(arith::TruncIOp::create(b, L, dst, v.v));
    if (from.isSigned())
      return result(arith::ExtSIOp::create(b, L, dst, v.v));
    return result(arith::ExtUIOp::create(b, L, dst, v.v));
  }
  if (from.isInt() && to.isFloat()) {
    if (to.isFP8()) {
      TValue mid = cast(v, DType::F32, l);
      return cast(mid, to, l, false, rounding);
    }
    if (from.isSigned())
      return result(arith::SIToFPOp::create(b, L, dst, v.v));
    return result(arith::UIToFPOp::create(b, L, dst, v.v));
  }
  if (from.isFloat() && to.isInt()) {
    if (from.isFP8())
      return cast(cast(v, DType::F32, l), to, l);
    if (to.isSigned())
      return result(arith::FPToSIOp::create(b, L, dst, v.v));
    return result(arith::FPToUIOp::create(b, L, dst, v.v));
  }
  error(l, "cannot cast " + from.name() + " to " + to.name());
}

bool Emitter::truthy(const TValue &v, SourceLoc l) {
  switch (v.kind) {
  case TValue::Bool: return v.b;
  case TValue::Int: return v.i != 0;
  case TValue::Float: return v.f != 0;
  case TValue::Str: return !v.s.empty();
  case TValue::None: return false;
  case TValue::Tuple: return !v.elems.empty();
  case TValue::Type: case TValue::Function: case TValue::Module:
  case TValue::Builtin:
    return true;
  default:
    error(l, "expected a compile-time value, got " + v.typeStr());
  }
}

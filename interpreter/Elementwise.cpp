//===- Elementwise.cpp - arith and math ops on whole tiles ------*- C++ -*-===//
//
// Integer arithmetic wraps (two's complement, computed on unsigned storage;
// signedness comes from the op: divsi vs divui, shrsi vs shrui, ...).
// Division and remainder are C-style; a zero divisor is a reported fault
// naming the lane. Shifts by the bit width or more behave as the GPU's
// (shl/shr.u give 0, shr.s fills with the sign). Float ops run in the
// storage type's compute type (fp16/bf16 in float, rounded per op).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Elementwise.h"

#include "ir/TileDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tritium::interp {
namespace {

// Wide enough unsigned type that products do not promote to signed int.
template <class U>
using Wide = std::conditional_t<(sizeof(U) < 4), uint32_t, U>;
template <class U> using S = std::make_signed_t<U>;

template <class U, class Fn> struct intBinary {
  static void run(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const U *a = f.get<U>(op.in[0]), *b = f.get<U>(op.in[1]);
  U *r = f.get<U>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = static_cast<U>(Fn::template apply<U>(a[i], b[i]));
  if (op.kind == EK::I1)
    for (int64_t i = 0; i < n; ++i)
      r[i] &= 1;
  }
};

template <class U, class Fn> struct intUnary {
  static void run(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const U *a = f.get<U>(op.in[0]);
  U *r = f.get<U>(op.res[0]);
  for (int64_t i = 0; i < n; ++i)
    r[i] = static_cast<U>(Fn::template apply<U>(a[i]));
  }
};

#define INT_FN(NAME, EXPR)                                                     \
  struct NAME {                                                                \
    template <class U> static U apply(U a, U b) { return EXPR; }               \
  };
INT_FN(AddI, U(Wide<U>(a) + Wide<U>(b)))
INT_FN(SubI, U(Wide<U>(a) - Wide<U>(b)))
INT_FN(MulI, U(Wide<U>(a) * Wide<U>(b)))
INT_FN(AndI, U(a & b))
INT_FN(OrI, U(a | b))
INT_FN(XOrI, U(a ^ b))
INT_FN(ShlI, U(b >= sizeof(U) * 8 ? 0 : Wide<U>(a) << b))
INT_FN(ShrUI, U(b >= sizeof(U) * 8 ? 0 : a >> b))
INT_FN(ShrSI, U(S<U>(a) >> (b >= sizeof(U) * 8 ? sizeof(U) * 8 - 1 : b)))
INT_FN(MinSI, U(S<U>(a) < S<U>(b) ? a : b))
INT_FN(MaxSI, U(S<U>(a) > S<U>(b) ? a : b))
INT_FN(MinUI, U(a < b ? a : b))
INT_FN(MaxUI, U(a > b ? a : b))
INT_FN(MulHiUI, U((sizeof(U) == 8)
                      ? U((unsigned __int128)a * b >> 64)
                      : U((uint64_t(a) * uint64_t(b)) >> (sizeof(U) * 8))))
#undef INT_FN

struct AbsI {
  template <class U> static U apply(U a) {
    return S<U>(a) < 0 ? U(Wide<U>(0) - Wide<U>(a)) : a;
  }
};

// Division and remainder: C semantics, faults on zero divisors. MIN / -1
// wraps to MIN (remainder 0), as the GPU computes it.
enum class DivKind { DivS, DivU, RemS, RemU };
template <class U, DivKind K> void intDiv(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const U *a = f.get<U>(op.in[0]), *b = f.get<U>(op.in[1]);
  U *r = f.get<U>(op.res[0]);
  for (int64_t i = 0; i < n; ++i) {
    U x = a[i], y = b[i];
    if (y == 0) {
      f.fail(op, "integer division by zero",
             "lane " + laneText(op, i) + " divides " +
                 std::to_string(K == DivKind::DivS || K == DivKind::RemS
                                    ? int64_t(S<U>(x))
                                    : int64_t(x)) +
                 " by 0 (" + op.name + ")");
      return;
    }
    if constexpr (K == DivKind::DivU)
      r[i] = x / y;
    else if constexpr (K == DivKind::RemU)
      r[i] = x % y;
    else {
      S<U> sx = S<U>(x), sy = S<U>(y);
      bool ovf = sx == std::numeric_limits<S<U>>::min() && sy == -1;
      if constexpr (K == DivKind::DivS)
        r[i] = ovf ? x : U(sx / sy);
      else
        r[i] = ovf ? 0 : U(sx % sy);
    }
  }
}

template <DivKind K> Handler pickDiv(EK k) {
  switch (k) {
  case EK::I1:
  case EK::I8:
    return intDiv<uint8_t, K>;
  case EK::I16:
    return intDiv<uint16_t, K>;
  case EK::I32:
    return intDiv<uint32_t, K>;
  case EK::I64:
    return intDiv<uint64_t, K>;
  default:
    return nullptr;
  }
}

// Float functors (C is float or double).
#define F1(NAME, EXPR)                                                         \
  struct NAME {                                                                \
    template <class C> static C apply(C a) { return EXPR; }                    \
  };
#define F2(NAME, EXPR)                                                         \
  struct NAME {                                                                \
    template <class C> static C apply(C a, C b) { return EXPR; }               \
  };
F2(AddF, a + b)
F2(SubF, a - b)
F2(MulF, a *b)
F2(DivF, a / b)
F2(RemF, std::fmod(a, b))
F2(MaxNumF, std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : (b > a ? b : (std::signbit(a) ? b : a))))
F2(MinNumF, std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : (b < a ? b : (std::signbit(a) ? a : b))))
F2(MaximumF, (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<C>::quiet_NaN() : (a > b ? a : (b > a ? b : (std::signbit(a) ? b : a))))
F2(MinimumF, (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<C>::quiet_NaN() : (a < b ? a : (b < a ? b : (std::signbit(a) ? a : b))))
F2(PowF, std::pow(a, b))
F2(Atan2F, std::atan2(a, b))
F2(CopySignF, std::copysign(a, b))
F1(NegF, -a)
F1(AbsF, std::fabs(a))
F1(ExpF, std::exp(a))
F1(Exp2F, std::exp2(a))
F1(LogF, std::log(a))
F1(Log2F, std::log2(a))
F1(Log10F, std::log10(a))
F1(Log1pF, std::log1p(a))
F1(Expm1F, std::expm1(a))
F1(SinF, std::sin(a))
F1(CosF, std::cos(a))
F1(TanF, std::tan(a))
F1(TanhF, std::tanh(a))
F1(SqrtF, std::sqrt(a))
F1(RsqrtF, C(1) / std::sqrt(a))
F1(ErfF, std::erf(a))
F1(FloorF, std::floor(a))
F1(CeilF, std::ceil(a))
F1(TruncF, std::trunc(a))
F1(RoundF, std::round(a))
F1(RoundEvenF, std::nearbyint(a))
F1(CbrtF, std::cbrt(a))
F1(AtanF, std::atan(a))
#undef F1
#undef F2

struct FmaF {
  template <class C> static C apply(C a, C b, C c) { return std::fma(a, b, c); }
};

// clampf: min(max(x, lo), hi); propagateNan=all makes any NaN operand NaN.
template <class T, bool PropagateNan> void clampLoop(const Op &op, Frame &f) {
  using C = Compute<T>;
  int64_t n = op.count(f);
  const T *x = f.get<T>(op.in[0]), *lo = f.get<T>(op.in[1]),
          *hi = f.get<T>(op.in[2]);
  T *r = f.get<T>(op.res[0]);
  for (int64_t i = 0; i < n; ++i) {
    C v = C(x[i]), l = C(lo[i]), h = C(hi[i]);
    C m = PropagateNan ? MaximumF::apply(v, l) : MaxNumF::apply(v, l);
    r[i] = T(PropagateNan ? MinimumF::apply(m, h) : MinNumF::apply(m, h));
  }
}

// Comparisons produce i1 (one byte 0/1).
template <class U, int P> void cmpILoop(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const U *a = f.get<U>(op.in[0]), *b = f.get<U>(op.in[1]);
  uint8_t *r = f.get<uint8_t>(op.res[0]);
  using P_ = arith::CmpIPredicate;
  for (int64_t i = 0; i < n; ++i) {
    U x = a[i], y = b[i];
    S<U> sx = S<U>(x), sy = S<U>(y);
    bool v;
    switch (static_cast<P_>(P)) {
    case P_::eq: v = x == y; break;
    case P_::ne: v = x != y; break;
    case P_::slt: v = sx < sy; break;
    case P_::sle: v = sx <= sy; break;
    case P_::sgt: v = sx > sy; break;
    case P_::sge: v = sx >= sy; break;
    case P_::ult: v = x < y; break;
    case P_::ule: v = x <= y; break;
    case P_::ugt: v = x > y; break;
    default: v = x >= y; break;
    }
    r[i] = v;
  }
}

template <class U> Handler pickCmpI(arith::CmpIPredicate p) {
  switch (p) {
#define C(P)                                                                   \
  case arith::CmpIPredicate::P:                                                \
    return cmpILoop<U, static_cast<int>(arith::CmpIPredicate::P)>;
    C(eq) C(ne) C(slt) C(sle) C(sgt) C(sge) C(ult) C(ule) C(ugt) C(uge)
#undef C
  }
  return nullptr;
}

template <class T, int P> void cmpFLoop(const Op &op, Frame &f) {
  using C = Compute<T>;
  using P_ = arith::CmpFPredicate;
  int64_t n = op.count(f);
  const T *a = f.get<T>(op.in[0]), *b = f.get<T>(op.in[1]);
  uint8_t *r = f.get<uint8_t>(op.res[0]);
  for (int64_t i = 0; i < n; ++i) {
    C x = C(a[i]), y = C(b[i]);
    bool uno = std::isnan(x) || std::isnan(y);
    bool v;
    switch (static_cast<P_>(P)) {
    case P_::AlwaysFalse: v = false; break;
    case P_::OEQ: v = !uno && x == y; break;
    case P_::OGT: v = !uno && x > y; break;
    case P_::OGE: v = !uno && x >= y; break;
    case P_::OLT: v = !uno && x < y; break;
    case P_::OLE: v = !uno && x <= y; break;
    case P_::ONE: v = !uno && x != y; break;
    case P_::ORD: v = !uno; break;
    case P_::UEQ: v = uno || x == y; break;
    case P_::UGT: v = uno || x > y; break;
    case P_::UGE: v = uno || x >= y; break;
    case P_::ULT: v = uno || x < y; break;
    case P_::ULE: v = uno || x <= y; break;
    case P_::UNE: v = uno || x != y; break;
    case P_::UNO: v = uno; break;
    default: v = true; break;
    }
    r[i] = v;
  }
}

template <class T> Handler pickCmpF(arith::CmpFPredicate p) {
  switch (p) {
#define C(P)                                                                   \
  case arith::CmpFPredicate::P:                                                \
    return cmpFLoop<T, static_cast<int>(arith::CmpFPredicate::P)>;
    C(AlwaysFalse) C(OEQ) C(OGT) C(OGE) C(OLT) C(OLE) C(ONE) C(ORD) C(UEQ)
    C(UGT) C(UGE) C(ULT) C(ULE) C(UNE) C(UNO) C(AlwaysTrue)
#undef C
  }
  return nullptr;
}

template <class T> void selectLoop(const Op &op, Frame &f) {
  int64_t n = op.count(f);
  const uint8_t *c = f.get<uint8_t>(op.in[0]);
  const T *a = f.get<T>(op.in[1]), *b = f.get<T>(op.in[2]);
  T *r = f.get<T>(op.res[0]);
  if (op.a) { // scalar condition
    std::memcpy(r, c[0] ? a : b, n * sizeof(T));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    r[i] = c[i] ? a[i] : b[i];
}

Handler pickBySize(unsigned size, Handler h1, Handler h2, Handler h4,
                   Handler h8) {
  return size == 1 ? h1 : size == 2 ? h2 : size == 4 ? h4 : h8;
}

} // namespace

Handler selectHandler(unsigned esize) {
  return pickBySize(esize, selectLoop<uint8_t>, selectLoop<uint16_t>,
                    selectLoop<uint32_t>, selectLoop<uint64_t>);
}

Built buildExtern(Builder &b, Operation *mop, Op &op);

Built buildElementwise(Builder &b, Operation *mop, Op &op) {
  if (isa<tile::ExternElementwiseOp>(mop))
    return buildExtern(b, mop, op);
  Handler h = nullptr;
  bool mine = true;
  auto setup = [&] {
    fillCommon(b, mop, op);
    return op.srcKind;
  };
  if (isa<arith::CmpIOp, arith::CmpFOp, arith::SelectOp>(mop)) {
    EK k = setup();
    if (auto c = dyn_cast<arith::CmpIOp>(mop)) {
      auto p = c.getPredicate();
      if (k == EK::I1) { // i1 as signed is 0/-1: signed order flips
        using P = arith::CmpIPredicate;
        p = p == P::slt ? P::ugt : p == P::sle ? P::uge
          : p == P::sgt ? P::ult : p == P::sge ? P::ule : p;
      }
      switch (elemBytes(k)) {
      case 1: h = pickCmpI<uint8_t>(p); break;
      case 2: h = pickCmpI<uint16_t>(p); break;
      case 4: h = pickCmpI<uint32_t>(p); break;
      default: h = pickCmpI<uint64_t>(p); break;
      }
    } else if (auto c = dyn_cast<arith::CmpFOp>(mop)) {
      switch (k) {
      case EK::F16: h = pickCmpF<half>(c.getPredicate()); break;
      case EK::BF16: h = pickCmpF<bf16>(c.getPredicate()); break;
      case EK::F32: h = pickCmpF<float>(c.getPredicate()); break;
      case EK::F64: h = pickCmpF<double>(c.getPredicate()); break;
      default: break;
      }
    } else {
      op.a = b.info(op.in[0]).shape.empty() && !op.shape.empty();
      h = selectHandler(elemBytes(op.kind));
    }
    op.fn = h;
    return h ? Built::Ok : Built::Error;
  }
#define IB(OP, FN)                                                             \
  else if (isa<OP>(mop)) h = pickInt<intBinary, FN>(setup());
#define IU(OP, FN)                                                             \
  else if (isa<OP>(mop)) h = pickInt<intUnary, FN>(setup());
#define FB(OP, FN)                                                             \
  else if (isa<OP>(mop)) h = pickFloat<floatBinary, FN>(setup());
#define FU(OP, FN)                                                             \
  else if (isa<OP>(mop)) h = pickFloat<floatUnary, FN>(setup());
#define DV(OP, K)                                                              \
  else if (isa<OP>(mop)) h = pickDiv<DivKind::K>(setup());
  if (false) {
  }
  IB(arith::AddIOp, AddI) IB(arith::SubIOp, SubI) IB(arith::MulIOp, MulI)
  IB(arith::AndIOp, AndI) IB(arith::OrIOp, OrI) IB(arith::XOrIOp, XOrI)
  IB(arith::ShLIOp, ShlI) IB(arith::ShRUIOp, ShrUI) IB(arith::ShRSIOp, ShrSI)
  IB(arith::MinSIOp, MinSI) IB(arith::MaxSIOp, MaxSI) IB(arith::MinUIOp, MinUI)
  IB(arith::MaxUIOp, MaxUI) IB(tile::MulhiUIOp, MulHiUI) IU(math::AbsIOp, AbsI)
  DV(arith::DivSIOp, DivS) DV(arith::DivUIOp, DivU) DV(arith::RemSIOp, RemS)
  DV(arith::RemUIOp, RemU)
  FB(arith::AddFOp, AddF) FB(arith::SubFOp, SubF) FB(arith::MulFOp, MulF)
  FB(arith::DivFOp, DivF) FB(tile::PreciseDivFOp, DivF) FB(arith::RemFOp, RemF)
  FB(arith::MaxNumFOp, MaxNumF) FB(arith::MinNumFOp, MinNumF)
  FB(arith::MaximumFOp, MaximumF) FB(arith::MinimumFOp, MinimumF)
  FB(math::PowFOp, PowF) FB(math::Atan2Op, Atan2F)
  FB(math::CopySignOp, CopySignF)
  FU(arith::NegFOp, NegF) FU(math::AbsFOp, AbsF) FU(math::ExpOp, ExpF)
  FU(math::Exp2Op, Exp2F) FU(math::LogOp, LogF) FU(math::Log2Op, Log2F)
  FU(math::Log10Op, Log10F) FU(math::Log1pOp, Log1pF)
  FU(math::ExpM1Op, Expm1F) FU(math::SinOp, SinF) FU(math::CosOp, CosF)
  FU(math::TanOp, TanF) FU(math::TanhOp, TanhF) FU(math::SqrtOp, SqrtF)
  FU(tile::PreciseSqrtOp, SqrtF) FU(math::RsqrtOp, RsqrtF)
  FU(math::ErfOp, ErfF) FU(math::FloorOp, FloorF) FU(math::CeilOp, CeilF)
  FU(math::TruncOp, TruncF) FU(math::RoundOp, RoundF)
  FU(math::RoundEvenOp, RoundEvenF) FU(math::CbrtOp, CbrtF)
  FU(math::AtanOp, AtanF)
  else if (isa<math::FmaOp>(mop)) h = pickFloat<floatTernary, FmaF>(setup());
  else if (auto c = dyn_cast<tile::ClampFOp>(mop)) {
    EK k = setup();
    bool all = c.getPropagateNan() == tile::PropagateNan::ALL;
    switch (k) {
    case EK::F16: h = all ? clampLoop<half, true> : clampLoop<half, false>; break;
    case EK::BF16: h = all ? clampLoop<bf16, true> : clampLoop<bf16, false>; break;
    case EK::F32: h = all ? clampLoop<float, true> : clampLoop<float, false>; break;
    case EK::F64: h = all ? clampLoop<double, true> : clampLoop<double, false>; break;
    default: break;
    }
  } else
    mine = false;
#undef IB
#undef IU
#undef FB
#undef FU
#undef DV
  if (!mine)
    return Built::NotMine;
  op.fn = h;
  if (!h)
    return b.error(mop, "cannot interpret '" +
                            mop->getName().getStringRef().str() + "' on " +
                            kindName(op.srcKind) + " values"),
           Built::Error;
  return Built::Ok;
}

} // namespace tritium::interp

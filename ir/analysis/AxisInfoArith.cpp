//===- AxisInfoArith.cpp - axis facts through integer arithmetic ----------===//
//
// The transfer functions of the axis analysis (AxisInfo.h) for arith's
// integer ops: add/sub (and the addptr it shares a rule with), mul, div,
// rem, bitwise ops, shifts, min/max, cmpi, select and integer casts, with
// constant folding when every operand is a known constant. Each rule is an
// argument about aligned groups of elements, given above it. As in Triton,
// values are assumed not to wrap around inside a run, and to be
// non-negative where they are divided or reduced modulo something.
//
//===----------------------------------------------------------------------===//
#include "ir/analysis/AxisInfoRules.h"

#include "ir/TileDialect.h"

#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

using DimVector = AxisInfo::DimVector;
static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

namespace {

/// Product of two divisibilities (each at most 2^30, so no overflow),
/// capped.
int64_t mulDiv(int64_t a, int64_t b) {
  return std::min(std::min(a, kMax) * std::min(b, kMax), kMax);
}

/// Bits of the integer (or index) element type of `type`; 0 for others.
unsigned intWidth(Type type) {
  Type e = getElementTypeOrSelf(type);
  if (e.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(e))
    return i.getWidth();
  return 0;
}

/// `v` as the IR holds a `width`-bit integer: sign-extended, i1 as 0 or 1.
int64_t wrap(int64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (width == 1)
    return int64_t(u);
  if (u >> (width - 1))
    u |= ~mask;
  return int64_t(u);
}

uint64_t asUnsigned(int64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The constant every element of `info` equals, if any.
std::optional<int64_t> cst(const AxisInfo &info) {
  return info.getConstantValue();
}

bool isCst(const AxisInfo &info, int64_t v) {
  auto c = cst(info);
  return c && *c == v;
}

/// Folds integer `op` on constant operands `a`, `b` of `width` bits.
std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b,
                                  unsigned width) {
  // i1 is held as 0/1 but true is -1 to signed ops.
  if (width == 1) {
    a = -a;
    b = -b;
  }
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  auto fold = [&](auto v) { return std::optional<int64_t>(wrap(v, width)); };
  return TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::AddIOp) { return fold(int64_t(uint64_t(a) + b)); })
      .Case([&](arith::SubIOp) { return fold(int64_t(uint64_t(a) - b)); })
      .Case([&](arith::MulIOp) { return fold(int64_t(uint64_t(a) * b)); })
      .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
        if (b == 0 || (b == -1 && a == INT64_MIN))
          return std::nullopt;
        return fold(a / b);
      })
      .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
        if (b == 0 || b == -1)
          return b == -1 ? std::optional<int64_t>(0) : std::nullopt;
        return fold(a % b);
      })
      .Case([&](arith::DivUIOp) -> std::optional<int64_t> {
        if (ub == 0)
          return std::nullopt;
        return fold(int64_t(ua / ub));
      })
      .Case([&](arith::RemUIOp) -> std::optional<int64_t> {
        if (ub == 0)
          return std::nullopt;
        return fold(int64_t(ua % ub));
      })
      .Case([&](arith::AndIOp) { return fold(a & b); })
      .Case([&](arith::OrIOp) { return fold(a | b); })
      .Case([&](arith::XOrIOp) { return fold(a ^ b); })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        if (ub >= width)
          return std::nullopt;
        return fold(int64_t(ua << ub));
      })
      .Case([&](arith::ShRUIOp) -> std::optional<int64_t> {
        if (ub >= width)
          return std::nullopt;
        return fold(int64_t(ua >> ub));
      })
      .Case([&](arith::ShRSIOp) -> std::optional<int64_t> {
        if (ub >= width)
          return std::nullopt;
        return fold(a >> ub);
      })
      .Case([&](arith::MinSIOp) { return fold(std::min(a, b)); })
      .Case([&](arith::MaxSIOp) { return fold(std::max(a, b)); })
      .Case([&](arith::MinUIOp) { return fold(int64_t(std::min(ua, ub))); })
      .Case([&](arith::MaxUIOp) { return fold(int64_t(std::max(ua, ub))); })
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        using P = arith::CmpIPredicate;
        switch (cmp.getPredicate()) {
        case P::eq:
          return a == b;
        case P::ne:
          return a != b;
        case P::slt:
          return a < b;
        case P::sle:
          return a <= b;
        case P::sgt:
          return a > b;
        case P::sge:
          return a >= b;
        case P::ult:
          return ua < ub;
        case P::ule:
          return ua <= ub;
        case P::ugt:
          return ua > ub;
        case P::uge:
          return ua >= ub;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

// x + y, x - y, addptr(p, y) (y scaled by `rhsScale` bytes).
// Along d, x + y runs wherever x runs while y stays put (or the reverse):
// groups of gcd(contig(x), const(y)). x - y only runs when x does: a
// running y makes it fall. Group starts are sums of the operands' group
// starts, so their divisibility is the gcd. Two parallel runs subtract to a
// constant.
AxisInfo mlir::tile::addLikeAxisInfo(const AxisInfo &l, const AxisInfo &r,
                                     bool isSub, int64_t rhsScale) {
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t fromL = std::gcd(l.getContiguity(d), r.getConstancy(d));
    int64_t fromR = isSub ? 1 : std::gcd(l.getConstancy(d), r.getContiguity(d));
    int64_t c = std::max(fromL, fromR);
    int64_t k = std::gcd(l.getConstancy(d), r.getConstancy(d));
    int64_t len = c;
    if (isSub && l.getContiguity(d) > 1 && r.getContiguity(d) > 1) {
      int64_t g = std::gcd(l.getContiguity(d), r.getContiguity(d));
      if (g > k) {
        k = g;
        len = g;
      }
    }
    contig.push_back(c);
    constancy.push_back(k);
    div.push_back(std::gcd(l.getGroupDivisibility(d, len),
                           mulDiv(r.getGroupDivisibility(d, len), rhsScale)));
  }
  return AxisInfo(contig, div, constancy);
}

namespace {

// x * y: scaling breaks runs (unless by 1); every element is a product of
// elements, so the per-element divisibilities multiply.
AxisInfo visitMul(const AxisInfo &l, const AxisInfo &r) {
  DimVector div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    div.push_back(
        mulDiv(l.getGroupDivisibility(d, 1), r.getGroupDivisibility(d, 1)));
  }
  return AxisInfo(DimVector(l.getRank(), 1), div, constancy);
}

// x / c (and x >> log2 c) for a constant c > 0. A run of x whose group
// starts are multiples of g = gcd(contig(x), c, div(x)) never crosses a
// multiple of c inside a group, so the quotient is constant over groups of
// g, equal to start / c there.
AxisInfo divByConstant(const AxisInfo &l, const AxisInfo &r, int64_t c) {
  DimVector div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t k = std::gcd(l.getConstancy(d), r.getConstancy(d));
    int64_t len = 1;
    int64_t g = std::gcd(std::gcd(l.getContiguity(d), c), l.getDivisibility(d));
    if (l.getContiguity(d) > 1 && g > k) {
      k = g;
      len = g;
    }
    int64_t start = l.getGroupDivisibility(d, len);
    constancy.push_back(k);
    div.push_back(
        isPowerOf2(c) && start % c == 0 ? std::max<int64_t>(1, start / c) : 1);
  }
  return AxisInfo(DimVector(l.getRank(), 1), div, constancy);
}

// x % y. Where y is constant over a run of x and both x's group starts and
// y are multiples of g, no group of g crosses a multiple of y, so x % y runs
// like x there; its group starts x0 - q*y keep gcd(div(x0), div(y)).
AxisInfo visitRem(const AxisInfo &l, const AxisInfo &r) {
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t yDiv = r.getGroupDivisibility(d, 1);
    int64_t g = std::gcd(std::gcd(l.getContiguity(d), r.getConstancy(d)),
                         std::gcd(l.getDivisibility(d), yDiv));
    contig.push_back(g);
    constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    div.push_back(std::gcd(l.getGroupDivisibility(d, g), yDiv));
  }
  return AxisInfo(contig, div, constancy);
}

// x & (2^n - 1) is x mod 2^n for any sign: the remainder rule with y = 2^n;
// a group start that is a multiple of 2^n becomes 0.
AxisInfo andLowMask(const AxisInfo &l, const AxisInfo &r, int64_t pow2) {
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t g =
        std::gcd(std::gcd(l.getContiguity(d), pow2), l.getDivisibility(d));
    int64_t start = l.getGroupDivisibility(d, g);
    contig.push_back(g);
    constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    div.push_back(start % pow2 == 0 ? kMax : start);
  }
  return AxisInfo(contig, div, constancy);
}

// Bitwise ops other than masks: only constancy and the trailing zero bits
// (kept by both operands for |, ^; by either for &) survive.
AxisInfo visitBitwise(const AxisInfo &l, const AxisInfo &r, bool isAnd) {
  DimVector div, constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t a = l.getGroupDivisibility(d, 1), b = r.getGroupDivisibility(d, 1);
    constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    div.push_back(isAnd ? std::max(a, b) : std::min(a, b));
  }
  return AxisInfo(DimVector(l.getRank(), 1), div, constancy);
}

bool isLess(arith::CmpIPredicate p) {
  return p == arith::CmpIPredicate::slt || p == arith::CmpIPredicate::ult;
}
bool isGreaterEq(arith::CmpIPredicate p) {
  return p == arith::CmpIPredicate::sge || p == arith::CmpIPredicate::uge;
}
bool isGreater(arith::CmpIPredicate p) {
  return p == arith::CmpIPredicate::sgt || p == arith::CmpIPredicate::ugt;
}
bool isLessEq(arith::CmpIPredicate p) {
  return p == arith::CmpIPredicate::sle || p == arith::CmpIPredicate::ule;
}

// cmp x, y is constant where both are. Besides, for a run x0 + i (i < g)
// against a constant n, with x0 and n multiples of g: x0 + i < n iff
// x0 < n, so `x < n` and `x >= n` (and `n > x`, `n <= x`) are constant over
// groups of g. `x <= n` is not: x0 = n gives true, then false.
AxisInfo visitCmp(arith::CmpIPredicate pred, const AxisInfo &l,
                  const AxisInfo &r) {
  DimVector constancy;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    int64_t k = std::gcd(l.getConstancy(d), r.getConstancy(d));
    auto runAgainst = [&](const AxisInfo &run, const AxisInfo &bound) {
      if (run.getContiguity(d) == 1)
        return int64_t(1);
      return std::gcd(
          std::gcd(run.getContiguity(d), bound.getConstancy(d)),
          std::gcd(run.getDivisibility(d), bound.getGroupDivisibility(d, 1)));
    };
    if (isLess(pred) || isGreaterEq(pred))
      k = std::max(k, runAgainst(l, r));
    if (isGreater(pred) || isLessEq(pred))
      k = std::max(k, runAgainst(r, l));
    constancy.push_back(k);
  }
  return AxisInfo(DimVector(l.getRank(), 1), DimVector(l.getRank(), 1),
                  constancy);
}

/// A cast that keeps every value's low bits and order (extensions,
/// truncation, index casts): the facts carry over; a constant is recast.
AxisInfo visitIntCast(Operation *op, const AxisInfo &src) {
  auto value = cst(src);
  if (!value)
    return src;
  unsigned from = intWidth(op->getOperand(0).getType());
  unsigned to = intWidth(op->getResult(0).getType());
  int64_t v = *value;
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
    v = int64_t(asUnsigned(v, from));
  else if (from == 1)
    v = -v; // true sign-extends to all ones
  return AxisInfo::constant(wrap(v, to),
                            axisShapeOf(op->getResult(0).getType()));
}

AxisInfo visitBinaryInt(Operation *op, const AxisInfo &l, const AxisInfo &r,
                        ArrayRef<int64_t> shape) {
  unsigned width = intWidth(op->getOperand(0).getType());
  if (cst(l) && cst(r))
    if (auto v = foldBinary(op, *cst(l), *cst(r), width))
      return AxisInfo::constant(*v, shape);
  if (l.getRank() != shape.size() || r.getRank() != shape.size())
    return AxisInfo();
  int64_t allOnes = wrap(-1, width);
  return TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](arith::AddIOp) { return addLikeAxisInfo(l, r, false, 1); })
      .Case([&](arith::SubIOp) { return addLikeAxisInfo(l, r, true, 1); })
      .Case([&](arith::MulIOp) {
        if (isCst(l, 0) || isCst(r, 0))
          return AxisInfo::constant(0, shape);
        if (isCst(r, 1))
          return l;
        if (isCst(l, 1))
          return r;
        return visitMul(l, r);
      })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) {
        if (isCst(r, 1))
          return l;
        if (cst(r) && *cst(r) > 0)
          return divByConstant(l, r, *cst(r));
        return elementwiseConstancy({&l, &r}, op, shape);
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
        if (isCst(r, 1))
          return AxisInfo::constant(0, shape);
        return visitRem(l, r);
      })
      .Case([&](arith::AndIOp) {
        if (isCst(l, 0) || isCst(r, 0))
          return AxisInfo::constant(0, shape);
        if (isCst(r, allOnes))
          return l;
        if (isCst(l, allOnes))
          return r;
        for (auto [x, m] : {std::pair(&l, &r), std::pair(&r, &l)})
          if (cst(*m) && *cst(*m) > 0 && isPowerOf2(*cst(*m) + 1))
            return andLowMask(*x, *m, *cst(*m) + 1);
        return visitBitwise(l, r, /*isAnd=*/true);
      })
      .Case<arith::OrIOp, arith::XOrIOp>([&](Operation *) {
        if (isCst(r, 0))
          return l;
        if (isCst(l, 0))
          return r;
        return visitBitwise(l, r, /*isAnd=*/false);
      })
      .Case([&](arith::ShLIOp) {
        if (isCst(r, 0))
          return l;
        if (cst(r) && *cst(r) > 0 && *cst(r) < int64_t(width)) {
          AxisInfo scale = AxisInfo::constant(
              int64_t(1) << std::min<int64_t>(*cst(r), 62), shape);
          return visitMul(l, scale);
        }
        // Shifting left only adds trailing zeros.
        DimVector div;
        for (unsigned d = 0; d < l.getRank(); ++d)
          div.push_back(l.getGroupDivisibility(d, 1));
        AxisInfo k = elementwiseConstancy({&l, &r}, op, shape);
        return AxisInfo(DimVector(l.getRank(), 1), div,
                        DimVector(k.getConstancy()));
      })
      .Case<arith::ShRUIOp, arith::ShRSIOp>([&](Operation *) {
        if (isCst(r, 0))
          return l;
        // x >> n is floor(x / 2^n) for either sign.
        if (cst(r) && *cst(r) > 0 && *cst(r) < std::min<int64_t>(width, 62))
          return divByConstant(l, r, int64_t(1) << *cst(r));
        return elementwiseConstancy({&l, &r}, op, shape);
      })
      .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
          [&](Operation *) { return mergeAxisInfo(l, r); })
      .Case(
          [&](arith::CmpIOp cmp) { return visitCmp(cmp.getPredicate(), l, r); })
      .Default([&](Operation *) {
        return elementwiseConstancy({&l, &r}, op, shape);
      });
}

AxisInfo visitSelect(arith::SelectOp op, const AxisInfo &cond,
                     const AxisInfo &t, const AxisInfo &f,
                     ArrayRef<int64_t> shape) {
  if (auto c = cst(cond))
    return *c ? t : f;
  if (t.getRank() != shape.size() || f.getRank() != shape.size())
    return AxisInfo();
  DimVector cap(shape.begin(), shape.end());
  if (isa<RankedTensorType>(op.getCondition().getType())) {
    if (cond.getRank() != shape.size())
      return AxisInfo();
    cap = DimVector(cond.getConstancy());
  }
  return mergeAxisInfo(t, f, cap);
}

} // namespace

AxisInfo mlir::tile::computeArithAxisInfo(Operation *op,
                                          ArrayRef<const AxisInfo *> operands,
                                          ArrayRef<int64_t> shape) {
  auto operand = [&](unsigned i) -> const AxisInfo & { return *operands[i]; };
  return TypeSwitch<Operation *, AxisInfo>(op)
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>(
          [&](Operation *) { return visitIntCast(op, operand(0)); })
      .Case([&](arith::SelectOp s) {
        return visitSelect(s, operand(0), operand(1), operand(2), shape);
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
            arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
            arith::ShRSIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
            arith::MaxUIOp, arith::CmpIOp>([&](Operation *) {
        return visitBinaryInt(op, operand(0), operand(1), shape);
      })
      .Default([](Operation *) { return AxisInfo(); });
}

//===- Operators.cpp - Python operators on frontend values ----------------===//
//
// `a + b`, `a < b`, `-a`, `a and b`, `tl.where`: constexpr operands fold with
// Python's own semantics (floor division, modulo with the divisor's sign);
// runtime operands follow Triton's (C-style `//` and `%`, promotion, pointer
// arithmetic in elements). Python scalars are materialized directly in the
// computation type rather than cast from their literal type.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

#include <cmath>

using namespace tritium::fe;
using namespace mlir;

static const char *opSpelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return "+";
  case BinOpKind::Sub: return "-";
  case BinOpKind::Mul: return "*";
  case BinOpKind::Div: return "/";
  case BinOpKind::FloorDiv: return "//";
  case BinOpKind::Mod: return "%";
  case BinOpKind::Pow: return "**";
  case BinOpKind::MatMul: return "@";
  case BinOpKind::LShift: return "<<";
  case BinOpKind::RShift: return ">>";
  case BinOpKind::BitAnd: return "&";
  case BinOpKind::BitOr: return "|";
  case BinOpKind::BitXor: return "^";
  }
  return "?";
}

static bool isNumber(const TValue &v) {
  return v.kind == TValue::Int || v.kind == TValue::Float ||
         v.kind == TValue::Bool;
}
static bool isIntLike(const TValue &v) {
  return v.kind == TValue::Int || v.kind == TValue::Bool;
}
static int64_t asInt(const TValue &v) {
  return v.kind == TValue::Bool ? int64_t(v.b) : v.i;
}
static double asFloat(const TValue &v) {
  if (v.kind == TValue::Float) return v.f;
  if (v.kind == TValue::Bool) return v.b;
  return v.unsignedInt ? double(uint64_t(v.i)) : double(v.i);
}

bool Emitter::foldBinary(BinOpKind op, const TValue &a, const TValue &c,
                         SourceLoc l, TValue &out) {
  if (a.kind == TValue::Str && c.kind == TValue::Str && op == BinOpKind::Add) {
    out = TValue::str(a.s + c.s);
    return true;
  }
  if (a.kind == TValue::Tuple && c.kind == TValue::Tuple &&
      op == BinOpKind::Add) {
    auto e = a.elems;
    e.insert(e.end(), c.elems.begin(), c.elems.end());
    out = TValue::tuple(e);
    return true;
  }
  if (!isNumber(a) || !isNumber(c))
    return false;
  if (isIntLike(a) && isIntLike(c)) {
    // Python ints are unbounded; constexprs hold [-2^63, 2^64) (the upper
    // half as unsigned, which literal typing makes uint64).
    using i128 = __int128;
    auto wide = [](const TValue &v) -> i128 {
      if (v.kind == TValue::Bool) return v.b;
      return v.unsignedInt ? i128(uint64_t(v.i)) : i128(v.i);
    };
    auto text = [](i128 v) {
      bool neg = v < 0;
      unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
      std::string t;
      do { t.insert(t.begin(), char('0' + int(u % 10))); u /= 10; } while (u);
      return neg ? "-" + t : t;
    };
    i128 x = wide(a), y = wide(c), r = 0;
    const i128 lo = -(i128(1) << 63), hi = i128(1) << 64;
    bool over = false;
    auto checked = [&](i128 v) {
      if (v < lo || v >= hi)
        error(l, "integer overflow in a constant expression: " + a.repr() + " " +
                     opSpelling(op) + " " + c.repr() + " = " + text(v) +
                     " does not fit in 64 bits");
      TValue t = TValue::integer(int64_t(v));
      t.unsignedInt = v > i128(INT64_MAX);
      return t;
    };
    switch (op) {
    case BinOpKind::Add: out = checked(x + y); return true;
    case BinOpKind::Sub: out = checked(x - y); return true;
    case BinOpKind::Mul:
      over = __builtin_mul_overflow(x, y, &r);
      if (over) error(l, "integer overflow in a constant expression: " + a.repr() +
                             " * " + c.repr() + " does not fit in 64 bits");
      out = checked(r);
      return true;
    case BinOpKind::Div:
      if (y == 0) error(l, "division by zero in a constant expression");
      out = TValue::floating(double(x) / double(y));
      return true;
    case BinOpKind::FloorDiv: {
      if (y == 0) error(l, "integer division by zero in a constant expression");
      i128 q = x / y;
      if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
      out = checked(q);
      return true;
    }
    case BinOpKind::Mod: {
      if (y == 0) error(l, "modulo by zero in a constant expression");
      i128 m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      out = checked(m);
      return true;
    }
    case BinOpKind::Pow: {
      if (y < 0) { out = TValue::floating(std::pow(double(x), double(y))); return true; }
      if (x == 0 || x == 1 || y == 0) { out = checked(y == 0 ? 1 : x); return true; }
      if (x == -1) { out = checked(y % 2 ? -1 : 1); return true; }
      i128 p = 1;
      for (i128 k = 0; k < y; ++k) { // |x| >= 2: overflows within 128 steps
        if (__builtin_mul_overflow(p, x, &p) || p < lo - hi || p > hi * 2)
          error(l, "integer overflow in a constant expression: " + a.repr() +
                       " ** " + c.repr() + " does not fit in 64 bits");
      }
      out = checked(p);
      return true;
    }
    case BinOpKind::LShift:
      if (y < 0 || y > 64) error(l, "shift count " + text(y) + " out of range");
      if (x != 0 && y > 0 && (x >= (i128(1) << (127 - y)) || x < -(i128(1) << (127 - y))))
        error(l, "integer overflow in a constant expression");
      out = checked(x << y);
      return true;
    case BinOpKind::RShift:
      if (y < 0) error(l, "negative shift count " + text(y));
      out = checked(y > 126 ? (x < 0 ? -1 : 0) : x >> y);
      return true;
    case BinOpKind::BitAnd: out = checked(x & y); break;
    case BinOpKind::BitOr: out = checked(x | y); break;
    case BinOpKind::BitXor: out = checked(x ^ y); break;
    case BinOpKind::MatMul:
      error(l, "'@' is not defined on numbers");
    }
    if (a.kind == TValue::Bool && c.kind == TValue::Bool)
      out = TValue::boolean(out.i != 0);
    return true;
  }
  double x = asFloat(a), y = asFloat(c);
  switch (op) {
  case BinOpKind::Add: out = TValue::floating(x + y); return true;
  case BinOpKind::Sub: out = TValue::floating(x - y); return true;
  case BinOpKind::Mul: out = TValue::floating(x * y); return true;
  case BinOpKind::Div:
    if (y == 0) error(l, "float division by zero in a constant expression");
    out = TValue::floating(x / y);
    return true;
  case BinOpKind::FloorDiv:
    if (y == 0) error(l, "float division by zero in a constant expression");
    out = TValue::floating(std::floor(x / y));
    return true;
  case BinOpKind::Mod: {
    if (y == 0) error(l, "float modulo by zero in a constant expression");
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    out = TValue::floating(r);
    return true;
  }
  case BinOpKind::Pow: out = TValue::floating(std::pow(x, y)); return true;
  default:
    error(l, std::string("unsupported operand types for ") + opSpelling(op) +
                 ": " + a.typeStr() + " and " + c.typeStr());
  }
}

bool Emitter::foldCompare(CmpOpKind op, const TValue &a, const TValue &c,
                          SourceLoc l, TValue &out) {
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    bool same;
    if (a.kind == TValue::None || c.kind == TValue::None)
      same = a.kind == c.kind;
    else if (a.isConstexpr() && c.isConstexpr())
      same = a.kind == c.kind && a.repr() == c.repr();
    else
      error(l, "'is' compares only compile-time values (None, constexprs)");
    out = TValue::boolean(op == CmpOpKind::Is ? same : !same);
    return true;
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    if (c.kind != TValue::Tuple)
      error(l, "'in' needs a tuple of compile-time values on the right");
    bool found = false;
    for (auto &e : c.elems) {
      TValue eq;
      if (foldCompare(CmpOpKind::Eq, a, e, l, eq) && eq.b)
        found = true;
    }
    out = TValue::boolean(op == CmpOpKind::In ? found : !found);
    return true;
  }
  auto finish = [&](int cmp) {
    bool r = false;
    switch (op) {
    case CmpOpKind::Lt: r = cmp < 0; break;
    case CmpOpKind::Le: r = cmp <= 0; break;
    case CmpOpKind::Gt: r = cmp > 0; break;
    case CmpOpKind::Ge: r = cmp >= 0; break;
    case CmpOpKind::Eq: r = cmp == 0; break;
    case CmpOpKind::Ne: r = cmp != 0; break;
    default: break;
    }
    out = TValue::boolean(r);
    return true;
  };
  if (isNumber(a) && isNumber(c)) {
    if (isIntLike(a) && isIntLike(c)) {
      auto wide = [](const TValue &v) -> __int128 {
        if (v.kind == TValue::Bool) return v.b;
        return v.unsignedInt ? __int128(uint64_t(v.i)) : __int128(v.i);
      };
      __int128 x = wide(a), y = wide(c);
      return finish(x < y ? -1 : x > y ? 1 : 0);
    }
    double x = asFloat(a), y = asFloat(c);
    if (std::isnan(x) || std::isnan(y)) {
      out = TValue::boolean(op == CmpOpKind::Ne);
      return true;
    }
    return finish(x < y ? -1 : x > y ? 1 : 0);
  }
  if (a.kind == TValue::Tuple && c.kind == TValue::Tuple) {
    // Python's order: the first unequal pair decides, else the lengths.
    for (size_t k = 0; k < a.elems.size() && k < c.elems.size(); ++k) {
      TValue eq;
      if (!foldCompare(CmpOpKind::Eq, a.elems[k], c.elems[k], l, eq))
        error(l, "tuples compare only compile-time elements, got " +
                     a.elems[k].typeStr() + " and " + c.elems[k].typeStr());
      if (eq.b)
        continue;
      if (op == CmpOpKind::Eq || op == CmpOpKind::Ne)
        return finish(1);
      return foldCompare(op, a.elems[k], c.elems[k], l, out);
    }
    int64_t na = a.elems.size(), nc = c.elems.size();
    return finish(na < nc ? -1 : na > nc ? 1 : 0);
  }
  if ((a.kind == TValue::Tuple) != (c.kind == TValue::Tuple) &&
      (op == CmpOpKind::Eq || op == CmpOpKind::Ne) &&
      (a.isConstexpr() || c.isConstexpr()))
    return finish(1); // a tuple never equals a number, string or None
  if (a.isConstexpr() && c.isConstexpr()) {
    if (op == CmpOpKind::Eq || op == CmpOpKind::Ne) {
      bool eq = a.kind == c.kind && a.repr() == c.repr();
      if (a.kind == TValue::Type && c.kind == TValue::Type)
        eq = a.constexprType || c.constexprType ? a.repr() == c.repr() : a.dtype == c.dtype;
      return finish(eq ? 0 : 1);
    }
    if (a.kind == TValue::Str && c.kind == TValue::Str)
      return finish(a.s.compare(c.s));
    error(l, "cannot order " + a.typeStr() + " and " + c.typeStr());
  }
  if (a.kind == TValue::Type || c.kind == TValue::Type) {
    // dtype == dtype of a tensor: x.dtype == tl.float16 is a constexpr.
    if (a.kind == c.kind)
      return finish(a.dtype == c.dtype ? 0 : 1);
  }
  return false;
}

/// A Python number materialized in the computation type `t`.
static TValue materialize(Emitter &e, const TValue &v, DType t, SourceLoc l) {
  if (!v.isConstexpr())
    return e.cast(v, t, l);
  if (v.kind != TValue::Int && v.kind != TValue::Float && v.kind != TValue::Bool)
    return e.cast(e.toTensor(v, l), t, l);
  e.cur = l;
  if (t.isFloat() && !t.isFP8()) {
    double x = v.kind == TValue::Float ? v.f
               : v.kind == TValue::Bool ? double(v.b)
               : (v.unsignedInt ? double(uint64_t(v.i)) : double(v.i));
    return TValue::tensor(e.constFloat(t, x), t, {});
  }
  if (t.isInt() && v.kind != TValue::Float) {
    int64_t x = v.kind == TValue::Bool ? v.b : v.i;
    if (x < 0 && t.isUnsigned() && !v.unsignedInt)
      e.error(l, "cannot combine an unsigned " + t.name() +
                     " with the negative number " + std::to_string(x) +
                     "; cast one of them explicitly");
    // A Python int must fit the type it is used in (Triton: "Scalar ... is
    // out of range for type ...").
    unsigned bits = t.bits();
    bool fits = true;
    if (bits < 64 && !t.isBool()) {
      if (t.isUnsigned())
        fits = !v.unsignedInt && x >= 0 && uint64_t(x) < (uint64_t(1) << bits);
      else
        fits = !v.unsignedInt && x >= -(int64_t(1) << (bits - 1)) &&
               x < (int64_t(1) << (bits - 1));
    } else if (bits == 64 && t.isSigned()) {
      fits = !v.unsignedInt;
    }
    if (!fits)
      e.error(l, "scalar " + v.repr() + " is out of range for type " + t.name());
    return TValue::tensor(e.constInt(t, x), t, {});
  }
  return e.cast(e.toTensor(v, l), t, l);
}

TValue Emitter::binary(BinOpKind op, const TValue &a0, const TValue &c0,
                       SourceLoc l) {
  cur = l;
  TValue folded;
  if (a0.isConstexpr() && c0.isConstexpr() && foldBinary(op, a0, c0, l, folded))
    return folded;
  if (a0.kind == TValue::Tuple || c0.kind == TValue::Tuple) {
    // Tuples concatenate and repeat, as in Python.
    if (op == BinOpKind::Add && a0.kind == TValue::Tuple && c0.kind == TValue::Tuple) {
      std::vector<TValue> e = a0.elems;
      e.insert(e.end(), c0.elems.begin(), c0.elems.end());
      return TValue::tuple(std::move(e));
    }
    const TValue &t = a0.kind == TValue::Tuple ? a0 : c0;
    const TValue &n = a0.kind == TValue::Tuple ? c0 : a0;
    if (op == BinOpKind::Mul && (n.kind == TValue::Int || n.kind == TValue::Bool)) {
      std::vector<TValue> e;
      int64_t times = n.kind == TValue::Bool ? n.b : n.i;
      for (int64_t k = 0; k < times; ++k)
        e.insert(e.end(), t.elems.begin(), t.elems.end());
      return TValue::tuple(std::move(e));
    }
    error(l, std::string("unsupported operand types for ") + opSpelling(op) + ": " +
                 a0.typeStr() + " and " + c0.typeStr());
  }
  if (op == BinOpKind::Pow)
    error(l, "'**' is not supported on tensors; use tl.extra.libdevice.pow "
             "(or multiply explicitly)");
  if (op == BinOpKind::MatMul)
    error(l, "'@' is not supported; use tl.dot(a, b)");
  auto isTensorLike = [](const TValue &v) {
    return v.kind == TValue::Tensor || v.kind == TValue::Int ||
           v.kind == TValue::Float || v.kind == TValue::Bool;
  };
  if (!isTensorLike(a0) || !isTensorLike(c0))
    error(l, std::string("unsupported operand types for ") + opSpelling(op) +
                 ": " + a0.typeStr() + " and " + c0.typeStr());
  Location L = loc(l);
  // Pointer arithmetic: ptr ± int advances by elements.
  bool aPtr = a0.isTensor() && a0.dtype.isPtr();
  bool cPtr = c0.isTensor() && c0.dtype.isPtr();
  if (aPtr || cPtr) {
    if (aPtr && cPtr)
      error(l, std::string("cannot apply ") + opSpelling(op) +
                   " to two pointers (" + a0.typeStr() + ", " + c0.typeStr() + ")");
    TValue p = aPtr ? a0 : c0, off = toTensor(aPtr ? c0 : a0, l);
    if (!off.dtype.isInt() ||
        !(op == BinOpKind::Add || (op == BinOpKind::Sub && aPtr)))
      error(l, std::string("unsupported pointer arithmetic: ") + a0.typeStr() +
                   " " + opSpelling(op) + " " + c0.typeStr());
    if (op == BinOpKind::Sub)
      off = unary(UnaryOpKind::Neg, off, l);
    // addptr treats offsets as signed: widen narrow unsigned ones first.
    if (off.dtype.isUnsigned() && off.dtype.bits() < 64)
      off = cast(off, DType::U64, l);
    broadcastPair(p, off, l);
    Value r = tile::AddPtrOp::create(b, L, p.v.getType(), p.v, off.v);
    return TValue::tensor(r, p.dtype, p.shape);
  }
  DType t = promote(a0, c0, op, l);
  bool bitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr ||
                 op == BinOpKind::BitXor || op == BinOpKind::LShift ||
                 op == BinOpKind::RShift;
  if (bitwise && !t.isInt())
    error(l, "invalid operands of type " + a0.typeStr() + " and " +
                 c0.typeStr() + " for bitwise operator " + opSpelling(op) +
                 " (it needs integers)");
  if (op == BinOpKind::FloorDiv && !t.isInt())
    error(l, "'//' needs integer operands (it truncates toward zero on "
             "tensors), got " + a0.typeStr() + " and " + c0.typeStr() +
             "; use '/' and tl.floor for floats");
  TValue a = materialize(*this, a0, t, l), c = materialize(*this, c0, t, l);
  if (op == BinOpKind::Div && t.isInt()) {
    t = DType::F32;
    a = cast(a, t, l);
    c = cast(c, t, l);
  }
  broadcastPair(a, c, l);
  cur = l;
  Value x = a.v, y = c.v, r;
  bool fl = t.isFloat();
  switch (op) {
  case BinOpKind::Add:
    r = fl ? Value(arith::AddFOp::create(b, L, x, y)) : Value(arith::AddIOp::create(b, L, x, y));
    break;
  case BinOpKind::Sub:
    r = fl ? Value(arith::SubFOp::create(b, L, x, y)) : Value(arith::SubIOp::create(b, L, x, y));
    break;
  case BinOpKind::Mul:
    r = fl ? Value(arith::MulFOp::create(b, L, x, y)) : Value(arith::MulIOp::create(b, L, x, y));
    break;
  case BinOpKind::Div:
    r = arith::DivFOp::create(b, L, x, y);
    break;
  case BinOpKind::FloorDiv:
    r = t.isUnsigned() ? Value(arith::DivUIOp::create(b, L, x, y))
                       : Value(arith::DivSIOp::create(b, L, x, y));
    break;
  case BinOpKind::Mod:
    r = fl ? Value(arith::RemFOp::create(b, L, x, y))
           : t.isUnsigned() ? Value(arith::RemUIOp::create(b, L, x, y))
                            : Value(arith::RemSIOp::create(b, L, x, y));
    break;
  case BinOpKind::BitAnd: r = arith::AndIOp::create(b, L, x, y); break;
  case BinOpKind::BitOr: r = arith::OrIOp::create(b, L, x, y); break;
  case BinOpKind::BitXor: r = arith::XOrIOp::create(b, L, x, y); break;
  case BinOpKind::LShift: r = arith::ShLIOp::create(b, L, x, y); break;
  case BinOpKind::RShift: {
    // As Triton: arithmetic when the tensor operand (the left one when both
    // are tensors) is signed, even if promotion made the result unsigned
    // (int8 >> uint32 shifts the sign-extended value arithmetically).
    bool arithmetic = a0.isTensor()   ? a0.dtype.isSigned()
                      : c0.isTensor() ? c0.dtype.isSigned()
                                      : !t.isUnsigned();
    r = arithmetic ? Value(arith::ShRSIOp::create(b, L, x, y))
                   : Value(arith::ShRUIOp::create(b, L, x, y));
    break;
  }
  default:
    error(l, "unsupported operator");
  }
  // Signed integer +, -, * the interpreter's overflow sanitizer checks (as
  // Triton's sanitize_overflow does); unsigned ones wrap by definition.
  if (r && t.isSigned() &&
      (op == BinOpKind::Add || op == BinOpKind::Sub || op == BinOpKind::Mul))
    if (Operation *def = r.getDefiningOp())
      def->setAttr("tile.signed", b.getUnitAttr());
  return TValue::tensor(r, t, a.shape);
}

TValue Emitter::compare(CmpOpKind op, const TValue &a0, const TValue &c0,
                        SourceLoc l) {
  cur = l;
  TValue folded;
  if (foldCompare(op, a0, c0, l, folded))
    return folded;
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot || op == CmpOpKind::In ||
      op == CmpOpKind::NotIn)
    error(l, "'is' / 'in' are not supported on tensors");
  Location L = loc(l);
  TValue a, c;
  DType t;
  if (typeOf(a0, l).isPtr() || typeOf(c0, l).isPtr()) {
    if (typeOf(a0, l) != typeOf(c0, l))
      error(l, "cannot compare " + a0.typeStr() + " with " + c0.typeStr());
    a = cast(a0, DType::I64, l);
    c = cast(c0, DType::I64, l);
    t = DType::U64;
  } else {
    t = promote(a0, c0, BinOpKind::Add, l);
    a = materialize(*this, a0, t, l);
    c = materialize(*this, c0, t, l);
  }
  broadcastPair(a, c, l);
  Value r;
  if (t.isFloat()) {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOpKind::Lt: p = arith::CmpFPredicate::OLT; break;
    case CmpOpKind::Le: p = arith::CmpFPredicate::OLE; break;
    case CmpOpKind::Gt: p = arith::CmpFPredicate::OGT; break;
    case CmpOpKind::Ge: p = arith::CmpFPredicate::OGE; break;
    case CmpOpKind::Eq: p = arith::CmpFPredicate::OEQ; break;
    default: p = arith::CmpFPredicate::UNE; break;
    }
    r = arith::CmpFOp::create(b, L, p, a.v, c.v);
  } else {
    bool u = t.isUnsigned();
    arith::CmpIPredicate p;
    switch (op) {
    case CmpOpKind::Lt: p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
    case CmpOpKind::Le: p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
    case CmpOpKind::Gt: p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
    case CmpOpKind::Ge: p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
    case CmpOpKind::Eq: p = arith::CmpIPredicate::eq; break;
    default: p = arith::CmpIPredicate::ne; break;
    }
    r = arith::CmpIOp::create(b, L, p, a.v, c.v);
  }
  return TValue::tensor(r, DType::I1, a.shape);
}

TValue Emitter::unary(UnaryOpKind op, const TValue &a, SourceLoc l) {
  cur = l;
  if (a.isConstexpr()) {
    switch (op) {
    case UnaryOpKind::Not: return TValue::boolean(!truthy(a, l));
    case UnaryOpKind::Pos:
      if (!isNumber(a)) break;
      return a;
    case UnaryOpKind::Neg:
      if (a.kind == TValue::Float) return TValue::floating(-a.f);
      if (isIntLike(a)) return TValue::integer(-asInt(a));
      break;
    case UnaryOpKind::Invert:
      if (isIntLike(a)) return TValue::integer(~asInt(a));
      break;
    }
    error(l, "bad operand type for unary operator: " + a.typeStr());
  }
  if (!a.isTensor() || a.dtype.isPtr())
    error(l, "bad operand type for unary operator: " + a.typeStr());
  Location L = loc(l);
  switch (op) {
  case UnaryOpKind::Pos:
    return a;
  case UnaryOpKind::Neg:
    if (a.dtype.isFloat())
      return TValue::tensor(arith::NegFOp::create(b, L, a.v), a.dtype, a.shape);
    return TValue::tensor(arith::SubIOp::create(b, L, constInt(a.dtype, 0, a.shape), a.v),
                          a.dtype, a.shape);
  case UnaryOpKind::Invert:
    if (!a.dtype.isInt())
      error(l, "'~' needs an integer operand, got " + a.typeStr());
    return TValue::tensor(arith::XOrIOp::create(b, L, a.v, constInt(a.dtype, -1, a.shape)),
                          a.dtype, a.shape);
  case UnaryOpKind::Not: {
    TValue c = cast(a, DType::I1, l);
    return TValue::tensor(arith::XOrIOp::create(b, L, c.v, constInt(DType::I1, 1, a.shape)),
                          DType::I1, a.shape);
  }
  }
  return a;
}

TValue Emitter::logical(BoolOpKind op, const TValue &a0, const TValue &c0,
                        SourceLoc l) {
  TValue a = cast(a0, DType::I1, l), c = cast(c0, DType::I1, l);
  broadcastPair(a, c, l);
  Location L = loc(l);
  Value r = op == BoolOpKind::And ? Value(arith::AndIOp::create(b, L, a.v, c.v))
                                  : Value(arith::OrIOp::create(b, L, a.v, c.v));
  return TValue::tensor(r, DType::I1, a.shape);
}

TValue Emitter::where(const TValue &c0, const TValue &x0, const TValue &y0,
                      SourceLoc l) {
  cur = l;
  TValue c = cast(c0, DType::I1, l);
  DType t;
  TValue x, y;
  bool xp = x0.isTensor() && x0.dtype.isPtr(), yp = y0.isTensor() && y0.dtype.isPtr();
  if (xp || yp) {
    if (x0.dtype != y0.dtype || !x0.isTensor() || !y0.isTensor())
      error(l, "tl.where: pointer branches must have one type, got " +
                   x0.typeStr() + " and " + y0.typeStr());
    x = x0;
    y = y0;
    t = x0.dtype;
    // A pointer that may be a tl.const one is treated as one.
    t.isConst = x0.dtype.isConst || y0.dtype.isConst;
  } else {
    t = promote(x0, y0, BinOpKind::Add, l);
    x = materialize(*this, x0, t, l);
    y = materialize(*this, y0, t, l);
  }
  auto shape = broadcastShapes(c.shape, broadcastShapes(x.shape, y.shape, l), l);
  c = broadcastTo(c, shape, l);
  x = broadcastTo(x, shape, l);
  y = broadcastTo(y, shape, l);
  Value r = arith::SelectOp::create(b, loc(l), c.v, x.v, y.v);
  return TValue::tensor(r, t, shape);
}

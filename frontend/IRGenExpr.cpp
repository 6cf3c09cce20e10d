//===- IRGenExpr.cpp - expressions: names, operators, calls, subscripts ---===//
//
// Evaluates an expression to a frontend value. Constant subexpressions fold
// to constexprs (as Triton's constexpr arithmetic does); everything else
// emits tile IR at the expression's location.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

#include <functional>
#include <map>
#include <optional>

using namespace tritium::fe;
using namespace mlir;

TValue Emitter::eval(const Expr &e) {
  cur = e.loc();
  switch (e.kind) {
  case ExprKind::Name:
    return lookup(static_cast<const NameExpr &>(e).id, e.loc());
  case ExprKind::Int: {
    auto &i = static_cast<const IntExpr &>(e);
    if (i.overflow)
      error(e.loc(), "integer literal " + i.text + " does not fit in 64 bits");
    TValue v = TValue::integer(int64_t(i.value));
    if (i.value > uint64_t(INT64_MAX))
      v.unsignedInt = true;
    return v;
  }
  case ExprKind::Float: {
    auto &f = static_cast<const FloatExpr &>(e);
    if (f.imaginary)
      error(e.loc(), "complex numbers are not supported in kernels");
    return TValue::floating(f.value);
  }
  case ExprKind::Str: {
    auto &s = static_cast<const StrExpr &>(e);
    if (s.isFString)
      error(e.loc(), "f-strings are not supported in kernels; use a plain "
                     "string (or tl.static_print / print with arguments)");
    if (s.isBytes)
      error(e.loc(), "bytes literals are not supported in kernels");
    return TValue::str(s.value);
  }
  case ExprKind::Bool:
    return TValue::boolean(static_cast<const BoolExpr &>(e).value);
  case ExprKind::None:
    return TValue::none();
  case ExprKind::Ellipsis:
    error(e.loc(), "'...' is not supported in kernels");
  case ExprKind::Attribute:
    return evalAttribute(static_cast<const AttributeExpr &>(e));
  case ExprKind::Subscript:
    return evalSubscript(static_cast<const SubscriptExpr &>(e));
  case ExprKind::Slice: {
    auto &s = static_cast<const SliceExpr &>(e);
    if (s.lower || s.upper || s.step)
      error(e.loc(), "only ':' (a full slice) is supported when indexing tensors");
    TValue v;
    v.kind = TValue::Slice;
    return v;
  }
  case ExprKind::Call:
    return evalCall(static_cast<const CallExpr &>(e));
  case ExprKind::BinOp: {
    auto &bo = static_cast<const BinOpExpr &>(e);
    TValue l = eval(*bo.lhs);
    TValue r = eval(*bo.rhs);
    return binary(bo.op, l, r, bo.opLoc.valid() ? bo.opLoc : e.loc());
  }
  case ExprKind::UnaryOp: {
    auto &u = static_cast<const UnaryOpExpr &>(e);
    return unary(u.op, eval(*u.operand), e.loc());
  }
  case ExprKind::BoolOp: {
    auto &bo = static_cast<const BoolOpExpr &>(e);
    TValue acc = eval(*bo.values[0]);
    // Tuples, like constexprs, are true when non-empty.
    auto known = [](const TValue &v) { return v.isConstexpr() || v.kind == TValue::Tuple; };
    for (size_t i = 1; i < bo.values.size(); ++i) {
      if (known(acc)) {
        // Python short-circuit on compile-time values.
        bool t = truthy(acc, bo.values[i - 1]->loc());
        if (bo.op == BoolOpKind::And ? !t : t)
          return acc;
        acc = eval(*bo.values[i]);
        continue;
      }
      TValue next = eval(*bo.values[i]);
      if (known(next)) {
        bool t = truthy(next, bo.values[i]->loc());
        if (bo.op == BoolOpKind::And && t) continue;
        if (bo.op == BoolOpKind::Or && !t) continue;
      }
      acc = logical(bo.op, acc, next, e.loc());
    }
    return acc;
  }
  case ExprKind::Compare: {
    auto &c = static_cast<const CompareExpr &>(e);
    TValue lhs = eval(*c.lhs);
    TValue result;
    for (size_t i = 0; i < c.ops.size(); ++i) {
      TValue rhs = eval(*c.comparators[i]);
      SourceLoc ol = i < c.opLocs.size() && c.opLocs[i].valid() ? c.opLocs[i] : e.loc();
      TValue r = compare(c.ops[i], lhs, rhs, ol);
      result = i == 0 ? r
               : (result.isConstexpr() && r.isConstexpr())
                   ? TValue::boolean(truthy(result, ol) && truthy(r, ol))
                   : logical(BoolOpKind::And, result, r, ol);
      lhs = rhs;
    }
    return result;
  }
  case ExprKind::IfExp: {
    auto &i = static_cast<const IfExpExpr &>(e);
    TValue c = scalarCondition(eval(*i.test), i.test->loc());
    if (!c.isTensor())
      return truthy(c, i.test->loc()) ? eval(*i.body) : eval(*i.orelse);
    if (!c.shape.empty())
      error(i.test->loc(), "a conditional expression needs a scalar condition, got " +
                               c.typeStr() + "; use tl.where for blocks");
    // Only the side the condition picks runs (its loads and stores).
    return emitIfExp(c, *i.body, *i.orelse, e.loc());
  }
  case ExprKind::ListComp:
    return listComp(static_cast<const ListCompExpr &>(e));
  case ExprKind::Tuple:
  case ExprKind::List: {
    const auto &elts = e.kind == ExprKind::Tuple
                           ? static_cast<const TupleExpr &>(e).elts
                           : static_cast<const ListExpr &>(e).elts;
    std::vector<TValue> vals;
    for (auto &x : elts) {
      if (x->kind == ExprKind::Starred) {
        TValue t = eval(*static_cast<const StarredExpr &>(*x).value);
        if (t.kind != TValue::Tuple)
          error(x->loc(), "cannot unpack " + t.typeStr() + " with '*'");
        vals.insert(vals.end(), t.elems.begin(), t.elems.end());
        continue;
      }
      vals.push_back(eval(*x));
    }
    return TValue::tuple(vals);
  }
  case ExprKind::Starred:
    error(e.loc(), "'*' unpacking is only supported in calls and tuples");
  case ExprKind::Lambda:
    error(e.loc(), "lambda expressions are not supported in kernels; define a "
                   "@triton.jit function");
  case ExprKind::Other:
    error(e.loc(), static_cast<const OtherExpr &>(e).what +
                       " is not supported in Triton kernels");
  }
  error(e.loc(), "unsupported expression");
}

TValue Emitter::evalCall(const CallExpr &c) {
  TValue fn = eval(*c.func);
  CallArgs args;
  args.loc = c.loc();
  if (fn.kind == TValue::Builtin)
    args.name = fn.s;
  else if (fn.kind == TValue::Function)
    args.name = fn.fn->def->name;
  if (fn.self) {
    args.args.push_back(*fn.self);
    args.argLocs.push_back(c.func->loc());
  }
  for (auto &a : c.args) {
    if (a->kind == ExprKind::Starred) {
      auto &st = static_cast<const StarredExpr &>(*a);
      if (st.doubleStar)
        error(a->loc(), "'**' unpacking is not supported in kernels");
      TValue t = eval(*st.value);
      if (t.kind != TValue::Tuple)
        error(a->loc(), "cannot unpack " + t.typeStr() + " with '*'");
      for (auto &x : t.elems) {
        args.args.push_back(x);
        args.argLocs.push_back(a->loc());
      }
      continue;
    }
    args.args.push_back(eval(*a));
    args.argLocs.push_back(a->loc());
  }
  for (auto &kw : c.keywords) {
    if (kw.name.empty())
      error(kw.loc, "'**' unpacking is not supported in kernels");
    args.kwargs.push_back({kw.name, eval(*kw.value)});
    args.kwLocs.push_back(kw.loc);
  }
  cur = c.loc();
  switch (fn.kind) {
  case TValue::Function:
    return callFunction(*fn.fn, args);
  case TValue::Builtin: {
    auto &table = builtinTable();
    auto it = table.find(fn.s);
    if (it == table.end()) {
      if (fn.s == "range" || fn.s == "tl.range" || fn.s == "tl.static_range")
        error(c.loc(), fn.s + "() can only be used as the iterable of a for loop");
      error(c.loc(), "'" + fn.s + "' is not supported inside kernels");
    }
    return it->second(*this, args);
  }
  case TValue::Type:
    error(c.loc(), "dtypes are not callable; use x.to(" + fn.dtype.name() + ")");
  case TValue::Module:
    if (moduleContext(fn.s, c.func->loc()))
      error(c.func->loc(), "'" + fn.s + "' is a module, not a function");
    if (!fn.s.empty() && fn.s[0] == '.')
      error(c.func->loc(),
            "'" + fn.s + "' is a relative import, but the compiler does not "
            "know the package of " + curModule->describe() +
            ": register this file as a module under its dotted name "
            "(Compiler::addModule, tritium_compiler_add_module)");
    error(c.func->loc(),
          "'" + fn.s + "' is imported from a module whose source the compiler "
          "was not given: register that module (Compiler::addModule, "
          "tritium_compiler_add_module; the Python package registers the "
          "modules a kernel imports) to call its @jit functions");
  default: {
    std::string what = fn.repr();
    if (c.func->kind == ExprKind::Name)
      what = static_cast<const NameExpr &>(*c.func).id;
    error(c.func->loc(), "'" + what + "' (" + fn.typeStr() + ") is not callable");
  }
  }
}

TValue Emitter::getAttr(const TValue &base, const std::string &attr, SourceLoc l) {
  switch (base.kind) {
  case TValue::Module:
    return resolveQualified(base.s + "." + attr, l);
  case TValue::Tensor: {
    if (attr == "dtype")
      return TValue::type(base.dtype);
    if (attr == "shape") {
      std::vector<TValue> dims;
      for (int64_t d : base.shape)
        dims.push_back(TValue::integer(d));
      return TValue::tuple(dims);
    }
    if (attr == "numel") {
      int64_t n = 1;
      for (int64_t d : base.shape) n *= d;
      return TValue::integer(n);
    }
    if (attr == "T") {
      CallArgs call;
      call.loc = l;
      call.name = "x.T";
      call.args.push_back(base);
      call.argLocs.push_back(l);
      return builtinTable().at("tl.trans")(*this, call);
    }
    std::string name = "tensor." + attr;
    if (!builtinTable().count(name))
      error(l, "tensor has no attribute '" + attr + "'");
    TValue m = TValue::builtin(name);
    m.self = std::make_shared<TValue>(base);
    return m;
  }
  case TValue::Type: {
    DType d = base.dtype;
    if (base.constexprType) {
      if (attr == "value")
        return base.elems[0];
      error(l, "constexpr_type has no attribute '" + attr + "'");
    }
    if (attr == "element_ty") {
      if (!d.isPtr())
        error(l, "'" + d.name() + "' is not a pointer type, so it has no element_ty");
      return TValue::type(d.pointee());
    }
    if (attr == "primitive_bitwidth")
      return TValue::integer(d.bits());
    if (attr == "itemsize")
      return TValue::integer(d.bits() / 8);
    std::string name = "dtype." + attr;
    if (!builtinTable().count(name))
      error(l, "dtype has no attribute '" + attr + "'");
    TValue m = TValue::builtin(name);
    m.self = std::make_shared<TValue>(base);
    return m;
  }
  case TValue::Descriptor: {
    if (attr == "dtype")
      return TValue::type(base.dtype);
    if (attr == "block_shape") {
      std::vector<TValue> dims;
      for (int64_t d : base.shape)
        dims.push_back(TValue::integer(d));
      return TValue::tuple(dims);
    }
    if (attr == "shape" || attr == "strides") {
      // The values it was made with (i32 shape, i64 strides).
      size_t rank = base.shape.size();
      if (base.elems.size() != 2 * rank)
        error(l, "the " + attr + " of this tensor descriptor is not known here");
      size_t from = attr == "shape" ? 0 : rank;
      return TValue::tuple(std::vector<TValue>(base.elems.begin() + from,
                                               base.elems.begin() + from + rank));
    }
    std::string name = "tensordesc." + attr;
    if (!builtinTable().count(name))
      error(l, "tensor descriptor has no attribute '" + attr + "'");
    TValue m = TValue::builtin(name);
    m.self = std::make_shared<TValue>(base);
    return m;
  }
  case TValue::Int: case TValue::Float: case TValue::Bool:
    if (attr == "value")
      return base; // tl.constexpr(...).value
    if (attr == "type") // a plain-assigned number is a tensor in Triton
      return base.lifted ? TValue::type(base.kind == TValue::Bool ? DType(DType::I1)
                                                                  : typeOf(base, l))
                         : TValue::constexprTypeOf(base);
    if (attr == "dtype") // as Triton, which makes a tensor of a local number
      return TValue::type(base.kind == TValue::Bool ? DType(DType::I1)
                                                    : typeOf(base, l));
    // Triton keeps `acc = 0` as a scalar tensor, so `acc.to(tl.int64)` and
    // the other tensor methods apply to local numbers too.
    if (builtinTable().count("tensor." + attr))
      return getAttr(toTensor(base, l), attr, l);
    break;
  default:
    break;
  }
  error(l, base.typeStr() + " has no attribute '" + attr + "'");
}

TValue Emitter::evalAttribute(const AttributeExpr &e) {
  TValue base = eval(*e.value);
  return getAttr(base, e.attr, e.attrLoc.valid() ? e.attrLoc : e.loc());
}

TValue Emitter::evalSubscript(const SubscriptExpr &e) {
  TValue base = eval(*e.value);
  std::vector<const Expr *> items;
  if (e.index->kind == ExprKind::Tuple)
    for (auto &x : static_cast<const TupleExpr &>(*e.index).elts)
      items.push_back(x.get());
  else
    items.push_back(e.index.get());
  if (base.kind == TValue::Tuple) {
    if (items.size() != 1)
      error(e.index->loc(), "tuples take a single index");
    TValue idx = eval(*items[0]);
    int64_t i = requireInt(idx, items[0]->loc(), "a tuple index");
    int64_t n = int64_t(base.elems.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n)
      error(items[0]->loc(), "tuple index " + std::to_string(i) +
                                 " out of range for a tuple of " +
                                 std::to_string(n));
    return base.elems[i];
  }
  if (!base.isTensor())
    error(e.loc(), base.typeStr() + " is not subscriptable");
  // Only None and ':' index tensors, as in Triton: the entry at position p
  // that is None inserts an axis at p (into the result so far); ':' leaves
  // the tensor as it is.
  std::vector<int> newAxes;
  size_t rank = base.shape.size();
  for (size_t p = 0; p < items.size(); ++p) {
    const Expr *it = items[p];
    if (it->kind == ExprKind::Slice) {
      auto &s = static_cast<const SliceExpr &>(*it);
      // Bounds that are None (`None:`, `::None`) still make a full slice.
      for (const ExprPtr *bound : {&s.lower, &s.upper, &s.step})
        if (*bound && eval(**bound).kind != TValue::None)
          error((*bound)->loc(), "unsupported tensor index: only ':' (a full slice) and "
                                 "None can index a tensor; slices with bounds are not "
                                 "supported");
      continue;
    }
    if (it->kind == ExprKind::None || eval(*it).kind == TValue::None) {
      if (p > rank)
        error(it->loc(), "invalid axis " + std::to_string(p) + " for a new axis of a "
                         "tensor of rank " + std::to_string(rank));
      newAxes.push_back(int(p));
      ++rank;
      continue;
    }
    error(it->loc(), "unsupported tensor index: only None and ':' are allowed "
                     "(Triton blocks cannot be indexed by position)");
  }
  TValue v = base;
  std::vector<int64_t> curShape = base.shape;
  for (int ax : newAxes) {
    curShape.insert(curShape.begin() + ax, 1);
    if (v.shape.empty()) {
      v = splatTo(v, curShape);
      continue;
    }
    Value r = tile::ExpandDimsOp::create(b, loc(e.loc()), v.v, ax);
    v = TValue::tensor(r, v.dtype, curShape);
  }
  return v;
}

/// `range(...)` / `tl.static_range(...)` of compile-time ints as the tuple
/// of its values; Undefined for any other expression.
TValue Emitter::rangeTuple(const Expr &iter) {
  if (iter.kind != ExprKind::Call)
    return TValue();
  const auto &call = static_cast<const CallExpr &>(iter);
  TValue fn = eval(*call.func);
  if (fn.kind != TValue::Builtin || (fn.s != "range" && fn.s != "tl.static_range"))
    return TValue();
  if (!call.keywords.empty() || call.args.empty() || call.args.size() > 3)
    error(iter.loc(), fn.s + "() in a comprehension takes 1 to 3 positional ints");
  std::vector<int64_t> v;
  for (auto &a : call.args) {
    TValue x = eval(*a);
    if (x.kind != TValue::Int)
      error(a->loc(), fn.s + "() in a comprehension needs compile-time ints, got " +
                          x.typeStr());
    v.push_back(x.i);
  }
  int64_t start = v.size() > 1 ? v[0] : 0, stop = v.size() > 1 ? v[1] : v[0],
          step = v.size() > 2 ? v[2] : 1;
  if (step == 0)
    error(iter.loc(), fn.s + "() step must not be zero");
  std::vector<TValue> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
    if (out.size() >= 65536)
      error(iter.loc(), "a comprehension over more than 65536 values");
    out.push_back(TValue::integer(i));
  }
  return TValue::tuple(std::move(out));
}

TValue Emitter::listComp(const ListCompExpr &e) {
  // Its targets live in the comprehension only, as in Python 3.
  std::vector<std::string> names;
  std::function<void(const Expr &)> collect = [&](const Expr &t) {
    if (t.kind == ExprKind::Name)
      names.push_back(static_cast<const NameExpr &>(t).id);
    else if (t.kind == ExprKind::Tuple)
      for (auto &x : static_cast<const TupleExpr &>(t).elts) collect(*x);
    else if (t.kind == ExprKind::List)
      for (auto &x : static_cast<const ListExpr &>(t).elts) collect(*x);
    else if (t.kind == ExprKind::Starred)
      collect(*static_cast<const StarredExpr &>(t).value);
  };
  for (auto &c : e.clauses)
    collect(*c.target);
  std::map<std::string, std::optional<TValue>> saved;
  for (auto &n : names) {
    auto it = scopes.back().find(n);
    saved[n] = it == scopes.back().end() ? std::nullopt : std::optional<TValue>(it->second);
  }
  std::vector<TValue> out;
  std::function<void(size_t)> run = [&](size_t k) {
    if (k == e.clauses.size()) {
      out.push_back(eval(*e.elt));
      return;
    }
    const auto &c = e.clauses[k];
    TValue seq = rangeTuple(*c.iter);
    if (seq.kind == TValue::Undefined)
      seq = eval(*c.iter);
    if (seq.kind != TValue::Tuple)
      error(c.iter->loc(), "a list comprehension in a kernel iterates over a tuple "
                           "(its length known at compile time), got " + seq.typeStr());
    for (const TValue &item : seq.elems) {
      assign(*c.target, item);
      bool keep = true;
      for (auto &cond : c.ifs) {
        TValue t = eval(*cond);
        if (t.isTensor())
          error(cond->loc(), "a comprehension's 'if' must be known at compile time, got " +
                                 t.typeStr());
        if (!truthy(t, cond->loc())) {
          keep = false;
          break;
        }
      }
      if (keep)
        run(k + 1);
    }
  };
  run(0);
  for (auto &[n, v] : saved) {
    if (v)
      scopes.back()[n] = *v;
    else
      scopes.back().erase(n);
  }
  return TValue::tuple(std::move(out));
}

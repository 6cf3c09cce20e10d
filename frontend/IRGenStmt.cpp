//===- IRGenStmt.cpp - statements and structured control flow -------------===//
//
// Assignments, if/elif/else, conditional expressions, returns, assert and
// static checks (loops: IRGenLoop.cpp). Runtime conditions become scf.if
// whose results are the variables the branches (re)assign; constexpr
// conditions are folded and only the taken branch is emitted.
//
// Returns: when a branch may return, the code after the `if` (the rest of
// its block and of every block enclosing it up to the function, the
// continuations) is emitted inside each branch that falls through, so every
// path reaches the function's end with the return value in `$ret`.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"
#include "ir/Names.h"

#include <set>

using namespace tritium::fe;
using namespace mlir;

static const char *kRet = "$ret";
static const char *kReturned = "$returned";

bool Emitter::returned() const {
  auto it = scopes.back().find(kReturned);
  return it != scopes.back().end();
}

void tritium::fe::collectAssigned(const tritium::fe::Block &block, std::vector<std::string> &out) {
  std::function<void(const Expr *)> target = [&](const Expr *e) {
    if (e->kind == ExprKind::Name)
      out.push_back(static_cast<const NameExpr *>(e)->id);
    else if (e->kind == ExprKind::Tuple)
      for (auto &x : static_cast<const TupleExpr *>(e)->elts) target(x.get());
    else if (e->kind == ExprKind::List)
      for (auto &x : static_cast<const ListExpr *>(e)->elts) target(x.get());
    else if (e->kind == ExprKind::Starred)
      target(static_cast<const StarredExpr *>(e)->value.get());
  };
  for (auto &s : block) {
    switch (s->kind) {
    case StmtKind::Assign:
      for (auto &t : static_cast<const AssignStmt &>(*s).targets) target(t.get());
      break;
    case StmtKind::AugAssign:
      target(static_cast<const AugAssignStmt &>(*s).target.get());
      break;
    case StmtKind::AnnAssign:
      target(static_cast<const AnnAssignStmt &>(*s).target.get());
      break;
    case StmtKind::If: {
      auto &i = static_cast<const IfStmt &>(*s);
      collectAssigned(i.body, out);
      collectAssigned(i.orelse, out);
      break;
    }
    case StmtKind::For: {
      auto &f = static_cast<const ForStmt &>(*s);
      target(f.target.get());
      collectAssigned(f.body, out);
      break;
    }
    case StmtKind::While:
      collectAssigned(static_cast<const WhileStmt &>(*s).body, out);
      break;
    default:
      break;
    }
  }
}

/// Whether every path through `block` ends in a return.
static bool alwaysReturns(const tritium::fe::Block &block) {
  if (block.empty())
    return false;
  const Stmt &last = *block.back();
  if (last.kind == StmtKind::Return)
    return true;
  if (last.kind == StmtKind::If) {
    auto &i = static_cast<const IfStmt &>(last);
    return alwaysReturns(i.body) && alwaysReturns(i.orelse);
  }
  return false;
}

static bool containsReturn(const tritium::fe::Block &block) {
  for (auto &s : block) {
    if (s->kind == StmtKind::Return)
      return true;
    if (s->kind == StmtKind::If) {
      auto &i = static_cast<const IfStmt &>(*s);
      if (containsReturn(i.body) || containsReturn(i.orelse))
        return true;
    }
  }
  return false;
}

void Emitter::emitFunctionBody(const FunctionDef &fn) {
  // A helper's returns end the helper: the caller's code after the call is
  // no continuation of its branches.
  std::vector<Continuation> outer;
  outer.swap(continuations);
  emitBlock(fn.body);
  continuations.swap(outer);
}

/// A loop body: a return inside it never reaches code after the loop.
void Emitter::emitLoopBody(const tritium::fe::Block &body) {
  std::vector<Continuation> outer;
  outer.swap(continuations);
  emitBlock(body);
  continuations.swap(outer);
}

void Emitter::emitBlock(const tritium::fe::Block &block, size_t begin) {
  for (size_t i = begin; i < block.size(); ++i) {
    if (returned())
      return; // code after a return is unreachable
    bool consumedRest = false;
    emitStmt(*block[i], block, i, consumedRest);
    if (consumedRest)
      return;
  }
}

void Emitter::nameLeaves(const std::string &name, const TValue &v, SourceLoc at) {
  if (v.kind == TValue::Tuple) {
    for (size_t i = 0; i < v.elems.size(); ++i)
      nameLeaves(name + "[" + std::to_string(i) + "]", v.elems[i], at);
    return;
  }
  if (v.kind != TValue::Tensor || !v.v || name.empty() || name[0] == '$')
    return;
  // A block argument is placed where it is bound (not where a loop's
  // initial value is, whose location the builder copied).
  if (auto arg = dyn_cast<BlockArgument>(v.v); arg && at.valid())
    arg.setLoc(loc(at));
  nameValue(v.v, name);
}

/// Python's `a, b = t` destructuring and plain name binding.
void Emitter::assign(const Expr &target, const TValue &value) {
  switch (target.kind) {
  case ExprKind::Name: {
    auto &name = static_cast<const NameExpr &>(target).id;
    if (value.kind == TValue::Undefined)
      error(target.loc(), "cannot assign an undefined value to '" + name + "'");
    TValue v = value;
    v.origin = target.loc();
    scopes.back()[name] = v;
    nameLeaves(name, v);
    return;
  }
  case ExprKind::Tuple:
  case ExprKind::List: {
    const auto &elts = target.kind == ExprKind::Tuple
                           ? static_cast<const TupleExpr &>(target).elts
                           : static_cast<const ListExpr &>(target).elts;
    if (value.kind != TValue::Tuple)
      error(target.loc(), "cannot unpack " + value.typeStr() + " into " +
                              std::to_string(elts.size()) + " names");
    if (value.elems.size() != elts.size())
      error(target.loc(), "cannot unpack a tuple of " +
                              std::to_string(value.elems.size()) + " values into " +
                              std::to_string(elts.size()) + " names");
    for (size_t i = 0; i < elts.size(); ++i)
      assign(*elts[i], value.elems[i]);
    return;
  }
  case ExprKind::Subscript:
    error(target.loc(), "assignment to a subscript is not supported: tensors are "
                        "immutable values (use tl.where or tl.store)");
  case ExprKind::Attribute:
    error(target.loc(), "assignment to an attribute is not supported in kernels");
  default:
    error(target.loc(), "cannot assign to this expression");
  }
}

void Emitter::emitStmt(const Stmt &s, const tritium::fe::Block &block, size_t index,
                       bool &consumedRest) {
  cur = s.loc();
  switch (s.kind) {
  case StmtKind::Expr: {
    auto &e = static_cast<const ExprStmt &>(s);
    if (e.value->kind == ExprKind::Str)
      return; // a stray string (comment-like) has no effect
    eval(*e.value);
    return;
  }
  case StmtKind::Assign: {
    auto &a = static_cast<const AssignStmt &>(s);
    TValue v = eval(*a.value);
    // Triton turns numbers bound by a plain assignment into tensors.
    std::function<void(TValue &)> lift = [&](TValue &x) {
      if (x.kind == TValue::Int || x.kind == TValue::Float || x.kind == TValue::Bool)
        x.lifted = true;
      for (TValue &e : x.elems)
        if (x.kind == TValue::Tuple)
          lift(e);
    };
    lift(v);
    for (auto &t : a.targets)
      assign(*t, v);
    return;
  }
  case StmtKind::AugAssign: {
    auto &a = static_cast<const AugAssignStmt &>(s);
    if (a.target->kind != ExprKind::Name)
      error(a.target->loc(), "augmented assignment needs a plain name on the left");
    TValue lhs = eval(*a.target);
    TValue rhs = eval(*a.value);
    assign(*a.target, binary(a.op, lhs, rhs, a.loc()));
    return;
  }
  case StmtKind::AnnAssign: {
    auto &a = static_cast<const AnnAssignStmt &>(s);
    if (!a.value)
      return; // a bare annotation declares nothing at run time
    TValue v = eval(*a.value);
    v.lifted = false; // an annotated name keeps its value as it is
    TValue ann = eval(*a.annotation);
    if (ann.kind == TValue::Type && v.isTensor())
      v = cast(v, ann.dtype, a.loc());
    else if (ann.kind == TValue::Type && v.isConstexpr())
      v = cast(toTensor(v, a.loc()), ann.dtype, a.loc());
    assign(*a.target, v);
    return;
  }
  case StmtKind::If: {
    auto &i = static_cast<const IfStmt &>(s);
    // emitIf emits the rest of the block itself (inside the branches that
    // fall through) when a branch may return.
    consumedRest = emitIf(i, &block, index + 1);
    return;
  }
  case StmtKind::For:
    emitFor(static_cast<const ForStmt &>(s));
    return;
  case StmtKind::While:
    emitWhile(static_cast<const WhileStmt &>(s));
    return;
  case StmtKind::Return: {
    auto &r = static_cast<const ReturnStmt &>(s);
    if (scopes.back().count(kLoopDepth))
      error(s.loc(), "'return' inside a loop is not supported");
    TValue v = r.value ? eval(*r.value) : TValue::none();
    v.origin = s.loc();
    scopes.back()[kRet] = v;
    scopes.back()[kReturned] = TValue::boolean(true);
    return;
  }
  case StmtKind::Pass:
    return;
  case StmtKind::Break:
    error(s.loc(), "'break' is not supported in Triton kernels; use a while "
                   "loop with a condition");
  case StmtKind::Continue:
    error(s.loc(), "'continue' is not supported in Triton kernels; guard the "
                   "loop body with an if");
  case StmtKind::Assert: {
    auto &a = static_cast<const AssertStmt &>(s);
    TValue c = eval(*a.test);
    std::string msg;
    if (a.msg) {
      TValue m = eval(*a.msg);
      msg = m.kind == TValue::Str ? m.s : m.repr();
    }
    if (c.isConstexpr()) {
      if (!truthy(c, a.loc()))
        error(a.loc(), "assertion failed at compile time" +
                           (msg.empty() ? std::string() : ": " + msg));
      return;
    }
    if (!options.debug)
      return; // device_assert is active only in debug mode, as in Triton
    TValue cb = cast(c, DType::I1, a.loc());
    tile::AssertOp::create(b, loc(a.loc()), cb.v, b.getStringAttr(msg));
    return;
  }
  case StmtKind::FunctionDef:
    error(s.loc(), "nested function definitions are not supported in kernels; "
                   "define a module-level @triton.jit function");
  case StmtKind::Unsupported:
    error(s.loc(), "'" + static_cast<const UnsupportedStmt &>(s).what +
                       "' statements are not supported in Triton kernels");
  }
}

//===----------------------------------------------------------------------===//
// Merging variables of branches and loop iterations
//===----------------------------------------------------------------------===//

/// Identity of a value for "did this branch change it" tests.
bool tritium::fe::sameValue(const TValue &a, const TValue &c) {
  if (a.kind != c.kind)
    return false;
  if (a.kind == TValue::Tensor)
    return a.v == c.v;
  if (a.kind == TValue::Tuple) {
    if (a.elems.size() != c.elems.size())
      return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!sameValue(a.elems[i], c.elems[i]))
        return false;
    return true;
  }
  if (a.kind == TValue::Function)
    return a.fn == c.fn;
  if (a.kind == TValue::BlockPointer)
    return a.bp == c.bp;
  if (a.kind == TValue::Descriptor)
    return a.v == c.v;
  return a.repr() == c.repr() && a.dtype == c.dtype;
}

/// The runtime structure of a value: tuples and block pointers are
/// containers (a block pointer's base, shape, strides and offsets are
/// values a branch or loop iteration may change); everything else is a leaf.
void tritium::fe::leaves(const TValue &v, std::vector<TValue> &out) {
  if (v.kind == TValue::Tuple) {
    for (auto &e : v.elems)
      leaves(e, out);
  } else if (v.kind == TValue::BlockPointer) {
    leaves(v.bp->base, out);
    for (auto *list : {&v.bp->shape, &v.bp->strides, &v.bp->offsets})
      for (auto &e : *list)
        leaves(e, out);
  } else {
    out.push_back(v);
  }
}

/// `tmpl`'s structure with each leaf replaced by `leaf(old leaf)`, in the
/// order `leaves` lists them.
TValue tritium::fe::rebuildLeaves(const TValue &tmpl,
                                  const std::function<TValue(const TValue &)> &leaf) {
  if (tmpl.kind == TValue::Tuple) {
    std::vector<TValue> e;
    for (auto &x : tmpl.elems)
      e.push_back(rebuildLeaves(x, leaf));
    return TValue::tuple(e);
  }
  if (tmpl.kind == TValue::BlockPointer) {
    auto bp = std::make_shared<BlockPtr>(*tmpl.bp);
    bp->base = rebuildLeaves(bp->base, leaf);
    for (auto *list : {&bp->shape, &bp->strides, &bp->offsets})
      for (auto &e : *list)
        e = rebuildLeaves(e, leaf);
    TValue r = tmpl;
    r.bp = bp;
    return r;
  }
  return leaf(tmpl);
}

namespace {
/// Whether two values have the same containers (tuple arity, block pointer).
bool sameStructure(const TValue &a, const TValue &c) {
  if (a.kind != c.kind && (a.kind == TValue::Tuple || c.kind == TValue::Tuple ||
                           a.kind == TValue::BlockPointer ||
                           c.kind == TValue::BlockPointer))
    return false;
  if (a.kind == TValue::Tuple) {
    if (a.elems.size() != c.elems.size())
      return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!sameStructure(a.elems[i], c.elems[i]))
        return false;
  }
  if (a.kind == TValue::BlockPointer)
    return a.bp->blockShape == c.bp->blockShape && a.bp->order == c.bp->order;
  return true;
}
} // namespace

/// Variables two branches leave with: one yield slot per runtime leaf.
struct MergeSlot {
  std::string name;
  TValue tmpl; // structure; constexpr leaves equal in both branches
};

/// The code after a return that may or may not run: the rest of `rest`
/// from `restBegin`, then the continuations that enclose it (innermost
/// first); a nested split that emitted them marks them consumed.
void Emitter::emitRestChain(const tritium::fe::Block &rest, size_t restBegin) {
  emitBlock(rest, restBegin);
  for (size_t k = continuations.size(); k-- > 0;) {
    if (returned() || continuations[k].consumed)
      break;
    Continuation c = continuations[k];
    std::vector<Continuation> inner(continuations.begin() + k, continuations.end());
    continuations.resize(k);
    emitBlock(*c.block, c.begin);
    continuations.insert(continuations.end(), inner.begin(), inner.end());
    continuations[k].consumed = true;
  }
  for (Continuation &c : continuations)
    c.consumed = true;
}

bool Emitter::emitIf(const IfStmt &s, const tritium::fe::Block *rest, size_t restBegin) {
  TValue cond = eval(*s.test);
  bool mayReturn = containsReturn(s.body) || containsReturn(s.orelse);
  if (cond.isConstexpr() || cond.kind == TValue::Function ||
      cond.kind == TValue::Module || cond.kind == TValue::Builtin) {
    bool taken = truthy(cond, s.test->loc());
    if (!mayReturn) {
      emitBlock(taken ? s.body : s.orelse);
      return false;
    }
    // The branch is inlined here: what follows the if continues it.
    continuations.push_back({rest, restBegin, false});
    emitBlock(taken ? s.body : s.orelse);
    Continuation own = continuations.back();
    continuations.pop_back();
    if (!own.consumed && !returned())
      emitBlock(*rest, restBegin);
    return true;
  }
  bool splitRest = mayReturn;
  cond = scalarCondition(cond, s.test->loc());
  if (!cond.isTensor())
    error(s.test->loc(), "if condition must be a scalar or a constexpr, got " +
                             cond.typeStr());
  if (!cond.shape.empty())
    error(s.test->loc(), "if condition must be a scalar, got a block " +
                             cond.typeStr() + "; use tl.where for elementwise "
                             "selection");
  cond = cast(cond, DType::I1, s.test->loc());
  Location L = loc(s.loc());
  Scope before = scopes.back();
  auto ifOp = scf::IfOp::create(b, L, TypeRange{}, cond.v, /*withElse=*/true);
  Scope branchScopes[2];
  // When a branch may return, each branch that falls through runs the rest
  // of the block (and what encloses it) itself.
  std::vector<Continuation> saved = continuations;
  for (int br = 0; br < 2; ++br) {
    mlir::Block *blk = br == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(blk->getTerminator());
    scopes.push_back(before);
    const tritium::fe::Block &body = br == 0 ? s.body : s.orelse;
    continuations = saved;
    if (splitRest)
      continuations.push_back({rest, restBegin, false});
    emitBlock(body);
    if (splitRest) {
      Continuation own = continuations.back();
      continuations.pop_back();
      if (!own.consumed && !returned())
        emitRestChain(*rest, restBegin);
    }
    branchScopes[br] = scopes.back();
    scopes.pop_back();
  }
  continuations = saved;
  if (splitRest)
    for (Continuation &c : continuations)
      c.consumed = true;
  mergeBranches(ifOp, before, branchScopes, s.loc(), false);
  return splitRest;
}

TValue Emitter::scalarCondition(const TValue &cond, SourceLoc l) {
  if (!cond.isTensor() || cond.shape.empty())
    return cond;
  int64_t n = 1;
  for (int64_t d : cond.shape)
    n *= d;
  if (n != 1)
    return cond;
  // A one-element block is its element, as in Triton.
  return TValue::tensor(tile::UnsplatOp::create(b, loc(l), cond.v), cond.dtype, {});
}

TValue Emitter::emitIfExp(const TValue &condition, const Expr &body, const Expr &orelse,
                          SourceLoc l) {
  TValue cond = cast(condition, DType::I1, l);
  Location L = loc(l);
  Scope before = scopes.back();
  auto ifOp = scf::IfOp::create(b, L, TypeRange{}, cond.v, /*withElse=*/true);
  Scope branchScopes[2];
  TValue values[2];
  static const char *kValue = "$ifexp";
  for (int br = 0; br < 2; ++br) {
    mlir::Block *blk = br == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(blk->getTerminator());
    scopes.push_back(before);
    values[br] = eval(br == 0 ? body : orelse);
    scopes.back()[kValue] = values[br];
    branchScopes[br] = scopes.back();
    scopes.pop_back();
  }
  if (values[0].kind == TValue::None && values[1].kind == TValue::None) {
    branchScopes[0].erase(kValue);
    branchScopes[1].erase(kValue);
  }
  mergeBranches(ifOp, before, branchScopes, l, true);
  auto it = scopes.back().find(kValue);
  if (it == scopes.back().end())
    return TValue::none();
  TValue v = it->second;
  scopes.back().erase(it);
  return v;
}

void Emitter::mergeBranches(scf::IfOp ifOp, const Scope &before, Scope branchScopes[2],
                            SourceLoc where0, bool ternary) {
  Location L = loc(where0);
  // Names both branches leave with that differ from before (or are new).
  std::vector<MergeSlot> slots;
  std::vector<Value> yields[2];
  std::vector<Type> types;
  std::vector<TValue> merged; // per yielded leaf: its dtype and shape
  for (auto &[name, v0] : branchScopes[0]) {
    auto it1 = branchScopes[1].find(name);
    if (it1 == branchScopes[1].end())
      continue;
    const TValue &v1 = it1->second;
    auto itB = before.find(name);
    if (itB != before.end() && sameValue(itB->second, v0) &&
        sameValue(itB->second, v1))
      continue;
    if (sameValue(v0, v1) && v0.isConstexpr()) {
      scopes.back()[name] = v0;
      continue;
    }
    std::vector<TValue> l0, l1;
    leaves(v0, l0);
    leaves(v1, l1);
    if (l0.size() != l1.size() || !sameStructure(v0, v1))
      error(where0, "variable '" + name + "' is " + v0.typeStr() +
                         " in one branch and " + v1.typeStr() + " in the other");
    for (size_t k = 0; k < l0.size(); ++k) {
      TValue a = l0[k], c = l1[k];
      if (a.isConstexpr() && c.isConstexpr() && sameValue(a, c))
        continue;
      if (!(a.isTensor() || a.isConstexpr()) || !(c.isTensor() || c.isConstexpr()))
        error(where0, "variable '" + name + "' holds " + a.typeStr() +
                           " and " + c.typeStr() + " in the two branches; only "
                           "tensors and numbers can differ between branches");
      // Materialize a number in its branch: a Python scalar of a lower or
      // equal kind (bool < int < float) takes the other side's type, as in
      // Triton's promotion; anything else must already match.
      SourceLoc where = c.origin.valid() ? c.origin : where0;
      auto kindOf = [](DType d) { return d.isBool() ? 0 : d.isInt() ? 1 : 2; };
      // Two numbers keep their natural types (2.0 vs 4 is an error, as in
      // Triton); a number next to a tensor may adopt the tensor's type.
      bool bothConst = a.isConstexpr() && c.isConstexpr();
      for (int br = 0; br < 2; ++br) {
        TValue &x = br == 0 ? a : c;
        const TValue &other = br == 0 ? c : a;
        if (!x.isConstexpr())
          continue;
        OpBuilder::InsertionGuard guard(b);
        mlir::Block *blk = br == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
        b.setInsertionPoint(blk->getTerminator());
        SourceLoc xl = x.origin.valid() ? x.origin : where0;
        x = toTensor(x, xl);
        if (!bothConst && other.isTensor() && !other.dtype.isPtr() &&
            kindOf(x.dtype) <= kindOf(other.dtype))
          x = broadcastTo(cast(x, other.dtype, xl), other.shape, xl);
      }
      if (a.dtype != c.dtype || a.shape != c.shape || a.dtype.isConst != c.dtype.isConst)
        error(where, ternary ? "Ternary expression with dynamic condition has inconsistent "
                               "types " + a.typeStr() + " and " + c.typeStr()
                     : (name == kRet ? "Return type mismatch: " + a.typeStr() + " and " +
                                           c.typeStr() + " in the two branches"
                                     : "Mismatched type for " + name + " between then block (" +
                                           a.typeStr() + ") and else block (" + c.typeStr() +
                                           ")") +
                           "; give both branches one type (e.g. with .to(...))");
      yields[0].push_back(a.v);
      yields[1].push_back(c.v);
      types.push_back(a.v.getType());
      merged.push_back(a);
    }
    slots.push_back({name, v0});
  }
  if (types.empty()) {
    // No results: keep the op as built; drop returns' bookkeeping.
    for (auto &[name, v] : branchScopes[0])
      if (name == kReturned && branchScopes[1].count(kReturned))
        scopes.back()[name] = v;
    return;
  }
  auto newIf = scf::IfOp::create(b, L, types, ifOp.getCondition(), /*withElse=*/true);
  for (int br = 0; br < 2; ++br) {
    Region &from = br == 0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
    Region &to = br == 0 ? newIf.getThenRegion() : newIf.getElseRegion();
    to.takeBody(from);
    mlir::Block &blk = to.front();
    blk.getTerminator()->erase();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&blk);
    scf::YieldOp::create(b, L, yields[br]);
  }
  ifOp.erase();
  // Rebind merged names to the new results.
  size_t idx = 0;
  for (auto &slot : slots) {
    std::vector<TValue> l1;
    leaves(branchScopes[1][slot.name], l1);
    size_t k = 0;
    scopes.back()[slot.name] = rebuildLeaves(slot.tmpl, [&](const TValue &t0) {
      const TValue &t1 = l1[k++];
      if (t0.isConstexpr() && t1.isConstexpr() && sameValue(t0, t1))
        return t0;
      const TValue &m = merged[idx];
      Value r = newIf.getResult(idx++);
      return TValue::tensor(r, m.dtype, m.shape);
    });
    nameLeaves(slot.name, scopes.back()[slot.name]);
  }
}

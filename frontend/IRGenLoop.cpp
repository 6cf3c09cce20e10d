//===- IRGenLoop.cpp - for and while loops ---------------------------------===//
//
// `for` over range / tl.range (scf.for), tl.static_range (unrolled) and
// tuples, and `while` (scf.while): the variables the body reassigns that
// exist before the loop are carried; inside a constexpr_function, loops over
// compile-time values run at compile time.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

#include <set>

using namespace tritium::fe;
using namespace mlir;

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Loop-carried variables: names the body assigns that exist before the
/// loop. Numbers become tensors so each iteration can change them.
static std::vector<std::string> carriedNames(Emitter &em, const tritium::fe::Block &body,
                                             const std::string &exclude) {
  std::vector<std::string> assigned;
  collectAssigned(body, assigned);
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (auto &n : assigned) {
    if (n == exclude || !seen.insert(n).second)
      continue;
    if (em.scopes.back().count(n))
      out.push_back(n);
  }
  return out;
}

namespace {
struct Carried {
  std::vector<std::string> names;
  std::vector<TValue> templates; // structure of each name's value
  std::vector<Value> inits;      // flattened runtime leaves
  /// Tensor descriptors the body assigns: not carried, so the body may
  /// only leave them as they were.
  std::vector<std::pair<std::string, TValue>> fixed;
};
} // namespace

static Carried prepareCarried(Emitter &em, const std::vector<std::string> &names,
                              SourceLoc l) {
  Carried c;
  for (auto &n : names) {
    TValue v = em.scopes.back()[n];
    if (v.kind == TValue::Descriptor) {
      c.fixed.push_back({n, v});
      continue;
    }
    v = rebuildLeaves(v, [&](const TValue &x) {
      if (x.kind == TValue::Int || x.kind == TValue::Float || x.kind == TValue::Bool)
        return em.toTensor(x, l);
      return x;
    });
    std::vector<TValue> ls;
    leaves(v, ls);
    bool allConst = true;
    for (auto &x : ls)
      if (x.isTensor()) {
        c.inits.push_back(x.v);
        allConst = false;
      }
    if (allConst)
      continue; // e.g. a dtype reassigned to itself: not carried
    c.names.push_back(n);
    c.templates.push_back(v);
  }
  return c;
}

/// Binds carried names to `vals` (block arguments, placed at the loop
/// statement `l`, or op results).
static void bindCarried(Emitter &em, const Carried &c, ValueRange vals, SourceLoc l) {
  size_t idx = 0;
  for (size_t i = 0; i < c.names.size(); ++i) {
    em.scopes.back()[c.names[i]] = rebuildLeaves(c.templates[i], [&](const TValue &t) {
      return t.isTensor() ? TValue::tensor(vals[idx++], t.dtype, t.shape) : t;
    });
    em.nameLeaves(c.names[i], em.scopes.back()[c.names[i]], l);
  }
}

/// The values to yield for carried names, checked against their types.
static SmallVector<Value> yieldCarried(Emitter &em, const Carried &c, SourceLoc l) {
  SmallVector<Value> out;
  for (auto &[name, before] : c.fixed)
    if (!sameValue(em.scopes.back()[name], before))
      em.error(l, "tensor descriptor '" + name + "' is reassigned inside the "
                  "loop; loops cannot carry tensor descriptors yet: make one "
                  "descriptor per tensor before the loop");
  for (size_t i = 0; i < c.names.size(); ++i) {
    TValue now = em.scopes.back()[c.names[i]];
    std::vector<TValue> t, n;
    leaves(c.templates[i], t);
    leaves(now, n);
    if (t.size() != n.size())
      em.error(l, "loop-carried variable '" + c.names[i] + "' changes from " +
                      c.templates[i].typeStr() + " to " + now.typeStr());
    for (size_t k = 0; k < t.size(); ++k) {
      if (!t[k].isTensor())
        continue;
      TValue x = n[k];
      if (x.isConstexpr())
        x = em.cast(em.toTensor(x, l), t[k].dtype, l);
      if (!x.isTensor() || x.dtype != t[k].dtype || x.shape != t[k].shape)
        em.error(l, "loop-carried variable '" + c.names[i] + "' has type " +
                        t[k].typeStr() + " before the loop but " +
                        x.typeStr() + " at the end of its body; give it its "
                        "final type before the loop (e.g. tl.zeros(..., dtype=...))");
      out.push_back(x.v);
    }
  }
  return out;
}

void Emitter::emitFor(const ForStmt &s) {
  if (!s.orelse.empty())
    error(s.loc(), "'for ... else' is not supported in kernels");
  if (s.iter->kind != ExprKind::Call)
    error(s.iter->loc(), "for loops must iterate over range(...), tl.range(...) "
                         "or tl.static_range(...)");
  auto &call = static_cast<const CallExpr &>(*s.iter);
  TValue fn = eval(*call.func);
  std::string kind = fn.kind == TValue::Builtin ? fn.s : "";
  if (kind != "range" && kind != "tl.range" && kind != "tl.static_range")
    error(s.iter->loc(), "for loops must iterate over range(...), tl.range(...) "
                         "or tl.static_range(...)");
  CallArgs args;
  args.loc = call.loc();
  args.name = kind;
  for (auto &a : call.args) {
    args.args.push_back(eval(*a));
    args.argLocs.push_back(a->loc());
  }
  for (auto &kw : call.keywords) {
    args.kwargs.push_back({kw.name, eval(*kw.value)});
    args.kwLocs.push_back(kw.loc);
  }
  BoundArgs bound = bind(args, {"arg1", "arg2=None", "step=None", "num_stages=None",
                                "loop_unroll_factor=None", "disallow_acc_multi_buffer=False",
                                "flatten=False", "warp_specialize=False",
                                "disable_licm=False"});
  TValue lo = TValue::integer(0), hi = bound.get("arg1"), step = TValue::integer(1);
  if (bound.has("arg2")) {
    lo = bound.get("arg1");
    hi = bound.get("arg2");
  }
  if (bound.has("step"))
    step = bound.get("step");
  if (kind == "range") {
    for (auto &kw : args.kwargs)
      error(args.kwLocs[0], "range() takes no keyword arguments; use tl.range(..., " +
                                kw.first + "=...)");
  }
  // Unrolled loop (every loop over constant bounds, at compile time).
  if (kind == "tl.static_range" ||
      (compileTimeDepth > 0 && lo.kind == TValue::Int && hi.kind == TValue::Int &&
       step.kind == TValue::Int)) {
    int64_t a = requireInt(lo, call.loc(), "tl.static_range bounds");
    int64_t z = requireInt(hi, call.loc(), "tl.static_range bounds");
    int64_t st = requireInt(step, call.loc(), "tl.static_range step");
    if (st == 0)
      error(call.loc(), "tl.static_range step must not be zero");
    int64_t trips = 0;
    for (int64_t v = a; st > 0 ? v < z : v > z; v += st) {
      if (++trips > 4096)
        error(call.loc(), "tl.static_range unrolls more than 4096 iterations");
      assign(*s.target, TValue::integer(v));
      scopes.back()[kLoopDepth] = TValue::integer(1);
      emitLoopBody(s.body);
      scopes.back().erase(kLoopDepth);
    }
    return;
  }
  if (s.target->kind != ExprKind::Name)
    error(s.target->loc(), "a loop over a range binds a single name");
  std::string iv = static_cast<const NameExpr &>(*s.target).id;
  // Negative constexpr steps count down: i = lo + k * step, k = 0..trips.
  bool down = step.kind == TValue::Int && step.i < 0;
  if (step.kind == TValue::Int && step.i == 0)
    error(call.loc(), "range() step must not be zero");
  TValue tlo = toTensor(lo, call.loc()), thi = toTensor(hi, call.loc()),
         tst = toTensor(step, call.loc());
  for (auto *v : {&tlo, &thi, &tst})
    if (!v->dtype.isInt() || !v->shape.empty())
      error(call.loc(), "range() bounds must be integer scalars, got " + v->typeStr());
  DType ivType = DType::I32;
  for (auto *v : {&tlo, &thi, &tst})
    if (v->dtype.bits() == 64)
      ivType = v->dtype.isUnsigned() ? DType::U64 : DType::I64;
  tlo = cast(tlo, ivType, call.loc());
  thi = cast(thi, ivType, call.loc());
  tst = cast(tst, ivType, call.loc());
  TValue loopLo = tlo, loopHi = thi, loopStep = tst;
  if (down) {
    // trips = (lo - hi + (-step) - 1) // (-step), clamped at 0
    TValue negStep = TValue::integer(-step.i);
    TValue span = binary(BinOpKind::Sub, tlo, thi, call.loc());
    TValue num = binary(BinOpKind::Add, span, TValue::integer(-step.i - 1), call.loc());
    TValue trips = binary(BinOpKind::FloorDiv, num, negStep, call.loc());
    Value zero = constInt(ivType, 0);
    trips = TValue::tensor(arith::MaxSIOp::create(b, loc(call.loc()), trips.v, zero),
                           ivType, {});
    loopLo = TValue::tensor(constInt(ivType, 0), ivType, {});
    loopHi = trips;
    loopStep = TValue::tensor(constInt(ivType, 1), ivType, {});
  }
  auto names = carriedNames(*this, s.body, iv);
  Carried carried = prepareCarried(*this, names, s.loc());
  Location L = loc(s.loc());
  auto forOp = scf::ForOp::create(b, L, loopLo.v, loopHi.v, loopStep.v, carried.inits);
  // Keep tl.range options as attributes for the GPU pipeline.
  static const char *opts[] = {"num_stages", "loop_unroll_factor",
                               "disallow_acc_multi_buffer", "flatten",
                               "warp_specialize", "disable_licm"};
  for (const char *o : opts) {
    if (!bound.has(o))
      continue;
    const TValue &v = bound.get(o);
    // flatten, warp_specialize, disallow_acc_multi_buffer and disable_licm
    // are flags: an integer (a constexpr 0 or 1) counts as Python's truth.
    bool flag = llvm::StringRef(o) != "num_stages" && llvm::StringRef(o) != "loop_unroll_factor";
    if (v.kind == TValue::Bool || flag) {
      bool on = v.kind == TValue::Bool ? v.b : requireInt(v, bound.loc(o), o) != 0;
      if (on)
        forOp->setAttr(std::string("tile.") + o, b.getUnitAttr());
    } else {
      forOp->setAttr(std::string("tile.") + o,
                     b.getI32IntegerAttr(int32_t(requireInt(v, bound.loc(o), o))));
    }
  }
  Scope outer = scopes.back();
  {
    OpBuilder::InsertionGuard guard(b);
    mlir::Block *body = forOp.getBody();
    b.setInsertionPointToStart(body);
    scopes.push_back(outer);
    scopes.back()[kLoopDepth] = TValue::integer(1);
    TValue ivVal = TValue::tensor(forOp.getInductionVar(), ivType, {});
    if (down) {
      TValue off = binary(BinOpKind::Mul, ivVal, TValue::integer(step.i), s.loc());
      ivVal = binary(BinOpKind::Add, tlo, off, s.loc());
    }
    scopes.back()[iv] = ivVal;
    bindCarried(*this, carried, forOp.getRegionIterArgs(), s.loc());
    emitLoopBody(s.body);
    auto ys = yieldCarried(*this, carried, s.loc());
    // The body's implicit terminator (if any) is replaced.
    if (!body->empty() && isa<scf::YieldOp>(body->back()))
      body->back().erase();
    b.setInsertionPointToEnd(body);
    scf::YieldOp::create(b, L, ys);
    scopes.pop_back();
  }
  bindCarried(*this, carried, forOp.getResults(), s.loc());
}

void Emitter::emitWhile(const WhileStmt &s) {
  if (!s.orelse.empty())
    error(s.loc(), "'while ... else' is not supported in kernels");
  if (compileTimeDepth > 0) {
    // A constexpr_function's loop runs now, while its condition is a
    // compile-time value.
    for (int64_t trips = 0;; ++trips) {
      TValue c = eval(*s.test);
      if (!c.isConstexpr())
        break;
      if (!truthy(c, s.test->loc()))
        return;
      if (trips >= (int64_t(1) << 20))
        error(s.test->loc(), "while loop of a constexpr_function ran more than 2^20 "
                             "iterations");
      emitLoopBody(s.body);
    }
  }
  auto names = carriedNames(*this, s.body, "");
  Carried carried = prepareCarried(*this, names, s.loc());
  Location L = loc(s.loc());
  SmallVector<Type> types;
  for (auto v : carried.inits)
    types.push_back(v.getType());
  auto whileOp = scf::WhileOp::create(b, L, types, carried.inits);
  Scope outer = scopes.back();
  SmallVector<Location> locs(types.size(), L);
  {
    OpBuilder::InsertionGuard guard(b);
    mlir::Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
    b.setInsertionPointToStart(before);
    scopes.push_back(outer);
    bindCarried(*this, carried, before->getArguments(), s.loc());
    TValue c = eval(*s.test);
    if (c.isConstexpr())
      error(s.test->loc(), "while condition is a compile-time constant: the loop "
                           "would never end (or never run)");
    if (!c.isTensor() || !c.shape.empty())
      error(s.test->loc(), "while condition must be a scalar, got " + c.typeStr());
    c = cast(c, DType::I1, s.test->loc());
    scf::ConditionOp::create(b, L, c.v, before->getArguments());
    scopes.pop_back();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    mlir::Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
    b.setInsertionPointToStart(after);
    scopes.push_back(outer);
    scopes.back()[kLoopDepth] = TValue::integer(1);
    bindCarried(*this, carried, after->getArguments(), s.loc());
    emitLoopBody(s.body);
    auto ys = yieldCarried(*this, carried, s.loc());
    scf::YieldOp::create(b, L, ys);
    scopes.pop_back();
  }
  bindCarried(*this, carried, whileOp.getResults(), s.loc());
}

//===- IRGen.cpp - kernel entry and calls ---------------------------------===//
//
// The entry point of tile IR generation. Builds the kernel's func.func from
// its signature and emits calls: a call to a @jit helper (of the kernel's
// file or of an imported module; its body resolves names in its own module,
// IRGenNames.cpp) becomes a private func.func specialized on its
// compile-time arguments (the inliner folds it later), a call to a `tl`
// function goes through the builtin table.
//
//===----------------------------------------------------------------------===//
#include "ir/StageLimit.h"
#include "frontend/Builtins.h"
#include "frontend/Emitter.h"

#include "ir/Names.h"
#include "ir/transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <functional>
#include <cerrno>
#include <cstdlib>
#include <sstream>

using namespace tritium::fe;
using namespace mlir;

//===----------------------------------------------------------------------===//
// Emitter basics
//===----------------------------------------------------------------------===//

/// The dotted name of a Name/Attribute chain ("triton.jit"), or "".
std::string tritium::fe::dottedName(const Expr *e) {
  if (e->kind == ExprKind::Name)
    return static_cast<const NameExpr *>(e)->id;
  if (e->kind == ExprKind::Attribute) {
    auto *a = static_cast<const AttributeExpr *>(e);
    std::string base = dottedName(a->value.get());
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}

/// Whether `e` names tl.constexpr (`constexpr`, `tl.constexpr`,
/// `triton.language.constexpr`, ...).
bool tritium::fe::namesConstexpr(const Expr *e) {
  if (!e)
    return false;
  std::string s = dottedName(e);
  return s == "constexpr" ||
         (s.size() > 10 && s.compare(s.size() - 10, 10, ".constexpr") == 0);
}

Emitter::Emitter(MLIRContext &ctx, const Module &m, const CompileOptions &o,
                 const ModuleSet *modules)
    : ctx(ctx), b(&ctx), options(o), moduleSet(modules) {
  // The kernel's file is a registered module when one was registered with
  // its file name: helpers may import it back, and its relative imports
  // know their package.
  std::string name =
      modules ? modules->nameOf(m.file->path(), m.file->text()) : "";
  ModuleContext *main;
  if (name.empty()) {
    unnamedMain = std::make_unique<ModuleContext>();
    main = unnamedMain.get();
  } else {
    auto &slot = moduleContexts[name];
    slot = std::make_unique<ModuleContext>();
    main = slot.get();
    main->name = name;
    main->package = modules->packageOf(name);
  }
  main->ast = &m;
  initModule(*main);
  mainModule = curModule = main;
}

void Emitter::error(SourceLoc l, const std::string &message) const {
  throw CompileError(makeDiagnostic(file(), l, message));
}

Location Emitter::loc(SourceLoc l) const {
  const SourceFile &f = l.file ? *l.file : file();
  return FileLineColLoc::get(const_cast<MLIRContext *>(&ctx), f.path(), l.line,
                             l.col);
}

int64_t Emitter::requireInt(const TValue &v, SourceLoc l, const std::string &what) {
  if (v.kind == TValue::Int) return v.i;
  if (v.kind == TValue::Bool) return v.b;
  if (v.isTensor())
    error(l, what + " must be a compile-time constant (tl.constexpr), got a "
                    "runtime value of type " + v.typeStr());
  error(l, what + " must be a constexpr int, got " + v.typeStr() +
               (v.isConstexpr() ? " " + v.repr() : ""));
}

bool Emitter::requireBool(const TValue &v, SourceLoc l, const std::string &what) {
  if (v.kind == TValue::Bool) return v.b;
  if (v.kind == TValue::Int) return v.i != 0;
  if (v.kind == TValue::None) return false;
  error(l, what + " must be a constexpr bool, got " + v.typeStr());
}

std::string Emitter::requireStr(const TValue &v, SourceLoc l, const std::string &what) {
  if (v.kind == TValue::Str) return v.s;
  if (v.kind == TValue::None) return "";
  error(l, what + " must be a constexpr string, got " + v.typeStr());
}

DType Emitter::requireDType(const TValue &v, SourceLoc l, const std::string &what) {
  if (v.kind == TValue::Type) return v.dtype;
  error(l, what + " must be a dtype (e.g. tl.float32), got " + v.typeStr());
}

std::vector<int64_t> Emitter::requireShape(const TValue &v, SourceLoc l,
                                           const std::string &what) {
  std::vector<int64_t> shape;
  if (v.kind == TValue::Tuple) {
    for (auto &e : v.elems)
      shape.push_back(requireInt(e, l, what + " entries"));
  } else {
    shape.push_back(requireInt(v, l, what));
  }
  return shape;
}

void Emitter::checkBlockShape(const std::vector<int64_t> &shape, SourceLoc l) {
  int64_t numel = 1;
  for (int64_t d : shape) {
    if (d <= 0 || (d & (d - 1)) != 0)
      error(l, "block dimensions must be powers of two, got " +
                   std::to_string(d));
    numel *= d;
  }
  if (numel > (1 << 20))
    error(l, "block has " + std::to_string(numel) +
                 " elements, more than the limit of 1048576 (2^20)");
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool BoundArgs::has(const std::string &name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second.kind != TValue::None &&
         it->second.kind != TValue::Undefined;
}

const TValue &BoundArgs::get(const std::string &name) const {
  static const TValue none = TValue::none();
  auto it = values_.find(name);
  return it == values_.end() ? none : it->second;
}

SourceLoc BoundArgs::loc(const std::string &name) const {
  auto it = locs_.find(name);
  return it == locs_.end() ? SourceLoc{} : it->second;
}

BoundArgs Emitter::bind(CallArgs &call, const std::vector<std::string> &params) {
  // Parameters after "*varargs" are keyword-only, as in Python.
  BoundArgs out;
  std::vector<std::string> names; // positional parameters
  std::string varargs;
  for (auto &p : params) {
    if (p[0] == '*') {
      varargs = p.substr(1);
      continue;
    }
    size_t eq = p.find('=');
    std::string name = p.substr(0, eq);
    if (varargs.empty())
      names.push_back(name);
    if (eq != std::string::npos)
      out.values_[name] = parseConstexprLiteral(p.substr(eq + 1));
    else
      out.values_[name] = TValue(); // required
    out.locs_[name] = call.loc;
  }
  size_t np = 0;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (np < names.size()) {
      out.values_[names[np]] = call.args[i];
      out.locs_[names[np]] = call.argLocs[i];
      ++np;
    } else if (!varargs.empty()) {
      out.varargs_.push_back(call.args[i]);
    } else {
      error(call.argLocs[i], call.name + "() takes at most " +
                                 std::to_string(names.size()) +
                                 " positional arguments but " +
                                 std::to_string(call.args.size()) +
                                 " were given");
    }
  }
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    auto &[name, value] = call.kwargs[k];
    if (!out.values_.count(name))
      error(call.kwLocs[k], call.name + "() got an unexpected keyword argument '" +
                                name + "'");
    bool positional = false;
    for (size_t j = 0; j < np; ++j)
      positional |= names[j] == name;
    if (positional)
      error(call.kwLocs[k], call.name + "() got multiple values for argument '" +
                                name + "'");
    out.values_[name] = value;
    out.locs_[name] = call.kwLocs[k];
  }
  for (auto &[n, v] : out.values_)
    if (v.kind == TValue::Undefined)
      error(call.loc, call.name + "() missing required argument '" + n + "'");
  return out;
}

/// Leaves of a value: tensors (runtime) in order; constexprs stay in the
/// template.
static void flattenRuntime(const TValue &v, std::vector<TValue> &leaves) {
  if (v.kind == TValue::Tuple) {
    for (auto &e : v.elems)
      flattenRuntime(e, leaves);
  } else if (v.isTensor()) {
    leaves.push_back(v);
  } else if (v.kind == TValue::Descriptor) {
    // The descriptor, then the shape and strides it was made with.
    leaves.push_back(v);
    for (auto &e : v.elems)
      flattenRuntime(e, leaves);
  }
}

static TValue rebuild(const TValue &tmpl, const std::vector<Value> &vals,
                      size_t &idx) {
  if (tmpl.kind == TValue::Tuple) {
    std::vector<TValue> elems;
    for (auto &e : tmpl.elems)
      elems.push_back(rebuild(e, vals, idx));
    return TValue::tuple(elems);
  }
  if (tmpl.isTensor())
    return TValue::tensor(vals[idx++], tmpl.dtype, tmpl.shape);
  if (tmpl.kind == TValue::Descriptor) {
    TValue d = tmpl;
    d.v = vals[idx++];
    for (auto &e : d.elems)
      e = rebuild(e, vals, idx);
    return d;
  }
  return tmpl;
}

/// Key text of a constexpr or a tensor type, for specialization names.
static std::string keyOf(const TValue &v) {
  if (v.kind == TValue::Tuple) {
    std::string s = "(";
    for (auto &e : v.elems)
      s += keyOf(e) + ",";
    return s + ")";
  }
  if (v.isTensor() || v.kind == TValue::Descriptor)
    return "T:" + v.typeStr();
  if (v.kind == TValue::Function)
    return "F:" + v.fn->module->name + "." + v.fn->def->name;
  // A plain-assigned number answers `.type` as a tensor: its own key.
  return v.typeStr() + (v.lifted ? "~" : "") + ":" + v.repr();
}

TValue Emitter::callFunction(FunctionInfo &fn, CallArgs &call) {
  const FunctionDef &def = *fn.def;
  for (auto *f : callStack)
    if (f == &def)
      error(call.loc, "recursive call of '" + def.name +
                          "': @jit functions cannot recurse");
  // Bind arguments like Python: positional, keywords, defaults.
  std::vector<TValue> bound(def.params.size());
  std::vector<bool> set(def.params.size(), false);
  for (auto &p : def.params)
    if (p.isVarArgs || p.isKwArgs)
      error(p.loc, "*args/**kwargs parameters are not supported in @jit functions");
  if (call.args.size() > def.params.size())
    error(call.loc, "'" + def.name + "' takes " +
                        std::to_string(def.params.size()) + " arguments but " +
                        std::to_string(call.args.size()) + " were given");
  for (size_t i = 0; i < call.args.size(); ++i) {
    bound[i] = call.args[i];
    set[i] = true;
  }
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    auto &[name, value] = call.kwargs[k];
    size_t i = 0;
    while (i < def.params.size() && def.params[i].name != name)
      ++i;
    if (i == def.params.size())
      error(call.kwLocs[k], "'" + def.name + "' got an unexpected keyword argument '" +
                                name + "'");
    if (set[i])
      error(call.kwLocs[k], "'" + def.name + "' got multiple values for argument '" +
                                name + "'");
    bound[i] = value;
    set[i] = true;
  }
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (set[i])
      continue;
    if (!def.params[i].defaultValue)
      error(call.loc, "'" + def.name + "' missing required argument '" +
                          def.params[i].name + "'");
    // Defaults are evaluated in the function's own module.
    ModuleSwitch in(*this, fn.module);
    std::vector<Scope> saved;
    saved.swap(scopes);
    scopes.emplace_back();
    bound[i] = eval(*def.params[i].defaultValue);
    scopes.swap(saved);
  }
  // A helper's tl.constexpr annotation does not turn a runtime argument
  // away: as in Triton, what specializes a call is the values it is given
  // (Triton's attention tutorial passes `offs_m` tensors to such a param).
  // Specialize on compile-time arguments and runtime types; helpers of one
  // name in two modules are two functions.
  std::string key = fn.module->name + ":" + def.name;
  for (auto &v : bound)
    key += "|" + keyOf(v);
  std::vector<TValue> runtimeArgs;
  for (auto &v : bound)
    flattenRuntime(v, runtimeArgs);
  if (fn.constexprFn) {
    // A @triton.constexpr_function runs at compile time: its arguments and
    // its result are compile-time values.
    for (size_t i = 0; i < bound.size(); ++i) {
      std::vector<TValue> leaves;
      flattenRuntime(bound[i], leaves);
      if (!leaves.empty())
        error(call.loc, "constexpr_function '" + def.name + "' needs compile-time "
                        "arguments; '" + def.params[i].name + "' is " +
                        bound[i].typeStr());
    }
  }
  auto it = specializations.find(key);
  if (it == specializations.end()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> argTypes;
    for (auto &a : runtimeArgs)
      argTypes.push_back(a.v.getType());
    std::string symName = def.name;
    if (specializations.size() || symName.empty() ||
        module.lookupSymbol(symName))
      symName += "__" + std::to_string(++uniqueCounter);
    auto func = func::FuncOp::create(b, loc(def.nameLoc), symName,
                                     b.getFunctionType(argTypes, {}));
    func.setPrivate();
    if (fn.noinline)
      func->setAttr("noinline", b.getUnitAttr());
    mlir::Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
    // Fresh scope: parameters bound to block arguments.
    Scope scope;
    size_t argIdx = 0;
    std::vector<Value> blockArgs(entry->getArguments().begin(),
                                 entry->getArguments().end());
    for (size_t i = 0; i < def.params.size(); ++i) {
      scope[def.params[i].name] = rebuild(bound[i], blockArgs, argIdx);
      nameLeaves(def.params[i].name, scope[def.params[i].name], def.params[i].loc);
    }
    scopes.push_back(scope);
    callStack.push_back(&def);
    {
      ModuleSwitch in(*this, fn.module);
      compileTimeDepth += fn.constexprFn;
      emitFunctionBody(def);
      compileTimeDepth -= fn.constexprFn;
    }
    callStack.pop_back();
    TValue ret = TValue::none();
    auto r = scopes.back().find("$ret");
    if (r != scopes.back().end())
      ret = r->second;
    scopes.pop_back();
    std::vector<TValue> retLeaves;
    flattenRuntime(ret, retLeaves);
    SmallVector<Value> retVals;
    SmallVector<Type> retTypes;
    for (auto &l : retLeaves) {
      retVals.push_back(l.v);
      retTypes.push_back(l.v.getType());
    }
    func::ReturnOp::create(b, loc(def.range.end), retVals);
    func.setFunctionType(b.getFunctionType(argTypes, retTypes));
    it = specializations.emplace(key, std::make_pair(func, ret)).first;
  }
  auto [func, retTemplate] = it->second;
  if (fn.constexprFn) {
    std::vector<TValue> leaves;
    flattenRuntime(retTemplate, leaves);
    if (!leaves.empty())
      error(call.loc, "constexpr_function '" + def.name + "' returned " +
                          retTemplate.typeStr() + ", not a compile-time value");
    return retTemplate;
  }
  SmallVector<Value> operands;
  for (auto &a : runtimeArgs)
    operands.push_back(a.v);
  auto callOp = func::CallOp::create(b, loc(call.loc), func, operands);
  if (fn.noinline)
    callOp->setAttr("no_inline", b.getUnitAttr());
  std::vector<Value> results(callOp.getResults().begin(), callOp.getResults().end());
  size_t idx = 0;
  return rebuild(retTemplate, results, idx);
}

void Emitter::emitCombineRegion(Region &region, const TValue &combine,
                                const std::vector<DType> &types, SourceLoc l,
                                bool isScan) {
  if (combine.kind != TValue::Function)
    error(l, "combine_fn must be a @triton.jit function, got " + combine.typeStr());
  OpBuilder::InsertionGuard guard(b);
  mlir::Block *block = new mlir::Block();
  region.push_back(block);
  for (int pass = 0; pass < 2; ++pass)
    for (auto t : types)
      block->addArgument(t.toMlir(&ctx), loc(l));
  b.setInsertionPointToStart(block);
  CallArgs call;
  call.loc = l;
  call.name = combine.fn->def->name;
  for (size_t i = 0; i < 2 * types.size(); ++i) {
    call.args.push_back(TValue::tensor(block->getArgument(i), types[i % types.size()], {}));
    call.argLocs.push_back(l);
  }
  // A multi-operand combine takes (a0, a1, ..., b0, b1, ...) flat.
  TValue r = callFunction(*combine.fn, call);
  std::vector<TValue> outs;
  if (r.kind == TValue::Tuple)
    outs = r.elems;
  else
    outs.push_back(r);
  if (outs.size() != types.size())
    error(l, "combine_fn '" + combine.fn->def->name + "' returns " +
                 std::to_string(outs.size()) + " values; expected " +
                 std::to_string(types.size()));
  SmallVector<Value> vals;
  for (size_t i = 0; i < outs.size(); ++i) {
    TValue o = cast(toTensor(outs[i], l), types[i], l);
    if (!o.shape.empty())
      error(l, "combine_fn must return scalars, got " + o.typeStr());
    vals.push_back(o.v);
  }
  if (isScan)
    tile::ScanReturnOp::create(b, loc(l), vals);
  else
    tile::ReduceReturnOp::create(b, loc(l), vals);
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

/// tl.multiple_of, tl.max_contiguous and tl.max_constancy state facts about
/// their input value itself, as Triton's do (they mark the op that defines
/// the value, or the loop whose argument it is, and return the value): the
/// hint applies to every use of the value, also through the names still
/// bound to it and when the call's result is dropped
/// (`tl.multiple_of(a_ptrs, [16, 16])` as a statement in 08-grouped-gemm).
/// Each hint moves right after the value's definition (to the start of its
/// block for a block argument) and takes over all of its uses.
static void applyHintsToValues(ModuleOp module) {
  SmallVector<tile::HintOp> hints;
  module.walk([&](tile::HintOp h) { hints.push_back(h); });
  for (tile::HintOp h : hints) {
    Value x = h->getOperand(0);
    if (auto arg = dyn_cast<BlockArgument>(x))
      h->moveBefore(&arg.getOwner()->front());
    else
      h->moveAfter(x.getDefiningOp());
    x.replaceAllUsesExcept(h.getResult(), h);
  }
}

namespace {
CompileResult emitKernel(MLIRContext &ctx, const tritium::fe::Module &m,
                         const std::string &kernelName, const std::vector<ParamSpec> &specs,
                         const CompileOptions &options, const ModuleSet *modules);
} // namespace

CompileResult tritium::fe::compileKernel(MLIRContext &ctx, const Module &m,
                                         const std::string &kernelName,
                                         const std::vector<ParamSpec> &specs,
                                         const CompileOptions &options,
                                         const ModuleSet *modules) {
  StageGuard guard("ir generation", kernelName);
  CompileResult result = emitKernel(ctx, m, kernelName, specs, options, modules);
  if (auto err = guard.error()) {
    SourceLoc loc{1, 1};
    for (auto &f : m.functions)
      if (f->name == kernelName)
        loc = f->nameLoc;
    result.errors.push_back(makeDiagnostic(*m.file, loc, *err));
    result.module = nullptr;
  }
  return result;
}

namespace {
CompileResult emitKernel(MLIRContext &ctx, const tritium::fe::Module &m,
                         const std::string &kernelName, const std::vector<ParamSpec> &specs,
                         const CompileOptions &options, const ModuleSet *modules) {
  CompileResult result;
  DialectRegistry registry;
  tile::registerTileDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();

  Emitter em(ctx, m, options, modules);
  const FunctionDef *kernel = nullptr;
  for (auto &f : m.functions)
    if (f->name == kernelName)
      kernel = f.get();
  SourceLoc top{1, 1};
  try {
    for (auto &[broken, diag] : m.brokenFunctions)
      if (!kernel && broken == kernelName)
        throw CompileError(diag);
    if (!kernel)
      em.error(top, "no function named '" + kernelName + "' in " + m.file->path());
    if (!em.mainModule->functions.count(kernelName))
      em.error(kernel->nameLoc, "'" + kernelName +
                                    "' is not decorated with @triton.jit");
    if (specs.size() != kernel->params.size())
      em.error(kernel->nameLoc,
               "signature has " + std::to_string(specs.size()) +
                   (specs.size() == 1 ? " entry" : " entries") + " but kernel '" +
                   kernelName + "' has " + std::to_string(kernel->params.size()) +
                   (kernel->params.size() == 1 ? " parameter" : " parameters"));
    em.module = ModuleOp::create(em.loc(top));
    result.module = em.module;
    em.b.setInsertionPointToEnd(em.module.getBody());
    SmallVector<Type> argTypes;
    std::vector<DType> dtypes;
    std::vector<int> divisibility;
    // Runtime leaves (depth first through tuples) become the arguments.
    std::function<void(const ParamSpec &)> collect = [&](const ParamSpec &s) {
      if (s.kind == ParamSpec::Tuple) {
        for (auto &e : s.elems)
          collect(e);
        return;
      }
      auto add = [&](DType d, int div) {
        dtypes.push_back(d);
        argTypes.push_back(d.toMlir(&ctx));
        divisibility.push_back(div);
      };
      if (s.kind == ParamSpec::Descriptor) {
        // base, shape[rank], strides[rank - 1] (the last is 1). A host
        // descriptor's base is 16-byte aligned and its strides multiples
        // of 16 bytes (the launch checks both, as Triton requires).
        DType e;
        DType::fromSigName(s.type, e);
        add(e.pointerTo(), 16);
        for (size_t k = 0; k < s.block.size(); ++k)
          add(DType::I64, s.divisibility);
        int strideDiv = std::max(1, 16 / int(std::max(8u, e.bits()) / 8));
        for (size_t k = 0; k + 1 < s.block.size(); ++k)
          add(DType::I64, strideDiv);
        return;
      }
      if (s.kind != ParamSpec::Runtime || s.equalsOne)
        return;
      DType d;
      DType::fromSigName(s.type, d);
      add(d, s.divisibility);
    };
    std::function<bool(const ParamSpec &)> hasRuntime = [&](const ParamSpec &s) {
      if (s.kind == ParamSpec::Tuple)
        return std::any_of(s.elems.begin(), s.elems.end(), hasRuntime);
      return s.kind == ParamSpec::Runtime || s.kind == ParamSpec::Descriptor;
    };
    for (size_t i = 0; i < specs.size(); ++i) {
      auto &p = kernel->params[i];
      auto &s = specs[i];
      if (hasRuntime(s) && namesConstexpr(p.annotation.get()))
        em.error(p.loc, "parameter '" + p.name +
                            "' is tl.constexpr but the signature gives the "
                            "runtime type '" + (s.kind == ParamSpec::Tuple ? "tuple" : s.type) +
                            "'; give a value instead");
      collect(s);
    }
    auto func = func::FuncOp::create(em.b, em.loc(kernel->nameLoc), kernelName,
                                     em.b.getFunctionType(argTypes, {}));
    func->setAttr("tile.kernel", em.b.getUnitAttr());
    func->setAttr("tile.num_warps", em.b.getI32IntegerAttr(options.numWarps));
    mlir::Block *entry = func.addEntryBlock();
    em.b.setInsertionPointToStart(entry);
    Emitter::Scope scope;
    unsigned argNo = 0;
    std::function<TValue(const ParamSpec &, SourceLoc)> bindSpec = [&](const ParamSpec &s,
                                                                     SourceLoc where) {
      if (s.kind == ParamSpec::Tuple) {
        std::vector<TValue> elems;
        for (auto &e : s.elems)
          elems.push_back(bindSpec(e, where));
        return TValue::tuple(std::move(elems));
      }
      if (s.kind == ParamSpec::Descriptor) {
        auto next = [&] {
          if (divisibility[argNo] > 1)
            func.setArgAttr(argNo, "tile.divisibility",
                            em.b.getI32IntegerAttr(divisibility[argNo]));
          TValue v = TValue::tensor(entry->getArgument(argNo), dtypes[argNo], {});
          ++argNo;
          return v;
        };
        TValue base = next();
        std::vector<TValue> shape, strides, block;
        for (size_t k = 0; k < s.block.size(); ++k)
          shape.push_back(next());
        for (size_t k = 0; k + 1 < s.block.size(); ++k)
          strides.push_back(next());
        strides.push_back(TValue::integer(1));
        for (int64_t b : s.block)
          block.push_back(TValue::integer(b));
        return callBuiltin(em, "tl.make_tensor_descriptor",
                           {base, TValue::tuple(shape), TValue::tuple(strides),
                            TValue::tuple(block), TValue::str(s.padding)},
                           where);
      }
      if (s.kind == ParamSpec::Constexpr) {
        // "@jit:module.name": a @jit function given as a compile-time
        // argument, named where the compiler's modules define it.
        if (s.value.rfind("@jit:", 0) == 0) {
          std::string q = s.value.substr(5);
          TValue f = q.find('.') == std::string::npos ? em.lookup(q, where)
                                                      : em.resolveQualified(q, where);
          if (f.kind != TValue::Function)
            em.error(where, "'" + q + "' given for this parameter is not a @jit function");
          return f;
        }
        return parseConstexprLiteral(s.value);
      }
      if (s.equalsOne)
        return TValue::integer(1);
      if (divisibility[argNo] > 1)
        func.setArgAttr(argNo, "tile.divisibility",
                        em.b.getI32IntegerAttr(divisibility[argNo]));
      TValue v = TValue::tensor(entry->getArgument(argNo), dtypes[argNo], {});
      ++argNo;
      return v;
    };
    for (size_t i = 0; i < specs.size(); ++i) {
      TValue v = bindSpec(specs[i], kernel->params[i].loc);
      // `p: tl.const` makes a pointer parameter read-only.
      const Expr *annotation = kernel->params[i].annotation.get();
      std::string ann = annotation ? dottedName(annotation) : "";
      bool isConstAnn = ann == "const" ||
                        (ann.size() > 6 && ann.compare(ann.size() - 6, 6, ".const") == 0);
      if (isConstAnn && v.isTensor() && v.dtype.isPtr())
        v.dtype.isConst = true;
      scope[kernel->params[i].name] = v;
      em.nameLeaves(kernel->params[i].name, v, kernel->params[i].loc);
    }
    em.scopes.push_back(scope);
    em.callStack.push_back(kernel);
    em.emitFunctionBody(*kernel);
    auto ret = em.scopes.back().find("$ret");
    if (ret != em.scopes.back().end() && ret->second.kind != TValue::None)
      em.error(kernel->nameLoc, "kernel '" + kernelName +
                                    "' returns a value; kernels must return None");
    func::ReturnOp::create(em.b, em.loc(kernel->range.end));
  } catch (CompileError &e) {
    result.errors.push_back(e.diag);
    result.module = nullptr;
    return result;
  } catch (std::exception &e) {
    // A frontend bug: still a located message, never a crash.
    result.errors.push_back(makeDiagnostic(
        *m.file, em.cur.valid() ? em.cur : top,
        std::string("internal compiler error: ") + e.what()));
    result.module = nullptr;
    return result;
  }
  result.staticPrints = em.staticPrints;
  applyHintsToValues(*result.module);
  // Verify: a failure here is a frontend bug, reported at the op's location.
  std::string messages;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      messages += "internal error: generated IR does not verify: " + d.str() + "\n";
      if (auto fl = tritium::fileLocOf(d.getLocation()))
        messages += "  at " + fl.getFilename().str() + ":" +
                    std::to_string(fl.getLine()) + "\n";
      return success();
    });
    if (failed(verify(*result.module))) {
      tritium::fe::Diagnostic diag;
      diag.path = m.file->path();
      diag.loc = kernel->nameLoc;
      diag.message = messages;
      result.errors.push_back(diag);
      result.module = nullptr;
    }
  }
  return result;
}
} // namespace

std::optional<std::string> tritium::fe::optimizeTileModule(ModuleOp module) {
  std::string what = "module";
  for (auto f : module.getOps<mlir::func::FuncOp>())
    if (f.isPublic())
      what = f.getName().str();
  StageGuard guard("tile passes", what);
  std::string messages;
  ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic &d) {
    messages += d.str() + "\n";
    return success();
  });
  PassManager pm(module.getContext());
  tile::buildTileOptimizePipeline(pm);
  if (failed(pm.run(module)))
    return messages.empty() ? std::string("tile pipeline failed") : messages;
  // fp8 arithmetic in fp32, for every executor alike.
  tile::widenFp8Arithmetic(module);
  if (auto err = guard.error())
    return *err + "\n";
  return std::nullopt;
}

//===- IRGenNames.cpp - modules and name resolution -----------------------===//
//
// How IRGen finds what a name means, the way Python would: locals, then the
// top-level names of the module the code is in (@jit functions, constexpr
// globals, imports, star imports), then Python builtins. Imports of
// triton / triton.language / math become builtin namespaces; imports of
// modules registered in the ModuleSet (frontend/Modules.h) reach their own
// top-level names, parsed on first use, so helpers and constexprs may live in
// other files. A name inside a helper resolves in the helper's own module.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

using namespace tritium::fe;

//===----------------------------------------------------------------------===//
// Module contexts
//===----------------------------------------------------------------------===//

std::string ModuleContext::describe() const {
  return name.empty() ? "'" + file().path() + "'" : "module '" + name + "'";
}

void Emitter::initModule(ModuleContext &mc) {
  const Module &m = *mc.ast;
  for (auto &imp : m.imports) {
    // Relative imports become absolute here, against the module's package;
    // without one they stay relative and resolve to nothing.
    std::string q = resolveRelativeImport(imp.qualified, mc.package)
                        .value_or(imp.qualified);
    if (imp.localName == "*")
      mc.starImports.push_back(q);
    else
      mc.imports[imp.localName] = q;
  }
  for (auto &g : m.globals)
    mc.globals[g.name] = &g;
  for (auto &f : m.functions) {
    FunctionInfo info;
    info.def = f.get();
    info.module = &mc;
    bool jit = false;
    for (auto &d : f->decorators) {
      const Expr *e = d.get();
      if (e->kind == ExprKind::Call) {
        auto *c = static_cast<const CallExpr *>(e);
        for (auto &kw : c->keywords)
          if (kw.name == "noinline" && kw.value->kind == ExprKind::Bool &&
              static_cast<const BoolExpr *>(kw.value.get())->value)
            info.noinline = true;
        e = c->func.get();
      }
      std::string name = dottedName(e);
      size_t dot = name.find('.');
      std::string head = name.substr(0, dot);
      auto it = mc.imports.find(head);
      if (it != mc.imports.end())
        name = it->second + (dot == std::string::npos ? "" : name.substr(dot));
      if (name == "triton.jit" || name == "triton.runtime.jit" ||
          name == "triton.runtime.jit.jit" ||
          name == "triton.runtime.jit.JITFunction")
        jit = true;
      if (name == "triton.constexpr_function" ||
          name == "triton.language.core.constexpr_function") {
        jit = true;
        info.constexprFn = true;
      }
    }
    if (jit)
      mc.functions[f->name] = info;
  }
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Canonical spelling of a module path: "triton.language" -> "tl".
static std::string canonicalModule(const std::string &q) {
  static const std::pair<const char *, const char *> map[] = {
      {"triton.language.extra.cuda.libdevice", "libdevice"},
      {"tl.extra.cuda.libdevice", "libdevice"},
      {"tl.extra.libdevice", "libdevice"},
      {"triton.language.extra.libdevice", "libdevice"},
      {"triton.language.extra.cuda", "tl.extra.cuda"},
      {"triton.language.extra", "tl.extra"},
      {"triton.language.math", "tl.math"},
      {"triton.language.core", "tl"},
      {"triton.language.standard", "tl"},
      {"triton.language.random", "tl"},
      {"triton.language", "tl"},
      {"tl.core", "tl"},
      {"tl.standard", "tl"},
      {"tl.random", "tl"},
  };
  for (auto &[from, to] : map)
    if (q == from)
      return to;
  if (q.rfind("triton.language.", 0) == 0)
    return "tl." + q.substr(16);
  return q;
}

static bool isKnownModule(const std::string &c) {
  return c == "tl" || c == "tl.math" || c == "tl.PropagateNan" ||
         c == "libdevice" || c == "tl.extra" || c == "tl.extra.cuda" ||
         c == "triton" || c == "triton.language" || c == "math";
}

ModuleContext *Emitter::moduleContext(const std::string &name, SourceLoc use) {
  auto it = moduleContexts.find(name);
  if (it != moduleContexts.end())
    return it->second.get();
  if (!moduleSet || !moduleSet->contains(name))
    return nullptr;
  const ParseResult *parsed = moduleSet->parsed(name);
  if (!parsed->errors.empty()) {
    tritium::fe::Diagnostic diag = parsed->errors.front();
    const SourceFile &at = use.file ? *use.file : file();
    diag.notes.push_back("in module '" + name +
                         "', imported by the kernel's "
                         "code at " +
                         at.path() + ":" + std::to_string(use.line) + ":" +
                         std::to_string(use.col));
    throw CompileError(diag);
  }
  auto mc = std::make_unique<ModuleContext>();
  mc->name = name;
  mc->package = moduleSet->packageOf(name);
  mc->ast = parsed->module.get();
  initModule(*mc);
  return (moduleContexts[name] = std::move(mc)).get();
}

std::optional<TValue> Emitter::lookupInModule(ModuleContext &m,
                                              const std::string &name,
                                              SourceLoc l) {
  auto inProgress = [&](const ModuleContext *mc) {
    for (auto &[rm, rn] : resolving)
      if (rm == mc && rn == name)
        return true;
    return false;
  };
  if (inProgress(&m))
    error(l, "'" + name + "' of " + m.describe() +
                 " is defined in terms of itself (through module globals or "
                 "imports)");
  resolving.emplace_back(&m, name);
  struct Pop {
    std::vector<std::pair<const ModuleContext *, std::string>> &v;
    ~Pop() { v.pop_back(); }
  } pop{resolving};

  auto f = m.functions.find(name);
  if (f != m.functions.end()) {
    TValue v;
    v.kind = TValue::Function;
    v.fn = &f->second;
    return v;
  }
  auto g = m.globals.find(name);
  if (g != m.globals.end())
    return evalGlobal(m, *g->second, l);
  auto imp = m.imports.find(name);
  if (imp != m.imports.end())
    return resolveQualified(imp->second, l);
  for (auto &star : m.starImports) {
    // `from helpers import *`: the public names of a registered module.
    if (ModuleContext *sm = moduleContext(star, l)) {
      if (name[0] == '_' || inProgress(sm))
        continue; // private, or a star-import cycle already being searched
      if (auto v = lookupInModule(*sm, name, l))
        return v;
      continue;
    }
    // `from triton.language import *` brings in every tl name.
    std::string c = canonicalModule(star + "." + name);
    DType d;
    if (c.rfind("tl.", 0) == 0 && DType::fromTlName(c.substr(3), d))
      return TValue::type(d);
    if (builtinTable().count(c) || isKnownModule(c))
      return resolveQualified(star + "." + name, l);
  }
  return std::nullopt;
}

void Emitter::missingName(ModuleContext &m, const std::string &name,
                          SourceLoc l, bool attribute) {
  for (auto &[broken, diag] : m.ast->brokenFunctions)
    if (broken == name)
      throw CompileError(diag); // its syntax error is the real problem
  std::string shown = attribute ? m.name + "." + name : name;
  for (auto &fn : m.ast->functions)
    if (fn->name == name)
      error(l, "'" + shown +
                   "' is not a @triton.jit function, so kernels "
                   "cannot call it");
  if (attribute)
    error(l, "module '" + m.name +
                 "' has no jit function or constexpr named '" + name + "'");
  error(l, "undefined name '" + name + "'");
}

TValue Emitter::resolveQualified(const std::string &qualified, SourceLoc l) {
  std::string c = canonicalModule(qualified);
  if (isKnownModule(c))
    return TValue::module(c);
  // tl.<dtype>
  if (c.rfind("tl.", 0) == 0) {
    DType d;
    if (DType::fromTlName(c.substr(3), d))
      return TValue::type(d);
    if (c == "tl.pi32_t") // Triton's pointer_type(int32)
      return TValue::type(DType(DType::I32, 1));
  }
  if (builtinTable().count(c))
    return TValue::builtin(c);
  // A registered module, or a name inside one: the longest registered
  // prefix is the module, the next component a name defined in it, and any
  // further components attributes of that.
  if (moduleSet && !qualified.empty() && qualified[0] != '.') {
    if (moduleContext(qualified, l))
      return TValue::module(qualified);
    for (size_t dot = qualified.rfind('.'); dot != std::string::npos && dot > 0;
         dot = qualified.rfind('.', dot - 1)) {
      ModuleContext *m = moduleContext(qualified.substr(0, dot), l);
      if (!m)
        continue;
      std::string rest = qualified.substr(dot + 1);
      size_t next = rest.find('.');
      std::string first = rest.substr(0, next);
      std::optional<TValue> v = lookupInModule(*m, first, l);
      if (!v)
        missingName(*m, first, l, /*attribute=*/true);
      TValue r = *v;
      while (next != std::string::npos) {
        size_t start = next + 1;
        next = rest.find('.', start);
        r = getAttr(r,
                    rest.substr(start, next == std::string::npos
                                           ? std::string::npos
                                           : next - start),
                    l);
      }
      return r;
    }
  }
  size_t dot = c.rfind('.');
  std::string mod = dot == std::string::npos ? "" : c.substr(0, dot);
  if (isKnownModule(mod))
    error(l, "module '" + mod + "' has no attribute '" + c.substr(dot + 1) +
                 "' that tritium supports");
  // Some other Python module: only usable if it names nothing in a kernel.
  return TValue::module(c);
}

/// Whether a module-level assignment declares a constexpr: `X =
/// tl.constexpr(v)` or `X: tl.constexpr = v`.
static bool isConstexprGlobal(const GlobalAssign &g) {
  if (namesConstexpr(g.annotation.get()))
    return true;
  if (g.value->kind == ExprKind::Call)
    return namesConstexpr(static_cast<const CallExpr &>(*g.value).func.get());
  return false;
}

TValue Emitter::evalGlobal(ModuleContext &m, const GlobalAssign &g,
                           SourceLoc use) {
  // Module-level values: constexprs, dtypes, modules and functions (Triton
  // reads no other globals).
  auto isTritonValue = [](const TValue &v) {
    return v.kind == TValue::Type || v.kind == TValue::Builtin ||
           v.kind == TValue::Module || v.kind == TValue::Function;
  };
  bool declared = isConstexprGlobal(g);
  if (!declared && g.value->kind != ExprKind::Name &&
      g.value->kind != ExprKind::Attribute)
    error(use, "cannot read global variable '" + g.name +
                   "' in a @jit function: kernels can only read globals "
                   "declared as constexpr ('" +
                   g.name + " = tl.constexpr(...)' or '" + g.name +
                   ": tl.constexpr = ...')");
  // The value is evaluated where it was written: in its own module.
  ModuleSwitch in(*this, &m);
  std::vector<Scope> saved;
  saved.swap(scopes);
  scopes.emplace_back();
  TValue v;
  try {
    v = eval(*g.value);
  } catch (...) {
    scopes.swap(saved);
    throw;
  }
  scopes.swap(saved);
  if (!declared && !isTritonValue(v))
    error(use, "cannot read global variable '" + g.name +
                   "' in a @jit function: kernels can only read globals "
                   "declared as constexpr ('" +
                   g.name + " = tl.constexpr(...)' or '" + g.name +
                   ": tl.constexpr = ...')");
  if (v.isTensor())
    error(g.loc, "global '" + g.name +
                     "' must be a compile-time value "
                     "(tl.constexpr) to be used in a kernel");
  return v;
}

TValue Emitter::lookup(const std::string &name, SourceLoc l) {
  if (!scopes.empty()) {
    auto &s = scopes.back();
    auto it = s.find(name);
    if (it != s.end())
      return it->second;
  }
  if (std::optional<TValue> v = lookupInModule(*curModule, name, l))
    return *v;
  static const char *pyBuiltins[] = {
      "min", "max", "print",      "range", "float",   "int",     "bool",
      "len", "abs", "isinstance", "tuple", "getattr", "hasattr", "str"};
  for (const char *p : pyBuiltins)
    if (name == p)
      return TValue::builtin(name);
  missingName(*curModule, name, l, /*attribute=*/false);
}

//===- KernelSource.cpp - a kernel's source, parameters and compile ------===//
//
// Parsing a kernel file, classifying its parameters and compiling one
// specialization: the steps every launcher (CLI, C++ API) takes before the
// interpreter runs the kernel.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelSource.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tritium;
using namespace tritium::fe;

namespace {
std::string dotted(const Expr *e) {
  if (e->kind == ExprKind::Name)
    return static_cast<const NameExpr *>(e)->id;
  if (e->kind == ExprKind::Attribute) {
    auto *a = static_cast<const AttributeExpr *>(e);
    std::string base = dotted(a->value.get());
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}

bool isConstexprParam(const Param &p) {
  return p.annotation && dotted(p.annotation.get()).find("constexpr") != std::string::npos;
}

std::string renderAll(const std::vector<Diagnostic> &diags) {
  std::string out;
  for (auto &d : diags)
    out += d.render();
  return out;
}
} // namespace

std::optional<std::string> rt::literalOf(const Expr *e) {
  switch (e->kind) {
  case ExprKind::Int: {
    auto *i = static_cast<const IntExpr *>(e);
    if (i->overflow)
      return std::nullopt;
    return std::to_string(i->value);
  }
  case ExprKind::Float: {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", static_cast<const FloatExpr *>(e)->value);
    std::string s = buf;
    if (s.find_first_of(".eni") == std::string::npos)
      s += ".0";
    return s;
  }
  case ExprKind::Bool:
    return std::string(static_cast<const BoolExpr *>(e)->value ? "True" : "False");
  case ExprKind::None:
    return std::string("None");
  case ExprKind::Str:
    return "'" + static_cast<const StrExpr *>(e)->value + "'";
  case ExprKind::UnaryOp: {
    auto *u = static_cast<const UnaryOpExpr *>(e);
    if (u->op != UnaryOpKind::Neg)
      return std::nullopt;
    auto inner = literalOf(u->operand.get());
    if (!inner || (*inner)[0] == '-' || (*inner)[0] == '\'')
      return std::nullopt;
    return "-" + *inner;
  }
  case ExprKind::Attribute: // tl.float16
    return static_cast<const AttributeExpr *>(e)->attr;
  default:
    return std::nullopt;
  }
}

std::string rt::KernelSource::paramList() const {
  std::string list;
  for (auto &p : params)
    list += (list.empty() ? "" : ", ") + p.name;
  return list;
}

std::optional<rt::SourceError> rt::loadKernelSource(const std::string &file,
                                                    const std::string *text,
                                                    const std::string &kernel,
                                                    KernelSource &out) {
  std::string contents;
  if (!text) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
      return SourceError{"cannot open '" + file + "'"};
    std::stringstream ss;
    ss << in.rdbuf();
    contents = ss.str();
    text = &contents;
  }
  out.file = file;
  out.kernel = kernel;
  out.parsed = parseSource(file, *text);
  if (!out.parsed.errors.empty())
    return SourceError{renderAll(out.parsed.errors), true};
  for (auto &[name, diag] : out.parsed.skippedFunctions)
    if (name == kernel)
      return SourceError{diag.render(), true};
  out.fn = nullptr;
  for (auto &f : out.parsed.module->functions)
    if (f->name == kernel)
      out.fn = f.get();
  if (!out.fn)
    return SourceError{"no function named '" + kernel + "' in " + file};
  out.params.clear();
  for (auto &p : out.fn->params) {
    KernelParam kp;
    kp.name = p.name;
    kp.isConstexpr = isConstexprParam(p);
    kp.isVariadic = p.isVarArgs || p.isKwArgs;
    if (p.defaultValue)
      kp.defaultLiteral = literalOf(p.defaultValue.get());
    out.params.push_back(std::move(kp));
  }
  return std::nullopt;
}

std::optional<rt::SourceError>
rt::compileSpecialization(mlir::MLIRContext &ctx, const KernelSource &src,
                          const std::string &signature, const CompileOptions &options,
                          CompiledKernel &out) {
  std::vector<ParamSpec> specs;
  if (auto err = parseSignature(signature, specs))
    return SourceError{"specialization '" + signature + "': " + *err};
  CompileResult r = compileKernel(ctx, *src.parsed.module, src.kernel, specs, options,
                                  src.modules.empty() ? nullptr : &src.modules);
  out.staticPrints = r.staticPrints;
  if (!r.ok()) {
    if (r.errors.empty())
      return SourceError{"compiling '" + src.kernel + "' produced no module"};
    return SourceError{renderAll(r.errors), true};
  }
  if (auto err = optimizeTileModule(*r.module))
    return SourceError{*err};
  out.module = std::move(r.module);
  return std::nullopt;
}

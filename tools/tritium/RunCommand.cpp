//===- RunCommand.cpp - `tritium run`: compile and launch a kernel -------===//
//
// Binds command-line values to the kernel's parameters, specializes exactly
// as Triton's launcher does, compiles through the frontend and the tile
// pipeline, and launches on the interpreter (when this build has it).
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunCommand.h"

#include "frontend/IRGen.h"
#include "frontend/Parser.h"

#include "mlir/IR/MLIRContext.h"

#ifdef TRITIUM_HAVE_INTERPRETER
#include "interpreter/Interpreter.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace tritium;
using namespace tritium::run;
using namespace tritium::fe;

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string errorLine(const std::string &msg) { return "tritium: error: " + msg + "\n"; }

/// An interpreter RunError as printed: one error line, then any detail.
[[maybe_unused]] std::string runErrorText(const std::string &msg) {
  if (!msg.empty() && msg.back() == '\n')
    return "tritium: error: " + msg;
  return errorLine(msg);
}

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

/// A parameter's default value as a signature literal, when it is one.
std::optional<std::string> defaultLiteral(const Expr *e) {
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
    auto inner = defaultLiteral(u->operand.get());
    if (!inner || (*inner)[0] == '-' || (*inner)[0] == '\'')
      return std::nullopt;
    return "-" + *inner;
  }
  case ExprKind::Attribute: { // tl.float16
    auto *a = static_cast<const AttributeExpr *>(e);
    return a->attr;
  }
  default:
    return std::nullopt;
  }
}
} // namespace

bool tritium::run::interpreterAvailable() {
#ifdef TRITIUM_HAVE_INTERPRETER
  return true;
#else
  return false;
#endif
}

std::optional<std::string> tritium::run::compileAndLaunch(const LaunchSpec &spec,
                                                          std::vector<HostValue> &args,
                                                          LaunchReport &report) {
  auto t0 = Clock::now();
  std::string text = spec.source;
  if (text.empty()) {
    std::ifstream in(spec.file, std::ios::binary);
    if (!in)
      return errorLine("cannot open '" + spec.file + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  ParseResult parsed = parseSource(spec.file, text);
  if (!parsed.errors.empty()) {
    std::string out;
    for (auto &d : parsed.errors)
      out += d.render();
    return out;
  }
  for (auto &[name, diag] : parsed.skippedFunctions)
    if (name == spec.kernel)
      return diag.render();
  const FunctionDef *fn = nullptr;
  for (auto &f : parsed.module->functions)
    if (f->name == spec.kernel)
      fn = f.get();
  if (!fn)
    return errorLine("no function named '" + spec.kernel + "' in " + spec.file);

  // Bind every parameter: constexprs by value, the others by host value.
  std::string paramList;
  for (auto &p : fn->params)
    paramList += (paramList.empty() ? "" : ", ") + p.name;
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &n = args[i].name;
    auto it = std::find_if(fn->params.begin(), fn->params.end(),
                           [&](const Param &p) { return p.name == n; });
    if (it == fn->params.end())
      return errorLine("--arg " + n + ": kernel '" + spec.kernel +
                       "' has no parameter '" + n + "' (its parameters: " + paramList + ")");
    if (isConstexprParam(*it))
      return errorLine("--arg " + n + ": '" + n +
                       "' is a tl.constexpr parameter; give it with --constexpr " + n +
                       "=VALUE");
    if (!byName.emplace(n, i).second)
      return errorLine("--arg " + n + " is given twice");
  }
  for (auto &[n, v] : spec.constexprs) {
    auto it = std::find_if(fn->params.begin(), fn->params.end(),
                           [&](const Param &p) { return p.name == n; });
    if (it == fn->params.end())
      return errorLine("--constexpr " + n + ": kernel '" + spec.kernel +
                       "' has no parameter '" + n + "' (its parameters: " + paramList + ")");
    if (!isConstexprParam(*it))
      return errorLine("--constexpr " + n + ": '" + n +
                       "' is not a tl.constexpr parameter; give it with --arg " + n +
                       "=VALUE");
    if (v.find(',') != std::string::npos)
      return errorLine("--constexpr " + n + "=" + v + ": values cannot contain ','");
  }
  std::vector<std::string> entries, missing;
  std::vector<size_t> order; // host values in func.func argument order
  for (auto &p : fn->params) {
    if (p.isVarArgs || p.isKwArgs)
      return errorLine("kernel '" + spec.kernel + "' has *args/**kwargs parameters, "
                       "which tritium run cannot bind");
    if (isConstexprParam(p)) {
      auto it = spec.constexprs.find(p.name);
      std::optional<std::string> lit;
      if (it != spec.constexprs.end())
        lit = it->second;
      else if (p.defaultValue)
        lit = defaultLiteral(p.defaultValue.get());
      if (!lit) {
        missing.push_back("--constexpr " + p.name + "=VALUE");
        continue;
      }
      entries.push_back(*lit);
      continue;
    }
    auto it = byName.find(p.name);
    if (it == byName.end()) {
      std::optional<std::string> lit =
          p.defaultValue ? defaultLiteral(p.defaultValue.get()) : std::nullopt;
      HostValue v;
      if (!lit || parseHostValue(p.name, *lit, 0, v)) {
        missing.push_back("--arg " + p.name + "=VALUE");
        continue;
      }
      args.push_back(std::move(v));
      it = byName.emplace(p.name, args.size() - 1).first;
    }
    const HostValue &v = args[it->second];
    entries.push_back(v.specialization());
    if (!v.folded())
      order.push_back(it->second);
  }
  if (!missing.empty()) {
    std::string list;
    for (auto &m : missing)
      list += (list.empty() ? "" : ", ") + m;
    return errorLine("kernel '" + spec.kernel + "' needs " + list);
  }
  std::string sig;
  for (auto &e : entries)
    sig += (sig.empty() ? "" : ",") + e;
  report.signature = sig;
  std::vector<ParamSpec> specs;
  if (auto err = parseSignature(sig, specs))
    return errorLine("specialization '" + sig + "': " + *err);

  mlir::MLIRContext ctx;
  CompileOptions copts;
  copts.numWarps = spec.numWarps;
  copts.debug = spec.debug;
  CompileResult r = compileKernel(ctx, *parsed.module, spec.kernel, specs, copts);
  report.staticPrints = r.staticPrints;
  if (!r.ok()) {
    std::string out;
    for (auto &d : r.errors)
      out += d.render();
    return out;
  }
  if (auto err = optimizeTileModule(*r.module))
    return errorLine(*err);
  report.compileMs = msSince(t0);
  if (spec.dryRun)
    return std::nullopt;

#ifdef TRITIUM_HAVE_INTERPRETER
  auto created = interp::Kernel::create(*r.module, spec.kernel);
  if (auto *e = std::get_if<interp::RunError>(&created))
    return runErrorText(e->message);
  auto &kernel = std::get<std::unique_ptr<interp::Kernel>>(created);
  std::vector<interp::Arg> iargs;
  for (size_t i : order) {
    HostValue &v = args[i];
    switch (v.kind) {
    case HostValue::Buffer:
      iargs.push_back(interp::Arg::buffer(v.array.data.data(), v.array.data.size(), v.name));
      break;
    case HostValue::Int:
    case HostValue::Bool:
      iargs.push_back(interp::Arg::integer(v.i));
      break;
    case HostValue::Float:
      iargs.push_back(interp::Arg::floating(v.f));
      break;
    }
  }
  interp::LaunchOptions lopts;
  lopts.grid = spec.grid;
  lopts.deterministic = spec.deterministic;
  lopts.threads = spec.threads;
  auto t1 = Clock::now();
  auto err = kernel->launch(iargs, lopts, &report.printed);
  report.launchMs = msSince(t1);
  report.launched = true;
  if (err)
    return runErrorText(err->message);
  return std::nullopt;
#else
  (void)order;
  return errorLine("this tritium was built without the interpreter "
                   "(interpreter/ is not built yet), so it cannot launch kernels; "
                   "--dry-run checks the arguments and compiles");
#endif
}

int tritium::run::runCommand(const RunOptions &o, std::ostream &out, std::ostream &err) {
  auto fail = [&](const std::string &msg) {
    err << "tritium: error: " << msg << "\n";
    return 1;
  };
  LaunchSpec spec;
  spec.file = o.file;
  spec.kernel = o.kernel;
  spec.numWarps = o.numWarps;
  spec.debug = o.debug;
  spec.deterministic = o.deterministic;
  spec.threads = o.threads;
  spec.dryRun = o.dryRun;
  if (auto e = parseGrid(o.grid, spec.grid))
    return fail(*e);
  for (auto &c : o.constexprs) {
    std::string name, value;
    if (auto e = splitAssignment("--constexpr", c, name, value))
      return fail(*e);
    if (!spec.constexprs.emplace(name, value).second)
      return fail("--constexpr " + name + " is given twice");
  }
  std::vector<HostValue> values;
  std::set<std::string> seen;
  for (auto &a : o.args) {
    std::string name, value;
    if (auto e = splitAssignment("--arg", a, name, value))
      return fail(*e);
    if (!seen.insert(name).second)
      return fail("--arg " + name + " is given twice");
    HostValue v;
    if (auto e = parseHostValue(name, value, o.seed, v))
      return fail(*e);
    values.push_back(std::move(v));
  }
  // --save / --check name buffers; check the references load before running.
  auto findBuffer = [&](const std::string &opt, const std::string &name,
                        std::optional<std::string> &e) -> size_t {
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i].name == name) {
        if (values[i].kind != HostValue::Buffer)
          e = opt + " " + name + ": '" + name + "' is a scalar, not a buffer";
        return i;
      }
    e = opt + " " + name + ": no buffer argument named '" + name + "'";
    return 0;
  };
  std::vector<std::pair<size_t, std::string>> saves;
  for (auto &s : o.saves) {
    std::string name, path;
    std::optional<std::string> e = splitAssignment("--save", s, name, path);
    size_t idx = e ? 0 : findBuffer("--save", name, e);
    if (e)
      return fail(*e);
    saves.emplace_back(idx, path);
  }
  struct Check {
    size_t index;
    std::string path;
    rt::NpyArray ref;
  };
  std::vector<Check> checks;
  for (auto &c : o.checks) {
    std::string name, path;
    std::optional<std::string> e = splitAssignment("--check", c, name, path);
    size_t idx = e ? 0 : findBuffer("--check", name, e);
    if (e)
      return fail(*e);
    Check chk{idx, path, {}};
    if (auto re = rt::readNpy(path, chk.ref))
      return fail("--check " + name + ": " + *re);
    checks.push_back(std::move(chk));
  }

  LaunchReport report;
  auto error = compileAndLaunch(spec, values, report);
  for (auto &p : report.staticPrints)
    err << p << "\n";
  if (!report.signature.empty())
    out << "kernel " << o.kernel << " grid [" << spec.grid[0] << ", " << spec.grid[1]
        << ", " << spec.grid[2] << "] signature " << report.signature << "\n";
  out << report.printed;
  if (error) {
    out.flush();
    err << *error;
    return 1;
  }
  char line[64];
  std::snprintf(line, sizeof(line), "compile: %.3f ms\n", report.compileMs);
  out << line;
  if (o.dryRun)
    return 0;
  std::snprintf(line, sizeof(line), "launch: %.3f ms\n", report.launchMs);
  out << line;
  // compileAndLaunch may append defaulted values, but never reorders ours.
  for (auto &[idx, path] : saves)
    if (auto e = rt::writeNpy(path, values[idx].array))
      return fail("--save " + values[idx].name + ": " + *e);
  bool ok = true;
  for (auto &c : checks) {
    const HostValue &v = values[c.index];
    Tolerance tol = defaultTolerance(*v.elem);
    if (o.rtol)
      tol.rtol = *o.rtol;
    if (o.atol)
      tol.atol = *o.atol;
    CheckResult r = compareWithReference(v, c.ref, c.path, tol);
    out << r.line << "\n";
    ok &= r.pass;
  }
  return ok ? 0 : 1;
}

//===- Emitter.h - the state and helpers shared by IRGen's files ----------===//
//
// Internal to the frontend. `Emitter` walks one kernel (and the `@jit`
// helpers it calls, in its file or in modules it imports): IRGen.cpp has
// the entry point and calls, IRGenNames.cpp modules and name resolution,
// IRGenStmt.cpp / IRGenExpr.cpp statements and expressions, Semantics.cpp
// Triton's typing rules (promotion, broadcasting, casts, operators),
// Builtins*.cpp the `tl.*` functions. Errors are raised as
// `CompileError` and caught at the entry point; no MLIR frame lies between
// the throw and the catch.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_EMITTER_H
#define TRITIUM_FRONTEND_EMITTER_H

#include "frontend/IRGen.h"
#include "frontend/Value.h"

#include "ir/TileDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace tritium::fe {

/// A located compile error.
struct CompileError : std::exception {
  Diagnostic diag;
  explicit CompileError(Diagnostic d) : diag(std::move(d)) {}
  const char *what() const noexcept override { return diag.message.c_str(); }
};

struct ModuleContext;

/// A `@jit` function of the kernel's file or of a module it imports.
struct FunctionInfo {
  const FunctionDef *def = nullptr;
  bool noinline = false;
  bool constexprFn = false; // @triton.constexpr_function: runs at compile time
  ModuleContext *module = nullptr; // where names in its body resolve
};

/// One Python module as name resolution sees it: its parsed file and its
/// top-level names. Names in a function body resolve in the module that
/// defines the function, as in Python.
struct ModuleContext {
  std::string name;    // dotted Python name; "" when the compiler was not told
  std::string package; // what relative imports resolve against
  const Module *ast = nullptr;
  std::map<std::string, FunctionInfo> functions; // its @jit functions
  std::map<std::string, const GlobalAssign *> globals;
  std::map<std::string, std::string> imports; // local name -> absolute name
  std::vector<std::string> starImports;       // `from X import *` modules
  const SourceFile &file() const { return *ast->file; }
  /// "module 'helpers'" or, for an unnamed kernel file, "'kernel.py'".
  std::string describe() const;
};

/// The evaluated arguments of a call, with the call's location.
struct CallArgs {
  std::vector<TValue> args;
  std::vector<std::pair<std::string, TValue>> kwargs;
  std::vector<SourceLoc> argLocs;
  std::vector<SourceLoc> kwLocs;
  SourceLoc loc;
  std::string name; // as the user spelled it: "tl.load", "x.to"
};

/// Arguments bound to a builtin's parameter list.
class BoundArgs {
public:
  /// Whether the argument was given (or has a non-None default).
  bool has(const std::string &name) const;
  const TValue &get(const std::string &name) const;
  SourceLoc loc(const std::string &name) const;
  const std::vector<TValue> &varargs() const { return varargs_; }

private:
  friend class Emitter;
  std::map<std::string, TValue> values_;
  std::map<std::string, SourceLoc> locs_;
  std::vector<TValue> varargs_;
};

class Emitter;
using BuiltinFn = std::function<TValue(Emitter &, CallArgs &)>;

/// The `tl.*` table, keyed by canonical name ("tl.load", "tl.math.exp",
/// "tensor.to" for methods, "min" for Python builtins).
const std::unordered_map<std::string, BuiltinFn> &builtinTable();

class Emitter {
public:
  Emitter(mlir::MLIRContext &ctx, const Module &module,
          const CompileOptions &options, const ModuleSet *modules);

  // --- Diagnostics and locations ------------------------------------------
  [[noreturn]] void error(SourceLoc loc, const std::string &message) const;
  mlir::Location loc(SourceLoc l) const;
  /// The location of the node being emitted (set by expression/statement
  /// walkers, used by helpers that are not handed one).
  SourceLoc cur;

  // --- Values ---------------------------------------------------------------
  TValue eval(const Expr &e);
  /// A list comprehension over compile-time tuples, unrolled: a tuple.
  TValue listComp(const ListCompExpr &e);
  TValue rangeTuple(const Expr &iter);
  /// A runtime value (scalar or block) from a constexpr or tensor; ints are
  /// typed by range (i32, u32, i64, u64), floats fp32, bools i1.
  TValue toTensor(const TValue &v, SourceLoc l);
  /// The dtype `toTensor` would give, without emitting anything.
  DType typeOf(const TValue &v, SourceLoc l);
  /// The constexpr int value of `v`, or an error saying what was given.
  int64_t requireInt(const TValue &v, SourceLoc l, const std::string &what);
  bool requireBool(const TValue &v, SourceLoc l, const std::string &what);
  std::string requireStr(const TValue &v, SourceLoc l, const std::string &what);
  DType requireDType(const TValue &v, SourceLoc l, const std::string &what);
  /// A list of constexpr ints from an int, tuple or list.
  std::vector<int64_t> requireShape(const TValue &v, SourceLoc l,
                                    const std::string &what);
  /// Checks Triton's block-shape rules (powers of two, ≤ 2^20 elements).
  void checkBlockShape(const std::vector<int64_t> &shape, SourceLoc l);
  /// Python truthiness of a constexpr.
  bool truthy(const TValue &v, SourceLoc l);

  // --- Semantics (Semantics.cpp) ------------------------------------------
  mlir::Type irType(DType d, const std::vector<int64_t> &shape);
  mlir::Value constInt(DType d, int64_t v, const std::vector<int64_t> &shape = {});
  mlir::Value constFloat(DType d, double v, const std::vector<int64_t> &shape = {});
  TValue splatTo(const TValue &scalar, const std::vector<int64_t> &shape);
  TValue broadcastTo(const TValue &v, const std::vector<int64_t> &shape, SourceLoc l);
  std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a,
                                       const std::vector<int64_t> &b, SourceLoc l);
  /// Makes both operands runtime values of one shape (NumPy rules).
  void broadcastPair(TValue &a, TValue &b, SourceLoc l);
  /// Triton's computation type of a binary arithmetic op.
  DType promote(const TValue &a, const TValue &b, BinOpKind op, SourceLoc l);
  TValue cast(const TValue &v, DType to, SourceLoc l, bool bitcast = false,
              const std::string &rounding = "");
  TValue binary(BinOpKind op, const TValue &a, const TValue &b, SourceLoc l);
  TValue compare(CmpOpKind op, const TValue &a, const TValue &b, SourceLoc l);
  TValue unary(UnaryOpKind op, const TValue &a, SourceLoc l);
  TValue logical(BoolOpKind op, const TValue &a, const TValue &b, SourceLoc l);
  /// tl.where(c, x, y) with broadcasting and promotion of x, y.
  TValue where(const TValue &c, const TValue &x, const TValue &y, SourceLoc l);
  /// Constexpr folding of Python operators; false when not both constexpr.
  bool foldBinary(BinOpKind op, const TValue &a, const TValue &b, SourceLoc l, TValue &out);
  bool foldCompare(CmpOpKind op, const TValue &a, const TValue &b, SourceLoc l, TValue &out);

  // --- Calls (IRGen.cpp) ----------------------------------------------------
  TValue callFunction(FunctionInfo &fn, CallArgs &args);
  /// Binds a call's arguments to `params` ("name", "name=default" with a
  /// Python literal default, "*args"); errors name the builtin and argument.
  BoundArgs bind(CallArgs &call, const std::vector<std::string> &params);
  /// Emits a reduce/scan combine region calling the @jit `combine` on
  /// `numOperands` scalar pairs of `elementTypes`.
  void emitCombineRegion(mlir::Region &region, const TValue &combine,
                         const std::vector<DType> &elementTypes, SourceLoc l,
                         bool isScan);

  mlir::MLIRContext &ctx;
  mlir::OpBuilder b;
  CompileOptions options;
  mlir::ModuleOp module;
  std::vector<std::string> staticPrints;

  // --- Internal state (IRGen.cpp) -------------------------------------------
  using Scope = std::map<std::string, TValue>;
  std::vector<Scope> scopes;          // one per function being emitted
  std::vector<const FunctionDef *> callStack;    // for recursion checks
  std::map<std::string, std::pair<mlir::func::FuncOp, TValue>> specializations;
  int uniqueCounter = 0;

  // --- Modules and names (IRGenNames.cpp) ----------------------------------
  const ModuleSet *moduleSet = nullptr;   // other modules' sources, if any
  ModuleContext *mainModule = nullptr;    // the kernel's file
  ModuleContext *curModule = nullptr;     // where bare names resolve now
  std::map<std::string, std::unique_ptr<ModuleContext>> moduleContexts;
  std::unique_ptr<ModuleContext> unnamedMain; // a kernel file with no name
  /// (module, name) pairs being resolved: a name that needs itself (through
  /// globals or imports, possibly across modules) is an error, not a loop.
  std::vector<std::pair<const ModuleContext *, std::string>> resolving;

  /// The file bare locations belong to: the module being emitted.
  const SourceFile &file() const { return curModule->file(); }
  /// Builds the name tables of a parsed module.
  void initModule(ModuleContext &m);
  /// The context of registered module `name`, parsed on first use; null
  /// when `name` is not registered.
  ModuleContext *moduleContext(const std::string &name, SourceLoc use);
  /// `name` at the top level of `m` (a @jit function, a constexpr global,
  /// an import, a star import); nullopt when `m` does not define it.
  std::optional<TValue> lookupInModule(ModuleContext &m, const std::string &name,
                                       SourceLoc l);
  /// Why `name` cannot be used from `m` (a broken def, a def that is not
  /// @jit, no such name); `attribute` for `m.name` rather than a bare name.
  [[noreturn]] void missingName(ModuleContext &m, const std::string &name,
                                SourceLoc l, bool attribute);

  TValue lookup(const std::string &name, SourceLoc l);
  TValue resolveQualified(const std::string &qualified, SourceLoc l);
  TValue evalGlobal(ModuleContext &m, const GlobalAssign &g, SourceLoc use);
  void emitFunctionBody(const FunctionDef &fn);
  void emitBlock(const Block &block, size_t begin = 0);
  void emitStmt(const Stmt &s, const Block &block, size_t index, bool &consumedRest);
  void assign(const Expr &target, const TValue &value);
  /// Gives the IR values of `v` the variable name `name` (ir/Names.h); a
  /// tuple's elements are named "name[i]". Block arguments (parameters)
  /// are placed at `at` first, when it is valid.
  void nameLeaves(const std::string &name, const TValue &v, SourceLoc at = {});
  /// Emits `s`; true when it also emitted the rest of its block (from
  /// `restBegin`), which happens when a branch may return.
  bool emitIf(const IfStmt &s, const Block *restBlock, size_t restBegin);
  /// Code that follows an if whose branch may return, still to be emitted
  /// by whichever branch falls through (innermost last).
  struct Continuation {
    const Block *block;
    size_t begin;
    bool consumed;
  };
  std::vector<Continuation> continuations;
  /// Inside a @triton.constexpr_function: loops over compile-time values
  /// run here, unrolled.
  int compileTimeDepth = 0;
  void emitRestChain(const Block &rest, size_t restBegin);
  void emitLoopBody(const Block &body);
  /// `body if cond else orelse` with a runtime scalar condition: an scf.if
  /// that evaluates one side.
  TValue emitIfExp(const TValue &cond, const Expr &body, const Expr &orelse, SourceLoc l);
  /// Joins what the two branches of `ifOp` leave bound (names that differ
  /// from `before`) into its results; `ternary` words type errors for a
  /// conditional expression.
  void mergeBranches(mlir::scf::IfOp ifOp, const Scope &before, Scope branchScopes[2],
                     SourceLoc where, bool ternary);
  /// A one-element block condition as its scalar element (else `cond`).
  TValue scalarCondition(const TValue &cond, SourceLoc l);
  void emitFor(const ForStmt &s);
  void emitWhile(const WhileStmt &s);
  TValue evalCall(const CallExpr &c);
  TValue evalAttribute(const AttributeExpr &e);
  TValue evalSubscript(const SubscriptExpr &e);
  TValue getAttr(const TValue &base, const std::string &attr, SourceLoc l);
  bool returned() const;
};

/// Makes `m` the module bare names resolve in, until the end of the scope.
class ModuleSwitch {
public:
  ModuleSwitch(Emitter &em, ModuleContext *m) : em_(em), saved_(em.curModule) {
    em.curModule = m;
  }
  ~ModuleSwitch() { em_.curModule = saved_; }
  ModuleSwitch(const ModuleSwitch &) = delete;
  ModuleSwitch &operator=(const ModuleSwitch &) = delete;

private:
  Emitter &em_;
  ModuleContext *saved_;
};

/// The dotted name of a Name/Attribute chain ("triton.jit"), or "".
std::string dottedName(const Expr *e);

/// Whether `e` names tl.constexpr (`constexpr`, `tl.constexpr`,
/// `triton.language.constexpr`, ...).
bool namesConstexpr(const Expr *e);

/// A compile-time value from its literal spelling: int (u64 from 2^63),
/// float, True/False, None, (), a tl dtype name, or a (quoted) string.
TValue parseConstexprLiteral(const std::string &s);

/// Names assigned anywhere in a block (targets of assignments, for loops).
void collectAssigned(const Block &block, std::vector<std::string> &out);

/// The variable counting the loops being emitted (IRGenStmt/IRGenLoop).
inline constexpr const char *kLoopDepth = "$loop";
/// Whether two values are the same (IR value, constexpr, structure).
bool sameValue(const TValue &a, const TValue &c);
/// The runtime leaves of a value, in order (IRGenStmt.cpp says which).
void leaves(const TValue &v, std::vector<TValue> &out);
/// `tmpl` with each runtime leaf replaced by `leaf(old leaf)`.
TValue rebuildLeaves(const TValue &tmpl, const std::function<TValue(const TValue &)> &leaf);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_EMITTER_H

//===- Ast.h - syntax tree of the Triton kernel subset of Python ----------===//
//
// Produced by the Parser, consumed by IRGen. Nodes own their children through
// unique_ptr and carry the source range they were parsed from, so every later
// error can point at the user's text. The tree covers the Python expression and
// statement forms that can appear in a kernel; constructs Triton does not
// support inside kernels (with, try, lambda, break, ...) are still parsed into
// nodes so IRGen can reject them with a located message.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_AST_H
#define TRITIUM_FRONTEND_AST_H

#include "frontend/Source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tritium::fe {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Name,      // x
  Int,       // 42, 0x2A, 0o52, 0b101010, 1_000
  Float,     // 1.0, 1e-3, .5, 1_0.5, inf/nan only via float('inf')
  Str,       // 'a' "a" '''a''' r'a' (adjacent literals concatenated)
  Bool,      // True / False
  None,      // None
  Ellipsis,  // ...
  Attribute, // value.attr
  Subscript, // value[index]
  Slice,     // lower:upper:step (only inside a subscript)
  Call,      // func(args, kw=v, *a, **k)
  BinOp,     // a + b
  UnaryOp,   // -a, +a, ~a, not a
  BoolOp,    // a and b and c / a or b
  Compare,   // a < b (chained: a < b < c)
  IfExp,     // a if c else b
  Tuple,     // (a, b) / a, b
  List,      // [a, b]
  ListComp,  // [elt for target in iter if cond ...]
  Starred,   // *a (in calls and tuple targets)
  Lambda,    // lambda ...: ... (parsed only to be rejected)
  Other,     // dict/set/comprehension/f-string/await/...: parsed, rejected
};

enum class BinOpKind {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul,
  LShift, RShift, BitAnd, BitOr, BitXor
};
enum class UnaryOpKind { Neg, Pos, Invert, Not };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Lt, Le, Gt, Ge, Eq, Ne, Is, IsNot, In, NotIn };

struct Expr {
  explicit Expr(ExprKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;
  ExprKind kind;
  SourceRange range;
  SourceLoc loc() const { return range.begin; }
};
using ExprPtr = std::unique_ptr<Expr>;

struct NameExpr : Expr {
  NameExpr(SourceRange r, std::string id) : Expr(ExprKind::Name, r), id(std::move(id)) {}
  std::string id;
};

struct IntExpr : Expr {
  IntExpr(SourceRange r) : Expr(ExprKind::Int, r) {}
  /// The value when it fits in 64 bits unsigned (Python ints are unbounded;
  /// anything larger sets `overflow` and IRGen reports it).
  uint64_t value = 0;
  bool overflow = false;
  std::string text; // literal as written
};

struct FloatExpr : Expr {
  FloatExpr(SourceRange r, double value) : Expr(ExprKind::Float, r), value(value) {}
  double value;
  bool imaginary = false; // 1j: parsed, rejected by IRGen
};

struct StrExpr : Expr {
  StrExpr(SourceRange r, std::string value) : Expr(ExprKind::Str, r), value(std::move(value)) {}
  std::string value; // escapes decoded (bytes literals too)
  bool isBytes = false;
  bool isFString = false; // f-strings: kept as raw text, rejected in kernels
};

struct BoolExpr : Expr {
  BoolExpr(SourceRange r, bool value) : Expr(ExprKind::Bool, r), value(value) {}
  bool value;
};

struct NoneExpr : Expr {
  explicit NoneExpr(SourceRange r) : Expr(ExprKind::None, r) {}
};

struct EllipsisExpr : Expr {
  explicit EllipsisExpr(SourceRange r) : Expr(ExprKind::Ellipsis, r) {}
};

struct AttributeExpr : Expr {
  AttributeExpr(SourceRange r, ExprPtr value, std::string attr)
      : Expr(ExprKind::Attribute, r), value(std::move(value)), attr(std::move(attr)) {}
  ExprPtr value;
  std::string attr;
  SourceLoc attrLoc; // location of the attribute name
};

struct SubscriptExpr : Expr {
  SubscriptExpr(SourceRange r, ExprPtr value, ExprPtr index)
      : Expr(ExprKind::Subscript, r), value(std::move(value)), index(std::move(index)) {}
  ExprPtr value;
  ExprPtr index; // a TupleExpr for x[a, b]; SliceExpr for ':'
};

struct SliceExpr : Expr {
  explicit SliceExpr(SourceRange r) : Expr(ExprKind::Slice, r) {}
  ExprPtr lower, upper, step; // each may be null
};

struct Keyword {
  std::string name; // empty for **kwargs
  ExprPtr value;
  SourceLoc loc;
};

struct CallExpr : Expr {
  CallExpr(SourceRange r, ExprPtr func) : Expr(ExprKind::Call, r), func(std::move(func)) {}
  ExprPtr func;
  std::vector<ExprPtr> args; // may contain StarredExpr
  std::vector<Keyword> keywords;
};

struct BinOpExpr : Expr {
  BinOpExpr(SourceRange r, BinOpKind op, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::BinOp, r), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinOpKind op;
  ExprPtr lhs, rhs;
  SourceLoc opLoc; // location of the operator token
};

struct UnaryOpExpr : Expr {
  UnaryOpExpr(SourceRange r, UnaryOpKind op, ExprPtr operand)
      : Expr(ExprKind::UnaryOp, r), op(op), operand(std::move(operand)) {}
  UnaryOpKind op;
  ExprPtr operand;
};

struct BoolOpExpr : Expr {
  BoolOpExpr(SourceRange r, BoolOpKind op) : Expr(ExprKind::BoolOp, r), op(op) {}
  BoolOpKind op;
  std::vector<ExprPtr> values; // at least two
};

struct CompareExpr : Expr {
  CompareExpr(SourceRange r, ExprPtr lhs) : Expr(ExprKind::Compare, r), lhs(std::move(lhs)) {}
  ExprPtr lhs;
  std::vector<CmpOpKind> ops;        // same length as comparators
  std::vector<ExprPtr> comparators;  // a < b < c: ops {Lt, Lt}, comparators {b, c}
  std::vector<SourceLoc> opLocs;
};

struct IfExpExpr : Expr {
  IfExpExpr(SourceRange r, ExprPtr test, ExprPtr body, ExprPtr orelse)
      : Expr(ExprKind::IfExp, r), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  ExprPtr test, body, orelse;
};

struct TupleExpr : Expr {
  explicit TupleExpr(SourceRange r) : Expr(ExprKind::Tuple, r) {}
  std::vector<ExprPtr> elts;
};

struct ListExpr : Expr {
  explicit ListExpr(SourceRange r) : Expr(ExprKind::List, r) {}
  std::vector<ExprPtr> elts;
};

/// A list comprehension; each clause is `for target in iter (if cond)*`,
/// the first outermost.
struct ListCompExpr : Expr {
  struct Clause {
    ExprPtr target, iter;
    std::vector<ExprPtr> ifs;
  };
  explicit ListCompExpr(SourceRange r) : Expr(ExprKind::ListComp, r) {}
  ExprPtr elt;
  std::vector<Clause> clauses;
};

struct StarredExpr : Expr {
  StarredExpr(SourceRange r, ExprPtr value, bool doubleStar = false)
      : Expr(ExprKind::Starred, r), value(std::move(value)), doubleStar(doubleStar) {}
  ExprPtr value;
  bool doubleStar;
};

struct LambdaExpr : Expr {
  explicit LambdaExpr(SourceRange r) : Expr(ExprKind::Lambda, r) {}
};

/// Any other Python expression form (dict, set, comprehension, f-string with
/// fields, await, yield, walrus, ...): kept only to be rejected by name.
struct OtherExpr : Expr {
  OtherExpr(SourceRange r, std::string what) : Expr(ExprKind::Other, r), what(std::move(what)) {}
  std::string what; // e.g. "dict display", "list comprehension"
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

enum class StmtKind {
  Expr,      // call(...)
  Assign,    // a = b = value; a, b = value
  AugAssign, // a += value
  AnnAssign, // a: T = value
  If,
  For,
  While,
  Return,
  Pass,
  Break,
  Continue,
  Assert,      // assert cond, msg
  FunctionDef, // nested def (rejected inside kernels)
  Unsupported, // with/try/raise/del/global/nonlocal/import/class/async/...
};

struct Stmt {
  Stmt(StmtKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  SourceRange range;
  SourceLoc loc() const { return range.begin; }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct ExprStmt : Stmt {
  ExprStmt(SourceRange r, ExprPtr value) : Stmt(StmtKind::Expr, r), value(std::move(value)) {}
  ExprPtr value;
};

struct AssignStmt : Stmt {
  explicit AssignStmt(SourceRange r) : Stmt(StmtKind::Assign, r) {}
  std::vector<ExprPtr> targets; // a = b = v has two targets
  ExprPtr value;
};

struct AugAssignStmt : Stmt {
  AugAssignStmt(SourceRange r, ExprPtr target, BinOpKind op, ExprPtr value)
      : Stmt(StmtKind::AugAssign, r), target(std::move(target)), op(op), value(std::move(value)) {}
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
};

struct AnnAssignStmt : Stmt {
  explicit AnnAssignStmt(SourceRange r) : Stmt(StmtKind::AnnAssign, r) {}
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value; // may be null
};

struct IfStmt : Stmt {
  explicit IfStmt(SourceRange r) : Stmt(StmtKind::If, r) {}
  ExprPtr test;
  Block body;
  Block orelse; // an elif is a single IfStmt in orelse
};

struct ForStmt : Stmt {
  explicit ForStmt(SourceRange r) : Stmt(StmtKind::For, r) {}
  ExprPtr target;
  ExprPtr iter;
  Block body;
  Block orelse; // for-else: rejected by IRGen when non-empty
};

struct WhileStmt : Stmt {
  explicit WhileStmt(SourceRange r) : Stmt(StmtKind::While, r) {}
  ExprPtr test;
  Block body;
  Block orelse;
};

struct ReturnStmt : Stmt {
  explicit ReturnStmt(SourceRange r) : Stmt(StmtKind::Return, r) {}
  ExprPtr value; // may be null; `return a, b` is a TupleExpr
};

struct SimpleStmt : Stmt { // pass / break / continue
  SimpleStmt(StmtKind k, SourceRange r) : Stmt(k, r) {}
};

struct AssertStmt : Stmt {
  explicit AssertStmt(SourceRange r) : Stmt(StmtKind::Assert, r) {}
  ExprPtr test;
  ExprPtr msg; // may be null
};

struct UnsupportedStmt : Stmt {
  UnsupportedStmt(SourceRange r, std::string what)
      : Stmt(StmtKind::Unsupported, r), what(std::move(what)) {}
  std::string what; // the keyword: "with", "try", "raise", "import", ...
};

struct Param {
  std::string name;
  ExprPtr annotation; // may be null
  ExprPtr defaultValue; // may be null
  SourceLoc loc;
  bool isVarArgs = false;   // *args
  bool isKwArgs = false;    // **kwargs
  bool isKeywordOnly = false;
};

struct FunctionDef : Stmt {
  explicit FunctionDef(SourceRange r) : Stmt(StmtKind::FunctionDef, r) {}
  std::string name;
  SourceLoc nameLoc;
  std::vector<ExprPtr> decorators;
  std::vector<Param> params;
  ExprPtr returns; // annotation, may be null
  Block body;
  std::string docstring; // first statement string, removed from body
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// `import a.b as c` / `from a.b import c as d` at module level, recorded so
/// IRGen can resolve `tl`, `triton`, `jit`, `libdevice`... by what they name.
struct ImportBinding {
  std::string localName;  // c / d; "*" for `from a.b import *`
  std::string qualified;  // "a.b" / "a.b.c"
  SourceLoc loc;
};

/// A module-level `NAME = expr` or `NAME: ann = expr` that parsed cleanly.
struct GlobalAssign {
  std::string name;
  ExprPtr annotation; // may be null
  ExprPtr value;
  SourceLoc loc;
};

struct Module {
  std::shared_ptr<SourceFile> file;
  std::vector<ImportBinding> imports;
  std::vector<GlobalAssign> globals;  // later assignments override earlier
  std::vector<std::unique_ptr<FunctionDef>> functions; // every top-level def
  /// Top-level defs that did not parse, with their syntax error: reported
  /// when a kernel is one of them or calls one.
  std::vector<std::pair<std::string, Diagnostic>> brokenFunctions;
};

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_AST_H

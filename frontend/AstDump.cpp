//===- AstDump.cpp - textual dump of the syntax tree ----------------------===//
//
// Implements AstDump.h with a small recursive printer. Every line is
//   <indent><role>: <Kind> <details> @line:col
// where the role is omitted for statements in a block. Floats print in
// their shortest round-trip form and strings with C-style escapes, so the
// output does not depend on the platform.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstDump.h"

#include <charconv>
#include <cstdio>

namespace tritium::fe {

namespace {

const char *binOpText(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mul:
    return "*";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::MatMul:
    return "@";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  case BinOpKind::BitAnd:
    return "&";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  }
  return "?";
}

const char *unaryOpText(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Neg:
    return "-";
  case UnaryOpKind::Pos:
    return "+";
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::Not:
    return "not";
  }
  return "?";
}

const char *cmpOpText(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::Le:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::Ge:
    return ">=";
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::Ne:
    return "!=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  return "?";
}

std::string locText(SourceLoc loc) {
  return "@" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

std::string quoted(const StrExpr &s) {
  std::string out = s.isBytes ? "b\"" : s.isFString ? "f\"" : "\"";
  for (unsigned char c : s.value) {
    switch (c) {
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '"':
      out += "\\\"";
      break;
    default:
      if (c < 0x20 || c == 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

std::string floatText(const FloatExpr &f) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f.value);
  std::string out = ec == std::errc() ? std::string(buf, end) : "?";
  return f.imaginary ? out + "j" : out;
}

std::string intText(const IntExpr &i) {
  if (i.overflow)
    return i.text + " overflow";
  std::string value = std::to_string(i.value);
  return i.text == value ? value : i.text + " (" + value + ")";
}

class Dumper {
public:
  std::string out;

  void line(unsigned indent, const std::string &text) {
    out.append(indent * 2, ' ');
    out += text;
    out += '\n';
  }

  void expr(unsigned indent, const std::string &role, const Expr &e);
  void stmt(unsigned indent, const Stmt &s);
  void block(unsigned indent, const std::string &role, const Block &b) {
    if (b.empty())
      return;
    line(indent, role + ":");
    for (const StmtPtr &s : b)
      stmt(indent + 1, *s);
  }
  void function(unsigned indent, const FunctionDef &fn);

private:
  void child(unsigned indent, const std::string &role, const ExprPtr &e) {
    if (e)
      expr(indent, role, *e);
  }
};

void Dumper::expr(unsigned indent, const std::string &role, const Expr &e) {
  std::string head = role.empty() ? "" : role + ": ";
  std::string at = " " + locText(e.loc());
  unsigned in = indent + 1;
  switch (e.kind) {
  case ExprKind::Name:
    return line(indent,
                head + "Name " + static_cast<const NameExpr &>(e).id + at);
  case ExprKind::Int:
    return line(indent,
                head + "Int " + intText(static_cast<const IntExpr &>(e)) + at);
  case ExprKind::Float:
    return line(indent, head + "Float " +
                            floatText(static_cast<const FloatExpr &>(e)) + at);
  case ExprKind::Str:
    return line(indent,
                head + "Str " + quoted(static_cast<const StrExpr &>(e)) + at);
  case ExprKind::Bool:
    return line(
        indent,
        head + "Bool " +
            (static_cast<const BoolExpr &>(e).value ? "True" : "False") + at);
  case ExprKind::None:
    return line(indent, head + "None" + at);
  case ExprKind::Ellipsis:
    return line(indent, head + "Ellipsis" + at);
  case ExprKind::Attribute: {
    const auto &a = static_cast<const AttributeExpr &>(e);
    line(indent, head + "Attribute ." + a.attr + at);
    return child(in, "value", a.value);
  }
  case ExprKind::Subscript: {
    const auto &s = static_cast<const SubscriptExpr &>(e);
    line(indent, head + "Subscript" + at);
    child(in, "value", s.value);
    return child(in, "index", s.index);
  }
  case ExprKind::Slice: {
    const auto &s = static_cast<const SliceExpr &>(e);
    line(indent, head + "Slice" + at);
    child(in, "lower", s.lower);
    child(in, "upper", s.upper);
    return child(in, "step", s.step);
  }
  case ExprKind::Call: {
    const auto &c = static_cast<const CallExpr &>(e);
    line(indent, head + "Call" + at);
    child(in, "func", c.func);
    for (const ExprPtr &arg : c.args)
      child(in, "arg", arg);
    for (const Keyword &kw : c.keywords)
      child(in, kw.name.empty() ? "keyword **" : "keyword " + kw.name,
            kw.value);
    return;
  }
  case ExprKind::BinOp: {
    const auto &b = static_cast<const BinOpExpr &>(e);
    line(indent, head + "BinOp " + binOpText(b.op) + at);
    child(in, "lhs", b.lhs);
    return child(in, "rhs", b.rhs);
  }
  case ExprKind::UnaryOp: {
    const auto &u = static_cast<const UnaryOpExpr &>(e);
    line(indent, head + "UnaryOp " + unaryOpText(u.op) + at);
    return child(in, "operand", u.operand);
  }
  case ExprKind::BoolOp: {
    const auto &b = static_cast<const BoolOpExpr &>(e);
    line(indent,
         head + "BoolOp " + (b.op == BoolOpKind::And ? "and" : "or") + at);
    for (const ExprPtr &v : b.values)
      child(in, "value", v);
    return;
  }
  case ExprKind::Compare: {
    const auto &c = static_cast<const CompareExpr &>(e);
    std::string ops;
    for (CmpOpKind op : c.ops)
      ops += std::string(" ") + cmpOpText(op);
    line(indent, head + "Compare" + ops + at);
    child(in, "lhs", c.lhs);
    for (const ExprPtr &rhs : c.comparators)
      child(in, "rhs", rhs);
    return;
  }
  case ExprKind::IfExp: {
    const auto &i = static_cast<const IfExpExpr &>(e);
    line(indent, head + "IfExp" + at);
    child(in, "test", i.test);
    child(in, "body", i.body);
    return child(in, "orelse", i.orelse);
  }
  case ExprKind::Tuple:
  case ExprKind::List: {
    bool isTuple = e.kind == ExprKind::Tuple;
    const auto &elts = isTuple ? static_cast<const TupleExpr &>(e).elts
                               : static_cast<const ListExpr &>(e).elts;
    line(indent, head + (isTuple ? "Tuple" : "List") + at);
    for (const ExprPtr &elt : elts)
      child(in, "elt", elt);
    return;
  }
  case ExprKind::ListComp: {
    const auto &c = static_cast<const ListCompExpr &>(e);
    line(indent, head + "ListComp" + at);
    child(in, "elt", c.elt);
    for (const auto &clause : c.clauses) {
      child(in, "target", clause.target);
      child(in, "iter", clause.iter);
      for (const ExprPtr &cond : clause.ifs)
        child(in, "if", cond);
    }
    return;
  }
  case ExprKind::Starred: {
    const auto &s = static_cast<const StarredExpr &>(e);
    line(indent, head + "Starred " + (s.doubleStar ? "**" : "*") + at);
    return child(in, "value", s.value);
  }
  case ExprKind::Lambda:
    return line(indent, head + "Lambda" + at);
  case ExprKind::Other:
    return line(indent,
                head + "Other " + static_cast<const OtherExpr &>(e).what + at);
  }
}

void Dumper::stmt(unsigned indent, const Stmt &s) {
  std::string at = " " + locText(s.loc());
  unsigned in = indent + 1;
  switch (s.kind) {
  case StmtKind::Expr:
    line(indent, "Expr" + at);
    return child(in, "value", static_cast<const ExprStmt &>(s).value);
  case StmtKind::Assign: {
    const auto &a = static_cast<const AssignStmt &>(s);
    line(indent, "Assign" + at);
    for (const ExprPtr &t : a.targets)
      child(in, "target", t);
    return child(in, "value", a.value);
  }
  case StmtKind::AugAssign: {
    const auto &a = static_cast<const AugAssignStmt &>(s);
    line(indent, std::string("AugAssign ") + binOpText(a.op) + "=" + at);
    child(in, "target", a.target);
    return child(in, "value", a.value);
  }
  case StmtKind::AnnAssign: {
    const auto &a = static_cast<const AnnAssignStmt &>(s);
    line(indent, "AnnAssign" + at);
    child(in, "target", a.target);
    child(in, "annotation", a.annotation);
    return child(in, "value", a.value);
  }
  case StmtKind::If: {
    const auto &i = static_cast<const IfStmt &>(s);
    line(indent, "If" + at);
    child(in, "test", i.test);
    block(in, "body", i.body);
    return block(in, "orelse", i.orelse);
  }
  case StmtKind::For: {
    const auto &f = static_cast<const ForStmt &>(s);
    line(indent, "For" + at);
    child(in, "target", f.target);
    child(in, "iter", f.iter);
    block(in, "body", f.body);
    return block(in, "orelse", f.orelse);
  }
  case StmtKind::While: {
    const auto &w = static_cast<const WhileStmt &>(s);
    line(indent, "While" + at);
    child(in, "test", w.test);
    block(in, "body", w.body);
    return block(in, "orelse", w.orelse);
  }
  case StmtKind::Return:
    line(indent, "Return" + at);
    return child(in, "value", static_cast<const ReturnStmt &>(s).value);
  case StmtKind::Pass:
    return line(indent, "Pass" + at);
  case StmtKind::Break:
    return line(indent, "Break" + at);
  case StmtKind::Continue:
    return line(indent, "Continue" + at);
  case StmtKind::Assert: {
    const auto &a = static_cast<const AssertStmt &>(s);
    line(indent, "Assert" + at);
    child(in, "test", a.test);
    return child(in, "msg", a.msg);
  }
  case StmtKind::FunctionDef:
    return function(indent, static_cast<const FunctionDef &>(s));
  case StmtKind::Unsupported:
    return line(indent, "Unsupported " +
                            static_cast<const UnsupportedStmt &>(s).what + at);
  }
}

void Dumper::function(unsigned indent, const FunctionDef &fn) {
  std::string head = "FunctionDef " + fn.name + " " + locText(fn.loc());
  if (!fn.decorators.empty())
    head += " decorators=" + std::to_string(fn.decorators.size());
  line(indent, head);
  unsigned in = indent + 1;
  for (const ExprPtr &d : fn.decorators)
    child(in, "decorator", d);
  for (const Param &p : fn.params) {
    std::string text = "Param ";
    text += p.isVarArgs ? "*" : p.isKwArgs ? "**" : "";
    text += p.name;
    if (p.annotation)
      text += " : " + inlineExpr(*p.annotation);
    if (p.defaultValue)
      text += " = " + inlineExpr(*p.defaultValue);
    if (p.isKeywordOnly)
      text += " kwonly";
    line(in, text + " " + locText(p.loc));
  }
  if (fn.returns)
    line(in, "returns " + inlineExpr(*fn.returns));
  if (!fn.docstring.empty()) {
    StrExpr doc(SourceRange{}, fn.docstring);
    line(in, "docstring " + quoted(doc));
  }
  for (const StmtPtr &s : fn.body)
    stmt(in, *s);
}

std::string joined(const std::vector<ExprPtr> &items) {
  std::string out;
  for (const ExprPtr &item : items) {
    if (!out.empty())
      out += ", ";
    out += item ? inlineExpr(*item) : "";
  }
  return out;
}

} // namespace

std::string inlineExpr(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Name:
    return "Name(" + static_cast<const NameExpr &>(e).id + ")";
  case ExprKind::Int:
    return "Int(" + intText(static_cast<const IntExpr &>(e)) + ")";
  case ExprKind::Float:
    return "Float(" + floatText(static_cast<const FloatExpr &>(e)) + ")";
  case ExprKind::Str:
    return "Str(" + quoted(static_cast<const StrExpr &>(e)) + ")";
  case ExprKind::Bool:
    return static_cast<const BoolExpr &>(e).value ? "True" : "False";
  case ExprKind::None:
    return "None";
  case ExprKind::Ellipsis:
    return "Ellipsis";
  case ExprKind::Attribute: {
    const auto &a = static_cast<const AttributeExpr &>(e);
    return "Attribute(" + inlineExpr(*a.value) + "." + a.attr + ")";
  }
  case ExprKind::Subscript: {
    const auto &s = static_cast<const SubscriptExpr &>(e);
    return "Subscript(" + inlineExpr(*s.value) + "[" + inlineExpr(*s.index) +
           "])";
  }
  case ExprKind::Slice: {
    const auto &s = static_cast<const SliceExpr &>(e);
    std::string out = "Slice(";
    out += s.lower ? inlineExpr(*s.lower) : "";
    out += ":";
    out += s.upper ? inlineExpr(*s.upper) : "";
    if (s.step)
      out += ":" + inlineExpr(*s.step);
    return out + ")";
  }
  case ExprKind::Call: {
    const auto &c = static_cast<const CallExpr &>(e);
    std::string out = "Call(" + inlineExpr(*c.func);
    for (const ExprPtr &arg : c.args)
      out += ", " + inlineExpr(*arg);
    for (const Keyword &kw : c.keywords)
      out += ", " + (kw.name.empty() ? "**" : kw.name + "=") +
             inlineExpr(*kw.value);
    return out + ")";
  }
  case ExprKind::BinOp: {
    const auto &b = static_cast<const BinOpExpr &>(e);
    return std::string("BinOp(") + binOpText(b.op) + ", " + inlineExpr(*b.lhs) +
           ", " + inlineExpr(*b.rhs) + ")";
  }
  case ExprKind::UnaryOp: {
    const auto &u = static_cast<const UnaryOpExpr &>(e);
    return std::string("UnaryOp(") + unaryOpText(u.op) + ", " +
           inlineExpr(*u.operand) + ")";
  }
  case ExprKind::BoolOp: {
    const auto &b = static_cast<const BoolOpExpr &>(e);
    return std::string("BoolOp(") + (b.op == BoolOpKind::And ? "and" : "or") +
           ", " + joined(b.values) + ")";
  }
  case ExprKind::Compare: {
    const auto &c = static_cast<const CompareExpr &>(e);
    std::string out = "Compare(" + inlineExpr(*c.lhs);
    for (size_t i = 0; i < c.ops.size(); ++i)
      out += std::string(" ") + cmpOpText(c.ops[i]) + " " +
             inlineExpr(*c.comparators[i]);
    return out + ")";
  }
  case ExprKind::IfExp: {
    const auto &i = static_cast<const IfExpExpr &>(e);
    return "IfExp(" + inlineExpr(*i.body) + " if " + inlineExpr(*i.test) +
           " else " + inlineExpr(*i.orelse) + ")";
  }
  case ExprKind::Tuple:
    return "Tuple(" + joined(static_cast<const TupleExpr &>(e).elts) + ")";
  case ExprKind::List:
    return "List(" + joined(static_cast<const ListExpr &>(e).elts) + ")";
  case ExprKind::ListComp: {
    const auto &c = static_cast<const ListCompExpr &>(e);
    std::string out = "ListComp(" + inlineExpr(*c.elt);
    for (const auto &clause : c.clauses) {
      out += " for " + inlineExpr(*clause.target) + " in " + inlineExpr(*clause.iter);
      for (const ExprPtr &cond : clause.ifs)
        out += " if " + inlineExpr(*cond);
    }
    return out + ")";
  }
  case ExprKind::Starred: {
    const auto &s = static_cast<const StarredExpr &>(e);
    return std::string("Starred(") + (s.doubleStar ? "**" : "*") +
           inlineExpr(*s.value) + ")";
  }
  case ExprKind::Lambda:
    return "Lambda";
  case ExprKind::Other:
    return "Other(" + static_cast<const OtherExpr &>(e).what + ")";
  }
  return "?";
}

std::string dumpExpr(const Expr &expr) {
  Dumper d;
  d.expr(0, "", expr);
  return d.out;
}

std::string dumpFunction(const FunctionDef &fn) {
  Dumper d;
  d.function(0, fn);
  return d.out;
}

std::string dumpModule(const Module &module) {
  Dumper d;
  d.line(0, "Module " + (module.file ? module.file->path() : std::string()));
  for (const ImportBinding &imp : module.imports)
    d.line(1, "Import " + imp.localName + " = " + imp.qualified + " " +
                  locText(imp.loc));
  for (const GlobalAssign &g : module.globals) {
    d.line(1, "Global " + g.name + " " + locText(g.loc));
    if (g.annotation)
      d.expr(2, "annotation", *g.annotation);
    if (g.value)
      d.expr(2, "value", *g.value);
  }
  for (const auto &fn : module.functions)
    d.function(1, *fn);
  return d.out;
}

} // namespace tritium::fe

//===- ParserTest.cpp - unit tests for expressions and statements ---------===//
//
// Checks the tree the Parser builds inside functions: expression precedence
// and shapes, every statement form, assignment targets, docstrings,
// signatures, unsupported statements, and node locations. Expressions are
// mostly compared through inlineExpr(), which spells out the whole tree.
// Module-level behaviour, errors, limits and dumps are in
// ParserModuleTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"
#include "tests/unit/ParserTestUtil.h"
#include "frontend/AstDump.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tritium::fe;

using namespace tritium::fe::test;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

TEST_CASE("power binds tighter than unary minus on its left", "[parser]") {
  CHECK(expr("-2**2") == "UnaryOp(-, BinOp(**, Int(2), Int(2)))");
  CHECK(expr("2**-1") == "BinOp(**, Int(2), UnaryOp(-, Int(1)))");
  CHECK(expr("2**3**2") == "BinOp(**, Int(2), BinOp(**, Int(3), Int(2)))");
  CHECK(expr("-x.y**2") ==
        "UnaryOp(-, BinOp(**, Attribute(Name(x).y), Int(2)))");
}

TEST_CASE("binary operator precedence and associativity", "[parser]") {
  CHECK(expr("a + b * c") == "BinOp(+, Name(a), BinOp(*, Name(b), Name(c)))");
  CHECK(expr("a * b + c") == "BinOp(+, BinOp(*, Name(a), Name(b)), Name(c))");
  CHECK(expr("a - b - c") == "BinOp(-, BinOp(-, Name(a), Name(b)), Name(c))");
  CHECK(expr("a // b % c @ d / e") ==
        "BinOp(/, BinOp(@, BinOp(%, BinOp(//, Name(a), Name(b)), Name(c)), "
        "Name(d)), Name(e))");
  CHECK(expr("a | b ^ c & d << e + f") ==
        "BinOp(|, Name(a), BinOp(^, Name(b), BinOp(&, Name(c), BinOp(<<, "
        "Name(d), BinOp(+, Name(e), Name(f))))))");
  CHECK(expr("a >> 1 | b << 2") == "BinOp(|, BinOp(>>, Name(a), Int(1)), "
                                   "BinOp(<<, Name(b), Int(2)))");
  CHECK(expr("~a + -b * +c") ==
        "BinOp(+, UnaryOp(~, Name(a)), BinOp(*, UnaryOp(-, Name(b)), "
        "UnaryOp(+, Name(c))))");
  CHECK(expr("(a + b) * c") == "BinOp(*, BinOp(+, Name(a), Name(b)), Name(c))");
}

TEST_CASE("boolean operators, not and conditional expressions", "[parser]") {
  CHECK(expr("not a == b") == "UnaryOp(not, Compare(Name(a) == Name(b)))");
  CHECK(expr("not not a") == "UnaryOp(not, UnaryOp(not, Name(a)))");
  CHECK(expr("a and b or c and d") ==
        "BoolOp(or, BoolOp(and, Name(a), Name(b)), BoolOp(and, Name(c), "
        "Name(d)))");
  CHECK(expr("a or b or c") == "BoolOp(or, Name(a), Name(b), Name(c))");
  CHECK(expr("a and not b") == "BoolOp(and, Name(a), UnaryOp(not, Name(b)))");
  CHECK(expr("a if b else c") == "IfExp(Name(a) if Name(b) else Name(c))");
  CHECK(expr("a if b else c if d else e") ==
        "IfExp(Name(a) if Name(b) else IfExp(Name(c) if Name(d) else "
        "Name(e)))");
  CHECK(expr("x + 1 if a or b else -x") ==
        "IfExp(BinOp(+, Name(x), Int(1)) if BoolOp(or, Name(a), Name(b)) "
        "else UnaryOp(-, Name(x)))");
  CHECK(expr("lambda x, y=1: x + y") == "Lambda");
  CHECK(expr("lambda: 0") == "Lambda");
  CHECK(expr("lambda *a, **k: (a, k)") == "Lambda");
}

TEST_CASE("chained and keyword comparisons", "[parser]") {
  CHECK(expr("a < b <= c") == "Compare(Name(a) < Name(b) <= Name(c))");
  CHECK(expr("a is not b") == "Compare(Name(a) is not Name(b))");
  CHECK(expr("a not in b") == "Compare(Name(a) not in Name(b))");
  CHECK(expr("a in b is c") == "Compare(Name(a) in Name(b) is Name(c))");
  CHECK(expr("a != b > c >= d == e") ==
        "Compare(Name(a) != Name(b) > Name(c) >= Name(d) == Name(e))");
  CHECK(expr("a < b + 1") == "Compare(Name(a) < BinOp(+, Name(b), Int(1)))");
  CHECK(expr("a & b < c") == "Compare(BinOp(&, Name(a), Name(b)) < Name(c))");

  ParseResult r = parse("_ = a  <  b is not c\n");
  const auto &cmp = as<CompareExpr>(*r.module->globals[0].value);
  REQUIRE(cmp.ops.size() == 2);
  CHECK(cmp.ops[0] == CmpOpKind::Lt);
  CHECK(cmp.ops[1] == CmpOpKind::IsNot);
  REQUIRE(cmp.opLocs.size() == 2);
  CHECK(locIs(cmp.opLocs[0], 1, 8));
  CHECK(locIs(cmp.opLocs[1], 1, 13));
  CHECK(locIs(cmp.range.begin, 1, 5));
  CHECK(locIs(cmp.range.end, 1, 21));
}

TEST_CASE("subscripts and slices", "[parser]") {
  CHECK(expr("x[:, None]") == "Subscript(Name(x)[Tuple(Slice(:), None)])");
  CHECK(expr("x[None, :]") == "Subscript(Name(x)[Tuple(None, Slice(:))])");
  CHECK(expr("x[0]") == "Subscript(Name(x)[Int(0)])");
  CHECK(expr("x[0,]") == "Subscript(Name(x)[Tuple(Int(0))])");
  CHECK(expr("x[1:2]") == "Subscript(Name(x)[Slice(Int(1):Int(2))])");
  CHECK(expr("x[::2]") == "Subscript(Name(x)[Slice(::Int(2))])");
  CHECK(expr("x[a:b:c]") ==
        "Subscript(Name(x)[Slice(Name(a):Name(b):Name(c))])");
  CHECK(expr("x[:-1]") == "Subscript(Name(x)[Slice(:UnaryOp(-, Int(1)))])");
  CHECK(expr("x[1:]") == "Subscript(Name(x)[Slice(Int(1):)])");
  CHECK(expr("x[...,0]") == "Subscript(Name(x)[Tuple(Ellipsis, Int(0))])");
  CHECK(expr("x[i][j]") == "Subscript(Subscript(Name(x)[Name(i)])[Name(j)])");
  CHECK(expr("x[*a]") == "Subscript(Name(x)[Starred(*Name(a))])");

  ParseResult r = parse("_ = off[:, None]\n");
  const auto &sub = as<SubscriptExpr>(*r.module->globals[0].value);
  const auto &tuple = as<TupleExpr>(*sub.index);
  CHECK(locIs(sub.range.begin, 1, 5));
  CHECK(locIs(sub.range.end, 1, 17));
  CHECK(locIs(tuple.range.begin, 1, 9));
  CHECK(locIs(tuple.range.end, 1, 16));
  CHECK(locIs(tuple.elts[0]->range.begin, 1, 9));
  CHECK(locIs(tuple.elts[0]->range.end, 1, 10));
}

TEST_CASE("calls with positional, keyword and unpacked arguments", "[parser]") {
  CHECK(expr("f()") == "Call(Name(f))");
  CHECK(expr("f(a, b=1, *c, **d,)") ==
        "Call(Name(f), Name(a), Starred(*Name(c)), b=Int(1), **Name(d))");
  CHECK(expr("tl.load(p, mask=m < n, other=0.0)") ==
        "Call(Attribute(Name(tl).load), Name(p), mask=Compare(Name(m) < "
        "Name(n)), other=Float(0))");
  CHECK(expr("f(x for x in y)") ==
        "Call(Name(f), Other(generator expression))");
  CHECK(expr("k[grid](x, BLOCK=4)") ==
        "Call(Subscript(Name(k)[Name(grid)]), Name(x), BLOCK=Int(4))");
  CHECK(expr("f(a)(b).c") == "Attribute(Call(Call(Name(f), Name(a)), "
                             "Name(b)).c)");

  ParseResult r = parse("_ = tl.program_id(axis=0)\n");
  const auto &call = as<CallExpr>(*r.module->globals[0].value);
  REQUIRE(call.keywords.size() == 1);
  CHECK(call.keywords[0].name == "axis");
  CHECK(locIs(call.keywords[0].loc, 1, 19));
  CHECK(locIs(call.range.end, 1, 26));
  const auto &attr = as<AttributeExpr>(*call.func);
  CHECK(attr.attr == "program_id");
  CHECK(locIs(attr.attrLoc, 1, 8));
  CHECK(locIs(attr.range.begin, 1, 5));
  CHECK(locIs(attr.range.end, 1, 18));
}

TEST_CASE("numbers", "[parser]") {
  ParseResult r = parse("a = 0x2A\nb = 1_000\nc = 18446744073709551615\n"
                        "d = 18446744073709551616\ne = 1e-3\nf = .5\n"
                        "g = 2j\nh = 0b1010\ni = 0o17\nj = 1e999\n");
  REQUIRE(r.errors.empty());
  const auto &g = r.module->globals;
  REQUIRE(g.size() == 10);
  const auto &a = as<IntExpr>(*g[0].value);
  CHECK(a.value == 42);
  CHECK(a.text == "0x2A");
  CHECK_FALSE(a.overflow);
  CHECK(as<IntExpr>(*g[1].value).value == 1000);
  CHECK(as<IntExpr>(*g[2].value).value == UINT64_MAX);
  CHECK_FALSE(as<IntExpr>(*g[2].value).overflow);
  CHECK(as<IntExpr>(*g[3].value).overflow);
  CHECK(as<FloatExpr>(*g[4].value).value == 1e-3);
  CHECK(as<FloatExpr>(*g[5].value).value == 0.5);
  CHECK(as<FloatExpr>(*g[6].value).value == 2.0);
  CHECK(as<FloatExpr>(*g[6].value).imaginary);
  CHECK(as<IntExpr>(*g[7].value).value == 10);
  CHECK(as<IntExpr>(*g[8].value).value == 15);
  CHECK(as<FloatExpr>(*g[9].value).value > 1e308);
}

TEST_CASE("strings, constants and displays", "[parser]") {
  CHECK(expr("'a' \"b\" '''c'''") == "Str(\"abc\")");
  CHECK(expr("b'x' b'y'") == "Str(b\"xy\")");
  CHECK(expr("'a' f'{b}'") == "Str(f\"a{b}\")");
  CHECK(expr("True") == "True");
  CHECK(expr("False") == "False");
  CHECK(expr("None") == "None");
  CHECK(expr("...") == "Ellipsis");
  CHECK(expr("()") == "Tuple()");
  CHECK(expr("(a,)") == "Tuple(Name(a))");
  CHECK(expr("(a)") == "Name(a)");
  CHECK(expr("(a, *b)") == "Tuple(Name(a), Starred(*Name(b)))");
  CHECK(expr("a, b") == "Tuple(Name(a), Name(b))");
  CHECK(expr("a,") == "Tuple(Name(a))");
  CHECK(expr("[]") == "List()");
  CHECK(expr("[1, [2], *c,]") ==
        "List(Int(1), List(Int(2)), Starred(*Name(c)))");
  CHECK(expr("{}") == "Other(dict display)");
  CHECK(expr("{'a': 1, **b}") == "Other(dict display)");
  CHECK(expr("{1, 2}") == "Other(set display)");
  CHECK(expr("{k: v for k, v in x}") == "Other(dict comprehension)");
  CHECK(expr("{x for x in y if x}") == "Other(set comprehension)");
  CHECK(expr("[x for x in y]") == "ListComp(Name(x) for Name(x) in Name(y))");
  CHECK(expr("[x + 1 for x, z in y if z for w in x]") ==
        "ListComp(BinOp(+, Name(x), Int(1)) for Tuple(Name(x), Name(z)) in Name(y) if "
        "Name(z) for Name(w) in Name(x))");
  CHECK(expr("[x async for x in y]") == "Other(async comprehension)");
  CHECK(expr("(x for x in y)") == "Other(generator expression)");
  CHECK(expr("(x := 5)") == "Other(assignment expression)");
  CHECK(expr("f(y := 1)") == "Call(Name(f), Other(assignment expression))");

  ParseResult r = parse("_ = f'{x}' 'y'\n");
  const auto &s = as<StrExpr>(*r.module->globals[0].value);
  CHECK(s.isFString);
  CHECK_FALSE(s.isBytes);
  CHECK(s.value == "{x}y");
  CHECK(locIs(s.range.end, 1, 15));
}

TEST_CASE("await, yield and lambda inside functions", "[parser]") {
  CHECK(bodyExpr("await x") == "Other(await expression)");
  CHECK(bodyExpr("(yield)") == "Other(yield expression)");
  ParseResult r = function("    x = yield a, b\n    y = yield from z\n");
  CHECK(inlineExpr(*as<AssignStmt>(*bodyOf(r)[0]).value) ==
        "Other(yield expression)");
  CHECK(inlineExpr(*as<AssignStmt>(*bodyOf(r)[1]).value) ==
        "Other(yield expression)");
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

TEST_CASE("assignment targets", "[parser]") {
  ParseResult r = function("    a, b = f()\n"
                           "    (c, d) = g\n"
                           "    [e, *f] = h\n"
                           "    x.y[0] = i = j\n"
                           "    *k, = l\n"
                           "    m, (n, o) = p\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 6);
  for (const StmtPtr &s : b)
    CHECK(s->kind == StmtKind::Assign);
  const auto &first = as<AssignStmt>(*b[0]);
  REQUIRE(first.targets.size() == 1);
  CHECK(inlineExpr(*first.targets[0]) == "Tuple(Name(a), Name(b))");
  CHECK(inlineExpr(*first.value) == "Call(Name(f))");
  CHECK(locIs(first.range.begin, 2, 5));
  CHECK(locIs(first.range.end, 2, 15));
  CHECK(inlineExpr(*as<AssignStmt>(*b[1]).targets[0]) ==
        "Tuple(Name(c), Name(d))");
  CHECK(inlineExpr(*as<AssignStmt>(*b[2]).targets[0]) ==
        "List(Name(e), Starred(*Name(f)))");
  const auto &chained = as<AssignStmt>(*b[3]);
  REQUIRE(chained.targets.size() == 2);
  CHECK(inlineExpr(*chained.targets[0]) ==
        "Subscript(Attribute(Name(x).y)[Int(0)])");
  CHECK(inlineExpr(*chained.targets[1]) == "Name(i)");
  CHECK(inlineExpr(*chained.value) == "Name(j)");
  CHECK(inlineExpr(*as<AssignStmt>(*b[4]).targets[0]) ==
        "Tuple(Starred(*Name(k)))");
  CHECK(inlineExpr(*as<AssignStmt>(*b[5]).targets[0]) ==
        "Tuple(Name(m), Tuple(Name(n), Name(o)))");
}

TEST_CASE("augmented assignment with every operator", "[parser]") {
  struct Case {
    const char *op;
    BinOpKind kind;
  } cases[] = {{"+=", BinOpKind::Add},       {"-=", BinOpKind::Sub},
               {"*=", BinOpKind::Mul},       {"/=", BinOpKind::Div},
               {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
               {"**=", BinOpKind::Pow},      {"@=", BinOpKind::MatMul},
               {"<<=", BinOpKind::LShift},   {">>=", BinOpKind::RShift},
               {"&=", BinOpKind::BitAnd},    {"|=", BinOpKind::BitOr},
               {"^=", BinOpKind::BitXor}};
  for (const Case &c : cases) {
    ParseResult r = function(std::string("    p.q ") + c.op + " 1, 2\n");
    INFO(c.op);
    const auto &aug = as<AugAssignStmt>(*bodyOf(r).at(0));
    CHECK(aug.kind == StmtKind::AugAssign);
    CHECK(aug.op == c.kind);
    CHECK(inlineExpr(*aug.target) == "Attribute(Name(p).q)");
    CHECK(inlineExpr(*aug.value) == "Tuple(Int(1), Int(2))");
  }
}

TEST_CASE("annotated assignment", "[parser]") {
  ParseResult r = function("    x: tl.constexpr = 3\n    y: int\n"
                           "    self.z: 'T' = None\n");
  const Block &b = bodyOf(r);
  const auto &x = as<AnnAssignStmt>(*b[0]);
  CHECK(x.kind == StmtKind::AnnAssign);
  CHECK(inlineExpr(*x.target) == "Name(x)");
  CHECK(inlineExpr(*x.annotation) == "Attribute(Name(tl).constexpr)");
  CHECK(inlineExpr(*x.value) == "Int(3)");
  const auto &y = as<AnnAssignStmt>(*b[1]);
  CHECK_FALSE(y.value);
  CHECK(inlineExpr(*as<AnnAssignStmt>(*b[2]).target) ==
        "Attribute(Name(self).z)");
}

TEST_CASE("invalid targets are located errors", "[parser]") {
  struct Case {
    const char *stmt;
    uint32_t col;
    const char *message;
  } cases[] = {
      {"f() = 1", 5, "cannot assign to function call"},
      {"a + 1 = 2", 5, "cannot assign to expression"},
      {"a, 1 = x", 8, "cannot assign to literal"},
      {"None = 1", 5, "cannot assign to None"},
      {"a < b = c", 5, "cannot assign to comparison"},
      {"x = y = f()[0] = g() = 1", 22, "cannot assign to function call"},
      {"a + 1 += 2", 5,
       "'expression' is an illegal expression for augmented "
       "assignment"},
      {"a, b += 2", 5,
       "'tuple' is an illegal expression for augmented "
       "assignment"},
      {"(a, b): int = 1", 5,
       "only single target (not tuple) can be "
       "annotated"},
      {"*a = b", 5, "starred assignment target must be in a list or tuple"},
      {"*a, *b = c", 9, "multiple starred expressions in assignment"},
      {"x = *a", 9, "cannot use starred expression here"},
  };
  for (const Case &c : cases) {
    Diagnostic d = defError(std::string("def f():\n    ") + c.stmt + "\n");
    INFO(c.stmt);
    CHECK(d.message == c.message);
    CHECK(d.loc.line == 2);
    CHECK(d.loc.col == c.col);
  }
}

TEST_CASE("if/elif/else chain shape", "[parser]") {
  ParseResult r = function("    if a:\n        x = 1\n"
                           "    elif b:\n        x = 2\n"
                           "    elif c: x = 3\n"
                           "    else:\n        x = 4\n        y = 5\n"
                           "    z = 6\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 2);
  const auto &top = as<IfStmt>(*b[0]);
  CHECK(inlineExpr(*top.test) == "Name(a)");
  CHECK(top.body.size() == 1);
  CHECK(locIs(top.range.begin, 2, 5));
  CHECK(locIs(top.range.end, 9, 14));
  REQUIRE(top.orelse.size() == 1);
  const auto &elif1 = as<IfStmt>(*top.orelse[0]);
  CHECK(elif1.kind == StmtKind::If);
  CHECK(inlineExpr(*elif1.test) == "Name(b)");
  CHECK(locIs(elif1.range.begin, 4, 5));
  REQUIRE(elif1.orelse.size() == 1);
  const auto &elif2 = as<IfStmt>(*elif1.orelse[0]);
  CHECK(inlineExpr(*elif2.test) == "Name(c)");
  CHECK(elif2.body.size() == 1);
  CHECK(elif2.orelse.size() == 2);
  CHECK(b[1]->kind == StmtKind::Assign);
}

TEST_CASE("for and while loops with else", "[parser]") {
  ParseResult r = function("    for i, (a, b) in enumerate(zip(x, y)):\n"
                           "        if a: continue\n"
                           "        break\n"
                           "    else:\n        pass\n"
                           "    for k in range(0, tl.cdiv(K, B)): acc += k\n"
                           "    while n > 0:\n        n -= 1\n"
                           "    else:\n        n = 0\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 3);
  const auto &loop = as<ForStmt>(*b[0]);
  CHECK(inlineExpr(*loop.target) == "Tuple(Name(i), Tuple(Name(a), Name(b)))");
  CHECK(inlineExpr(*loop.iter) ==
        "Call(Name(enumerate), Call(Name(zip), Name(x), Name(y)))");
  REQUIRE(loop.body.size() == 2);
  CHECK(as<IfStmt>(*loop.body[0]).body[0]->kind == StmtKind::Continue);
  CHECK(loop.body[1]->kind == StmtKind::Break);
  REQUIRE(loop.orelse.size() == 1);
  CHECK(loop.orelse[0]->kind == StmtKind::Pass);
  const auto &oneLine = as<ForStmt>(*b[1]);
  CHECK(oneLine.body.size() == 1);
  CHECK(oneLine.body[0]->kind == StmtKind::AugAssign);
  const auto &wl = as<WhileStmt>(*b[2]);
  CHECK(inlineExpr(*wl.test) == "Compare(Name(n) > Int(0))");
  CHECK(wl.body.size() == 1);
  CHECK(wl.orelse.size() == 1);
}

TEST_CASE("return, pass, assert and semicolons", "[parser]") {
  ParseResult r = function("    return\n    return a, b\n    return (a)\n"
                           "    pass; x = 1;\n"
                           "    assert x > 0, 'x must be positive'\n"
                           "    assert y\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 7);
  CHECK_FALSE(as<ReturnStmt>(*b[0]).value);
  CHECK(inlineExpr(*as<ReturnStmt>(*b[1]).value) == "Tuple(Name(a), Name(b))");
  CHECK(inlineExpr(*as<ReturnStmt>(*b[2]).value) == "Name(a)");
  CHECK(b[3]->kind == StmtKind::Pass);
  CHECK(b[4]->kind == StmtKind::Assign);
  const auto &a = as<AssertStmt>(*b[5]);
  CHECK(inlineExpr(*a.test) == "Compare(Name(x) > Int(0))");
  CHECK(inlineExpr(*a.msg) == "Str(\"x must be positive\")");
  CHECK_FALSE(as<AssertStmt>(*b[6]).msg);
}

TEST_CASE("docstring is removed from the body", "[parser]") {
  ParseResult r = function("    \"\"\"Adds.\n\n    Twice.\"\"\"\n    x = 1\n"
                           "    'not a docstring'\n");
  const FunctionDef &fn = *r.module->functions[0];
  CHECK(fn.docstring == "Adds.\n\n    Twice.");
  REQUIRE(fn.body.size() == 2);
  CHECK(fn.body[0]->kind == StmtKind::Assign);
  CHECK(fn.body[1]->kind == StmtKind::Expr);

  ParseResult f = function("    f'{x}'\n");
  CHECK(r.module->functions[0]->body.size() == 2);
  CHECK(f.module->functions[0]->docstring.empty());
  CHECK(f.module->functions[0]->body.size() == 1);
}

TEST_CASE("function signature", "[parser]") {
  ParseResult r =
      parse("@triton.jit\n@other(1)\n"
            "def k(a, b: int, c=1, /, d: tl.constexpr = 2, *args, e, f=3, "
            "**kw) -> tl.tensor:\n    pass\n");
  REQUIRE(r.errors.empty());
  REQUIRE(r.skippedFunctions.empty());
  const FunctionDef &fn = *r.module->functions.at(0);
  CHECK(fn.name == "k");
  CHECK(locIs(fn.nameLoc, 3, 5));
  CHECK(locIs(fn.range.begin, 3, 1));
  CHECK(locIs(fn.range.end, 4, 9));
  REQUIRE(fn.decorators.size() == 2);
  CHECK(inlineExpr(*fn.decorators[0]) == "Attribute(Name(triton).jit)");
  CHECK(inlineExpr(*fn.decorators[1]) == "Call(Name(other), Int(1))");
  REQUIRE(fn.params.size() == 8);
  CHECK(fn.params[1].name == "b");
  CHECK(inlineExpr(*fn.params[1].annotation) == "Name(int)");
  CHECK(inlineExpr(*fn.params[2].defaultValue) == "Int(1)");
  CHECK(inlineExpr(*fn.params[3].annotation) ==
        "Attribute(Name(tl).constexpr)");
  CHECK(fn.params[4].name == "args");
  CHECK(fn.params[4].isVarArgs);
  CHECK(fn.params[5].isKeywordOnly);
  CHECK_FALSE(fn.params[5].defaultValue);
  CHECK(fn.params[6].isKeywordOnly);
  CHECK(fn.params[7].isKwArgs);
  CHECK(locIs(fn.params[7].loc, 3, 64));
  CHECK(inlineExpr(*fn.returns) == "Attribute(Name(tl).tensor)");
}

TEST_CASE("nested defs and decorated classes in a body", "[parser]") {
  ParseResult r = function("    @functools.wraps(g)\n"
                           "    def inner(x):\n        return x\n"
                           "    @dataclass\n    class C:\n        a: int\n"
                           "    return inner\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 3);
  const auto &inner = as<FunctionDef>(*b[0]);
  CHECK(inner.kind == StmtKind::FunctionDef);
  CHECK(inner.name == "inner");
  CHECK(inner.decorators.size() == 1);
  CHECK(as<UnsupportedStmt>(*b[1]).what == "class");
  CHECK(b[2]->kind == StmtKind::Return);
}

TEST_CASE("unsupported statements are kept by keyword", "[parser]") {
  ParseResult r = function(
      "    with a as b, c:\n        x = 1\n"
      "    try:\n        y = 1\n    except (E, F) as e:\n        raise\n"
      "    except:\n        pass\n    else:\n        pass\n"
      "    finally:\n        z = 2\n"
      "    raise ValueError('no') from e\n"
      "    del a[0], b\n"
      "    global g\n"
      "    nonlocal n\n"
      "    import os.path as p\n"
      "    from . import m\n"
      "    class K(B, metaclass=M):\n        def m(self): pass\n"
      "    async def g(): await h()\n"
      "    async for q in r:\n        pass\n"
      "    yield 1\n"
      "    match cmd:\n        case [x, y]:\n            pass\n"
      "    type Alias = int\n"
      "    with x: pass\n"
      "    last = 1\n");
  const Block &b = bodyOf(r);
  std::vector<std::string> whats;
  for (const StmtPtr &s : b)
    whats.push_back(s->kind == StmtKind::Unsupported
                        ? as<UnsupportedStmt>(*s).what
                        : std::string("stmt"));
  CHECK(whats == std::vector<std::string>{
                     "with", "try", "raise", "del", "global", "nonlocal",
                     "import", "from", "class", "async", "async", "yield",
                     "match", "type", "with", "stmt"});
  const auto &tryStmt = as<UnsupportedStmt>(*b[1]);
  CHECK(locIs(tryStmt.range.begin, 4, 5));
  CHECK(locIs(tryStmt.range.end, 13, 14));
  CHECK(locIs(b[2]->range.end, 14, 34));
}

TEST_CASE("match and type stay ordinary names", "[parser]") {
  ParseResult r = function("    match = re.match(p, s)\n    type = 3\n"
                           "    match(x)\n    print(type)\n");
  const Block &b = bodyOf(r);
  REQUIRE(b.size() == 4);
  CHECK(b[0]->kind == StmtKind::Assign);
  CHECK(b[1]->kind == StmtKind::Assign);
  CHECK(b[2]->kind == StmtKind::Expr);
}

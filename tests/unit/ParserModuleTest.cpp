//===- ParserModuleTest.cpp - unit tests for files, errors and dumps ------===//
//
// Checks the Parser at the scale of whole files: the forgiving module level
// (imports, globals, skipped host code, skipped functions), located syntax
// and lexical errors, the nesting limits and robustness sweeps, realistic
// scripts and the repository's examples, and the AstDump format.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstDump.h"
#include "frontend/Parser.h"
#include "tests/unit/ParserTestUtil.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace tritium::fe;

using namespace tritium::fe::test;

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

TEST_CASE("module-level import bindings", "[parser][module]") {
  ParseResult r = parse("import triton\n"
                        "import triton.language as tl\n"
                        "from triton import jit\n"
                        "from triton.language import arange as ar\n"
                        "import a.b.c\n"
                        "import os, numpy as np\n"
                        "from x.y import (p,\n    q as r,\n)\n"
                        "from . import rel\n"
                        "from ..pkg import up\n"
                        "from m import *\n"
                        "import z; from w import v\n");
  REQUIRE(r.errors.empty());
  std::vector<std::string> got;
  for (const ImportBinding &b : r.module->imports)
    got.push_back(b.localName + "=" + b.qualified);
  CHECK(got == std::vector<std::string>{
                   "triton=triton", "tl=triton.language", "jit=triton.jit",
                   "ar=triton.language.arange", "a=a", "os=os", "np=numpy",
                   "p=x.y.p", "r=x.y.q", "rel=.rel", "up=..pkg.up", "*=m", "z=z",
                   "v=w.v"});
  CHECK(locIs(r.module->imports[1].loc, 2, 8));
  CHECK(locIs(r.module->imports[3].loc, 4, 29));
}

TEST_CASE("module-level globals", "[parser][module]") {
  ParseResult r = parse("BLOCK: tl.constexpr = 128\n"
                        "X = tl.constexpr(3)\n"
                        "a, b = 1, 2\n"
                        "c = d = 3\n"
                        "x.y = 4\n"
                        "n: int\n"
                        "p += 1\n"
                        "Q = [i for i in range(3)]; R = 'r'\n"
                        "S = print(\n  1,\n  2)\n"
                        "T = f(\n");
  REQUIRE(r.errors.size() == 1); // the unclosed '(' of the last line
  const auto &g = r.module->globals;
  REQUIRE(g.size() == 5);
  CHECK(g[0].name == "BLOCK");
  CHECK(inlineExpr(*g[0].annotation) == "Attribute(Name(tl).constexpr)");
  CHECK(inlineExpr(*g[0].value) == "Int(128)");
  CHECK(locIs(g[0].loc, 1, 1));
  CHECK(g[1].name == "X");
  CHECK_FALSE(g[1].annotation);
  CHECK(inlineExpr(*g[1].value) ==
        "Call(Attribute(Name(tl).constexpr), Int(3))");
  CHECK(locIs(g[1].loc, 2, 1));
  CHECK(g[2].name == "Q");
  CHECK(inlineExpr(*g[2].value) ==
        "ListComp(Name(i) for Name(i) in Call(Name(range), Int(3)))");
  CHECK(g[3].name == "R");
  CHECK(g[4].name == "S");
}

TEST_CASE("top-level host code is skipped without errors", "[parser][module]") {
  ParseResult r =
      parse("x = 1 +\n" // broken global: skipped silently
            "print('hi') ; y = 2\n"
            "for i in range(3):\n    print(i)\nelse:\n    pass\n"
            "while True:\n    break\n"
            "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n"
            "with open(f) as h: data = h.read()\n"
            "try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"
            "finally:\n    pass\n"
            "class A:\n    def m(self):\n        return 1\n"
            "@decorate\nclass B: pass\n"
            "async def co():\n    await x\n"
            "match p:\n    case 1:\n        pass\n"
            "del y\nassert x\nraise SystemExit\n"
            "z = 3\n");
  CHECK(r.errors.empty());
  CHECK(r.skippedFunctions.empty());
  CHECK(r.module->functions.empty());
  // Bodies of module-level if/try/... are module level too (kernels may be
  // defined there), so `numpy = None` in the except clause is a global.
  REQUIRE(r.module->globals.size() == 3);
  CHECK(r.module->globals[0].name == "y");
  CHECK(r.module->globals[1].name == "numpy");
  CHECK(r.module->globals[2].name == "z");
}

TEST_CASE("a top-level def that fails is skipped and recorded",
          "[parser][module]") {
  ParseResult r = parse("def host():\n    x = [1, 2\n    ,]] \n"
                        "def ok():\n    return 1\n");
  // The lexer catches the stray ']' first: it is a lexical error.
  CHECK(r.errors.size() == 1);

  r = parse("def host(a, a):\n    pass\n"
            "@triton.jit\ndef kernel(x):\n    y = x +\n    return y\n"
            "def ok():\n    return 1\n");
  CHECK(r.errors.empty());
  REQUIRE(r.skippedFunctions.size() == 2);
  CHECK(r.skippedFunctions[0].first == "host");
  CHECK(r.skippedFunctions[0].second.message ==
        "duplicate parameter 'a' in function definition");
  CHECK(locIs(r.skippedFunctions[0].second.loc, 1, 13));
  CHECK(r.skippedFunctions[1].first == "kernel");
  CHECK(r.skippedFunctions[1].second.message ==
        "expected an expression, found end of line");
  CHECK(locIs(r.skippedFunctions[1].second.loc, 5, 12));
  REQUIRE(r.module->functions.size() == 1);
  CHECK(r.module->functions[0]->name == "ok");
}

TEST_CASE("syntax errors inside a kernel are located", "[parser]") {
  struct Case {
    const char *body;
    uint32_t line, col;
    const char *message;
  } cases[] = {
      {"    if x\n        pass\n", 2, 9,
       "expected ':' after 'if' condition, found end of line"},
      {"    y = (a + )\n", 2, 14, "expected an expression, found ')'"},
      {"    y = 1\n        z = 2\n", 3, 9, "unexpected indent"},
      {"    for i in x:\n    pass\n", 3, 5,
       "expected an indented block after 'for' statement on line 3"},
      {"    while x\n        pass\n", 2, 12,
       "expected ':' after 'while' condition, found end of line"},
      {"    for i x:\n        pass\n", 2, 11,
       "expected 'in' after 'for' target, found name 'x'"},
      {"    x = a b\n", 2, 11,
       "expected end of line after statement, found name 'b'"},
      {"    x = f(a=1, b)\n", 2, 16,
       "positional argument follows keyword argument"},
      {"    x = f(a=1, a=2)\n", 2, 16, "keyword argument repeated: a"},
      {"    x = a if b\n", 2, 15,
       "expected 'else' after 'if' expression, found end of line"},
      {"    x = t.\n", 2, 11,
       "expected attribute name after '.', found end of line"},
      {"    x = y[1 2]\n", 2, 13,
       "expected ',' or ']' in subscript, found number '2'"},
      {"    else:\n        pass\n", 2, 5,
       "'else' without a matching 'if', 'for', 'while' or 'try'"},
      {"    x = [a b]\n", 2, 12, "expected ',' or ']' in list, found name 'b'"},
      {"    return lambda x\n", 2, 20,
       "expected ':' after lambda parameters, found end of line"},
      {"    if x: for y in z: pass\n", 2, 11,
       "a 'for' statement cannot follow ':' on the same line; put it on its "
       "own indented line"},
      {"    x = 'a' b'b'\n", 2, 13, "cannot mix bytes and nonbytes literals"},
      {"    x = def\n", 2, 9, "expected an expression, found keyword 'def'"},
  };
  for (const Case &c : cases) {
    std::string text = std::string("@triton.jit\ndef k(x):\n") + c.body;
    // Shift expectations by the decorator line.
    Diagnostic d = defError(text);
    INFO(text);
    CHECK(d.message == c.message);
    CHECK(d.loc.line == c.line + 1);
    CHECK(d.loc.col == c.col);
    CHECK(d.path == "test.py");
  }
}

TEST_CASE("signature errors", "[parser]") {
  CHECK(defError("def (x):\n    pass\n").message ==
        "expected function name after 'def', found '('");
  CHECK(defError("def f(x=1, y):\n    pass\n").message ==
        "parameter without a default follows parameter with a default");
  CHECK(defError("def f(*, **k):\n    pass\n").message ==
        "named parameters must follow bare '*'");
  CHECK(defError("def f(**k, x):\n    pass\n").message ==
        "no parameter may follow the '**' parameter");
  CHECK(defError("def f(x)\n    pass\n").message ==
        "expected ':' after function signature, found end of line");
  // An unclosed bracket is lexical: reported in errors, and the function it
  // cut short carries the same diagnostic.
  ParseResult r = parse("def f(x:\n      int, y\n    pass\n");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "'(' was never closed");
  CHECK(locIs(r.errors[0].loc, 1, 6));
  REQUIRE(r.skippedFunctions.size() == 1);
  CHECK(r.skippedFunctions[0].second.message == "'(' was never closed");
}

TEST_CASE("lexical errors are reported and stop the parse there", "[parser]") {
  ParseResult r = parse("def good():\n    return 1\n"
                        "def bad():\n    s = 'unterminated\n"
                        "def later():\n    return 2\n");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "unterminated string literal (detected at line 4)");
  CHECK(locIs(r.errors[0].loc, 4, 9));
  REQUIRE(r.module->functions.size() == 1);
  CHECK(r.module->functions[0]->name == "good");
  // The function cut by the lexical error carries that error.
  REQUIRE(r.skippedFunctions.size() == 1);
  CHECK(r.skippedFunctions[0].first == "bad");
  CHECK(r.skippedFunctions[0].second.message == r.errors[0].message);
}

TEST_CASE("an indented first line sets the module's column",
          "[parser][module]") {
  // A nested function read out of its file keeps its indentation (and so
  // its columns): the whole module starts at the first line's column.
  ParseResult r = parse("\n    @triton.jit\n    def k(x):\n        y = x\n"
                        "    N = tl.constexpr(4)\n");
  CHECK(r.errors.empty());
  REQUIRE(r.module->functions.size() == 1);
  CHECK(r.module->functions[0]->name == "k");
  CHECK(locIs(r.module->functions[0]->nameLoc, 3, 9));
  REQUIRE(r.module->globals.size() == 1);
  CHECK(r.module->globals[0].name == "N");
  // A later line left of that column matches no indentation level.
  ParseResult bad = parse("  x = 1\ny = 2\n");
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].message ==
        "unindent does not match any outer indentation level");
  CHECK(locIs(bad.errors[0].loc, 2, 1));
}

//===----------------------------------------------------------------------===//
// Limits and robustness
//===----------------------------------------------------------------------===//

TEST_CASE("depth bombs give errors, not crashes", "[parser][limits]") {
  // 10000 parentheses: the tokenizer's bracket limit stops it.
  std::string parens = std::string(10000, '(') + "1" + std::string(10000, ')');
  ParseResult r = parse("def f():\n    return " + parens + "\n");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "too many nested parentheses");
  CHECK(locIs(r.errors[0].loc, 2, 12 + 200));
  REQUIRE(r.skippedFunctions.size() == 1);
  CHECK(r.module->functions.empty());

  // Unbracketed recursion: the parser's own nesting limit stops it.
  for (std::string bomb : {std::string(10000, '-') + "1",
                           [] {
                             std::string s;
                             for (int i = 0; i < 10000; ++i)
                               s += "not ";
                             return s + "x";
                           }(),
                           [] {
                             std::string s;
                             for (int i = 0; i < 10000; ++i)
                               s += "a**";
                             return s + "b";
                           }(),
                           [] {
                             std::string s;
                             for (int i = 0; i < 10000; ++i)
                               s += "a if b else ";
                             return s + "c";
                           }(),
                           [] {
                             std::string s;
                             for (int i = 0; i < 10000; ++i)
                               s += "lambda: ";
                             return s + "0";
                           }()}) {
    Diagnostic d = defError("def f():\n    return " + bomb + "\n");
    CHECK(d.message.find("too deeply nested") != std::string::npos);
    CHECK(d.loc.line == 2);
  }

  // Moderate nesting is fine.
  CHECK(expr(std::string(100, '(') + "1" + std::string(100, ')')) == "Int(1)");
  CHECK(expr(std::string(100, '[') + std::string(100, ']')).substr(0, 10) ==
        "List(List(");
}

TEST_CASE("long elif chains are built without recursion, up to a limit",
          "[parser][limits]") {
  auto chain = [](int elifs) {
    std::string text = "def f():\n    if x == 0:\n        pass\n";
    for (int i = 1; i <= elifs; ++i)
      text += "    elif x == " + std::to_string(i) + ":\n        pass\n";
    return text;
  };
  ParseResult r = parse(chain(int(Parser::kMaxChain)));
  REQUIRE(r.skippedFunctions.empty());
  const IfStmt *s = &as<IfStmt>(*r.module->functions.at(0)->body.at(0));
  unsigned n = 1;
  while (!s->orelse.empty()) {
    s = &as<IfStmt>(*s->orelse[0]);
    ++n;
  }
  CHECK(n == Parser::kMaxChain + 1);

  Diagnostic d = defError(chain(5000));
  CHECK(d.message == "too many 'elif' branches: more than 1000");
  CHECK(locIs(d.loc, 2 + 2 * (Parser::kMaxChain + 1), 5));
}

TEST_CASE("long operator and trailer chains are capped", "[parser][limits]") {
  auto repeat = [](const std::string &piece, int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += piece;
    return s;
  };
  // Within the limit: a left-deep chain of 999 additions.
  ParseResult ok = function("    return x" + repeat(" + x", 999) + "\n");
  const Expr *e = as<ReturnStmt>(*bodyOf(ok)[0]).value.get();
  unsigned depth = 0;
  while (e->kind == ExprKind::BinOp) {
    e = as<BinOpExpr>(*e).lhs.get();
    ++depth;
  }
  CHECK(depth == 999);

  for (const std::string &bomb :
       {"x" + repeat(" + x", 100000), "x" + repeat(".a", 100000),
        "f" + repeat("()", 100000), "x" + repeat("[0]", 100000),
        repeat("x * ", 600) + "(" + repeat("y - ", 600) + "z)"}) {
    Diagnostic d = defError("def f():\n    return " + bomb + "\n");
    CHECK(d.message == "statement too long: more than 1000 operators, calls, "
                       "subscripts and attribute accesses");
    CHECK(d.loc.line == 2);
  }
  // The budget is per statement.
  ParseResult two = function("    a = x" + repeat(" + x", 900) + "\n" +
                             "    b = x" + repeat(" + x", 900) + "\n");
  CHECK(bodyOf(two).size() == 2);
}

//===----------------------------------------------------------------------===//
// Whole files
//===----------------------------------------------------------------------===//

static const char *const kMatmul = R"PY(import triton
import triton.language as tl

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
        BLOCK_SIZE_M: tl.constexpr, GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr = ""):
    """Docstring."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)
    tl.store(c_ptrs, c, mask=c_mask)
)PY";

TEST_CASE("the representative matmul kernel", "[parser][file]") {
  ParseResult r = parse(kMatmul);
  REQUIRE(r.errors.empty());
  REQUIRE(r.skippedFunctions.empty());
  REQUIRE(r.module->imports.size() == 2);
  REQUIRE(r.module->functions.size() == 1);
  const FunctionDef &fn = *r.module->functions[0];
  CHECK(fn.name == "matmul_kernel");
  CHECK(fn.docstring == "Docstring.");
  REQUIRE(fn.params.size() == 11);
  CHECK(fn.params[10].name == "ACTIVATION");
  CHECK(inlineExpr(*fn.params[10].defaultValue) == "Str(\"\")");
  REQUIRE(fn.body.size() == 10);

  const auto &ptrs = as<AssignStmt>(*fn.body[4]);
  CHECK(inlineExpr(*ptrs.value) ==
        "BinOp(+, Name(a_ptr), BinOp(+, BinOp(*, Subscript(Name(offs_am)"
        "[Tuple(Slice(:), None)]), Name(stride_am)), BinOp(*, "
        "Subscript(Name(offs_k)[Tuple(None, Slice(:))]), Name(stride_ak))))");
  const auto &sum = as<BinOpExpr>(*ptrs.value);
  CHECK(locIs(sum.opLoc, 12, 20));
  CHECK(locIs(sum.range.begin, 12, 14));
  CHECK(locIs(sum.range.end, 12, 82));
  const auto &inner = as<BinOpExpr>(*sum.rhs);
  CHECK(locIs(inner.range.begin, 12, 23)); // inside the parentheses
  CHECK(locIs(inner.opLoc, 12, 52));

  const auto &offs = as<AssignStmt>(*fn.body[3]);
  const auto &mod = as<BinOpExpr>(*offs.value);
  CHECK(mod.op == BinOpKind::Mod);
  CHECK(locIs(mod.range.begin, 11, 15)); // the '(' of the group
  CHECK(locIs(mod.opLoc, 11, 67));

  const auto &loop = as<ForStmt>(*fn.body[6]);
  REQUIRE(loop.body.size() == 3);
  const auto &load = as<CallExpr>(*as<AssignStmt>(*loop.body[0]).value);
  REQUIRE(load.keywords.size() == 2);
  CHECK(inlineExpr(*load.keywords[0].value) ==
        "Compare(Subscript(Name(offs_k)[Tuple(None, Slice(:))]) < BinOp(-, "
        "Name(K), BinOp(*, Name(k), Name(BLOCK_SIZE_K))))");
  CHECK(loop.body[2]->kind == StmtKind::AugAssign);
  const auto &branch = as<IfStmt>(*fn.body[7]);
  CHECK(inlineExpr(*branch.test) ==
        "Compare(Name(ACTIVATION) == Str(\"leaky_relu\"))");
  CHECK(fn.body[9]->kind == StmtKind::Expr);
}

static const char *const kHostScript = R"PY(#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""A realistic script: kernels plus arbitrary host code."""
from __future__ import annotations

import os, sys
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from typing import (
    Optional,
    Tuple,
)

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None
else:
    pass
finally:
    pass

DEVICE = triton.runtime.driver.active.get_active_torch_device()
BLOCK: tl.constexpr = 128
CONFIGS = [triton.Config({'BLOCK_SIZE': b}, num_warps=w) for b in (64, 128) for w in [4, 8]]
LOOKUP = {k: v for k, v in zip("ab", range(2))}
print(f"{sys.argv[0]!r:>{10}} {'nested'} {LOOKUP["a"]}")


@dataclasses.dataclass(frozen=True)
class Params:
    """Launch parameters."""
    block: int = 128
    warps: int = 4

    @property
    def total(self) -> int:
        return self.block * self.warps

    async def fetch(self):
        async with lock:
            await asyncio.sleep(0)


@triton.autotune(configs=CONFIGS, key=['n_elements'])
@triton.heuristics({'EVEN': lambda args: args['n_elements'] % args['BLOCK_SIZE'] == 0})
@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, alpha,
                 BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if EVEN:
        x = tl.load(x_ptr + offsets)
    else:
        x = tl.load(x_ptr + offsets, mask=offsets < n_elements)
    tl.store(out_ptr + offsets, x * alpha, mask=offsets < n_elements)


def host(x: torch.Tensor, *args, alpha: float = 1.0, **kwargs) -> Optional[torch.Tensor]:
    global FLAGS
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']),)
    with torch.cuda.device(x.device), open(os.devnull) as f:
        scale_kernel[grid](x, out, n, alpha)
    try:
        res = [i * 2 for i in range(n) if i % 2 == 0]
    except (ValueError, TypeError) as e:
        raise RuntimeError("bad") from e
    finally:
        del res
    if (m := len(args)) > 1:
        print(*args, sep=", ", **kwargs)
    match kwargs:
        case {"mode": mode}:
            pass
        case _:
            pass
    total = sum(v for v in kwargs.values())
    s = {**kwargs, 'x': 1}
    print(f"done {n=} {total:.3f} {'q'}", file=sys.stderr)
    yield out
    return out


class Runner(Base, metaclass=Meta):
    def __init__(self):
        super().__init__()


if __name__ == "__main__":
    for i, (a, b) in enumerate(zip([1], [2])):
        print(i, a, b)
    while False:
        break
    else:
        pass
    host(torch.randn(10))
)PY";

TEST_CASE("a whole realistic script parses with no errors", "[parser][file]") {
  ParseResult r = parse(kHostScript);
  for (const Diagnostic &d : r.errors)
    FAIL(d.render());
  for (const auto &[name, d] : r.skippedFunctions)
    FAIL(name << ": " << d.render());
  const Module &m = *r.module;
  REQUIRE(m.functions.size() == 2);
  CHECK(m.functions[0]->name == "scale_kernel");
  CHECK(m.functions[0]->decorators.size() == 3);
  CHECK(m.functions[1]->name == "host");

  std::vector<std::string> globals;
  for (const GlobalAssign &g : m.globals)
    globals.push_back(g.name);
  CHECK(globals ==
        std::vector<std::string>{"np", "DEVICE", "BLOCK", "CONFIGS", "LOOKUP"});
  std::vector<std::string> imports;
  for (const ImportBinding &b : m.imports)
    imports.push_back(b.localName + "=" + b.qualified);
  CHECK(imports == std::vector<std::string>{
                       "annotations=__future__.annotations", "os=os", "sys=sys",
                       "torch=torch", "triton=triton", "tl=triton.language",
                       "libdevice=triton.language.extra.libdevice",
                       "Optional=typing.Optional", "Tuple=typing.Tuple", "np=numpy"});

  const Block &host = m.functions[1]->body;
  std::vector<std::string> kinds;
  for (const StmtPtr &s : host)
    kinds.push_back(s->kind == StmtKind::Unsupported
                        ? as<UnsupportedStmt>(*s).what
                    : s->kind == StmtKind::If     ? "if"
                    : s->kind == StmtKind::Assign ? "="
                    : s->kind == StmtKind::Expr   ? "expr"
                    : s->kind == StmtKind::Return ? "return"
                                                  : "?");
  CHECK(kinds == std::vector<std::string>{"global", "=", "=", "=", "with",
                                          "try", "if", "match", "=", "=",
                                          "expr", "yield", "return"});
  const auto &walrus = as<IfStmt>(*host[6]);
  CHECK(inlineExpr(*walrus.test) ==
        "Compare(Other(assignment expression) > Int(1))");
}

TEST_CASE("the example scripts parse cleanly", "[parser][file]") {
  // The build passes the source root (ccache may make __FILE__ relative).
  std::string root = TRITIUM_SOURCE_DIR;
  struct Example {
    const char *file;
    std::vector<std::string> functions;
  } examples[] = {
      {"vector_add.py", {"add_kernel", "add"}},
      {"softmax.py", {"softmax_kernel", "softmax"}},
      {"dropout.py", {"_seeded_dropout", "seeded_dropout"}},
      {"matmul.py", {"matmul_kernel", "leaky_relu", "matmul"}},
      {"layer_norm.py",
       {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused",
        "_layer_norm_bwd_dwdb", "layer_norm_fwd", "layer_norm_bwd"}},
  };
  for (const Example &ex : examples) {
    std::ifstream in(root + "/examples/" + ex.file, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    ParseResult r = parseSource(ex.file, text.str());
    INFO(ex.file);
    for (const Diagnostic &d : r.errors)
      FAIL(d.render());
    for (const auto &[name, d] : r.skippedFunctions)
      FAIL(name << ": " << d.render());
    std::vector<std::string> names;
    for (const auto &fn : r.module->functions)
      names.push_back(fn->name);
    CHECK(names == ex.functions);
  }
}

TEST_CASE("every prefix of a kernel parses without crashing",
          "[parser][limits]") {
  std::string text = kMatmul;
  for (size_t n = 0; n <= text.size(); ++n) {
    ParseResult r = parse(text.substr(0, n));
    REQUIRE(r.module);
    // Lexical errors only: a cut kernel is a skipped function at worst.
    CHECK(r.errors.size() <= 1);
    CHECK(r.module->functions.size() + r.skippedFunctions.size() <= 1);
  }
}

//===----------------------------------------------------------------------===//
// AstDump
//===----------------------------------------------------------------------===//

TEST_CASE("dump of a small kernel", "[dump]") {
  ParseResult r = parse("import triton.language as tl\n"
                        "N: tl.constexpr = 4\n"
                        "\n"
                        "@triton.jit\n"
                        "def add_kernel(x_ptr, n, BLOCK: tl.constexpr = 4):\n"
                        "    \"\"\"Adds.\"\"\"\n"
                        "    pid = tl.program_id(axis=0)\n"
                        "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
                        "    if offs[0] < n:\n"
                        "        tl.store(x_ptr + offs, 1.5, mask=offs < n)\n"
                        "    else:\n"
                        "        x, y = -1, 'a\\n'\n"
                        "    return\n");
  REQUIRE(r.errors.empty());
  REQUIRE(r.skippedFunctions.empty());
  CHECK(dumpModule(*r.module) ==
        R"(Module test.py
  Import tl = triton.language @1:8
  Global N @2:1
    annotation: Attribute .constexpr @2:4
      value: Name tl @2:4
    value: Int 4 @2:19
  FunctionDef add_kernel @5:1 decorators=1
    decorator: Attribute .jit @4:2
      value: Name triton @4:2
    Param x_ptr @5:16
    Param n @5:23
    Param BLOCK : Attribute(Name(tl).constexpr) = Int(4) @5:26
    docstring "Adds."
    Assign @7:5
      target: Name pid @7:5
      value: Call @7:11
        func: Attribute .program_id @7:11
          value: Name tl @7:11
        keyword axis: Int 0 @7:30
    Assign @8:5
      target: Name offs @8:5
      value: BinOp + @8:12
        lhs: BinOp * @8:12
          lhs: Name pid @8:12
          rhs: Name BLOCK @8:18
        rhs: Call @8:26
          func: Attribute .arange @8:26
            value: Name tl @8:26
          arg: Int 0 @8:36
          arg: Name BLOCK @8:39
    If @9:5
      test: Compare < @9:8
        lhs: Subscript @9:8
          value: Name offs @9:8
          index: Int 0 @9:13
        rhs: Name n @9:18
      body:
        Expr @10:9
          value: Call @10:9
            func: Attribute .store @10:9
              value: Name tl @10:9
            arg: BinOp + @10:18
              lhs: Name x_ptr @10:18
              rhs: Name offs @10:26
            arg: Float 1.5 @10:32
            keyword mask: Compare < @10:42
              lhs: Name offs @10:42
              rhs: Name n @10:49
      orelse:
        Assign @12:9
          target: Tuple @12:9
            elt: Name x @12:9
            elt: Name y @12:12
          value: Tuple @12:16
            elt: UnaryOp - @12:16
              operand: Int 1 @12:17
            elt: Str "a\n" @12:20
    Return @13:5
)");
  // dumpFunction prints the same function at indentation zero.
  std::string fn = dumpFunction(*r.module->functions[0]);
  CHECK(fn.rfind("FunctionDef add_kernel @5:1 decorators=1\n"
                 "  decorator: Attribute .jit @4:2\n",
                 0) == 0);
  CHECK(dumpExpr(*r.module->globals[0].value) == "Int 4 @2:19\n");
}

TEST_CASE("dump covers every expression kind", "[dump]") {
  ParseResult r =
      parse("_ = (lambda: 0, {}, x[1:2:3], *a, f(**k), 0x10, 2**70, 1j, "
            "b'\\x01', f'{x}', True, None, ..., a or b, not c, a is not b, "
            "p if q else r, [1], 99999999999999999999)\n");
  REQUIRE(r.errors.empty());
  std::string dump = dumpExpr(*r.module->globals.at(0).value);
  for (const char *piece : {"Tuple @1:5",
                            "Lambda @1:6",
                            "Other dict display @1:17",
                            "Subscript @1:21",
                            "Slice @1:23",
                            "step: Int 3 @1:27",
                            "Starred * @1:31",
                            "keyword **: Name k @1:39",
                            "Int 0x10 (16) @1:43",
                            "BinOp ** @1:49",
                            "Float 1j @1:56",
                            "Str b\"\\x01\" @1:60",
                            "Str f\"{x}\" @1:69",
                            "Bool True @1:77",
                            "None @1:83",
                            "Ellipsis @1:89",
                            "BoolOp or @1:94",
                            "UnaryOp not @1:102",
                            "Compare is not @1:109",
                            "IfExp @1:121",
                            "List @1:136",
                            "Int 99999999999999999999 overflow @1:141"}) {
    INFO(piece);
    CHECK(dump.find(piece) != std::string::npos);
  }
}

TEST_CASE("random mutations of a script never break the parser",
          "[parser][limits]") {
  // Deterministic pseudo-random edits: delete, duplicate or replace a byte
  // with one that is significant to the tokenizer.
  const std::string base = std::string(kHostScript) + kMatmul;
  const std::string alphabet = "()[]{}:'\"\\\n\t #=.,*@fbr0x_";
  uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int iter = 0; iter < 1500; ++iter) {
    std::string text = base;
    for (int edits = 1 + int(next() % 3); edits > 0; --edits) {
      size_t at = next() % text.size();
      switch (next() % 3) {
      case 0:
        text.erase(at, 1);
        break;
      case 1:
        text.insert(at, 1, text[at]);
        break;
      default:
        text[at] = alphabet[next() % alphabet.size()];
      }
    }
    ParseResult r = parse(text);
    REQUIRE(r.module);
    REQUIRE(r.errors.size() <= 2);
    for (const auto &[name, d] : r.skippedFunctions)
      REQUIRE(d.loc.valid());
    for (const auto &fn : r.module->functions)
      REQUIRE(!dumpFunction(*fn).empty());
  }
}

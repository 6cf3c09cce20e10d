//===- ModulesTest.cpp - @jit helpers and constexprs of other modules -----===//
//
// Kernels that import helpers and constexpr globals from registered modules
// (Compiler::addModule, frontend/Modules.h): every import form, names in a
// helper resolving in the helper's own module, transitive imports, relative
// imports in packages, cycles, and errors and IR locations that name the
// helper's file.
//
//===----------------------------------------------------------------------===//
#include "frontend/Modules.h"
#include "frontend/IRGen.h"
#include "frontend/Parser.h"
#include "runtime/Tritium.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace tritium;

namespace {
const char *kHelpers = R"(import triton
import triton.language as tl

BLOCK: tl.constexpr = 16
SCALE = tl.constexpr(2.0)


@triton.jit
def add_one(x):
    return x + OFFSET


OFFSET = tl.constexpr(1)


@triton.jit
def twice(x):
    return add_one(x) * SCALE
)";

/// Runs `kernel(x, out, n)` over 16 floats 0..15 and returns out.
std::vector<float> run16(Compiler &compiler, const std::string &source,
                         const std::string &kernel) {
  auto k = compiler.compileString(source, "kernel.py", kernel);
  INFO((k ? "" : k.error().message));
  REQUIRE(k);
  std::vector<float> x(16), out(16, -1.0f);
  for (int i = 0; i < 16; ++i)
    x[i] = float(i);
  auto err = k->launch(Grid{1}, {buffer(x), buffer(out), scalar(16)});
  INFO((err ? err->message : ""));
  REQUIRE(!err);
  return out;
}

std::string kernelOf(const std::string &imports, const std::string &body) {
  return "import triton\nimport triton.language as tl\n" + imports +
         "\n\n@triton.jit\ndef k(X, O, n):\n"
         "    offs = tl.arange(0, 16)\n"
         "    x = tl.load(X + offs, mask=offs < n)\n"
         "    tl.store(O + offs, " +
         body + ", mask=offs < n)\n";
}
} // namespace

TEST_CASE("modules: every import form reaches helpers and constexprs",
          "[api][modules]") {
  Compiler compiler;
  REQUIRE(!compiler.addModule("helpers", kHelpers, "helpers.py"));
  struct Case {
    const char *imports, *body;
    float a, b; // out[i] == a * i + b
  };
  Case cases[] = {
      {"from helpers import add_one", "add_one(x)", 1, 1},
      {"from helpers import add_one as inc", "inc(inc(x))", 1, 2},
      {"import helpers", "helpers.add_one(x) * helpers.SCALE", 2, 2},
      {"import helpers as h", "h.twice(x) + h.BLOCK", 2, 18},
      {"from helpers import BLOCK, SCALE", "x * SCALE + BLOCK", 2, 16},
      {"from helpers import *", "twice(x) + OFFSET", 2, 3},
  };
  for (const Case &c : cases) {
    INFO(c.imports);
    auto out = run16(compiler, kernelOf(c.imports, c.body), "k");
    for (int i = 0; i < 16; ++i)
      CHECK(out[i] == c.a * float(i) + c.b);
  }
}

TEST_CASE("modules: helpers resolve in their own module, transitively",
          "[api][modules]") {
  Compiler compiler;
  // b reads its own constexpr; a calls b through an alias and has a global
  // of the same name as b's, which must not leak into b.
  REQUIRE(!compiler.addModule("pkg.b", R"(
import triton
import triton.language as tl
K: tl.constexpr = 10

@triton.jit
def addk(x):
    return x + K
)",
                              "pkg/b.py"));
  REQUIRE(!compiler.addModule("a", R"(
import triton
from pkg import b as B
K: tl.constexpr = 1000

@triton.jit
def via_b(x):
    return B.addk(x) + K
)",
                              "a.py"));
  auto out = run16(compiler, kernelOf("import a", "a.via_b(x)"), "k");
  for (int i = 0; i < 16; ++i)
    CHECK(out[i] == float(i) + 1010);
  // `import pkg.b` binds pkg; pkg itself is not registered.
  out = run16(compiler, kernelOf("import pkg.b", "pkg.b.addk(x)"), "k");
  CHECK(out[3] == 13);
}

TEST_CASE("modules: relative imports resolve against the package",
          "[api][modules]") {
  Compiler compiler;
  REQUIRE(!compiler.addModule("pkg", R"(
import triton
from .consts import N
from .ops import neg as negate
)",
                              "pkg/__init__.py"));
  REQUIRE(!compiler.addModule("pkg.consts",
                              "import triton.language as tl\n"
                              "N: tl.constexpr = 5\n",
                              "pkg/consts.py"));
  REQUIRE(!compiler.addModule("pkg.ops", R"(
import triton
from . import consts
from .. import pkg as root

@triton.jit
def neg(x):
    return -x + consts.N
)",
                              "pkg/ops.py"));
  // The kernel's own file is registered as pkg.kern: its relative imports
  // resolve, and re-exports through pkg/__init__.py work.
  std::string kern =
      kernelOf("from . import ops\nfrom .consts import N\nimport pkg",
               "ops.neg(x) + N + pkg.negate(x) + pkg.N");
  REQUIRE(!compiler.addModule("pkg.kern", kern, "kernel.py"));
  auto out = run16(compiler, kern, "k");
  for (int i = 0; i < 16; ++i)
    CHECK(out[i] == -2.0f * float(i) + 20);
}

TEST_CASE("modules: a helper may import the kernel's module back",
          "[api][modules]") {
  Compiler compiler;
  REQUIRE(!compiler.addModule("back", R"(
import triton
import kern

@triton.jit
def h(x):
    return x * kern.FACTOR
)",
                              "back.py"));
  std::string kern =
      kernelOf("import back\nFACTOR = tl.constexpr(3)", "back.h(x)");
  REQUIRE(!compiler.addModule("kern", kern, "kernel.py"));
  auto out = run16(compiler, kern, "k");
  CHECK(out[5] == 15);
}

TEST_CASE("modules: errors are located in the module they are in",
          "[api][modules]") {
  Compiler compiler;
  REQUIRE(!compiler.addModule("bad", R"(import triton
import triton.language as tl

@triton.jit
def wrong(x):
    return x + tl.arange(0, 3)

@triton.jit
def uses_missing(x):
    return x + NOT_DEFINED

@triton.jit
def overflow(X, n):
    return tl.load(X + tl.arange(0, 16) + 16)

def host_only(x):
    return x
)",
                              "bad.py"));
  auto launch = [&](const std::string &src) {
    auto k = compiler.compileString(src, "kernel.py", "k");
    REQUIRE(k);
    std::vector<float> x(16), out(16);
    auto err = k->launch(Grid{1}, {buffer(x), buffer(out), scalar(16)});
    REQUIRE(err);
    return err->message;
  };
  std::string msg = launch(kernelOf("from bad import wrong", "wrong(x)"));
  INFO(msg);
  CHECK(msg.rfind("bad.py:6:", 0) == 0);
  CHECK(msg.find("must be a power of two") != std::string::npos);
  CHECK(msg.find("\n    return x + tl.arange(0, 3)\n") != std::string::npos);

  msg = launch(kernelOf("import bad", "bad.uses_missing(x)"));
  CHECK(msg.rfind("bad.py:10:16: error: undefined name 'NOT_DEFINED'", 0) == 0);

  msg = launch(kernelOf("import bad", "bad.nothing(x)"));
  CHECK(msg.rfind("kernel.py:9:", 0) == 0);
  CHECK(msg.find(
            "module 'bad' has no jit function or constexpr named 'nothing'") !=
        std::string::npos);

  msg = launch(kernelOf("from bad import host_only", "host_only(x)"));
  CHECK(msg.find("'bad.host_only' is not a @triton.jit function") !=
        std::string::npos);

  // A fault while running is reported at the helper's line.
  msg = launch(kernelOf("import bad", "bad.overflow(X, n)"));
  INFO(msg);
  CHECK(msg.find("bad.py:14") != std::string::npos);

  // A module that does not parse reports its own syntax error when used.
  REQUIRE(
      !compiler.addModule("broken", "import triton\nx = (1 +\n", "broken.py"));
  msg = launch(kernelOf("import broken", "broken.f(x)"));
  CHECK(msg.rfind("broken.py:", 0) == 0);
  CHECK(msg.find("kernel.py:9:") != std::string::npos); // the note
}

TEST_CASE("modules: import cycles end with a message", "[api][modules]") {
  Compiler compiler;
  REQUIRE(!compiler.addModule("c1", "from c2 import X\nfrom c2 import *\n",
                              "c1.py"));
  REQUIRE(!compiler.addModule("c2", "from c1 import X\nfrom c1 import *\n",
                              "c2.py"));
  auto k = compiler.compileString(kernelOf("import c1", "x + c1.X"),
                                  "kernel.py", "k");
  REQUIRE(k);
  std::vector<float> x(16), out(16);
  auto err = k->launch(Grid{1}, {buffer(x), buffer(out), scalar(16)});
  REQUIRE(err);
  CHECK(err->message.find("is defined in terms of itself") !=
        std::string::npos);
  // A name neither module has: the star imports search each module once.
  k = compiler.compileString(kernelOf("from c1 import *", "x + Y"), "kernel.py",
                             "k");
  REQUIRE(k);
  err = k->launch(Grid{1}, {buffer(x), buffer(out), scalar(16)});
  REQUIRE(err);
  CHECK(err->message.find("undefined name 'Y'") != std::string::npos);
}

TEST_CASE("modules: registration checks the name; unregistered modules say so",
          "[api][modules]") {
  Compiler compiler;
  auto err = compiler.addModule("not a name", "", "x.py");
  REQUIRE(err);
  CHECK(err->kind == Error::Argument);
  CHECK(compiler.addModule(".rel", "", "x.py"));
  CHECK(compiler.addModule("a..b", "", "x.py"));
  CHECK(!compiler.addModule("a.b_1._c", "", "x.py"));
  auto k = compiler.compileString(kernelOf("from elsewhere import f", "f(x)"),
                                  "kernel.py", "k");
  REQUIRE(k);
  std::vector<float> x(16), out(16);
  auto e = k->launch(Grid{1}, {buffer(x), buffer(out), scalar(16)});
  REQUIRE(e);
  CHECK(e->message.find(
            "'elsewhere.f' is imported from a module whose source the "
            "compiler was not given") != std::string::npos);
}

TEST_CASE("modules: IR locations name the helper's file", "[modules]") {
  fe::ModuleSet modules;
  REQUIRE(!modules.add("helpers", kHelpers, "helpers.py"));
  auto parsed = fe::parseSource("kernel.py",
                                kernelOf("import helpers", "helpers.twice(x)"));
  REQUIRE(parsed.errors.empty());
  std::vector<fe::ParamSpec> specs;
  REQUIRE(!fe::parseSignature("*fp32,*fp32,i32", specs));
  mlir::MLIRContext ctx;
  auto r = fe::compileKernel(ctx, *parsed.module, "k", specs, {}, &modules);
  REQUIRE(r.ok());
  std::string ir;
  llvm::raw_string_ostream os(ir);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*prettyForm=*/true);
  r.module->print(os, flags);
  INFO(ir);
  CHECK(ir.find("\"helpers.py\":10:") != std::string::npos); // x + OFFSET
  CHECK(ir.find("\"helpers.py\":18:") !=
        std::string::npos); // add_one(x) * SCALE
  CHECK(ir.find("\"kernel.py\":9:") != std::string::npos);

  CHECK(fe::resolveRelativeImport(".x", "p.q") == "p.q.x");
  CHECK(fe::resolveRelativeImport("..x.y", "p.q") == "p.x.y");
  CHECK(fe::resolveRelativeImport("..", "p.q") == "p");
  CHECK(!fe::resolveRelativeImport("...x", "p.q"));
  CHECK(!fe::resolveRelativeImport(".x", ""));
  CHECK(fe::resolveRelativeImport("a.b", "") == "a.b");
  CHECK(modules.packageOf("helpers") == "");
  fe::ModuleSet pkgs;
  REQUIRE(!pkgs.add("p.q", "", "/src/p/q/__init__.py"));
  REQUIRE(!pkgs.add("p.q.r", "", "/src/p/q/r.py"));
  CHECK(pkgs.packageOf("p.q") == "p.q");
  CHECK(pkgs.packageOf("p.q.r") == "p.q");
  CHECK(pkgs.nameOf("/src/p/q/r.py", "") == "p.q.r");
  // Another text naming the same file is not that module.
  CHECK(pkgs.nameOf("/src/p/q/r.py", "x = 1\n") == "");
}

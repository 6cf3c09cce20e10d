//===- InterpreterTestUtil.h - helpers shared by the interpreter tests -----===//
//
// One MLIR context with the tile dialects, kernels prepared from tile IR text
// or (with the frontend linked, TRITIUM_INTERP_E2E) from Python source, and
// host buffers as interpreter arguments.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_UNIT_INTERPRETERTESTUTIL_H
#define TRITIUM_TESTS_UNIT_INTERPRETERTESTUTIL_H

#include "interpreter/Interpreter.h"

#include "ir/TileDialect.h"

#ifdef TRITIUM_INTERP_E2E
#include "frontend/IRGen.h"
#include "frontend/Parser.h"
#endif

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tritium::interp::test {

inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    mlir::tile::registerTileDialects(registry);
    auto *c = new mlir::MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

/// A prepared kernel, or the error Kernel::create reported.
struct Compiled {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Kernel> kernel;
  std::string error;
};

inline Compiled prepare(mlir::OwningOpRef<mlir::ModuleOp> module,
                        const std::string &name) {
  Compiled c;
  c.module = std::move(module);
  auto r = Kernel::create(*c.module, name);
  if (auto *e = std::get_if<RunError>(&r))
    c.error = e->message;
  else
    c.kernel = std::move(std::get<std::unique_ptr<Kernel>>(r));
  return c;
}

/// Kernel `name` from tile IR text.
inline Compiled compileIR(const std::string &text, const std::string &name = "k") {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &context());
  REQUIRE(module);
  return prepare(std::move(module), name);
}

#ifdef TRITIUM_INTERP_E2E
/// Kernel `kernel` of Python source `src`, specialized on `sig` and run
/// through the tile pipeline.
inline Compiled compileSource(const std::string &file, const std::string &src,
                              const std::string &kernel, const std::string &sig) {
  auto parsed = tritium::fe::parseSource(file, src);
  std::vector<tritium::fe::ParamSpec> specs;
  REQUIRE(!tritium::fe::parseSignature(sig, specs));
  auto r = tritium::fe::compileKernel(context(), *parsed.module, kernel, specs);
  REQUIRE(r.ok());
  REQUIRE(!tritium::fe::optimizeTileModule(*r.module));
  return prepare(std::move(r.module), kernel);
}

/// The same for a file of the repository (e.g. "examples/softmax.py").
inline Compiled compileFile(const std::string &file, const std::string &kernel,
                            const std::string &sig) {
  std::ifstream in(std::string(TRITIUM_SOURCE_DIR) + "/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  return compileSource(file, ss.str(), kernel, sig);
}
#endif

template <class T> Arg buf(std::vector<T> &v, const char *name) {
  return Arg::buffer(v.data(), v.size() * sizeof(T), name);
}

} // namespace tritium::interp::test

#endif // TRITIUM_TESTS_UNIT_INTERPRETERTESTUTIL_H

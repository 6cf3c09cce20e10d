//===- FuzzTileIR.cpp - tile IR text through the parser and tile-optimize ---===//
//
// Text in the tile dialect (as tile-opt reads it): a parse error or a
// verifier's diagnostic is an answer; a module that verifies goes through
// the tile pipeline, which must succeed and leave a module that verifies.
//
//===----------------------------------------------------------------------===//
#include "fuzz/Finding.h"

#include "ir/TileDialect.h"
#include "ir/transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    r->insert<tile::TileDialect, arith::ArithDialect, cf::ControlFlowDialect,
              func::FuncDialect, math::MathDialect, scf::SCFDialect>();
    return r;
  }();
  MLIRContext ctx(*registry);
  ctx.allowUnregisteredDialects(false);
  std::string diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diags += d.str() + "\n";
    return success();
  });
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return 0;
  // The parser verified it: the pipeline must take it (its passes
  // rewrite; none of them rejects a valid module) and leave it valid.
  PassManager pm(&ctx);
  tile::buildTileOptimizePipeline(pm);
  diags.clear();
  if (failed(pm.run(*module)))
    tritium::fuzz::finding("tile-ir", "the tile pipeline failed on a valid module:\n" + diags);
  if (failed(verify(*module)))
    tritium::fuzz::finding("tile-ir", "the tile pipeline left a module that does not verify:\n" +
                                          diags);
  return 0;
}

//===- Pipeline.cpp - the tile-level pass pipeline ------------------------===//
//
// The order of tile-level passes, readable top to bottom. Helper `@jit`
// functions are private func.func ops: the inliner folds them into their
// callers and symbol-dce then drops them.
//
//===----------------------------------------------------------------------===//
#include "ir/transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tile::buildTileOptimizePipeline(OpPassManager &pm) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tile::createTileCombine());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSymbolDCEPass());
}

void tile::registerTilePassesAndPipelines() {
  registerTilePasses();
  PassPipelineRegistration<>(
      "tile-optimize",
      "inline, canonicalize, tile-combine, cse, symbol-dce: the tile IR both "
      "executors consume",
      [](OpPassManager &pm) { buildTileOptimizePipeline(pm); });
}

//===- tile-opt.cpp - mlir-opt for the tile dialect -----------------------===//
//
// Parses, verifies, transforms and prints tile IR and its GPU level (tgpu);
// the driver of the lit tests under tests/ir and tests/codegen/*.mlir.
//
//===----------------------------------------------------------------------===//
#include "codegen/dialect/GpuDialect.h"
#include "codegen/transforms/Passes.h"
#include "ir/TileDialect.h"
#include "ir/transforms/Passes.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tile {
/// The analysis printer of tests/ir/axis-info.mlir (TestPrintAxisInfo.cpp).
void registerTestPrintAxisInfoPass();
} // namespace mlir::tile
namespace mlir::tgpu {
/// The encoding printer of tests/codegen/tgpu-layouts.mlir (TestPrintLayouts.cpp).
void registerTestPrintLayoutsPass();
} // namespace mlir::tgpu

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerGpuDialect(registry);
  mlir::registerTransformsPasses();
  mlir::tile::registerTilePassesAndPipelines();
  mlir::tile::registerTestPrintAxisInfoPass();
  mlir::tgpu::registerTestPrintLayoutsPass();
  tritium::codegen::registerGpuPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}

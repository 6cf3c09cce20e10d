//===- tile-opt.cpp - mlir-opt for the tile dialect -----------------------===//
//
// Parses, verifies, transforms and prints tile IR; the driver of the lit
// tests under tests/ir.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"
#include "ir/transforms/Passes.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tile {
/// The analysis printer of tests/ir/axis-info.mlir (TestPrintAxisInfo.cpp).
void registerTestPrintAxisInfoPass();
} // namespace mlir::tile

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  mlir::registerTransformsPasses();
  mlir::tile::registerTilePassesAndPipelines();
  mlir::tile::registerTestPrintAxisInfoPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}

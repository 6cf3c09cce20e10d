//===- TestPrintAxisInfo.cpp - the -test-print-axis-info pass -------------===//
//
// Prints the axis analysis (ir/analysis/AxisInfo.h) of every value of every
// function, one line per value in the order the values are defined, so lit
// tests can check the facts the code generator will vectorize with:
//
//   func @name
//     %4 = arith.addi: contiguity = [1024], divisibility = [1024], ...
//     %arg9 = scf.for argument: contiguity = [1], ...
//     tile.load access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4,
//       mask_alignment = 16, vector_width = 4
//
// The access lines show what ModuleAxisInfo answers the code generator
// about each load and store.
//
// Values are named as the IR printer names them within the function; a
// value whose location is loc("name") prints as %name, so tests can name
// the values they check.
//
//===----------------------------------------------------------------------===//
#include "ir/TileDialect.h"
#include "ir/analysis/AxisInfo.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

struct TestPrintAxisInfoPass
    : public PassWrapper<TestPrintAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Print contiguity, divisibility and constancy of every value";
  }

  void runOnOperation() override {
    tile::ModuleAxisInfo analysis(getOperation());
    raw_ostream &os = llvm::outs();
    getOperation().walk([&](FunctionOpInterface func) {
      os << "func @" << func.getName() << "\n";
      // Values named with loc("name") print as %name.
      AsmState state(func, OpPrintingFlags().printNameLocAsPrefix());
      printOp(func, analysis, state, os);
    });
    os.flush();
  }

  /// Block arguments and nested ops first, then the op's own results:
  /// a region's values are printed before the values that leave it.
  static void printOp(Operation *op, const tile::ModuleAxisInfo &analysis,
                      AsmState &state, raw_ostream &os) {
    auto line = [&](Value value, StringRef what) {
      os << "  ";
      value.printAsOperand(os, state);
      os << " = " << what << ": ";
      if (const tile::AxisInfo *info = analysis.get(value))
        info->print(os);
      else
        os << "<unreached>";
      os << "\n";
    };
    std::string argument = (op->getName().getStringRef() + " argument").str();
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments())
          line(arg, argument);
        for (Operation &inner : block)
          printOp(&inner, analysis, state, os);
      }
    if (!isa<FunctionOpInterface>(op))
      for (Value result : op->getResults())
        line(result, op->getName().getStringRef());
    if (auto load = dyn_cast<tile::LoadOp>(op))
      printAccess(op, load.getPtr(), load.getMask(), analysis, os);
    if (auto store = dyn_cast<tile::StoreOp>(op))
      printAccess(op, store.getPtr(), store.getMask(), analysis, os);
  }

  /// The code generator's questions about a load or store, asked along the
  /// innermost dimension.
  static void printAccess(Operation *op, Value ptr, Value mask,
                          const tile::ModuleAxisInfo &analysis,
                          raw_ostream &os) {
    auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
    if (!tensor)
      return;
    unsigned dim = tensor.getRank() - 1;
    os << "  " << op->getName() << " access [dim " << dim
       << "]: ptr_contiguity = " << analysis.getPtrContiguity(ptr, dim)
       << ", ptr_alignment = " << analysis.getPtrAlignment(ptr, dim)
       << ", mask_alignment = ";
    if (mask)
      os << analysis.getMaskAlignment(mask, dim);
    else
      os << "none";
    os << ", vector_width = " << analysis.getVectorWidth(ptr, mask, dim)
       << "\n";
  }
};

} // namespace

namespace mlir::tile {
void registerTestPrintAxisInfoPass() {
  PassRegistration<TestPrintAxisInfoPass>();
}
} // namespace mlir::tile

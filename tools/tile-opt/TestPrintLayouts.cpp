//===- TestPrintLayouts.cpp - the -test-print-layouts pass ----------------===//
//
// Prints the linear map behind the encoding of every tensor value of every
// function (codegen/dialect: tgpu::toLinearLayout, toSharedLayout), one
// line per value in the order the values are defined:
//
//   func @name
//     %arg0: linear<[64, 64] reg=[[0,1],...] lane=[...] warp=[...]>
//     %0: shared<[64, 64] x2B swizzle=128>
//     %1: no layout (an mma layout is for 2-D tiles)
//
// so lit tests can hold each named encoding to the map it stands for.
//
//===----------------------------------------------------------------------===//
#include "codegen/dialect/GpuDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

struct TestPrintLayoutsPass
    : public PassWrapper<TestPrintLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintLayoutsPass)

  StringRef getArgument() const final { return "test-print-layouts"; }
  StringRef getDescription() const final {
    return "Print the linear map of every tensor value's tgpu encoding";
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    getOperation().walk([&](FunctionOpInterface func) {
      os << "func @" << func.getName() << "\n";
      AsmState state(func, OpPrintingFlags().printNameLocAsPrefix());
      auto line = [&](Value v) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        if (!t || !t.getEncoding())
          return;
        os << "  ";
        v.printAsOperand(os, state);
        os << ": ";
        if (auto s = tgpu::toSharedLayout(t)) {
          os << s->str() << "\n";
          return;
        }
        std::string why;
        if (auto l = tgpu::toLinearLayout(t.getEncoding(), t.getShape(), 32, &why))
          os << l->str() << "\n";
        else
          os << "no layout (" << why << ")\n";
      };
      func->walk<WalkOrder::PreOrder>([&](Operation *op) {
        for (Region &r : op->getRegions())
          for (Block &b : r)
            for (BlockArgument a : b.getArguments())
              line(a);
        if (op != func.getOperation())
          for (Value r : op->getResults())
            line(r);
      });
    });
    os.flush();
  }
};

} // namespace

namespace mlir::tgpu {
void registerTestPrintLayoutsPass() { PassRegistration<TestPrintLayoutsPass>(); }
} // namespace mlir::tgpu

//===- Passes.cpp - The GPU passes as tile-opt passes --------------------===//
//
// tgpu-assign-layouts and tgpu-remove-conversions over every kernel of a
// module, with the target and warp count as options (the axis analysis
// supplies the vector widths, as in the code generator's pipeline).
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/analysis/AxisInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace tritium::codegen;

namespace {

template <typename Derived>
struct GpuPass : public PassWrapper<Derived, OperationPass<ModuleOp>> {
  GpuPass() = default;
  GpuPass(const GpuPass &other) : PassWrapper<Derived, OperationPass<ModuleOp>>(other) {}
  void getDependentDialects(DialectRegistry &r) const override { r.insert<tgpu::TGpuDialect>(); }
  typename PassWrapper<Derived, OperationPass<ModuleOp>>::template Option<unsigned> numWarps{
      *this, "num-warps", llvm::cl::desc("warps per program"), llvm::cl::init(4)};
  typename PassWrapper<Derived, OperationPass<ModuleOp>>::template Option<std::string> target{
      *this, "target", llvm::cl::desc("cuda:80 or cuda:90"), llvm::cl::init("cuda:90")};

  /// Runs `body` on each kernel with the options it is compiled with.
  void forEachKernel(llvm::function_ref<LogicalResult(func::FuncOp, const LayoutOptions &)> body) {
    ModuleOp module = this->getOperation();
    LayoutOptions opts;
    opts.numWarps = numWarps;
    opts.computeCapability = parseCudaTarget(target);
    if (!opts.computeCapability) {
      module.emitError() << "unknown target '" << target << "' (cuda:80 or cuda:90)";
      return this->signalPassFailure();
    }
    tile::ModuleAxisInfo axis(module);
    opts.vectorWidth = [&axis](Value ptr, Value mask, unsigned dim) {
      while (auto c = ptr.getDefiningOp<tgpu::ConvertLayoutOp>())
        ptr = c.getSrc();
      while (mask && mask.getDefiningOp<tgpu::ConvertLayoutOp>())
        mask = mask.getDefiningOp<tgpu::ConvertLayoutOp>().getSrc();
      return axis.getVectorWidth(ptr, mask, dim);
    };
    for (auto func : module.getOps<func::FuncOp>()) {
      opts.layoutBits = defaultLayoutBits(func, opts.vectorWidth);
      if (failed(body(func, opts)))
        return this->signalPassFailure();
    }
  }
};

struct AssignLayoutsPass : public GpuPass<AssignLayoutsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AssignLayoutsPass)
  StringRef getArgument() const override { return "tgpu-assign-layouts"; }
  StringRef getDescription() const override {
    return "Give every tensor value a tgpu layout encoding, with explicit conversions";
  }
  void runOnOperation() override {
    forEachKernel([](func::FuncOp func, const LayoutOptions &opts) {
      std::string error;
      if (succeeded(assignLayouts(func, opts, error)))
        return success();
      func.emitError() << error;
      return failure();
    });
  }
};

struct RemoveConversionsPass : public GpuPass<RemoveConversionsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RemoveConversionsPass)
  StringRef getArgument() const override { return "tgpu-remove-conversions"; }
  StringRef getDescription() const override {
    return "Recompute the sources of layout conversions in the target layout where cheap";
  }
  void runOnOperation() override {
    forEachKernel([](func::FuncOp func, const LayoutOptions &opts) {
      removeConversions(func, opts);
      return success();
    });
  }
};

} // namespace

void tritium::codegen::registerGpuPasses() {
  PassRegistration<AssignLayoutsPass>();
  PassRegistration<RemoveConversionsPass>();
}

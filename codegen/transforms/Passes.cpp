//===- Passes.cpp - The GPU passes as tile-opt passes --------------------===//
//
// tgpu-assign-layouts and tgpu-remove-conversions over every kernel of a
// module, with the target and warp count as options (the axis analysis
// supplies the vector widths, as in the code generator's pipeline); and the
// helpers both passes and the lowering share (Passes.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"
#include "ir/analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace tritium::codegen;

unsigned tritium::codegen::elementBytes(Type t) {
  if (auto r = dyn_cast<RankedTensorType>(t))
    t = r.getElementType();
  if (isa<tile::PointerType>(t) || t.isIndex())
    return 8;
  return std::max(1u, t.getIntOrFloatBitWidth() / 8);
}

bool tritium::codegen::isCheapTile(Value v) {
  Operation *d = v.getDefiningOp();
  return d && (isa<tile::SplatOp, tile::MakeRangeOp>(d) ||
               (isa<arith::ConstantOp>(d) &&
                isa<SplatElementsAttr>(cast<arith::ConstantOp>(d).getValue())));
}

bool tritium::codegen::isRecomputableElementwise(Operation *op) {
  llvm::StringRef n = op->getName().getStringRef();
  return !isa<arith::ConstantOp>(op) &&
         (n.starts_with("arith.") || isa<tile::AddPtrOp, tile::BitcastOp, tile::IntToPtrOp,
                                         tile::PtrToIntOp>(op));
}

unsigned tritium::codegen::defaultLayoutBits(Operation *func, const VectorWidthFn &vectorWidth) {
  unsigned bits = 32;
  if (!vectorWidth)
    return bits;
  func->walk([&](Operation *op) {
    Value ptr, mask;
    if (auto l = dyn_cast<tile::LoadOp>(op))
      ptr = l.getPtr(), mask = l.getMask();
    else if (auto s = dyn_cast<tile::StoreOp>(op))
      ptr = s.getPtr(), mask = s.getMask();
    else if (auto c = dyn_cast<tgpu::AsyncCopyOp>(op))
      ptr = c.getPtr(), mask = c.getMask();
    auto rt = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
    if (!rt)
      return;
    unsigned w = vectorWidth(ptr, mask, rt.getRank() - 1);
    if (w > 4)
      bits = std::min(bits, 128 / w);
  });
  return bits;
}

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
    opts.contiguity = [&axis](Value ptr, unsigned dim) {
      while (auto c = ptr.getDefiningOp<tgpu::ConvertLayoutOp>())
        ptr = c.getSrc();
      return axis.getPtrContiguity(ptr, dim);
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

struct WarpSpecializePass : public GpuPass<WarpSpecializePass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WarpSpecializePass)
  StringRef getArgument() const override { return "tgpu-warp-specialize"; }
  StringRef getDescription() const override {
    return "Split a warp_specialize loop fed by TMA copies into producer and consumer warps";
  }
  void runOnOperation() override {
    forEachKernel([](func::FuncOp func, const LayoutOptions &opts) {
      warpSpecializeLoops(func, opts);
      return success();
    });
  }
};

struct WgmmaGroupsPass : public GpuPass<WgmmaGroupsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WgmmaGroupsPass)
  StringRef getArgument() const override { return "tgpu-wgmma-groups"; }
  StringRef getDescription() const override {
    return "Issue Hopper products as warpgroup MMA groups and place their waits";
  }
  void runOnOperation() override {
    forEachKernel([](func::FuncOp func, const LayoutOptions &opts) {
      formWgmmaGroups(func, opts);
      return success();
    });
  }
};

struct StageOperandsPass : public GpuPass<StageOperandsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StageOperandsPass)
  StringRef getArgument() const override { return "tgpu-stage-operands"; }
  StringRef getDescription() const override {
    return "Write the operands warpgroup MMA cannot read where they lie into shared memory";
  }
  void runOnOperation() override {
    forEachKernel([](func::FuncOp func, const LayoutOptions &opts) {
      return stageOperands(func, opts);
    });
  }
};

} // namespace

void tritium::codegen::registerGpuPasses() {
  PassRegistration<AssignLayoutsPass>();
  PassRegistration<RemoveConversionsPass>();
  PassRegistration<WarpSpecializePass>();
  PassRegistration<WgmmaGroupsPass>();
  PassRegistration<StageOperandsPass>();
}

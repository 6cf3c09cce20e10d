//===- Pipeline.cpp - Each GPU target's passes, in order -----------------===//
//
// NVIDIA (cuda:80, cuda:90), from the tile IR the frontend's tile-optimize
// pipeline produced (inline, canonicalize, tile-combine, CSE):
//   0. ops without a native instruction on the target are rewritten as tile
//      ops (dot_scaled: upcasts and a plain dot, ir/transforms);
//      loop-invariant code motion, then pipelining: loads feeding tensor
//      cores copied asynchronously into num_stages shared-memory slots,
//      other loads issued one iteration early (Pipeliner.cpp)
//   1. axis analysis        contiguity/divisibility/constancy (ir/analysis)
//                           bound the vector width of each global access
//      layout assignment    every tensor value gets a linear layout as its
//                           type's tgpu encoding, moves between layouts
//                           become tgpu.convert_layout
//                           (transforms/AssignLayouts.cpp)
//      conversion removal   sources that are cheap to compute anywhere are
//                           recomputed in the layout wanted
//                           (transforms/RemoveConversions.cpp)
//      warp specialization, wgmma groups and their waits, operand staging
//                           (transforms/): the `tile-gpu` stage
//      lowering             the kernel becomes LLVM IR for one thread
//                           (Lowering.cpp and the *ToLLVM.cpp files)
//   2. libdevice            linked when math functions are called
//   3. LLVM O3              the standard pipeline with the NVPTX target;
//                           then a loop-free kernel's parameter arithmetic
//                           goes first (ptxas keeps it in uniform registers)
//   4. NVPTX codegen        PTX text
//   5. ptxas                in the runtime (runtime/cuda/Ptxas), PTX -> cubin
// TRITIUM_DUMP_IR=1 (or =<kernel name>) prints every stage to stderr.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"
#include "ir/Names.h"

#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "codegen/amd/Amd.h"
#include "codegen/nvidia/Nvidia.h"
#include "codegen/transforms/Passes.h"
#include "ir/StageLimit.h"
#include "ir/TileDialect.h"
#include "ir/analysis/AxisInfo.h"
#include "ir/transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <memory>

using namespace tritium::codegen;

namespace {
bool dumpWanted(const std::string &kernel) {
  const char *e = std::getenv("TRITIUM_DUMP_IR");
  return e && *e && (std::string(e) == "1" || kernel == e);
}
void dump(const std::string &kernel, const char *stage, const std::string &text) {
  if (dumpWanted(kernel))
    llvm::errs() << "// ----- " << kernel << ": " << stage << " -----\n"
                 << text << "\n";
}
template <typename T> std::string print(T &x) {
  std::string s;
  llvm::raw_string_ostream os(s);
  x.print(os, nullptr);
  return s;
}
} // namespace

std::string tritium::codegen::paramKinds(mlir::func::FuncOp kernel) {
  std::string k;
  for (mlir::Type t : kernel.getArgumentTypes()) {
    if (mlir::isa<mlir::tile::PointerType>(t))
      k += 'p';
    else if (t.isInteger(1))
      k += 'b';
    else if (t.isInteger(8))
      k += 'c';
    else if (t.isInteger(16))
      k += 's';
    else if (t.isInteger(32))
      k += 'i';
    else if (t.isInteger(64))
      k += 'l';
    else if (t.isF32())
      k += 'f';
    else if (t.isF64())
      k += 'd';
    else if (t.isF16())
      k += 'h';
    else if (t.isBF16())
      k += 'B';
    else
      k += '?';
  }
  return k;
}

unsigned tritium::codegen::parseCudaTarget(const std::string &t) {
  std::string digits;
  if (t.rfind("cuda:", 0) == 0)
    digits = t.substr(5);
  else if (t.rfind("sm_", 0) == 0)
    digits = t.substr(3);
  else
    return 0;
  if (digits.empty() || digits.size() > 3 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return 0;
  unsigned cc = std::stoul(digits);
  return cc >= 70 ? cc : 0;
}

namespace {
/// One compile whose pipeliner keeps `holdBack` bytes of shared memory
/// free. When `overshoot` is given and the lowered kernel needs more shared
/// memory than the target has, stops there with the excess in it.
bool lowerAttempt(mlir::ModuleOp module, const std::string &kernel,
                  const tritium::codegen::CudaCompileOptions &options,
                  tritium::codegen::CudaKernelArtifacts &out, std::string &error,
                  int64_t holdBack, int64_t *overshoot,
                  tritium::codegen::LoweredCudaPtr *lowered);

/// The warps a program asks for: the options', else the kernel's
/// `tile.num_warps`, else 4.
unsigned requestedWarps(mlir::func::FuncOp func,
                        const tritium::codegen::CudaCompileOptions &options) {
  if (options.numWarps)
    return options.numWarps;
  if (auto a = func->getAttrOfType<mlir::IntegerAttr>("tile.num_warps"))
    return unsigned(a.getInt());
  return 4;
}
} // namespace

struct tritium::codegen::LoweredCuda {
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::Module> module;
  std::string kernel;
  CudaCompileOptions options;
};

void tritium::codegen::LoweredCudaDeleter::operator()(LoweredCuda *l) const { delete l; }

tritium::codegen::LoweredCudaPtr
tritium::codegen::lowerForCuda(mlir::ModuleOp module, const std::string &kernel,
                               const CudaCompileOptions &options, CudaKernelArtifacts &out,
                               std::string &error) {
  // The pipeliner sizes its shared-memory slots before the lowering knows
  // what the conversions and products stage; a kernel that ends up over
  // the target's shared memory is compiled again with the excess held back
  // from the slots (fewer stages), as often as that helps.
  auto attempt = [&](const CudaCompileOptions &o) -> LoweredCudaPtr {
    int64_t holdBack = 0;
    for (int tries = 0;; ++tries) {
      int64_t overshoot = 0;
      LoweredCudaPtr lowered;
      bool ok = lowerAttempt(module, kernel, o, out, error, holdBack,
                             tries < 4 ? &overshoot : nullptr, &lowered);
      if (ok)
        return lowered;
      if (overshoot <= 0)
        return nullptr;
      holdBack += (overshoot + 4095) / 4096 * 4096;
    }
  };
  // Warp specialization on sm_90 follows Triton's: a loop marked
  // warp_specialize in a 4-warp program is split into a producer warpgroup
  // and two consumer warpgroups sharing the rows of its products' tiles (8
  // consumer warps: products of at least 128 rows; with fewer, one
  // consumer warpgroup); in programs of other warp counts the mark is
  // ignored.
  auto func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!func || !options.amdArch.empty() || options.computeCapability < 90 ||
      !options.warpSpecialize)
    return attempt(options);
  bool marked = false, wideProducts = true;
  func.walk([&](mlir::scf::ForOp f) {
    if (!f->hasAttr("tile.warp_specialize"))
      return;
    marked = true;
    f.walk([&](mlir::tile::DotOp d) {
      auto t = mlir::cast<mlir::RankedTensorType>(d.getType());
      wideProducts &= t.getRank() == 2 && t.getShape()[0] % 128 == 0;
    });
  });
  if (!marked)
    return attempt(options);
  unsigned numWarps = requestedWarps(func, options);
  CudaCompileOptions o = options;
  if (numWarps != 4) {
    o.warpSpecialize = false;
    return attempt(o);
  }
  if (!wideProducts)
    return attempt(options);
  o.numWarps = 8;
  LoweredCudaPtr lowered = attempt(o);
  if (lowered && out.numWarps > o.numWarps) // split: a producer joined
    return lowered;
  // Not split after all (or not compilable so): the program as asked for.
  o.numWarps = numWarps;
  o.warpSpecialize = false;
  return attempt(o);
}

bool tritium::codegen::compileForCuda(mlir::ModuleOp module,
                                      const std::string &kernel,
                                      const CudaCompileOptions &options,
                                      CudaKernelArtifacts &out,
                                      std::string &error, CudaStage last) {
  LoweredCudaPtr lowered = lowerForCuda(module, kernel, options, out, error);
  if (!lowered)
    return false;
  return last == CudaStage::TileGpu || finishForCuda(*lowered, out, error, last);
}

void tritium::codegen::CudaKernelArtifacts::addStage(const std::string &name,
                                                    double seconds) {
  for (auto &[n, t] : stageSeconds)
    if (n == name) {
      t += seconds;
      return;
    }
  stageSeconds.emplace_back(name, seconds);
}

namespace {
/// Seconds since `start`, and `start` moved to now.
double lap(std::chrono::steady_clock::time_point &start) {
  auto now = std::chrono::steady_clock::now();
  double s = std::chrono::duration<double>(now - start).count();
  start = now;
  return s;
}

/// A diagnostic handler appending each diagnostic to `out`, after its
/// file:line:col where it has one and `kind`.
auto collectInto(std::string &out, const char *kind) {
  return [&out, kind](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(out);
    if (tritium::fileLocOf(d.getLocation()))
      os << tritium::diagPrefixOf(d.getLocation());
    os << kind << d.str();
    return mlir::success();
  };
}

bool lowerAttempt(mlir::ModuleOp module, const std::string &kernel,
                  const tritium::codegen::CudaCompileOptions &options,
                  tritium::codegen::CudaKernelArtifacts &out, std::string &error,
                  int64_t holdBack, int64_t *overshoot,
                  tritium::codegen::LoweredCudaPtr *lowered) {
  using namespace tritium::codegen;
  auto func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!func) {
    error = "no kernel named '" + kernel + "' in the module";
    return false;
  }
  unsigned numWarps = requestedWarps(func, options);
  if (numWarps == 0 || (numWarps & (numWarps - 1)) || numWarps > 32) {
    error = "num_warps must be a power of two between 1 and 32, got " +
            std::to_string(numWarps);
    return false;
  }
  out.name = kernel;
  out.numWarps = numWarps;
  // AMD targets take the passes' paths for GPUs without NVIDIA's features
  // (compute capability 0).
  bool amd = !options.amdArch.empty();
  unsigned cc = amd ? 0 : options.computeCapability;
  auto clock = std::chrono::steady_clock::now();
  std::optional<tritium::StageGuard> stage;
  stage.emplace("gpu passes", kernel);

  // 0. Tile-level software pipelining, on a copy (the caller keeps its IR).
  module.getContext()->getOrLoadDialect<mlir::tgpu::TGpuDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> owned = module.clone();
  module = *owned;
  func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!options.warpSpecialize)
    module.walk([](mlir::scf::ForOp f) { f->removeAttr("tile.warp_specialize"); });
  {
    // Diagnostics of the rewrite become the compile error.
    std::string diag;
    mlir::ScopedDiagnosticHandler h(module.getContext(), collectInto(diag, "error: "));
    if (mlir::failed(mlir::tile::decomposeDotScaled(module))) {
      error = diag;
      return false;
    }
    mlir::tile::decomposeBf16Dots(module);
    mlir::tile::widenFp8Arithmetic(module);
  }
  // A warp-specialized tile loop over an inner k loop is flattened on
  // sm_90: its producer then copies across tile boundaries in one loop.
  // Invariant code in a loop to flatten (an inner bound computed in the
  // tile loop's body) moves out first, so that the nest has the form
  // flattening takes.
  module.walk([&](mlir::scf::ForOp f) {
    if (cc >= 90 && f->hasAttr("tile.warp_specialize"))
      f->setAttr("tile.flatten", mlir::UnitAttr::get(f.getContext()));
    if (!f->hasAttr("tile.flatten"))
      return;
    bool inside = false;
    for (auto inner : f.getBody()->getOps<mlir::scf::ForOp>())
      for (mlir::Value v : {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
        inside |= f->isAncestor(v.getParentBlock()->getParentOp());
    if (inside)
      mlir::moveLoopInvariantCode(mlir::cast<mlir::LoopLikeOpInterface>(f.getOperation()));
  });
  mlir::tile::flattenLoops(module);
  module.walk([&](mlir::scf::ForOp loop) {
    unsigned stages = options.numStages;
    if (auto a = loop->getAttrOfType<mlir::IntegerAttr>("tile.num_stages"))
      stages = a.getInt();
    if (stages < 2)
      loop->setAttr("tile.no_pipeline", mlir::UnitAttr::get(loop.getContext()));
  });
  module.walk([](mlir::LoopLikeOpInterface loop) { mlir::moveLoopInvariantCode(loop); });
  pipelineLoads(module, options.numStages, cc, numWarps, holdBack);

  // 1. Layouts and lowering, into an LLVM context of this compile's own.
  auto llctx = std::make_unique<llvm::LLVMContext>();
  auto llmodOwned = std::make_unique<llvm::Module>(kernel, *llctx);
  llvm::Module &llmod = *llmodOwned;
  auto target = amd ? createAmdTargetInfo(options.amdArch) : createNvidiaTargetInfo(cc);
  target->configureModule(llmod);
  Lowering lowering(llmod, *target, numWarps);
  lowering.maxRegisters = options.maxRegisters;
  // Vector widths of global accesses come from the axis analysis.
  auto axis = std::make_unique<mlir::tile::ModuleAxisInfo>(module);
  VectorWidthFn vectorWidth = [&axis](mlir::Value ptr, mlir::Value mask, unsigned dim) {
    return axis->getVectorWidth(ptr, mask, dim);
  };
  lowering.layoutBits = defaultLayoutBits(func, vectorWidth);
  {
    // Layout assignment: the tile-gpu stage. (The module is this compile's
    // copy; it says its target.)
    LayoutOptions lo;
    lo.numWarps = numWarps;
    lo.computeCapability = cc;
    lo.warpSize = target->warpSize();
    lo.mfma = amd;
    lo.amdArch = options.amdArch;
    lo.layoutBits = lowering.layoutBits;
    lo.vectorWidth = vectorWidth;
    lo.contiguity = [&axis](mlir::Value ptr, unsigned dim) {
      return axis->getPtrContiguity(ptr, dim);
    };
    std::string why;
    if (mlir::failed(assignLayouts(func, lo, why))) {
      error = "internal error: layout assignment: " + why;
      return false;
    }
    removeConversions(func, lo);
    lowering.producerWarps = warpSpecializeLoops(func, lo);
    formWgmmaGroups(func, lo);
    {
      std::string diag;
      mlir::ScopedDiagnosticHandler h(module.getContext(), collectInto(diag, ""));
      if (mlir::failed(stageOperands(func, lo))) {
        error = "internal error: operand staging: " + diag;
        return false;
      }
    }
    out.numWarps = numWarps + lowering.producerWarps;
    // Analysed again: the values the passes made (conversions keep their
    // source's contiguity).
    axis = std::make_unique<mlir::tile::ModuleAxisInfo>(module);
    module->setAttr("tile.target",
                    mlir::StringAttr::get(module.getContext(),
                                          target->name()));
    // The passes must leave valid IR: a value whose type names a layout
    // other than the one it is lowered in is an internal error here, not
    // a wrong result later.
    std::string diag;
    {
      mlir::ScopedDiagnosticHandler h(module.getContext(), collectInto(diag, ""));
      // Calls to helpers that stay calls (and the module, which checks
      // them) are left out: the helpers' signatures carry no layouts.
      bool valid = true;
      module.walk([&](mlir::Operation *op) {
        if (!mlir::isa<mlir::func::CallOp, mlir::ModuleOp>(op) &&
            mlir::failed(mlir::verify(op, false)))
          valid = false;
      });
      if (!valid) {
        error = "internal error: the GPU passes left IR that does not verify: " + diag;
        return false;
      }
    }
    std::string s;
    llvm::raw_string_ostream os(s);
    module.print(os, mlir::OpPrintingFlags().assumeVerified());
    out.tileGpu = s;
  }
  out.addStage("gpu passes", lap(clock));
  if (auto err = stage->error()) {
    error = "error: " + *err;
    return false;
  }
  stage.emplace("lowering", kernel);
  lowering.vectorWidthHint = vectorWidth;
  lowering.constancyHint = [&axis](mlir::Value v, unsigned dim) -> int64_t {
    const mlir::tile::AxisInfo *info = axis->get(v);
    return info && dim < info->getRank() ? info->getConstancy(dim) : 1;
  };
  if (mlir::failed(lowering.lowerKernel(func))) {
    error = lowering.error;
    return false;
  }
  out.addStage("lowering", lap(clock));
  if (auto err = stage->error()) {
    error = "error: " + *err;
    return false;
  }
  out.sharedBytes = lowering.sharedBytes;
  out.globalScratchBytes = lowering.globalScratchBytes;
  int64_t limit = sharedMemoryLimit(cc);
  if (overshoot && int64_t(out.sharedBytes) > limit && lowering.scratchBase > 0) {
    *overshoot = int64_t(out.sharedBytes) - limit;
    return false;
  }
  dump(kernel, "tile-gpu", out.tileGpu);
  if (dumpWanted(kernel))
    dump(kernel, "llir (lowered)", print(llmod));
  auto *l = new LoweredCuda;
  l->ctx = std::move(llctx);
  l->module = std::move(llmodOwned);
  l->kernel = kernel;
  l->options = options;
  lowered->reset(l);
  return true;
}
} // namespace

namespace {
/// finishForCuda for an AMD target: O3, AMDGCN, and (CudaStage::Hsaco) the
/// code object linked by ld.lld.
bool finishForAmd(tritium::codegen::LoweredCuda &lowered,
                  tritium::codegen::CudaKernelArtifacts &out, std::string &error,
                  tritium::codegen::CudaStage last,
                  std::chrono::steady_clock::time_point &clock) {
  using namespace tritium::codegen;
  llvm::Module &llmod = *lowered.module;
  const std::string &kernel = lowered.kernel, &arch = lowered.options.amdArch;
  auto stageError = [&](std::optional<tritium::StageGuard> &stage) {
    if (auto err = stage->error()) {
      error = "error: " + *err;
      return true;
    }
    return false;
  };
  std::optional<tritium::StageGuard> stage;
  stage.emplace("llvm opt", kernel);
  if (!linkOcml(llmod, arch, error) || !optimizeAmdModule(llmod, arch, error))
    return false;
  out.llir = print(llmod);
  out.addStage("llvm opt", lap(clock));
  if (stageError(stage))
    return false;
  dump(kernel, "llir", out.llir);
  if (last == CudaStage::LLIR)
    return true;
  // The object is emitted from a copy: code generation changes the module.
  std::unique_ptr<llvm::Module> copy;
  if (last == CudaStage::Hsaco)
    copy = llvm::CloneModule(llmod);
  stage.emplace("amdgcn", kernel);
  if (!emitAmdgcn(llmod, arch, /*object=*/false, out.amdgcn, error))
    return false;
  out.addStage("amdgcn", lap(clock));
  if (stageError(stage))
    return false;
  dump(kernel, "amdgcn", out.amdgcn);
  if (last != CudaStage::Hsaco)
    return true;
  stage.emplace("hsaco", kernel);
  std::string object;
  if (!emitAmdgcn(*copy, arch, /*object=*/true, object, error) ||
      !linkHsaco(object, out.hsaco, error))
    return false;
  out.addStage("hsaco", lap(clock));
  return !stageError(stage);
}
} // namespace

bool tritium::codegen::finishForCuda(LoweredCuda &lowered, CudaKernelArtifacts &out,
                                     std::string &error, CudaStage last) {
  auto clock = std::chrono::steady_clock::now();
  llvm::Module &llmod = *lowered.module;
  const std::string &kernel = lowered.kernel;
  const CudaCompileOptions &options = lowered.options;
  if (!options.amdArch.empty())
    return finishForAmd(lowered, out, error, last, clock);
  // 2. libdevice, 3. O3.
  std::optional<tritium::StageGuard> stage;
  stage.emplace("llvm opt", kernel);
  if (!linkLibdevice(llmod, error) ||
      !optimizeModule(llmod, options.computeCapability, error, options.fpFusion))
    return false;
  out.llir = print(llmod);
  out.addStage("llvm opt", lap(clock));
  if (auto err = stage->error()) {
    error = "error: " + *err;
    return false;
  }
  dump(kernel, "llir", out.llir);
  if (last == CudaStage::LLIR)
    return true;

  // 4. PTX.
  stage.emplace("nvptx", kernel);
  if (!emitPtx(llmod, options.computeCapability, out.ptx, error, options.fpFusion))
    return false;
  out.addStage("nvptx", lap(clock));
  if (auto err = stage->error()) {
    error = "error: " + *err;
    return false;
  }
  dump(kernel, "ptx", out.ptx);
  return true;
}

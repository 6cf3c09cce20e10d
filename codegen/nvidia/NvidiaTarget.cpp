//===- NvidiaTarget.cpp - TargetInfo for NVPTX, LLVM IR to PTX ------------===//
//
// The NVIDIA side of the lowering (special registers, bar.sync, shfl.sync,
// vprintf, __assertfail) and the back end: libdevice is linked when the
// kernel calls __nv_* functions, the module is optimized at O3 with the
// NVPTX target machine and printed as PTX.
//
//===----------------------------------------------------------------------===//
#include "codegen/nvidia/Nvidia.h"
#include "ir/StageLimit.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Vectorize/SLPVectorizer.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <sys/stat.h>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace tritium::codegen;

namespace {

const char *kTriple = "nvptx64-nvidia-cuda";

class NvidiaTargetInfo : public TargetInfo {
public:
  explicit NvidiaTargetInfo(unsigned cc) : cc_(cc) {}
  std::string name() const override { return "cuda:" + std::to_string(cc_); }
  unsigned globalAddrSpace() const override { return 1; }
  unsigned sharedAddrSpace() const override { return 3; }

  llvm::Value *threadIdX(llvm::IRBuilderBase &b) override {
    return b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {});
  }
  llvm::Value *programId(llvm::IRBuilderBase &b, unsigned axis) override {
    static const llvm::Intrinsic::ID ids[] = {
        llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
        llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
        llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    return b.CreateIntrinsic(b.getInt32Ty(), ids[axis], {});
  }
  llvm::Value *numPrograms(llvm::IRBuilderBase &b, unsigned axis) override {
    static const llvm::Intrinsic::ID ids[] = {
        llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
        llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
        llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
    return b.CreateIntrinsic(b.getInt32Ty(), ids[axis], {});
  }
  void barrier(llvm::IRBuilderBase &b) override {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                      {b.getInt32(0)});
  }
  void barrier(llvm::IRBuilderBase &b, unsigned id, unsigned threads) override {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_cta_sync_aligned_count, {},
                      {b.getInt32(id), b.getInt32(threads)});
  }
  llvm::Value *shuffleXor(llvm::IRBuilderBase &b, llvm::Value *v,
                          unsigned mask) override {
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
                             {b.getInt32(0xffffffffu), v, b.getInt32(mask),
                              b.getInt32(0x1f)});
  }
  bool hasStmatrix() const override { return cc_ >= 90; }
  llvm::Value *warpUniform(llvm::IRBuilderBase &b, llvm::Value *v) override {
    // ptxas treats lane 0's value, broadcast, as uniform across the warp.
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_idx_i32, {},
                             {b.getInt32(0xffffffffu), v, b.getInt32(0),
                              b.getInt32(0x1f)});
  }
  void printf(llvm::IRBuilderBase &b, llvm::StringRef format,
              llvm::ArrayRef<llvm::Value *> args) override {
    llvm::Module *m = b.GetInsertBlock()->getModule();
    auto &ctx = m->getContext();
    llvm::Value *fmt = b.CreateGlobalString(format, "printf_fmt", 0, m);
    llvm::Value *buf = llvm::ConstantPointerNull::get(b.getPtrTy());
    if (!args.empty()) {
      std::vector<llvm::Type *> tys;
      for (llvm::Value *a : args)
        tys.push_back(a->getType());
      auto *st = llvm::StructType::get(ctx, tys);
      llvm::IRBuilder<> eb(&b.GetInsertBlock()->getParent()->getEntryBlock(),
                           b.GetInsertBlock()->getParent()->getEntryBlock().begin());
      llvm::Value *slot = eb.CreateAlloca(st);
      for (unsigned i = 0; i < args.size(); ++i)
        b.CreateStore(args[i], b.CreateStructGEP(st, slot, i));
      buf = slot;
    }
    auto vprintf = m->getOrInsertFunction(
        "vprintf", llvm::FunctionType::get(b.getInt32Ty(),
                                           {b.getPtrTy(), b.getPtrTy()}, false));
    b.CreateCall(vprintf, {fmt, buf});
  }
  void assertFail(llvm::IRBuilderBase &b, llvm::StringRef message,
                  llvm::StringRef file, unsigned line,
                  llvm::StringRef function) override {
    llvm::Module *m = b.GetInsertBlock()->getModule();
    auto fn = m->getOrInsertFunction(
        "__assertfail",
        llvm::FunctionType::get(b.getVoidTy(),
                                {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(),
                                 b.getPtrTy(), b.getInt64Ty()},
                                false));
    b.CreateCall(fn, {b.CreateGlobalString(message, "assert_msg", 0, m),
                      b.CreateGlobalString(file, "assert_file", 0, m),
                      b.getInt32(line),
                      b.CreateGlobalString(function, "assert_func", 0, m),
                      b.getInt64(1)});
  }
  void markKernel(llvm::Function *fn, unsigned numThreads,
                  unsigned maxRegisters) override {
    fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
    fn->addFnAttr("nvvm.maxntid", std::to_string(numThreads));
    if (maxRegisters)
      fn->addFnAttr("nvvm.maxnreg", std::to_string(maxRegisters));
  }
  void configureModule(llvm::Module &m) override {
    llvm::TargetMachine *tm = targetMachine(cc_);
    m.setTargetTriple(llvm::Triple(kTriple));
    if (tm)
      m.setDataLayout(tm->createDataLayout());
  }

private:
  unsigned cc_;
};

bool fileExists(const std::string &p) {
  struct stat st;
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

std::unique_ptr<TargetInfo>
tritium::codegen::createNvidiaTargetInfo(unsigned computeCapability) {
  return std::make_unique<NvidiaTargetInfo>(computeCapability);
}

llvm::TargetMachine *tritium::codegen::targetMachine(unsigned cc, bool fpFusion) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers are 32 bits wide (the shared window is far
    // smaller than 4 GB): their arithmetic, the addresses handed to
    // cp.async/ldmatrix/mbarriers and the wgmma descriptors built from them
    // stay 32-bit. The option is read when a target machine is made.
    // A widened index scaled and added to a base becomes one mad.wide, which
    // ptxas turns into LEA/LEA.HI.X off a base held in uniform registers;
    // as mul.wide + add.s64 it stays an IMAD.WIDE off a base reloaded into
    // each thread's registers (recomputed tile addresses in a loop pay it
    // per copy per iteration).
    auto &options = llvm::cl::getRegisteredOptions();
    for (const char *name : {"nvptx-short-ptr", "nvptx-mad-wide-opt"}) {
      auto it = options.find(name);
      if (it != options.end())
        it->second->addOccurrence(0, name, "true");
    }
  });
  // One per thread: compiles on several threads at once (warmupAll) each
  // use their own, as a target machine is not made for concurrent code
  // generation.
  static thread_local std::map<std::pair<unsigned, bool>,
                               std::unique_ptr<llvm::TargetMachine>> cache;
  auto &tm = cache[{cc, fpFusion}];
  if (!tm) {
    std::string err;
    llvm::Triple triple(kTriple);
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!t)
      return nullptr;
    llvm::TargetOptions opts;
    if (fpFusion)
      opts.AllowFPOpFusion = llvm::FPOpFusion::Fast;
    // sm_90a: Hopper's architecture-specific instructions (wgmma).
    tm.reset(t->createTargetMachine(triple, "sm_" + std::to_string(cc) + (cc == 90 ? "a" : ""),
                                    // PTX 8.4 for fp8 mma.sync (sm_89+).
                                    cc >= 89 ? "+ptx84" : "+ptx80", opts, std::nullopt,
                                    std::nullopt,
                                    llvm::CodeGenOptLevel::Aggressive));
  }
  return tm.get();
}

std::string tritium::codegen::findLibdevice() {
  if (const char *e = std::getenv("TRITIUM_LIBDEVICE"))
    return fileExists(e) ? e : "";
  std::vector<std::string> roots;
  for (const char *v : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *e = std::getenv(v))
      roots.push_back(e);
  roots.push_back("/usr/local/cuda");
  roots.push_back("/usr/lib/nvidia-cuda-toolkit");
  for (const std::string &r : roots) {
    std::string p = r + "/nvvm/libdevice/libdevice.10.bc";
    if (fileExists(p))
      return p;
  }
  if (fileExists("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"))
    return "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc";
  return "";
}

bool tritium::codegen::linkLibdevice(llvm::Module &m, std::string &error) {
  bool needed = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      needed = true;
  if (!needed)
    return true;
  std::string path = findLibdevice();
  if (path.empty()) {
    error = "the kernel calls libdevice math functions, but libdevice.10.bc "
            "was not found (set TRITIUM_LIBDEVICE or CUDA_HOME)";
    return false;
  }
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    error = "cannot read " + path;
    return false;
  }
  // Read lazily: linking materializes only the functions the kernel calls
  // (a full parse of libdevice takes 16 ms, a lazy one under 1).
  auto lib = llvm::getOwningLazyBitcodeModule(std::move(*buf), m.getContext());
  if (!lib) {
    error = "cannot parse " + path + ": " + llvm::toString(lib.takeError());
    return false;
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib),
                                llvm::Linker::Flags::LinkOnlyNeeded)) {
    error = "linking libdevice failed";
    return false;
  }
  // Only the kernel is visible outside; libdevice's helpers may be inlined
  // and dropped.
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  // libdevice as Triton builds it: flush-to-zero variants (__nv_exp2f is
  // ex2.approx.ftz, __nv_logf's polynomial fma.rn.ftz).
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(1));
  return true;
}

/// In a kernel without loops, arithmetic of the kernel's parameters and
/// constants alone (the same in every thread) moves to the top of the
/// entry block, in its order: ptxas then keeps it in uniform registers.
/// Interleaved with per-thread work (a Philox key schedule between the
/// rounds of 8 counters), it took vector registers instead: 40 a thread
/// for 04's dropout against 32. Kernels with loops have their invariants
/// hoisted to the loops' preheaders already (LICM); moving them further
/// up lengthened their lives (an attention backward spilled more).
static void hoistParameterArithmetic(llvm::Function &f) {
  llvm::SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>> backEdges;
  llvm::FindFunctionBackedges(f, backEdges);
  if (!backEdges.empty())
    return;
  llvm::BasicBlock &entry = f.getEntryBlock();
  llvm::SmallPtrSet<llvm::Value *, 32> uniform;
  std::vector<llvm::Instruction *> moved;
  for (llvm::Instruction &i : entry) {
    if (!(llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::ICmpInst, llvm::SelectInst>(i)) ||
        i.mayHaveSideEffects() || i.mayReadOrWriteMemory())
      continue;
    if (auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(&i))
      if (bo->isIntDivRem()) // may trap: stays where it was
        continue;
    bool ok = llvm::all_of(i.operands(), [&](llvm::Value *v) {
      return llvm::isa<llvm::Argument, llvm::Constant>(v) || uniform.contains(v);
    });
    if (!ok)
      continue;
    uniform.insert(&i);
    moved.push_back(&i);
  }
  // Before the first instruction that stays; those above it are in place.
  llvm::Instruction *at = nullptr;
  for (llvm::Instruction &i : entry)
    if (!i.isTerminator() && !llvm::isa<llvm::PHINode, llvm::AllocaInst>(i) &&
        !uniform.contains(&i)) {
      at = &i;
      break;
    }
  if (!at)
    return;
  for (llvm::Instruction *i : moved)
    if (at->comesBefore(i))
      i->moveBefore(at->getIterator());
}

bool tritium::codegen::optimizeModule(llvm::Module &m, unsigned cc,
                                      std::string &error, bool fpFusion) {
  llvm::TargetMachine *tm = targetMachine(cc, fpFusion);
  if (!tm) {
    error = "the NVPTX target is not available in this build";
    return false;
  }
  std::string verifyErr;
  llvm::raw_string_ostream vs(verifyErr);
  if (llvm::verifyModule(m, &vs)) {
    error = "internal error: invalid LLVM IR: " + verifyErr;
    return false;
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // A stage past its time limit skips the optional passes left.
  llvm::PassInstrumentationCallbacks pic;
  pic.registerShouldRunOptionalPassCallback([](llvm::StringRef, llvm::Any) {
    const tritium::StageGuard *g = tritium::currentStage();
    return !g || !g->expired();
  });
  llvm::PassBuilder pb(tm, llvm::PipelineTuningOptions(), std::nullopt, &pic);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  // The pipeline's last instcombine narrows fp32 arithmetic on widened
  // 16-bit values (fptrunc(fpext(a) + fpext(b))) into scalar fp16/bf16
  // ops, after its SLP vectorizer ran: one more SLP pass pairs them into
  // .f16x2/.bf16x2 ops on the packed registers the values were loaded in.
  // Left scalar, every pair is unpacked into two registers and both live
  // on (05's layer-norm backward holds its partial dW/dB across a spin
  // lock: 166 registers, one program a multiprocessor, against 128).
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::SLPVectorizerPass()));
  mpm.run(m, mam);
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      hoistParameterArithmetic(f);
  return true;
}

bool tritium::codegen::emitPtx(llvm::Module &m, unsigned cc, std::string &ptx,
                               std::string &error, bool fpFusion) {
  llvm::TargetMachine *tm = targetMachine(cc, fpFusion);
  if (!tm) {
    error = "the NVPTX target is not available in this build";
    return false;
  }
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    error = "the NVPTX target cannot emit assembly";
    return false;
  }
  // A stage past its time limit skips the optional passes left (the
  // required ones still run, and the caller reports the limit).
  struct LimitGate : llvm::OptPassGate {
    const tritium::StageGuard *guard = tritium::currentStage();
    bool isEnabled() const override { return guard != nullptr; }
    bool shouldRunPass(llvm::StringRef, llvm::StringRef) const override {
      return !guard->expired();
    }
  } gate;
  llvm::OptPassGate &previous = m.getContext().getOptPassGate();
  m.getContext().setOptPassGate(gate);
  pm.run(m);
  m.getContext().setOptPassGate(previous);
  ptx = std::string(out.str());
  return true;
}

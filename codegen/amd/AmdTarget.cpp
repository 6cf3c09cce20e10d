//===- AmdTarget.cpp - TargetInfo for AMDGPU, LLVM IR to AMDGCN and hsaco -===//
//
// The AMD side of the lowering (workitem/workgroup ids, the grid size from
// the implicit kernel arguments of code object v5, s_barrier with
// workgroup fences, ds_bpermute across a wave of 64 lanes, printf over
// hostcall) and the back end: ROCm's device libraries linked (ocml's math,
// ockl's printf), O3 with the AMDGPU target machine, AMDGCN assembly or an
// ELF code object, ld.lld into an hsaco, and the resource report from the
// code object's metadata (the `.amdgpu_metadata` block of the assembly).
//
//===----------------------------------------------------------------------===//
#include "codegen/amd/Amd.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}
extern char **environ;

using namespace tritium::codegen;

namespace {

const char *kTriple = "amdgcn-amd-amdhsa";

class AmdTargetInfo : public TargetInfo {
public:
  explicit AmdTargetInfo(std::string arch) : arch_(std::move(arch)) {}
  std::string name() const override { return "hip:" + arch_; }
  unsigned warpSize() const override { return 64; }
  unsigned globalAddrSpace() const override { return 1; }
  unsigned sharedAddrSpace() const override { return 3; }
  bool isNvidia() const override { return false; }

  llvm::Value *threadIdX(llvm::IRBuilderBase &b) override {
    return b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::amdgcn_workitem_id_x, {});
  }
  llvm::Value *programId(llvm::IRBuilderBase &b, unsigned axis) override {
    static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::amdgcn_workgroup_id_x,
                                              llvm::Intrinsic::amdgcn_workgroup_id_y,
                                              llvm::Intrinsic::amdgcn_workgroup_id_z};
    return b.CreateIntrinsic(b.getInt32Ty(), ids[axis], {});
  }
  llvm::Value *numPrograms(llvm::IRBuilderBase &b, unsigned axis) override {
    // Code object v5: hidden_block_count_{x,y,z} are the first three i32
    // of the implicit arguments.
    llvm::Value *args = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_implicitarg_ptr, {});
    llvm::Value *p = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), args, 4 * axis);
    auto *ld = b.CreateAlignedLoad(b.getInt32Ty(), p, llvm::Align(4));
    ld->setMetadata(llvm::LLVMContext::MD_invariant_load,
                    llvm::MDNode::get(b.getContext(), {}));
    return ld;
  }
  void barrier(llvm::IRBuilderBase &b) override {
    auto scope = b.getContext().getOrInsertSyncScopeID("workgroup");
    b.CreateFence(llvm::AtomicOrdering::Release, scope);
    b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {});
    b.CreateFence(llvm::AtomicOrdering::Acquire, scope);
  }
  void barrier(llvm::IRBuilderBase &b, unsigned, unsigned) override {
    // No named barriers before gfx12: the whole workgroup meets.
    barrier(b);
  }
  llvm::Value *shuffleXor(llvm::IRBuilderBase &b, llvm::Value *v, unsigned mask) override {
    llvm::Type *t = v->getType();
    llvm::Value *x = t->isIntegerTy(32) ? v : b.CreateBitCast(v, b.getInt32Ty());
    llvm::Value *lane = b.CreateAnd(threadIdX(b), b.getInt32(63));
    llvm::Value *addr = b.CreateShl(b.CreateXor(lane, b.getInt32(mask)), 2);
    llvm::Value *r =
        b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::amdgcn_ds_bpermute, {addr, x});
    return t->isIntegerTy(32) ? r : b.CreateBitCast(r, t);
  }
  llvm::Value *warpUniform(llvm::IRBuilderBase &b, llvm::Value *v) override {
    if (!v->getType()->isIntegerTy(32))
      return v;
    return b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::amdgcn_readfirstlane, {v});
  }
  /// ROCm's printf over hostcall, as HIP's device printf calls it (ockl's
  /// functions, linked from ockl.bc): a message opened by
  /// __ockl_printf_begin, the format with its NUL appended, then the
  /// arguments seven at a time as 64-bit words (a double by its bits);
  /// the last piece closes the message, which the host formats.
  void printf(llvm::IRBuilderBase &b, llvm::StringRef format,
              llvm::ArrayRef<llvm::Value *> args) override {
    llvm::Module *m = b.GetInsertBlock()->getModule();
    llvm::Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
    auto begin =
        m->getOrInsertFunction("__ockl_printf_begin", llvm::FunctionType::get(i64, {i64}, false));
    auto appendString = m->getOrInsertFunction(
        "__ockl_printf_append_string_n",
        llvm::FunctionType::get(i64, {i64, b.getPtrTy(), i64, i32}, false));
    std::vector<llvm::Type *> argTys = {i64, i32};
    argTys.insert(argTys.end(), 7, i64);
    argTys.push_back(i32);
    auto appendArgs = m->getOrInsertFunction("__ockl_printf_append_args",
                                             llvm::FunctionType::get(i64, argTys, false));
    // The format lives in constant memory; ockl reads it through a flat
    // pointer.
    llvm::Value *fmt = b.CreateAddrSpaceCast(
        b.CreateGlobalString(format, "printf_fmt", /*AddressSpace=*/4, m), b.getPtrTy());
    llvm::Value *msg = b.CreateCall(begin, {b.getInt64(0)});
    msg = b.CreateCall(appendString, {msg, fmt, b.getInt64(format.size() + 1),
                                      b.getInt32(args.empty() ? 1 : 0)});
    for (size_t i = 0; i < args.size(); i += 7) {
      size_t n = std::min<size_t>(7, args.size() - i);
      std::vector<llvm::Value *> call = {msg, b.getInt32(n)};
      for (size_t k = 0; k < 7; ++k) {
        if (k >= n) {
          call.push_back(b.getInt64(0));
          continue;
        }
        llvm::Value *a = args[i + k];
        if (a->getType()->isFloatingPointTy())
          a = b.CreateBitCast(b.CreateFPExt(a, b.getDoubleTy()), i64);
        else if (a->getType()->isPointerTy())
          a = b.CreatePtrToInt(a, i64);
        else
          a = b.CreateZExt(a, i64); // the host reads %u and %d from the low word
        call.push_back(a);
      }
      call.push_back(b.getInt32(i + n == args.size() ? 1 : 0));
      msg = b.CreateCall(appendArgs, call);
    }
  }
  void assertFail(llvm::IRBuilderBase &b, llvm::StringRef, llvm::StringRef, unsigned,
                  llvm::StringRef) override {
    b.CreateIntrinsic(llvm::Intrinsic::trap, {});
  }
  void markKernel(llvm::Function *fn, unsigned numThreads, unsigned) override {
    fn->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
    fn->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(numThreads));
  }
  void configureModule(llvm::Module &m) override {
    m.setTargetTriple(llvm::Triple(kTriple));
    if (llvm::TargetMachine *tm = amdTargetMachine(arch_))
      m.setDataLayout(tm->createDataLayout());
    m.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", 500);
  }

private:
  std::string arch_;
};

bool isReadable(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isExecutable(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

std::string findLld(std::string &why) {
  if (const char *e = std::getenv("TRITIUM_LLD"); e && *e) {
    if (isExecutable(e))
      return e;
    why = std::string("TRITIUM_LLD=") + e + " is not an executable file";
    return "";
  }
  // LLVM 22's first: an older ld.lld may not know code object v5.
  if (isExecutable("/usr/lib/llvm-22/bin/ld.lld"))
    return "/usr/lib/llvm-22/bin/ld.lld";
  for (const char *n : {"ld.lld-22", "ld.lld"})
    if (const char *path = std::getenv("PATH")) {
      std::stringstream ss(path);
      std::string dir;
      while (std::getline(ss, dir, ':'))
        if (!dir.empty() && isExecutable(dir + "/" + n))
          return dir + "/" + n;
    }
  why = "ld.lld not found (looked at TRITIUM_LLD, /usr/lib/llvm-22/bin/ld.lld, ld.lld-22 "
        "and ld.lld on PATH); install lld-22";
  return "";
}

bool readFile(const std::string &p, std::string &out) {
  std::ifstream in(p, std::ios::binary);
  if (!in)
    return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

} // namespace

bool tritium::codegen::isSupportedAmdArch(const std::string &arch) {
  return arch == "gfx90a" || arch == "gfx942" || arch == "gfx950";
}

std::string tritium::codegen::parseHipTarget(const std::string &t) {
  std::string a = t.rfind("hip:", 0) == 0 ? t.substr(4) : t;
  return isSupportedAmdArch(a) ? a : "";
}

std::unique_ptr<TargetInfo> tritium::codegen::createAmdTargetInfo(const std::string &arch) {
  return std::make_unique<AmdTargetInfo>(arch);
}

llvm::TargetMachine *tritium::codegen::amdTargetMachine(const std::string &arch) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // Inline asm in ROCm's device libraries (ockl's printf) is assembled
    // when the code object is written.
    LLVMInitializeAMDGPUAsmParser();
  });
  static thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> cache;
  auto &tm = cache[arch];
  if (!tm) {
    std::string err;
    llvm::Triple triple(kTriple);
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!t)
      return nullptr;
    llvm::TargetOptions opts;
    opts.AllowFPOpFusion = llvm::FPOpFusion::Fast;
    tm.reset(t->createTargetMachine(triple, arch, "", opts, llvm::Reloc::PIC_, std::nullopt,
                                    llvm::CodeGenOptLevel::Aggressive));
  }
  return tm.get();
}

std::string tritium::codegen::findOcml() {
  if (const char *e = std::getenv("TRITIUM_OCML"); e && *e)
    return isReadable(e) ? e : "";
  std::vector<std::string> dirs;
  if (const char *r = std::getenv("ROCM_PATH"); r && *r)
    dirs.push_back(std::string(r) + "/amdgcn/bitcode");
  for (const char *d : {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode",
                        "/opt/rocm/amdgcn/bitcode"})
    dirs.push_back(d);
  for (const std::string &d : dirs)
    if (isReadable(d + "/ocml.bc"))
      return d + "/ocml.bc";
  return "";
}

namespace {

/// Links the functions of the bitcode library at `path` that `m` calls.
bool linkLibrary(llvm::Module &m, const std::string &path, std::string &error) {
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
  // The device library's own attributes name a generic target; the
  // kernel's say the architecture.
  for (llvm::Function &f : **lib) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
  }
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded)) {
    error = "linking " + path + " failed";
    return false;
  }
  return true;
}

} // namespace

bool tritium::codegen::linkOcml(llvm::Module &m, const std::string &arch, std::string &error) {
  std::vector<std::string> wanted;
  bool printf = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__ocml_"))
      wanted.push_back(f.getName().str());
    else if (f.isDeclaration() && f.getName().starts_with("__ockl_printf"))
      printf = true;
  if (wanted.empty() && !printf)
    return true;
  std::string path = findOcml();
  if (path.empty()) {
    error = wanted.empty()
                ? "the kernel prints (tl.device_print), which AMD targets take from ROCm's "
                  "ockl.bc, not found (install rocm-device-libs or set TRITIUM_OCML to the "
                  "ocml.bc beside it)"
                : "the kernel calls math functions (" + wanted.front() +
                      "), which AMD targets take from ROCm's ocml.bc, not found (install "
                      "rocm-device-libs or set TRITIUM_OCML)";
    return false;
  }
  if (!wanted.empty() && !linkLibrary(m, path, error))
    return false;
  for (const std::string &name : wanted) {
    llvm::Function *f = m.getFunction(name);
    if (f && f->isDeclaration()) {
      error = "the math function " + name.substr(7) + " is not in ROCm's ocml (" + path +
              "): not supported on " + arch + " yet";
      return false;
    }
  }
  if (printf) {
    // printf comes from ockl, one of the device libraries beside ocml.
    std::string ockl = std::filesystem::path(path).replace_filename("ockl.bc").string();
    if (!isReadable(ockl)) {
      error = "the kernel prints (tl.device_print), which AMD targets take from ROCm's "
              "ockl.bc, not found beside " + path;
      return false;
    }
    if (!linkLibrary(m, ockl, error))
      return false;
    // ROCm 5's ockl keeps its hostcall out of line and unoptimized
    // (noinline optnone): the call needs a small stack in scratch memory.
    // Later ockl lets it inline. Either is kept as the library has it.
  }
  // The device libraries' control constants, as hipcc's defaults set them: IEEE
  // behaviour, denormals kept, wave64.
  unsigned isa = arch == "gfx90a" ? 9010 : arch == "gfx942" ? 9402 : 9500;
  std::pair<const char *, unsigned> controls[] = {
      {"__oclc_finite_only_opt", 0},  {"__oclc_unsafe_math_opt", 0},
      {"__oclc_daz_opt", 0},          {"__oclc_correctly_rounded_sqrt32", 1},
      {"__oclc_wavefrontsize64", 1},  {"__oclc_ISA_version", isa},
      {"__oclc_ABI_version", 500}};
  for (auto [name, value] : controls)
    if (llvm::GlobalVariable *g = m.getGlobalVariable(name)) {
      auto *t = llvm::cast<llvm::IntegerType>(g->getValueType());
      g->setInitializer(llvm::ConstantInt::get(t, value));
      g->setConstant(true);
      g->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

bool tritium::codegen::optimizeAmdModule(llvm::Module &m, const std::string &arch,
                                         std::string &error) {
  llvm::TargetMachine *tm = amdTargetMachine(arch);
  if (!tm) {
    error = "the AMDGPU target is not available in this build";
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
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
  return true;
}

bool tritium::codegen::emitAmdgcn(llvm::Module &m, const std::string &arch, bool object,
                                  std::string &out, std::string &error) {
  llvm::TargetMachine *tm = amdTargetMachine(arch);
  if (!tm) {
    error = "the AMDGPU target is not available in this build";
    return false;
  }
  llvm::SmallString<0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              object ? llvm::CodeGenFileType::ObjectFile
                                     : llvm::CodeGenFileType::AssemblyFile)) {
    error = "the AMDGPU target cannot emit this file type";
    return false;
  }
  pm.run(m);
  out = std::string(buf.str());
  return true;
}

bool tritium::codegen::linkHsaco(const std::string &object, std::string &hsaco,
                                 std::string &error) {
  std::string why;
  std::string lld = findLld(why);
  if (lld.empty()) {
    error = why;
    return false;
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/tritium-lld-XXXXXX";
  if (!::mkdtemp(dir.data())) {
    error = std::string("cannot create a temporary directory: ") + std::strerror(errno);
    return false;
  }
  std::string in = dir + "/kernel.o", out = dir + "/kernel.hsaco", log = dir + "/lld.log";
  bool ok = false;
  {
    std::ofstream f(in, std::ios::binary);
    f << object;
    ok = bool(f.flush());
  }
  if (!ok) {
    error = "cannot write " + in;
  } else {
    std::vector<std::string> argv = {lld, "-shared", "--no-undefined", in, "-o", out};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char *> args;
    for (auto &a : argv)
      args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, lld.c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (rc != 0) {
      error = "cannot run " + lld + ": " + std::strerror(rc);
      ok = false;
    } else {
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      std::string text;
      readFile(log, text);
      ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && readFile(out, hsaco);
      if (!ok)
        error = lld + " failed to link the code object:\n" + text;
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return ok;
}

std::optional<AmdKernelReport> tritium::codegen::readAmdReport(const std::string &amdgcn,
                                                               std::string &error) {
  size_t b = amdgcn.find(".amdgpu_metadata");
  size_t e = amdgcn.find(".end_amdgpu_metadata");
  if (b == std::string::npos || e == std::string::npos || e < b) {
    error = "the assembly has no .amdgpu_metadata block";
    return std::nullopt;
  }
  AmdKernelReport r;
  std::stringstream ss(amdgcn.substr(b, e - b));
  std::string line;
  bool inKernels = false, any = false;
  while (std::getline(ss, line)) {
    size_t k = line.find_first_not_of(" -");
    if (k == std::string::npos)
      continue;
    std::string rest = line.substr(k);
    if (rest.rfind("amdhsa.kernels:", 0) == 0) {
      inKernels = true;
      continue;
    }
    if (!inKernels || rest[0] != '.')
      continue;
    size_t colon = rest.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = rest.substr(0, colon);
    std::string val = rest.substr(colon + 1);
    val.erase(0, val.find_first_not_of(' '));
    auto num = [&](int &dst) {
      char *end = nullptr;
      long v = std::strtol(val.c_str(), &end, 10);
      if (end != val.c_str())
        dst = int(v);
    };
    if (key == ".name" && r.name.empty()) {
      r.name = val;
      any = true;
    } else if (key == ".sgpr_count") {
      num(r.sgprs);
    } else if (key == ".vgpr_count") {
      num(r.vgprs);
    } else if (key == ".agpr_count") {
      num(r.agprs);
    } else if (key == ".sgpr_spill_count") {
      num(r.sgprSpills);
    } else if (key == ".vgpr_spill_count") {
      num(r.vgprSpills);
    } else if (key == ".group_segment_fixed_size") {
      num(r.ldsBytes);
    } else if (key == ".private_segment_fixed_size") {
      num(r.scratchBytes);
    } else if (key == ".wavefront_size") {
      num(r.wavefrontSize);
    }
  }
  if (!any || r.vgprs < 0) {
    error = "the .amdgpu_metadata block names no kernel with register counts";
    return std::nullopt;
  }
  // VGPRs and AGPRs share 512 registers per lane of a SIMD, allocated in
  // granules of 8 (gfx90a and later); at most 8 waves per SIMD. On these
  // targets .vgpr_count already counts the AGPRs (with the VGPRs before
  // them rounded up to 4): adding .agpr_count would count them twice.
  int regs = std::max(8, (r.vgprs + 7) / 8 * 8);
  r.occupancy = std::min(8, 512 / regs);
  return r;
}

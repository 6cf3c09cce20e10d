//===- CudaLaunch.cpp - specialized kernels on an NVIDIA GPU --------------===//
//
// Cache key: the optimized tile IR with locations (it fixes source,
// constexprs and specialization), the options, the device's architecture
// and the compiler version. An entry holds every stage (tile-gpu IR, LLVM
// IR, PTX, cubin), the launch metadata (warps, dynamic shared memory,
// parameter kinds) and the seconds each stage of its compile took.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaLaunch.h"

#include "codegen/Pipeline.h"
#include "ir/TileDialect.h"
#include "runtime/KernelCache.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/cuda/Ptxas.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>
#include <map>
#include <mutex>

using namespace tritium;
using namespace tritium::rt;

namespace tritium::rt {
struct CudaCompiled {
  std::string name;
  /// Loaded on the device it was compiled for (null when cross-compiled).
  std::unique_ptr<cuda::CudaKernel> kernel;
  /// The ptxas architecture ("sm_90a").
  std::string arch;
  /// The same module loaded on other devices of the machine, on the first
  /// launch there.
  std::mutex othersMutex;
  std::map<int, std::unique_ptr<cuda::CudaKernel>> others;
  unsigned numWarps = 4;
  unsigned sharedBytes = 0;
  /// Global scratch memory per program, passed after the parameters.
  unsigned globalScratchBytes = 0;
  /// One letter per LLVM parameter: p pointer, b i1, i i32, l i64, f fp32,
  /// d fp64, h fp16, B bf16.
  std::string paramKinds;
  bool fromCache = false;
  cuda::PtxasReport ptxas;
  /// The stages' text: tile-gpu.mlir, kernel.ll, kernel.ptx, kernel.cubin.
  std::map<std::string, std::string> artifacts;
};
} // namespace tritium::rt

namespace {
const char *kCompilerVersion = "tritium-codegen-1";

/// The compiler's identity in cache keys: the version plus the size and
/// modification time of the binary this code lives in (the shared library,
/// or the executable it is linked into), so that a rebuilt or upgraded
/// tritium never reads code an older one produced.
const std::string &compilerFingerprint() {
  static const std::string id = [] {
    std::string out = kCompilerVersion;
    Dl_info info;
    const char *path = nullptr;
    if (dladdr(reinterpret_cast<void *>(&compilerFingerprint), &info) && info.dli_fname &&
        *info.dli_fname)
      path = info.dli_fname;
    struct stat st;
    if (stat(path ? path : "/proc/self/exe", &st) == 0)
      out += ";" + std::to_string(st.st_size) + ";" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
    return out;
  }();
  return id;
}

} // namespace

bool tritium::rt::cudaAvailable(std::string *why) {
  return cuda::CudaDevice::get(why) != nullptr;
}

std::optional<int> tritium::rt::cudaDeviceAttribute(int attribute,
                                                    std::string *why) {
  cuda::CudaDevice *dev = cuda::CudaDevice::get(why);
  if (!dev)
    return std::nullopt;
  int value = 0;
  if (cuda::CUresult r = dev->driver().cuDeviceGetAttribute(
          &value, static_cast<cuda::CUdevice_attribute>(attribute),
          dev->handle())) {
    if (why)
      *why = dev->driver().errorText("cuDeviceGetAttribute", r);
    return std::nullopt;
  }
  return value;
}

namespace tritium::rt {
struct CudaJob {
  std::string kernel, arch, key;
  cuda::CudaDevice *dev = nullptr; ///< where finishCuda loads it, if anywhere
  std::shared_ptr<CudaCompiled> out;
  std::string image; ///< cubin (or PTX when isPtx): from the cache or runCuda
  bool isPtx = false;
  /// Load the PTX, not the cubin: code for another major architecture than
  /// the device's (a cubin runs only within its own), which the driver
  /// compiles for the device.
  bool loadPtx = false;
  codegen::LoweredCudaPtr lowered; ///< what runCuda still has to do, if anything
  codegen::CudaKernelArtifacts art;
};
} // namespace tritium::rt

void tritium::rt::CudaJobDeleter::operator()(CudaJob *j) const { delete j; }

namespace {
/// The first step of a compile for `cc`/`arch`: the cache lookup, or the
/// lowering to LLVM IR; the module is loaded on `dev` (if given) at the end.
Expected<CudaJobPtr> prepareCuda(mlir::ModuleOp module, const std::string &kernel,
                                 unsigned cc, const std::string &arch,
                                 tritium::cuda::CudaDevice *dev, unsigned numWarps,
                                 unsigned numStages, unsigned maxRegisters, bool fpFusion,
                                 bool loadPtx = false) {
  using namespace tritium;
  using namespace tritium::rt;
  auto func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!func)
    return Error{"no kernel '" + kernel + "' in the compiled module", Error::Compile};

  std::string ir;
  {
    llvm::raw_string_ostream os(ir);
    mlir::OpPrintingFlags flags;
    flags.enableDebugInfo(true);
    module.print(os, flags);
  }
  std::string options = "num_warps=" + std::to_string(numWarps) +
                        ";num_stages=" + std::to_string(numStages) +
                        ";maxnreg=" + std::to_string(maxRegisters) +
                        ";fp_fusion=" + (fpFusion ? "1" : "0");
  CudaJobPtr job(new CudaJob);
  job->kernel = kernel;
  job->arch = arch;
  job->dev = dev;
  job->loadPtx = loadPtx;
  job->key = KernelCache::makeKey(ir, kernel, options, arch, compilerFingerprint());
  job->out = std::make_shared<CudaCompiled>();
  CudaCompiled &out = *job->out;
  out.name = kernel;
  out.arch = arch;
  out.paramKinds = codegen::paramKinds(func);
  KernelCache cache;
  if (auto entry = cache.lookup(job->key)) {
    // An entry whose counts do not read as counts is damaged: dropped, and
    // the kernel compiled again.
    auto warps = metadataCount(*entry, "num_warps");
    auto shared = metadataCount(*entry, "shared");
    auto scratch = entry->metadata.count("global_scratch")
                       ? metadataCount(*entry, "global_scratch")
                       : std::optional<uint64_t>(0);
    auto &a = entry->artifacts;
    if (!warps || !shared || !scratch || *warps == 0 || *warps > 64 ||
        *shared > UINT32_MAX || *scratch > UINT32_MAX) {
      cache.remove(job->key);
    } else {
      if (a.count("kernel.cubin") && !loadPtx) {
        job->image = a["kernel.cubin"];
      } else if (a.count("kernel.ptx")) {
        job->image = a["kernel.ptx"];
        job->isPtx = true;
      }
      out.artifacts = a;
      out.numWarps = unsigned(*warps);
      out.sharedBytes = unsigned(*shared);
      out.globalScratchBytes = unsigned(*scratch);
      out.fromCache = !job->image.empty();
    }
  }
  if (job->image.empty()) {
    codegen::CudaCompileOptions copts;
    copts.computeCapability = cc;
    copts.numWarps = numWarps;
    copts.numStages = numStages;
    copts.maxRegisters = maxRegisters;
    copts.fpFusion = fpFusion;
    std::string error;
    job->lowered = codegen::lowerForCuda(module, kernel, copts, job->art, error);
    if (!job->lowered)
      return Error{error, Error::Compile};
    out.numWarps = job->art.numWarps;
    out.sharedBytes = job->art.sharedBytes;
    out.globalScratchBytes = job->art.globalScratchBytes;
  }
  return job;
}

/// The ptxas architecture of compute capability `cc`: Hopper's wgmma and
/// setmaxnreg need the architecture-specific target.
std::string targetArch(unsigned cc) {
  return "sm_" + std::to_string(cc) + (cc >= 90 ? "a" : "");
}

/// The rest of a compile a prepare step started: runCuda, then finishCuda.
Expected<std::shared_ptr<tritium::rt::CudaCompiled>>
completeCuda(Expected<tritium::rt::CudaJobPtr> job) {
  if (!job)
    return job.error();
  if (auto err = tritium::rt::runCuda(**job))
    return *err;
  return tritium::rt::finishCuda(**job);
}
} // namespace

std::optional<Error> tritium::rt::runCuda(CudaJob &job) {
  if (!job.lowered)
    return std::nullopt;
  codegen::LoweredCudaPtr lowered = std::move(job.lowered);
  codegen::CudaKernelArtifacts &art = job.art;
  std::string error;
  if (!codegen::finishForCuda(*lowered, art, error))
    return Error{error, Error::Compile};
  lowered.reset();
  CudaCompiled &out = *job.out;
  CacheEntry e;
  e.artifacts["tile-gpu.mlir"] = art.tileGpu;
  e.artifacts["kernel.ll"] = art.llir;
  e.artifacts["kernel.ptx"] = art.ptx;
  if (cuda::ptxasAvailable()) {
    auto start = std::chrono::steady_clock::now();
    auto cubin = cuda::assemble(art.ptx, job.arch, &out.ptxas);
    if (!cubin)
      return Error{"ptxas failed on '" + job.kernel + "': " + cubin.error().message,
                   Error::Compile};
    art.addStage("ptxas", std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                        start).count());
    e.artifacts["kernel.cubin"] = *cubin;
    job.image = *cubin;
    if (job.loadPtx) {
      job.image = art.ptx;
      job.isPtx = true;
    }
  } else {
    job.image = art.ptx;
    job.isPtx = true;
  }
  e.metadata["name"] = job.kernel;
  e.metadata["num_warps"] = std::to_string(art.numWarps);
  e.metadata["shared"] = std::to_string(art.sharedBytes);
  e.metadata["global_scratch"] = std::to_string(art.globalScratchBytes);
  e.metadata["arch"] = job.arch;
  // What each stage of this compile took: "seconds.gpu passes", ...,
  // "seconds.ptxas".
  for (auto &[stage, seconds] : art.stageSeconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", seconds);
    e.metadata["seconds." + stage] = text;
  }
  KernelCache cache;
  (void)cache.store(job.key, e); // a cache that cannot be written is no error
  out.artifacts = std::move(e.artifacts);
  return std::nullopt;
}

Expected<std::shared_ptr<CudaCompiled>> tritium::rt::finishCuda(CudaJob &job) {
  if (!job.dev)
    return job.out;
  auto loaded = job.dev->loadModule(job.image, job.isPtx, job.kernel);
  if (!loaded)
    return loaded.error();
  job.out->kernel = std::move(*loaded);
  return job.out;
}

Expected<CudaJobPtr>
tritium::rt::prepareCudaDevice(mlir::ModuleOp module, const std::string &kernel,
                               unsigned numWarps, unsigned numStages,
                               unsigned maxRegisters, bool fpFusion) {
  std::string why;
  cuda::CudaDevice *dev = cuda::CudaDevice::get(&why);
  if (!dev)
    return Error{"no CUDA device: " + why, Error::Runtime};
  unsigned cc = dev->computeCapability();
  std::string arch = dev->arch();
  bool loadPtx = false;
  // TRITON_OVERRIDE_ARCH ("sm80"), as Triton reads it: code for another
  // architecture than the device's, which must run it (sm_80's mma.sync
  // and cp.async path on a Hopper GPU, say). Across major architectures
  // the device gets the PTX, as a cubin runs only within its own.
  if (const char *t = std::getenv("TRITON_OVERRIDE_ARCH"); t && *t) {
    std::string text = t, digits;
    if (text.rfind("sm_", 0) == 0)
      digits = text.substr(3);
    else if (text.rfind("sm", 0) == 0)
      digits = text.substr(2);
    if (!digits.empty() && digits.back() == 'a')
      digits.pop_back();
    unsigned want = codegen::parseCudaTarget("cuda:" + digits);
    if (want != 80 && want != 86 && want != 89 && want != 90)
      return Error{"TRITON_OVERRIDE_ARCH='" + text +
                       "' is not a CUDA architecture tritium compiles for (sm80, sm86, "
                       "sm89 or sm90)",
                   Error::Runtime};
    if (want > cc || (want == 90 && cc != 90))
      return Error{"TRITON_OVERRIDE_ARCH='" + text + "': the device is " + arch +
                       ", which cannot run code for sm_" + std::to_string(want),
                   Error::Runtime};
    loadPtx = want / 10 != cc / 10;
    cc = want;
    arch = targetArch(want);
  }
  return prepareCuda(module, kernel, cc, arch, dev, numWarps, numStages, maxRegisters,
                     fpFusion, loadPtx);
}

Expected<std::shared_ptr<CudaCompiled>>
tritium::rt::compileForCudaDevice(mlir::ModuleOp module, const std::string &kernel,
                                  unsigned numWarps, unsigned numStages,
                                  unsigned maxRegisters, bool fpFusion) {
  return completeCuda(
      prepareCudaDevice(module, kernel, numWarps, numStages, maxRegisters, fpFusion));
}

Expected<std::shared_ptr<CudaCompiled>>
tritium::rt::compileForCudaTarget(mlir::ModuleOp module, const std::string &kernel,
                                  unsigned cc, unsigned numWarps, unsigned numStages,
                                  unsigned maxRegisters, bool fpFusion) {
  return completeCuda(
      prepareCudaTarget(module, kernel, cc, numWarps, numStages, maxRegisters, fpFusion));
}

Expected<CudaJobPtr>
tritium::rt::prepareCudaTarget(mlir::ModuleOp module, const std::string &kernel, unsigned cc,
                               unsigned numWarps, unsigned numStages, unsigned maxRegisters,
                               bool fpFusion) {
  return prepareCuda(module, kernel, cc, targetArch(cc), nullptr, numWarps, numStages,
                     maxRegisters, fpFusion);
}

Expected<std::shared_ptr<tritium::rt::CudaCompiled>>
tritium::rt::compileForAmdTarget(mlir::ModuleOp module, const std::string &kernel,
                                 const std::string &arch, unsigned numWarps,
                                 unsigned numStages) {
  auto func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!func)
    return Error{"no kernel '" + kernel + "' in the compiled module", Error::Compile};
  std::string ir;
  {
    llvm::raw_string_ostream os(ir);
    mlir::OpPrintingFlags flags;
    flags.enableDebugInfo(true);
    module.print(os, flags);
  }
  std::string options = "num_warps=" + std::to_string(numWarps) +
                        ";num_stages=" + std::to_string(numStages);
  std::string key = KernelCache::makeKey(ir, kernel, options, arch, compilerFingerprint());
  auto out = std::make_shared<CudaCompiled>();
  out->name = kernel;
  out->paramKinds = codegen::paramKinds(func);
  KernelCache cache;
  if (auto entry = cache.lookup(key)) {
    auto warps = metadataCount(*entry, "num_warps");
    auto shared = metadataCount(*entry, "shared");
    if (warps && shared && *warps > 0 && *warps <= 64 && *shared <= UINT32_MAX &&
        entry->artifacts.count("kernel.hsaco")) {
      out->artifacts = entry->artifacts;
      out->numWarps = unsigned(*warps);
      out->sharedBytes = unsigned(*shared);
      out->fromCache = true;
      return out;
    }
    cache.remove(key);
  }
  codegen::CudaCompileOptions copts;
  copts.amdArch = arch;
  copts.numWarps = numWarps;
  copts.numStages = numStages;
  codegen::CudaKernelArtifacts art;
  std::string error;
  if (!codegen::compileForCuda(module, kernel, copts, art, error, codegen::CudaStage::Hsaco))
    return Error{error, Error::Compile};
  CacheEntry e;
  e.artifacts["tile-gpu.mlir"] = art.tileGpu;
  e.artifacts["kernel.ll"] = art.llir;
  e.artifacts["kernel.amdgcn"] = art.amdgcn;
  e.artifacts["kernel.hsaco"] = art.hsaco;
  e.metadata["name"] = kernel;
  e.metadata["num_warps"] = std::to_string(art.numWarps);
  e.metadata["shared"] = std::to_string(art.sharedBytes);
  e.metadata["arch"] = arch;
  for (auto &[stage, seconds] : art.stageSeconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", seconds);
    e.metadata["seconds." + stage] = text;
  }
  (void)cache.store(key, e);
  out->artifacts = std::move(e.artifacts);
  out->numWarps = art.numWarps;
  out->sharedBytes = art.sharedBytes;
  return out;
}

bool tritium::rt::cudaLoaded(const CudaCompiled &k) { return bool(k.kernel); }

tritium::rt::CompiledLaunchInfo tritium::rt::compiledLaunchInfo(const CudaCompiled &k) {
  return {k.name, k.numWarps, k.sharedBytes, k.paramKinds, k.fromCache};
}

const std::string *tritium::rt::compiledArtifact(const CudaCompiled &k,
                                                 const std::string &file) {
  auto it = k.artifacts.find(file);
  return it == k.artifacts.end() ? nullptr : &it->second;
}

void tritium::rt::describeCuda(const CudaCompiled &k, CompiledInfo &info) {
  info.gpu = true;
  info.numWarps = int(k.numWarps);
  info.sharedBytes = int(k.sharedBytes);
  if (k.kernel) {
    info.numRegs = k.kernel->resources().numRegs;
    info.numSpills = k.kernel->resources().localBytes / 4;
  }
  static const std::pair<const char *, const char *> names[] = {
      {"tile-gpu.mlir", "ttgir"},
      {"kernel.ll", "llir"},
      {"kernel.ptx", "ptx"},
      {"kernel.cubin", "cubin"},
      {"kernel.amdgcn", "amdgcn"},
      {"kernel.hsaco", "hsaco"}};
  for (auto &[file, stage] : names) {
    auto it = k.artifacts.find(file);
    if (it != k.artifacts.end())
      info.stages[stage] = it->second;
  }
}

namespace {
/// The module of `k` loaded on `dev`: the one it was compiled for, or a
/// copy of the same image loaded there on first use.
Expected<cuda::CudaKernel *> kernelOn(CudaCompiled &k, cuda::CudaDevice &dev) {
  if (!k.kernel)
    return Error{"kernel '" + k.name + "' is not loaded on a GPU", Error::Runtime};
  if (k.kernel->device() == &dev)
    return k.kernel.get();
  std::lock_guard<std::mutex> lock(k.othersMutex);
  auto it = k.others.find(dev.ordinal());
  if (it != k.others.end())
    return it->second.get();
  if (dev.arch() != k.arch)
    return Error{"kernel '" + k.name + "' was compiled for " + k.arch + " (device " +
                     std::to_string(k.kernel->device()->ordinal()) + "), but its tensors are "
                     "on device " + std::to_string(dev.ordinal()) + " (" + dev.arch() + ", " +
                     dev.name() + "); one process runs a kernel on devices of one "
                     "architecture",
                 Error::Runtime};
  auto image = k.artifacts.find("kernel.cubin");
  bool isPtx = image == k.artifacts.end();
  if (isPtx)
    image = k.artifacts.find("kernel.ptx");
  if (image == k.artifacts.end())
    return Error{"kernel '" + k.name + "' has no image to load on device " +
                     std::to_string(dev.ordinal()),
                 Error::Runtime};
  auto loaded = dev.loadModule(image->second, isPtx, k.name);
  if (!loaded)
    return loaded.error();
  cuda::CudaKernel *out = loaded->get();
  k.others[dev.ordinal()] = std::move(*loaded);
  return out;
}
} // namespace

std::optional<Error> tritium::rt::launchCuda(CudaCompiled &k, const Grid &grid,
                                             const std::vector<const Arg *> &args,
                                             const std::function<std::string(size_t)> &argName,
                                             void *stream) {
  if (args.size() != k.paramKinds.size())
    return Error{"kernel '" + k.name + "' takes " + std::to_string(k.paramKinds.size()) +
                     " runtime arguments, got " + std::to_string(args.size()),
                 Error::Argument};
  // Storage for each parameter's value; cuLaunchKernel reads through it.
  constexpr size_t kInline = 32;
  uint64_t storageInline[kInline];
  void *paramsInline[kInline + 1];
  std::vector<uint64_t> storageHeap;
  std::vector<void *> paramsHeap;
  uint64_t *storage = storageInline;
  void **params = paramsInline;
  if (args.size() > kInline) {
    storageHeap.resize(args.size());
    paramsHeap.resize(args.size() + 1);
    storage = storageHeap.data();
    params = paramsHeap.data();
  }
  // The device the launch runs on: the one its tensors are on, else the
  // default device.
  size_t deviceArg = SIZE_MAX;
  int deviceOrdinal = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg &a = *args[i];
    char kind = k.paramKinds[i];
    void *slot = &storage[i];
    storage[i] = 0;
    if (kind == 'p') {
      if (a.kind != Arg::Buffer)
        return Error{"argument '" + argName(i) + "' expects a pointer (device tensor)",
                     Error::Argument};
      uint64_t p = uint64_t(reinterpret_cast<uintptr_t>(a.data));
      if (p) {
        // A host pointer would fault inside the kernel: name it here
        // instead. The tensors choose the device; they must agree on it.
        // A repeated launch finds its pointers remembered; the argument's
        // name is made only for the driver query's message.
        Expected<int> ordinal = cuda::CudaDevice::rememberedDeviceOf(p);
        if (*ordinal < 0)
          ordinal = cuda::CudaDevice::deviceOf(p, "argument '" + argName(i) + "'");
        if (!ordinal)
          return Error{"argument '" + argName(i) + "' is not CUDA device memory (pass "
                       "tensors on a cuda device, or CPU tensors to run on the "
                       "interpreter)",
                       Error::Argument};
        if (deviceArg == SIZE_MAX) {
          deviceArg = i;
          deviceOrdinal = *ordinal;
        } else if (*ordinal != deviceOrdinal) {
          return Error{"arguments '" + argName(deviceArg) + "' and '" + argName(i) +
                           "' are on different devices (cuda:" +
                           std::to_string(deviceOrdinal) + " and cuda:" +
                           std::to_string(*ordinal) +
                           "); a launch's tensors must all be on one device",
                       Error::Argument};
        }
      }
      std::memcpy(slot, &p, 8);
    } else if (kind == 'f' || kind == 'd') {
      double d = a.kind == Arg::Float ? a.f : double(a.i);
      if (kind == 'f') {
        float f = float(d);
        std::memcpy(slot, &f, 4);
      } else {
        std::memcpy(slot, &d, 8);
      }
    } else if (kind == 'i' || kind == 'l' || kind == 'b' || kind == 'c' || kind == 's') {
      if (a.kind == Arg::Buffer)
        return Error{"argument '" + argName(i) + "' expects a scalar, got a tensor",
                     Error::Argument};
      int64_t v = a.kind == Arg::Float ? int64_t(a.f) : a.i;
      if (kind == 'l') {
        std::memcpy(slot, &v, 8);
      } else if (kind == 'b') {
        uint8_t b = v != 0;
        std::memcpy(slot, &b, 1);
      } else {
        int32_t w = int32_t(v);
        std::memcpy(slot, &w, 4);
      }
    } else {
      return Error{"argument '" + argName(i) + "' has a type the GPU launcher cannot pass",
                   Error::Argument};
    }
    params[i] = slot;
  }
  if (grid.x > INT32_MAX || grid.y > 65535 || grid.z > 65535)
    return Error{"grid [" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
                     std::to_string(grid.z) + "] exceeds the device's limits",
                 Error::Argument};
  std::string why;
  cuda::CudaDevice *dev = deviceArg == SIZE_MAX ? cuda::CudaDevice::get(&why)
                                                : cuda::CudaDevice::get(deviceOrdinal, &why);
  if (!dev)
    return Error{"no CUDA device: " + why, Error::Runtime};
  auto function = kernelOn(k, *dev);
  if (!function)
    return function.error();
  // The kernel's global scratch memory (tensor maps made on the device):
  // one buffer per device and stream, grown as launches need, so that
  // launches on one stream reuse it in order and launches on others never
  // share it.
  uint64_t scratch = 0;
  if (k.globalScratchBytes && grid.x && grid.y && grid.z) {
    static std::mutex mutex;
    // Never destroyed: freeing at exit could outlive the context.
    static auto *buffers = new std::map<std::pair<int, void *>, cuda::DeviceBuffer>;
    size_t need = size_t(k.globalScratchBytes) * grid.x * grid.y * grid.z;
    std::lock_guard<std::mutex> lock(mutex);
    cuda::DeviceBuffer &buf = (*buffers)[{dev->ordinal(), stream}];
    if (buf.size() < need) {
      size_t grown = std::max(need, 2 * buf.size());
      if (buf.size()) // the kernels still using it finish first
        if (auto err = dev->synchronize())
          return err;
      buf.reset();
      auto fresh = dev->allocate(grown);
      if (!fresh)
        return fresh.error();
      buf = std::move(*fresh);
    }
    scratch = buf.ptr();
  }
  if (k.globalScratchBytes)
    params[args.size()] = &scratch;
  return dev->launch(**function, unsigned(grid.x), unsigned(grid.y), unsigned(grid.z),
                     int(k.numWarps), k.sharedBytes, params,
                     static_cast<cuda::CUstream>(stream));
}

std::string tritium::rt::cudaReport(const CudaCompiled &k) {
  auto &r = k.kernel->resources();
  return k.name + ": " + std::to_string(r.numRegs) + " registers, " +
         std::to_string(r.localBytes) + " bytes local (spills), " +
         std::to_string(k.sharedBytes) + " bytes dynamic shared, " +
         std::to_string(k.numWarps * 32) + " threads" +
         (k.fromCache ? " (from cache)" : "");
}

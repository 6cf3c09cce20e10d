//===- HipLaunch.cpp - specialized kernels on an AMD GPU ------------------===//
//
// The code itself comes from compileForAmdTarget (CudaLaunch.cpp), whose
// kernel cache entry is keyed by the target architecture, so a HIP launch
// reuses what a cross-compile for the same gfx target stored and the other
// way round. This file adds what a device needs: the architecture check,
// the module loaded on each device that launches it, the parameters packed
// as the kernel's LLVM signature takes them, the pointers checked against
// HIP's view of memory, and the launch geometry (num_warps waves of 64 lanes,
// the kernel's dynamic LDS).
//
//===----------------------------------------------------------------------===//
#include "runtime/HipLaunch.h"

#include "codegen/amd/Amd.h"
#include "runtime/CudaLaunch.h"
#include "runtime/hip/HipDevice.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using namespace tritium;
using namespace tritium::rt;

namespace tritium::rt {
struct HipCompiled {
  /// The compile: stages, warps, LDS and parameter kinds.
  std::shared_ptr<CudaCompiled> code;
  CompiledLaunchInfo meta;
  /// The gfx target it was compiled for ("gfx942").
  std::string arch;
  /// Loaded on the device it was compiled for.
  std::unique_ptr<hip::HipKernel> kernel;
  /// The same code object loaded on other devices of the machine (of the
  /// same architecture), on the first launch there.
  std::mutex othersMutex;
  std::map<int, std::unique_ptr<hip::HipKernel>> others;
};
} // namespace tritium::rt

namespace {
/// CDNA's wavefront, the one size the code generator emits for (its AMD
/// targets are all wave64).
constexpr int kWaveSize = 64;

Error runtimeError(std::string message) {
  return Error{std::move(message), Error::Runtime};
}

/// "device 0 (AMD Instinct MI300X, gfx942)".
std::string describeDevice(const hip::HipDevice &dev) {
  return "device " + std::to_string(dev.ordinal()) + " (" + dev.name() + ", " +
         dev.arch() + ")";
}

/// The default HIP device, or why there is none, worded by what is
/// missing: the runtime library, or a device behind it.
Expected<hip::HipDevice *> defaultDevice() {
  std::string why;
  if (!hip::HipDriver::get(&why))
    return runtimeError("no HIP runtime: " + why);
  hip::HipDevice *dev = hip::HipDevice::get(&why);
  if (!dev)
    return runtimeError("no AMD GPU: " + why);
  return dev;
}

/// Why the code generator cannot compile for `dev`, or "".
std::string unsupportedArch(const hip::HipDevice &dev) {
  if (codegen::isSupportedAmdArch(dev.arch()))
    return "";
  return "HIP " + describeDevice(dev) +
         ": the code generator does not support " + dev.arch() +
         " (it compiles for gfx90a, gfx942 and gfx950)";
}

std::string hexPtr(uint64_t p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)p);
  return buf;
}

/// The module of `k` loaded on `dev`: the one it was compiled for, or the
/// same hsaco loaded there on first use when the architectures agree.
Expected<hip::HipKernel *> kernelOn(HipCompiled &k, hip::HipDevice &dev) {
  if (k.kernel->device() == &dev)
    return k.kernel.get();
  std::lock_guard<std::mutex> lock(k.othersMutex);
  auto it = k.others.find(dev.ordinal());
  if (it != k.others.end())
    return it->second.get();
  if (dev.arch() != k.arch)
    return runtimeError(
        "kernel '" + k.meta.name + "' was compiled for " + k.arch + " (" +
        describeDevice(*k.kernel->device()) + "), but its tensors are on " +
        describeDevice(dev) +
        "; one process runs a kernel on devices of one architecture");
  const std::string *image = compiledArtifact(*k.code, "kernel.hsaco");
  if (!image)
    return runtimeError("kernel '" + k.meta.name +
                        "' has no hsaco to load on " + describeDevice(dev));
  auto loaded = dev.loadModule(*image, k.meta.name);
  if (!loaded)
    return loaded.error();
  hip::HipKernel *out = loaded->get();
  k.others[dev.ordinal()] = std::move(*loaded);
  return out;
}
} // namespace

bool tritium::rt::hipAvailable(std::string *why) {
  auto dev = defaultDevice();
  if (!dev) {
    if (why)
      *why = dev.error().message;
    return false;
  }
  std::string problem = unsupportedArch(**dev);
  if (why)
    *why = problem;
  return problem.empty();
}

Expected<std::shared_ptr<HipCompiled>>
tritium::rt::compileForHipDevice(mlir::ModuleOp module,
                                 const std::string &kernel, unsigned numWarps,
                                 unsigned numStages) {
  auto dev = defaultDevice();
  if (!dev)
    return dev.error();
  if (std::string problem = unsupportedArch(**dev); !problem.empty())
    return Error{"kernel '" + kernel + "': " + problem, Error::Compile};
  auto code =
      compileForAmdTarget(module, kernel, (*dev)->arch(), numWarps, numStages);
  if (!code)
    return code.error();
  auto out = std::make_shared<HipCompiled>();
  out->code = *code;
  out->meta = compiledLaunchInfo(**code);
  out->arch = (*dev)->arch();
  const std::string *image = compiledArtifact(**code, "kernel.hsaco");
  if (!image)
    return runtimeError("kernel '" + kernel + "': the compile made no hsaco");
  auto loaded = (*dev)->loadModule(*image, kernel);
  if (!loaded)
    return loaded.error();
  out->kernel = std::move(*loaded);
  return out;
}

std::optional<Error> tritium::rt::launchHip(
    HipCompiled &k, const Grid &grid, const std::vector<const Arg *> &args,
    const std::function<std::string(size_t)> &argName, void *stream) {
  const std::string &name = k.meta.name;
  const std::string &kinds = k.meta.paramKinds;
  // "kernel 'add_kernel': argument 'x_ptr'", the prefix of argument errors.
  auto what = [&](size_t i) {
    return "kernel '" + name + "': argument '" + argName(i) + "'";
  };
  if (args.size() != kinds.size())
    return Error{"kernel '" + name + "' takes " + std::to_string(kinds.size()) +
                     " runtime arguments, got " + std::to_string(args.size()),
                 Error::Argument};
  // Storage for each parameter's value; hipModuleLaunchKernel reads through
  // the pointers during the call.
  constexpr size_t kInline = 32;
  uint64_t storageInline[kInline];
  void *paramsInline[kInline];
  std::vector<uint64_t> storageHeap;
  std::vector<void *> paramsHeap;
  uint64_t *storage = storageInline;
  void **params = paramsInline;
  if (args.size() > kInline) {
    storageHeap.resize(args.size());
    paramsHeap.resize(args.size());
    storage = storageHeap.data();
    params = paramsHeap.data();
  }
  const hip::HipDriver &driver = k.kernel->device()->driver();
  // The device the launch runs on: the one its pointers are on, else the
  // device the kernel was compiled for (the default one).
  size_t deviceArg = SIZE_MAX;
  int deviceOrdinal = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg &a = *args[i];
    char kind = kinds[i];
    void *slot = &storage[i];
    storage[i] = 0;
    if (kind == 'p') {
      if (a.kind != Arg::Buffer)
        return Error{what(i) + " expects a pointer (device tensor)",
                     Error::Argument};
      uint64_t p = uint64_t(reinterpret_cast<uintptr_t>(a.data));
      // A host pointer would fault inside the kernel (or, with XNACK off,
      // hang the queue): named here instead. Without
      // hipPointerGetAttributes the library cannot tell, and nothing is
      // checked.
      if (p && driver.hipPointerGetAttributes) {
        hip::PointerInfo info;
        if (hip::hipError_t r = driver.pointerInfo(a.data, info))
          return runtimeError(
              driver.errorText("hipPointerGetAttributes(" + what(i) + ")", r));
        if (!info.known)
          return Error{what(i) + " (pointer " + hexPtr(p) +
                           ") is not memory a HIP device can access (pass "
                           "tensors on a ROCm device, or CPU tensors to run "
                           "on the interpreter)",
                       Error::Argument};
        // Pinned host memory reports no device of its own; it does not
        // choose one.
        if (info.device >= 0 && info.device < hip::HipDevice::count()) {
          if (deviceArg == SIZE_MAX) {
            deviceArg = i;
            deviceOrdinal = info.device;
          } else if (info.device != deviceOrdinal) {
            return Error{"kernel '" + name + "': arguments '" +
                             argName(deviceArg) + "' and '" + argName(i) +
                             "' are on different devices (HIP devices " +
                             std::to_string(deviceOrdinal) + " and " +
                             std::to_string(info.device) +
                             "); a launch's tensors must all be on one device",
                         Error::Argument};
          }
        }
      }
      std::memcpy(slot, &p, 8);
    } else if (kind == 'f' || kind == 'd' || kind == 'h' || kind == 'B') {
      if (a.kind == Arg::Buffer)
        return Error{what(i) + " expects a scalar, got a tensor",
                     Error::Argument};
      double d = a.kind == Arg::Float ? a.f : double(a.i);
      if (kind == 'd') {
        std::memcpy(slot, &d, 8);
      } else if (kind == 'f') {
        float f = float(d);
        std::memcpy(slot, &f, 4);
      } else {
        uint16_t bits = kind == 'h' ? toHalf(float(d)) : toBf16(float(d));
        std::memcpy(slot, &bits, 2);
      }
    } else if (kind == 'i' || kind == 'l' || kind == 'b' || kind == 'c' ||
               kind == 's') {
      if (a.kind == Arg::Buffer)
        return Error{what(i) + " expects a scalar, got a tensor",
                     Error::Argument};
      int64_t v = a.kind == Arg::Float ? int64_t(a.f) : a.i;
      if (kind == 'l') {
        std::memcpy(slot, &v, 8);
      } else if (kind == 'b') {
        uint8_t b = v != 0;
        std::memcpy(slot, &b, 1);
      } else if (kind == 'c') {
        int8_t c = int8_t(v);
        std::memcpy(slot, &c, 1);
      } else if (kind == 's') {
        int16_t s = int16_t(v);
        std::memcpy(slot, &s, 2);
      } else {
        int32_t w = int32_t(v);
        std::memcpy(slot, &w, 4);
      }
    } else {
      return Error{what(i) + " has a type the HIP launcher cannot pass",
                   Error::Argument};
    }
    params[i] = slot;
  }
  if (grid.x > UINT32_MAX || grid.y > UINT32_MAX || grid.z > UINT32_MAX)
    return Error{"kernel '" + name + "': grid [" + std::to_string(grid.x) +
                     ", " + std::to_string(grid.y) + ", " +
                     std::to_string(grid.z) + "] exceeds HIP's limits",
                 Error::Argument};
  hip::HipDevice *dev = k.kernel->device();
  if (deviceArg != SIZE_MAX && deviceOrdinal != dev->ordinal()) {
    std::string why;
    dev = hip::HipDevice::get(deviceOrdinal, &why);
    if (!dev)
      return runtimeError("kernel '" + name + "': argument '" +
                          argName(deviceArg) + "' is on HIP device " +
                          std::to_string(deviceOrdinal) + ": " + why);
  }
  auto function = kernelOn(k, *dev);
  if (!function)
    return function.error();
  // HipDevice::launch names the kernel in its errors (block size, LDS,
  // hipModuleLaunchKernel's own).
  return dev->launch(**function, unsigned(grid.x), unsigned(grid.y),
                     unsigned(grid.z), int(k.meta.numWarps), kWaveSize,
                     k.meta.sharedBytes, params,
                     static_cast<hip::hipStream_t>(stream));
}

void tritium::rt::describeHip(const HipCompiled &k, CompiledInfo &info) {
  describeCuda(*k.code, info);
  info.gpu = true;
  const hip::KernelResources &r = k.kernel->resources();
  info.numRegs = r.numRegs;
  info.numSpills = r.scratchBytes / 4;
}

//===- HipDevice.cpp - one AMD GPU: modules, launches, buffers ------------===//
//
// The devices (hipInit, per-ordinal attributes and architecture, the
// thread's current device), code object loading with the checks HIP itself
// does not make, launches with their block and LDS limits, and the RAII
// buffer and stream wrappers.
//
//===----------------------------------------------------------------------===//
#include "runtime/hip/HipDevice.h"

#include "runtime/DeviceTable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

namespace tritium::hip {

namespace {

Error runtimeError(std::string message) {
  Error e;
  e.message = std::move(message);
  e.kind = Error::Runtime;
  return e;
}

Error resourcesError(std::string message) {
  Error e;
  e.message = std::move(message);
  e.kind = Error::Resources;
  return e;
}

std::string hexPtr(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx",
                (unsigned long long)reinterpret_cast<uintptr_t>(p));
  return buf;
}

/// Reads a little-endian integer of `bytes` bytes at `offset` of `s`.
uint64_t readLE(const std::string &s, size_t offset, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i)
    v |= uint64_t(uint8_t(s[offset + i])) << (8 * i);
  return v;
}

/// Why `image` cannot be an AMDGPU code object, or "" when it may be one.
/// hipModuleLoadData takes no size: HIP finds the end of the object from
/// its ELF header, so a truncated image would be read past its end and
/// anything else gives at best an unhelpful error code.
std::string codeObjectProblem(const std::string &image) {
  // ELF64 header fields (System V gABI): e_ident[EI_CLASS] at 4,
  // e_machine at 0x12, e_shoff at 0x28, e_shentsize at 0x3a, e_shnum at
  // 0x3c; the header is 64 bytes.
  constexpr size_t kHeaderBytes = 64;
  constexpr unsigned kElfClass64 = 2, kMachineAmdgpu = 224;
  if (image.size() < 4 || image.compare(0, 4, "\177ELF") != 0)
    return "not an ELF code object";
  if (image.size() < kHeaderBytes || uint8_t(image[4]) != kElfClass64)
    return "not a 64-bit ELF code object";
  uint64_t machine = readLE(image, 0x12, 2);
  if (machine != kMachineAmdgpu)
    return "an ELF object for machine " + std::to_string(machine) +
           ", not AMDGPU (" + std::to_string(kMachineAmdgpu) + ")";
  uint64_t end =
      readLE(image, 0x28, 8) + readLE(image, 0x3a, 2) * readLE(image, 0x3c, 2);
  if (end > image.size())
    return "truncated: its ELF header describes " + std::to_string(end) +
           " bytes, the image has " + std::to_string(image.size());
  return "";
}

/// The driver, initialized once, and how many devices it sees; `reason`
/// says why there is no usable driver when `driver` is null.
struct DriverState {
  const HipDriver *driver = nullptr;
  int count = 0;
  int defaultOrdinal = 0;
  std::string reason;
};

const DriverState &driverState() {
  static const DriverState state = [] {
    DriverState s;
    std::string why;
    const HipDriver *drv = HipDriver::get(&why);
    if (!drv) {
      s.reason = "HIP runtime not available: " + why;
      return s;
    }
    if (hipError_t r = drv->hipInit(0)) {
      s.reason = drv->errorText("hipInit", r);
      return s;
    }
    if (hipError_t r = drv->hipGetDeviceCount(&s.count)) {
      s.reason = drv->errorText("hipGetDeviceCount", r);
      return s;
    }
    if (s.count == 0) {
      s.reason = "no HIP device";
      return s;
    }
    if (!rt::ordinalFromEnv("TRITIUM_HIP_DEVICE", "HIP", s.count, s.defaultOrdinal,
                            s.reason))
      return s;
    s.driver = drv;
    return s;
  }();
  return state;
}

} // namespace

//===----------------------------------------------------------------------===//
// The devices
//===----------------------------------------------------------------------===//

int HipDevice::count() {
  const DriverState &s = driverState();
  return s.driver ? s.count : 0;
}

HipDevice *HipDevice::get(std::string *whyNot) {
  const DriverState &s = driverState();
  if (!s.driver) {
    if (whyNot)
      *whyNot = s.reason;
    return nullptr;
  }
  return get(s.defaultOrdinal, whyNot);
}

HipDevice *HipDevice::get(int ordinal, std::string *whyNot) {
  const DriverState &s = driverState();
  if (!s.driver) {
    if (whyNot)
      *whyNot = s.reason;
    return nullptr;
  }
  // Never destroyed (see the header).
  static auto *devices = new rt::DeviceTable<HipDevice>(size_t(s.count), "HIP");
  return devices->get(ordinal, whyNot, [&](std::string &reason) {
    return open(*s.driver, ordinal, &reason).release();
  });
}

std::unique_ptr<HipDevice> HipDevice::open(const HipDriver &driver, int ordinal,
                                           std::string *whyNot) {
  std::unique_ptr<HipDevice> dev(new HipDevice());
  dev->driver_ = &driver;
  dev->ordinal_ = ordinal;
  auto fail = [&](const std::string &why) -> std::unique_ptr<HipDevice> {
    if (whyNot)
      *whyNot = why;
    return nullptr;
  };
  // hipInit is idempotent; open() may be the first call into a library.
  if (hipError_t r = driver.hipInit(0))
    return fail(driver.errorText("hipInit", r));
  int count = 0;
  if (hipError_t r = driver.hipGetDeviceCount(&count))
    return fail(driver.errorText("hipGetDeviceCount", r));
  if (ordinal < 0 || ordinal >= count)
    return fail("no HIP device " + std::to_string(ordinal) +
                " (this machine has " + std::to_string(count) + ")");

  char name[256] = {};
  if (hipError_t r = driver.hipDeviceGetName(name, sizeof name - 1, ordinal))
    return fail(driver.errorText("hipDeviceGetName", r));
  dev->name_ = name;
  struct {
    hipDeviceAttribute_t attr;
    const char *what;
    int *out;
  } attrs[] = {
      {hipDeviceAttributeMultiprocessorCount, "MultiprocessorCount",
       &dev->numCUs_},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock",
       &dev->maxLdsPerBlock_},
      {hipDeviceAttributeWarpSize, "WarpSize", &dev->warpSize_},
      {hipDeviceAttributeMaxThreadsPerBlock, "MaxThreadsPerBlock",
       &dev->maxThreadsPerBlock_},
  };
  for (auto &a : attrs)
    if (hipError_t r = driver.hipDeviceGetAttribute(a.out, a.attr, ordinal))
      return fail(driver.errorText(
          std::string("hipDeviceGetAttribute(") + a.what + ")", r));

  // The target name exists only in the properties struct (see
  // HipDriver::archName); HIP appends the target's feature settings.
  std::string arch;
  if (hipError_t r = driver.archName(ordinal, arch))
    return fail(driver.errorText(driver.rocm6Abi()
                                     ? "hipGetDevicePropertiesR0600"
                                     : "hipGetDeviceProperties",
                                 r));
  size_t colon = arch.find(':');
  dev->arch_ = arch.substr(0, colon);
  if (colon != std::string::npos)
    dev->archFeatures_ = arch.substr(colon + 1);
  if (dev->arch_.empty())
    return fail("HIP device " + std::to_string(ordinal) + " (" + dev->name_ +
                ") reports no architecture name");
  return dev;
}

Error HipDevice::error(const std::string &operation, hipError_t result) const {
  return runtimeError(driver_->errorText(operation, result));
}

std::optional<Error> HipDevice::makeCurrent() const {
  int current = -1;
  if (hipError_t r = driver_->hipGetDevice(&current))
    return error("hipGetDevice", r);
  if (current == ordinal_)
    return std::nullopt;
  if (hipError_t r = driver_->hipSetDevice(ordinal_))
    return error("hipSetDevice(" + std::to_string(ordinal_) + ")", r);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<HipKernel>>
HipDevice::loadModule(const std::string &image, const std::string &kernelName) {
  const std::string op = "hipModuleLoadData(" + kernelName + ")";
  if (image.empty())
    return runtimeError(op + ": empty code object");
  if (std::string problem = codeObjectProblem(image); !problem.empty())
    return runtimeError(op + ": the image is " + problem);
  if (auto err = makeCurrent())
    return *err;
  hipModule_t module = nullptr;
  if (hipError_t r = driver_->hipModuleLoadData(&module, image.data()))
    return runtimeError(
        driver_->errorText(op, r) + " (is the code object built for " + arch_ +
        (archFeatures_.empty() ? "" : ":" + archFeatures_) + "?)");

  std::unique_ptr<HipKernel> kernel(new HipKernel());
  kernel->device_ = this;
  kernel->module_ = module; // unloaded by ~HipKernel from here on
  kernel->name_ = kernelName;
  if (hipError_t r = driver_->hipModuleGetFunction(&kernel->function_, module,
                                                   kernelName.c_str()))
    return runtimeError(
        driver_->errorText("hipModuleGetFunction(" + kernelName + ")", r) +
        " (the module has no kernel named '" + kernelName + "')");

  if (!driver_->hipFuncGetAttribute)
    return kernel;
  KernelResources &res = kernel->resources_;
  struct {
    hipFunction_attribute attr;
    int *out;
  } attrs[] = {
      {HIP_FUNC_ATTRIBUTE_NUM_REGS, &res.numRegs},
      {HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &res.scratchBytes},
      {HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &res.staticLdsBytes},
      {HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &res.maxThreadsPerBlock},
  };
  for (auto &a : attrs)
    if (hipError_t r =
            driver_->hipFuncGetAttribute(a.out, a.attr, kernel->function_))
      return error("hipFuncGetAttribute(" + kernelName + ")", r);
  return kernel;
}

HipKernel::~HipKernel() {
  if (!module_)
    return;
  // Errors are ignored: at process exit the runtime may already be shut
  // down, and the module goes with it.
  if (!device_->makeCurrent())
    device_->driver().hipModuleUnload(module_);
}

//===----------------------------------------------------------------------===//
// Launch and synchronization
//===----------------------------------------------------------------------===//

std::optional<Error> HipDevice::launch(HipKernel &kernel, unsigned gridX,
                                       unsigned gridY, unsigned gridZ,
                                       int numWarps, int waveSize,
                                       size_t dynamicLdsBytes, void **params,
                                       hipStream_t stream) {
  const std::string &name = kernel.name();
  const KernelResources &res = kernel.resources();
  if (waveSize != 32 && waveSize != 64)
    return runtimeError(name + ": wave size " + std::to_string(waveSize) +
                        " is neither 32 nor 64");
  // The kernel's own launch bound when HIP reports it, else the device's.
  int maxThreads =
      res.maxThreadsPerBlock > 0 ? res.maxThreadsPerBlock : maxThreadsPerBlock_;
  long long threads = (long long)numWarps * waveSize;
  if (numWarps < 1 || threads > maxThreads)
    return resourcesError(
        name + ": num_warps=" + std::to_string(numWarps) + " gives " +
        std::to_string(threads) + " threads per block (wave size " +
        std::to_string(waveSize) + "); " +
        (res.maxThreadsPerBlock > 0 ? "the kernel" : "the device") +
        " allows " + std::to_string(waveSize) + " to " +
        std::to_string(maxThreads));
  size_t totalLds = dynamicLdsBytes + size_t(res.staticLdsBytes);
  if (totalLds > size_t(maxLdsPerBlock_))
    return resourcesError(name + ": " + std::to_string(dynamicLdsBytes) +
                          " bytes of dynamic LDS (+" +
                          std::to_string(res.staticLdsBytes) +
                          " static) exceed the device's limit of " +
                          std::to_string(maxLdsPerBlock_) +
                          " bytes per block (" + name_ + ", " + arch_ + ")");
  // Triton launches nothing for an empty grid; HIP would fail the call.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return std::nullopt;
  // HIP counts work items, not blocks, in 32 bits per dimension.
  if (uint64_t(gridX) * uint64_t(threads) >= (uint64_t(1) << 32))
    return resourcesError(name + ": a grid of " + std::to_string(gridX) +
                          " blocks of " + std::to_string(threads) +
                          " threads along x is 2^32 work items or more, "
                          "beyond HIP's limit per dimension");

  // A launch on another device than the calling thread's current one
  // leaves the current device as it found it: torch reads it.
  int previous = -1;
  if (hipError_t r = driver_->hipGetDevice(&previous))
    return error("hipGetDevice", r);
  if (previous != ordinal_)
    if (hipError_t r = driver_->hipSetDevice(ordinal_))
      return error("hipSetDevice(" + std::to_string(ordinal_) + ")", r);
  struct Restore {
    const HipDriver *driver;
    int previous, ours;
    ~Restore() {
      if (previous >= 0 && previous != ours)
        driver->hipSetDevice(previous);
    }
  } restore{driver_, previous, ordinal_};

  if (hipError_t r = driver_->hipModuleLaunchKernel(
          kernel.function(), gridX, gridY, gridZ, unsigned(threads), 1, 1,
          unsigned(dynamicLdsBytes), stream, params, /*extra=*/nullptr))
    return error("hipModuleLaunchKernel(" + name + ")", r);
  return std::nullopt;
}

std::optional<Error> HipDevice::synchronize(const std::string &kernelName) {
  if (auto err = makeCurrent())
    return err;
  if (hipError_t r = driver_->hipDeviceSynchronize())
    return error(kernelName.empty()
                     ? "hipDeviceSynchronize"
                     : "hipDeviceSynchronize(" + kernelName + ")",
                 r);
  return std::nullopt;
}

std::optional<Error>
HipDevice::checkDevicePointer(const void *ptr, const std::string &what) const {
  if (!ptr || !driver_->hipPointerGetAttributes)
    return std::nullopt;
  PointerInfo info;
  if (hipError_t r = driver_->pointerInfo(ptr, info))
    return error("hipPointerGetAttributes(" + what + ")", r);
  if (!info.known)
    return runtimeError(what + ": pointer " + hexPtr(ptr) +
                        " is not memory a HIP device can access (a CPU "
                        "tensor?)");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Expected<HipBuffer> HipDevice::allocate(size_t bytes) {
  HipBuffer buf;
  buf.device_ = this;
  // An empty buffer is still useful; HIP would hand back null anyway.
  if (bytes == 0)
    return buf;
  if (auto err = makeCurrent())
    return *err;
  if (hipError_t r = driver_->hipMalloc(&buf.ptr_, bytes))
    return error("hipMalloc(" + std::to_string(bytes) + " bytes)", r);
  buf.bytes_ = bytes;
  return buf;
}

HipBuffer::HipBuffer(HipBuffer &&other) noexcept
    : device_(other.device_), ptr_(std::exchange(other.ptr_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

HipBuffer &HipBuffer::operator=(HipBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    device_ = other.device_;
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

HipBuffer::~HipBuffer() { reset(); }

void HipBuffer::reset() {
  if (ptr_ && !device_->makeCurrent())
    device_->driver().hipFree(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

std::optional<Error> HipBuffer::copyFromHost(const void *src, size_t bytes,
                                             size_t offset) {
  if (offset > bytes_ || bytes > bytes_ - offset)
    return runtimeError("hipMemcpyHtoD: " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) +
                        " overrun a buffer of " + std::to_string(bytes_) +
                        " bytes");
  if (bytes == 0)
    return std::nullopt;
  if (auto err = device_->makeCurrent())
    return err;
  if (hipError_t r = device_->driver().hipMemcpyHtoD(
          static_cast<char *>(ptr_) + offset, const_cast<void *>(src), bytes))
    return device_->error("hipMemcpyHtoD", r);
  return std::nullopt;
}

std::optional<Error> HipBuffer::copyToHost(void *dst, size_t bytes,
                                           size_t offset) const {
  if (offset > bytes_ || bytes > bytes_ - offset)
    return runtimeError("hipMemcpyDtoH: " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) +
                        " overrun a buffer of " + std::to_string(bytes_) +
                        " bytes");
  if (bytes == 0)
    return std::nullopt;
  if (auto err = device_->makeCurrent())
    return err;
  if (hipError_t r = device_->driver().hipMemcpyDtoH(
          dst, static_cast<char *>(ptr_) + offset, bytes))
    return device_->error("hipMemcpyDtoH", r);
  return std::nullopt;
}

std::optional<Error> HipBuffer::memset(uint8_t value) {
  if (bytes_ == 0)
    return std::nullopt;
  if (auto err = device_->makeCurrent())
    return err;
  const char *op = "";
  if (hipError_t r = device_->driver().memsetBytes(ptr_, value, bytes_, &op))
    return device_->error(op, r);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

Expected<HipStream> HipDevice::createStream() {
  if (auto err = makeCurrent())
    return *err;
  HipStream s;
  s.device_ = this;
  if (hipError_t r =
          driver_->hipStreamCreateWithFlags(&s.stream_, hipStreamNonBlocking))
    return error("hipStreamCreateWithFlags", r);
  return s;
}

HipStream::HipStream(HipStream &&other) noexcept
    : device_(other.device_), stream_(std::exchange(other.stream_, nullptr)) {}

HipStream &HipStream::operator=(HipStream &&other) noexcept {
  if (this != &other) {
    HipStream old(std::move(*this));
    device_ = other.device_;
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

HipStream::~HipStream() {
  if (stream_ && !device_->makeCurrent())
    device_->driver().hipStreamDestroy(stream_);
  stream_ = nullptr;
}

std::optional<Error> HipStream::synchronize() {
  if (!stream_)
    return runtimeError("hipStreamSynchronize: no stream");
  if (auto err = device_->makeCurrent())
    return err;
  if (hipError_t r = device_->driver().hipStreamSynchronize(stream_))
    return device_->error("hipStreamSynchronize", r);
  return std::nullopt;
}

} // namespace tritium::hip

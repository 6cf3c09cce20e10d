//===- CudaDevice.cpp - one CUDA GPU: modules, launches, buffers ----------===//
//
// The devices (driver init, one primary context per GPU, attributes, which
// device a pointer lives on), module
// loading through the driver JIT with its logs, launches with the dynamic
// shared memory opt-in, and the RAII buffer, event and stream wrappers.
//
//===----------------------------------------------------------------------===//
#include "runtime/cuda/CudaDevice.h"

#include "runtime/DeviceTable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

namespace tritium::cuda {

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

/// The default per-block limit on dynamic shared memory: larger requests
/// need CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES raised first.
constexpr size_t kDefaultSharedLimit = 48 * 1024;

std::string hexPtr(CUdeviceptr p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)p);
  return buf;
}

/// Trims trailing NULs and whitespace the driver leaves in log buffers.
std::string trimLog(const char *buf, size_t cap) {
  std::string s(buf, strnlen(buf, cap));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

namespace {
/// The driver, initialized once, and how many devices it sees; `reason`
/// says why there is no usable driver when `driver` is null.
struct DriverState {
  const CudaDriver *driver = nullptr;
  int count = 0;
  int defaultOrdinal = 0;
  std::string reason;
};

const DriverState &driverState() {
  static const DriverState state = [] {
    DriverState s;
    std::string why;
    const CudaDriver *drv = CudaDriver::get(&why);
    if (!drv) {
      s.reason = "CUDA driver not available: " + why;
      return s;
    }
    if (CUresult r = drv->cuInit(0)) {
      s.reason = drv->errorText("cuInit", r);
      return s;
    }
    if (CUresult r = drv->cuDeviceGetCount(&s.count)) {
      s.reason = drv->errorText("cuDeviceGetCount", r);
      return s;
    }
    if (s.count == 0) {
      s.reason = "no CUDA device";
      return s;
    }
    if (!rt::ordinalFromEnv("TRITIUM_CUDA_DEVICE", "CUDA", s.count, s.defaultOrdinal,
                            s.reason))
      return s;
    s.driver = drv;
    return s;
  }();
  return state;
}

/// The pointers launches passed recently, with their devices: a launch with
/// the same tensors as before skips the driver query.
struct KnownPointers {
  static constexpr unsigned kSize = 64;
  std::mutex mutex;
  CUdeviceptr ptr[kSize] = {};
  int ordinal[kSize] = {};
  unsigned next = 0;
};
KnownPointers &knownPointers() {
  static auto *known = new KnownPointers; // never destroyed
  return *known;
}
} // namespace

int CudaDevice::count() {
  const DriverState &s = driverState();
  return s.driver ? s.count : 0;
}

CudaDevice *CudaDevice::get(std::string *whyNot) {
  const DriverState &s = driverState();
  if (!s.driver) {
    if (whyNot)
      *whyNot = s.reason;
    return nullptr;
  }
  return get(s.defaultOrdinal, whyNot);
}

CudaDevice *CudaDevice::get(int ordinal, std::string *whyNot) {
  const DriverState &s = driverState();
  if (!s.driver) {
    if (whyNot)
      *whyNot = s.reason;
    return nullptr;
  }
  // Never destroyed (see the header).
  static auto *devices = new rt::DeviceTable<CudaDevice>(size_t(s.count), "CUDA");
  return devices->get(ordinal, whyNot, [&](std::string &reason) {
    return open(s.driver, ordinal, reason);
  });
}

CudaDevice *CudaDevice::open(const CudaDriver *drv, int ordinal, std::string &reason) {
  auto *dev = new CudaDevice();
  dev->driver_ = drv;
  dev->ordinal_ = ordinal;
  auto fail = [&](const std::string &op, CUresult r) -> CudaDevice * {
    reason = drv->errorText(op, r);
    delete dev;
    return nullptr;
  };
  if (CUresult r = drv->cuDeviceGet(&dev->device_, ordinal))
    return fail("cuDeviceGet", r);
  char name[256] = {};
  if (CUresult r = drv->cuDeviceGetName(name, sizeof name - 1, dev->device_))
    return fail("cuDeviceGetName", r);
  dev->name_ = name;
  int major = 0, minor = 0;
  struct {
    CUdevice_attribute attr;
    int *out;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &dev->numSMs_},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &dev->maxSharedPerBlock_},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &dev->maxSharedPerBlockOptin_},
  };
  for (auto &a : attrs)
    if (CUresult r = drv->cuDeviceGetAttribute(a.out, a.attr, dev->device_))
      return fail("cuDeviceGetAttribute", r);
  dev->computeCapability_ = major * 10 + minor;
  // The primary context is shared with the CUDA runtime, so tensors torch
  // allocated are valid in it and kernels launched here order with its
  // work on the same streams.
  if (CUresult r = drv->cuDevicePrimaryCtxRetain(&dev->context_, dev->device_))
    return fail("cuDevicePrimaryCtxRetain", r);
  CurrentContext scope;
  if (auto err = dev->enter(scope)) {
    reason = err->message;
    delete dev;
    return nullptr;
  }
  return dev;
}

int CudaDevice::rememberedDeviceOf(CUdeviceptr ptr) {
  KnownPointers &known = knownPointers();
  std::lock_guard<std::mutex> lock(known.mutex);
  for (unsigned i = 0; i < KnownPointers::kSize; ++i)
    if (known.ptr[i] == ptr && ptr)
      return known.ordinal[i];
  return -1;
}

Expected<int> CudaDevice::deviceOf(CUdeviceptr ptr, const std::string &what) {
  if (int ordinal = rememberedDeviceOf(ptr); ordinal >= 0)
    return ordinal;
  KnownPointers &known = knownPointers();
  std::string why;
  CudaDevice *dev = get(&why);
  if (!dev)
    return runtimeError(what + ": no CUDA device: " + why);
  // The query needs a current context; any device's will do, since every
  // allocation has one unified address: the caller's stays.
  CUcontext current = nullptr;
  CurrentContext scope;
  if (dev->driver_->cuCtxGetCurrent(&current) || !current)
    if (auto err = dev->enter(scope))
      return *err;
  int ordinal = -1;
  if (CUresult r = dev->driver_->cuPointerGetAttribute(
          &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr))
    return runtimeError(what + ": pointer " + hexPtr(ptr) +
                        " cannot be accessed from the GPU (a CPU tensor?): " +
                        dev->driver_->errorText("cuPointerGetAttribute", r));
  std::lock_guard<std::mutex> lock(known.mutex);
  unsigned slot = known.next++ % KnownPointers::kSize;
  known.ptr[slot] = ptr;
  known.ordinal[slot] = ordinal;
  return ordinal;
}

std::string CudaDevice::arch() const {
  std::string a = "sm_" + std::to_string(computeCapability_);
  if (computeCapability_ >= 90)
    a += "a";
  return a;
}

Error CudaDevice::error(const std::string &operation, CUresult result) const {
  return runtimeError(driver_->errorText(operation, result));
}

std::optional<Error> CudaDevice::enter(CurrentContext &scope) const {
  CUcontext current = nullptr;
  if (CUresult r = driver_->cuCtxGetCurrent(&current))
    return error("cuCtxGetCurrent", r);
  if (current == context_)
    return std::nullopt;
  if (CUresult r = driver_->cuCtxSetCurrent(context_))
    return error("cuCtxSetCurrent", r);
  // A thread with no current context keeps this one (nothing reads it
  // there); another context comes back when the scope ends.
  if (current) {
    scope.driver_ = driver_;
    scope.previous_ = current;
  }
  return std::nullopt;
}

CurrentContext::~CurrentContext() {
  if (driver_)
    driver_->cuCtxSetCurrent(previous_);
}

std::optional<Error> CudaDevice::makeCurrent() const {
  CUcontext current = nullptr;
  if (CUresult r = driver_->cuCtxGetCurrent(&current))
    return error("cuCtxGetCurrent", r);
  if (current == context_)
    return std::nullopt;
  if (CUresult r = driver_->cuCtxSetCurrent(context_))
    return error("cuCtxSetCurrent", r);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<CudaKernel>>
CudaDevice::loadModule(const std::string &image, bool isPtx,
                       const std::string &kernelName) {
  CurrentContext scope;
  if (auto err = enter(scope))
    return *err;
  if (image.empty())
    return runtimeError("cuModuleLoadDataEx(" + kernelName +
                        "): empty module image");
  // The driver wants PTX NUL-terminated (std::string's buffer is) and
  // reports JIT diagnostics only through these log buffers.
  constexpr size_t kLogBytes = 16 * 1024;
  std::vector<char> infoLog(kLogBytes, 0), errorLog(kLogBytes, 0);
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {infoLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
                    errorLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
                    reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule module = nullptr;
  CUresult r = driver_->cuModuleLoadDataEx(&module, image.c_str(),
                                           sizeof options / sizeof *options,
                                           options, values);
  if (r) {
    std::string msg =
        driver_->errorText("cuModuleLoadDataEx(" + kernelName + ")", r);
    std::string log = trimLog(errorLog.data(), kLogBytes);
    if (!log.empty())
      msg += "\n" + log;
    else if (!isPtx)
      msg += " (is the cubin built for " + arch() + "?)";
    return runtimeError(msg);
  }

  std::unique_ptr<CudaKernel> kernel(new CudaKernel());
  kernel->device_ = this;
  kernel->module_ = module; // unloaded by ~CudaKernel from here on
  kernel->name_ = kernelName;
  if (isPtx)
    kernel->jitLog_ = trimLog(infoLog.data(), kLogBytes);
  if (CUresult r = driver_->cuModuleGetFunction(&kernel->function_, module,
                                                kernelName.c_str()))
    return runtimeError(
        driver_->errorText("cuModuleGetFunction(" + kernelName + ")", r) +
        " (the module has no kernel named '" + kernelName + "')");

  KernelResources &res = kernel->resources_;
  struct {
    CUfunction_attribute attr;
    int *out;
  } attrs[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &res.numRegs},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &res.localBytes},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &res.staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &res.constBytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &res.maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_PTX_VERSION, &res.ptxVersion},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &res.binaryVersion},
  };
  for (auto &a : attrs)
    if (CUresult r =
            driver_->cuFuncGetAttribute(a.out, a.attr, kernel->function_))
      return error("cuFuncGetAttribute(" + kernelName + ")", r);
  return kernel;
}

CudaKernel::~CudaKernel() {
  if (!module_)
    return;
  // Errors are ignored: at process exit the driver may already be shut
  // down, and the module goes with it.
  CurrentContext scope;
  if (!device_->enter(scope))
    device_->driver().cuModuleUnload(module_);
}

//===----------------------------------------------------------------------===//
// Launch and synchronization
//===----------------------------------------------------------------------===//

std::optional<Error> CudaDevice::launch(CudaKernel &kernel, unsigned gridX,
                                        unsigned gridY, unsigned gridZ,
                                        int numWarps, size_t dynamicSharedBytes,
                                        void **params, CUstream stream) {
  const std::string &name = kernel.name();
  const KernelResources &res = kernel.resources();
  if (numWarps < 1 || numWarps * 32 > res.maxThreadsPerBlock)
    return resourcesError(name + ": num_warps=" + std::to_string(numWarps) +
                        " gives " + std::to_string(numWarps * 32) +
                        " threads per block; the kernel allows 32 to " +
                        std::to_string(res.maxThreadsPerBlock) + " (" +
                        std::to_string(res.numRegs) + " registers per thread)");
  // Triton launches nothing for an empty grid; so does the driver only
  // with an error.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return std::nullopt;
  CurrentContext scope;
  if (auto err = enter(scope))
    return err;

  size_t totalShared = dynamicSharedBytes + size_t(res.staticSharedBytes);
  if (totalShared > kDefaultSharedLimit) {
    if (totalShared > size_t(maxSharedPerBlockOptin_))
      return resourcesError(name + ": " + std::to_string(dynamicSharedBytes) +
                          " bytes of dynamic shared memory (+" +
                          std::to_string(res.staticSharedBytes) +
                          " static) exceed the device's limit of " +
                          std::to_string(maxSharedPerBlockOptin_) +
                          " bytes per block (" + name_ + ")");
    std::lock_guard<std::mutex> lock(kernel.sharedLimitMutex_);
    if (!kernel.sharedLimitRaised_) {
      // Raise the limit to the most the device allows once, rather than to
      // this launch's need, so later launches never have to change it.
      int limit = maxSharedPerBlockOptin_ - res.staticSharedBytes;
      if (CUresult r = driver_->cuFuncSetAttribute(
              kernel.function(),
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, limit))
        return error("cuFuncSetAttribute(" + name +
                         ", MAX_DYNAMIC_SHARED_SIZE_BYTES=" +
                         std::to_string(limit) + ")",
                     r);
      kernel.sharedLimitRaised_ = true;
    }
  }

  if (CUresult r = driver_->cuLaunchKernel(
          kernel.function(), gridX, gridY, gridZ, unsigned(numWarps) * 32, 1, 1,
          unsigned(dynamicSharedBytes), stream, params, nullptr))
    return error("cuLaunchKernel(" + name + ")", r);
  return std::nullopt;
}

std::optional<Error> CudaDevice::synchronize(const std::string &kernelName) {
  CurrentContext scope;
  if (auto err = enter(scope))
    return err;
  if (CUresult r = driver_->cuCtxSynchronize())
    return error(kernelName.empty() ? "cuCtxSynchronize"
                                    : "cuCtxSynchronize(" + kernelName + ")",
                 r);
  return std::nullopt;
}

std::optional<Error>
CudaDevice::checkDevicePointer(CUdeviceptr ptr, const std::string &what) const {
  if (ptr == 0)
    return std::nullopt;
  auto ordinal = deviceOf(ptr, what);
  if (!ordinal)
    return ordinal.error();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Expected<DeviceBuffer> CudaDevice::allocate(size_t bytes) {
  CurrentContext scope;
  if (auto err = enter(scope))
    return *err;
  DeviceBuffer buf;
  buf.device_ = this;
  // cuMemAlloc rejects zero bytes; an empty buffer is still useful.
  if (bytes == 0)
    return buf;
  if (CUresult r = driver_->cuMemAlloc(&buf.ptr_, bytes))
    return error("cuMemAlloc(" + std::to_string(bytes) + " bytes)", r);
  buf.bytes_ = bytes;
  return buf;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : device_(other.device_), ptr_(std::exchange(other.ptr_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    device_ = other.device_;
    ptr_ = std::exchange(other.ptr_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() {
  CurrentContext scope;
  if (ptr_ && !device_->enter(scope))
    device_->driver().cuMemFree(ptr_);
  ptr_ = 0;
  bytes_ = 0;
}

std::optional<Error> DeviceBuffer::copyFromHost(const void *src, size_t bytes,
                                                size_t offset) {
  if (offset > bytes_ || bytes > bytes_ - offset)
    return runtimeError("cuMemcpyHtoD: " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) +
                        " overrun a buffer of " + std::to_string(bytes_) +
                        " bytes");
  if (bytes == 0)
    return std::nullopt;
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuMemcpyHtoD(ptr_ + offset, src, bytes))
    return device_->error("cuMemcpyHtoD", r);
  return std::nullopt;
}

std::optional<Error> DeviceBuffer::copyToHost(void *dst, size_t bytes,
                                              size_t offset) const {
  if (offset > bytes_ || bytes > bytes_ - offset)
    return runtimeError("cuMemcpyDtoH: " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) +
                        " overrun a buffer of " + std::to_string(bytes_) +
                        " bytes");
  if (bytes == 0)
    return std::nullopt;
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuMemcpyDtoH(dst, ptr_ + offset, bytes))
    return device_->error("cuMemcpyDtoH", r);
  return std::nullopt;
}

std::optional<Error> DeviceBuffer::memset(uint8_t value) {
  if (bytes_ == 0)
    return std::nullopt;
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuMemsetD8(ptr_, value, bytes_))
    return device_->error("cuMemsetD8", r);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Events and streams
//===----------------------------------------------------------------------===//

Expected<CudaEvent> CudaDevice::createEvent() {
  CurrentContext scope;
  if (auto err = enter(scope))
    return *err;
  CudaEvent ev;
  ev.device_ = this;
  if (CUresult r = driver_->cuEventCreate(&ev.event_, CU_EVENT_DEFAULT))
    return error("cuEventCreate", r);
  return ev;
}

CudaEvent::CudaEvent(CudaEvent &&other) noexcept
    : device_(other.device_), event_(std::exchange(other.event_, nullptr)) {}

CudaEvent &CudaEvent::operator=(CudaEvent &&other) noexcept {
  if (this != &other) {
    CudaEvent old(std::move(*this));
    device_ = other.device_;
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

CudaEvent::~CudaEvent() {
  CurrentContext scope;
  if (event_ && !device_->enter(scope))
    device_->driver().cuEventDestroy(event_);
  event_ = nullptr;
}

std::optional<Error> CudaEvent::record(CUstream stream) {
  if (!event_)
    return runtimeError("cuEventRecord: no event");
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuEventRecord(event_, stream))
    return device_->error("cuEventRecord", r);
  return std::nullopt;
}

std::optional<Error> CudaEvent::synchronize() {
  if (!event_)
    return runtimeError("cuEventSynchronize: no event");
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuEventSynchronize(event_))
    return device_->error("cuEventSynchronize", r);
  return std::nullopt;
}

Expected<float> CudaEvent::elapsedMs(const CudaEvent &start,
                                     const CudaEvent &end) {
  if (!start.event_ || !end.event_)
    return runtimeError("cuEventElapsedTime: no event");
  CudaDevice *dev = end.device_;
  CurrentContext scope;
  if (auto err = dev->enter(scope))
    return *err;
  if (CUresult r = dev->driver().cuEventSynchronize(end.event_))
    return dev->error("cuEventSynchronize", r);
  float ms = 0;
  if (CUresult r =
          dev->driver().cuEventElapsedTime(&ms, start.event_, end.event_))
    return dev->error("cuEventElapsedTime", r);
  return ms;
}

Expected<CudaStream> CudaDevice::createStream() {
  CurrentContext scope;
  if (auto err = enter(scope))
    return *err;
  CudaStream s;
  s.device_ = this;
  if (CUresult r = driver_->cuStreamCreate(&s.stream_, CU_STREAM_NON_BLOCKING))
    return error("cuStreamCreate", r);
  return s;
}

CudaStream::CudaStream(CudaStream &&other) noexcept
    : device_(other.device_), stream_(std::exchange(other.stream_, nullptr)) {}

CudaStream &CudaStream::operator=(CudaStream &&other) noexcept {
  if (this != &other) {
    CudaStream old(std::move(*this));
    device_ = other.device_;
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

CudaStream::~CudaStream() {
  CurrentContext scope;
  if (stream_ && !device_->enter(scope))
    device_->driver().cuStreamDestroy(stream_);
  stream_ = nullptr;
}

std::optional<Error> CudaStream::synchronize() {
  if (!stream_)
    return runtimeError("cuStreamSynchronize: no stream");
  CurrentContext scope;
  if (auto err = device_->enter(scope))
    return err;
  if (CUresult r = device_->driver().cuStreamSynchronize(stream_))
    return device_->error("cuStreamSynchronize", r);
  return std::nullopt;
}

} // namespace tritium::cuda

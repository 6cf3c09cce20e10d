//===- MockHip.cpp - a libamdhip64 that simulates GPUs in host memory -----===//
//
// Exports the HIP entry points the runtime's HIP layer resolves, with HIP's
// C signatures and error codes, over simulated devices: "device" memory is
// host memory, code objects are the text format described in MockHip.h,
// and launches are recorded (and vector_add executed) instead of run. The
// checks the real runtime makes (ROCm's clr: hip_module.cpp, hip_memory.cpp)
// are made here with the same error codes, so the layer's error paths are
// exercised as on a GPU.
//
// Built twice: as a ROCm 6 library, and with MOCK_HIP_ROCM5 as a ROCm 5 one
// that has the older device properties layout and lacks the entry points
// the layer treats as optional.
//
//===----------------------------------------------------------------------===//
#include "tests/unit/mock_hip/MockHip.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#define MOCK_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using hipError_t = int;

// hipError_t values, as in HIP's hip_runtime_api.h.
enum : hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchFailure = 719,
  hipErrorUnknown = 999,
};

struct ErrorInfo {
  hipError_t code;
  const char *name;
  const char *text;
};

// Names and descriptions as ROCm's hipGetErrorName/hipGetErrorString give
// them (clr's hip_error.cpp); unknown codes are "hipErrorUnknown".
const ErrorInfo kErrors[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration",
     "invalid configuration argument"},
    {hipErrorNoDevice, "hipErrorNoDevice",
     "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage",
     "device kernel image is invalid"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu",
     "no kernel image is available for execution on the device"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure",
     "unspecified launch failure"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const ErrorInfo &errorInfo(hipError_t code) {
  for (const ErrorInfo &e : kErrors)
    if (e.code == code)
      return e;
  return kErrors[sizeof kErrors / sizeof *kErrors - 1];
}

// hipDeviceAttribute_t and hipFunction_attribute values the layer asks for.
enum : int {
  kAttrMaxThreadsPerBlock = 56,
  kAttrMultiprocessorCount = 63,
  kAttrMaxSharedMemoryPerBlock = 74,
  kAttrWarpSize = 87,
  kAttrMaxSharedMemoryPerMultiprocessor = 10002,
};
enum : int {
  kFuncMaxThreadsPerBlock = 0,
  kFuncSharedSizeBytes = 1,
  kFuncConstSizeBytes = 2,
  kFuncLocalSizeBytes = 3,
  kFuncNumRegs = 4,
};

// Where the device properties structs keep name and gcnArchName, and
// their sizes (see runtime/hip/HipDriver.cpp).
constexpr size_t kNameOffset = 0;
constexpr size_t kArchOffsetR0600 = 1160, kSizeR0600 = 1472;
constexpr size_t kArchOffsetR0000 = 396, kSizeR0000 = 792;

struct Device {
  const char *name;
  const char *arch; // gcnArchName
  int cus;
  int ldsPerBlock;
  int ldsPerCU;
  int warpSize;
  int maxThreadsPerBlock;
};

const Device kDevices[] = {
    {"AMD Instinct MI300X", "gfx942:sramecc+:xnack-", 304, 65536, 65536, 64,
     1024},
    {"AMD Instinct MI300A", "gfx942:sramecc+:xnack-", 228, 65536, 65536, 64,
     1024},
};

struct Module;

struct Function {
  std::string name;
  std::vector<unsigned> paramSizes;
  int lds = 0;
  int maxThreads = 1024;
  int vgprs = 0;
  int scratch = 0;
  Module *module = nullptr;
};

struct Module {
  int device = 0;
  std::vector<std::unique_ptr<Function>> functions;
};

struct Allocation {
  size_t bytes;
  int device;
};

struct State {
  std::mutex mutex;
  int numDevices = 2;
  std::map<std::string, hipError_t> failNext;
  std::set<Module *> modules;
  std::map<char *, Allocation> allocations; // by start address
  std::set<void *> streams;
  hipError_t pendingFault = hipSuccess; // sticky until synchronized
  bool haveLaunch = false;
  MockHipLaunch lastLaunch = {};
  MockHipStats stats = {};
};

State &state() {
  static State *s = new State; // outlives every caller's static destructors
  return *s;
}

thread_local int currentDevice = 0;

/// The failure queued for `name` by mockHipFailNext, consumed; 0 if none.
hipError_t takeFailure(State &s, const char *name) {
  auto it = s.failNext.find(name);
  if (it == s.failNext.end())
    return hipSuccess;
  hipError_t e = it->second;
  s.failNext.erase(it);
  return e;
}

/// The allocation holding [p, p + bytes), or null.
const Allocation *findAllocation(State &s, const void *p, size_t bytes) {
  const char *c = static_cast<const char *>(p);
  auto it = s.allocations.upper_bound(const_cast<char *>(c));
  if (it == s.allocations.begin())
    return nullptr;
  --it;
  if (c < it->first || size_t(c - it->first) + bytes > it->second.bytes)
    return nullptr;
  return &it->second;
}

/// Parses a code object; hipErrorInvalidImage for anything else.
hipError_t parseImage(const void *image, int device, Module &module) {
  const unsigned char *bytes = static_cast<const unsigned char *>(image);
  if (std::memcmp(bytes, "\177ELF", 4) != 0 || bytes[4] != 2 ||
      (bytes[0x12] | bytes[0x13] << 8) != 224)
    return hipErrorInvalidImage;
  std::istringstream text(reinterpret_cast<const char *>(bytes + 64));
  std::string word, arch;
  if (!(text >> word) || word != "mock-hsaco" || !(text >> arch))
    return hipErrorInvalidImage;
  std::string deviceArch = kDevices[device].arch;
  if (arch != deviceArch.substr(0, deviceArch.find(':')))
    return hipErrorNoBinaryForGpu;
  std::string line;
  while (std::getline(text, line)) {
    std::istringstream in(line);
    if (!(in >> word))
      continue;
    if (word != "kernel")
      return hipErrorInvalidImage;
    auto fn = std::make_unique<Function>();
    fn->module = &module;
    if (!(in >> fn->name))
      return hipErrorInvalidImage;
    while (in >> word) {
      size_t eq = word.find('=');
      if (eq == std::string::npos)
        return hipErrorInvalidImage;
      std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      if (key == "params") {
        std::istringstream sizes(value);
        std::string size;
        while (std::getline(sizes, size, ','))
          fn->paramSizes.push_back(unsigned(std::stoul(size)));
        if (fn->paramSizes.size() > kMockHipMaxParams)
          return hipErrorInvalidImage;
      } else if (key == "lds") {
        fn->lds = std::stoi(value);
      } else if (key == "maxthreads") {
        fn->maxThreads = std::stoi(value);
      } else if (key == "vgprs") {
        fn->vgprs = std::stoi(value);
      } else if (key == "scratch") {
        fn->scratch = std::stoi(value);
      } else {
        return hipErrorInvalidImage;
      }
    }
    module.functions.push_back(std::move(fn));
  }
  return hipSuccess;
}

/// out[i] = x[i] + y[i] for the lanes below n; a lane whose addresses lie
/// outside every allocation is a fault.
void runVectorAdd(State &s, void **params, uint64_t lanes) {
  float *x, *y, *out;
  int32_t n;
  std::memcpy(&x, params[0], sizeof x);
  std::memcpy(&y, params[1], sizeof y);
  std::memcpy(&out, params[2], sizeof out);
  std::memcpy(&n, params[3], sizeof n);
  for (uint64_t i = 0; i < lanes && int64_t(i) < n; ++i) {
    if (!findAllocation(s, x + i, 4) || !findAllocation(s, y + i, 4) ||
        !findAllocation(s, out + i, 4)) {
      s.pendingFault = hipErrorIllegalAddress;
      return;
    }
    out[i] = x[i] + y[i];
  }
}

} // namespace

#define LOCK_AND_CHECK(name)                                                   \
  State &s = state();                                                          \
  std::lock_guard<std::mutex> lock(s.mutex);                                   \
  if (hipError_t injected = takeFailure(s, name))                              \
  return injected

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

MOCK_EXPORT void mockHipReset(int numDevices) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (Module *m : s.modules)
    delete m;
  s.modules.clear();
  for (auto &a : s.allocations)
    delete[] a.first;
  s.allocations.clear();
  for (void *stream : s.streams)
    delete[] static_cast<char *>(stream);
  s.streams.clear();
  s.failNext.clear();
  s.pendingFault = hipSuccess;
  s.haveLaunch = false;
  s.lastLaunch = MockHipLaunch();
  s.stats = MockHipStats();
  s.numDevices = std::clamp(numDevices, 0, 2);
  currentDevice = 0;
}

MOCK_EXPORT int mockHipLastLaunch(MockHipLaunch *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  *out = s.lastLaunch;
  return s.haveLaunch;
}

MOCK_EXPORT void mockHipStats(MockHipStats *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  *out = s.stats;
  out->liveModules = int(s.modules.size());
  out->liveAllocations = int(s.allocations.size());
  out->liveStreams = int(s.streams.size());
}

MOCK_EXPORT void mockHipFailNext(const char *name, int error) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.failNext[name] = error;
}

//===----------------------------------------------------------------------===//
// Devices and errors
//===----------------------------------------------------------------------===//

MOCK_EXPORT hipError_t hipInit(unsigned flags) {
  LOCK_AND_CHECK("hipInit");
  ++s.stats.initCalls;
  return flags == 0 ? hipSuccess : hipErrorInvalidValue;
}

MOCK_EXPORT hipError_t hipGetDeviceCount(int *count) {
  LOCK_AND_CHECK("hipGetDeviceCount");
  if (!count)
    return hipErrorInvalidValue;
  *count = s.numDevices;
  // ROCm reports the absence of GPUs as an error as well as a zero count.
  return s.numDevices ? hipSuccess : hipErrorNoDevice;
}

MOCK_EXPORT hipError_t hipSetDevice(int ordinal) {
  LOCK_AND_CHECK("hipSetDevice");
  if (ordinal < 0 || ordinal >= s.numDevices)
    return hipErrorInvalidDevice;
  currentDevice = ordinal;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipGetDevice(int *ordinal) {
  LOCK_AND_CHECK("hipGetDevice");
  if (!ordinal)
    return hipErrorInvalidValue;
  *ordinal = currentDevice;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipDeviceGetAttribute(int *value, int attribute,
                                             int ordinal) {
  LOCK_AND_CHECK("hipDeviceGetAttribute");
  if (!value)
    return hipErrorInvalidValue;
  if (ordinal < 0 || ordinal >= s.numDevices)
    return hipErrorInvalidDevice;
  const Device &d = kDevices[ordinal];
  switch (attribute) {
  case kAttrMaxThreadsPerBlock:
    *value = d.maxThreadsPerBlock;
    return hipSuccess;
  case kAttrMultiprocessorCount:
    *value = d.cus;
    return hipSuccess;
  case kAttrMaxSharedMemoryPerBlock:
    *value = d.ldsPerBlock;
    return hipSuccess;
  case kAttrWarpSize:
    *value = d.warpSize;
    return hipSuccess;
  case kAttrMaxSharedMemoryPerMultiprocessor:
    *value = d.ldsPerCU;
    return hipSuccess;
  default:
    // As ROCm does for the attributes it does not answer (gcnArchName
    // among them).
    return hipErrorInvalidValue;
  }
}

MOCK_EXPORT hipError_t hipDeviceGetName(char *name, int len, int ordinal) {
  LOCK_AND_CHECK("hipDeviceGetName");
  if (!name || len <= 0)
    return hipErrorInvalidValue;
  if (ordinal < 0 || ordinal >= s.numDevices)
    return hipErrorInvalidDevice;
  std::strncpy(name, kDevices[ordinal].name, size_t(len) - 1);
  name[len - 1] = '\0';
  return hipSuccess;
}

namespace {
hipError_t fillProperties(State &s, void *props, int ordinal, size_t size,
                          size_t archOffset) {
  if (!props)
    return hipErrorInvalidValue;
  if (ordinal < 0 || ordinal >= s.numDevices)
    return hipErrorInvalidDevice;
  char *p = static_cast<char *>(props);
  std::memset(p, 0, size);
  std::strcpy(p + kNameOffset, kDevices[ordinal].name);
  std::strcpy(p + archOffset, kDevices[ordinal].arch);
  return hipSuccess;
}
} // namespace

#ifndef MOCK_HIP_ROCM5
MOCK_EXPORT hipError_t hipGetDevicePropertiesR0600(void *props, int ordinal) {
  LOCK_AND_CHECK("hipGetDevicePropertiesR0600");
  return fillProperties(s, props, ordinal, kSizeR0600, kArchOffsetR0600);
}
#endif

MOCK_EXPORT hipError_t hipGetDeviceProperties(void *props, int ordinal) {
  LOCK_AND_CHECK("hipGetDeviceProperties");
  return fillProperties(s, props, ordinal, kSizeR0000, kArchOffsetR0000);
}

MOCK_EXPORT const char *hipGetErrorName(hipError_t error) {
  return errorInfo(error).name;
}

MOCK_EXPORT const char *hipGetErrorString(hipError_t error) {
  return errorInfo(error).text;
}

MOCK_EXPORT hipError_t hipDeviceSynchronize() {
  LOCK_AND_CHECK("hipDeviceSynchronize");
  // A fault stays with the device, as on a GPU, until the mock is reset.
  return s.pendingFault;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

MOCK_EXPORT hipError_t hipModuleLoadData(Module **module, const void *image) {
  LOCK_AND_CHECK("hipModuleLoadData");
  if (!module || !image)
    return hipErrorInvalidValue;
  auto m = std::make_unique<Module>();
  m->device = currentDevice;
  if (hipError_t e = parseImage(image, currentDevice, *m))
    return e;
  *module = m.get();
  s.modules.insert(m.release());
  ++s.stats.modulesLoaded;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipModuleUnload(Module *module) {
  LOCK_AND_CHECK("hipModuleUnload");
  if (!s.modules.erase(module))
    return hipErrorInvalidHandle;
  delete module;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipModuleGetFunction(Function **function, Module *module,
                                            const char *name) {
  LOCK_AND_CHECK("hipModuleGetFunction");
  if (!function || !name || !*name)
    return hipErrorInvalidValue;
  if (!s.modules.count(module))
    return hipErrorInvalidHandle;
  for (auto &fn : module->functions)
    if (fn->name == name) {
      *function = fn.get();
      return hipSuccess;
    }
  return hipErrorNotFound;
}

#ifndef MOCK_HIP_ROCM5
MOCK_EXPORT hipError_t hipFuncGetAttribute(int *value, int attribute,
                                           Function *function) {
  LOCK_AND_CHECK("hipFuncGetAttribute");
  if (!value)
    return hipErrorInvalidValue;
  if (!function || !s.modules.count(function->module))
    return hipErrorInvalidHandle;
  switch (attribute) {
  case kFuncMaxThreadsPerBlock:
    *value = function->maxThreads;
    return hipSuccess;
  case kFuncSharedSizeBytes:
    *value = function->lds;
    return hipSuccess;
  case kFuncConstSizeBytes:
    *value = 0;
    return hipSuccess;
  case kFuncLocalSizeBytes:
    *value = function->scratch;
    return hipSuccess;
  case kFuncNumRegs:
    *value = function->vgprs;
    return hipSuccess;
  default:
    return hipErrorInvalidValue;
  }
}
#endif

MOCK_EXPORT hipError_t hipModuleLaunchKernel(Function *function, unsigned gridX,
                                             unsigned gridY, unsigned gridZ,
                                             unsigned blockX, unsigned blockY,
                                             unsigned blockZ,
                                             unsigned sharedBytes, void *stream,
                                             void **params, void **extra) {
  LOCK_AND_CHECK("hipModuleLaunchKernel");
  // The order and codes of clr's ihipLaunchKernel_validate.
  if (!function || !s.modules.count(function->module))
    return hipErrorInvalidHandle;
  if (params && extra)
    return hipErrorInvalidValue;
  if (!gridX || !gridY || !gridZ)
    return hipErrorInvalidValue;
  if (!blockX || !blockY || !blockZ)
    return hipErrorInvalidConfiguration;
  const Device &d = kDevices[currentDevice];
  if (sharedBytes > unsigned(d.ldsPerCU))
    return hipErrorInvalidValue;
  uint64_t threads = uint64_t(blockX) * blockY * blockZ;
  if (threads > uint64_t(d.maxThreadsPerBlock))
    return hipErrorInvalidValue;
  if (!function->paramSizes.empty() && !params && !extra)
    return hipErrorInvalidValue;
  if (threads > uint64_t(function->maxThreads))
    return hipErrorLaunchFailure;
  if (stream && !s.streams.count(stream))
    return hipErrorInvalidHandle;

  MockHipLaunch &l = s.lastLaunch;
  l = MockHipLaunch();
  std::strncpy(l.kernel, function->name.c_str(), sizeof l.kernel - 1);
  l.device = currentDevice;
  l.grid[0] = gridX;
  l.grid[1] = gridY;
  l.grid[2] = gridZ;
  l.block[0] = blockX;
  l.block[1] = blockY;
  l.block[2] = blockZ;
  l.sharedBytes = sharedBytes;
  l.stream = stream;
  l.numParams = int(function->paramSizes.size());
  for (size_t i = 0; i < function->paramSizes.size(); ++i) {
    // HIP copies each parameter's value from kernelParams[i], sized by the
    // code object's metadata.
    unsigned size = function->paramSizes[i];
    l.paramSizes[i] = size;
    if (params)
      std::memcpy(l.params[i], params[i],
                  std::min<size_t>(size, kMockHipMaxParamBytes));
  }
  s.haveLaunch = true;
  ++s.stats.launches;
  if (function->name == "vector_add" && function->paramSizes.size() == 4 &&
      params)
    runVectorAdd(s, params, uint64_t(gridX) * gridY * gridZ * threads);
  return hipSuccess;
}

//===----------------------------------------------------------------------===//
// Memory and streams
//===----------------------------------------------------------------------===//

MOCK_EXPORT hipError_t hipMalloc(void **ptr, size_t bytes) {
  LOCK_AND_CHECK("hipMalloc");
  if (!ptr)
    return hipErrorInvalidValue;
  if (bytes == 0) {
    *ptr = nullptr;
    return hipSuccess;
  }
  if (bytes > (size_t(1) << 32))
    return hipErrorOutOfMemory;
  char *p = new char[bytes];
  s.allocations[p] = Allocation{bytes, currentDevice};
  *ptr = p;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipFree(void *ptr) {
  LOCK_AND_CHECK("hipFree");
  if (!ptr)
    return hipSuccess;
  auto it = s.allocations.find(static_cast<char *>(ptr));
  if (it == s.allocations.end())
    return hipErrorInvalidValue;
  delete[] it->first;
  s.allocations.erase(it);
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipMemcpyHtoD(void *dst, void *src, size_t bytes) {
  LOCK_AND_CHECK("hipMemcpyHtoD");
  if (!findAllocation(s, dst, bytes))
    return hipErrorInvalidValue;
  std::memcpy(dst, src, bytes);
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipMemcpyDtoH(void *dst, void *src, size_t bytes) {
  LOCK_AND_CHECK("hipMemcpyDtoH");
  if (!findAllocation(s, src, bytes))
    return hipErrorInvalidValue;
  std::memcpy(dst, src, bytes);
  return hipSuccess;
}

#ifndef MOCK_HIP_ROCM5
MOCK_EXPORT hipError_t hipMemsetD8(void *dst, unsigned char value,
                                   size_t bytes) {
  LOCK_AND_CHECK("hipMemsetD8");
  if (!findAllocation(s, dst, bytes))
    return hipErrorInvalidValue;
  std::memset(dst, value, bytes);
  return hipSuccess;
}
#endif

MOCK_EXPORT hipError_t hipMemset(void *dst, int value, size_t bytes) {
  LOCK_AND_CHECK("hipMemset");
  if (!findAllocation(s, dst, bytes))
    return hipErrorInvalidValue;
  std::memset(dst, value, bytes);
  return hipSuccess;
}

#ifndef MOCK_HIP_ROCM5
/// hipPointerAttribute_t's leading fields (HipDriver.h).
struct PointerAttributes {
  int type;
  int device;
  void *devicePointer;
  void *hostPointer;
  int isManaged;
  unsigned allocationFlags;
};

MOCK_EXPORT hipError_t hipPointerGetAttributes(PointerAttributes *attrs,
                                               const void *ptr) {
  LOCK_AND_CHECK("hipPointerGetAttributes");
  if (!attrs || !ptr)
    return hipErrorInvalidValue;
  *attrs = PointerAttributes();
  // ROCm 6: hipMemoryTypeUnregistered (0) for memory HIP does not know,
  // hipMemoryTypeDevice (2) for hipMalloc's.
  if (const Allocation *a = findAllocation(s, ptr, 1)) {
    attrs->type = 2;
    attrs->device = a->device;
    attrs->devicePointer = const_cast<void *>(ptr);
  }
  return hipSuccess;
}
#endif

MOCK_EXPORT hipError_t hipStreamCreateWithFlags(void **stream, unsigned flags) {
  LOCK_AND_CHECK("hipStreamCreateWithFlags");
  if (!stream || flags > 1)
    return hipErrorInvalidValue;
  // Any unique address will do as the handle.
  void *handle = new char[1];
  s.streams.insert(handle);
  *stream = handle;
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipStreamDestroy(void *stream) {
  LOCK_AND_CHECK("hipStreamDestroy");
  if (!s.streams.erase(stream))
    return hipErrorInvalidHandle;
  delete[] static_cast<char *>(stream);
  return hipSuccess;
}

MOCK_EXPORT hipError_t hipStreamSynchronize(void *stream) {
  LOCK_AND_CHECK("hipStreamSynchronize");
  if (stream && !s.streams.count(stream))
    return hipErrorInvalidHandle;
  return s.pendingFault;
}

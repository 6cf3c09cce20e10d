//===- MockHip.cpp - a libamdhip64 that simulates GPUs in host memory -----===//
//
// Exports the HIP entry points the runtime's HIP layer resolves, with HIP's
// C signatures and error codes, over simulated devices: "device" memory is
// host memory, code objects are the text format described in MockHip.h or
// real hsaco files (read through their metadata note), and launches are
// recorded (and vector_add executed) instead of run. The
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
  std::string archOverride[2]; // mockHipSetArch's, else kDevices' arch
  std::string lastImage;       // the last code object loaded
  bool haveImage = false;
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

/// gcnArchName of device `ordinal`.
std::string deviceArch(const State &s, int ordinal) {
  const std::string &o = s.archOverride[ordinal];
  return o.empty() ? kDevices[ordinal].arch : o;
}

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

//===----------------------------------------------------------------------===//
// Real code objects: the kernels of an hsaco from its AMDGPU metadata note.
//===----------------------------------------------------------------------===//

/// A MessagePack value, as much of the format as AMDGPU metadata uses.
struct Msg {
  enum Kind { Nil, Bool, Int, Float, Str, Array, Map } kind = Nil;
  int64_t i = 0;
  std::string s;
  std::vector<Msg> items;                   // Array
  std::vector<std::pair<Msg, Msg>> entries; // Map

  /// The value of string key `key` of a map, or null.
  const Msg *get(const char *key) const {
    for (auto &[k, v] : entries)
      if (k.kind == Str && k.s == key)
        return &v;
    return nullptr;
  }
  int64_t getInt(const char *key, int64_t otherwise) const {
    const Msg *v = get(key);
    return v && v->kind == Int ? v->i : otherwise;
  }
  std::string getStr(const char *key) const {
    const Msg *v = get(key);
    return v && v->kind == Str ? v->s : "";
  }
};

/// Reads one value at `p` (advanced past it); false on a malformed or
/// unsupported encoding.
bool readMsg(const unsigned char *&p, const unsigned char *end, Msg &out,
             int depth = 0) {
  auto need = [&](size_t n) { return size_t(end - p) >= n; };
  auto be = [&](size_t n) { // big-endian unsigned of n bytes
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k)
      v = v << 8 | *p++;
    return v;
  };
  if (depth > 32 || !need(1))
    return false;
  unsigned char b = *p++;
  size_t len = 0;
  bool isStr = false, isArray = false; // else a map
  if (b <= 0x7f) {
    out.kind = Msg::Int;
    out.i = b;
    return true;
  }
  if (b >= 0xe0) {
    out.kind = Msg::Int;
    out.i = int8_t(b);
    return true;
  }
  if ((b & 0xf0) == 0x80) {
    len = b & 0x0f;
  } else if ((b & 0xf0) == 0x90) {
    isArray = true;
    len = b & 0x0f;
  } else if ((b & 0xe0) == 0xa0) {
    isStr = true;
    len = b & 0x1f;
  } else {
    switch (b) {
    case 0xc0:
      out.kind = Msg::Nil;
      return true;
    case 0xc2:
    case 0xc3:
      out.kind = Msg::Bool;
      out.i = b == 0xc3;
      return true;
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf: {
      size_t n = size_t(1) << (b - 0xcc);
      if (!need(n))
        return false;
      out.kind = Msg::Int;
      out.i = int64_t(be(n));
      return true;
    }
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: {
      size_t n = size_t(1) << (b - 0xd0);
      if (!need(n))
        return false;
      uint64_t v = be(n);
      unsigned shift = unsigned(64 - 8 * n); // sign-extend from n bytes
      out.kind = Msg::Int;
      out.i = n == 8 ? int64_t(v) : int64_t(v << shift) >> shift;
      return true;
    }
    case 0xca:
    case 0xcb: {
      size_t n = b == 0xca ? 4 : 8;
      if (!need(n))
        return false;
      p += n; // no float the mock reads
      out.kind = Msg::Float;
      return true;
    }
    case 0xd9:
    case 0xda:
    case 0xdb:
    case 0xc4:
    case 0xc5:
    case 0xc6: { // str8/16/32, bin8/16/32
      size_t n = b >= 0xd9 ? size_t(1) << (b - 0xd9) : size_t(1) << (b - 0xc4);
      if (!need(n))
        return false;
      isStr = true;
      len = be(n);
      break;
    }
    case 0xdc:
    case 0xdd:
      if (!need(b == 0xdc ? 2 : 4))
        return false;
      isArray = true;
      len = be(b == 0xdc ? 2 : 4);
      break;
    case 0xde:
    case 0xdf:
      if (!need(b == 0xde ? 2 : 4))
        return false;
      len = be(b == 0xde ? 2 : 4);
      break;
    default:
      return false; // extension types: not in AMDGPU metadata
    }
  }
  if (isStr) {
    if (!need(len))
      return false;
    out.kind = Msg::Str;
    out.s.assign(reinterpret_cast<const char *>(p), len);
    p += len;
    return true;
  }
  if (isArray) {
    out.kind = Msg::Array;
    for (size_t k = 0; k < len; ++k) {
      out.items.emplace_back();
      if (!readMsg(p, end, out.items.back(), depth + 1))
        return false;
    }
    return true;
  }
  out.kind = Msg::Map;
  for (size_t k = 0; k < len; ++k) {
    out.entries.emplace_back();
    if (!readMsg(p, end, out.entries.back().first, depth + 1) ||
        !readMsg(p, end, out.entries.back().second, depth + 1))
      return false;
  }
  return true;
}

uint64_t readLE(const unsigned char *p, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

/// Parses an hsaco: its kernels from the metadata note (the explicit
/// arguments' sizes; HIP fills the hidden_* ones itself), `extent` the
/// bytes the ELF spans. hipErrorInvalidImage for a malformed one,
/// hipErrorNoBinaryForGpu for another target.
hipError_t parseCodeObject(const unsigned char *bytes,
                           const std::string &deviceArch, Module &module,
                           size_t &extent) {
  // ELF64: e_shoff at 0x28, e_shentsize at 0x3a, e_shnum at 0x3c; section
  // headers: sh_type at 4, sh_offset at 0x18, sh_size at 0x20.
  constexpr unsigned kShtNote = 7, kShtNobits = 8, kNtAmdgpuMetadata = 32;
  uint64_t shoff = readLE(bytes + 0x28, 8);
  uint64_t shentsize = readLE(bytes + 0x3a, 2), shnum = readLE(bytes + 0x3c, 2);
  if (!shnum || shentsize < 64 || shoff < 64)
    return hipErrorInvalidImage;
  extent = size_t(shoff + shentsize * shnum);
  const unsigned char *meta = nullptr;
  size_t metaBytes = 0;
  for (uint64_t i = 0; i < shnum; ++i) {
    const unsigned char *sh = bytes + shoff + i * shentsize;
    uint64_t type = readLE(sh + 4, 4), off = readLE(sh + 0x18, 8),
             size = readLE(sh + 0x20, 8);
    if (type == kShtNobits)
      continue;
    if (off + size > (uint64_t(1) << 32))
      return hipErrorInvalidImage;
    extent = std::max(extent, size_t(off + size));
    if (type != kShtNote)
      continue;
    // Notes: namesz, descsz, type, then the name and the descriptor, each
    // padded to 4 bytes.
    for (uint64_t at = off; at + 12 <= off + size;) {
      const unsigned char *n = bytes + at;
      uint64_t namesz = readLE(n, 4), descsz = readLE(n + 4, 4),
               ntype = readLE(n + 8, 4);
      uint64_t desc = at + 12 + ((namesz + 3) & ~uint64_t(3));
      if (ntype == kNtAmdgpuMetadata && namesz == 7 &&
          std::memcmp(n + 12, "AMDGPU", 7) == 0) {
        meta = bytes + desc;
        metaBytes = size_t(descsz);
      }
      at = desc + ((descsz + 3) & ~uint64_t(3));
    }
  }
  Msg root;
  const unsigned char *p = meta;
  if (!meta || !readMsg(p, meta + metaBytes, root) || root.kind != Msg::Map)
    return hipErrorInvalidImage;
  // "amdgcn-amd-amdhsa--gfx942" with optional ":sramecc+" features.
  std::string target = root.getStr("amdhsa.target");
  size_t dashes = target.rfind("--");
  if (dashes == std::string::npos)
    return hipErrorInvalidImage;
  std::string arch = target.substr(dashes + 2);
  if (arch.substr(0, arch.find(':')) !=
      deviceArch.substr(0, deviceArch.find(':')))
    return hipErrorNoBinaryForGpu;
  const Msg *kernels = root.get("amdhsa.kernels");
  if (!kernels || kernels->kind != Msg::Array)
    return hipErrorInvalidImage;
  for (const Msg &k : kernels->items) {
    auto fn = std::make_unique<Function>();
    fn->module = &module;
    fn->name = k.getStr(".name");
    if (fn->name.empty())
      return hipErrorInvalidImage;
    if (const Msg *args = k.get(".args"))
      for (const Msg &a : args->items)
        if (a.getStr(".value_kind").rfind("hidden_", 0) != 0)
          fn->paramSizes.push_back(unsigned(a.getInt(".size", 0)));
    if (fn->paramSizes.size() > kMockHipMaxParams)
      return hipErrorInvalidImage;
    fn->lds = int(k.getInt(".group_segment_fixed_size", 0));
    fn->maxThreads = int(k.getInt(".max_flat_workgroup_size", 1024));
    fn->vgprs = int(k.getInt(".vgpr_count", 0));
    fn->scratch = int(k.getInt(".private_segment_fixed_size", 0));
    module.functions.push_back(std::move(fn));
  }
  return hipSuccess;
}

/// Parses a code object, the mock's text format or a real hsaco;
/// hipErrorInvalidImage for anything else. `extent` is the bytes it spans.
hipError_t parseImage(const void *image, const std::string &deviceArch,
                      Module &module, size_t &extent) {
  const unsigned char *bytes = static_cast<const unsigned char *>(image);
  if (std::memcmp(bytes, "\177ELF", 4) != 0 || bytes[4] != 2 ||
      (bytes[0x12] | bytes[0x13] << 8) != 224)
    return hipErrorInvalidImage;
  const char *body = reinterpret_cast<const char *>(bytes + 64);
  if (std::strncmp(body, "mock-hsaco", 10) != 0)
    return parseCodeObject(bytes, deviceArch, module, extent);
  extent = 64 + std::strlen(body) + 1;
  std::istringstream text(body);
  std::string word, arch;
  if (!(text >> word) || word != "mock-hsaco" || !(text >> arch))
    return hipErrorInvalidImage;
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
  s.archOverride[0].clear();
  s.archOverride[1].clear();
  s.lastImage.clear();
  s.haveImage = false;
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

MOCK_EXPORT int mockHipLastModuleImage(const void **data,
                                       unsigned long *bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  *data = s.lastImage.data();
  *bytes = s.lastImage.size();
  return s.haveImage;
}

MOCK_EXPORT void mockHipSetArch(int device, const char *gcnArchName) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (device >= 0 && device < 2)
    s.archOverride[device] = gcnArchName;
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
  std::string arch = deviceArch(s, ordinal);
  std::memcpy(p + archOffset, arch.c_str(),
              std::min<size_t>(arch.size() + 1, 255));
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
  size_t extent = 0;
  if (hipError_t e =
          parseImage(image, deviceArch(s, currentDevice), *m, extent))
    return e;
  s.lastImage.assign(static_cast<const char *>(image), extent);
  s.haveImage = true;
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

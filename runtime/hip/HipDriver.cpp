//===- HipDriver.cpp - resolving the HIP runtime with dlopen --------------===//
//
// Opens libamdhip64 and fills HipDriver's table of entry points. A missing
// library or symbol is an ordinary outcome (machines without ROCm, NVIDIA
// machines) and comes back as a reason string, never as a crash. The two
// places where ROCm 6 changed the ABI under unchanged names (the device
// properties struct, the pointer memory types) are resolved here, so the
// rest of the runtime sees one vocabulary.
//
//===----------------------------------------------------------------------===//
#include "runtime/hip/HipDriver.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <initializer_list>

namespace tritium::hip {

namespace {

/// Resolves the first of `names` the library exports into `slot`; a
/// missing symbol leaves it null.
template <typename Fn>
bool resolveOptional(void *handle, Fn &slot,
                     std::initializer_list<const char *> names) {
  for (const char *name : names) {
    if (void *sym = dlsym(handle, name)) {
      slot = reinterpret_cast<Fn>(sym);
      return true;
    }
  }
  return false;
}

/// Resolves `name` into `slot`, or sets the reason and fails.
template <typename Fn>
bool resolve(void *handle, Fn &slot, const char *name, std::string *whyNot,
             const std::string &path) {
  if (resolveOptional(handle, slot, {name}))
    return true;
  if (whyNot)
    *whyNot = path + " does not export " + name + " (not a HIP runtime, or " +
              "one too old?)";
  return false;
}

// Where gcnArchName (char[256]) sits in the two device properties layouts,
// and how large each struct is. Measured with offsetof/sizeof against
// HIP's own headers: hipDeviceProp_tR0600 from ROCm 6.3's
// hip_runtime_api.h, hipDeviceProp_tR0000 from ROCm 6's hip_deprecated.h,
// which equals ROCm 5's hipDeviceProp_t (checked against Debian's 5.2
// headers). Both are x86-64 layouts. HIP gives a changed struct a new
// symbol (that is what the R0600 suffix is), so each entry point has one
// layout.
constexpr size_t kArchNameOffsetR0600 = 1160, kPropsSizeR0600 = 1472;
constexpr size_t kArchNameOffsetR0000 = 396, kPropsSizeR0000 = 792;
constexpr size_t kArchNameBytes = 256;
// The buffer handed to the library: larger than either struct, so a
// library that writes a little more than its header says does no harm.
constexpr size_t kPropsBufferBytes = 4096;
static_assert(kArchNameOffsetR0600 + kArchNameBytes <= kPropsSizeR0600 &&
                  kArchNameOffsetR0000 + kArchNameBytes <= kPropsSizeR0000 &&
                  kPropsSizeR0600 <= kPropsBufferBytes,
              "gcnArchName must lie inside the properties struct");

// hipMemoryType of hipPointerAttribute_t::type that ROCm 6 reports for
// addresses it does not know. ROCm 5 numbered the enum from
// hipMemoryTypeHost = 0 and failed the query for such addresses instead
// (hipErrorInvalidValue, in hipamd's hip_memory.cpp of ROCm 5.6).
constexpr int kMemoryTypeUnregistered = 0;

} // namespace

HipDriver::~HipDriver() {
  if (handle_)
    dlclose(handle_);
}

std::unique_ptr<HipDriver> HipDriver::load(const std::string &path,
                                           std::string *whyNot) {
  // RTLD_LOCAL keeps HIP's symbols out of the global namespace; a process
  // that also loads torch's ROCm build gets the same library either way,
  // since dlopen of an already loaded file returns its handle.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    if (whyNot) {
      const char *msg = dlerror();
      *whyNot = msg ? std::string(msg) : "cannot load " + path;
    }
    return nullptr;
  }
  auto drv = std::make_unique<HipDriver>();
  drv->handle_ = handle;
  drv->path_ = path;
  HipDriver &d = *drv;
  bool ok =
      resolve(handle, d.hipInit, "hipInit", whyNot, path) &&
      resolve(handle, d.hipGetDeviceCount, "hipGetDeviceCount", whyNot, path) &&
      resolve(handle, d.hipSetDevice, "hipSetDevice", whyNot, path) &&
      resolve(handle, d.hipGetDevice, "hipGetDevice", whyNot, path) &&
      resolve(handle, d.hipDeviceGetAttribute, "hipDeviceGetAttribute", whyNot,
              path) &&
      resolve(handle, d.hipDeviceGetName, "hipDeviceGetName", whyNot, path) &&
      resolve(handle, d.hipGetErrorName, "hipGetErrorName", whyNot, path) &&
      resolve(handle, d.hipGetErrorString, "hipGetErrorString", whyNot, path) &&
      resolve(handle, d.hipModuleLoadData, "hipModuleLoadData", whyNot, path) &&
      resolve(handle, d.hipModuleUnload, "hipModuleUnload", whyNot, path) &&
      resolve(handle, d.hipModuleGetFunction, "hipModuleGetFunction", whyNot,
              path) &&
      resolve(handle, d.hipModuleLaunchKernel, "hipModuleLaunchKernel", whyNot,
              path) &&
      resolve(handle, d.hipMalloc, "hipMalloc", whyNot, path) &&
      resolve(handle, d.hipFree, "hipFree", whyNot, path) &&
      resolve(handle, d.hipMemcpyHtoD, "hipMemcpyHtoD", whyNot, path) &&
      resolve(handle, d.hipMemcpyDtoH, "hipMemcpyDtoH", whyNot, path) &&
      resolve(handle, d.hipDeviceSynchronize, "hipDeviceSynchronize", whyNot,
              path) &&
      resolve(handle, d.hipStreamCreateWithFlags, "hipStreamCreateWithFlags",
              whyNot, path) &&
      resolve(handle, d.hipStreamDestroy, "hipStreamDestroy", whyNot, path) &&
      resolve(handle, d.hipStreamSynchronize, "hipStreamSynchronize", whyNot,
              path);
  if (!ok)
    return nullptr;

  resolveOptional(handle, d.hipFuncGetAttribute, {"hipFuncGetAttribute"});
  resolveOptional(handle, d.hipPointerGetAttributes,
                  {"hipPointerGetAttributes"});
  resolveOptional(handle, d.hipMemsetD8, {"hipMemsetD8"});
  resolveOptional(handle, d.hipMemset, {"hipMemset"});
  // The plain hipGetDeviceProperties keeps the ROCm 5 layout in ROCm 6
  // (ROCm 6's header renames calls to the R0600 symbol), so each pointer
  // has exactly one layout.
  resolveOptional(handle, d.hipGetDevicePropertiesR0600,
                  {"hipGetDevicePropertiesR0600"});
  resolveOptional(handle, d.hipGetDeviceProperties, {"hipGetDeviceProperties"});
  const char *missing = nullptr;
  if (!d.hipMemsetD8 && !d.hipMemset)
    missing = "hipMemsetD8 or hipMemset";
  else if (!d.hipGetDevicePropertiesR0600 && !d.hipGetDeviceProperties)
    missing = "hipGetDevicePropertiesR0600 or hipGetDeviceProperties";
  if (missing) {
    if (whyNot)
      *whyNot = path + " does not export " + missing +
                " (not a HIP runtime, or one too old?)";
    return nullptr;
  }
  return drv;
}

std::unique_ptr<HipDriver> HipDriver::loadDefault(std::string *whyNot) {
  if (const char *env = std::getenv("TRITIUM_HIP_LIBRARY"); env && *env) {
    std::string why;
    auto drv = load(env, &why);
    if (!drv && whyNot)
      *whyNot = "TRITIUM_HIP_LIBRARY=" + std::string(env) + ": " + why;
    return drv;
  }
  // The unversioned name first: it is what a ROCm install's own lib
  // directory (on the loader's path) provides, and it follows the
  // installed major version. Then the sonames, then the default prefix for
  // installs that do not register their lib directory with the loader.
  static const char *const candidates[] = {"libamdhip64.so", "libamdhip64.so.6",
                                           "libamdhip64.so.5",
                                           "/opt/rocm/lib/libamdhip64.so"};
  std::string firstWhy, symbolWhy;
  for (const char *path : candidates) {
    std::string why;
    if (auto drv = load(path, &why))
      return drv;
    // A library that opened but lacks symbols says more than one that is
    // absent.
    if (symbolWhy.empty() && why.find(" does not export ") != std::string::npos)
      symbolWhy = why;
    if (firstWhy.empty())
      firstWhy = why;
  }
  if (whyNot)
    *whyNot = !symbolWhy.empty()
                  ? symbolWhy
                  : firstWhy + " (also tried libamdhip64.so.6, "
                               "libamdhip64.so.5, /opt/rocm/lib; "
                               "TRITIUM_HIP_LIBRARY names the file)";
  return nullptr;
}

const HipDriver *HipDriver::get(std::string *whyNot) {
  // Loaded once; the table is never unloaded, so handles destroyed during
  // static destruction still find their entry points.
  static std::string reason;
  static HipDriver *driver = loadDefault(&reason).release();
  if (!driver && whyNot)
    *whyNot = reason;
  return driver;
}

std::string HipDriver::describe(hipError_t result) const {
  const char *name = hipGetErrorName ? hipGetErrorName(result) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(result) : nullptr;
  // HIP names every code it does not know "hipErrorUnknown"; the number is
  // then the only information there is.
  std::string out;
  if (name && *name &&
      (result == hipErrorUnknown || std::strcmp(name, "hipErrorUnknown") != 0))
    out = name;
  else
    out = "HIP error " + std::to_string(result);
  if (text && *text)
    out += std::string(": ") + text;
  return out;
}

std::string HipDriver::errorText(const std::string &operation,
                                 hipError_t result) const {
  return operation + ": " + describe(result);
}

hipError_t HipDriver::archName(int ordinal, std::string &name) const {
  // Zeroed and aligned for any member type; read back only as chars.
  alignas(16) unsigned char props[kPropsBufferBytes] = {};
  hipError_t r;
  size_t offset;
  if (hipGetDevicePropertiesR0600) {
    r = hipGetDevicePropertiesR0600(props, ordinal);
    offset = kArchNameOffsetR0600;
  } else {
    r = hipGetDeviceProperties(props, ordinal);
    offset = kArchNameOffsetR0000;
  }
  if (r != hipSuccess)
    return r;
  const char *field = reinterpret_cast<const char *>(props + offset);
  name.assign(field, strnlen(field, kArchNameBytes));
  return hipSuccess;
}

hipError_t HipDriver::memsetBytes(hipDeviceptr_t dst, uint8_t value,
                                  size_t bytes, const char **operation) const {
  if (hipMemsetD8) {
    if (operation)
      *operation = "hipMemsetD8";
    return hipMemsetD8(dst, value, bytes);
  }
  if (operation)
    *operation = "hipMemset";
  return hipMemset(dst, value, bytes);
}

hipError_t HipDriver::pointerInfo(const void *ptr, PointerInfo &info) const {
  info = PointerInfo();
  hipPointerAttribute_t attrs;
  std::memset(&attrs, 0, sizeof attrs);
  hipError_t r = hipPointerGetAttributes(&attrs, ptr);
  // ROCm 5 fails the query for memory it does not know.
  if (r == hipErrorInvalidValue)
    return hipSuccess;
  if (r != hipSuccess)
    return r;
  // ROCm 6 answers it, as "unregistered".
  if (rocm6Abi() && attrs.type == kMemoryTypeUnregistered)
    return hipSuccess;
  info.known = true;
  info.device = attrs.device;
  return hipSuccess;
}

} // namespace tritium::hip

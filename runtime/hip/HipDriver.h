//===- HipDriver.h - the HIP runtime API, loaded at run time ----*- C++ -*-===//
//
// The runtime reaches AMD GPUs through HIP's module API (hipModuleLoadData,
// hipModuleLaunchKernel), but no tritium binary links libamdhip64: it must
// start (and fall back to the interpreter) on a machine without ROCm. This
// header declares the handful of HIP types and enum values the runtime uses
// (numeric values as in HIP's hip_runtime_api.h and driver_types.h, which
// are deliberately not included) and a table of entry points filled with
// dlopen/dlsym.
//
//   std::string why;
//   const HipDriver *drv = HipDriver::get(&why);
//   if (!drv)
//     std::cerr << "no HIP: " << why << "\n"; // e.g. "libamdhip64.so: cannot
//                                             // open shared object file"
//
// Most code should use HipDevice (HipDevice.h) rather than this table.
//
// Two parts of the ABI changed in ROCm 6 and are hidden here: the device
// properties struct (read only for the architecture name, see archName) and
// the memory type numbers of hipPointerGetAttributes (see pointerInfo).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_HIP_HIPDRIVER_H
#define TRITIUM_RUNTIME_HIP_HIPDRIVER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tritium::hip {

//===----------------------------------------------------------------------===//
// HIP types (opaque handles are pointers to incomplete structs named as in
// hip_runtime_api.h, so they can be passed to code that includes it).
//===----------------------------------------------------------------------===//

using hipError_t = int;
using hipDevice_t = int;
/// Device memory is a plain address in HIP's unified address space.
using hipDeviceptr_t = void *;
struct ihipModule_t;
struct ihipModuleSymbol_t;
struct ihipStream_t;
using hipModule_t = ihipModule_t *;
using hipFunction_t = ihipModuleSymbol_t *;
using hipStream_t = ihipStream_t *;

// hipError_t values the runtime tests for; every other code is reported by
// the library's own name for it.
enum : hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorNotFound = 500,
  hipErrorUnknown = 999,
};

// hipDeviceAttribute_t. These numbers are the same in ROCm 5 and 6 (the
// CUDA-compatible block counts up from 0 in one order in both). The
// architecture name is not among them: hipDeviceAttributeGcnArchName
// (10004 in ROCm 5) is not answered by ROCm's hipDeviceGetAttribute, which
// returns hipErrorInvalidValue for it, and ROCm 6 retired the number; the
// name comes from the device properties struct instead (archName below).
enum hipDeviceAttribute_t : int {
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

// hipFunction_attribute (the same numbers as CUfunction_attribute).
enum hipFunction_attribute : int {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  HIP_FUNC_ATTRIBUTE_NUM_REGS = 4,
};

// hipStreamCreateWithFlags flags.
enum : unsigned {
  hipStreamDefault = 0,
  hipStreamNonBlocking = 1,
};

/// hipPointerAttribute_t: 32 bytes with these offsets in ROCm 5 and 6; only
/// the numbering of `type` changed (see pointerInfo).
struct hipPointerAttribute_t {
  int type; // hipMemoryType (ROCm 6), memoryType (ROCm 5)
  int device;
  void *devicePointer;
  void *hostPointer;
  int isManaged;
  unsigned allocationFlags;
};

/// What hipPointerGetAttributes says about an address, in one vocabulary
/// for both ABIs.
struct PointerInfo {
  /// HIP knows the address: device, managed or pinned host memory, all of
  /// which a kernel can reach. Ordinary (pageable) host memory is not.
  bool known = false;
  int device = -1; // the device it belongs to, when known
};

//===----------------------------------------------------------------------===//
// The entry points.
//===----------------------------------------------------------------------===//

/// HIP entry points resolved from libamdhip64. Members are named after the
/// API functions and have their signatures. Entry points marked optional
/// may be null (an older or stripped-down library); everything else is
/// required by load().
struct HipDriver {
  hipError_t (*hipInit)(unsigned flags) = nullptr;
  hipError_t (*hipGetDeviceCount)(int *count) = nullptr;
  hipError_t (*hipSetDevice)(int ordinal) = nullptr;
  hipError_t (*hipGetDevice)(int *ordinal) = nullptr;
  hipError_t (*hipDeviceGetAttribute)(int *value,
                                      hipDeviceAttribute_t attribute,
                                      int ordinal) = nullptr;
  hipError_t (*hipDeviceGetName)(char *name, int len,
                                 hipDevice_t device) = nullptr;
  // Unlike CUDA's cuGetErrorName, these return the text directly.
  const char *(*hipGetErrorName)(hipError_t error) = nullptr;
  const char *(*hipGetErrorString)(hipError_t error) = nullptr;

  hipError_t (*hipModuleLoadData)(hipModule_t *module,
                                  const void *image) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t module) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t *function,
                                     hipModule_t module,
                                     const char *name) = nullptr;
  /// `params` holds one pointer per kernel parameter, pointing at its value
  /// (as cuLaunchKernel's); `extra` (the packed-buffer alternative) must
  /// then be null: HIP rejects a launch that passes both.
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t function, unsigned gridX,
                                      unsigned gridY, unsigned gridZ,
                                      unsigned blockX, unsigned blockY,
                                      unsigned blockZ, unsigned sharedBytes,
                                      hipStream_t stream, void **params,
                                      void **extra) = nullptr;
  /// Optional: without it a kernel's resources are unknown (zero).
  hipError_t (*hipFuncGetAttribute)(int *value, hipFunction_attribute attribute,
                                    hipFunction_t function) = nullptr;

  hipError_t (*hipMalloc)(void **ptr, size_t bytes) = nullptr;
  hipError_t (*hipFree)(void *ptr) = nullptr;
  // HIP declares the source non-const; it is only read.
  hipError_t (*hipMemcpyHtoD)(hipDeviceptr_t dst, void *src,
                              size_t bytes) = nullptr;
  hipError_t (*hipMemcpyDtoH)(void *dst, hipDeviceptr_t src,
                              size_t bytes) = nullptr;
  /// One of the two is required; memsetBytes picks.
  hipError_t (*hipMemsetD8)(hipDeviceptr_t dst, unsigned char value,
                            size_t bytes) = nullptr;
  hipError_t (*hipMemset)(void *dst, int value, size_t bytes) = nullptr;
  hipError_t (*hipDeviceSynchronize)() = nullptr;

  hipError_t (*hipStreamCreateWithFlags)(hipStream_t *stream,
                                         unsigned flags) = nullptr;
  hipError_t (*hipStreamDestroy)(hipStream_t stream) = nullptr;
  hipError_t (*hipStreamSynchronize)(hipStream_t stream) = nullptr;
  /// Optional: without it pointers cannot be checked before a launch.
  hipError_t (*hipPointerGetAttributes)(hipPointerAttribute_t *attributes,
                                        const void *ptr) = nullptr;

  /// The device properties; a library exports at least one. ROCm 6 fills
  /// hipDeviceProp_tR0600 through the first; the plain symbol fills the
  /// ROCm 5 layout (hipDeviceProp_tR0000), in ROCm 6 too, for binaries
  /// built against 5. The struct is opaque here: archName reads the one
  /// field needed.
  hipError_t (*hipGetDevicePropertiesR0600)(void *props, int ordinal) = nullptr;
  hipError_t (*hipGetDeviceProperties)(void *props, int ordinal) = nullptr;

  /// The process-wide library, loaded on first use by loadDefault(). Null
  /// when it cannot be loaded; then `whyNot` (if given) says why. The answer
  /// is cached: later calls return the same table or reason. Never calls
  /// into HIP (not even hipInit).
  static const HipDriver *get(std::string *whyNot = nullptr);

  /// Loads the library named by TRITIUM_HIP_LIBRARY or, without it, the
  /// first of libamdhip64.so, libamdhip64.so.6, libamdhip64.so.5 and
  /// /opt/rocm/lib/libamdhip64.so that loads, into a new table (uncached;
  /// get() keeps one of these).
  static std::unique_ptr<HipDriver> loadDefault(std::string *whyNot = nullptr);

  /// Loads the library at `path` into a new table. Null with a reason when
  /// the library or a required symbol is missing.
  static std::unique_ptr<HipDriver> load(const std::string &path,
                                         std::string *whyNot = nullptr);

  /// "hipErrorInvalidValue: invalid argument" for `result`; a numeric
  /// fallback when the library does not know the code.
  std::string describe(hipError_t result) const;

  /// "<operation>: <describe(result)>", the form of every HIP error the
  /// runtime reports (e.g. "hipModuleLaunchKernel(softmax): hipError...").
  std::string errorText(const std::string &operation, hipError_t result) const;

  /// The architecture name of device `ordinal` as the properties struct's
  /// gcnArchName gives it: the target and its features,
  /// "gfx942:sramecc+:xnack-".
  hipError_t archName(int ordinal, std::string &name) const;

  /// Sets `bytes` bytes at `dst` to `value` (hipMemsetD8, else hipMemset);
  /// `*operation` (if given) receives the name of the call used.
  hipError_t memsetBytes(hipDeviceptr_t dst, uint8_t value, size_t bytes,
                         const char **operation = nullptr) const;

  /// hipPointerGetAttributes for `ptr`, which must be resolved (it is
  /// optional). An address HIP does not know (ordinary host memory) is
  /// success with `known` false, whichever way the library reports it.
  hipError_t pointerInfo(const void *ptr, PointerInfo &info) const;

  /// Whether the library has the ROCm 6 ABI (it exports
  /// hipGetDevicePropertiesR0600).
  bool rocm6Abi() const { return hipGetDevicePropertiesR0600 != nullptr; }
  /// The file the table was loaded from.
  const std::string &path() const { return path_; }

  HipDriver() = default;
  ~HipDriver();
  HipDriver(const HipDriver &) = delete;
  HipDriver &operator=(const HipDriver &) = delete;

private:
  void *handle_ = nullptr; // dlopen handle, closed by the destructor
  std::string path_;
};

} // namespace tritium::hip

#endif // TRITIUM_RUNTIME_HIP_HIPDRIVER_H

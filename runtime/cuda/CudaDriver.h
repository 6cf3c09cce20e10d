//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime reaches NVIDIA GPUs through the CUDA driver API, but no tritium
// binary links libcuda: it must start (and fall back to the interpreter) on a
// machine without a driver. This header declares the handful of driver types
// and enum values the runtime uses (numeric values as in CUDA's cuda.h, which
// is deliberately not included) and a table of entry points filled with
// dlopen/dlsym.
//
//   std::string why;
//   const CudaDriver *drv = CudaDriver::get(&why);
//   if (!drv)
//     std::cerr << "no CUDA: " << why << "\n"; // e.g. "libcuda.so.1: cannot
//                                              // open shared object file"
//
// Most code should use CudaDevice (CudaDevice.h) rather than this table.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDA_CUDADRIVER_H
#define TRITIUM_RUNTIME_CUDA_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tritium::cuda {

//===----------------------------------------------------------------------===//
// Driver types (opaque handles are pointers to incomplete structs, as in
// cuda.h, so they can be passed to code that does include cuda.h).
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

// CUresult values the runtime tests for; every other code is reported by
// the driver's own name for it.
enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
};

// CUdevice_attribute.
enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

// CUfunction_attribute.
enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

// CUjit_option (cuModuleLoadDataEx).
enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
};

// CUpointer_attribute.
enum CUpointer_attribute : int {
  CU_POINTER_ATTRIBUTE_CONTEXT = 1,
  CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
};

// CUmemorytype.
enum CUmemorytype : int {
  CU_MEMORYTYPE_HOST = 1,
  CU_MEMORYTYPE_DEVICE = 2,
  CU_MEMORYTYPE_ARRAY = 3,
  CU_MEMORYTYPE_UNIFIED = 4,
};

// Stream and event creation flags.
enum : unsigned {
  CU_STREAM_DEFAULT = 0,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
};

//===----------------------------------------------------------------------===//
// The entry points.
//===----------------------------------------------------------------------===//

/// Driver entry points resolved from libcuda. Members are named after the
/// API functions; where the driver versions a function (cuMemAlloc ->
/// cuMemAlloc_v2) the member holds the versioned symbol, whose signature is
/// the one given here (64-bit sizes and device pointers).
struct CudaDriver {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;

  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                   CUdevice device) = nullptr;

  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context,
                                       CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext *context) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice *device) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;

  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr ptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                           size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value,
                         size_t count) = nullptr;
  CUresult (*cuPointerGetAttribute)(void *data, CUpointer_attribute attribute,
                                    CUdeviceptr ptr) = nullptr;

  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, CUjit_option *options,
                                 void **optionValues) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *value, CUfunction_attribute attribute,
                                 CUfunction function) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function,
                                 CUfunction_attribute attribute,
                                 int value) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra) = nullptr;

  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start,
                                 CUevent end) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;

  /// The process-wide driver, loaded on first use from libcuda.so.1 (or the
  /// file named by TRITIUM_LIBCUDA). Null when it cannot be loaded; then
  /// `whyNot` (if given) says why: the dlopen message, or the first entry
  /// point the library lacks. Never calls into the driver (not even cuInit).
  static const CudaDriver *get(std::string *whyNot = nullptr);

  /// Loads the driver library at `path` into a new table (get() caches one
  /// of these). Null with a reason when the library or a symbol is missing.
  static std::unique_ptr<CudaDriver> load(const std::string &path,
                                          std::string *whyNot = nullptr);

  /// "CUDA_ERROR_INVALID_VALUE: invalid argument" for `result`; a numeric
  /// fallback when the driver does not know the code.
  std::string describe(CUresult result) const;

  /// "<operation>: <describe(result)>", the form of every CUDA error the
  /// runtime reports (e.g. "cuLaunchKernel(vector_add): CUDA_ERROR_...").
  std::string errorText(const std::string &operation, CUresult result) const;

  CudaDriver() = default;
  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

private:
  void *handle_ = nullptr; // dlopen handle, closed by the destructor
};

} // namespace tritium::cuda

#endif // TRITIUM_RUNTIME_CUDA_CUDADRIVER_H

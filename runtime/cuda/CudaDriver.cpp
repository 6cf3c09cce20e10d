//===- CudaDriver.cpp - resolving the CUDA driver with dlopen -------------===//
//
// Opens libcuda.so.1 and fills CudaDriver's table of entry points. A missing
// library or symbol is an ordinary outcome (CPU-only machines, old drivers)
// and comes back as a reason string, never as a crash.
//
//===----------------------------------------------------------------------===//
#include "runtime/cuda/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

namespace tritium::cuda {

namespace {

/// Resolves the first of `names` the library exports into `slot`. Versioned
/// names come first: an unversioned symbol kept for old binaries may have a
/// 32-bit signature (cuMemAlloc) or a different stream behaviour.
template <typename Fn>
bool resolve(void *handle, Fn &slot, std::initializer_list<const char *> names,
             std::string *whyNot, const std::string &path) {
  for (const char *name : names) {
    if (void *sym = dlsym(handle, name)) {
      slot = reinterpret_cast<Fn>(sym);
      return true;
    }
  }
  if (whyNot)
    *whyNot =
        path + " does not export " + *names.begin() + " (CUDA driver too old?)";
  return false;
}

} // namespace

CudaDriver::~CudaDriver() {
  if (handle_)
    dlclose(handle_);
}

std::unique_ptr<CudaDriver> CudaDriver::load(const std::string &path,
                                             std::string *whyNot) {
  // RTLD_LOCAL keeps the driver's symbols out of the global namespace, so a
  // process that also loads torch's CUDA runtime sees one libcuda either way.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    if (whyNot) {
      const char *msg = dlerror();
      *whyNot = msg ? std::string(msg) : "cannot load " + path;
    }
    return nullptr;
  }
  auto drv = std::make_unique<CudaDriver>();
  drv->handle_ = handle;
  CudaDriver &d = *drv;
  bool ok =
      resolve(handle, d.cuInit, {"cuInit"}, whyNot, path) &&
      resolve(handle, d.cuGetErrorName, {"cuGetErrorName"}, whyNot, path) &&
      resolve(handle, d.cuGetErrorString, {"cuGetErrorString"}, whyNot, path) &&
      resolve(handle, d.cuDeviceGet, {"cuDeviceGet"}, whyNot, path) &&
      resolve(handle, d.cuDeviceGetCount, {"cuDeviceGetCount"}, whyNot, path) &&
      resolve(handle, d.cuDeviceGetName, {"cuDeviceGetName"}, whyNot, path) &&
      resolve(handle, d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, whyNot,
              path) &&
      resolve(handle, d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
              whyNot, path) &&
      resolve(handle, d.cuCtxSetCurrent, {"cuCtxSetCurrent"}, whyNot, path) &&
      resolve(handle, d.cuCtxGetCurrent, {"cuCtxGetCurrent"}, whyNot, path) &&
      resolve(handle, d.cuCtxGetDevice, {"cuCtxGetDevice"}, whyNot, path) &&
      // cuCtxSynchronize_v2 takes a context argument: keep the plain one.
      resolve(handle, d.cuCtxSynchronize, {"cuCtxSynchronize"}, whyNot, path) &&
      resolve(handle, d.cuMemAlloc, {"cuMemAlloc_v2"}, whyNot, path) &&
      resolve(handle, d.cuMemFree, {"cuMemFree_v2"}, whyNot, path) &&
      resolve(handle, d.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, whyNot, path) &&
      resolve(handle, d.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, whyNot, path) &&
      resolve(handle, d.cuMemsetD8, {"cuMemsetD8_v2"}, whyNot, path) &&
      resolve(handle, d.cuPointerGetAttribute, {"cuPointerGetAttribute"},
              whyNot, path) &&
      resolve(handle, d.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, whyNot,
              path) &&
      resolve(handle, d.cuModuleGetFunction, {"cuModuleGetFunction"}, whyNot,
              path) &&
      resolve(handle, d.cuModuleUnload, {"cuModuleUnload"}, whyNot, path) &&
      resolve(handle, d.cuFuncGetAttribute, {"cuFuncGetAttribute"}, whyNot,
              path) &&
      resolve(handle, d.cuFuncSetAttribute, {"cuFuncSetAttribute"}, whyNot,
              path) &&
      resolve(handle, d.cuLaunchKernel, {"cuLaunchKernel"}, whyNot, path) &&
      resolve(handle, d.cuStreamCreate, {"cuStreamCreate"}, whyNot, path) &&
      resolve(handle, d.cuStreamDestroy,
              {"cuStreamDestroy_v2", "cuStreamDestroy"}, whyNot, path) &&
      resolve(handle, d.cuStreamSynchronize, {"cuStreamSynchronize"}, whyNot,
              path) &&
      resolve(handle, d.cuEventCreate, {"cuEventCreate"}, whyNot, path) &&
      resolve(handle, d.cuEventRecord, {"cuEventRecord"}, whyNot, path) &&
      resolve(handle, d.cuEventSynchronize, {"cuEventSynchronize"}, whyNot,
              path) &&
      resolve(handle, d.cuEventElapsedTime,
              {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, whyNot, path) &&
      resolve(handle, d.cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"},
              whyNot, path);
  if (!ok)
    return nullptr;
  return drv;
}

const CudaDriver *CudaDriver::get(std::string *whyNot) {
  // Loaded once; the table is never unloaded, so handles destroyed during
  // static destruction still find their entry points.
  static std::string reason;
  static CudaDriver *driver = [] {
    const char *env = std::getenv("TRITIUM_LIBCUDA");
    std::string path = env && *env ? env : "libcuda.so.1";
    return load(path, &reason).release();
  }();
  if (!driver && whyNot)
    *whyNot = reason;
  return driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString && cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  std::string out = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    out += std::string(": ") + text;
  return out;
}

std::string CudaDriver::errorText(const std::string &operation,
                                  CUresult result) const {
  return operation + ": " + describe(result);
}

} // namespace tritium::cuda

//===- CudaDevice.h - one CUDA GPU: modules, launches, buffers --*- C++ -*-===//
//
// The runtime's view of an NVIDIA GPU, on top of the dlopen'ed driver
// (CudaDriver.h). Code generation hands it a PTX or cubin image; this layer
// loads it, reports the kernel's resources and launches it:
//
//   std::string why;
//   CudaDevice *dev = CudaDevice::get(&why);
//   if (!dev)
//     return useInterpreter(why); // no driver, no GPU, ...
//   auto kernel = dev->loadModule(ptx, /*isPtx=*/true, "vector_add");
//   if (!kernel)
//     return kernel.error(); // includes the driver JIT's error log
//   auto x = dev->allocate(n * sizeof(float));
//   ... x->copyFromHost(host.data(), n * sizeof(float));
//   CUdeviceptr px = x->ptr();
//   void *params[] = {&px, ..., &n};
//   if (auto err = dev->launch(**kernel, gridX, 1, 1, /*numWarps=*/4,
//                              /*dynamicSharedBytes=*/0, params))
//     return *err; // "cuLaunchKernel(vector_add): CUDA_ERROR_...: ..."
//   if (auto err = dev->synchronize("vector_add")) ...
//
// Every failure is a tritium::Error (kind Runtime) whose message names the
// driver call, the kernel where there is one, the CUDA error's name and its
// description. Nothing throws.
//
// The device works in the GPU's primary context, the one the CUDA runtime
// (and so torch) uses; each operation makes it current on the calling
// thread first and puts the thread's own back afterwards, so the objects
// here may be used from any thread, on any device, without moving torch's
// current device. A kernel, buffer, event or stream must not outlive the
// process's use of CUDA, but they may be destroyed during static
// destruction: the device and driver are never torn down.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDA_CUDADEVICE_H
#define TRITIUM_RUNTIME_CUDA_CUDADEVICE_H

#include "runtime/Tritium.h"
#include "runtime/cuda/CudaDriver.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tritium::cuda {

class CudaDevice;

/// What the driver reports about a loaded kernel (cuFuncGetAttribute).
struct KernelResources {
  int numRegs = 0;            // registers per thread
  int localBytes = 0;         // local memory per thread: spills, stack arrays
  int staticSharedBytes = 0;  // shared memory declared in the kernel
  int constBytes = 0;         // user constant memory
  int maxThreadsPerBlock = 0; // the largest block this kernel can launch with
  int ptxVersion = 0;         // virtual arch of the PTX (.target sm_80: 80)
  int binaryVersion = 0;      // SASS architecture, major*10+minor (90)
};

/// A loaded module and the one kernel of it that is launched. Made by
/// CudaDevice::loadModule; unloads the module when destroyed.
class CudaKernel {
public:
  ~CudaKernel();
  CudaKernel(const CudaKernel &) = delete;
  CudaKernel &operator=(const CudaKernel &) = delete;

  const std::string &name() const { return name_; }
  /// The device the module is loaded on.
  CudaDevice *device() const { return device_; }
  CUmodule module() const { return module_; }
  CUfunction function() const { return function_; }
  const KernelResources &resources() const { return resources_; }
  /// The driver JIT's info log (PTX images; empty for cubins).
  const std::string &jitLog() const { return jitLog_; }

private:
  friend class CudaDevice;
  CudaKernel() = default;

  CudaDevice *device_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  std::string name_;
  KernelResources resources_;
  std::string jitLog_;
  // Raising the dynamic shared memory limit is done once, by the first
  // launch that needs it; launches may come from several threads.
  std::mutex sharedLimitMutex_;
  bool sharedLimitRaised_ = false;
};

/// Device memory (cuMemAlloc), freed when destroyed. Move-only; a default
/// constructed buffer is empty (ptr() == 0).
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer();

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return bytes_; }

  /// Copies `bytes` host bytes to the buffer at byte `offset`.
  std::optional<Error> copyFromHost(const void *src, size_t bytes,
                                    size_t offset = 0);
  /// Copies `bytes` bytes at byte `offset` of the buffer to the host.
  std::optional<Error> copyToHost(void *dst, size_t bytes,
                                  size_t offset = 0) const;
  /// Sets every byte of the buffer to `value`.
  std::optional<Error> memset(uint8_t value);

  template <typename T>
  std::optional<Error> copyFromHost(const std::vector<T> &v) {
    return copyFromHost(v.data(), v.size() * sizeof(T));
  }
  /// Fills `v` (already sized) from the start of the buffer.
  template <typename T>
  std::optional<Error> copyToHost(std::vector<T> &v) const {
    return copyToHost(v.data(), v.size() * sizeof(T));
  }

  /// Frees the memory now.
  void reset();

private:
  friend class CudaDevice;
  CudaDevice *device_ = nullptr;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// A CUDA event for timing work on a stream.
class CudaEvent {
public:
  CudaEvent() = default;
  CudaEvent(CudaEvent &&other) noexcept;
  CudaEvent &operator=(CudaEvent &&other) noexcept;
  ~CudaEvent();

  CUevent handle() const { return event_; }
  /// Records the event on `stream` (null: the legacy default stream).
  std::optional<Error> record(CUstream stream = nullptr);
  /// Waits until the work recorded before the event has finished.
  std::optional<Error> synchronize();
  /// Milliseconds between two recorded events; waits for `end` first.
  static Expected<float> elapsedMs(const CudaEvent &start,
                                   const CudaEvent &end);

private:
  friend class CudaDevice;
  CudaDevice *device_ = nullptr;
  CUevent event_ = nullptr;
};

/// A CUDA stream owned by the runtime (torch's streams are passed to
/// launch() as plain CUstream handles instead).
class CudaStream {
public:
  CudaStream() = default;
  CudaStream(CudaStream &&other) noexcept;
  CudaStream &operator=(CudaStream &&other) noexcept;
  ~CudaStream();

  CUstream handle() const { return stream_; }
  std::optional<Error> synchronize();

private:
  friend class CudaDevice;
  CudaDevice *device_ = nullptr;
  CUstream stream_ = nullptr;
};

/// The calling thread's current context while one device works in its own:
/// put back when the scope ends, since the CUDA runtime (and so torch's
/// current device) reads it. Made by CudaDevice::enter.
class CurrentContext {
public:
  CurrentContext() = default;
  CurrentContext(const CurrentContext &) = delete;
  CurrentContext &operator=(const CurrentContext &) = delete;
  ~CurrentContext();

private:
  friend class CudaDevice;
  const CudaDriver *driver_ = nullptr; ///< set when something is to restore
  CUcontext previous_ = nullptr;
};

/// One GPU, in its primary context. Every device of the machine can be
/// used; each has its own context, modules and buffers.
class CudaDevice {
public:
  /// The process's default device: ordinal TRITIUM_CUDA_DEVICE (default
  /// 0), created on first use. Null when there is none usable; `whyNot` then
  /// says why (no driver library, cuInit failing, no device, a bad ordinal).
  /// The answer is cached: later calls return the same device or reason.
  static CudaDevice *get(std::string *whyNot = nullptr);
  /// Device `ordinal` (0 .. count()-1), opened on first use and kept; null
  /// with a reason for an ordinal the machine does not have.
  static CudaDevice *get(int ordinal, std::string *whyNot);
  /// How many CUDA devices the driver sees (0 without a usable driver).
  static int count();
  /// The ordinal of the device whose memory `ptr` is; an error naming
  /// `what` for memory no GPU can access (a CPU tensor). The last few
  /// distinct pointers are remembered, so a launch with the same tensors as
  /// before skips the driver query.
  static Expected<int> deviceOf(CUdeviceptr ptr, const std::string &what);
  /// The device of `ptr` when deviceOf saw it recently, else -1: no driver
  /// query, and nothing to build for a message.
  static int rememberedDeviceOf(CUdeviceptr ptr);

  const CudaDriver &driver() const { return *driver_; }
  int ordinal() const { return ordinal_; }
  CUdevice handle() const { return device_; }
  CUcontext context() const { return context_; }

  /// "NVIDIA H100 80GB HBM3".
  const std::string &name() const { return name_; }
  /// major*10+minor: 80, 86, 90, 100.
  int computeCapability() const { return computeCapability_; }
  /// The ptxas target for this device: "sm_80", "sm_86", and the
  /// architecture-specific "sm_90a" / "sm_100a" from compute capability 9.0
  /// on (wgmma and TMA need the `a` targets).
  std::string arch() const;
  int numSMs() const { return numSMs_; }
  /// Shared memory per block without opting in (48 KiB).
  int maxSharedPerBlock() const { return maxSharedPerBlock_; }
  /// Shared memory per block a kernel may opt in to (227 KiB on H100).
  int maxSharedPerBlockOptin() const { return maxSharedPerBlockOptin_; }

  /// Makes the primary context current on the calling thread and leaves it
  /// so.
  std::optional<Error> makeCurrent() const;
  /// Makes the primary context current until `scope` ends; the thread's
  /// previous context, if it had one, comes back then. Every other method
  /// works this way, so using any device leaves the caller's current
  /// context (torch's current device) as it was.
  std::optional<Error> enter(CurrentContext &scope) const;

  /// Loads a PTX (`isPtx`, compiled by the driver's JIT) or cubin image and
  /// looks up `kernelName` in it. A JIT failure's message carries the JIT's
  /// error log.
  Expected<std::unique_ptr<CudaKernel>>
  loadModule(const std::string &image, bool isPtx,
             const std::string &kernelName);

  /// Launches `kernel` on a gridX x gridY x gridZ grid of blocks of
  /// numWarps*32 threads with `dynamicSharedBytes` of dynamic shared memory.
  /// `params` points at one value per kernel parameter, as cuLaunchKernel
  /// takes them. Above the default 48 KiB the kernel's dynamic shared memory
  /// limit is raised (once) to what the device allows; asking for more than
  /// that, or for more threads than the kernel can run, is an error naming
  /// both numbers. An empty grid launches nothing. Launches are
  /// asynchronous: errors inside the kernel surface at synchronize().
  std::optional<Error> launch(CudaKernel &kernel, unsigned gridX,
                              unsigned gridY, unsigned gridZ, int numWarps,
                              size_t dynamicSharedBytes, void **params,
                              CUstream stream = nullptr);

  /// Waits for all work on the device (cuCtxSynchronize). `kernelName`,
  /// when given, is named in the error (the usual culprit of a fault).
  std::optional<Error> synchronize(const std::string &kernelName = "");

  Expected<DeviceBuffer> allocate(size_t bytes);
  Expected<CudaEvent> createEvent();
  /// A non-blocking stream (does not synchronize with the legacy stream).
  Expected<CudaStream> createStream();

  /// Checks that `ptr` is device memory (torch tensors are; host pointers
  /// are not), so a kernel argument can be rejected before the kernel
  /// faults. `what` names the argument in the message. A null pointer
  /// passes.
  std::optional<Error> checkDevicePointer(CUdeviceptr ptr,
                                          const std::string &what) const;

  /// A CUDA failure as an Error: "<operation>: CUDA_ERROR_X: description".
  Error error(const std::string &operation, CUresult result) const;

private:
  CudaDevice() = default;
  static CudaDevice *open(const CudaDriver *drv, int ordinal, std::string &reason);

  const CudaDriver *driver_ = nullptr;
  int ordinal_ = 0;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  std::string name_;
  int computeCapability_ = 0;
  int numSMs_ = 0;
  int maxSharedPerBlock_ = 0;
  int maxSharedPerBlockOptin_ = 0;
};

} // namespace tritium::cuda

#endif // TRITIUM_RUNTIME_CUDA_CUDADEVICE_H

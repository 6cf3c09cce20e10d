//===- HipDevice.h - one AMD GPU: modules, launches, buffers ----*- C++ -*-===//
//
// The runtime's view of an AMD GPU, on top of the dlopen'ed HIP runtime
// (HipDriver.h). Code generation hands it an HSA code object (.hsaco); this
// layer loads it, reports the kernel's resources and launches it:
//
//   std::string why;
//   HipDevice *dev = HipDevice::get(&why);
//   if (!dev)
//     return useInterpreter(why); // no ROCm, no GPU, ...
//   // dev->arch() ("gfx942") is the target to compile for.
//   auto kernel = dev->loadModule(hsaco, "softmax_kernel");
//   if (!kernel)
//     return kernel.error();
//   auto x = dev->allocate(n * sizeof(float));
//   ... x->copyFromHost(host.data(), n * sizeof(float));
//   hipDeviceptr_t px = x->ptr();
//   void *params[] = {&px, ..., &n};
//   if (auto err = dev->launch(**kernel, gridX, 1, 1, /*numWarps=*/4,
//                              /*waveSize=*/64, /*dynamicLdsBytes=*/0, params))
//     return *err; // "hipModuleLaunchKernel(softmax_kernel): hipError..."
//   if (auto err = dev->synchronize("softmax_kernel")) ...
//
// Kernel arguments travel as hipModuleLaunchKernel's kernelParams: an array
// with one pointer per kernel parameter, each pointing at that parameter's
// value (a device pointer, an i32, ...), the same convention as CUDA's
// cuLaunchKernel and Triton's own HIP launcher. HIP reads the values during
// the call, so they may live on the caller's stack.
//
// Every failure is a tritium::Error (kind Runtime, or Resources for a
// launch that asks for more than the device gives a block) whose message
// names the HIP call, the kernel where there is one, the HIP error's name
// and its description. Nothing throws.
//
// HIP keeps a current device per thread (hipSetDevice); every operation
// here makes its device current first, and a launch restores the thread's
// previous device afterwards (torch's current device is HIP's). Devices
// from get() are never destroyed, so kernels, buffers and streams may be
// destroyed during static destruction.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_HIP_HIPDEVICE_H
#define TRITIUM_RUNTIME_HIP_HIPDEVICE_H

#include "runtime/Tritium.h"
#include "runtime/hip/HipDriver.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tritium::hip {

class HipDevice;

/// What HIP reports about a loaded kernel (hipFuncGetAttribute); all zero
/// when the library lacks that entry point.
struct KernelResources {
  int numRegs = 0;            // vector registers (VGPRs) per lane
  int scratchBytes = 0;       // private (scratch) memory per lane: spills
  int staticLdsBytes = 0;     // LDS the kernel declares itself
  int maxThreadsPerBlock = 0; // its launch bound; 0 when unknown
};

/// A loaded code object and the one kernel of it that is launched. Made by
/// HipDevice::loadModule; unloads the module when destroyed.
class HipKernel {
public:
  ~HipKernel();
  HipKernel(const HipKernel &) = delete;
  HipKernel &operator=(const HipKernel &) = delete;

  const std::string &name() const { return name_; }
  /// The device the module is loaded on.
  HipDevice *device() const { return device_; }
  hipModule_t module() const { return module_; }
  hipFunction_t function() const { return function_; }
  const KernelResources &resources() const { return resources_; }

private:
  friend class HipDevice;
  HipKernel() = default;

  HipDevice *device_ = nullptr;
  hipModule_t module_ = nullptr;
  hipFunction_t function_ = nullptr;
  std::string name_;
  KernelResources resources_;
};

/// Device memory (hipMalloc), freed when destroyed. Move-only; a default
/// constructed buffer is empty (ptr() == nullptr).
class HipBuffer {
public:
  HipBuffer() = default;
  HipBuffer(HipBuffer &&other) noexcept;
  HipBuffer &operator=(HipBuffer &&other) noexcept;
  ~HipBuffer();

  hipDeviceptr_t ptr() const { return ptr_; }
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
  friend class HipDevice;
  HipDevice *device_ = nullptr;
  hipDeviceptr_t ptr_ = nullptr;
  size_t bytes_ = 0;
};

/// A HIP stream owned by the runtime (torch's streams are passed to
/// launch() as plain hipStream_t handles instead).
class HipStream {
public:
  HipStream() = default;
  HipStream(HipStream &&other) noexcept;
  HipStream &operator=(HipStream &&other) noexcept;
  ~HipStream();

  hipStream_t handle() const { return stream_; }
  std::optional<Error> synchronize();

private:
  friend class HipDevice;
  HipDevice *device_ = nullptr;
  hipStream_t stream_ = nullptr;
};

/// One AMD GPU.
class HipDevice {
public:
  /// The process's default device: ordinal TRITIUM_HIP_DEVICE (default 0)
  /// of the library HipDriver::get() loads, opened on first use. Null when
  /// there is none usable; `whyNot` then says why (no library, hipInit
  /// failing, no device, a bad ordinal). The answer is cached: later calls
  /// return the same device or reason.
  static HipDevice *get(std::string *whyNot = nullptr);
  /// Device `ordinal` (0 .. count()-1), opened on first use and kept; null
  /// with a reason for an ordinal the machine does not have.
  static HipDevice *get(int ordinal, std::string *whyNot);
  /// How many HIP devices the library sees (0 without a usable library).
  static int count();

  /// Opens device `ordinal` of `driver` as a new object, outside get()'s
  /// cache: for a library loaded from an explicit path (HipDriver::load),
  /// such as a test's. Calls hipInit. `driver` must outlive the device, and
  /// the device its kernels, buffers and streams.
  static std::unique_ptr<HipDevice> open(const HipDriver &driver, int ordinal,
                                         std::string *whyNot);

  const HipDriver &driver() const { return *driver_; }
  int ordinal() const { return ordinal_; }

  /// "AMD Instinct MI300X".
  const std::string &name() const { return name_; }
  /// The LLVM target to compile for: "gfx942", "gfx90a", "gfx1100".
  const std::string &arch() const { return arch_; }
  /// The target's feature settings as HIP reports them after the name,
  /// "sramecc+:xnack-" (empty when it gives none): a code object must be
  /// built with matching ones to load.
  const std::string &archFeatures() const { return archFeatures_; }
  /// Compute units.
  int numCUs() const { return numCUs_; }
  /// LDS (shared memory) a block may use, static and dynamic together:
  /// 64 KiB on CDNA3. AMD has no opt-in beyond it.
  int maxLdsPerBlock() const { return maxLdsPerBlock_; }
  /// The hardware wavefront: 64 on CDNA (gfx9), 32 on RDNA.
  int warpSize() const { return warpSize_; }
  int maxThreadsPerBlock() const { return maxThreadsPerBlock_; }

  /// Makes this device the calling thread's current one (every other
  /// method does this itself).
  std::optional<Error> makeCurrent() const;

  /// Loads a code object (an ELF .hsaco built for arch()) and looks up
  /// `kernelName` in it.
  Expected<std::unique_ptr<HipKernel>>
  loadModule(const std::string &image, const std::string &kernelName);

  /// Launches `kernel` on a gridX x gridY x gridZ grid of blocks of
  /// numWarps*waveSize threads (the wave size the kernel was compiled for:
  /// 64 on CDNA) with `dynamicLdsBytes` of dynamic LDS. `params` holds one
  /// pointer per kernel parameter, pointing at its value (see the file
  /// comment). A block or an LDS request the device (or the kernel's launch
  /// bound) cannot give is an error naming both numbers and the kernel. An
  /// empty grid launches nothing. Launches are asynchronous: errors inside
  /// the kernel surface at synchronize().
  std::optional<Error> launch(HipKernel &kernel, unsigned gridX, unsigned gridY,
                              unsigned gridZ, int numWarps, int waveSize,
                              size_t dynamicLdsBytes, void **params,
                              hipStream_t stream = nullptr);

  /// Waits for all work on the device (hipDeviceSynchronize). `kernelName`,
  /// when given, is named in the error (the usual culprit of a fault).
  std::optional<Error> synchronize(const std::string &kernelName = "");

  Expected<HipBuffer> allocate(size_t bytes);
  /// A non-blocking stream (does not synchronize with the null stream).
  Expected<HipStream> createStream();

  /// Checks that a kernel on this device can reach `ptr` (device, managed
  /// or pinned host memory; a plain host pointer, such as a CPU tensor's,
  /// cannot). `what` names the argument in the message. A null pointer
  /// passes, and so does everything when the library cannot answer
  /// (no hipPointerGetAttributes).
  std::optional<Error> checkDevicePointer(const void *ptr,
                                          const std::string &what) const;

  /// A HIP failure as an Error: "<operation>: hipErrorX: description".
  Error error(const std::string &operation, hipError_t result) const;

private:
  HipDevice() = default;

  const HipDriver *driver_ = nullptr;
  int ordinal_ = 0;
  std::string name_;
  std::string arch_;
  std::string archFeatures_;
  int numCUs_ = 0;
  int maxLdsPerBlock_ = 0;
  int warpSize_ = 0;
  int maxThreadsPerBlock_ = 0;
};

} // namespace tritium::hip

#endif // TRITIUM_RUNTIME_HIP_HIPDEVICE_H

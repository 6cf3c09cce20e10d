//===- DeviceTable.h - a GPU runtime's devices by ordinal -------*- C++ -*-===//
//
// What the CUDA and HIP device layers (runtime/cuda, runtime/hip) share
// about choosing devices: the default ordinal an environment variable names
// (TRITIUM_CUDA_DEVICE, TRITIUM_HIP_DEVICE), and the table that opens each
// device on first use and keeps it, or the reason it could not be opened,
// for the life of the process. Pure C++, header only.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_DEVICETABLE_H
#define TRITIUM_RUNTIME_DEVICETABLE_H

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace tritium::rt {

/// The device ordinal environment variable `var` names, when set: false
/// with `reason` when it is not an ordinal in [0, count). `vendor` ("CUDA")
/// names the devices in the message. `ordinal` is left alone when unset.
inline bool ordinalFromEnv(const char *var, const char *vendor, int count, int &ordinal,
                           std::string &reason) {
  const char *env = std::getenv(var);
  if (!env || !*env)
    return true;
  char *end = nullptr;
  long v = std::strtol(env, &end, 10);
  if (*end || v < 0 || v >= count) {
    reason = std::string(var) + "=" + env + " is not a device ordinal (this machine has " +
             std::to_string(count) + " " + vendor + " device(s))";
    return false;
  }
  ordinal = int(v);
  return true;
}

/// One runtime's devices by ordinal, each opened on first use by the
/// caller's `open(std::string &reason) -> Device *` and kept; a device that
/// failed to open keeps its reason. Devices are never destroyed, so what
/// they made may be destroyed during static destruction.
template <typename Device> class DeviceTable {
public:
  DeviceTable(size_t count, const char *vendor) : slots_(count), vendor_(vendor) {}

  template <typename Open> Device *get(int ordinal, std::string *whyNot, Open &&open) {
    if (ordinal < 0 || size_t(ordinal) >= slots_.size()) {
      if (whyNot)
        *whyNot = "no " + std::string(vendor_) + " device " + std::to_string(ordinal) +
                  " (this machine has " + std::to_string(slots_.size()) + ")";
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    Slot &slot = slots_[size_t(ordinal)];
    if (!slot.tried) {
      slot.tried = true;
      slot.device = open(slot.reason);
    }
    if (!slot.device && whyNot)
      *whyNot = slot.reason;
    return slot.device;
  }

private:
  struct Slot {
    Device *device = nullptr;
    std::string reason;
    bool tried = false;
  };
  std::mutex mutex_;
  std::vector<Slot> slots_;
  const char *vendor_;
};

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_DEVICETABLE_H

//===- CudaRun.h - tritium run's launches on the CUDA GPU --------*- C++ -*-===//
//
// `tritium run --executors cuda` (and `tritium replay`): the kernel compiled
// by the runtime for the GPU of this machine, its buffers copied to device
// memory, launched, and copied back into the host values.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TOOLS_CUDARUN_H
#define TRITIUM_TOOLS_CUDARUN_H

#include "tools/tritium/RunCommand.h"

#include <optional>
#include <string>
#include <vector>

namespace tritium::run {

/// Launches `spec` on the GPU with `runtime` (one host value per runtime
/// parameter, in order; buffers are updated in place). `source` is the
/// kernel file's text. Returns the error text ready to print.
std::optional<std::string> launchOnCuda(const LaunchSpec &spec, const std::string &source,
                                        const std::vector<HostValue *> &runtime,
                                        LaunchReport &report);

} // namespace tritium::run

#endif // TRITIUM_TOOLS_CUDARUN_H

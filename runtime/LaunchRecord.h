//===- LaunchRecord.h - saving a launch for tritium replay -----*- C++ -*-===//
//
// TRITIUM_RECORD=DIR: an interpreter launch that fails or that a sanitizer
// flags is saved under DIR/<kernel>-<n>/ in runtime/Record.h's format, so
// that `tritium replay` reruns it anywhere.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_LAUNCHRECORD_H
#define TRITIUM_RUNTIME_LAUNCHRECORD_H

#include "runtime/Tritium.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace tritium::rt {

struct LaunchToRecord {
  std::string kernel;
  std::string source; // the kernel file's text
  std::array<int64_t, 3> grid{1, 1, 1};
  int numWarps = 4;
  bool debug = false;
  std::vector<std::pair<std::string, std::string>> constexprs; // NAME, literal
  /// Each runtime argument by name; buffers as their contents before the
  /// launch (`before`, one entry per buffer argument, in order).
  std::vector<std::pair<std::string, const Arg *>> args;
  std::vector<std::vector<uint8_t>> before;
};

/// Writes the record into a new directory under `root`; returns its path,
/// or an error saying why not (an argument a record cannot hold: tuples,
/// descriptors).
Expected<std::string> writeLaunchRecord(const std::string &root, const LaunchToRecord &l);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_LAUNCHRECORD_H

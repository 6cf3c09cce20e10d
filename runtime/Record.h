//===- Record.h - the on-disk format of a recorded launch -------*- C++ -*-===//
//
// A directory a bug report can carry, written by `tritium run --record` and
// TRITIUM_RECORD, read by `tritium replay`:
//   kernel.py      the kernel's source as it was launched
//   NAME.npy       each input buffer before the launch
//   launch.args    one entry per line: kernel NAME, grid X[,Y,Z],
//                  num-warps N, debug, constexpr NAME=V, arg NAME=V (a
//                  literal `tritium run --arg` takes: a scalar, or a
//                  generator such as empty:f32[16]) and arg-file
//                  NAME=NAME.npy:ELEM (a buffer, its file named relative to
//                  the directory, its element type given back on replay)
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_RECORD_H
#define TRITIUM_RUNTIME_RECORD_H

#include "runtime/Npy.h"

#include <optional>
#include <string>
#include <vector>

namespace tritium::rt {

/// One argument of a recorded launch: a buffer (`array`, with its element
/// spelling `elem`: f32, bf16, fp8e5, ...) or a `literal`.
struct RecordedArg {
  std::string name;
  const NpyArray *array = nullptr;
  std::string elem;
  std::string literal;
};

struct RecordedLaunch {
  std::string kernel;
  std::string source;
  std::string grid = "1"; // X[,Y[,Z]]
  int numWarps = 4;
  bool debug = false;
  std::vector<std::string> constexprs; // NAME=V
  std::vector<RecordedArg> args;       // reading back: literals, files as paths
};

/// A scalar as an --arg literal: an int (unsigned when `isUnsigned`, `bits`
/// holding its two's complement) or a float that reads back exactly.
std::string recordedInt(int64_t bits, bool isUnsigned);
std::string recordedFloat(double v);

/// Creates `dir` if needed (an error when it exists as something else).
std::optional<std::string> makeDirectory(const std::string &dir);

/// Writes `l` into the directory `dir`, which must exist.
std::optional<std::string> writeRecord(const std::string &dir, const RecordedLaunch &l);

/// Reads the record in `dir`: its arguments come back as literals, buffer
/// files as "DIR/NAME.npy:ELEM", and `source` stays empty (the kernel is
/// DIR/kernel.py).
std::optional<std::string> readRecord(const std::string &dir, RecordedLaunch &l);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_RECORD_H

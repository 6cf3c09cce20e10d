//===- Coverage.h - per-op counts behind --coverage -------------*- C++ -*-===//
#ifndef TRITIUM_INTERPRETER_COVERAGE_H
#define TRITIUM_INTERPRETER_COVERAGE_H

#include "interpreter/Interpreter.h"

#include <cstdint>
#include <vector>

namespace tritium::interp {

struct Program;

/// One worker thread's counts, per op id.
struct CoverageCounts {
  explicit CoverageCounts(size_t numOps);
  std::vector<int64_t> programs, lastProgram, lanesActive, lanes;
  /// Adds another thread's counts.
  void add(const CoverageCounts &other);
  /// Folds the counts into lines.
  void fold(const Program &prog, int64_t gridPrograms, Coverage &out) const;
};

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_COVERAGE_H

//===- CheckCommand.h - `tritium check`: the conformance harness -*- C++ -*-===//
//
// `tritium check [KERNELS...] [--executors interp,cuda] [--seed S] ...` runs
// the conformance corpus (conformance/kernels) on each executor and diffs the
// outputs against float64 references. The harness is the Python package
// `conformance` at the repository root; this command finds a Python, sets
// PYTHONPATH to the tritium, triton-compatibility and conformance packages,
// runs `python -m conformance.harness ARGS` and returns its exit code.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TOOLS_CHECKCOMMAND_H
#define TRITIUM_TOOLS_CHECKCOMMAND_H

#include <string>
#include <vector>

namespace tritium::check {

/// The Python that runs the harness: $TRITIUM_PYTHON, else the build's
/// venv/bin/python (next to the binary's build directory, then the source
/// tree's build/), else python3 from PATH.
std::string findPython(const std::string &argv0);

/// Runs the harness with `args` (everything after `check`); returns its exit
/// status (127 when no Python could be started).
int runCheck(const std::string &argv0, const std::vector<std::string> &args);

} // namespace tritium::check

#endif // TRITIUM_TOOLS_CHECKCOMMAND_H

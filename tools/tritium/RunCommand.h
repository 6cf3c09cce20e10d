//===- RunCommand.h - `tritium run`: compile and launch a kernel -*- C++ -*-===//
//
// `tritium run FILE --kernel NAME --grid X[,Y[,Z]] --arg NAME=VALUE ...`
// builds host values for the kernel's parameters (RunArgs.h), derives
// Triton's specialization signature from them, compiles the kernel through
// the frontend and the tile pipeline, launches it on the interpreter, then
// saves and checks buffers. compileAndLaunch is the library form the tests
// use with host values they built themselves.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TOOLS_RUNCOMMAND_H
#define TRITIUM_TOOLS_RUNCOMMAND_H

#include "tools/tritium/RunArgs.h"

#include <array>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tritium::run {

/// The options of `tritium run`, as given on the command line.
struct RunOptions {
  std::string file, kernel, grid = "1";
  std::vector<std::string> constexprs; // NAME=V
  std::vector<std::string> args;       // NAME=VALUE
  std::vector<std::string> saves;      // NAME=out.npy
  std::vector<std::string> checks;     // NAME=ref.npy
  uint64_t seed = 0;
  std::optional<double> rtol, atol;
  bool deterministic = false;
  int threads = 0;
  int numWarps = 4;
  bool debug = false;
  bool dryRun = false; // stop after compiling; print the signature
  std::string sanitize; // interpreter sanitizers, comma-separated ("nan")
  std::string trace;    // [FILE:]LINE whose values to print
  std::vector<std::string> pids; // X[,Y[,Z]]: the programs traced
  bool coverage = false;         // print which lines ran, with how many lanes
  std::string coverageSource;    // write the kernel's source annotated so
  std::string record;            // save the launch here for tritium replay
  std::string traceAll;          // write every value of one program here (.npz)
  bool interactive = false;      // tritium debug: commands from stdin
  /// Where the launch runs, in turn: "interp", "cuda" or both
  /// ("interp,cuda"); with two, each starts from the same inputs and their
  /// buffers are compared afterwards.
  std::string executors = "interp";
};

/// Saves what reruns the launch `o` describes, with its input buffers
/// `values` as parsed (before the launch): DIR/kernel.py, DIR/NAME.npy per
/// buffer (uninitialized ones as their empty: generator), and
/// DIR/launch.args, one `tritium run` option per line.
std::optional<std::string> recordLaunch(const RunOptions &o,
                                        const std::vector<HostValue> &values,
                                        const std::string &dir);
/// Fills the launch part of `o` (file, kernel, grid, constexprs, arguments,
/// warps, debug) from a recorded DIR; the rest of `o` stays as given.
std::optional<std::string> readRecord(const std::string &dir, RunOptions &o);

/// Runs `tritium run`; returns the process exit status (0 or 1).
int runCommand(const RunOptions &options, std::ostream &out, std::ostream &err);

/// What to compile and how to launch it.
struct LaunchSpec {
  std::string file;   // the kernel's file (read unless `source` is set)
  std::string source; // the file's text, when not empty
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::map<std::string, std::string> constexprs; // NAME -> literal
  int numWarps = 4;
  bool debug = false;
  bool deterministic = false;
  int threads = 0;
  bool dryRun = false;
  std::string sanitize; // plus TRITIUM_SANITIZE's
  int traceLine = 0;     // --trace: the line (0: none), its file (or any),
  std::string traceFile; // the variable (or the line's outputs)
  std::string traceName; // and the programs (none given: (0, 0, 0))
  std::vector<std::array<int64_t, 3>> tracePids;
  bool coverage = false;
  std::string traceAll; // .npz of every value of tracePids[0] (or (0, 0, 0))
  bool interactive = false; // tritium debug
  bool cuda = false;        // on the CUDA GPU instead of the interpreter
};

struct LaunchReport {
  std::string signature; // the specialization, Triton's AOT spelling
  double compileMs = 0, launchMs = 0;
  std::string printed; // device_print output
  std::vector<std::string> staticPrints;
  std::vector<std::string> sanitizerReports; // in program-id order
  /// --coverage: the report, and per line of the kernel's file its
  /// annotation ("64/64 75%").
  std::string coverageText;
  std::map<int, std::string> coverageAnnotations;
  bool launched = false;
};

/// Compiles `spec.kernel` specialized on `args` (one per runtime parameter,
/// by name; parameters with defaults may be left out) and launches it;
/// buffers are updated in place. Returns the error text ready to print.
std::optional<std::string> compileAndLaunch(const LaunchSpec &spec,
                                            std::vector<HostValue> &args,
                                            LaunchReport &report);

/// Whether this build can launch kernels (the interpreter was linked).
bool interpreterAvailable();

} // namespace tritium::run

#endif // TRITIUM_TOOLS_RUNCOMMAND_H

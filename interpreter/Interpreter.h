//===- Interpreter.h - run tile IR kernels on the CPU -----------*- C++ -*-===//
//
// The block-semantics interpreter: executes a kernel's tile IR (after the
// tile-level pipeline, the same IR codegen consumes) for every program of a
// 1-3-D grid, over host buffers the caller registers. It is the numerical
// oracle and the debugger: every memory access is checked against the
// registered buffers, and any fault (out-of-bounds lane, misaligned pointer,
// integer division by zero, failed device_assert) stops the run with a
// report naming the kernel, program id, source line, lane and address.
//
// Usage:
//   auto kernel = tritium::interp::Kernel::create(module, "add_kernel");
//   if (!kernel) { report(kernel.error()); }
//   std::vector<tritium::interp::Arg> args = {
//       Arg::buffer(x.data(), x.size() * 4, "x"), ..., Arg::i32(n)};
//   tritium::interp::LaunchOptions opts; opts.grid = {blocks, 1, 1};
//   if (auto err = kernel->launch(args, opts)) { report(*err); }
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_INTERPRETER_H
#define TRITIUM_INTERPRETER_INTERPRETER_H

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tritium::interp {

/// One runtime kernel argument, in the order of the kernel's func.func
/// arguments (constexpr parameters are already folded into the IR).
struct Arg {
  enum Kind { Buffer, Int, Float } kind = Int;
  // Buffer: host memory the kernel may access through this pointer. Every
  // registered buffer (of any argument) is accessible through any pointer.
  void *data = nullptr;
  size_t bytes = 0;
  std::string name; // for reports ("x", "out")
  /// Buffer: its contents are garbage until the kernel writes them (the
  /// uninitialized-read sanitizer tracks it).
  bool uninitialized = false;
  int64_t i = 0;    // Int (two's complement bits for unsigned)
  double f = 0;     // Float

  static Arg buffer(void *data, size_t bytes, std::string name) {
    Arg a;
    a.kind = Buffer;
    a.data = data;
    a.bytes = bytes;
    a.name = std::move(name);
    return a;
  }
  static Arg integer(int64_t v) {
    Arg a;
    a.kind = Int;
    a.i = v;
    return a;
  }
  static Arg floating(double v) {
    Arg a;
    a.kind = Float;
    a.f = v;
    return a;
  }
};

/// --coverage's counts, per source line of the kernel (and of the helpers
/// it calls): how many programs ran an op of the line, and for the line's
/// masked loads, stores and atomics how many lanes were active.
struct LineCoverage {
  std::string file;
  int line = 0;
  int64_t programs = 0;               // programs that ran an op of the line
  int64_t lanesActive = 0, lanes = 0; // of its masked memory ops
  std::string ops;                    // its ops' names, distinct, comma-separated
};
struct Coverage {
  int64_t programs = 0; // in the grid
  std::vector<LineCoverage> lines; // by file, then line
};

/// --trace-all: every value one program computes, in the order its ops ran.
struct DumpedValue {
  std::string key;      // "file:line:col op", then " #1", " #2", ... on reruns
  std::string npyDtype; // numpy's spelling ("<f4"; bf16 as "<u2", fp8 "|u1")
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};
struct DumpSpec {
  std::array<int64_t, 3> pid{0, 0, 0};
  std::vector<DumpedValue> values;
  /// Values stop being kept past this many bytes (`truncated` says so).
  size_t maxBytes = size_t(1) << 30;
  size_t bytes = 0;
  bool truncated = false;
  std::map<std::string, int> seen; // runs of each key so far
};

/// What --trace prints: the values a source line computes (its ops whose
/// results other lines use), for chosen programs, each time it runs.
struct TraceSpec {
  int line = 0;
  /// The file's name or a suffix of its path ("k.py"); empty: any file.
  std::string file;
  /// A variable's name: its values at that line instead (empty: the
  /// line's outputs).
  std::string name;
  /// The programs traced; empty: program (0, 0, 0).
  std::vector<std::array<int64_t, 3>> pids;
};

struct LaunchOptions {
  std::array<int64_t, 3> grid{1, 1, 1};
  /// Run programs one after another in program-id order (x fastest), so
  /// prints and races are reproducible.
  bool deterministic = false;
  /// Worker threads for the grid loop (0: OpenMP's default).
  int threads = 0;
  /// Sanitizers to run (Sanitizer bits).
  unsigned sanitize = 0;
  /// Where sanitizer reports go, one string per report in program-id order;
  /// null: written to stderr.
  std::vector<std::string> *reports = nullptr;
  /// Values to print as the kernel runs (with device_print's output).
  const TraceSpec *trace = nullptr;
  /// Filled with per-line coverage when set.
  Coverage *coverage = nullptr;
  /// Filled with every value of one program when set.
  DumpSpec *dump = nullptr;
  /// tritium debug (Debugger.h): programs run in order on one thread.
  class Debugger *debugger = nullptr;
  /// Host memory the kernel may reach through pointers it reads from
  /// memory (integers cast to pointers, as 08-grouped-gemm's tables of
  /// per-problem pointers), beyond its buffer arguments: Arg::buffer
  /// entries, each accessible as an argument's buffer is.
  std::vector<Arg> reachable;
};

/// The interpreter's sanitizers (LaunchOptions::sanitize).
enum Sanitizer : unsigned {
  /// The first op of each program that turns finite operands into a NaN or
  /// an infinity: its line, the lane, the operands' values there.
  SanitizeNan = 1,
  /// The first read of each program of bytes of an uninitialized buffer
  /// (Arg::uninitialized) that nothing has written: its line, lane, buffer
  /// and offset. Stores (and atomics) initialize what they write.
  SanitizeUninit = 2,
  /// Two programs touching the same byte, one with a plain store, with no
  /// atomic release/acquire pair ordering them (Race.h): both sides
  /// reported. Programs run one after
  /// another while it is on.
  SanitizeRace = 4,
  /// The first signed integer +, -, * of each program (Python's operators
  /// on signed ints, as Triton's sanitize_overflow checks) whose result
  /// does not fit its type: the lane and the operands.
  SanitizeOverflow = 8,
};

/// Writes sanitizer reports to stderr: the first 8 programs' in full, then
/// how many more there were.
void printReports(const std::vector<std::string> &reports);

/// Adds the sanitizers a comma-separated list names ("nan"; spaces and
/// empty items ignored) to `bits`; an unknown name is an error, returned.
std::optional<std::string> parseSanitizers(const std::string &list, unsigned &bits);
/// The sanitizers TRITIUM_SANITIZE names (0 when unset); an unknown name is
/// an error, returned.
std::optional<std::string> sanitizersFromEnvironment(unsigned &bits);

/// A fault or unsupported construct, as text ready to print.
struct RunError {
  std::string message;
};

class KernelImpl;

/// A kernel prepared for execution: its IR flattened once into op handlers
/// over numbered value slots, then launched any number of times.
class Kernel {
public:
  /// Prepares `kernelName` in `module` (which must have been through the
  /// tile pipeline so calls are inlined). Errors name the op and its source
  /// location (e.g. an op the interpreter cannot run, such as inline asm).
  static std::variant<std::unique_ptr<Kernel>, RunError>
  create(mlir::ModuleOp module, const std::string &kernelName);
  ~Kernel();

  /// Number and kinds of the runtime arguments launch() expects.
  size_t numArgs() const;

  /// Runs the grid; returns the first fault, if any. Output of device_print
  /// goes to `printOut` (stdout when null).
  std::optional<RunError> launch(const std::vector<Arg> &args,
                                 const LaunchOptions &options,
                                 std::string *printOut = nullptr);

private:
  explicit Kernel(std::unique_ptr<KernelImpl> impl);
  std::unique_ptr<KernelImpl> impl_;
};

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_INTERPRETER_H

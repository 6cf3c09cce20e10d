//===- Debugger.h - tritium debug: stepping through programs -----*- C++ -*-===//
//
// An interpreter launch driven from a terminal: the programs run one after
// another, and before each op the debugger may stop and read commands
// (break LINE [if pid == (X, Y, Z)], continue, step, next, print LINE,
// print NAME[SUBSCRIPTS], where, delete, quit, help). It stops first before
// the first op of program (0, 0, 0), and after any op a sanitizer reports.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_DEBUGGER_H
#define TRITIUM_INTERPRETER_DEBUGGER_H

#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tritium::interp {

struct Op;
struct Frame;

class Debugger {
public:
  Debugger(std::istream &in, std::ostream &out) : in_(in), out_(out) {}
  /// Called before each op (runBlock); may read commands.
  void beforeOp(const Op &op, Frame &f);
  /// Called after each op: remembers which ops ran in this program.
  void afterOp(const Op &op, Frame &f);
  /// A program starts.
  void startProgram(int64_t lin, size_t numOps);

private:
  struct Breakpoint {
    int line;
    std::optional<std::array<int64_t, 3>> pid;
  };
  enum class Mode { Step, Next, Continue, Finish };
  bool shouldStop(const Op &op, const Frame &f);
  void prompt(const Op &op, Frame &f);
  void printLine(int line, Frame &f);
  void printName(const std::string &expr, Frame &f);

  std::istream &in_;
  std::ostream &out_;
  std::vector<Breakpoint> breaks_;
  Mode mode_ = Mode::Step;
  int lastLine_ = -1;     // the line of the op before this one
  int64_t lastProgram_ = -1;
  int stoppedLine_ = -1;  // where the last stop was
  std::vector<int64_t> ranIn_; // per op id: the program that last ran it
  std::vector<const Op *> ops_; // per op id, once seen
  size_t reportsSeen_ = 0;      // of this program's sanitizer reports
  // Per slot: when it was written in this program (0: not yet), and the
  // op that wrote it (null: a block argument).
  std::vector<uint64_t> written_;
  std::vector<const Op *> definer_;
  uint64_t clock_ = 0;
};

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_DEBUGGER_H

//===- Debugger.cpp - tritium debug: stepping through programs ------------===//
//
// See Debugger.h. Stops are decided before an op runs: at every op while
// stepping, at the first op of another line (or program) for `next`, and
// at the first op of a breakpoint's line, in a program its condition
// accepts, for `continue`; and after an op a sanitizer reported on.
// `print LINE` shows what every op of that line computed the last time it
// ran in this program (its value slot still holds it).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Debugger.h"

#include "interpreter/Program.h"

#include <cstdio>
#include <sstream>

namespace tritium::interp {

void Debugger::startProgram(int64_t lin, size_t numOps) {
  ranIn_.resize(numOps, -1);
  ops_.resize(numOps, nullptr);
  reportsSeen_ = 0;
  (void)lin;
}

void Debugger::afterOp(const Op &op, Frame &f) {
  if (op.id >= 0)
    ranIn_[size_t(op.id)] = f.lin;
  // A sanitizer report: shown now, and the next op stops (whatever the
  // mode, unless the user quit or the input ended).
  if (f.reports.size() > reportsSeen_) {
    std::string fresh = f.reports.substr(reportsSeen_);
    if (!fresh.empty() && fresh[0] == '\n')
      fresh.erase(0, 1);
    reportsSeen_ = f.reports.size();
    if (mode_ != Mode::Finish) {
      out_ << fresh << "\n";
      mode_ = Mode::Step;
    }
  }
}

bool Debugger::shouldStop(const Op &op, const Frame &f) {
  bool newLine = op.line != lastLine_ || f.lin != lastProgram_;
  switch (mode_) {
  case Mode::Step:
    return true;
  case Mode::Next:
    return newLine && op.line > 0;
  case Mode::Continue:
    if (!newLine)
      return false;
    for (const Breakpoint &b : breaks_)
      if (b.line == op.line && (!b.pid || *b.pid == f.pid))
        return true;
    return false;
  case Mode::Finish:
    return false;
  }
  return false;
}

void Debugger::beforeOp(const Op &op, Frame &f) {
  if (op.id >= 0)
    ops_[size_t(op.id)] = &op;
  if (op.n < 0)
    return; // a combine region's per-lane op
  bool stop = shouldStop(op, f);
  lastLine_ = op.line;
  lastProgram_ = f.lin;
  if (stop)
    prompt(op, f);
}

void Debugger::printLine(int line, Frame &f) {
  bool any = false;
  for (const Op *op : ops_)
    if (op && op->line == line && ranIn_[size_t(op->id)] == f.lin)
      for (size_t k = 0; k < op->res.size(); ++k) {
        out_ << op->loc << ": " << formatValue(*op, k, f) << "\n";
        any = true;
      }
  if (!any)
    out_ << "line " << line << " has computed nothing in program " << f.pidText()
         << " yet\n";
}

void Debugger::prompt(const Op &op, Frame &f) {
  out_ << "program " << f.pidText() << ", " << op.loc << ": before " << op.name << "\n";
  std::string line;
  while (true) {
    out_ << "(tritium) " << std::flush;
    if (!std::getline(in_, line)) {
      out_ << "\n";
      mode_ = Mode::Finish; // end of input: run to the end
      return;
    }
    std::istringstream words(line);
    std::string cmd;
    words >> cmd;
    if (cmd.empty())
      continue;
    if (cmd == "s" || cmd == "step") {
      mode_ = Mode::Step;
      return;
    }
    if (cmd == "n" || cmd == "next") {
      mode_ = Mode::Next;
      return;
    }
    if (cmd == "c" || cmd == "continue") {
      mode_ = Mode::Continue;
      return;
    }
    if (cmd == "q" || cmd == "quit") {
      mode_ = Mode::Finish;
      f.fail(op, "stopped", "the debugger quit before " + std::string(op.name));
      return;
    }
    if (cmd == "w" || cmd == "where") {
      out_ << "program " << f.pidText() << ", " << op.loc << ": before " << op.name << "\n";
      continue;
    }
    if (cmd == "p" || cmd == "print") {
      int n = 0;
      if (!(words >> n) || n <= 0) {
        out_ << "print LINE: the values that line computed (e.g. print 12)\n";
        continue;
      }
      printLine(n, f);
      continue;
    }
    if (cmd == "b" || cmd == "break") {
      // break LINE [if pid == (X, Y, Z)]
      int n = 0;
      if (!(words >> n) || n <= 0) {
        out_ << "break LINE [if pid == (X, Y, Z)]\n";
        continue;
      }
      Breakpoint b{n, std::nullopt};
      std::string rest;
      std::getline(words, rest);
      if (rest.find_first_not_of(" \t") != std::string::npos) {
        std::array<int64_t, 3> pid{0, 0, 0};
        long long x = 0, y = 0, z = 0;
        int got = std::sscanf(rest.c_str(), " if pid == ( %lld , %lld , %lld )", &x, &y, &z);
        if (got < 1) {
          out_ << "break " << n << rest << ": the condition must read: if pid == (X, Y, Z)\n";
          continue;
        }
        pid = {x, got > 1 ? y : 0, got > 2 ? z : 0};
        b.pid = pid;
      }
      breaks_.push_back(b);
      out_ << "breakpoint " << breaks_.size() << " at line " << n;
      if (b.pid)
        out_ << " if pid == (" << (*b.pid)[0] << ", " << (*b.pid)[1] << ", " << (*b.pid)[2]
             << ")";
      out_ << "\n";
      continue;
    }
    if (cmd == "d" || cmd == "delete") {
      breaks_.clear();
      out_ << "breakpoints deleted\n";
      continue;
    }
    if (cmd == "h" || cmd == "help") {
      out_ << "break LINE [if pid == (X, Y, Z)], continue, step, next, print LINE, where, "
              "delete, quit\n";
      continue;
    }
    out_ << "unknown command '" << cmd << "' (help lists them)\n";
  }
}

} // namespace tritium::interp

//===- Debugger.cpp - tritium debug: stepping through programs ------------===//
//
// See Debugger.h. Stops are decided before an op runs: at every op while
// stepping, at the first op of another line (or program) for `next`, and
// at the first op of a breakpoint's line, in a program its condition
// accepts, for `continue`; and after an op a sanitizer reported on.
// `print LINE` shows what every op of that line computed the last time it
// ran in this program (its value slot still holds it); `print NAME[...]`
// the value the variable NAME was given last in this program (the slot
// of that name written last: an op's result, a block argument as its
// block is entered, or a constant), or part of it.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Debugger.h"

#include "interpreter/Program.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace tritium::interp {

void Debugger::startProgram(int64_t lin, size_t numOps) {
  ranIn_.resize(numOps, -1);
  ops_.resize(numOps, nullptr);
  reportsSeen_ = 0;
  std::fill(written_.begin(), written_.end(), 0);
  (void)lin;
}

void Debugger::afterOp(const Op &op, Frame &f) {
  if (op.id >= 0)
    ranIn_[size_t(op.id)] = f.lin;
  for (int s : op.res) {
    written_[size_t(s)] = ++clock_;
    definer_[size_t(s)] = &op;
  }
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
  if (written_.size() != f.prog->slots.size()) {
    written_.assign(f.prog->slots.size(), 0);
    definer_.assign(f.prog->slots.size(), nullptr);
  }
  for (int s : op.entersArgs) {
    written_[size_t(s)] = ++clock_;
    definer_[size_t(s)] = nullptr;
  }
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

void Debugger::printName(const std::string &expr, Frame &f) {
  size_t br = expr.find('[');
  std::string name = expr.substr(0, br);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t'))
    name.pop_back();
  const auto &slots = f.prog->slots;
  int best = -1;
  bool known = false;
  for (size_t s = 0; s < slots.size(); ++s) {
    if (!slots[s].hasName(name))
      continue;
    known = true;
    bool has = written_[s] > 0 || !slots[s].constant.empty();
    if (has && (best < 0 || written_[s] > written_[size_t(best)]))
      best = int(s);
  }
  if (!known) {
    std::string list = variableList(*f.prog);
    out_ << "no tensor variable '" << name << "' in kernel " << f.prog->kernelName
         << (list.empty() ? "" : " (its tensor variables: " + list + ")") << "\n";
    return;
  }
  if (best < 0) {
    out_ << "'" << name << "' has no value yet in program " << f.pidText() << "\n";
    return;
  }
  const SlotInfo &si = slots[size_t(best)];
  std::vector<SliceDim> view;
  std::string shown = name;
  if (br != std::string::npos) {
    size_t close = expr.rfind(']');
    if (close == std::string::npos || close < br ||
        expr.find_first_not_of(" \t", close + 1) != std::string::npos) {
      out_ << "print " << expr << ": expected NAME[SUBSCRIPTS], e.g. print acc[0:4, :]\n";
      return;
    }
    std::string inner = expr.substr(br + 1, close - br - 1);
    if (auto e = parseSlices(inner, si.shape, view)) {
      out_ << name << *e << "\n";
      return;
    }
    shown += "[" + inner + "]";
  }
  const uint8_t *mask = nullptr;
  if (const Op *d = definer_[size_t(best)]; d && !d->res.empty() && d->res[0] == best)
    mask = loadMask(*d, 0, f);
  const std::vector<SliceDim> *part = view.empty() ? nullptr : &view;
  out_ << shown << " (" << typeText(si.kind, viewShape(si.shape, part)) << ", given at "
       << si.loc << ")\n"
       << formatSlot(f, best, mask, part) << "\n";
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
      std::string what;
      std::getline(words, what);
      size_t b = what.find_first_not_of(" \t");
      what = b == std::string::npos ? "" : what.substr(b);
      if (!what.empty() && std::isdigit((unsigned char)what[0])) {
        char *end = nullptr;
        long n = std::strtol(what.c_str(), &end, 10);
        if (n > 0 && what.find_first_not_of(" \t", size_t(end - what.c_str())) ==
                         std::string::npos) {
          printLine(int(n), f);
          continue;
        }
      } else if (!what.empty() && (std::isalpha((unsigned char)what[0]) || what[0] == '_')) {
        printName(what, f);
        continue;
      }
      out_ << "print LINE: the values that line computed (e.g. print 12); print NAME[...]: "
              "a variable's value, or part of it (e.g. print acc[0:4, :])\n";
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
      out_ << "break LINE [if pid == (X, Y, Z)], continue, step, next, print LINE, "
              "print NAME[SUBSCRIPTS], where, delete, quit\n";
      continue;
    }
    out_ << "unknown command '" << cmd << "' (help lists them)\n";
  }
}

} // namespace tritium::interp

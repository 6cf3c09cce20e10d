//===- Race.cpp - the interpreter's race sanitizer ------------------------===//
//
// See Race.h. A program's clock is its own entry of its vector clock; an
// access is stamped (program, that entry). An access by the running
// program P is ordered after an earlier stamp (Q, c) when Q is P or P's
// clock has Q's entry at c or more, which only atomics put there: an
// acquire joins the address's clock into P's, a release joins P's into the
// address's and then advances P's own entry.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Race.h"

#include "interpreter/Memory.h"
#include "interpreter/Program.h"

namespace tritium::interp {

RaceState::RaceState(const Memory &mem, std::array<int64_t, 3> grid)
    : mem_(mem), grid_(grid) {
  for (const Memory::Range &r : mem.ranges)
    cells_.push_back(std::make_unique<Cell[]>(r.hi - r.lo));
}

void RaceState::startProgram(int64_t lin) {
  prog_ = int32_t(lin);
  clock_.clear();
  clock_[prog_] = 1;
}

bool RaceState::ordered(const Access &a) const {
  if (a.prog < 0 || a.prog == prog_)
    return true;
  auto it = clock_.find(a.prog);
  return it != clock_.end() && it->second >= a.clock;
}

int32_t RaceState::opIndex(const Op &op) {
  auto [it, inserted] = opIndex_.try_emplace(&op, int32_t(ops_.size()));
  if (inserted)
    ops_.push_back(&op);
  return it->second;
}

std::string RaceState::pidText(int32_t lin) const {
  int64_t gx = grid_[0], gy = grid_[1];
  return "(" + std::to_string(lin % gx) + ", " + std::to_string((lin / gx) % gy) + ", " +
         std::to_string(lin / (gx * gy)) + ")";
}

void RaceState::report(Frame &f, const Op &op, int64_t lane, uint64_t addr, size_t range,
                       const char *verb, const Access &other, const char *otherVerb) {
  if (f.raceReported)
    return;
  f.raceReported = true;
  const Memory::Range &r = mem_.ranges[range];
  const Op &o = *ops_[size_t(other.op)];
  if (!f.reports.empty())
    f.reports += "\n";
  f.reports += "race sanitizer: kernel " + f.prog->kernelName + ": program " + f.pidText() +
               " " + verb + " byte " + std::to_string(addr - r.lo) + " of buffer '" + r.name +
               "' (" + std::to_string(r.hi - r.lo) + " bytes) at " + op.loc + " (" + op.name +
               ", lane " + laneText(op, lane) + "); program " + pidText(other.prog) + " " +
               otherVerb + " it at " + o.loc + " (" + o.name + ", lane " +
               laneText(o, other.lane) +
               "), and no atomic with release and acquire semantics orders the two";
}

void RaceState::plain(Frame &f, const Op &op, int64_t lane, uint64_t addr, unsigned size,
                      size_t range, bool write) {
  Cell *cells = cells_[range].get() + (addr - mem_.ranges[range].lo);
  Access me{prog_, clock_[prog_], opIndex(op), int32_t(lane), false};
  for (unsigned k = 0; k < size; ++k) {
    Cell &c = cells[k];
    // A plain store races with any unordered access; a plain load with an
    // unordered plain store (not with an atomic: no plain store there).
    if ((write || !c.write.atomic) && !ordered(c.write))
      report(f, op, lane, addr + k, range, write ? "writes" : "reads", c.write,
             c.write.atomic ? "updated" : "wrote");
    if (write && !ordered(c.read))
      report(f, op, lane, addr + k, range, "writes", c.read, "read");
    (write ? c.write : c.read) = me;
  }
}

void RaceState::atomic(Frame &f, const Op &op, int64_t lane, uint64_t addr, unsigned size,
                       size_t range, bool acquire, bool release) {
  if (acquire) {
    auto it = sync_.find(addr);
    if (it != sync_.end())
      for (auto &[q, c] : it->second)
        if (q != prog_ && clock_[q] < c)
          clock_[q] = c;
  }
  Cell *cells = cells_[range].get() + (addr - mem_.ranges[range].lo);
  Access me{prog_, clock_[prog_], opIndex(op), int32_t(lane), true};
  for (unsigned k = 0; k < size; ++k) {
    Cell &c = cells[k];
    // Atomics do not race with atomics or plain loads; an unordered plain
    // store on the other side does.
    if (!c.write.atomic && !ordered(c.write))
      report(f, op, lane, addr + k, range, "updates", c.write, "wrote");
    c.write = me;
  }
  if (release) {
    Clock &s = sync_[addr];
    for (auto &[q, c] : clock_)
      if (s[q] < c)
        s[q] = c;
    ++clock_[prog_];
  }
}

} // namespace tritium::interp

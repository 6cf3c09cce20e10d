//===- Coverage.cpp - which lines ran, and with how many lanes -----------===//
//
// `tritium run --coverage`: each worker thread counts, per op, the programs
// that ran it (a program runs on one thread, so the threads' counts add
// up) and, for masked loads, stores and atomics, the lanes their mask let
// through; the launch sums the threads and folds the ops into their lines.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Coverage.h"

#include "interpreter/Program.h"

#include <map>
#include <set>

namespace tritium::interp {

void coverOp(const Op &op, Frame &f) {
  CoverageCounts &c = *f.coverage;
  size_t id = size_t(op.id);
  if (c.lastProgram[id] != f.lin) {
    c.lastProgram[id] = f.lin;
    ++c.programs[id];
  }
  if (op.maskedAccess) {
    const uint8_t *m = f.get<uint8_t>(op.a);
    int64_t active = 0;
    for (int64_t i = 0; i < op.n; ++i)
      active += m[i] != 0;
    c.lanesActive[id] += active;
    c.lanes[id] += op.n;
  }
}

CoverageCounts::CoverageCounts(size_t numOps)
    : programs(numOps, 0), lastProgram(numOps, -1), lanesActive(numOps, 0), lanes(numOps, 0) {}

void CoverageCounts::add(const CoverageCounts &o) {
  for (size_t i = 0; i < programs.size(); ++i) {
    programs[i] += o.programs[i];
    lanesActive[i] += o.lanesActive[i];
    lanes[i] += o.lanes[i];
  }
}

namespace {
void collect(const Block &b, std::vector<const Op *> &ops) {
  for (const Op &op : b.ops) {
    if (op.id >= 0)
      ops.push_back(&op);
    for (const auto &r : op.regions)
      collect(*r, ops);
  }
}
} // namespace

void CoverageCounts::fold(const Program &prog, int64_t gridPrograms, Coverage &out) const {
  std::vector<const Op *> ops;
  collect(prog.body, ops);
  std::map<std::pair<std::string, int>, LineCoverage> lines;
  std::map<std::pair<std::string, int>, std::set<std::string>> names;
  for (const Op *op : ops) {
    if (op->line <= 0 || op->n < 0)
      continue; // no location, or a combine region's per-lane op
    std::string file = op->loc.substr(0, op->loc.rfind(':'));
    auto key = std::make_pair(file, op->line);
    LineCoverage &l = lines[key];
    l.file = file;
    l.line = op->line;
    size_t id = size_t(op->id);
    l.programs = std::max(l.programs, programs[id]);
    l.lanesActive += lanesActive[id];
    l.lanes += lanes[id];
    names[key].insert(op->name);
  }
  out.programs = gridPrograms;
  out.lines.clear();
  for (auto &[key, l] : lines) {
    for (const std::string &n : names[key])
      l.ops += (l.ops.empty() ? "" : ", ") + n;
    out.lines.push_back(l);
  }
}

} // namespace tritium::interp

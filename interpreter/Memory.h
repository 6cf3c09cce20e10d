//===- Memory.h - registered host buffers and access checks -----*- C++ -*-===//
//
// A launch registers every buffer argument (address range and name). Every
// unmasked lane of a load, store or atomic is checked here: the whole
// element must lie inside one registered buffer and be aligned to its size.
// The fast path is one range test against the buffer the thread hit last.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_MEMORY_H
#define TRITIUM_INTERPRETER_MEMORY_H

#include <cstdint>
#include <string>
#include <vector>

namespace tritium::interp {

struct Frame;
struct Op;

class Memory {
public:
  struct Range {
    uint64_t lo = 0, hi = 0;
    std::string name;
  };

  void add(const void *data, size_t bytes, const std::string &name);
  void finalize(); // sorts and drops duplicates

  /// True if [addr, addr+size) lies inside a buffer and addr is aligned.
  bool ok(uint64_t addr, unsigned size, size_t &hint) const {
    if (hint < ranges.size()) {
      const Range &r = ranges[hint];
      if (addr >= r.lo && addr + size <= r.hi && (addr & (size - 1)) == 0)
        return true;
    }
    return slowOk(addr, size, hint);
  }

  /// Describes why `addr` failed, naming the nearest buffer.
  std::string explain(uint64_t addr, unsigned size) const;

  std::vector<Range> ranges;

private:
  bool slowOk(uint64_t addr, unsigned size, size_t &hint) const;
};

/// Reports a faulting lane of `op`: "<kind> in kernel ..., lane L <verb>
/// address A which is ...". `verb` is "reads", "writes" or "updates".
void reportBadAccess(Frame &f, const Op &op, const char *access,
                     const char *verb, int64_t lane, uint64_t addr,
                     unsigned size);

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_MEMORY_H

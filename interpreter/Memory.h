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
#include <memory>
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
    /// The uninitialized-read sanitizer's shadow: one byte per byte of the
    /// buffer, nonzero while never written (null: not tracked).
    uint8_t *shadow = nullptr;
  };

  /// Registers a buffer; an `uninitialized` one is tracked by the
  /// uninitialized-read sanitizer when `trackUninitialized` is set.
  void add(const void *data, size_t bytes, const std::string &name,
           bool uninitialized = false);
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
  /// Whether uninitialized buffers get shadows (set before add()).
  bool trackUninitialized = false;
  /// Whether any buffer has a shadow (the loads' and stores' fast path
  /// skips the sanitizer otherwise).
  bool shadowed = false;

  /// After ok() (which set `hint`): the offset in its buffer of the first
  /// byte of [addr, addr+size) never written, or -1.
  int64_t firstPoisoned(uint64_t addr, unsigned size, size_t hint) const {
    const Range &r = ranges[hint];
    if (!r.shadow)
      return -1;
    for (unsigned k = 0; k < size; ++k)
      if (__atomic_load_n(&r.shadow[addr - r.lo + k], __ATOMIC_RELAXED))
        return int64_t(addr - r.lo + k);
    return -1;
  }
  /// After ok(): [addr, addr+size) has been written.
  void unpoison(uint64_t addr, unsigned size, size_t hint) const {
    const Range &r = ranges[hint];
    if (r.shadow)
      for (unsigned k = 0; k < size; ++k)
        __atomic_store_n(&r.shadow[addr - r.lo + k], uint8_t(0), __ATOMIC_RELAXED);
  }

private:
  std::vector<std::unique_ptr<uint8_t[]>> shadows_;
  bool slowOk(uint64_t addr, unsigned size, size_t &hint) const;
};

/// Reports a faulting lane of `op`: "<kind> in kernel ..., lane L <verb>
/// address A which is ...". `verb` is "reads", "writes" or "updates".
void reportBadAccess(Frame &f, const Op &op, const char *access,
                     const char *verb, int64_t lane, uint64_t addr,
                     unsigned size);

/// The uninitialized-read sanitizer's check of a lane `op` reads (after
/// ok() set f.bufHint): reports the program's first read of bytes never
/// written, naming the lane, the buffer and the offset.
void checkUninitializedRead(Frame &f, const Op &op, const char *access, int64_t lane,
                            uint64_t addr, unsigned size);

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_MEMORY_H

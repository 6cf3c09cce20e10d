//===- Race.h - the interpreter's race sanitizer ----------------*- C++ -*-===//
//
// Two programs of one launch touching the same byte, at least one of them
// with a plain (non-atomic) store, race unless the kernel's own
// synchronization orders them: an atomic with release
// semantics by one, then an atomic with acquire semantics on the same
// address by the other (a spin lock's release and acquire, a counter both
// increment). Happens-before is tracked with vector clocks per program
// (sparse: most programs never synchronize) and per atomic address; every
// buffer byte keeps the last write and the last read (program, clock, op,
// lane). Programs run one after another in program-id order while it is on
// (the order does not create happens-before: a race is reported however
// the programs happened to be scheduled). A missed race is possible when
// several unordered programs read a byte before a write (only the last
// reader is kept); a reported one is real.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_RACE_H
#define TRITIUM_INTERPRETER_RACE_H

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tritium::interp {

struct Frame;
struct Op;
class Memory;

class RaceState {
public:
  /// Sets up shadows for every buffer of `mem` (after finalize()).
  RaceState(const Memory &mem, std::array<int64_t, 3> grid);

  /// Program `lin` (linear id, x fastest) starts.
  void startProgram(int64_t lin);

  /// A plain read or write of `size` bytes at `addr` by lane `lane` of
  /// `op`, in buffer `range` (an index into Memory::ranges).
  void plain(Frame &f, const Op &op, int64_t lane, uint64_t addr, unsigned size,
             size_t range, bool write);
  /// An atomic read-modify-write; `acquire`/`release` its semantics.
  void atomic(Frame &f, const Op &op, int64_t lane, uint64_t addr, unsigned size,
              size_t range, bool acquire, bool release);

private:
  struct Access {
    int32_t prog = -1; // linear program id; -1: none
    uint32_t clock = 0;
    int32_t op = -1; // index into ops_
    int32_t lane = 0;
    bool atomic = false;
  };
  struct Cell {
    Access write, read;
  };
  using Clock = std::unordered_map<int32_t, uint32_t>;

  bool ordered(const Access &a) const;
  int32_t opIndex(const Op &op);
  void report(Frame &f, const Op &op, int64_t lane, uint64_t addr, size_t range,
              const char *verb, const Access &other, const char *otherVerb);
  std::string pidText(int32_t lin) const;

  const Memory &mem_;
  std::array<int64_t, 3> grid_;
  std::vector<std::unique_ptr<Cell[]>> cells_; // per range, per byte
  std::vector<const Op *> ops_;
  std::unordered_map<const Op *, int32_t> opIndex_;
  std::unordered_map<uint64_t, Clock> sync_; // per atomic address
  Clock clock_;      // the running program's
  int32_t prog_ = 0; // the running program
};

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_RACE_H

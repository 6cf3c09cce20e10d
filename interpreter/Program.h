//===- Program.h - a kernel flattened into op handlers over slots -*- C++ -*-===//
//
// Kernel::create walks the kernel's func.func once and turns it into a
// Program: every SSA value gets a slot (a preallocated, statically sized
// buffer in each Frame), every op becomes an Op record holding a handler
// function pointer and everything the handler needs precomputed (slots,
// element kinds, shapes, attributes, source location). Nested regions become
// nested Blocks. At run time a Frame (one per worker thread) holds the slot
// storage and the program id; handlers read and write slots and report
// faults through Frame::fail.
//
// Combine regions of reduce/scan are built in "lane" mode: their values are
// per-lane scalars, and each handler processes Frame::lanes lanes at once.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_PROGRAM_H
#define TRITIUM_INTERPRETER_PROGRAM_H

#include "interpreter/Value.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tritium::interp {

class Memory;
class RaceState;
class Debugger;
struct CoverageCounts;
struct Frame;
struct TraceSpec;
struct DumpSpec;
struct Op;
using Handler = void (*)(const Op &, Frame &);

/// A sequence of ops with its block arguments and terminator operands.
struct Block {
  std::vector<Op> ops;
  std::vector<int> args;
  std::vector<int> results; // operands of the terminator
};

struct Op {
  Handler fn = nullptr;
  // std::vector (not SmallVector): its noexcept move lets vector<Op> grow.
  std::vector<int> res;
  std::vector<int> in;
  EK kind = EK::I32;    // result element kind (or the main operand's)
  EK srcKind = EK::I32; // first operand's element kind
  int64_t n = 0;        // result elements; -1: Frame::lanes (lane mode)
  std::vector<int64_t> shape, srcShape;
  int64_t a = 0, b = 0, c = 0; // op-specific integers
  double f = 0;                // op-specific float
  std::vector<int64_t> ints;   // op-specific integer lists
  std::string text;            // op-specific text (prefix, message)
  const void *ptr = nullptr;   // op-specific function (extern calls)
  std::vector<std::unique_ptr<Block>> regions;
  std::string loc; // "file:line"
  const char *name = "";
  int line = 0;            // the source line of `loc`
  std::string locCol;      // "file:line:col" (--trace-all's keys)
  int32_t id = -1;         // index among the program's ops (coverage)
  /// '+', '-' or '*' for a signed integer +, -, * from the kernel's source
  /// (tile.signed), which the overflow sanitizer checks; 0 otherwise.
  char signedArith = 0;
  /// Whether the NaN/Inf sanitizer checks this op's results (not a load,
  /// bitcast, control flow, pointer op or combine-region lane).
  bool nanCheck = false;
  /// A load, store or atomic with a mask (op.a): --coverage counts its lanes.
  bool maskedAccess = false;
  /// Whether a result is used by an op of another line (or by none): what
  /// the line computes, as --trace shows it (not its intermediates).
  bool lineOutput = false;
  /// Whether a result is bound to a variable of the source (SlotInfo::names).
  bool named = false;
  /// The first op of a block with arguments: the block's argument slots,
  /// which hold new values when this op is reached (the debugger and
  /// --trace NAME look at them then).
  std::vector<int> entersArgs;

  int64_t count(const Frame &f) const;
};

struct SlotInfo {
  EK kind = EK::I32;
  int64_t elems = 1;  // static element count (per lane in lane mode)
  int64_t bytes = 0;  // capacity in bytes
  bool lane = false;  // defined in a combine region
  llvm::SmallVector<int64_t, 4> shape;
  // Constant contents, materialized once when a Frame is created (filled
  // to the whole capacity by repetition).
  std::vector<uint8_t> constant;
  /// The source variables bound to this value (ir/Names.h), and where it
  /// is defined ("file:line", and the line) when it has any.
  std::vector<std::string> names;
  std::string loc;
  int line = 0;

  bool hasName(const std::string &n) const {
    for (const std::string &x : names)
      if (x == n)
        return true;
    return false;
  }
};

struct Program {
  std::string kernelName;
  std::vector<SlotInfo> slots;
  std::vector<int64_t> slotOffsets; // byte offsets into a Frame's arena
  int64_t arenaBytes = 0;
  Block body;
  size_t numOps = 0; // Op::id runs over [0, numOps)
  std::vector<int> argSlots;
  std::vector<EK> argKinds;
  std::vector<bool> argIsPtr;
};

/// The per-thread state of one running program.
struct Frame {
  const Program *prog = nullptr;
  Memory *mem = nullptr;
  std::unique_ptr<uint64_t[]> arena;
  std::vector<uint8_t *> slot;
  std::array<int64_t, 3> pid{0, 0, 0}, nprog{1, 1, 1};
  int64_t lanes = 1;
  bool failed = false;
  std::string error;
  std::string printOut;
  size_t bufHint = 0;
  std::vector<uint8_t> scratch; // temporaries of reduce/scan/dot
  /// The NaN/Inf sanitizer: on, and whether this program reported already
  /// (its first report only); `reports` gathers this program's reports.
  bool checkNan = false;
  bool nanReported = false;
  /// The uninitialized-read sanitizer reported this program already.
  bool uninitReported = false;
  /// The overflow sanitizer: on, and whether this program reported already.
  bool checkOverflow = false;
  bool overflowReported = false;
  /// The race sanitizer's state (null: off) and whether it reported this
  /// program already.
  RaceState *race = nullptr;
  bool raceReported = false;
  /// --coverage: this thread's counts per op (null: off).
  CoverageCounts *coverage = nullptr;
  int64_t lin = 0; // the running program's linear id
  std::string reports;
  /// --trace: the line whose values this launch prints (null: none).
  const TraceSpec *trace = nullptr;
  /// --trace-all: where one program's values go (null: none).
  DumpSpec *dump = nullptr;
  /// tritium debug: consulted before and after each op (null: none).
  Debugger *debugger = nullptr;
  /// Whether any of the above looks at each op (one test per op when none
  /// does): set with them, before the programs run.
  bool observed = false;

  explicit Frame(const Program &p, Memory *m);
  template <class T> T *get(int s) const {
    return reinterpret_cast<T *>(slot[s]);
  }
  int64_t bytes(int s) const { return prog->slots[s].bytes; }
  /// Records a fault: "<what> in kernel K, program (x, y, z), loc: detail".
  void fail(const Op &op, const std::string &what, const std::string &detail);
  std::string pidText() const;
};

inline int64_t Op::count(const Frame &f) const { return n < 0 ? f.lanes : n; }

/// The NaN/Inf sanitizer's check after `op` ran (Sanitize.cpp): a NaN or
/// an infinity in a result where the operands were finite is reported.
void checkNanOrigin(const Op &op, Frame &f);
/// Whether the NaN/Inf sanitizer looks at `op` at all (Op::nanCheck).
bool nanCheckable(const Op &op, const std::vector<SlotInfo> &slots);

/// The overflow sanitizer's check after a signed integer +, -, * ran
/// (Sanitize.cpp).
void checkSignedOverflow(const Op &op, Frame &f);

/// Element `i` of `slot` as reports and traces print it: floats with
/// `digits` significant digits, bools True/False, pointers in hex.
std::string elementText(const Frame &f, int slot, int64_t i, int digits = 6);

/// Result `result` of `op` as --trace and the debugger show it: its op
/// name, type, and values shaped as the tile (masked-off load lanes "--").
std::string formatValue(const Op &op, size_t result, const Frame &f);

/// A subscript of one dimension: an index (the dimension goes) or the
/// range start:stop:step (Python's rules, resolved against the size).
struct SliceDim {
  int64_t start = 0, stop = 0, step = 1;
  bool index = false;
};

/// Parses Python subscripts ("0:4, :", "-1", "::2") of a tile of `shape`
/// into one SliceDim per dimension (missing trailing ones are whole); an
/// error message when they do not fit the shape.
std::optional<std::string> parseSlices(const std::string &text,
                                       llvm::ArrayRef<int64_t> shape,
                                       std::vector<SliceDim> &out);

/// "f32[64, 64]": an element kind and a shape as traces show them.
std::string typeText(EK kind, llvm::ArrayRef<int64_t> shape);

/// A load's mask (op.a): which lanes of result `result` of `op` it read
/// (null for any other op or result).
const uint8_t *loadMask(const Op &op, size_t result, const Frame &f);

/// The shape of the part `view` selects of a tile of `shape` (null: all).
std::vector<int64_t> viewShape(llvm::ArrayRef<int64_t> shape, const std::vector<SliceDim> *view);

/// The program's variable names (not tuple elements), sorted, joined by ", ".
std::string variableList(const Program &p);

/// The values of `slot` as the tile (or the part `view` selects), masked-off
/// lanes "--" where `mask` (of the whole tile) is given.
std::string formatSlot(const Frame &f, int slot, const uint8_t *mask,
                       const std::vector<SliceDim> *view = nullptr);

/// --trace LINE:NAME: an error message when no value of the program is
/// NAME's at LINE (saying where NAME is given values, or which names the
/// kernel has).
std::optional<std::string> checkTraceName(const Program &p, const TraceSpec &t);

/// --trace LINE:NAME: prints the block arguments `op` enters that the trace
/// names (before `op` runs).
void traceArgs(const Op &op, Frame &f);

/// --trace: prints the results of `op` (a line's output at the traced
/// line) to the program's output when the program is one traced (Trace.cpp).
void traceOp(const Op &op, Frame &f);

/// --trace-all: keeps `op`'s results when this is the program dumped
/// (Trace.cpp).
void dumpOp(const Op &op, Frame &f);

/// --coverage: counts that `op` ran in this program, and its active lanes
/// (Coverage.cpp).
void coverOp(const Op &op, Frame &f);

/// The observers of Frame::observed (Observe.cpp): before `op` runs (false
/// when the program stops there), and after it ran.
bool observeBefore(const Op &op, Frame &f);
void observeAfter(const Op &op, Frame &f);

/// Runs the ops of a block until one fails.
inline void runBlock(const Block &b, Frame &f) {
  for (const Op &op : b.ops) {
    if (f.observed && !observeBefore(op, f))
      return;
    op.fn(op, f);
    if (f.failed)
      return;
    if (f.observed)
      observeAfter(op, f);
  }
}

/// A lane of `op`'s tile as reports name it: "5" for 0-D/1-D tiles and
/// "(3, 17)" for tiles of rank 2 and more (op.shape gives the tile).
std::string laneText(const Op &op, int64_t lane);

/// A tensor descriptor value (tile.make_tensor_descriptor), stored in a
/// slot of kDescBytes bytes.
struct Desc {
  static constexpr int kMaxRank = 5;
  uint64_t base = 0;
  int64_t rank = 0;
  int64_t shape[kMaxRank] = {};
  int64_t strides[kMaxRank] = {}; // in elements
  int64_t padNan = 0;
};
constexpr int64_t kDescBytes = sizeof(Desc);

/// Copies the static contents of slot `src` into slot `dst`.
void copySlot(Frame &f, int dst, int src);

/// The flattening state shared by the per-family build functions.
class Builder {
public:
  virtual ~Builder() = default;
  /// The slot of an already defined value.
  virtual int use(mlir::Value v) = 0;
  /// Defines a new slot for a result or block argument.
  virtual int define(mlir::Value v) = 0;
  /// Flattens a region's single block (lane mode when `lanes` > 0: values
  /// are per-lane and capacity is for `lanes` lanes).
  virtual std::unique_ptr<Block> buildRegion(mlir::Region &r, int64_t lanes) = 0;
  virtual bool inLaneMode() const = 0;
  virtual SlotInfo &info(int slot) = 0;
  /// Records a create-time error at the op's location; returns false.
  virtual bool error(mlir::Operation *op, const std::string &msg) = 0;
};

enum class Built { NotMine, Ok, Error };

/// Fills the common fields of `op` (results defined, operands used, kinds,
/// count) for an op whose results are shaped like its first result.
bool fillCommon(Builder &b, mlir::Operation *mop, Op &op);

// One entry per op family; each returns NotMine for ops of other families.
Built buildElementwise(Builder &b, mlir::Operation *mop, Op &op);
Built buildCast(Builder &b, mlir::Operation *mop, Op &op);
Built buildShape(Builder &b, mlir::Operation *mop, Op &op);
Built buildMemoryOp(Builder &b, mlir::Operation *mop, Op &op);
Built buildAtomic(Builder &b, mlir::Operation *mop, Op &op);
Built buildDot(Builder &b, mlir::Operation *mop, Op &op);
Built buildReduceScan(Builder &b, mlir::Operation *mop, Op &op);
Built buildSortGather(Builder &b, mlir::Operation *mop, Op &op);
Built buildControl(Builder &b, mlir::Operation *mop, Op &op);
Built buildDebug(Builder &b, mlir::Operation *mop, Op &op);
Built buildDescriptor(Builder &b, mlir::Operation *mop, Op &op);
Built buildDotScaled(Builder &b, mlir::Operation *mop, Op &op);

/// "file:line" (run-time reports) and "file:line:col" (create errors).
std::string lineOf(mlir::Location loc);
std::string lineColOf(mlir::Location loc);

/// Flattens `func` into `prog`; returns an error message on failure.
std::optional<std::string> flattenKernel(mlir::Operation *func, Program &prog);

/// Strided N-D copy of `esize`-byte elements: dst (contiguous, `shape`)
/// [i...] = src[sum i_k * srcStrides_k] (strides in elements).
void stridedCopy(uint8_t *dst, const uint8_t *src,
                 llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> srcStrides, unsigned esize);
llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_PROGRAM_H

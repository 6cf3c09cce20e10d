//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// The axis analysis the GPU code generator consults to prove that a load or
// store touches consecutive, aligned addresses, so that one thread may move
// several elements with one vector access. For every integer and pointer
// value (scalar or tensor) it records, per dimension, how long the runs of
// consecutive values are, how aligned the first value of each run is, and
// how long the runs of equal values are. It is a sparse forward data-flow
// analysis over tile IR, so facts survive scf loops and branches.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_ANALYSIS_AXISINFO_H
#define TRITIUM_IR_ANALYSIS_AXISINFO_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tile {

/// What is known about one value along each of its dimensions (a scalar has
/// one dimension of size 1). Runs and groups are aligned: along dimension d
/// the elements are cut into consecutive groups of `contiguity[d]` elements
/// starting at index 0, and likewise for `constancy[d]`.
///
///  - contiguity[d] = c: within every group of c elements along d, each
///    value is the previous one plus 1 (for pointers: plus one pointee
///    element, so addresses step by the element size);
///  - divisibility[d] = k: the first value of every such group is a multiple
///    of k, a power of two (for pointers: the address, in bytes). With
///    contiguity 1 every value is a multiple of k. Zero and other values
///    with more trailing zero bits are capped at kMaxDivisibility;
///  - constancy[d] = c: within every group of c elements along d, all values
///    are equal.
///
/// A default-constructed AxisInfo is the lattice's bottom ("not computed
/// yet"); join takes what holds for both sides.
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// The largest divisibility ever claimed (the divisibility of 0).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known beyond the rank: every entry is 1.
  static AxisInfo unknown(unsigned rank);
  /// Every element equals `value`; `shape` is {1} for scalars.
  static AxisInfo constant(int64_t value, llvm::ArrayRef<int64_t> shape);
  /// What holds for `value` before anything about its definition is used:
  /// unknown, except for function arguments, whose `tile.divisibility`,
  /// `tile.contiguity` and `tile.constancy` argument attributes (an integer
  /// for every dimension, or an array with one entry per dimension) are
  /// trusted.
  static AxisInfo getPessimisticState(Value value);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }

  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  llvm::ArrayRef<int64_t> getContiguity() const { return contiguity; }
  llvm::ArrayRef<int64_t> getDivisibility() const { return divisibility; }
  llvm::ArrayRef<int64_t> getConstancy() const { return constancy; }
  /// Set when every element has this value (integers only; i1 is 0 or 1).
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// Divisibility of the first value of every aligned group of `len`
  /// elements along `d`. Groups shorter than a run start inside it, at the
  /// run's start plus a multiple of `len`, so only gcd(divisibility, len)
  /// is left of the run's alignment there.
  int64_t getGroupDivisibility(unsigned d, int64_t len) const;
  /// A power of two dividing every element.
  int64_t getElementDivisibility() const;

  /// Lattice join: what holds whichever of the two the value is.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy &&
           constantValue == other.constantValue;
  }
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// "contiguity = [..], divisibility = [..], constancy = [..],
  /// constant_value = <none>|N"
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity;
  DimVector divisibility;
  DimVector constancy;
  std::optional<int64_t> constantValue;
};

/// The largest power of two dividing `value` (kMaxDivisibility for 0 and
/// beyond).
int64_t highestPowerOf2Divisor(int64_t value);

/// The analysis of every value of a module (or of the module around a
/// function), computed once at construction. Private functions see what
/// holds at all their call sites; public ones (kernels) start from their
/// argument attributes.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(ModuleOp module);
  /// Analyses the whole module that holds `op` (or `op` alone when it has
  /// no enclosing module).
  explicit ModuleAxisInfo(Operation *op);

  /// The facts about `value`; null for values the analysis never reached
  /// (unreachable code).
  const AxisInfo *get(Value value) const;

  /// For a tensor of pointers: the number of consecutive elements along
  /// `dim` one access may cover (a power of two, at most the dimension's
  /// size). 1 for scalars, unknown values and out-of-range dims.
  unsigned getPtrContiguity(Value ptr, unsigned dim) const;
  /// For a tensor of pointers: the largest power of two n, in elements, such
  /// that every aligned group of n elements along `dim` starts at an address
  /// aligned to n elements, and is contiguous (so min(contiguity, bytes of
  /// divisibility / element size)).
  unsigned getPtrAlignment(Value ptr, unsigned dim) const;
  /// For a mask tensor: the length of the aligned runs of equal mask bits
  /// along `dim` (a power of two). A null mask masks nothing: UINT_MAX.
  unsigned getMaskAlignment(Value mask, unsigned dim) const;
  /// The vector width, in elements, of a load or store through `ptr` under
  /// `mask` (which may be null): min(alignment, mask constancy,
  /// 128 bits / element bits), at least 1.
  unsigned getVectorWidth(Value ptr, Value mask, unsigned dim) const;

private:
  void analyze(Operation *root);
  llvm::DenseMap<Value, AxisInfo> infos;
};

} // namespace mlir::tile

#endif // TRITIUM_IR_ANALYSIS_AXISINFO_H

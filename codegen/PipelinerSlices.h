//===- PipelinerSlices.h - what an iteration ahead can compute -*- C++ -*-===//
//
// The software pipeliner (Pipeliner.cpp) issues a loop's loads iterations
// ahead: it needs the ops that compute a load's pointer, mask or indices
// (its slice) from values whose later iterations it can compute. These are
// the induction variable, invariants, recurrences (advanced by an
// invariant step) and loop-carried chains (updated by side-effect-free
// ops, carried ahead alongside).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_PIPELINERSLICES_H
#define TRITIUM_CODEGEN_PIPELINERSLICES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace tritium::codegen::pipeliner {

/// Arithmetic (no regions) and the tile shape ops a slice may hold.
bool isPureShapeOrArith(mlir::Operation *op);

/// Loop-carried values that advance by a loop-invariant step every
/// iteration (`yield x + d`, integers by arith.addi, pointers by
/// tile.addptr): a block pointer's offsets moved by tl.advance, a
/// descriptor's running index. Their value k iterations on is x + k * d.
struct Recurrence {
  unsigned index; // among the loop's iteration arguments
  mlir::Value step;
};
using Recurrences = llvm::DenseMap<mlir::Value, Recurrence>; // body argument -> step

Recurrences findRecurrences(mlir::scf::ForOp loop);

/// An integer constant `v` of type `t` (splat for tensors).
mlir::Value constantLike(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t, int64_t v);
/// `d * k`, kept a splat when `d` is one (a splat costs nothing in any
/// layout, so the pointers it advances keep theirs).
mlir::Value scaled(mlir::OpBuilder &b, mlir::Location loc, mlir::Value d, int64_t k);
/// `x + k * step` (k >= 0).
mlir::Value advanceBy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value step,
                      int64_t k);
/// `i + k * step`.
mlir::Value iterationAhead(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i,
                           mlir::Value step, int64_t k);

/// What a slice may read besides the induction variable, recurrences and
/// invariants: loop-carried chains (see Chain) and the values their
/// updates compute.
struct ChainLeaves {
  llvm::SmallDenseMap<mlir::Value, unsigned> args; // body argument -> iteration argument index
  llvm::DenseSet<mlir::Operation *> ops;           // ops of the chains' updates
  bool allowIf = false;                            // side-effect-free scf.if in the slice
};
/// The chain leaves a slice read: chain arguments and update ops.
struct ChainUse {
  llvm::SmallDenseSet<unsigned> args;
  llvm::SmallPtrSet<mlir::Operation *, 8> ops;
  bool empty() const { return args.empty() && ops.empty(); }
};

/// The ops of `v`'s backward slice inside `body`, in program order, when
/// every leaf is the induction variable, a recurrence, a chain leaf (when
/// `leaves` is given; recorded in `used`) or defined outside the loop.
bool collectSlice(mlir::Value v, mlir::Block *body, mlir::Value iv,
                  llvm::SetVector<mlir::Operation *> &slice, const Recurrences &rec,
                  const ChainLeaves *leaves = nullptr, ChainUse *used = nullptr);

/// Loop-carried chains: iteration arguments whose next value the body
/// computes, with side-effect-free ops (scf.if included), from the
/// induction variable, recurrences, invariants and chains: a flattened
/// loop's counters and the per-tile values its scf.if carries
/// (tile-flatten-loops). Copies issued k iterations ahead read them in
/// that iteration: their values there are carried alongside, advanced by
/// the same ops run for the iteration ahead.
struct Chain {
  unsigned arg;                             // iteration argument index
  llvm::SetVector<mlir::Operation *> slice; // computes its next value
  ChainUse reads;                           // the chains its update reads
};
using Chains = std::vector<Chain>;

Chains findChains(mlir::scf::ForOp loop, const Recurrences &rec);
/// The leaves the chains offer to other slices.
ChainLeaves chainLeaves(mlir::scf::ForOp loop, const Chains &chains);
/// The chains `use` reads, with the chains their updates read.
Chains chainsRead(const Chains &chains, const ChainUse &use);

} // namespace tritium::codegen::pipeliner

#endif

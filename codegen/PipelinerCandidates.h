//===- PipelinerCandidates.h - the loads a pipelined loop issues early -*- C++ -*-===//
//
// The software pipeliner's candidates (Pipeliner.cpp): a loop's loads whose
// pointer, mask (or a descriptor load's indices) a later iteration can
// compute, how to emit them for another iteration, and the plain
// one-iteration-ahead prefetch into registers.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_PIPELINERCANDIDATES_H
#define TRITIUM_CODEGEN_PIPELINERCANDIDATES_H

#include "codegen/PipelinerSlices.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

#include <utility>
#include <vector>

namespace tritium::codegen::pipeliner {
using namespace mlir;
namespace tile = mlir::tile;

/// A load whose pointer is either loop-carried and advanced by an
/// invariant offset, or computed from the induction variable (and
/// invariants) in the body; its mask is always computed that way.
struct Candidate {
  tile::LoadOp load;
  int argIndex = -1;      // the loop-carried pointer, or -1: computed
  tile::AddPtrOp advance; // its yielded value: addptr(arg, invariant)
  llvm::SetVector<Operation *> slice; // computes the mask (and pointer)
  const Recurrences *rec = nullptr;   // the loop's recurrences
  ChainUse chains;                    // the chains the slice reads
  bool toRegisters = false; // its slot is read into registers, not by products
};

/// A recurrence's value in the iteration being emitted for.
using ArgAt = llvm::function_ref<Value(const Recurrence &)>;

/// The pointer and mask of `c` in the iteration whose induction variable
/// is `at`, built at `b`; `carried` is the loop-carried pointer's value
/// for that iteration (unused when the pointer is computed), `argAt` the
/// value there of each recurrence the slice reads.
std::pair<Value, Value> emitAt(OpBuilder &b, Candidate &c, Value iv, Value at,
                               Value carried, ArgAt argAt, const IRMapping *chainVals = nullptr);

/// `mask & (i < ub)`, splat over the mask's shape when needed.
Value guard(OpBuilder &b, Location loc, Value mask, Value i, Value ub,
            bool isUnsigned, Type ptrType);

/// The loads of `loop`'s body whose pointer and mask a later iteration
/// can compute (see Candidate).
std::vector<Candidate> findCandidates(scf::ForOp loop, const Recurrences &rec,
                                      const ChainLeaves *leaves = nullptr);

/// A tensor descriptor's block load copied by TMA (sm_90): its indices are
/// computed from the induction variable, recurrences and invariants.
struct TmaCandidate {
  tile::DescriptorLoadOp load;
  llvm::SetVector<Operation *> slice; // computes the indices
  const Recurrences *rec = nullptr;
  ChainUse chains;
};

/// The indices of `c` in the iteration whose induction variable is `at`.
SmallVector<Value> emitIndicesAt(OpBuilder &b, TmaCandidate &c, Value iv, Value at,
                                 ArgAt argAt, const IRMapping *chainVals = nullptr);

/// Issues each candidate's load one iteration early, in registers (the
/// file comment of Pipeliner.cpp); leaves the loop as it was when it
/// cannot.
void prefetchLoads(mlir::scf::ForOp loop, std::vector<Candidate> &cands);

} // namespace tritium::codegen::pipeliner

#endif

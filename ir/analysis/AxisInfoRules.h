//===- AxisInfoRules.h - per-operation transfer functions -------*- C++ -*-===//
//
// The step of the axis analysis that is local to one operation: from the
// facts of the operands to the facts of one result. Kept apart from the
// data-flow driver (AxisInfo.cpp) so each rule can be read on its own; tile
// ops live in AxisInfoRules.cpp, integer arithmetic in AxisInfoArith.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_ANALYSIS_AXISINFORULES_H
#define TRITIUM_IR_ANALYSIS_AXISINFORULES_H

#include "ir/analysis/AxisInfo.h"

namespace mlir::tile {

/// The facts for result `resultIndex` of `op`, given initialized facts for
/// every operand. Returns an uninitialized AxisInfo for operations it has no
/// rule for; the caller then falls back to the pessimistic state.
AxisInfo computeAxisInfo(Operation *op, ArrayRef<const AxisInfo *> operands,
                         unsigned resultIndex);

/// The rules for arith's integer ops, select and integer casts
/// (AxisInfoArith.cpp); uninitialized for any other op. `shape` is the
/// result's (axisShapeOf).
AxisInfo computeArithAxisInfo(Operation *op,
                              ArrayRef<const AxisInfo *> operands,
                              ArrayRef<int64_t> shape);

/// x + y (x - y with `isSub`), with y's divisibility scaled by `rhsScale`
/// (the pointee size for addptr).
AxisInfo addLikeAxisInfo(const AxisInfo &l, const AxisInfo &r, bool isSub,
                         int64_t rhsScale);

/// Per aligned group (of at most `cap[d]` elements, when given), either of
/// two same-shaped values: what both share.
AxisInfo mergeAxisInfo(const AxisInfo &a, const AxisInfo &b,
                       ArrayRef<int64_t> cap = {});

/// An elementwise function nothing else is known about: constant where all
/// tensor operands are.
AxisInfo elementwiseConstancy(ArrayRef<const AxisInfo *> operands,
                              Operation *op, ArrayRef<int64_t> shape);

/// The shape the analysis gives a value of type `type`: a ranked tensor's
/// shape, {1} for anything else.
AxisInfo::DimVector axisShapeOf(Type type);

/// Bytes of one pointee of a `!tile.ptr` (or tensor of them), at least 1;
/// 1 for any other type.
int64_t pointeeBytes(Type ptrLike);

} // namespace mlir::tile

#endif // TRITIUM_IR_ANALYSIS_AXISINFORULES_H

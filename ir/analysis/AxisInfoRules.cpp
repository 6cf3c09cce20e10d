//===- AxisInfoRules.cpp - axis facts through tile ops --------------------===//
//
// The transfer functions of the axis analysis (AxisInfo.h) for constants,
// program ids, shape ops (splat, broadcast, expand_dims, reshape, trans,
// join, split, cat), pointers (addptr, casts) and hints, and the dispatch
// that hands integer arithmetic to AxisInfoArith.cpp. Each rule is an
// argument about aligned groups of elements, given above it. Ops without a
// rule get the pessimistic state from the caller.
//
//===----------------------------------------------------------------------===//
#include "ir/analysis/AxisInfoRules.h"

#include "ir/TileDialect.h"

#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

using DimVector = AxisInfo::DimVector;
static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

AxisInfo::DimVector mlir::tile::axisShapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return DimVector(tensor.getShape());
  return DimVector{1};
}

int64_t mlir::tile::pointeeBytes(Type ptrLike) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  if (isa<PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// Either of two values with the same shape, chosen per aligned group of at
/// most `cap[d]` elements (min/max, select, cat, join): within a group both
/// candidates run in parallel, so the result runs as long as both do and its
/// group starts are as aligned as both.
AxisInfo mlir::tile::mergeAxisInfo(const AxisInfo &a, const AxisInfo &b,
                                   ArrayRef<int64_t> cap) {
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t c = std::gcd(a.getContiguity(d), b.getContiguity(d));
    int64_t k = std::gcd(a.getConstancy(d), b.getConstancy(d));
    if (!cap.empty()) {
      c = std::gcd(c, cap[d]);
      k = std::gcd(k, cap[d]);
    }
    contig.push_back(c);
    constancy.push_back(k);
    div.push_back(
        std::gcd(a.getGroupDivisibility(d, c), b.getGroupDivisibility(d, c)));
  }
  std::optional<int64_t> value;
  if (a.getConstantValue() && a.getConstantValue() == b.getConstantValue())
    value = a.getConstantValue();
  return AxisInfo(contig, div, constancy, value);
}

/// Only constancy survives an elementwise function nothing else is known
/// about: f is constant wherever all its arguments are.
AxisInfo mlir::tile::elementwiseConstancy(ArrayRef<const AxisInfo *> operands,
                                          Operation *op,
                                          ArrayRef<int64_t> shape) {
  DimVector constancy(shape.begin(), shape.end());
  for (auto [info, value] : llvm::zip(operands, op->getOperands())) {
    // A scalar operand of a tensor op is the same for every element.
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    if (info->getRank() != shape.size())
      return AxisInfo::unknown(shape.size());
    for (unsigned d = 0; d < shape.size(); ++d)
      constancy[d] = std::gcd(constancy[d], info->getConstancy(d));
  }
  return AxisInfo(DimVector(shape.size(), 1), DimVector(shape.size(), 1),
                  constancy);
}

namespace {

/// The integer constant an APInt of `width` bits holds (i1 zero-extended).
int64_t fromAPInt(const APInt &v) {
  return v.getBitWidth() == 1 ? int64_t(v.getZExtValue()) : v.getSExtValue();
}

// A pointer <-> integer reinterpretation that changes the step between
// neighbours (element size vs. 1 byte): runs break unless the step is
// unchanged; every element of a run x0 + i*step keeps gcd(div, step).
AxisInfo rescaleStep(const AxisInfo &src, int64_t fromStep, int64_t toStep) {
  if (fromStep == toStep)
    return src;
  DimVector div;
  int64_t stepDiv = highestPowerOf2Divisor(fromStep);
  for (unsigned d = 0; d < src.getRank(); ++d)
    div.push_back(src.getContiguity(d) == 1
                      ? src.getDivisibility(d)
                      : std::gcd(src.getDivisibility(d), stepDiv));
  return AxisInfo(DimVector(src.getRank(), 1), div,
                  DimVector(src.getConstancy()));
}

/// Exact facts of a small non-splat integer constant, read off its values.
AxisInfo fromDenseValues(ArrayRef<int64_t> values, ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  DimVector strides(rank, 1);
  for (int d = int(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t n = shape[d], stride = strides[d];
    // Whether every element inside an aligned group of `len` along d relates
    // to its predecessor by `step`.
    auto holds = [&](int64_t len, int64_t step) {
      for (int64_t e = 0; e < int64_t(values.size()); ++e) {
        int64_t i = (e / stride) % n;
        if (i % len != 0 && values[e] != values[e - stride] + step)
          return false;
      }
      return true;
    };
    auto longest = [&](int64_t step) {
      int64_t len = n & -n;
      while (len > 1 && !holds(len, step))
        len /= 2;
      return len;
    };
    int64_t c = longest(1);
    int64_t k = longest(0);
    int64_t dv = kMax;
    for (int64_t e = 0; e < int64_t(values.size()); ++e)
      if (((e / stride) % n) % c == 0)
        dv = std::min(dv, highestPowerOf2Divisor(values[e]));
    contig.push_back(c);
    constancy.push_back(k);
    div.push_back(dv);
  }
  return AxisInfo(contig, div, constancy);
}

AxisInfo visitConstant(arith::ConstantOp op) {
  DimVector shape = axisShapeOf(op.getType());
  Attribute value = op.getValue();
  if (auto i = dyn_cast<IntegerAttr>(value))
    return AxisInfo::constant(fromAPInt(i.getValue()), shape);
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return AxisInfo::unknown(shape.size());
  bool isInt = dense.getElementType().isIntOrIndex();
  if (dense.isSplat()) {
    if (isInt)
      return AxisInfo::constant(fromAPInt(dense.getSplatValue<APInt>()), shape);
    return AxisInfo(DimVector(shape.size(), 1), DimVector(shape.size(), 1),
                    shape);
  }
  if (!isInt || dense.getNumElements() > (1 << 16))
    return AxisInfo::unknown(shape.size());
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(fromAPInt(v));
  return fromDenseValues(values, shape);
}

// broadcast repeats size-1 dimensions: constant along them.
AxisInfo visitBroadcast(const AxisInfo &src, ArrayRef<int64_t> srcShape,
                        ArrayRef<int64_t> shape) {
  DimVector contig, div, constancy;
  for (unsigned d = 0; d < shape.size(); ++d) {
    bool repeated = srcShape[d] == 1 && shape[d] != 1;
    contig.push_back(repeated ? 1 : src.getContiguity(d));
    div.push_back(src.getDivisibility(d));
    constancy.push_back(repeated ? shape[d] : src.getConstancy(d));
  }
  return AxisInfo(contig, div, constancy, src.getConstantValue());
}

AxisInfo visitExpandDims(const AxisInfo &src, unsigned axis) {
  DimVector contig(src.getContiguity()), div(src.getDivisibility()),
      constancy(src.getConstancy());
  contig.insert(contig.begin() + axis, 1);
  div.insert(div.begin() + axis, src.getElementDivisibility());
  constancy.insert(constancy.begin() + axis, 1);
  return AxisInfo(contig, div, constancy, src.getConstantValue());
}

// Row-major reshape. Dropping or adding size-1 dimensions maps facts one to
// one. Otherwise only the innermost dimension is followed: splitting it into
// rows of R keeps runs up to R long (groups of a power of two dividing R
// never cross a row); merging rows of S into one keeps the runs inside
// each row.
AxisInfo visitReshape(ReshapeOp op, const AxisInfo &src) {
  DimVector srcShape = axisShapeOf(op.getSrc().getType());
  DimVector shape = axisShapeOf(op.getType());
  unsigned rank = shape.size();
  if (op.getAllowReorder() || src.getRank() != srcShape.size())
    return AxisInfo::unknown(rank);
  int64_t elemDiv = src.getElementDivisibility();
  DimVector contig(rank, 1), div(rank, elemDiv), constancy(rank, 1);
  SmallVector<unsigned> srcDims, dims;
  for (unsigned d = 0; d < srcShape.size(); ++d)
    if (srcShape[d] != 1)
      srcDims.push_back(d);
  for (unsigned d = 0; d < rank; ++d)
    if (shape[d] != 1)
      dims.push_back(d);
  bool sameDims = srcDims.size() == dims.size() &&
                  llvm::all_of(llvm::zip(srcDims, dims), [&](auto p) {
                    return srcShape[std::get<0>(p)] == shape[std::get<1>(p)];
                  });
  if (sameDims) {
    for (auto [s, d] : llvm::zip(srcDims, dims)) {
      contig[d] = src.getContiguity(s);
      div[d] = src.getDivisibility(s);
      constancy[d] = src.getConstancy(s);
    }
    return AxisInfo(contig, div, constancy, src.getConstantValue());
  }
  if (src.getConstantValue())
    return AxisInfo::constant(*src.getConstantValue(), shape);
  unsigned sl = srcShape.size() - 1, rl = rank - 1;
  int64_t s = srcShape[sl], r = shape[rl];
  if ((r <= s && s % r == 0) || (r > s && r % s == 0)) {
    int64_t len = std::min(r, s);
    contig[rl] = std::gcd(src.getContiguity(sl), len);
    constancy[rl] = std::gcd(src.getConstancy(sl), len);
    div[rl] = src.getGroupDivisibility(sl, contig[rl]);
  }
  return AxisInfo(contig, div, constancy);
}

AxisInfo visitTrans(TransOp op, const AxisInfo &src) {
  DimVector contig, div, constancy;
  for (int32_t s : op.getOrder()) {
    if (s < 0 || unsigned(s) >= src.getRank())
      return AxisInfo::unknown(op.getOrder().size());
    contig.push_back(src.getContiguity(s));
    div.push_back(src.getDivisibility(s));
    constancy.push_back(src.getConstancy(s));
  }
  return AxisInfo(contig, div, constancy, src.getConstantValue());
}

// hint: the user's facts and the derived ones both hold; keep the larger.
AxisInfo visitHint(HintOp op, const AxisInfo &src) {
  DimVector contig(src.getContiguity()), div(src.getDivisibility()),
      constancy(src.getConstancy());
  auto apply = [&](std::optional<ArrayRef<int32_t>> hint, DimVector &facts) {
    if (!hint || hint->size() != facts.size())
      return;
    for (unsigned d = 0; d < facts.size(); ++d)
      facts[d] = std::max<int64_t>(facts[d], (*hint)[d]);
  };
  apply(op.getDivisibility(), div);
  apply(op.getContiguity(), contig);
  apply(op.getConstancy(), constancy);
  for (int64_t &v : div)
    v = std::min(highestPowerOf2Divisor(v), kMax);
  return AxisInfo(contig, div, constancy, src.getConstantValue());
}

} // namespace

AxisInfo mlir::tile::computeAxisInfo(Operation *op,
                                     ArrayRef<const AxisInfo *> operands,
                                     unsigned resultIndex) {
  if (resultIndex >= op->getNumResults())
    return AxisInfo();
  Type resultType = op->getResult(resultIndex).getType();
  DimVector shape = axisShapeOf(resultType);
  unsigned rank = shape.size();
  auto operand = [&](unsigned i) -> const AxisInfo & { return *operands[i]; };

  AxisInfo info =
      TypeSwitch<Operation *, AxisInfo>(op)
          .Case([&](arith::ConstantOp c) { return visitConstant(c); })
          .Case([&](MakeRangeOp r) {
            int64_t start = int32_t(r.getStart());
            return AxisInfo({rank == 1 ? shape[0] : 1},
                            {highestPowerOf2Divisor(start)}, {1});
          })
          // Program ids are arbitrary non-negative integers.
          .Case<GetProgramIdOp, GetNumProgramsOp>(
              [&](Operation *) { return AxisInfo::unknown(1); })
          .Case([&](SplatOp) {
            const AxisInfo &src = operand(0);
            return AxisInfo(DimVector(rank, 1),
                            DimVector(rank, src.getDivisibility(0)), shape,
                            src.getConstantValue());
          })
          .Case([&](UnsplatOp) {
            const AxisInfo &src = operand(0);
            return AxisInfo({1}, {src.getElementDivisibility()}, {1},
                            src.getConstantValue());
          })
          .Case([&](BroadcastOp b) {
            DimVector srcShape = axisShapeOf(b.getSrc().getType());
            if (srcShape.size() != rank || operand(0).getRank() != rank)
              return AxisInfo();
            return visitBroadcast(operand(0), srcShape, shape);
          })
          .Case([&](ExpandDimsOp e) {
            if (e.getAxis() > operand(0).getRank())
              return AxisInfo();
            return visitExpandDims(operand(0), e.getAxis());
          })
          .Case([&](ReshapeOp r) { return visitReshape(r, operand(0)); })
          .Case([&](TransOp t) { return visitTrans(t, operand(0)); })
          .Case([&](JoinOp) {
            const AxisInfo &a = operand(0), &b = operand(1);
            AxisInfo m = mergeAxisInfo(a, b);
            DimVector contig(m.getContiguity()), div(m.getDivisibility()),
                constancy(m.getConstancy());
            contig.push_back(1);
            constancy.push_back(1);
            div.push_back(std::gcd(a.getElementDivisibility(),
                                   b.getElementDivisibility()));
            return AxisInfo(contig, div, constancy, m.getConstantValue());
          })
          .Case([&](SplitOp) {
            const AxisInfo &src = operand(0);
            if (src.getRank() < 2)
              return AxisInfo();
            auto drop = [](ArrayRef<int64_t> v) {
              return DimVector(v.drop_back());
            };
            return AxisInfo(drop(src.getContiguity()),
                            drop(src.getDivisibility()),
                            drop(src.getConstancy()), src.getConstantValue());
          })
          .Case([&](CatOp) { return mergeAxisInfo(operand(0), operand(1)); })
          .Case([&](AddPtrOp a) {
            return addLikeAxisInfo(
                operand(0), operand(1), false,
                highestPowerOf2Divisor(pointeeBytes(a.getPtr().getType())));
          })
          .Case([&](PtrToIntOp p) {
            return rescaleStep(operand(0), pointeeBytes(p.getSrc().getType()),
                               1);
          })
          .Case([&](IntToPtrOp p) {
            return rescaleStep(operand(0), 1, pointeeBytes(p.getType()));
          })
          .Case<BitcastOp, arith::BitcastOp>([&](Operation *) {
            Type from = getElementTypeOrSelf(op->getOperand(0).getType());
            Type to = getElementTypeOrSelf(resultType);
            if (isa<PointerType>(from) && isa<PointerType>(to))
              return rescaleStep(operand(0), pointeeBytes(from),
                                 pointeeBytes(to));
            if (from == to)
              return operand(0);
            return elementwiseConstancy(operands, op, shape);
          })
          .Case([&](HintOp h) { return visitHint(h, operand(0)); })
          .Default([&](Operation *) {
            // A layout conversion (the GPU dialect's) moves values
            // between threads and keeps every one of them.
            if (op->getName().getStringRef() == "tgpu.convert_layout" &&
                op->getNumOperands() == 1)
              return operand(0);
            AxisInfo arith = computeArithAxisInfo(op, operands, shape);
            if (arith.isInitialized())
              return arith;
            // Pure elementwise math keeps constancy; anything else (loads,
            // reductions, calls' unknown effects) is unknown.
            if (op->hasTrait<OpTrait::Elementwise>() ||
                isa<FpToFpOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp, ClampFOp,
                    ExternElementwiseOp>(op))
              return elementwiseConstancy(operands, op, shape);
            return AxisInfo();
          });

  if (!info.isInitialized() || info.getRank() != rank)
    return AxisInfo();
  // A constant is constant along every dimension, whatever the rule said.
  if (auto v = info.getConstantValue())
    return AxisInfo::constant(*v, shape);
  return info;
}

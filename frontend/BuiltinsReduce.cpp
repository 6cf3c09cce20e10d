//===- BuiltinsReduce.cpp - reductions, scans, sort, gather, histogram ----===//
//
// tl.reduce / tl.associative_scan with a @jit combine function, and the
// standard-library reductions built on them (sum, max, min, argmax, argmin,
// xor_sum, reduce_or, cumsum, cumprod), plus sort, topk, flip, gather and
// histogram. Dtype rules follow Triton's standard.py: sums of narrow ints
// widen to (u)int32, max/min without indices widen everything narrower than
// 32 bits, bf16 goes to fp32 where standard.py promotes it. Built-in combines
// are emitted directly into the region instead of through a @jit function.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

using namespace tritium::fe;
using namespace mlir;

namespace {
/// Computes the combined values from the region's (lhs..., rhs...) scalars.
using CombineBody = std::function<std::vector<TValue>(std::vector<TValue> &,
                                                      std::vector<TValue> &)>;
/// Fills a reduce/scan region for operands of the given element dtypes.
using RegionFill = std::function<void(Region &, const std::vector<DType> &)>;
} // namespace

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static TValue reshapeValue(Emitter &em, const TValue &x,
                           const std::vector<int64_t> &shape, SourceLoc l,
                           bool reorder = false) {
  if (shape == x.shape)
    return x;
  auto type = mlir::cast<RankedTensorType>(em.irType(x.dtype, shape));
  Value r = tile::ReshapeOp::create(em.b, em.loc(l), type, x.v,
                                    reorder ? em.b.getUnitAttr() : UnitAttr());
  return TValue::tensor(r, x.dtype, shape);
}

/// Inserts a dimension of size 1 at `axis` (a scalar becomes a 1-block).
static TValue expandAt(Emitter &em, const TValue &x, int64_t axis,
                       SourceLoc l) {
  em.cur = l;
  if (x.shape.empty())
    return em.splatTo(x, {1});
  std::vector<int64_t> shape = x.shape;
  shape.insert(shape.begin() + axis, 1);
  Value r = tile::ExpandDimsOp::create(em.b, em.loc(l), x.v, int32_t(axis));
  return TValue::tensor(r, x.dtype, shape);
}

/// i32 block [0, n) shaped all-1 except `n` at `dim` of a rank-`rank` block.
static TValue rangeAlong(Emitter &em, int64_t n, size_t dim, size_t rank,
                         SourceLoc l) {
  auto type = RankedTensorType::get({n}, em.b.getI32Type());
  Value r = tile::MakeRangeOp::create(em.b, em.loc(l), type, 0, int32_t(n));
  std::vector<int64_t> shape(rank, 1);
  shape[dim] = n;
  return reshapeValue(em, TValue::tensor(r, DType::I32, {n}), shape, l);
}

/// The block operands of a reduce/scan: one tensor or a tuple of tensors of
/// one shape.
static std::vector<TValue> blockInputs(Emitter &em, const TValue &input,
                                       SourceLoc l, const std::string &fn) {
  std::vector<TValue> ins =
      input.kind == TValue::Tuple ? input.elems : std::vector<TValue>{input};
  if (ins.empty())
    em.error(l, fn + " needs at least one input tensor");
  for (auto &t : ins) {
    if (!t.isBlock())
      em.error(l, fn + " needs block inputs, got " + t.typeStr());
    if (t.dtype.isPtr())
      em.error(l, fn + " cannot combine pointers, got " + t.typeStr());
    if (t.shape != ins[0].shape)
      em.error(l, fn + " inputs must all have one shape, got " +
                      ins[0].typeStr() + " and " + t.typeStr());
  }
  return ins;
}

/// Python-style axis: -rank <= axis < rank, negative counting from the end.
static int64_t wrapAxis(Emitter &em, const TValue &v, size_t rank, SourceLoc l,
                        const std::string &fn, const char *what = "axis") {
  int64_t axis = em.requireInt(v, l, fn + " " + what);
  int64_t r = int64_t(rank);
  if (axis < -r || axis >= r)
    em.error(l, fn + ": " + what + " " + std::to_string(axis) +
                    " is out of range for a block of rank " +
                    std::to_string(r) + " (expected " + std::to_string(-r) +
                    " <= " + what + " < " + std::to_string(r) + ")");
  return axis < 0 ? axis + r : axis;
}

/// A region of 2N scalar arguments whose yield is `body`'s values, cast back
/// to the operand dtypes.
static void fillRegion(Emitter &em, Region &region,
                       const std::vector<DType> &types, SourceLoc l,
                       bool isScan, const CombineBody &body) {
  OpBuilder::InsertionGuard guard(em.b);
  mlir::Block *block = new mlir::Block();
  region.push_back(block);
  std::vector<TValue> lhs, rhs;
  for (int side = 0; side < 2; ++side)
    for (auto t : types) {
      Value a = block->addArgument(t.toMlir(&em.ctx), em.loc(l));
      (side ? rhs : lhs).push_back(TValue::tensor(a, t, {}));
    }
  em.b.setInsertionPointToStart(block);
  std::vector<TValue> outs = body(lhs, rhs);
  SmallVector<Value> vals;
  for (size_t i = 0; i < outs.size(); ++i)
    vals.push_back(em.cast(outs[i], types[i], l).v);
  if (isScan)
    tile::ScanReturnOp::create(em.b, em.loc(l), vals);
  else
    tile::ReduceReturnOp::create(em.b, em.loc(l), vals);
}

static RegionFill builtinCombine(Emitter &em, SourceLoc l, bool isScan,
                                 CombineBody body) {
  return [&em, l, isScan, body](Region &r, const std::vector<DType> &types) {
    fillRegion(em, r, types, l, isScan, body);
  };
}

static RegionFill jitCombine(Emitter &em, const BoundArgs &a, SourceLoc l,
                             bool isScan) {
  const TValue &fn = a.get("combine_fn");
  if (fn.kind != TValue::Function)
    em.error(a.loc("combine_fn"),
             "combine_fn must be a @triton.jit function, got " + fn.typeStr());
  return [&em, fn, l, isScan](Region &r, const std::vector<DType> &types) {
    em.emitCombineRegion(r, fn, types, l, isScan);
  };
}

/// tl.reduce's semantics: axis None reduces everything (after a reshape to
/// 1-D), rank-1 reductions give scalars, keep_dims re-inserts the axis.
static std::vector<TValue> reduceValues(Emitter &em, std::vector<TValue> ins,
                                        const TValue &axisV, SourceLoc axisLoc,
                                        bool keepDims, SourceLoc l,
                                        const std::string &fn,
                                        const RegionFill &fill) {
  size_t rank = ins[0].shape.size();
  int64_t axis = 0;
  if (axisV.kind == TValue::None) {
    int64_t n = 1;
    for (int64_t d : ins[0].shape)
      n *= d;
    for (auto &t : ins)
      t = reshapeValue(em, t, {n}, l, /*reorder=*/true);
  } else {
    axis = wrapAxis(em, axisV, rank, axisLoc, fn);
  }
  std::vector<int64_t> outShape = ins[0].shape;
  outShape.erase(outShape.begin() + axis);
  SmallVector<Value> srcs;
  SmallVector<Type> resultTypes;
  std::vector<DType> types;
  for (auto &t : ins) {
    srcs.push_back(t.v);
    resultTypes.push_back(em.irType(t.dtype, outShape));
    types.push_back(t.dtype);
  }
  auto op = tile::ReduceOp::create(em.b, em.loc(l), resultTypes, srcs,
                                   uint32_t(axis));
  fill(op.getCombineOp(), types);
  std::vector<TValue> outs;
  for (size_t i = 0; i < ins.size(); ++i) {
    TValue r = TValue::tensor(op.getResult()[i], types[i], outShape);
    if (keepDims) {
      if (axisV.kind == TValue::None)
        for (size_t k = 0; k < rank; ++k)
          r = expandAt(em, r, 0, l);
      else
        r = expandAt(em, r, axis, l);
    }
    outs.push_back(r);
  }
  return outs;
}

static std::vector<TValue>
scanValues(Emitter &em, const std::vector<TValue> &ins, const TValue &axisV,
           SourceLoc axisLoc, bool reverse, SourceLoc l, const std::string &fn,
           const RegionFill &fill) {
  if (axisV.kind == TValue::None)
    em.error(axisLoc, fn + " needs an axis (scans run along one dimension)");
  int64_t axis = wrapAxis(em, axisV, ins[0].shape.size(), axisLoc, fn);
  SmallVector<Value> srcs;
  SmallVector<Type> resultTypes;
  std::vector<DType> types;
  for (auto &t : ins) {
    srcs.push_back(t.v);
    resultTypes.push_back(t.v.getType());
    types.push_back(t.dtype);
  }
  auto op = tile::ScanOp::create(em.b, em.loc(l), resultTypes, srcs,
                                 uint32_t(axis), reverse);
  fill(op.getCombineOp(), types);
  std::vector<TValue> outs;
  for (size_t i = 0; i < ins.size(); ++i)
    outs.push_back(TValue::tensor(op.getResult()[i], types[i], ins[i].shape));
  return outs;
}

static TValue oneOrTuple(const TValue &input, const std::vector<TValue> &outs) {
  return input.kind == TValue::Tuple ? TValue::tuple(outs) : outs[0];
}

/// `_promote_bfloat16_to_float32`.
static TValue bf16ToF32(Emitter &em, const TValue &x, SourceLoc l) {
  return x.dtype.kind == DType::BF16 ? em.cast(x, DType::F32, l) : x;
}

/// `_pick_sum_dtype`: ints narrower than 32 bits sum as int32 or uint32 with
/// their signedness (int1 counts as unsigned in Triton: bool sums as uint32).
static TValue widenForSum(Emitter &em, const TValue &x, const BoundArgs &a,
                          SourceLoc l) {
  if (a.has("dtype"))
    return em.cast(x, em.requireDType(a.get("dtype"), a.loc("dtype"), "dtype"),
                   l);
  if (x.dtype.isSigned() && x.dtype.bits() < 32)
    return em.cast(x, DType::I32, l);
  if ((x.dtype.isUnsigned() || x.dtype.isBool()) && x.dtype.bits() < 32)
    return em.cast(x, DType::U32, l);
  return x;
}

static TValue addCombine(Emitter &em, TValue &a, TValue &b, SourceLoc l) {
  return em.binary(BinOpKind::Add, a, b, l);
}

//===----------------------------------------------------------------------===//
// tl.reduce, tl.associative_scan and the standard reductions
//===----------------------------------------------------------------------===//

static TValue reduceFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "axis", "combine_fn", "keep_dims=False"});
  auto ins = blockInputs(em, a.get("input"), a.loc("input"), "tl.reduce");
  bool keep =
      em.requireBool(a.get("keep_dims"), a.loc("keep_dims"), "keep_dims");
  auto outs = reduceValues(em, ins, a.get("axis"), a.loc("axis"), keep, c.loc,
                           "tl.reduce", jitCombine(em, a, c.loc, false));
  return oneOrTuple(a.get("input"), outs);
}

static TValue scanFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "axis", "combine_fn", "reverse=False"});
  auto ins =
      blockInputs(em, a.get("input"), a.loc("input"), "tl.associative_scan");
  bool rev = em.requireBool(a.get("reverse"), a.loc("reverse"), "reverse");
  auto outs = scanValues(em, ins, a.get("axis"), a.loc("axis"), rev, c.loc,
                         "tl.associative_scan", jitCombine(em, a, c.loc, true));
  return oneOrTuple(a.get("input"), outs);
}

/// The one block operand of a standard-library reduction (tuples refused).
static TValue singleInput(Emitter &em, const BoundArgs &a,
                          const std::string &fn) {
  const TValue &x = a.get("input");
  if (x.kind == TValue::Tuple)
    em.error(a.loc("input"), fn + " takes a single tensor, not a tuple; use "
                                  "tl.reduce for several operands");
  return blockInputs(em, x, a.loc("input"), fn)[0];
}

static TValue sumFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "axis=None", "keep_dims=False", "dtype=None"});
  SourceLoc l = c.loc;
  TValue x = widenForSum(em, singleInput(em, a, "tl.sum"), a, l);
  bool keep =
      em.requireBool(a.get("keep_dims"), a.loc("keep_dims"), "keep_dims");
  auto body = [&em, l](std::vector<TValue> &x, std::vector<TValue> &y) {
    return std::vector<TValue>{addCombine(em, x[0], y[0], l)};
  };
  return reduceValues(em, {x}, a.get("axis"), a.loc("axis"), keep, l, "tl.sum",
                      builtinCombine(em, l, false, body))[0];
}

/// Combine of max/min: arith.maxnumf/minnumf for floats (NaN-ignoring, as
/// tl.maximum with PropagateNan.NONE), signed or unsigned integer max/min.
static TValue extremum(Emitter &em, const TValue &x, const TValue &y,
                       bool isMax, SourceLoc l) {
  Location L = em.loc(l);
  Value r;
  if (x.dtype.isFloat())
    r = isMax ? Value(arith::MaxNumFOp::create(em.b, L, x.v, y.v))
              : Value(arith::MinNumFOp::create(em.b, L, x.v, y.v));
  else if (x.dtype.isUnsigned() || x.dtype.isBool())
    r = isMax ? Value(arith::MaxUIOp::create(em.b, L, x.v, y.v))
              : Value(arith::MinUIOp::create(em.b, L, x.v, y.v));
  else
    r = isMax ? Value(arith::MaxSIOp::create(em.b, L, x.v, y.v))
              : Value(arith::MinSIOp::create(em.b, L, x.v, y.v));
  return TValue::tensor(r, x.dtype, x.shape);
}

/// `_argmax_combine` / `_argmin_combine`:
///   tie = v1 == v2 and i1 < i2   (only with tie_break_left)
///   gt  = v1 > v2 or tie         (v1 < v2 for argmin)
///   return where(gt, v1, v2), where(gt, i1, i2)
/// Comparisons are ordered, so a NaN never wins a comparison.
static CombineBody argCombine(Emitter &em, bool isMax, bool tieLeft,
                              SourceLoc l) {
  return
      [&em, isMax, tieLeft, l](std::vector<TValue> &x, std::vector<TValue> &y) {
        TValue better =
            em.compare(isMax ? CmpOpKind::Gt : CmpOpKind::Lt, x[0], y[0], l);
        if (tieLeft) {
          TValue eq = em.compare(CmpOpKind::Eq, x[0], y[0], l);
          TValue lt = em.compare(CmpOpKind::Lt, x[1], y[1], l);
          TValue tie = em.logical(BoolOpKind::And, eq, lt, l);
          better = em.logical(BoolOpKind::Or, better, tie, l);
        }
        return std::vector<TValue>{em.where(better, x[0], y[0], l),
                                   em.where(better, x[1], y[1], l)};
      };
}

/// `_reduce_with_indices`: reduce (value, index) pairs, the index an i32
/// arange along `axis` broadcast over the other dimensions.
static std::vector<TValue>
reduceWithIndices(Emitter &em, const TValue &x, const TValue &axisV,
                  SourceLoc axisLoc, bool isMax, bool tieLeft, bool keep,
                  SourceLoc l, const std::string &fn) {
  if (axisV.kind == TValue::None)
    em.error(axisLoc, fn + " with indices needs an axis");
  int64_t axis = wrapAxis(em, axisV, x.shape.size(), axisLoc, fn);
  TValue idx = rangeAlong(em, x.shape[axis], size_t(axis), x.shape.size(), l);
  idx = em.broadcastTo(idx, x.shape, l);
  return reduceValues(
      em, {x, idx}, TValue::integer(axis), axisLoc, keep, l, fn,
      builtinCombine(em, l, false, argCombine(em, isMax, tieLeft, l)));
}

static TValue maxMinFn(Emitter &em, CallArgs &c, bool isMax) {
  auto a =
      em.bind(c, {"input", "axis=None", "return_indices=False",
                  "return_indices_tie_break_left=True", "keep_dims=False"});
  SourceLoc l = c.loc;
  std::string fn = isMax ? "tl.max" : "tl.min";
  TValue x = bf16ToF32(em, singleInput(em, a, fn), l);
  bool keep =
      em.requireBool(a.get("keep_dims"), a.loc("keep_dims"), "keep_dims");
  if (em.requireBool(a.get("return_indices"), a.loc("return_indices"),
                     "return_indices")) {
    bool tieLeft = em.requireBool(a.get("return_indices_tie_break_left"),
                                  a.loc("return_indices_tie_break_left"),
                                  "return_indices_tie_break_left");
    return TValue::tuple(reduceWithIndices(em, x, a.get("axis"), a.loc("axis"),
                                           isMax, tieLeft, keep, l, fn));
  }
  // Without indices everything narrower than 32 bits is widened first.
  if (x.dtype.bits() < 32)
    x = em.cast(x, x.dtype.isFloat() ? DType::F32 : DType::I32, l);
  auto body = [&em, isMax, l](std::vector<TValue> &x, std::vector<TValue> &y) {
    return std::vector<TValue>{extremum(em, x[0], y[0], isMax, l)};
  };
  return reduceValues(em, {x}, a.get("axis"), a.loc("axis"), keep, l, fn,
                      builtinCombine(em, l, false, body))[0];
}

static TValue argFn(Emitter &em, CallArgs &c, bool isMax) {
  auto a =
      em.bind(c, {"input", "axis", "tie_break_left=True", "keep_dims=False"});
  std::string fn = isMax ? "tl.argmax" : "tl.argmin";
  TValue x = bf16ToF32(em, singleInput(em, a, fn), c.loc);
  bool tieLeft = em.requireBool(a.get("tie_break_left"),
                                a.loc("tie_break_left"), "tie_break_left");
  bool keep =
      em.requireBool(a.get("keep_dims"), a.loc("keep_dims"), "keep_dims");
  return reduceWithIndices(em, x, a.get("axis"), a.loc("axis"), isMax, tieLeft,
                           keep, c.loc, fn)[1];
}

/// xor_sum and reduce_or: integer-only bitwise reductions.
static TValue bitReduceFn(Emitter &em, CallArgs &c, bool isXor) {
  std::string fn = isXor ? "tl.xor_sum" : "tl.reduce_or";
  auto a =
      em.bind(c, {"input", isXor ? "axis=None" : "axis", "keep_dims=False"});
  SourceLoc l = c.loc;
  TValue x = singleInput(em, a, fn);
  if (!x.dtype.isInt())
    em.error(a.loc("input"),
             fn + " only supports integers, got " + x.typeStr());
  bool keep =
      em.requireBool(a.get("keep_dims"), a.loc("keep_dims"), "keep_dims");
  auto body = [&em, isXor, l](std::vector<TValue> &x, std::vector<TValue> &y) {
    return std::vector<TValue>{
        em.binary(isXor ? BinOpKind::BitXor : BinOpKind::BitOr, x[0], y[0], l)};
  };
  return reduceValues(em, {x}, a.get("axis"), a.loc("axis"), keep, l, fn,
                      builtinCombine(em, l, false, body))[0];
}

static TValue cumFn(Emitter &em, CallArgs &c, bool isSum) {
  std::string fn = isSum ? "tl.cumsum" : "tl.cumprod";
  auto a = isSum
               ? em.bind(c, {"input", "axis=0", "reverse=False", "dtype=None"})
               : em.bind(c, {"input", "axis=0", "reverse=False"});
  SourceLoc l = c.loc;
  TValue x = bf16ToF32(em, singleInput(em, a, fn), l);
  if (isSum)
    x = widenForSum(em, x, a, l);
  bool rev = em.requireBool(a.get("reverse"), a.loc("reverse"), "reverse");
  auto body = [&em, isSum, l](std::vector<TValue> &x, std::vector<TValue> &y) {
    return std::vector<TValue>{
        em.binary(isSum ? BinOpKind::Add : BinOpKind::Mul, x[0], y[0], l)};
  };
  return scanValues(em, {x}, a.get("axis"), a.loc("axis"), rev, l, fn,
                    builtinCombine(em, l, true, body))[0];
}

//===----------------------------------------------------------------------===//
// sort, topk, flip, gather, histogram
//===----------------------------------------------------------------------===//

/// Triton sorts only along the minor dimension: `dim` must be None or
/// rank-1 (standard.py static_asserts `_dim == len(x.shape) - 1`, so -1 is
/// refused as well).
static int64_t minorDim(Emitter &em, const BoundArgs &a, const TValue &x,
                        const std::string &fn) {
  int64_t last = int64_t(x.shape.size()) - 1;
  if (!a.has("dim"))
    return last;
  int64_t d = em.requireInt(a.get("dim"), a.loc("dim"), fn + " dim");
  if (d != last)
    em.error(a.loc("dim"),
             fn +
                 " only supports the minor dimension: dim must be "
                 "None or " +
                 std::to_string(last) + ", got " + std::to_string(d));
  return d;
}

/// tile.sort compares integers as signed (the IR is signless). Unsigned
/// blocks are sorted with the sign bit flipped, which maps unsigned order
/// onto signed order, and flipped back.
static Value sortAlong(Emitter &em, Location L, const TValue &x, int64_t dim,
                       bool desc) {
  if (!x.dtype.isUnsigned())
    return tile::SortOp::create(em.b, L, x.v, uint32_t(dim), desc);
  Value bit = em.constInt(x.dtype, int64_t(uint64_t(1) << (x.dtype.bits() - 1)),
                          x.shape);
  Value flipped = arith::XOrIOp::create(em.b, L, x.v, bit);
  Value sorted = tile::SortOp::create(em.b, L, flipped, uint32_t(dim), desc);
  return arith::XOrIOp::create(em.b, L, sorted, bit);
}

static TValue sortFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "dim=None", "descending=False"});
  TValue x = requireBlock(em, a.get("x"), a.loc("x"), "tl.sort x");
  if (x.shape.empty())
    em.error(a.loc("x"), "tl.sort needs a block, got " + x.typeStr());
  int64_t dim = minorDim(em, a, x, "tl.sort");
  bool desc =
      em.requireBool(a.get("descending"), a.loc("descending"), "descending");
  Value r = sortAlong(em, em.loc(c.loc), x, dim, desc);
  return TValue::tensor(r, x.dtype, x.shape);
}

/// topk = the first k of a descending sort along the minor dimension, which
/// is what Triton's bitonic top-k returns (sorted, largest first).
static TValue topkFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "k", "dim=None"});
  TValue x = requireBlock(em, a.get("x"), a.loc("x"), "tl.topk x");
  if (x.shape.empty())
    em.error(a.loc("x"), "tl.topk needs a block, got " + x.typeStr());
  int64_t dim = minorDim(em, a, x, "tl.topk");
  int64_t k = em.requireInt(a.get("k"), a.loc("k"), "tl.topk k");
  if (k <= 0 || (k & (k - 1)) || k > x.shape[dim])
    em.error(a.loc("k"), "tl.topk: k must be a power of two no larger than " +
                             std::to_string(x.shape[dim]) + ", got " +
                             std::to_string(k));
  Location L = em.loc(c.loc);
  Value sorted = sortAlong(em, L, x, dim, true);
  std::vector<int64_t> shape = x.shape;
  shape[dim] = k;
  TValue idx = em.broadcastTo(
      rangeAlong(em, k, size_t(dim), shape.size(), c.loc), shape, c.loc);
  Value r = tile::GatherOp::create(em.b, L, em.irType(x.dtype, shape), sorted,
                                   idx.v, uint32_t(dim));
  return TValue::tensor(r, x.dtype, shape);
}

/// flip: gather with index (N-1) - j along `dim` (Triton swaps through an
/// xor_sum butterfly; the result is the same permutation).
static TValue flipFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "dim=None"});
  TValue x = requireBlock(em, a.get("x"), a.loc("x"), "tl.flip x");
  if (x.shape.empty())
    em.error(a.loc("x"), "tl.flip needs a block, got " + x.typeStr());
  int64_t dim = a.has("dim") ? wrapAxis(em, a.get("dim"), x.shape.size(),
                                        a.loc("dim"), "tl.flip", "dim")
                             : int64_t(x.shape.size()) - 1;
  int64_t n = x.shape[dim];
  TValue j = rangeAlong(em, n, size_t(dim), x.shape.size(), c.loc);
  TValue idx = em.binary(BinOpKind::Sub, TValue::integer(n - 1), j, c.loc);
  idx = em.broadcastTo(idx, x.shape, c.loc);
  Value r = tile::GatherOp::create(em.b, em.loc(c.loc), x.v.getType(), x.v,
                                   idx.v, uint32_t(dim));
  return TValue::tensor(r, x.dtype, x.shape);
}

static TValue gatherFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"src", "index", "axis"});
  TValue src = requireBlock(em, a.get("src"), a.loc("src"), "tl.gather src");
  TValue idx =
      requireBlock(em, a.get("index"), a.loc("index"), "tl.gather index");
  if (!idx.dtype.isInt() || idx.dtype.isBool())
    em.error(a.loc("index"),
             "tl.gather index must be an integer tensor, got " + idx.typeStr());
  if (src.shape.empty() || idx.shape.size() != src.shape.size())
    em.error(c.loc,
             "tl.gather: source and index must be blocks of one rank, got " +
                 src.typeStr() + " and " + idx.typeStr());
  int64_t axis =
      wrapAxis(em, a.get("axis"), src.shape.size(), a.loc("axis"), "tl.gather");
  for (size_t d = 0; d < src.shape.size(); ++d)
    if (int64_t(d) != axis && src.shape[d] != idx.shape[d])
      em.error(c.loc, "tl.gather: index dimension " + std::to_string(d) + " (" +
                          std::to_string(idx.shape[d]) +
                          ") must match the source's (" +
                          std::to_string(src.shape[d]) +
                          ") except along axis " + std::to_string(axis));
  Value r = tile::GatherOp::create(em.b, em.loc(c.loc),
                                   em.irType(src.dtype, idx.shape), src.v,
                                   idx.v, uint32_t(axis));
  return TValue::tensor(r, src.dtype, idx.shape);
}

static TValue histogramFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "num_bins", "mask=None"});
  TValue x =
      requireBlock(em, a.get("input"), a.loc("input"), "tl.histogram input");
  if (x.shape.size() != 1)
    em.error(a.loc("input"),
             "tl.histogram only supports 1-D input, got " + x.typeStr());
  if (!x.dtype.isInt())
    em.error(a.loc("input"),
             "tl.histogram only supports integer input, got " + x.typeStr());
  int64_t bins =
      em.requireInt(a.get("num_bins"), a.loc("num_bins"), "num_bins");
  if (bins <= 0 || (bins & (bins - 1)))
    em.error(a.loc("num_bins"),
             "tl.histogram: num_bins must be a power of two, got " +
                 std::to_string(bins));
  em.checkBlockShape({bins}, a.loc("num_bins"));
  Value mask;
  if (a.has("mask")) {
    TValue m = em.broadcastTo(a.get("mask"), x.shape, a.loc("mask"));
    if (!m.dtype.isBool())
      em.error(a.loc("mask"),
               "tl.histogram mask must have boolean scalar type, got " +
                   m.typeStr());
    mask = m.v;
  }
  Value r = tile::HistogramOp::create(em.b, em.loc(c.loc),
                                      em.irType(DType::I32, {bins}), x.v, mask);
  return TValue::tensor(r, DType::I32, {bins});
}

void tritium::fe::registerReduceBuiltins(BuiltinTable &t) {
  t["tl.reduce"] = reduceFn;
  t["tl.associative_scan"] = scanFn;
  t["tl.sum"] = sumFn;
  t["tl.max"] = [](Emitter &em, CallArgs &c) { return maxMinFn(em, c, true); };
  t["tl.min"] = [](Emitter &em, CallArgs &c) { return maxMinFn(em, c, false); };
  t["tl.argmax"] = [](Emitter &em, CallArgs &c) { return argFn(em, c, true); };
  t["tl.argmin"] = [](Emitter &em, CallArgs &c) { return argFn(em, c, false); };
  t["tl.xor_sum"] = [](Emitter &em, CallArgs &c) {
    return bitReduceFn(em, c, true);
  };
  t["tl.reduce_or"] = [](Emitter &em, CallArgs &c) {
    return bitReduceFn(em, c, false);
  };
  t["tl.cumsum"] = [](Emitter &em, CallArgs &c) { return cumFn(em, c, true); };
  t["tl.cumprod"] = [](Emitter &em, CallArgs &c) {
    return cumFn(em, c, false);
  };
  t["tl.sort"] = sortFn;
  t["tl.topk"] = topkFn;
  t["tl.flip"] = flipFn;
  t["tl.gather"] = gatherFn;
  t["tl.histogram"] = histogramFn;
  for (const char *n :
       {"reduce", "associative_scan", "sum", "max", "min", "argmax", "argmin",
        "xor_sum", "reduce_or", "cumsum", "cumprod", "sort", "topk", "flip",
        "gather", "histogram"})
    t[std::string("tensor.") + n] = t.at(std::string("tl.") + n);
}

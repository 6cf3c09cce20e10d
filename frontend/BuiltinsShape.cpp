//===- BuiltinsShape.cpp - reshape, trans, expand_dims, join, cat, ... ----===//
//
// Shape manipulation builtins and their tensor-method spellings. Shapes must
// stay powers of two; element order is row-major throughout (tritium keeps it
// even where Triton allows reordering).
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

#include <numeric>

using namespace tritium::fe;
using namespace mlir;

static int64_t numel(const std::vector<int64_t> &s) {
  return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<>());
}

static std::string shapeStr(const std::vector<int64_t> &s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

static TValue reshapeTo(Emitter &em, const TValue &x, const std::vector<int64_t> &shape,
                        bool reorder, SourceLoc l) {
  if (numel(shape) != numel(x.shape))
    em.error(l, "cannot reshape " + x.typeStr() + " (" + std::to_string(numel(x.shape)) +
                    " elements) to " + shapeStr(shape) + " (" +
                    std::to_string(numel(shape)) + " elements)");
  if (shape == x.shape)
    return x;
  if (shape.empty())
    return TValue::tensor(tile::UnsplatOp::create(em.b, em.loc(l), x.v), x.dtype, {});
  em.checkBlockShape(shape, l);
  if (x.shape.empty())
    return em.splatTo(x, shape);
  Value r = tile::ReshapeOp::create(
      em.b, em.loc(l), mlir::cast<RankedTensorType>(em.irType(x.dtype, shape)), x.v, reorder);
  return TValue::tensor(r, x.dtype, shape);
}

static TValue reshape(Emitter &em, CallArgs &c, bool view) {
  auto a = em.bind(c, {"input", "shape=None", "*shape", "can_reorder=False"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  auto shape = shapeArgs(em, a, "shape", c.loc);
  bool reorder = view || em.requireBool(a.get("can_reorder"), a.loc("can_reorder"),
                                        "can_reorder");
  return reshapeTo(em, x, shape, reorder, c.loc);
}

static TValue permute(Emitter &em, const TValue &x, std::vector<int64_t> order,
                      SourceLoc l, const std::string &name) {
  if (x.shape.empty())
    em.error(l, name + " needs a block, got the scalar " + x.typeStr());
  size_t r = x.shape.size();
  if (order.size() != r)
    em.error(l, "permutation " + shapeStr(order) + " does not match a block of rank " +
                    std::to_string(r));
  std::vector<bool> seen(r, false);
  std::vector<int64_t> shape;
  SmallVector<int32_t> ord;
  for (int64_t o : order) {
    if (o < 0 || o >= int64_t(r) || seen[o])
      em.error(l, shapeStr(order) + " is not a permutation of the block's dimensions");
    seen[o] = true;
    shape.push_back(x.shape[o]);
    ord.push_back(int32_t(o));
  }
  Value v = tile::TransOp::create(em.b, em.loc(l), x.v, ord);
  return TValue::tensor(v, x.dtype, shape);
}

static TValue trans(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "*dims"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  std::vector<int64_t> dims = shapeArgs(em, a, "dims", c.loc);
  if (dims.empty()) {
    if (x.shape.size() < 2)
      em.error(c.loc, "tl.trans with no dims needs a block of rank >= 2, got " +
                          x.typeStr());
    for (size_t i = 0; i < x.shape.size(); ++i)
      dims.push_back(int64_t(i));
    std::swap(dims[dims.size() - 1], dims[dims.size() - 2]);
  }
  return permute(em, x, dims, c.loc, c.name);
}

static TValue permuteFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "*dims"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  std::vector<int64_t> dims = shapeArgs(em, a, "dims", c.loc);
  return permute(em, x, dims, c.loc, c.name);
}

static TValue expandDims(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "axis"});
  TValue x = em.toTensor(a.get("input"), a.loc("input"));
  auto axes = em.requireShape(a.get("axis"), a.loc("axis"), "axis");
  int64_t newRank = int64_t(x.shape.size() + axes.size());
  for (auto &ax : axes) {
    int64_t given = ax;
    if (ax < 0)
      ax += newRank;
    if (ax < 0 || ax >= newRank)
      em.error(a.loc("axis"), "invalid axis " + std::to_string(given) +
                                  ": out of range for a result of rank " +
                                  std::to_string(newRank));
  }
  std::vector<int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    std::string list;
    for (int64_t ax : axes)
      list += (list.empty() ? "" : ", ") + std::to_string(ax);
    em.error(a.loc("axis"), "expand_dims received duplicate axes, normalized axes = [" +
                                list + "]");
  }
  axes = sorted;
  TValue v = x;
  for (int64_t ax : axes) {
    std::vector<int64_t> shape = v.shape;
    shape.insert(shape.begin() + ax, 1);
    if (v.shape.empty()) {
      v = em.splatTo(v, shape);
      continue;
    }
    Value r = tile::ExpandDimsOp::create(em.b, em.loc(c.loc), v.v, int32_t(ax));
    v = TValue::tensor(r, v.dtype, shape);
  }
  return v;
}

static TValue squeeze(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "dim"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  int64_t d = em.requireInt(a.get("dim"), a.loc("dim"), "dim");
  int64_t r = int64_t(x.shape.size());
  if (d < 0) d += r;
  if (d < 0 || d >= r || x.shape[d] != 1)
    em.error(a.loc("dim"), "squeeze needs a dimension of size 1; " + x.typeStr() +
                               " has none at " + std::to_string(d));
  auto shape = x.shape;
  shape.erase(shape.begin() + d);
  return reshapeTo(em, x, shape, false, c.loc);
}

static TValue broadcastFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "other"});
  TValue x = a.get("input"), y = a.get("other");
  em.broadcastPair(x, y, c.loc);
  return TValue::tuple({x, y});
}

static TValue broadcastToFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "shape=None", "*shape"});
  auto shape = shapeArgs(em, a, "shape", c.loc);
  em.checkBlockShape(shape, c.loc);
  return em.broadcastTo(a.get("input"), shape, c.loc);
}

static TValue joinValues(Emitter &em, TValue x, TValue y, SourceLoc l) {
  em.broadcastPair(x, y, l);
  if (x.dtype != y.dtype)
    em.error(l, "tl.join needs operands of one dtype, got " + x.dtype.name() +
                    " and " + y.dtype.name());
  bool scalar = x.shape.empty();
  if (scalar) {
    x = em.splatTo(x, {1});
    y = em.splatTo(y, {1});
  }
  std::vector<int64_t> shape = x.shape;
  shape.push_back(2);
  Value v = tile::JoinOp::create(em.b, em.loc(l), x.v, y.v);
  TValue r = TValue::tensor(v, x.dtype, shape);
  if (scalar)
    r = reshapeTo(em, r, {2}, false, l);
  return r;
}

static TValue join(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"a", "b"});
  return joinValues(em, em.toTensor(a.get("a"), a.loc("a")),
                    em.toTensor(a.get("b"), a.loc("b")), c.loc);
}

static TValue split(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"a"});
  TValue x = requireBlock(em, a.get("a"), a.loc("a"), "a");
  if (x.shape.empty() || x.shape.back() != 2)
    em.error(c.loc, "tl.split needs a block whose last dimension is 2, got " + x.typeStr());
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 1);
  auto op = tile::SplitOp::create(em.b, em.loc(c.loc), x.v);
  return TValue::tuple({TValue::tensor(op.getOutLHS(), x.dtype, shape),
                        TValue::tensor(op.getOutRHS(), x.dtype, shape)});
}

static TValue interleave(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"a", "b"});
  TValue j = joinValues(em, em.toTensor(a.get("a"), a.loc("a")),
                        em.toTensor(a.get("b"), a.loc("b")), c.loc);
  std::vector<int64_t> shape = j.shape;
  if (shape.size() >= 2) {
    shape.pop_back();
    shape.back() *= 2;
  }
  return reshapeTo(em, j, shape, false, c.loc);
}

static TValue cat(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "other", "can_reorder=False", "dim=0"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  TValue y = requireBlock(em, a.get("other"), a.loc("other"), "other");
  if (x.shape.empty() || x.shape != y.shape || x.dtype != y.dtype)
    em.error(c.loc, "tl.cat needs two blocks of one shape and dtype, got " +
                        x.typeStr() + " and " + y.typeStr());
  int64_t dim = em.requireInt(a.get("dim"), a.loc("dim"), "dim");
  if (dim < 0) dim += int64_t(x.shape.size());
  if (dim < 0 || dim >= int64_t(x.shape.size()))
    em.error(a.loc("dim"), "dim out of range for " + x.typeStr());
  auto shape = x.shape;
  shape[dim] *= 2;
  em.checkBlockShape(shape, c.loc);
  Value v = tile::CatOp::create(em.b, em.loc(c.loc),
                                mlir::cast<RankedTensorType>(em.irType(x.dtype, shape)), x.v,
                                y.v, uint32_t(dim));
  return TValue::tensor(v, x.dtype, shape);
}

static TValue ravel(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "can_reorder=False"});
  TValue x = requireBlock(em, a.get("x"), a.loc("x"), "x");
  return reshapeTo(em, x, {numel(x.shape)}, false, c.loc);
}

/// x.item(): the only element of a one-element tensor, as a scalar.
static TValue item(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "item");
  if (x.shape.empty())
    return x;
  if (numel(x.shape) != 1)
    em.error(c.loc, "item() needs a tensor of one element, got " + x.typeStr());
  return reshapeTo(em, x, {}, false, c.loc);
}

void tritium::fe::registerShapeBuiltins(BuiltinTable &t) {
  t["tensor.item"] = item;
  t["tl.reshape"] = [](Emitter &em, CallArgs &c) { return reshape(em, c, false); };
  t["tl.view"] = [](Emitter &em, CallArgs &c) { return reshape(em, c, true); };
  t["tl.trans"] = trans;
  t["tl.permute"] = permuteFn;
  t["tl.expand_dims"] = expandDims;
  t["tl.unsqueeze"] = expandDims;
  t["tl.squeeze"] = squeeze;
  t["tl.broadcast"] = broadcastFn;
  t["tl.broadcast_to"] = broadcastToFn;
  t["tl.join"] = join;
  t["tl.split"] = split;
  t["tl.interleave"] = interleave;
  t["tl.cat"] = cat;
  t["tl.ravel"] = ravel;
  alias(t, "tl.reshape", {"tensor.reshape"});
  alias(t, "tl.view", {"tensor.view"});
  alias(t, "tl.trans", {"tensor.trans"});
  alias(t, "tl.permute", {"tensor.permute"});
  alias(t, "tl.expand_dims", {"tensor.expand_dims"});
  alias(t, "tl.broadcast_to", {"tensor.broadcast_to"});
  alias(t, "tl.ravel", {"tensor.ravel"});
  alias(t, "tl.split", {"tensor.split"});
}

//===- Builtins.cpp - the tl.* table: creation, memory, shapes, dot -------===//
//
// Each entry binds its arguments by Triton's parameter names (so keyword
// calls and error messages match Triton's API), checks them, and emits tile
// IR. Families with more code live in their own files (BuiltinsReduce.cpp,
// BuiltinsMath.cpp, BuiltinsMisc.cpp); this file holds the table and the ops
// nearly every kernel uses.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

#include <algorithm>

#include <cmath>

using namespace tritium::fe;
using namespace mlir;

const std::unordered_map<std::string, BuiltinFn> &tritium::fe::builtinTable() {
  static const auto table = [] {
    std::unordered_map<std::string, BuiltinFn> t;
    registerCoreBuiltins(t);
    registerShapeBuiltins(t);
    registerReduceBuiltins(t);
    registerMathBuiltins(t);
    registerMiscBuiltins(t);
    registerRandomBuiltins(t);
    registerAtomicBuiltins(t);
    registerDescriptorBuiltins(t);
    return t;
  }();
  return table;
}

TValue tritium::fe::callBuiltin(Emitter &em, const std::string &name,
                               std::vector<TValue> args, SourceLoc l) {
  auto &table = builtinTable();
  auto it = table.find(name);
  if (it == table.end())
    em.error(l, "'" + name + "' is not supported");
  CallArgs c;
  c.loc = l;
  c.name = name;
  c.args = std::move(args);
  c.argLocs.assign(c.args.size(), l);
  return it->second(em, c);
}

void tritium::fe::alias(BuiltinTable &t, const std::string &to,
                        std::initializer_list<const char *> names) {
  for (const char *n : names)
    t[n] = t.at(to);
}

std::vector<int64_t> tritium::fe::shapeArgs(Emitter &em, const BoundArgs &a,
                                            const std::string &name,
                                            SourceLoc l) {
  // f(x, (4, 8)), f(x, 4, 8) and f(x, [4, 8]) all name the same shape.
  std::vector<int64_t> shape;
  if (a.has(name)) {
    shape = em.requireShape(a.get(name), l, name);
  }
  for (auto &v : a.varargs()) {
    auto more = em.requireShape(v, l, name);
    shape.insert(shape.end(), more.begin(), more.end());
  }
  return shape;
}

TValue tritium::fe::requireBlock(Emitter &em, const TValue &v, SourceLoc l,
                                 const std::string &what) {
  if (!v.isTensor())
    em.error(l, what + " must be a tensor, got " + v.typeStr());
  return v;
}

//===----------------------------------------------------------------------===//
// Program ids, creation
//===----------------------------------------------------------------------===//

static TValue programAxis(Emitter &em, CallArgs &c, bool num) {
  auto a = em.bind(c, {"axis"});
  int64_t axis = em.requireInt(a.get("axis"), a.loc("axis"), "axis");
  if (axis < 0 || axis > 2)
    em.error(a.loc("axis"), std::string(num ? "num_programs" : "program_id") +
                                " axis must be 0, 1, or 2 but got " + std::to_string(axis));
  auto dim = tile::ProgramDim(axis);
  Value v = num ? Value(tile::GetNumProgramsOp::create(em.b, em.loc(c.loc),
                                                       em.b.getI32Type(), dim))
                : Value(tile::GetProgramIdOp::create(em.b, em.loc(c.loc),
                                                     em.b.getI32Type(), dim));
  return TValue::tensor(v, DType::I32, {});
}

static TValue arange(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"start", "end"});
  int64_t start = em.requireInt(a.get("start"), a.loc("start"), "arange start");
  int64_t end = em.requireInt(a.get("end"), a.loc("end"), "arange end");
  // As in Triton, bounds are non-negative int32 values.
  if (start < 0 || start > INT32_MAX || end < 0 || end > INT32_MAX)
    em.error(c.loc, "arange bounds must be non-negative and fit in int32, got " +
                        std::to_string(start) + " and " + std::to_string(end));
  if (end <= start)
    em.error(c.loc, "arange end (" + std::to_string(end) +
                        ") must be greater than start (" + std::to_string(start) + ")");
  int64_t n = end - start;
  if (n & (n - 1))
    em.error(c.loc, "arange's range must be a power of two, got " +
                        std::to_string(end) + " - " + std::to_string(start) +
                        " = " + std::to_string(n));
  em.checkBlockShape({n}, c.loc);
  auto type = RankedTensorType::get({n}, em.b.getI32Type());
  Value v = tile::MakeRangeOp::create(em.b, em.loc(c.loc), type, int32_t(start),
                                      int32_t(end));
  return TValue::tensor(v, DType::I32, {n});
}

TValue tritium::fe::fullOf(Emitter &em, const std::vector<int64_t> &shape,
                           const TValue &value, DType d, SourceLoc l) {
  em.checkBlockShape(shape, l);
  em.cur = l;
  if (value.isTensor()) {
    if (!value.shape.empty())
      em.error(l, "tl.full needs a scalar value, got " + value.typeStr());
    return em.splatTo(em.cast(value, d, l), shape);
  }
  if (d.isFloat() && !d.isFP8()) {
    double x = value.kind == TValue::Float ? value.f
               : value.kind == TValue::Bool ? double(value.b) : double(value.i);
    return TValue::tensor(em.constFloat(d, x, shape), d, shape);
  }
  if (d.isInt() && value.kind != TValue::Float) {
    int64_t x = value.kind == TValue::Bool ? value.b : value.i;
    return TValue::tensor(em.constInt(d, x, shape), d, shape);
  }
  return em.splatTo(em.cast(em.toTensor(value, l), d, l), shape);
}

static TValue full(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"shape", "value", "dtype"});
  auto shape = em.requireShape(a.get("shape"), a.loc("shape"), "shape");
  DType d = em.requireDType(a.get("dtype"), a.loc("dtype"), "dtype");
  return fullOf(em, shape, a.get("value"), d, c.loc);
}

static TValue zeros(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"shape", "dtype"});
  auto shape = em.requireShape(a.get("shape"), a.loc("shape"), "shape");
  DType d = em.requireDType(a.get("dtype"), a.loc("dtype"), "dtype");
  return fullOf(em, shape, TValue::integer(0), d, c.loc);
}

static TValue zerosLike(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "dtype=None"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  DType d = a.has("dtype") ? em.requireDType(a.get("dtype"), a.loc("dtype"), "dtype")
                           : x.dtype;
  if (x.shape.empty())
    return em.cast(em.toTensor(TValue::integer(0), c.loc), d, c.loc);
  return fullOf(em, x.shape, TValue::integer(0), d, c.loc);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static std::optional<tile::CacheModifier> cacheModifier(Emitter &em, const TValue &v,
                                                        SourceLoc l, bool store) {
  std::string s = em.requireStr(v, l, "cache_modifier");
  if (s.empty())
    return std::nullopt;
  static const std::pair<const char *, tile::CacheModifier> loads[] = {
      {".ca", tile::CacheModifier::CA}, {".cg", tile::CacheModifier::CG},
      {".cv", tile::CacheModifier::CV}};
  static const std::pair<const char *, tile::CacheModifier> stores[] = {
      {".wb", tile::CacheModifier::WB}, {".cg", tile::CacheModifier::CG},
      {".cs", tile::CacheModifier::CS}, {".wt", tile::CacheModifier::WT}};
  if (store) {
    for (auto &[n, m] : stores)
      if (s == n) return m;
    em.error(l, "store cache_modifier must be one of .wb, .cg, .cs, .wt; got '" + s + "'");
  }
  for (auto &[n, m] : loads)
    if (s == n) return m;
  em.error(l, "load cache_modifier must be one of .ca, .cg, .cv; got '" + s + "'");
}

static std::optional<tile::EvictionPolicy> evictionPolicy(Emitter &em, const TValue &v,
                                                          SourceLoc l) {
  std::string s = em.requireStr(v, l, "eviction_policy");
  if (s.empty() || s == "evict_normal")
    return std::nullopt;
  if (s == "evict_first")
    return tile::EvictionPolicy::EvictFirst;
  if (s == "evict_last")
    return tile::EvictionPolicy::EvictLast;
  em.error(l, "eviction_policy must be 'evict_first' or 'evict_last', got '" + s + "'");
}

/// Pointer tensor and mask of a block pointer: base + Σ (off_d + arange) *
/// stride_d, with `0 <= coord < shape_d` for each boundary-checked dim.
/// Written as a scalar part and a tensor part, base + Σ off_d * stride_d
/// plus Σ arange_d * stride_d, with `-off_d <= arange_d < shape_d - off_d`:
/// the same addresses and mask (in 64-bit arithmetic), but in a loop that
/// advances the offsets only the scalars change, so each element costs one
/// addition of a loop-invariant offset instead of a 64-bit multiply per
/// row (a [K, N] tile of a row-major B has one row per k).
static std::pair<TValue, TValue> materializeBlockPtr(Emitter &em, const BlockPtr &bp,
                                                     const TValue &boundary,
                                                     SourceLoc l) {
  size_t rank = bp.blockShape.size();
  std::vector<int64_t> checked;
  if (boundary.kind == TValue::Tuple)
    for (auto &e : boundary.elems)
      checked.push_back(em.requireInt(e, l, "boundary_check entries"));
  else if (boundary.kind == TValue::Int)
    checked.push_back(boundary.i);
  for (int64_t d : checked)
    if (d < 0 || d >= int64_t(rank))
      em.error(l, "boundary_check dimension " + std::to_string(d) +
                      " out of range for a block of rank " + std::to_string(rank));
  TValue base = bp.base;
  TValue offsets; // Σ arange_d * stride_d, broadcast along the dims so far
  TValue mask;
  std::vector<int64_t> shape = bp.blockShape;
  for (size_t d = 0; d < rank; ++d) {
    TValue off = em.cast(bp.offsets[d], DType::I64, l);
    TValue stride = em.cast(bp.strides[d], DType::I64, l);
    base = em.binary(BinOpKind::Add, base, em.binary(BinOpKind::Mul, off, stride, l), l);
    // arange(0, B_d) in i64, shaped to broadcast along d.
    TValue r = em.cast(
        callBuiltin(em, "tl.arange", {TValue::integer(0), TValue::integer(shape[d])}, l),
        DType::I64, l);
    std::vector<int64_t> s(rank, 1);
    s[d] = shape[d];
    if (s != r.shape) {
      Value rs = tile::ReshapeOp::create(
          em.b, em.loc(l), mlir::cast<RankedTensorType>(em.irType(DType::I64, s)), r.v);
      r = TValue::tensor(rs, DType::I64, s);
    }
    TValue part = em.binary(BinOpKind::Mul, r, stride, l);
    offsets = offsets.kind == TValue::Undefined ? part
                                                : em.binary(BinOpKind::Add, offsets, part, l);
    if (std::find(checked.begin(), checked.end(), int64_t(d)) != checked.end()) {
      // 0 <= off + r < shape  <=>  -off <= r < shape - off (off is a 32-bit
      // value, r a small one: no overflow on either side).
      TValue zero = em.cast(TValue::integer(0), DType::I64, l);
      TValue lo = em.compare(CmpOpKind::Ge, r, em.binary(BinOpKind::Sub, zero, off, l), l);
      TValue hi = em.compare(
          CmpOpKind::Lt, r,
          em.binary(BinOpKind::Sub, em.cast(bp.shape[d], DType::I64, l), off, l), l);
      TValue in = em.logical(BoolOpKind::And, lo, hi, l);
      mask = mask.kind == TValue::Undefined ? in : em.logical(BoolOpKind::And, mask, in, l);
    }
  }
  TValue ptr = em.binary(BinOpKind::Add, base, offsets, l);
  ptr = em.broadcastTo(ptr, shape, l);
  if (mask.kind != TValue::Undefined)
    mask = em.broadcastTo(mask, shape, l);
  return {ptr, mask};
}

static TValue load(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"pointer", "mask=None", "other=None", "boundary_check=()",
                       "padding_option=", "cache_modifier=", "eviction_policy=",
                       "volatile=False"});
  SourceLoc l = c.loc;
  TValue ptr = a.get("pointer");
  TValue mask = a.get("mask"), other = a.get("other");
  bool hasMask = a.has("mask"), hasOther = a.has("other");
  std::string padding = em.requireStr(a.get("padding_option"), a.loc("padding_option"),
                                      "padding_option");
  if (ptr.kind == TValue::BlockPointer) {
    if (hasMask || hasOther)
      em.error(l, "mask and other are not allowed with block pointers; use "
                  "boundary_check and padding_option");
    if (!padding.empty() && padding != "zero" && padding != "nan")
      em.error(a.loc("padding_option"), "padding_option must be 'zero' or 'nan', got '" +
                                            padding + "'");
    auto [p, m] = materializeBlockPtr(em, *ptr.bp, a.get("boundary_check"), l);
    ptr = p;
    if (m.kind != TValue::Undefined) {
      mask = m;
      hasMask = true;
      DType elem = ptr.dtype.pointee();
      if (padding == "nan") {
        if (!elem.isFloat())
          em.error(a.loc("padding_option"), "padding_option='nan' needs a float block");
        other = TValue::floating(NAN);
        hasOther = true;
      } else if (padding == "zero") {
        other = TValue::integer(0);
        hasOther = true;
      }
    }
  } else {
    if (!padding.empty() || (a.get("boundary_check").kind == TValue::Tuple &&
                             !a.get("boundary_check").elems.empty()))
      em.error(l, "boundary_check and padding_option are only for block pointers "
                  "(tl.make_block_ptr); use mask and other");
  }
  if (!ptr.isTensor() || !ptr.dtype.isPtr())
    em.error(a.loc("pointer"), "tl.load needs a pointer or a block of pointers, got " +
                                   ptr.typeStr());
  if (hasOther && !hasMask)
    em.error(a.loc("other"), "'other' cannot be given without 'mask'");
  std::vector<int64_t> shape = ptr.shape;
  if (hasMask) {
    mask = em.toTensor(mask, a.loc("mask"));
    if (!mask.dtype.isBool())
      em.error(a.loc("mask"), c.name + " needs a boolean mask, got " + mask.typeStr());
    if (ptr.shape.empty() && !mask.shape.empty())
      em.error(a.loc("mask"), "mask is a block (" + mask.typeStr() +
                                  ") but the pointer is a scalar pointer; "
                                  "make the pointer a block (e.g. ptr + offsets)");
    shape = em.broadcastShapes(shape, mask.shape, a.loc("mask"));
    mask = em.broadcastTo(mask, shape, a.loc("mask"));
  }
  ptr = em.broadcastTo(ptr, shape, l);
  DType elem = ptr.dtype.pointee();
  // Booleans live in memory as int8.
  DType memElem = elem.isBool() ? DType(DType::I8) : elem;
  if (elem.isBool())
    ptr = em.cast(ptr, memElem.pointerTo(), l);
  if (hasOther) {
    other = em.toTensor(other, a.loc("other"));
    other = em.broadcastTo(em.cast(other, memElem, a.loc("other")), shape, a.loc("other"));
  }
  auto cache = cacheModifier(em, a.get("cache_modifier"), a.loc("cache_modifier"), false);
  auto evict = evictionPolicy(em, a.get("eviction_policy"), a.loc("eviction_policy"));
  bool vol = em.requireBool(a.get("volatile"), a.loc("volatile"), "volatile");
  em.cur = l;
  auto op = tile::LoadOp::create(
      em.b, em.loc(l), ptr.v, hasMask ? mask.v : Value(), hasOther ? other.v : Value(),
      cache ? tile::CacheModifierAttr::get(&em.ctx, *cache) : tile::CacheModifierAttr(),
      evict ? tile::EvictionPolicyAttr::get(&em.ctx, *evict) : tile::EvictionPolicyAttr(),
      vol);
  TValue r = TValue::tensor(op.getResult(), memElem, shape);
  if (elem.isBool())
    r = em.cast(r, DType::I1, l);
  return r;
}

static TValue store(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"pointer", "value", "mask=None", "boundary_check=()",
                       "cache_modifier=", "eviction_policy="});
  SourceLoc l = c.loc;
  TValue ptr = a.get("pointer");
  TValue mask = a.get("mask");
  bool hasMask = a.has("mask");
  if (ptr.kind == TValue::BlockPointer) {
    if (hasMask)
      em.error(l, "mask is not allowed with block pointers; use boundary_check");
    auto [p, m] = materializeBlockPtr(em, *ptr.bp, a.get("boundary_check"), l);
    ptr = p;
    if (m.kind != TValue::Undefined) {
      mask = m;
      hasMask = true;
    }
  }
  if (!ptr.isTensor() || !ptr.dtype.isPtr())
    em.error(a.loc("pointer"), "tl.store needs a pointer or a block of pointers, got " +
                                   ptr.typeStr());
  if (ptr.dtype.isConst)
    em.error(a.loc("pointer"), "Cannot store to a constant pointer (" +
                                   ptr.dtype.sigName() + ")");
  TValue value = em.toTensor(a.get("value"), a.loc("value"));
  std::vector<int64_t> shape = ptr.shape;
  if (hasMask) {
    mask = em.toTensor(mask, a.loc("mask"));
    if (!mask.dtype.isBool())
      em.error(a.loc("mask"), c.name + " needs a boolean mask, got " + mask.typeStr());
    shape = em.broadcastShapes(shape, mask.shape, a.loc("mask"));
  }
  if (ptr.shape.empty() && (!value.shape.empty() || (hasMask && !mask.shape.empty())))
    em.error(!value.shape.empty() ? a.loc("value") : a.loc("mask"),
             std::string(!value.shape.empty() ? "value" : "mask") +
                 " is a block (" + (!value.shape.empty() ? value : mask).typeStr() +
                 ") but the pointer is a scalar pointer; make the pointer a "
                 "block (e.g. ptr + offsets)");
  ptr = em.broadcastTo(ptr, shape, l);
  if (hasMask)
    mask = em.broadcastTo(mask, shape, a.loc("mask"));
  DType elem = ptr.dtype.pointee();
  DType memElem = elem.isBool() ? DType(DType::I8) : elem;
  if (elem.isBool())
    ptr = em.cast(ptr, memElem.pointerTo(), l);
  // Pointers stored through 64-bit integer pointers are their addresses.
  if (value.dtype.isPtr() && memElem.isInt() && memElem.bits() == 64)
    value = em.cast(value, memElem, a.loc("value"));
  if (value.dtype.isPtr() != memElem.isPtr())
    em.error(a.loc("value"), "cannot store " + value.typeStr() + " through " +
                                 a.get("pointer").typeStr());
  value = em.broadcastTo(em.cast(value, memElem, a.loc("value")), shape, a.loc("value"));
  auto cache = cacheModifier(em, a.get("cache_modifier"), a.loc("cache_modifier"), true);
  auto evict = evictionPolicy(em, a.get("eviction_policy"), a.loc("eviction_policy"));
  tile::StoreOp::create(
      em.b, em.loc(l), ptr.v, value.v, hasMask ? mask.v : Value(),
      cache ? tile::CacheModifierAttr::get(&em.ctx, *cache) : tile::CacheModifierAttr(),
      evict ? tile::EvictionPolicyAttr::get(&em.ctx, *evict) : tile::EvictionPolicyAttr());
  return TValue::none();
}

static std::vector<TValue> tupleOf(Emitter &em, const TValue &v, SourceLoc l,
                                   const std::string &what) {
  if (v.kind == TValue::Tuple)
    return v.elems;
  em.error(l, what + " must be a tuple, got " + v.typeStr());
}

static TValue makeBlockPtr(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"base", "shape", "strides", "offsets", "block_shape", "order"});
  auto bp = std::make_shared<BlockPtr>();
  bp->base = a.get("base");
  if (!bp->base.isTensor() || !bp->base.dtype.isPtr() || !bp->base.shape.empty())
    em.error(a.loc("base"), "base must be a scalar pointer, got " + bp->base.typeStr());
  for (auto &v : tupleOf(em, a.get("shape"), a.loc("shape"), "shape"))
    bp->shape.push_back(em.cast(em.toTensor(v, a.loc("shape")), DType::I64, a.loc("shape")));
  for (auto &v : tupleOf(em, a.get("strides"), a.loc("strides"), "strides"))
    bp->strides.push_back(em.cast(em.toTensor(v, a.loc("strides")), DType::I64, a.loc("strides")));
  for (auto &v : tupleOf(em, a.get("offsets"), a.loc("offsets"), "offsets"))
    bp->offsets.push_back(em.cast(em.toTensor(v, a.loc("offsets")), DType::I32, a.loc("offsets")));
  bp->blockShape = em.requireShape(a.get("block_shape"), a.loc("block_shape"), "block_shape");
  bp->order = em.requireShape(a.get("order"), a.loc("order"), "order");
  size_t r = bp->blockShape.size();
  if (bp->shape.size() != r || bp->strides.size() != r || bp->offsets.size() != r ||
      bp->order.size() != r)
    em.error(c.loc, "shape, strides, offsets, block_shape and order must all have "
                    "the block's rank (" + std::to_string(r) + ")");
  em.checkBlockShape(bp->blockShape, a.loc("block_shape"));
  TValue v;
  v.kind = TValue::BlockPointer;
  v.dtype = bp->base.dtype;
  v.bp = bp;
  return v;
}

static TValue advance(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"base", "offsets"});
  TValue base = a.get("base");
  if (base.kind != TValue::BlockPointer)
    em.error(a.loc("base"), "tl.advance needs a block pointer, got " + base.typeStr());
  auto offs = tupleOf(em, a.get("offsets"), a.loc("offsets"), "offsets");
  if (offs.size() != base.bp->offsets.size())
    em.error(a.loc("offsets"), "tl.advance needs " +
                                   std::to_string(base.bp->offsets.size()) +
                                   " offsets, got " + std::to_string(offs.size()));
  auto bp = std::make_shared<BlockPtr>(*base.bp);
  for (size_t i = 0; i < offs.size(); ++i)
    bp->offsets[i] = em.cast(em.binary(BinOpKind::Add, bp->offsets[i], offs[i], c.loc),
                             DType::I32, c.loc);
  TValue v = base;
  v.bp = bp;
  return v;
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

static TValue dot(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "other", "acc=None", "input_precision=None",
                       "allow_tf32=None", "max_num_imprecise_acc=None",
                       "out_dtype=float32"});
  SourceLoc l = c.loc;
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "dot input");
  TValue y = requireBlock(em, a.get("other"), a.loc("other"), "dot other");
  if ((x.shape.size() != 2 && x.shape.size() != 3) || x.shape.size() != y.shape.size())
    em.error(l, "tl.dot needs two 2-D (or two 3-D, batched) blocks, got " +
                    x.typeStr() + " and " + y.typeStr());
  size_t r = x.shape.size();
  int64_t M = x.shape[r - 2], K = x.shape[r - 1], K2 = y.shape[r - 2], N = y.shape[r - 1];
  if (K != K2)
    em.error(l, "tl.dot: the inner dimensions differ: " + x.typeStr() + " @ " +
                    y.typeStr() + " (" + std::to_string(K) + " vs " + std::to_string(K2) + ")");
  if (r == 3 && x.shape[0] != y.shape[0])
    em.error(l, "tl.dot: batch sizes differ: " + x.typeStr() + " and " + y.typeStr());
  bool fp8 = x.dtype.isFP8() && y.dtype.isFP8();
  if (x.dtype != y.dtype && !fp8)
    em.error(l, "tl.dot operands must have the same dtype, got " + x.dtype.name() +
                    " and " + y.dtype.name());
  DType t = x.dtype;
  if (t.kind == DType::U8)
    em.error(l, "tl.dot takes int8 integer operands only (as in Triton), got uint8; "
                "convert them first: to float16 (exact for 0..255) or, for values up "
                "to 127, to int8");
  if (!(t.isFloat() || t.kind == DType::I8))
    em.error(l, "tl.dot supports int8, fp8, fp16, bf16, fp32 and fp64 "
                "operands, got " + t.name());
  int64_t minK = t.bits() == 8 ? 32 : 16;
  if (K < minK)
    em.error(l, "tl.dot needs K >= " + std::to_string(minK) + " for " + t.name() +
                    " operands, got K = " + std::to_string(K));
  DType outD = em.requireDType(a.get("out_dtype"), a.loc("out_dtype"), "out_dtype");
  if (outD.kind == DType::BF16)
    em.error(a.loc("out_dtype"), "out_dtype=bfloat16 is not supported; accumulate "
                                 "in float32 and cast");
  DType ret;
  if (t.isInt())
    ret = DType::I32;
  else if (t.kind == DType::F32 || t.kind == DType::BF16)
    ret = DType::F32;
  else if (t.kind == DType::F64)
    ret = DType::F64;
  else
    ret = outD;
  // fp32 operands: tf32 unless told otherwise (NVIDIA's default).
  tile::InputPrecision prec = tile::InputPrecision::IEEE;
  if (t.kind == DType::F32) {
    prec = tile::InputPrecision::TF32;
    if (a.has("allow_tf32") && a.has("input_precision"))
      em.error(l, "give only one of input_precision and allow_tf32");
    if (a.has("allow_tf32") && !em.requireBool(a.get("allow_tf32"), a.loc("allow_tf32"), "allow_tf32"))
      prec = tile::InputPrecision::IEEE;
    if (a.has("input_precision")) {
      std::string p = em.requireStr(a.get("input_precision"), a.loc("input_precision"),
                                    "input_precision");
      auto parsed = tile::symbolizeInputPrecision(p);
      if (!parsed)
        em.error(a.loc("input_precision"), "input_precision must be one of tf32, "
                                           "tf32x3, ieee, bf16x3, bf16x6; got '" + p + "'");
      prec = *parsed;
    }
  }
  std::vector<int64_t> outShape = x.shape;
  outShape[r - 1] = N;
  outShape[r - 2] = M;
  TValue acc;
  if (a.has("acc")) {
    acc = em.toTensor(a.get("acc"), a.loc("acc"));
    if (acc.shape != outShape)
      em.error(a.loc("acc"), "acc must have shape of the product " +
                                 TValue::tensor({}, ret, outShape).typeStr() +
                                 ", got " + acc.typeStr());
    if (acc.dtype != ret)
      em.error(a.loc("acc"), "acc has dtype " + acc.dtype.name() + " but the product of " +
                                 t.name() + " operands is " + ret.name());
  } else {
    acc = fullOf(em, outShape, TValue::integer(0), ret, l);
  }
  int32_t imprecise = 0;
  if (a.has("max_num_imprecise_acc"))
    imprecise = int32_t(em.requireInt(a.get("max_num_imprecise_acc"),
                                      a.loc("max_num_imprecise_acc"), "max_num_imprecise_acc"));
  Value d = tile::DotOp::create(em.b, em.loc(l), acc.v.getType(), x.v, y.v, acc.v,
                                prec, imprecise);
  return TValue::tensor(d, ret, outShape);
}

/// The storage dtypes an operand of `format` may have: the format's own
/// float type (or, for e2m1, packed uint8) and its unsigned bit pattern.
static bool scaledOperandOk(const std::string &format, DType d, DType &fp) {
  if (format == "e2m1")
    return fp = DType::U8, d.kind == DType::U8;
  DType::Kind own = format == "e4m3" ? DType::F8E4NV
                    : format == "e5m2" ? DType::F8E5
                    : format == "bf16" ? DType::BF16
                                       : DType::F16;
  DType::Kind bits = own == DType::BF16 || own == DType::F16 ? DType::U16 : DType::U8;
  fp = own;
  return d.kind == own || d.kind == bits;
}

static TValue dotScaled(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale", "rhs_format",
                       "acc=None", "fast_math=False", "lhs_k_pack=True", "rhs_k_pack=True",
                       "out_dtype=float32"});
  SourceLoc l = c.loc;
  static const char *kFormats = "e2m1, e4m3, e5m2, bf16 or fp16";
  struct Side {
    const char *name;
    TValue v, scale;
    std::string format;
    tile::ScaleDotElemType fmt;
  } sides[2];
  for (int i = 0; i < 2; ++i) {
    Side &s = sides[i];
    std::string n = i == 0 ? "lhs" : "rhs";
    s.name = i == 0 ? "lhs" : "rhs";
    s.v = requireBlock(em, a.get(n), a.loc(n), "dot_scaled " + n);
    s.format = em.requireStr(a.get(n + "_format"), a.loc(n + "_format"), n + "_format");
    auto parsed = tile::symbolizeScaleDotElemType(s.format);
    if (!parsed || *parsed == tile::ScaleDotElemType::E2M3 ||
        *parsed == tile::ScaleDotElemType::E3M2)
      em.error(a.loc(n + "_format"), n + "_format must be one of " + std::string(kFormats) +
                                         "; got '" + s.format + "'");
    s.fmt = *parsed;
    if (s.v.shape.size() != 2)
      em.error(a.loc(n), "tl.dot_scaled needs 2-D operands, got " + s.v.typeStr() +
                             (s.v.shape.size() == 3 ? " (batched operands are not supported yet)"
                                                    : ""));
    DType fp;
    if (!scaledOperandOk(s.format, s.v.dtype, fp))
      em.error(a.loc(n), n + " in format " + s.format + " must be " +
                             (s.format == "e2m1" ? std::string("uint8 (two values per byte)")
                                                 : DType(fp).name() + " or its bits as uint" +
                                                       std::to_string(DType(fp).bits())) +
                             ", got " + s.v.dtype.name());
    if (s.v.dtype != fp)
      s.v = em.cast(s.v, fp, a.loc(n), /*bitcast=*/true);
    if (!em.requireBool(a.get(n + "_k_pack"), a.loc(n + "_k_pack"), n + "_k_pack"))
      em.error(a.loc(n + "_k_pack"), n + "_k_pack=False (e2m1 packed along the non-K "
                                         "dimension) is not supported");
    s.scale = TValue::none();
    if (a.has(n + "_scale"))
      s.scale = requireBlock(em, a.get(n + "_scale"), a.loc(n + "_scale"), n + "_scale");
    if (s.scale.kind != TValue::None && (s.format == "bf16" || s.format == "fp16"))
      em.error(a.loc(n + "_scale"), n + "_scale must be None for " + s.format + " operands");
  }
  const Side &L = sides[0], &R = sides[1];
  int64_t M = L.v.shape[0], N = R.v.shape[1];
  int64_t KL = L.v.shape[1] * (L.format == "e2m1" ? 2 : 1);
  int64_t KR = R.v.shape[0] * (R.format == "e2m1" ? 2 : 1);
  if (KL != KR)
    em.error(l, "tl.dot_scaled: lhs and rhs pack different K: " + L.v.typeStr() + " (" +
                    L.format + ", K = " + std::to_string(KL) + ") and " + R.v.typeStr() + " (" +
                    R.format + ", K = " + std::to_string(KR) + ")");
  int64_t K = KL;
  for (int i = 0; i < 2; ++i) {
    const Side &s = sides[i];
    if (s.scale.kind == TValue::None)
      continue;
    std::string n = s.name;
    int64_t rows = i == 0 ? M : N;
    if (s.scale.dtype.kind != DType::U8 && s.scale.dtype.kind != DType::I8)
      em.error(a.loc(n + "_scale"),
               n + "_scale must hold e8m0 exponents as uint8, got " + s.scale.dtype.name() +
                   (s.scale.dtype.isFP8() ? " (fp8 scales are not supported)" : ""));
    if (K % 32 != 0 || s.scale.shape != std::vector<int64_t>{rows, K / 32})
      em.error(a.loc(n + "_scale"),
               n + "_scale must have shape [" + std::to_string(rows) + ", K // 32] = [" +
                   std::to_string(rows) + ", " + std::to_string(K / 32) + "] (one scale per 32 "
                   "values along K = " + std::to_string(K) + "), got " + s.scale.typeStr());
  }
  DType outD = em.requireDType(a.get("out_dtype"), a.loc("out_dtype"), "out_dtype");
  if (outD.kind != DType::F32)
    em.error(a.loc("out_dtype"), "tl.dot_scaled accumulates in float32; out_dtype=" +
                                     outD.name() + " is not supported");
  std::vector<int64_t> outShape = {M, N};
  TValue acc;
  if (a.has("acc")) {
    acc = em.toTensor(a.get("acc"), a.loc("acc"));
    if (acc.shape != outShape || acc.dtype != outD)
      em.error(a.loc("acc"), "acc must be " + TValue::tensor({}, outD, outShape).typeStr() +
                                 ", got " + acc.typeStr());
  } else {
    acc = fullOf(em, outShape, TValue::integer(0), outD, l);
  }
  bool fast = em.requireBool(a.get("fast_math"), a.loc("fast_math"), "fast_math");
  auto scaleOf = [](const Side &s) {
    return s.scale.kind == TValue::None ? Value() : s.scale.v;
  };
  Value d = tile::DotScaledOp::create(em.b, em.loc(l), acc.v.getType(), L.v.v, R.v.v, acc.v,
                                      scaleOf(L), scaleOf(R), L.fmt, R.fmt, fast);
  return TValue::tensor(d, outD, outShape);
}

//===----------------------------------------------------------------------===//
// Casts and selection
//===----------------------------------------------------------------------===//

static TValue castFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"input", "dtype", "fp_downcast_rounding=None", "bitcast=False"});
  DType d = em.requireDType(a.get("dtype"), a.loc("dtype"), "dtype");
  std::string rounding = em.requireStr(a.get("fp_downcast_rounding"),
                                       a.loc("fp_downcast_rounding"), "fp_downcast_rounding");
  bool bitcast = em.requireBool(a.get("bitcast"), a.loc("bitcast"), "bitcast");
  TValue x = a.get("input");
  if (x.isConstexpr() && !bitcast)
    return em.cast(em.toTensor(x, c.loc), d, c.loc);
  return em.cast(x, d, c.loc, bitcast, rounding);
}

static TValue whereFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"condition", "x", "y"});
  return em.where(a.get("condition"), a.get("x"), a.get("y"), c.loc);
}

void tritium::fe::registerCoreBuiltins(BuiltinTable &t) {
  t["tl.program_id"] = [](Emitter &em, CallArgs &c) { return programAxis(em, c, false); };
  t["tl.num_programs"] = [](Emitter &em, CallArgs &c) { return programAxis(em, c, true); };
  t["tl.arange"] = arange;
  t["tl.full"] = full;
  t["tl.zeros"] = zeros;
  t["tl.zeros_like"] = zerosLike;
  t["tl.load"] = load;
  t["tl.store"] = store;
  t["tl.make_block_ptr"] = makeBlockPtr;
  t["tl.advance"] = advance;
  t["tl.dot"] = dot;
  t["tl.dot_scaled"] = dotScaled;
  t["tl.cast"] = castFn;
  t["tensor.to"] = castFn;
  t["tensor.cast"] = castFn;
  t["tl.where"] = whereFn;
}

//===- BuiltinsAtomic.cpp - tl.atomic_* read-modify-write and CAS ---------===//
//
// atomic_add/max/min/and/or/xor/xchg(pointer, val, mask, sem, scope) and
// atomic_cas(pointer, cmp, val, sem, scope), with semantic.py's checks:
// 32/64-bit elements (fp16/bf16 for add only), `val` and `mask` broadcast to
// the pointer's shape, `val` cast to the element type, the old values
// returned. Float max/min have no hardware op; they are split by sign into
// an integer max and an unsigned min (see atomicFloatMaxMin).
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

using namespace tritium::fe;
using namespace mlir;

static tile::MemSemanticAttr semAttr(Emitter &em, const BoundArgs &a) {
  std::string s = em.requireStr(a.get("sem"), a.loc("sem"), "sem");
  tile::MemSemantic m = tile::MemSemantic::ACQUIRE_RELEASE;
  if (s == "acquire")
    m = tile::MemSemantic::ACQUIRE;
  else if (s == "release")
    m = tile::MemSemantic::RELEASE;
  else if (s == "relaxed")
    m = tile::MemSemantic::RELAXED;
  else if (!s.empty() && s != "acq_rel")
    em.error(a.loc("sem"),
             "sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', "
             "got '" +
                 s + "'");
  return tile::MemSemanticAttr::get(&em.ctx, m);
}

static tile::MemScopeAttr scopeAttr(Emitter &em, const BoundArgs &a) {
  std::string s = em.requireStr(a.get("scope"), a.loc("scope"), "scope");
  tile::MemScope m = tile::MemScope::GPU;
  if (s == "cta")
    m = tile::MemScope::CTA;
  else if (s == "sys")
    m = tile::MemScope::SYSTEM;
  else if (!s.empty() && s != "gpu")
    em.error(a.loc("scope"),
             "scope must be 'gpu', 'cta' or 'sys', got '" + s + "'");
  return tile::MemScopeAttr::get(&em.ctx, m);
}

/// A pointer or block of pointers (block pointers are refused).
static TValue pointerArg(Emitter &em, const BoundArgs &a,
                         const std::string &fn) {
  const TValue &p = a.get("pointer");
  if (p.kind == TValue::BlockPointer)
    em.error(a.loc("pointer"),
             fn + " does not support block pointers (tl.make_block_ptr); "
                  "use a block of pointers");
  if (!p.isTensor() || !p.dtype.isPtr())
    em.error(a.loc("pointer"),
             fn + " needs a pointer or a block of pointers, got " +
                 p.typeStr());
  return p;
}

/// `v` broadcast to the pointer's shape; a block for a scalar pointer is an
/// error (Triton broadcasts only when the pointer is a block).
static TValue toPointerShape(Emitter &em, const TValue &v, const TValue &ptr,
                             SourceLoc l, const std::string &what) {
  TValue t = em.toTensor(v, l);
  if (ptr.shape.empty() && !t.shape.empty())
    em.error(l, what + " is " + t.typeStr() + " but the pointer is a scalar");
  return em.broadcastTo(t, ptr.shape, l);
}

static TValue rmw(Emitter &em, tile::RMWOp op, const TValue &ptr,
                  const TValue &val, const TValue &mask,
                  tile::MemSemanticAttr sem, tile::MemScopeAttr scope,
                  SourceLoc l) {
  Value m = mask.kind == TValue::Undefined ? Value() : mask.v;
  Value r = tile::AtomicRMWOp::create(em.b, em.loc(l), val.v.getType(),
                                      tile::RMWOpAttr::get(&em.ctx, op), ptr.v,
                                      val.v, m, sem, scope);
  return TValue::tensor(r, val.dtype, val.shape);
}

/// Float max/min as semantic.atomic_max/atomic_min build them. IEEE floats
/// order like their bit patterns read as signed ints when non-negative, and
/// in reverse when negative (read unsigned). So, with neg = signbit(val):
///   max: old = neg ? atomic_umin(uptr, ubits) : atomic_max(iptr, ibits)
///   min: old = neg ? atomic_umax(uptr, ubits) : atomic_min(iptr, ibits)
/// each atomic masked by `mask & pos` / `mask & neg`, the old value combined
/// with where(pos, ...) and bitcast back to the float type.
static TValue atomicFloatMaxMin(Emitter &em, bool isMax, const TValue &ptr,
                                const TValue &val, const TValue &mask,
                                tile::MemSemanticAttr sem,
                                tile::MemScopeAttr scope, SourceLoc l) {
  DType f = val.dtype;
  bool is32 = f.kind == DType::F32;
  DType it = is32 ? DType::I32 : DType::I64,
        ut = is32 ? DType::U32 : DType::U64;
  TValue iVal = em.cast(val, it, l, true), uVal = em.cast(val, ut, l, true);
  TValue iPtr = em.cast(ptr, it.pointerTo(), l),
         uPtr = em.cast(ptr, ut.pointerTo(), l);
  // _signbit: bits >> (width - 1), as int1.
  TValue sign =
      em.binary(BinOpKind::RShift, uVal, TValue::integer(f.bits() - 1), l);
  TValue neg = em.cast(sign, DType::I1, l);
  TValue pos = em.unary(UnaryOpKind::Not, neg, l);
  bool masked = mask.kind != TValue::Undefined;
  TValue posMask = masked ? em.logical(BoolOpKind::And, mask, pos, l) : pos;
  TValue negMask = masked ? em.logical(BoolOpKind::And, mask, neg, l) : neg;
  TValue posRet = rmw(em, isMax ? tile::RMWOp::MAX : tile::RMWOp::MIN, iPtr,
                      iVal, posMask, sem, scope, l);
  TValue negRet = rmw(em, isMax ? tile::RMWOp::UMIN : tile::RMWOp::UMAX, uPtr,
                      uVal, negMask, sem, scope, l);
  TValue ret = em.where(pos, posRet, negRet, l);
  return em.cast(ret, f, l, true);
}

namespace {
enum class AtomicKind { Add, Max, Min, And, Or, Xor, Xchg };
} // namespace

static TValue atomicRmwFn(Emitter &em, CallArgs &c, AtomicKind kind,
                          const char *name) {
  auto a =
      em.bind(c, {"pointer", "val", "mask=None", "sem=None", "scope=None"});
  SourceLoc l = c.loc;
  std::string fn = std::string("tl.atomic_") + name;
  TValue ptr = pointerArg(em, a, fn);
  DType elem = ptr.dtype.pointee();
  // atom_red_typechecking_impl
  if ((elem.kind == DType::F16 || elem.kind == DType::BF16) && !elem.isPtr() &&
      kind != AtomicKind::Add)
    em.error(a.loc("pointer"),
             fn + " does not support " + elem.name() +
                 " (only tl.atomic_add takes float16/bfloat16)");
  if (elem.isPtr() || elem.kind == DType::I16 || elem.kind == DType::U16 ||
      elem.bits() < 16)
    em.error(a.loc("pointer"),
             fn + " does not support " + elem.name() +
                 " elements: atomics need 32- or 64-bit elements "
                 "(or float16/bfloat16 for atomic_add)");
  TValue val = toPointerShape(em, a.get("val"), ptr, a.loc("val"), "val");
  val = em.cast(val, elem, a.loc("val"));
  TValue mask; // Undefined: no mask
  if (a.has("mask")) {
    mask = toPointerShape(em, a.get("mask"), ptr, a.loc("mask"), "mask");
    if (!mask.dtype.isBool())
      mask = em.cast(mask, DType::I1, a.loc("mask"));
  }
  auto sem = semAttr(em, a);
  auto scope = scopeAttr(em, a);
  bool isFloat = elem.isFloat();
  switch (kind) {
  case AtomicKind::Add:
    return rmw(em, isFloat ? tile::RMWOp::FADD : tile::RMWOp::ADD, ptr, val,
               mask, sem, scope, l);
  case AtomicKind::Xchg:
    return rmw(em, tile::RMWOp::XCHG, ptr, val, mask, sem, scope, l);
  case AtomicKind::Max:
  case AtomicKind::Min: {
    bool isMax = kind == AtomicKind::Max;
    if (isFloat)
      return atomicFloatMaxMin(em, isMax, ptr, val, mask, sem, scope, l);
    tile::RMWOp op = elem.isSigned()
                         ? (isMax ? tile::RMWOp::MAX : tile::RMWOp::MIN)
                         : (isMax ? tile::RMWOp::UMAX : tile::RMWOp::UMIN);
    return rmw(em, op, ptr, val, mask, sem, scope, l);
  }
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor: {
    if (isFloat)
      em.error(a.loc("pointer"),
               fn + " needs integer elements, got " + elem.name());
    tile::RMWOp op = kind == AtomicKind::And  ? tile::RMWOp::AND
                     : kind == AtomicKind::Or ? tile::RMWOp::OR
                                              : tile::RMWOp::XOR;
    return rmw(em, op, ptr, val, mask, sem, scope, l);
  }
  }
  return TValue::none();
}

/// `cmp`/`val` of atomic_cas: literals take the element type; tensors must
/// already have it (Triton inserts no cast and its IR would not verify).
static TValue casOperand(Emitter &em, const BoundArgs &a, const char *name,
                         const TValue &ptr, DType elem) {
  const TValue &v = a.get(name);
  TValue t = toPointerShape(em, v, ptr, a.loc(name), name);
  if (v.isConstexpr())
    return em.cast(t, elem, a.loc(name));
  if (t.dtype != elem)
    em.error(a.loc(name),
             std::string("tl.atomic_cas: ") + name + " has dtype " +
                 t.dtype.name() + " but the pointer's element type is " +
                 elem.name() + "; cast it with .to(" + elem.name() + ")");
  return t;
}

static TValue atomicCasFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"pointer", "cmp", "val", "sem=None", "scope=None"});
  TValue ptr = pointerArg(em, a, "tl.atomic_cas");
  DType elem = ptr.dtype.pointee();
  unsigned bits = elem.bits();
  if (elem.isPtr() || (bits != 16 && bits != 32 && bits != 64))
    em.error(a.loc("pointer"),
             "tl.atomic_cas only supports elements with width 16, 32 "
             "or 64, got " +
                 elem.name());
  TValue cmp = casOperand(em, a, "cmp", ptr, elem);
  TValue val = casOperand(em, a, "val", ptr, elem);
  auto sem = semAttr(em, a);
  auto scope = scopeAttr(em, a);
  Value r = tile::AtomicCASOp::create(em.b, em.loc(c.loc), val.v.getType(),
                                      ptr.v, cmp.v, val.v, sem, scope);
  return TValue::tensor(r, elem, ptr.shape);
}

void tritium::fe::registerAtomicBuiltins(BuiltinTable &t) {
  static const std::pair<const char *, AtomicKind> kinds[] = {
      {"add", AtomicKind::Add},  {"max", AtomicKind::Max},
      {"min", AtomicKind::Min},  {"and", AtomicKind::And},
      {"or", AtomicKind::Or},    {"xor", AtomicKind::Xor},
      {"xchg", AtomicKind::Xchg}};
  for (auto [name, kind] : kinds) {
    BuiltinFn f = [kind, name](Emitter &em, CallArgs &c) {
      return atomicRmwFn(em, c, kind, name);
    };
    // Triton's atomics are also tensor members: ptrs.atomic_add(v).
    t[std::string("tl.atomic_") + name] = f;
    t[std::string("tensor.atomic_") + name] = f;
  }
  t["tl.atomic_cas"] = atomicCasFn;
  t["tensor.atomic_cas"] = atomicCasFn;
}

//===- Atomic.cpp - tile.atomic_rmw and tile.atomic_cas ----------*- C++ -*-===//
//
// Atomics act on host memory with the compiler's __atomic builtins, so they
// are atomic across programs running on parallel threads. Integer add,
// and, or, xor and xchg map to fetch-ops; max/min (signed and unsigned) and
// float add (fp16, bf16, fp32, fp64) use compare-and-swap loops. Each lane
// returns the old value; masked-off lanes are untouched and return 0.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Memory.h"
#include "interpreter/Program.h"
#include "interpreter/Race.h"

#include "ir/TileDialect.h"

using namespace mlir;

namespace tritium::interp {
namespace {

/// Whether an atomic of semantics `sem` (a tile::MemSemantic) acquires or
/// releases: what orders programs for the race sanitizer.
bool acquires(int64_t sem) {
  auto s = static_cast<tile::MemSemantic>(sem);
  return s == tile::MemSemantic::ACQUIRE || s == tile::MemSemantic::ACQUIRE_RELEASE;
}
bool releases(int64_t sem) {
  auto s = static_cast<tile::MemSemantic>(sem);
  return s == tile::MemSemantic::RELEASE || s == tile::MemSemantic::ACQUIRE_RELEASE;
}

// Float add in the element's own precision (fp16/bf16 via float).
template <class U> U addFloat(U oldBits, U vBits, EK k) {
  if constexpr (sizeof(U) == 2) {
    U out;
    float a, b;
    if (k == EK::F16) {
      half x, y;
      std::memcpy(static_cast<void *>(&x), &oldBits, 2);
      std::memcpy(static_cast<void *>(&y), &vBits, 2);
      a = float(x);
      b = float(y);
    } else {
      bf16 x, y;
      std::memcpy(static_cast<void *>(&x), &oldBits, 2);
      std::memcpy(static_cast<void *>(&y), &vBits, 2);
      a = float(x);
      b = float(y);
    }
    if (k == EK::F16) {
      half h(a + b);
      std::memcpy(&out, static_cast<void *>(&h), 2);
    } else {
      bf16 h(a + b);
      std::memcpy(&out, static_cast<void *>(&h), 2);
    }
    return out;
  } else if constexpr (sizeof(U) == 4) {
    float a, b;
    std::memcpy(&a, &oldBits, 4);
    std::memcpy(&b, &vBits, 4);
    a += b;
    std::memcpy(&oldBits, &a, 4);
    return oldBits;
  } else if constexpr (sizeof(U) == 8) {
    double a, b;
    std::memcpy(&a, &oldBits, 8);
    std::memcpy(&b, &vBits, 8);
    a += b;
    std::memcpy(&oldBits, &a, 8);
    return oldBits;
  } else {
    return vBits;
  }
}

template <class U> U combine(tile::RMWOp kind, U old, U v, EK k) {
  using SU = std::make_signed_t<U>;
  switch (kind) {
  case tile::RMWOp::MAX: return SU(old) > SU(v) ? old : v;
  case tile::RMWOp::MIN: return SU(old) < SU(v) ? old : v;
  case tile::RMWOp::UMAX: return old > v ? old : v;
  case tile::RMWOp::UMIN: return old < v ? old : v;
  case tile::RMWOp::FADD: return addFloat<U>(old, v, k);
  case tile::RMWOp::ADD: return U(old + v);
  case tile::RMWOp::AND: return U(old & v);
  case tile::RMWOp::OR: return U(old | v);
  case tile::RMWOp::XOR: return U(old ^ v);
  default: return v; // XCHG
  }
}

// op.a: mask slot or -1; op.c: RMW kind.
template <class U> void atomicRmw(const Op &op, Frame &f) {
  const uint64_t *p = f.get<uint64_t>(op.in[0]);
  const U *v = f.get<U>(op.in[1]);
  const uint8_t *m = op.a >= 0 ? f.get<uint8_t>(op.a) : nullptr;
  U *r = f.get<U>(op.res[0]);
  auto kind = static_cast<tile::RMWOp>(op.c);
  for (int64_t i = 0; i < op.n; ++i) {
    if (m && !m[i]) {
      r[i] = 0;
      continue;
    }
    if (!f.mem->ok(p[i], sizeof(U), f.bufHint)) {
      reportBadAccess(f, op, "atomic", "updates", i, p[i], sizeof(U));
      return;
    }
    if (f.mem->shadowed) {
      // An exchange does not read the old value's meaning; the others do.
      if (kind != tile::RMWOp::XCHG)
        checkUninitializedRead(f, op, "atomic", i, p[i], sizeof(U));
      f.mem->unpoison(p[i], sizeof(U), f.bufHint);
    }
    if (f.race)
      f.race->atomic(f, op, i, p[i], sizeof(U), f.bufHint, acquires(op.b), releases(op.b));
    U *addr = reinterpret_cast<U *>(p[i]);
    U old;
    switch (kind) {
    case tile::RMWOp::ADD:
      old = __atomic_fetch_add(addr, v[i], __ATOMIC_SEQ_CST);
      break;
    case tile::RMWOp::AND:
      old = __atomic_fetch_and(addr, v[i], __ATOMIC_SEQ_CST);
      break;
    case tile::RMWOp::OR:
      old = __atomic_fetch_or(addr, v[i], __ATOMIC_SEQ_CST);
      break;
    case tile::RMWOp::XOR:
      old = __atomic_fetch_xor(addr, v[i], __ATOMIC_SEQ_CST);
      break;
    case tile::RMWOp::XCHG:
      old = __atomic_exchange_n(addr, v[i], __ATOMIC_SEQ_CST);
      break;
    default: {
      old = __atomic_load_n(addr, __ATOMIC_SEQ_CST);
      while (!__atomic_compare_exchange_n(addr, &old,
                                          combine<U>(kind, old, v[i], op.kind),
                                          false, __ATOMIC_SEQ_CST,
                                          __ATOMIC_SEQ_CST)) {
      }
      break;
    }
    }
    r[i] = old;
  }
}

template <class U> void atomicCas(const Op &op, Frame &f) {
  const uint64_t *p = f.get<uint64_t>(op.in[0]);
  const U *cmp = f.get<U>(op.in[1]), *v = f.get<U>(op.in[2]);
  U *r = f.get<U>(op.res[0]);
  for (int64_t i = 0; i < op.n; ++i) {
    if (!f.mem->ok(p[i], sizeof(U), f.bufHint)) {
      reportBadAccess(f, op, "atomic_cas", "updates", i, p[i], sizeof(U));
      return;
    }
    if (f.mem->shadowed) {
      checkUninitializedRead(f, op, "atomic_cas", i, p[i], sizeof(U));
      f.mem->unpoison(p[i], sizeof(U), f.bufHint);
    }
    if (f.race)
      f.race->atomic(f, op, i, p[i], sizeof(U), f.bufHint, acquires(op.b), releases(op.b));
    U expected = cmp[i];
    __atomic_compare_exchange_n(reinterpret_cast<U *>(p[i]), &expected, v[i],
                                false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    r[i] = expected; // the old value either way
  }
}

#define BY_SIZE(F, S)                                                          \
  ((S) == 1   ? Handler(F<uint8_t>)                                            \
   : (S) == 2 ? Handler(F<uint16_t>)                                           \
   : (S) == 4 ? Handler(F<uint32_t>)                                           \
              : Handler(F<uint64_t>))

} // namespace

Built buildAtomic(Builder &b, Operation *mop, Op &op) {
  if (auto a = dyn_cast<tile::AtomicRMWOp>(mop)) {
    op.in.push_back(b.use(a.getPtr()));
    op.in.push_back(b.use(a.getVal()));
    op.a = a.getMask() ? b.use(a.getMask()) : -1;
    op.res.push_back(b.define(a.getResult()));
    op.kind = b.info(op.res[0]).kind;
    op.n = b.info(op.res[0]).elems;
    op.shape.assign(b.info(op.res[0]).shape.begin(),
                    b.info(op.res[0]).shape.end());
    op.c = static_cast<int64_t>(a.getAtomicRmwOp());
    op.b = static_cast<int64_t>(a.getSem());
    bool isF = isFloat(op.kind);
    if (isF != (a.getAtomicRmwOp() == tile::RMWOp::FADD) &&
        a.getAtomicRmwOp() != tile::RMWOp::XCHG)
      return b.error(mop, "atomic kind does not match the element type"),
             Built::Error;
    op.fn = BY_SIZE(atomicRmw, elemBytes(op.kind));
    return Built::Ok;
  }
  if (auto cas = dyn_cast<tile::AtomicCASOp>(mop)) {
    fillCommon(b, mop, op);
    op.b = static_cast<int64_t>(cas.getSem());
    op.fn = BY_SIZE(atomicCas, elemBytes(op.kind));
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp

//===- MemoryOps.cpp - tile.load and tile.store ------------------*- C++ -*-===//
//
// Every unmasked lane is checked against the registered buffers before it
// is touched (Memory::ok, one range test on the fast path); masked-off
// lanes are never accessed and read `other` (or 0). The first bad lane
// stops the program with a report naming the lane, address and buffer.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Memory.h"
#include "interpreter/Program.h"
#include "interpreter/Race.h"

#include "ir/TileDialect.h"

using namespace mlir;

namespace tritium::interp {
namespace {

// op.a: mask slot or -1; op.b: other slot or -1.
template <class T> void load(const Op &op, Frame &f) {
  const uint64_t *p = f.get<uint64_t>(op.in[0]);
  const uint8_t *m = op.a >= 0 ? f.get<uint8_t>(op.a) : nullptr;
  const T *other = op.b >= 0 ? f.get<T>(op.b) : nullptr;
  T *r = f.get<T>(op.res[0]);
  const Memory &mem = *f.mem;
  for (int64_t i = 0; i < op.n; ++i) {
    if (m && !m[i]) {
      r[i] = other ? other[i] : T(0);
      continue;
    }
    uint64_t addr = p[i];
    if (!mem.ok(addr, sizeof(T), f.bufHint)) {
      reportBadAccess(f, op, "load", "reads", i, addr, sizeof(T));
      return;
    }
    if (mem.shadowed)
      checkUninitializedRead(f, op, "load", i, addr, sizeof(T));
    if (f.race)
      f.race->plain(f, op, i, addr, sizeof(T), f.bufHint, false);
    std::memcpy(&r[i], reinterpret_cast<const void *>(addr), sizeof(T));
  }
}

// op.a: mask slot or -1.
template <class T> void store(const Op &op, Frame &f) {
  const uint64_t *p = f.get<uint64_t>(op.in[0]);
  const T *v = f.get<T>(op.in[1]);
  const uint8_t *m = op.a >= 0 ? f.get<uint8_t>(op.a) : nullptr;
  const Memory &mem = *f.mem;
  for (int64_t i = 0; i < op.n; ++i) {
    if (m && !m[i])
      continue;
    uint64_t addr = p[i];
    if (!mem.ok(addr, sizeof(T), f.bufHint)) {
      reportBadAccess(f, op, "store", "writes", i, addr, sizeof(T));
      return;
    }
    if (mem.shadowed)
      mem.unpoison(addr, sizeof(T), f.bufHint);
    if (f.race)
      f.race->plain(f, op, i, addr, sizeof(T), f.bufHint, true);
    std::memcpy(reinterpret_cast<void *>(addr), &v[i], sizeof(T));
  }
}

#define BY_SIZE(F, S)                                                          \
  ((S) == 1   ? Handler(F<uint8_t>)                                            \
   : (S) == 2 ? Handler(F<uint16_t>)                                           \
   : (S) == 4 ? Handler(F<uint32_t>)                                           \
              : Handler(F<uint64_t>))

} // namespace

Built buildMemoryOp(Builder &b, Operation *mop, Op &op) {
  if (auto l = dyn_cast<tile::LoadOp>(mop)) {
    op.in.push_back(b.use(l.getPtr()));
    op.a = l.getMask() ? b.use(l.getMask()) : -1;
    op.b = l.getOther() ? b.use(l.getOther()) : -1;
    op.res.push_back(b.define(l.getResult()));
    const SlotInfo &ri = b.info(op.res[0]);
    op.kind = ri.kind;
    op.n = ri.elems;
    op.shape.assign(ri.shape.begin(), ri.shape.end());
    if (op.b >= 0 && b.info(op.b).elems != op.n)
      return b.error(mop, "load 'other' must be shaped like the pointers"),
             Built::Error;
    op.fn = BY_SIZE(load, elemBytes(op.kind));
    return Built::Ok;
  }
  if (auto s = dyn_cast<tile::StoreOp>(mop)) {
    op.in.push_back(b.use(s.getPtr()));
    op.in.push_back(b.use(s.getValue()));
    op.a = s.getMask() ? b.use(s.getMask()) : -1;
    const SlotInfo &vi = b.info(op.in[1]);
    op.kind = vi.kind;
    op.n = vi.elems;
    op.shape.assign(vi.shape.begin(), vi.shape.end());
    op.fn = BY_SIZE(store, elemBytes(op.kind));
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp

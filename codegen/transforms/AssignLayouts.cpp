//===- AssignLayouts.cpp - Every tensor value's layout, as a tgpu encoding ===//
//
// Layout assignment: walks a kernel in program order (loops until their
// carried layouts settle) and gives every tensor value a distributed
// layout, from these rules:
//
//  anchors     global accesses take their pointers' layout, or, when memory
//              is contiguous along another dimension than the last, or the
//              pointers hold more than 16 contiguous bytes per thread, or
//              fewer than memory allows, and the pointers, mask and other
//              (and stored) value can be recomputed there, a layout whose
//              fastest dimension is the contiguous one (16 bytes per
//              thread); atomics a coalesced one as wide as their vector
//              form (sm_90's atom.add.v4.f32), even when the value moves;
//              a 16-bit store of a tile transposed in registers the layout
//              ldmatrix.trans reads the transposition back in;
//              asynchronous copies the layout their
//              shared slot is filled in; products the tensor-core
//              accumulator layout (mma.sync, wgmma, or MFMA with its blocks
//              transposed; warps as the product's neighbours want) or, on
//              FMA, their accumulator's; on AMD a store of a costly value
//              stays in the value's layout when that moves 8 bytes or more
//              per access, or as many as the pointers' layout would;
//              tiles tensor cores read in place stay in shared memory
//              (#tgpu.shared);
//  fresh       ranges, splats, constants and descriptor loads the default
//              layout (LinearLayout::defaultFor at the kernel's element width);
//  forward     elementwise ops the layout of the operand most expensive to
//              move (a full tile beats a broadcast row, a value computed here
//              beats a loop-carried one), shape ops the layout derived from
//              their source's, reductions a slice of their source's (or of
//              the default one when the axis is not separable);
//  loops       carried values the layouts the body yields (the body is laid
//              out again with them when they differ from the inits');
//              carried pointer tiles start in the layout of the copy or
//              global access that goes through them, so that an access in
//              the loop runs as wide as memory allows every iteration.
//
// Operands an op needs in another layout than they have get an explicit
// tgpu.convert_layout before it; the lowering rematerializes cheap
// producers there and moves the rest through shared memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/LayoutAssigner.h"

using namespace mlir;
using namespace tritium::codegen;
using namespace tritium::codegen::layout_assignment;

LayoutRef Assigner::elementwise(Operation *op, Type resultType) {
  // The layout of the operands that are expensive to move (loads, products,
  // loop-carried values) wins; cheap operands follow it. A full tile beats
  // broadcasts (a row or column moves more cheaply than a tile), one that
  // cannot be recomputed beats one that can, and on ties a value computed
  // here beats a loop-carried one (whose layout follows what the loop body
  // yields). Broadcasts alone in different layouts meet in the default one.
  int64_t numel = cast<RankedTensorType>(resultType).getNumElements();
  LayoutRef full, common, cheap;
  Value fullValue;
  bool fullCarried = false, mixed = false;
  for (Value v : op->getOperands()) {
    LayoutRef l = get(v);
    if (!l)
      continue;
    if (isCheapTile(v)) {
      if (!cheap)
        cheap = l;
      continue;
    }
    if (distinctElements(v) == numel) {
      bool carried = isa<BlockArgument>(v);
      // Between two full tiles, one that can be recomputed in the other's
      // layout (a mask compared from ranges) gives way to one that cannot
      // (a product's accumulator).
      bool costlier = full && fullValue && *full != *l && canRemat(fullValue, *l, 0) &&
                      !canRemat(v, *full, 0);
      if (!full || (fullCarried && !carried) || costlier) {
        full = l;
        fullCarried = carried;
        fullValue = v;
      }
    }
    if (!common)
      common = l;
    else if (*common != *l)
      mixed = true;
  }
  if (full)
    return full;
  if (mixed)
    return def(resultType);
  if (common)
    return common;
  return cheap ? cheap : def(resultType);
}

/// Whether `v` can be computed in `to` without shared memory: it sits
/// there within each thread, or its producers (ranges, splats, shape ops,
/// elementwise ops) can be recomputed there in turn (the lowering's
/// rematerialization).
bool Assigner::canRemat(Value v, const LinearLayout &to, int depth) {
  Operation *d = v.getDefiningOp();
  if (!d || depth > 16 || d->getNumResults() != 1)
    return false;
  auto operandIn = [&](Value x, const LinearLayout &want) {
    LayoutRef l = get(x);
    if (!l)
      return false;
    if (*l == want || LinearLayout::threadLocalMap(*l, want))
      return true;
    return canRemat(x, want, depth + 1);
  };
  if (isCheapTile(v))
    return true;
  if (auto ed = dyn_cast<tile::ExpandDimsOp>(d)) // `to` without the unit dim
    return operandIn(ed.getSrc(), to.sliceDim(ed.getAxis()));
  if (auto rs = dyn_cast<tile::ReshapeOp>(d))
    return operandIn(rs.getSrc(), to.reshape(shapeOf(rs.getSrc().getType())));
  if (isa<tile::BroadcastOp>(d)) // the source moves if it must
    return true;
  if (isa<tile::HintOp>(d))
    return operandIn(d->getOperand(0), to);
  if (!isRecomputableElementwise(d))
    return false;
  for (Value x : d->getOperands())
    if (isTensor(x) && !operandIn(x, to))
      return false;
  return true;
}

/// The layout a global access of `ptr` runs in (see the file comment).
/// `a` is the pointers' layout; with `freePointers` the pointers may take
/// any layout (a loop-carried tile, laid out for its access), so only the
/// access's own width decides. One access moves at most `maxBits` (an
/// atomic that has no vector form moves one element). With `widen`, pointers
/// laid out narrower than memory allows (a column index shared with a 1-D
/// access, then offset: rope's `x + D // 2`) take a layout as wide as
/// memory allows when they, the mask, the other value and a `stored` value
/// can be recomputed in it.
LayoutRef Assigner::access(Value ptr, Value mask, Value other, LayoutRef a,
                           bool freePointers, bool valueMoves, unsigned maxBits,
                           bool widen, Value stored) {
  if (!a)
    return nullptr;
  auto pointee = cast<tile::PointerType>(cast<RankedTensorType>(ptr.getType()).getElementType())
                     .getPointeeType();
  unsigned bits = isa<tile::PointerType>(pointee) ? 64 : std::max(8u, pointee.getIntOrFloatBitWidth());
  maxBits = std::max(maxBits, bits);
  auto width = [&](const LinearLayout &l, unsigned dim) {
    unsigned v = std::min(l.contiguousRegs(dim), maxBits / bits);
    v = std::min(v, std::max(1u, hint(ptr, mask, dim)));
    while (v > 1 && (v & (v - 1)))
      v &= v - 1;
    return v;
  };
  unsigned rank = a->rank();
  unsigned here = width(*a, rank - 1);
  unsigned best = here, bestDim = rank - 1;
  if (o.vectorWidth && rank >= 2 && here < maxBits / bits)
    for (unsigned d = 0; d + 1 < rank; ++d) {
      unsigned w = std::min(hint(ptr, mask, d), maxBits / bits);
      if (w > best && hint(ptr, mask, rank - 1) <= 1)
        best = w, bestDim = d;
    }
  unsigned layoutBits = bits;
  bool widened = false;
  if (bestDim == rank - 1) {
    // A thread's run longer than one access splits into several, each
    // instruction's lanes a run apart: runs longer than 16 bytes (the
    // kernel's default layouts are made for its narrowest elements: an
    // fp16 store in an fp8 kernel holds 32 bytes per thread), or longer
    // than memory lets one access be (pointers of unknown alignment, as
    // read from memory, or masks of unknown extent: one element a thread
    // where the layout holds 8). One access per thread, lanes next to each
    // other, keeps each instruction's footprint contiguous. The latter
    // only for a stored value that moves anyway (a product's accumulator):
    // elsewhere the move would cost more than the scattered accesses.
    unsigned allowed = std::min(std::max(1u, hint(ptr, mask, bestDim)), maxBits / bits);
    while (allowed > 1 && (allowed & (allowed - 1)))
      allowed &= allowed - 1;
    if (a->contiguousRegs(bestDim) <= here) {
      if (!widen || allowed <= here || !o.vectorWidth)
        return a;
      layoutBits = 128u / allowed;
      widened = true;
    } else {
      if (here < maxBits / bits && !valueMoves)
        return a;
      layoutBits = 128u / here;
    }
  } else if (maxBits < 128) {
    layoutBits = 128u / best;
  }
  LayoutRef t = share(LinearLayout::defaultFor(a->shape(), o.numWarps, layoutBits, o.warpSize, bestDim));
  bool ok = freePointers || canRemat(ptr, *t, 0);
  if (ok && mask && isTensor(mask))
    ok = canRemat(mask, *t, 0);
  if (ok && other && isTensor(other))
    ok = canRemat(other, *t, 0);
  if (ok && widened && stored && isTensor(stored)) {
    LayoutRef v = get(stored);
    ok = (v && *v == *t) || canRemat(stored, *t, 0);
  }
  return ok && (width(*t, bestDim) > here || bestDim == rank - 1) ? t : a;
}

/// The widest access of atomic `op`: 16 bytes where the target has a
/// vector form of it (sm_90's atom.add on f32, f16 and bf16 vectors), one
/// element elsewhere.
unsigned Assigner::atomicBits(tile::AtomicRMWOp op) {
  Type e = cast<tile::PointerType>(getElementTypeOrSelf(op.getPtr().getType())).getPointeeType();
  unsigned bits = isa<tile::PointerType>(e) ? 64 : std::max(8u, e.getIntOrFloatBitWidth());
  bool vector = o.amdArch.empty() && o.computeCapability >= 90 &&
                op.getAtomicRmwOp() == tile::RMWOp::FADD && (e.isF32() || e.isF16() || e.isBF16());
  return vector ? 128 : bits;
}

/// For a store of a 16-bit [R, C] tile whose value runs down the columns
/// (registers 0-2 the rows +1, +2, +4) and whose memory runs along the rows
/// 8 elements or more at a time (its access layout `access` 8 a thread
/// along the rows): the layout a shared-memory transposition reads with
/// ldmatrix.trans (the lowering's convertTransposedLdmatrix), registers
/// 0-2 the columns +1, +2, +4, lanes the columns +8, +16 and the rows +1,
/// +2, +4, warps then registers over the 8 x 32 blocks left (rows first
/// for the warps, columns first for the registers). Null otherwise.
LayoutRef Assigner::transposedStoreLayout(tile::StoreOp st, LayoutRef value, LayoutRef access) {
  if (!value || !access || !o.amdArch.empty() || o.warpSize != 32 || value->rank() != 2)
    return nullptr;
  Type e = cast<tile::PointerType>(getElementTypeOrSelf(st.getPtr().getType())).getPointeeType();
  if (isa<tile::PointerType>(e) || e.getIntOrFloatBitWidth() != 16)
    return nullptr;
  const auto &vr = value->bases(LinearLayout::Reg);
  if (vr.size() < 3 || vr[0] != Coord{1, 0} || vr[1] != Coord{2, 0} || vr[2] != Coord{4, 0})
    return nullptr;
  if (access->contiguousRegs(1) < 8 || hint(st.getPtr(), st.getMask(), 1) < 8)
    return nullptr;
  std::vector<int64_t> shape = value->shape();
  int64_t R = shape[0], C = shape[1];
  if (R % 8 || C % 32)
    return nullptr;
  std::vector<Coord> reg = {{0, 1}, {0, 2}, {0, 4}};
  std::vector<Coord> lane = {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coord> warp;
  int64_t rows = 8, cols = 32;
  for (unsigned w = o.numWarps; w > 1; w /= 2) {
    if (rows < R) {
      warp.push_back({rows, 0});
      rows *= 2;
    } else if (cols < C) {
      warp.push_back({0, cols});
      cols *= 2;
    } else {
      warp.push_back({0, 0});
    }
  }
  for (; cols < C; cols *= 2)
    reg.push_back({0, cols});
  for (; rows < R; rows *= 2)
    reg.push_back({rows, 0});
  return share(LinearLayout(shape, reg, lane, warp));
}

/// Elements per access of a store in layout `l` (and the element's bits).
unsigned Assigner::storeWidth(tile::StoreOp st, const LinearLayout &l, unsigned &bits) {
  auto pointee = cast<tile::PointerType>(getElementTypeOrSelf(st.getPtr().getType()))
                     .getPointeeType();
  bits = isa<tile::PointerType>(pointee) ? 64 : std::max(8u, pointee.getIntOrFloatBitWidth());
  if (l.rank() == 0)
    return 1;
  unsigned dim = l.rank() - 1;
  unsigned v = std::min({l.contiguousRegs(dim), 128u / bits,
                         std::max(1u, hint(st.getPtr(), st.getMask(), dim))});
  while (v > 1 && (v & (v - 1)))
    v &= v - 1;
  return v;
}

LayoutRef Assigner::asyncCopyLayout(tgpu::AsyncCopyOp copy) {
  auto t = cast<RankedTensorType>(copy.getPtr().getType());
  auto pointee = cast<tile::PointerType>(t.getElementType()).getPointeeType();
  unsigned eb = elementBytes(pointee);
  std::vector<int64_t> shape = shapeOf(t);
  // At most 16 bytes a thread along the rows, the lanes side by side: each
  // cp.async instruction then reads whole sectors. (The default layout's
  // 4 elements of an fp64 tile are two copies a thread, each reading half
  // of every sector it touches: twice the L2 traffic.)
  if (!transposed_[copy.getBuffer()])
    return share(LinearLayout::defaultFor(shape, o.numWarps, std::max(o.layoutBits, eb * 8),
                                          o.warpSize));
  // A 1- or 4-byte tile that runs along its rows, stored transposed (the
  // B of an int8, fp8 or tf32 wgmma from a row-major matrix): 4 x 4 blocks
  // per thread, which the copy moves as four loads of 4 elements along the
  // rows and four stores of 4 elements down the columns; the lanes take 4
  // blocks down by 8 across (whole 32-byte sectors of each row). These
  // loads are synchronous: a 4-byte tile of at most 32 elements a thread
  // goes by cp.async instead, an element a copy (below), whose latency the
  // pipeline hides; past 32, the copies' pointers (one per element, live
  // across the loop) would spill.
  // 8-bit rows whose runs of 4 are not whole or aligned (N or the row
  // stride not known to be a multiple of 16) take the same blocks, loaded
  // a byte at a time, where the pointers run along the rows.
  if (shape.size() != 2)
    return share(LinearLayout::defaultFor(shape, o.numWarps, eb * 8, o.warpSize, 0));
  // Warps go along the rows, then down, while the tile has room for them;
  // those left over hold replicas.
  auto blocked = [&](BlockedParams p) {
    unsigned warps = o.numWarps;
    for (unsigned d : {1u, 0u}) {
      int64_t left = shape[d] / (p.sizePerThread[d] * p.threadsPerWarp[d]);
      while (warps > 1 && left >= 2) {
        p.warpsPerCTA[d] *= 2;
        left /= 2;
        warps /= 2;
      }
    }
    p.warpsPerCTA[1] *= warps;
    return share(LinearLayout::blocked(shape, p, o.warpSize));
  };
  int64_t perThread = shape[0] * shape[1] / (o.numWarps * o.warpSize);
  bool alongRows = o.contiguity && o.contiguity(copy.getPtr(), 1) >= 8;
  bool rowRuns = hint(copy.getPtr(), copy.getMask(), 1) >= 4 || (eb == 1 && alongRows);
  if ((eb == 1 || (eb == 4 && perThread > 32)) && rowRuns && shape[0] >= 4 && shape[1] >= 4) {
    BlockedParams p{{4, 4}, {4, 8}, {1, 1}, {1, 0}};
    int64_t room[2] = {shape[0] / 4, shape[1] / 4};
    for (unsigned d : {1u, 0u}) { // lanes past a short dimension go to the other
      while (p.threadsPerWarp[d] > 1 && room[d] < p.threadsPerWarp[d]) {
        p.threadsPerWarp[d] /= 2;
        p.threadsPerWarp[1 - d] *= 2;
      }
    }
    return blocked(p);
  }
  // A 4-byte tile of that kind of at most 32 elements a thread, or one
  // whose runs along the rows are not known to be 16-byte aligned or whole
  // (a row stride or N not known to be a multiple of 16: the mask or the
  // rows' starts break the runs of 4), whose pointers run along the rows:
  // one 4-byte cp.async an element, the lanes of a warp 4 rows by 8
  // consecutive columns, so that each copy reads whole 32-byte sectors and
  // (the 128-byte swizzle moving each stored row's 16-byte chunk) writes 32
  // distinct banks; not the default's lane a row, which reads a sector an
  // element.
  if (eb == 4 && alongRows && shape[0] >= 4 && shape[1] >= 8)
    return blocked(BlockedParams{{1, 1}, {4, 8}, {1, 1}, {1, 0}});
  return share(LinearLayout::defaultFor(shape, o.numWarps, eb * 8, o.warpSize, 0));
}

/// The layout a loop carries pointer tile `arg` in (its init is in
/// `init`): the one its asynchronous copy fills its slot in; else, when a
/// global access goes through it (or through the tile one addptr makes of
/// it), the one that access runs widest in, so that the access does not
/// take the pointers' layout every iteration (an init in another layout is
/// converted once, before the loop); else none (the init's).
LayoutRef Assigner::carriedPointerLayout(Value arg, LayoutRef init) {
  if (!isTensor(arg) || !isa<tile::PointerType>(getElementTypeOrSelf(arg.getType())))
    return nullptr;
  SmallVector<Value> ptrs{arg};
  for (Operation *u : arg.getUsers())
    if (auto a = dyn_cast<tile::AddPtrOp>(u); a && a.getPtr() == arg)
      ptrs.push_back(a.getResult());
  for (Value p : ptrs)
    for (Operation *u : p.getUsers())
      if (auto c = dyn_cast<tgpu::AsyncCopyOp>(u); c && c.getPtr() == p)
        return asyncCopyLayout(c);
  if (!init)
    return nullptr;
  for (Value p : ptrs)
    for (Operation *u : p.getUsers()) {
      bool accessed = false;
      if (auto l = dyn_cast<tile::LoadOp>(u))
        accessed = l.getPtr() == p;
      else if (auto st = dyn_cast<tile::StoreOp>(u))
        accessed = st.getPtr() == p;
      if (accessed) {
        LayoutRef l = access(arg, Value(), Value(), init, true);
        return l == init ? nullptr : l;
      }
    }
  return nullptr;
}

/// `preferred` if it keeps each run of `pack` elements in one thread, else
/// the default layout, else `pack` consecutive elements per thread.
LayoutRef Assigner::packed(LayoutRef preferred, Type tensorType, unsigned pack) {
  if (preferred && preferred->packedRuns(pack))
    return preferred;
  LayoutRef d = def(tensorType);
  if (d->packedRuns(pack))
    return d;
  auto t = cast<RankedTensorType>(tensorType);
  return share(LinearLayout::blocked({t.getNumElements()}, {pack}, {o.warpSize}, {o.numWarps},
                                     {0}, o.warpSize)
                   .reshape(shapeOf(t)));
}

LogicalResult Assigner::block(Block &b) {
  for (Operation &x : b)
    if (failed(op(&x)))
      return failure();
  return success();
}

LogicalResult Assigner::forOp(scf::ForOp loop) {
  std::vector<LayoutRef> carried;
  for (auto [init, arg] : llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs())) {
    LayoutRef l = get(init);
    if (LayoutRef p = carriedPointerLayout(arg, l))
      l = p;
    carried.push_back(l);
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (int pass = 0; pass < 2; ++pass) {
    for (auto [arg, l] : llvm::zip(loop.getRegionIterArgs(), carried))
      set(arg, l);
    if (failed(block(*loop.getBody())))
      return failure();
    std::vector<LayoutRef> yielded;
    bool differ = false;
    for (auto [y, have] : llvm::zip(yield.getOperands(), carried)) {
      yielded.push_back(get(y));
      differ |= have && yielded.back() && *have != *yielded.back();
    }
    if (!differ)
      break;
    // Carry what the body yields: one conversion before the loop instead
    // of one per iteration.
    carried = yielded;
  }
  for (auto [k, l] : llvm::enumerate(carried)) {
    need(loop.getInitArgsMutable()[k], l);
    need(yield->getOpOperand(k), l);
    set(loop.getResult(k), l);
  }
  return success();
}

LogicalResult Assigner::ifOp(scf::IfOp op) {
  if (failed(block(op.getThenRegion().front())))
    return failure();
  if (!op.getElseRegion().empty() && failed(block(op.getElseRegion().front())))
    return failure();
  if (!op.getNumResults())
    return success();
  auto thenY = op.thenYield();
  for (unsigned k = 0; k < op.getNumResults(); ++k) {
    LayoutRef l = get(thenY.getOperand(k));
    need(op.elseYield()->getOpOperand(k), l);
    set(op.getResult(k), l);
  }
  return success();
}

LogicalResult Assigner::whileOp(scf::WhileOp op) {
  std::vector<LayoutRef> carried;
  for (auto [k, init] : llvm::enumerate(op.getInits())) {
    carried.push_back(get(init));
    need(op.getInitsMutable()[k], carried.back());
    set(op.getBeforeArguments()[k], carried.back());
  }
  if (failed(block(op.getBefore().front())))
    return failure();
  auto cond = op.getConditionOp();
  for (auto [k, v] : llvm::enumerate(cond.getArgs())) {
    set(op.getAfterArguments()[k], get(v));
    set(op.getResult(k), get(v));
  }
  if (failed(block(op.getAfter().front())))
    return failure();
  Operation *yield = op.getAfter().front().getTerminator();
  for (auto [k, l] : llvm::enumerate(carried))
    need(yield->getOpOperand(k), l);
  return success();
}

Attribute Assigner::encodingFor(const LinearLayout &l, RankedTensorType t) {
  // The products' own encodings name their layouts wherever they recur
  // (an accumulator's initial value, the loop carrying it).
  auto same = [&](Attribute enc) {
    auto m = tgpu::toLinearLayout(enc, t.getShape(), o.warpSize);
    return m && *m == l;
  };
  for (Attribute enc : fixedOrder_)
    if (same(enc))
      return enc;
  return layoutEncoding(l, t, o);
}

void Assigner::write(func::FuncOp func) {
  // Values share layouts: name each (layout, type) once.
  std::map<std::pair<const LinearLayout *, const void *>, Attribute> named;
  auto encodingOf = [&](const LayoutRef &l, RankedTensorType t) {
    Attribute &enc = named[std::make_pair(l.get(), t.getAsOpaquePointer())];
    if (!enc)
      enc = encodingFor(*l, t);
    return enc;
  };
  auto encode = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return;
    Attribute enc = shared_.lookup(v);
    if (!enc)
      enc = fixed_.lookup(v);
    if (!enc) {
      LayoutRef l = get(v);
      if (!l)
        return;
      enc = encodingOf(l, t);
    }
    RankedTensorType nt = tgpu::withEncoding(t, enc);
    v.setType(nt);
    // A constant's value carries its type too.
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
        c.setValueAttr(dense.reshape(nt));
  };
  // Conversions first (the operands' types are still the plain ones).
  std::vector<std::pair<OpOperand *, LayoutRef>> moves;
  func.walk([&](Operation *op) { // in program order
    for (OpOperand &u : op->getOpOperands()) {
      auto it = want_.find(&u);
      if (it == want_.end())
        continue;
      LayoutRef have = get(u.get());
      if (have && *have != *it->second && !shared_.count(u.get()))
        moves.push_back({&u, it->second});
    }
  });
  func.walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          encode(a);
    for (Value r : op->getResults())
      encode(r);
  });
  for (auto &[u, l] : moves) {
    auto t = cast<RankedTensorType>(u->get().getType());
    RankedTensorType nt = tgpu::withEncoding(t, encodingOf(l, tgpu::withEncoding(t, Attribute())));
    // A value made outside the loops around its reader that cannot be
    // recomputed in the new layout is converted once, before them, not
    // in every iteration.
    Operation *at = u->getOwner();
    if (!canRemat(u->get(), *l, 0)) {
      Region *home = u->get().getParentRegion();
      while (Operation *p = at->getParentOp()) {
        if (!isa<scf::ForOp, scf::WhileOp>(p) || p->isAncestor(home->getParentOp()) ||
            !p->isProperAncestor(at))
          break;
        at = p;
      }
    }
    OpBuilder b(at);
    Value c = tgpu::ConvertLayoutOp::create(b, u->getOwner()->getLoc(), nt, u->get());
    u->set(c);
  }
}

LogicalResult Assigner::run(func::FuncOp func) {
  // Which slots hold their tile transposed decides the copies' layouts.
  func.walk([&](tgpu::AsyncCopyOp c) {
    if (!transposed_.count(c.getBuffer()))
      transposed_[c.getBuffer()] =
          copyStoresTransposed(c, o.computeCapability, o.numWarps, o.vectorWidth);
  });
  for (BlockArgument a : func.getArguments())
    if (isTensor(a))
      return fail(func, "kernel parameters are scalars or pointers");
  if (failed(block(func.getBody().front())))
    return failure();
  write(func);
  return success();
}


Attribute tritium::codegen::layoutEncoding(const LinearLayout &l, RankedTensorType t,
                                           const LayoutOptions &o) {
  MLIRContext *ctx = t.getContext();
  auto shape = t.getShape();
  auto same = [&](Attribute enc) {
    auto m = tgpu::toLinearLayout(enc, shape, o.warpSize);
    return m && *m == l;
  };
  // Names depend on the map and the shape only, so that a loaded value and
  // its pointers, whatever their element types, name one layout alike.
  std::vector<int64_t> s(shape.begin(), shape.end());
  for (unsigned bits : {o.layoutBits, 8u, 16u, 32u, 64u})
    for (unsigned d = s.size(); d-- > 0;) {
      Attribute b = tgpu::blockedEncoding(
          ctx, LinearLayout::defaultBlocked(s, o.numWarps, bits, o.warpSize, d));
      if (same(b))
        return b;
    }
  if (s.size() == 2)
    for (unsigned wm = 1; wm <= o.numWarps; wm *= 2) {
      unsigned wn = o.numWarps / wm;
      for (unsigned version : {3u, 2u}) {
        if (version == 3 && (wm % 4 || o.computeCapability < 90))
          continue;
        auto mma = tgpu::MmaEncodingAttr::get(ctx, version, {wm, wn});
        if (same(mma))
          return mma;
        if (version == 2) {
          auto a = tgpu::DotOperandEncodingAttr::get(ctx, 0, mma);
          if (same(a))
            return a;
        }
      }
    }
  return tgpu::linearEncoding(ctx, l);
}

LogicalResult tritium::codegen::assignLayouts(Operation *func, const LayoutOptions &options,
                                              std::string &error) {
  Assigner a(options);
  if (failed(a.run(cast<func::FuncOp>(func)))) {
    error = a.error;
    return failure();
  }
  return success();
}

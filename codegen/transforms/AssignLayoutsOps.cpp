//===- AssignLayoutsOps.cpp - the layout rule of each op -------------------===//
//
// Assigner::op: the layout assignment's rule for one op (the anchors,
// fresh values, forwarding and shape ops listed in AssignLayouts.cpp), and
// the layouts its operands are needed in.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/LayoutAssigner.h"

using namespace mlir;
using namespace tritium::codegen;
using namespace tritium::codegen::layout_assignment;

LogicalResult Assigner::op(Operation *op) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    return forOp(f);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return ifOp(i);
  if (auto w = dyn_cast<scf::WhileOp>(op))
    return whileOp(w);
  if (op->getNumResults() == 0 && !isa<tile::StoreOp, tgpu::AsyncCopyOp, tile::HistogramOp,
                                       tile::DescriptorStoreOp, tile::DescriptorScatterOp,
                                       tile::DescriptorReduceOp>(op))
    return success(); // barriers, prints, asserts, mbarriers, waits, yields
  llvm::StringRef name = op->getName().getStringRef();
  Value r0 = op->getNumResults() ? op->getResult(0) : Value();
  if (isElementwiseOpName(name)) {
    if (!isTensor(r0))
      return success();
    LayoutRef l = elementwise(op, r0.getType());
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    set(r0, l);
    return success();
  }
  if (isa<arith::ConstantOp, tile::MakeRangeOp, tile::SplatOp, tile::DescriptorLoadOp,
          tile::DescriptorGatherOp>(op)) {
    if (isTensor(r0))
      set(r0, def(r0.getType()));
    return success();
  }
  if (auto e = dyn_cast<tile::ExpandDimsOp>(op)) {
    set(e, share(get(e.getSrc())->expandDim(e.getAxis())));
    return success();
  }
  if (auto bc = dyn_cast<tile::BroadcastOp>(op)) {
    LayoutRef src = get(bc.getSrc()), d = def(bc.getType());
    set(bc, LinearLayout::threadLocalMap(*src, *d)
                ? d
                : share(src->broadcastTo(shapeOf(bc.getType()))));
    return success();
  }
  if (auto rs = dyn_cast<tile::ReshapeOp>(op)) {
    set(rs, share(get(rs.getSrc())->reshape(shapeOf(rs.getType()))));
    return success();
  }
  if (auto t = dyn_cast<tile::TransOp>(op)) {
    std::vector<unsigned> perm(t.getOrder().begin(), t.getOrder().end());
    set(t, share(get(t.getSrc())->transpose(perm)));
    if (auto s = shared_.lookup(t.getSrc())) {
      auto enc = cast<tgpu::SharedEncodingAttr>(s);
      shared_[t] = tgpu::SharedEncodingAttr::get(op->getContext(), enc.getSwizzle(),
                                                 enc.getPad(), !enc.getTransposed());
    }
    return success();
  }
  if (auto h = dyn_cast<tile::HintOp>(op)) {
    set(h, get(h->getOperand(0)));
    return success();
  }
  if (auto j = dyn_cast<tile::JoinOp>(op)) {
    LayoutRef l = get(j.getLhs());
    need(j.getRhsMutable(), l);
    unsigned rank = l->rank();
    Coord basis(rank + 1, 0);
    basis[rank] = 1;
    set(j, share(l->expandDim(rank).withExtraRegBit(shapeOf(j.getType()), basis)));
    return success();
  }
  if (auto c = dyn_cast<tile::CatOp>(op)) {
    LayoutRef l = get(c.getLhs());
    need(c.getRhsMutable(), l);
    Coord basis(l->rank(), 0);
    basis[c.getDim()] = l->shape()[c.getDim()];
    set(c, share(l->withExtraRegBit(shapeOf(c.getType()), basis)));
    return success();
  }
  if (auto s = dyn_cast<tile::SplitOp>(op)) {
    LayoutRef l = get(s.getSrc());
    unsigned last = l->rank() - 1;
    Coord unitLast(l->rank(), 0);
    unitLast[last] = 1;
    if (!llvm::is_contained(l->bases(LinearLayout::Reg), unitLast)) {
      l = share(l->rank() == 1 ? LinearLayout::allInThread(l->shape(), o.numWarps)
                               : LinearLayout::axisInThread(l->shape(), last, o.numWarps));
      need(s.getSrcMutable(), l);
    }
    LayoutRef out = share(l->sliceDim(last));
    for (Value r : s->getResults())
      set(r, out);
    return success();
  }
  if (auto ld = dyn_cast<tile::LoadOp>(op)) {
    LayoutRef l = access(ld.getPtr(), ld.getMask(), ld.getOther(), get(ld.getPtr()), false,
                         false, 128, /*widen=*/true);
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    set(ld, l);
    return success();
  }
  if (auto st = dyn_cast<tile::StoreOp>(op)) {
    LayoutRef v = get(st.getValue()), a = get(st.getPtr());
    LayoutRef l = access(st.getPtr(), st.getMask(), Value(), a, false,
                         v && a && *v != *a && !isCheapTile(st.getValue()) &&
                             !LinearLayout::threadLocalMap(*v, *a),
                         128, /*widen=*/true, st.getValue());
    // On AMD a value that is costly to move (an MFMA accumulator, whose
    // transposed blocks hold four consecutive elements of a row per lane)
    // is stored where it lies when that takes 8 bytes or more per access,
    // or as many as the pointers' layout would: no round trip through
    // LDS, which the products' staging needs.
    if (o.mfma && v && l && *v != *l && !isCheapTile(st.getValue())) {
      unsigned bits = 0, here = storeWidth(st, *v, bits);
      if ((here * bits >= 64 || here >= storeWidth(st, *l, bits)) &&
          canRemat(st.getPtr(), *v, 0) &&
          (!st.getMask() || !isTensor(st.getMask()) || canRemat(st.getMask(), *v, 0)))
        l = v;
    }
    // A 16-bit tile transposed in registers (runs down the columns, a
    // tl.trans of a row-major load) stored along its rows: the layout the
    // conversion reads with ldmatrix.trans (8 consecutive elements a
    // thread, 4 lanes across 32 columns, 8 down the rows: each store
    // instruction still writes whole 64-byte runs).
    if (LayoutRef t = transposedStoreLayout(st, v, l)) {
      bool ok = canRemat(st.getPtr(), *t, 0) &&
                (!st.getMask() || !isTensor(st.getMask()) || canRemat(st.getMask(), *t, 0));
      if (ok)
        l = t;
    }
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    return success();
  }
  if (auto at = dyn_cast<tile::AtomicRMWOp>(op)) {
    // Coalesced, lanes on consecutive elements, each access as wide as
    // the atomic's vector form allows: one element, or 16 bytes for
    // sm_90's atom.add.v4.f32 / .v8.f16. Unlike a store, even when the
    // value has to move for it: an atomic instruction whose lanes lie
    // apart costs a memory transaction per sector it touches (an
    // accumulator added into memory, as split-K does, otherwise goes an
    // element at a time with the lanes of each instruction rows apart).
    LayoutRef l = access(at.getPtr(), at.getMask(), Value(), get(at.getPtr()), false,
                         /*valueMoves=*/true, atomicBits(at), /*widen=*/true);
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    set(r0, l);
    return success();
  }
  if (isa<tile::AtomicCASOp>(op)) {
    LayoutRef l = get(op->getOperand(0));
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    set(r0, l);
    return success();
  }
  if (auto c = dyn_cast<tgpu::AsyncCopyOp>(op)) {
    LayoutRef l = get(c.getPtr()), want = asyncCopyLayout(c);
    if (*want != *l) {
      bool ok = canRemat(c.getPtr(), *want, 0);
      if (ok && c.getMask()) {
        LayoutRef m = get(c.getMask());
        ok = m && (*m == *want || canRemat(c.getMask(), *want, 0));
      }
      if (ok)
        l = want;
    }
    for (OpOperand &u : op->getOpOperands())
      need(u, l);
    return success();
  }
  if (auto ld = dyn_cast<tgpu::SharedLoadOp>(op)) {
    set(ld, def(ld.getType()));
    if (tensorCoresReadInPlace(ld.getResult(), o.computeCapability, o.numWarps)) {
      auto t = ld.getType();
      auto copied = transposed_.find(ld.getBuffer()); // cp.async slots (not TMA's)
      bool tr = copied != transposed_.end() && copied->second;
      int64_t cols = t.getShape().back(), rows = t.getNumElements() / cols;
      unsigned eb = elementBytes(t);
      // Where cp.async fills the slot, the layout its readers want; TMA
      // writes its boxes as they are.
      SharedLayout s = copied != transposed_.end()
                           ? copySlotLayout(ld.getResult(), rows, cols, eb, tr,
                                            o.computeCapability, o.numWarps)
                           : SharedLayout::best(rows, cols, eb, 8);
      shared_[ld] = tgpu::SharedEncodingAttr::get(op->getContext(), s.swizzleBytes, s.pad, tr);
    }
    return success();
  }
  if (auto red = dyn_cast<tile::ReduceOp>(op)) {
    LayoutRef s = get(red.getSrcs()[0]);
    if (!s->separable(red.getAxis()))
      s = def(red.getSrcs()[0].getType());
    for (OpOperand &u : op->getOpOperands())
      need(u, s);
    LayoutRef out = share(s->sliceDim(red.getAxis()));
    // Named as the slice of the source's layout where that is the map.
    auto srcType = tgpu::withEncoding(red.getSrcs()[0].getType(), Attribute());
    Attribute slice = tgpu::SliceEncodingAttr::get(op->getContext(), red.getAxis(),
                                                   layoutEncoding(*s, srcType, o));
    for (Value r : red.getResult()) {
      set(r, out);
      auto rt = dyn_cast<RankedTensorType>(r.getType());
      auto m = rt ? tgpu::toLinearLayout(slice, rt.getShape(), o.warpSize) : std::nullopt;
      if (m && *m == *out)
        fix(r, slice);
    }
    return success();
  }
  if (auto sc = dyn_cast<tile::ScanOp>(op)) {
    // A scan runs where its source is when the axis goes registers, lanes,
    // warps, registers from its lowest bit up; otherwise in the default
    // layout with the axis fastest.
    LayoutRef s = get(sc.getSrcs()[0]);
    unsigned axis = sc.getAxis();
    if (!s->scansInOrder(axis))
      s = share(LinearLayout::defaultFor(s->shape(), o.numWarps, o.layoutBits, o.warpSize, axis));
    for (OpOperand &u : op->getOpOperands())
      need(u, s);
    for (Value r : sc.getResult())
      set(r, s);
    return success();
  }
  if (auto so = dyn_cast<tile::SortOp>(op)) {
    auto l = sortLayout(*get(so.getSrc()), *def(so.getType()), so.getAxis(), o.numWarps,
                        o.warpSize);
    if (!l)
      return fail(op, "tile.sort: cannot place the axis in registers");
    LayoutRef s = share(l->first);
    need(so.getSrcMutable(), s);
    set(so, s);
    return success();
  }
  if (auto g = dyn_cast<tile::GatherOp>(op)) {
    set(g, get(g.getIndices()));
    return success();
  }
  if (auto h = dyn_cast<tile::HistogramOp>(op)) {
    if (h.getMask())
      need(h.getMaskMutable()[0], get(h.getSrc()));
    set(h, def(h.getType()));
    return success();
  }
  if (auto m = dyn_cast<tile::MapElementwiseOp>(op)) {
    Type any = m.getResult()[0].getType();
    LayoutRef s = m.getSrcs().empty() ? def(any) : get(m.getSrcs()[0]);
    int64_t numel = cast<RankedTensorType>(any).getNumElements();
    if (m.getPack() > 0 && numel % m.getPack() == 0 && llvm::isPowerOf2_64(m.getPack()) &&
        !s->packedRuns(m.getPack()))
      s = share(LinearLayout::blocked({cast<RankedTensorType>(any).getNumElements()},
                                      {unsigned(m.getPack())}, {o.warpSize}, {o.numWarps}, {0},
                                      o.warpSize)
                    .reshape(shapeOf(any)));
    for (OpOperand &u : op->getOpOperands())
      need(u, s);
    for (Value r : m.getResult())
      set(r, s);
    return success();
  }
  if (auto ia = dyn_cast<tile::ElementwiseInlineAsmOp>(op)) {
    RankedTensorType t;
    for (Value v : ia.getArgs())
      t = t ? t : dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return success();
    int64_t pack = int32_t(ia.getPackedElement());
    // A pack the lowering rejects (with its reason) keeps the default.
    LayoutRef s = pack > 0 && llvm::isPowerOf2_64(uint64_t(pack)) && t.getNumElements() % pack == 0
                      ? packed(elementwise(op, t), t, unsigned(pack))
                      : def(t);
    for (OpOperand &u : op->getOpOperands())
      need(u, s);
    for (Value r : op->getResults())
      set(r, s);
    return success();
  }
  if (auto d = dyn_cast<tile::DotOp>(op)) {
    auto ct = d.getType();
    MfmaShape mf = o.mfma ? dotMfmaShape(d, o.numWarps, o.amdArch) : MfmaShape{};
    if (mf.block) {
      // Blocks transposed: a lane's registers run along the row (stores
      // of four consecutive elements, row reductions mostly in-thread).
      set(d, share(LinearLayout::mfmaAccumulator(ct.getShape()[0], ct.getShape()[1], mf.wm,
                                                 mf.wn, mf.block, true)));
      // An A made outside the loop around the product (attention's Q) is
      // converted once into the registers of its fragments, instead of
      // being staged in LDS at every product (16-bit operands).
      auto at = cast<RankedTensorType>(d.getA().getType());
      int64_t K = at.getShape()[1];
      Operation *loop = op->getParentOfType<scf::ForOp>();
      if (loop && K % mf.block == 0 && at.getElementType().getIntOrFloatBitWidth() == 16 &&
          !loop->isAncestor(d.getA().getParentRegion()->getParentOp()))
        need(d.getAMutable(), share(LinearLayout::mfmaOperandA(ct.getShape()[0], K, mf.wm,
                                                               mf.wn, mf.block)));
    } else if (dotUsesMma(d, o.computeCapability, o.numWarps)) {
      int64_t M = ct.getShape()[0], N = ct.getShape()[1];
      auto [wm, wn] = dotMmaWarps(d, o.numWarps, o.computeCapability);
      bool wg = dotUsesWgmma(d, o.computeCapability, o.numWarps);
      if (ct.getRank() == 3) { // batched: warps over the batch first
        unsigned wb = dotBatchWarps(d, o.numWarps);
        fix(d, tgpu::MmaEncodingAttr::get(op->getContext(), 2, {wb, wm, wn}));
        set(d, share(mmaProductLayout(d, wb, wm, wn)));
      } else {
        fix(d, tgpu::MmaEncodingAttr::get(op->getContext(), wg ? 3 : 2, {wm, wn}));
        set(d, share(wg ? LinearLayout::wgmmaAccumulator(M, N, wm / 4, wn)
                        : LinearLayout::mmaAccumulator(M, N, wm, wn)));
      }
    } else {
      set(d, get(d.getC()));
    }
    need(d.getCMutable(), get(d));
    return success();
  }
  if (descriptorStoreUsesTma(op, o.computeCapability)) {
    // Written into shared memory for TMA from wherever it is.
    OpOperand &src = cast<tile::DescriptorStoreOp>(op).getSrcMutable();
    need(src, get(src.get()));
    return success();
  }
  if (isa<tile::DescriptorStoreOp, tile::DescriptorScatterOp, tile::DescriptorReduceOp>(op)) {
    // The block's value is written from the default layout.
    OpOperand &src = isa<tile::DescriptorStoreOp>(op)
                         ? cast<tile::DescriptorStoreOp>(op).getSrcMutable()
                     : isa<tile::DescriptorScatterOp>(op)
                         ? cast<tile::DescriptorScatterOp>(op).getSrcMutable()
                         : cast<tile::DescriptorReduceOp>(op).getSrcMutable();
    need(src, def(src.get().getType()));
    return success();
  }
  // Anything else producing tensors starts from the default layout.
  for (Value r : op->getResults())
    if (isTensor(r))
      set(r, def(r.getType()));
  return success();
}


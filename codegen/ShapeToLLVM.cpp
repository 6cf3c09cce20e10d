//===- ShapeToLLVM.cpp - program ids, ranges and shape ops ----------------===//
//
// Shape ops change the layout, not the data: expand_dims, reshape, trans,
// join and cat produce the layout that keeps every register where it is
// (derived from the source layout's bases), and broadcast reuses registers
// (threadLocalMap). Only split may have to move data first, when the split
// dimension is spread over lanes rather than registers.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

std::vector<int64_t> shapeOf(Type t) {
  auto s = cast<RankedTensorType>(t).getShape();
  return {s.begin(), s.end()};
}

LogicalResult programId(Lowering &L, Operation *op) {
  auto p = cast<tile::GetProgramIdOp>(op);
  L.set(p, Lowered{nullptr, {L.target.programId(L.b, unsigned(p.getAxis()))}});
  return success();
}

LogicalResult numPrograms(Lowering &L, Operation *op) {
  auto p = cast<tile::GetNumProgramsOp>(op);
  L.set(p, Lowered{nullptr, {L.target.numPrograms(L.b, unsigned(p.getAxis()))}});
  return success();
}

LogicalResult makeRange(Lowering &L, Operation *op) {
  auto r = cast<tile::MakeRangeOp>(op);
  LayoutRef layout = L.assigned(r.getType());
  Lowered out{layout, {}};
  for (unsigned i = 0; i < layout->numRegs(); ++i)
    out.regs.push_back(L.b.CreateAdd(L.coord(*layout, i, 0), L.i32(r.getStart())));
  L.set(r, std::move(out));
  return success();
}

LogicalResult splat(Lowering &L, Operation *op) {
  auto s = cast<tile::SplatOp>(op);
  LayoutRef layout = L.assigned(s.getType());
  L.set(s, Lowered{layout, std::vector<llvm::Value *>(layout->numRegs(),
                                                       L.scalar(s.getSrc()))});
  return success();
}

LogicalResult unsplat(Lowering &L, Operation *op) {
  auto u = cast<tile::UnsplatOp>(op);
  L.set(u, Lowered{nullptr, {L.get(u.getSrc()).regs.front()}});
  return success();
}

LogicalResult expandDims(Lowering &L, Operation *op) {
  auto e = cast<tile::ExpandDimsOp>(op);
  Lowered &src = L.get(e.getSrc());
  L.set(e, Lowered{L.share(src.layout->expandDim(e.getAxis())), src.regs});
  return success();
}

LogicalResult broadcast(Lowering &L, Operation *op) {
  auto bc = cast<tile::BroadcastOp>(op);
  Lowered src = L.get(bc.getSrc());
  // The assigned layout when the thread already holds its elements;
  // otherwise the source layout extended over the new extent.
  LayoutRef dst = L.assigned(bc.getType());
  auto map = LinearLayout::threadLocalMap(*src.layout, *dst);
  if (!map) {
    dst = L.share(src.layout->broadcastTo(shapeOf(bc.getType())));
    map = LinearLayout::threadLocalMap(*src.layout, *dst);
  }
  if (!map)
    return L.fail(op, "internal error: broadcast layout");
  Lowered out{dst, {}};
  for (unsigned r : *map)
    out.regs.push_back(src.regs[r]);
  L.set(bc, std::move(out));
  return success();
}

LogicalResult reshape(Lowering &L, Operation *op) {
  auto r = cast<tile::ReshapeOp>(op);
  Lowered &src = L.get(r.getSrc());
  L.set(r, Lowered{L.share(src.layout->reshape(shapeOf(r.getType()))), src.regs});
  return success();
}

LogicalResult trans(Lowering &L, Operation *op) {
  auto t = cast<tile::TransOp>(op);
  Lowered &src = L.get(t.getSrc());
  std::vector<unsigned> perm(t.getOrder().begin(), t.getOrder().end());
  auto inPlace = L.sharedTiles.find(t.getSrc());
  if (inPlace != L.sharedTiles.end()) { // read from shared memory by its users
    Lowering::SharedTile tile = inPlace->second;
    tile.transposed = !tile.transposed;
    L.sharedTiles[t.getResult()] = tile;
  }
  L.set(t, Lowered{L.share(src.layout->transpose(perm)), src.regs});
  return success();
}

LogicalResult join(Lowering &L, Operation *op) {
  auto j = cast<tile::JoinOp>(op);
  Lowered lhs = L.get(j.getLhs());
  std::vector<llvm::Value *> rhs = L.convert(j.getRhs(), *lhs.layout);
  unsigned rank = lhs.layout->rank();
  Coord basis(rank + 1, 0);
  basis[rank] = 1;
  LayoutRef out = L.share(
      lhs.layout->expandDim(rank).withExtraRegBit(shapeOf(j.getType()), basis));
  std::vector<llvm::Value *> regs = lhs.regs;
  regs.insert(regs.end(), rhs.begin(), rhs.end());
  L.set(j, Lowered{out, regs});
  return success();
}

LogicalResult cat(Lowering &L, Operation *op) {
  auto c = cast<tile::CatOp>(op);
  Lowered lhs = L.get(c.getLhs());
  std::vector<llvm::Value *> rhs = L.convert(c.getRhs(), *lhs.layout);
  unsigned dim = c.getDim();
  Coord basis(lhs.layout->rank(), 0);
  basis[dim] = lhs.layout->shape()[dim];
  LayoutRef out = L.share(lhs.layout->withExtraRegBit(shapeOf(c.getType()), basis));
  std::vector<llvm::Value *> regs = lhs.regs;
  regs.insert(regs.end(), rhs.begin(), rhs.end());
  L.set(c, Lowered{out, regs});
  return success();
}

LogicalResult split(Lowering &L, Operation *op) {
  auto s = cast<tile::SplitOp>(op);
  LayoutRef layout = L.get(s.getSrc()).layout;
  unsigned last = layout->rank() - 1;
  Coord unitLast(layout->rank(), 0);
  unitLast[last] = 1;
  auto findBit = [&](const LinearLayout &l) -> int {
    const auto &rb = l.bases(LinearLayout::Reg);
    for (unsigned i = 0; i < rb.size(); ++i)
      if (rb[i] == unitLast)
        return i;
    return -1;
  };
  std::vector<llvm::Value *> regs = L.get(s.getSrc()).regs;
  if (findBit(*layout) < 0) {
    std::vector<int64_t> shape = layout->shape();
    LinearLayout t = layout->rank() == 1
                         ? LinearLayout::allInThread(shape, L.numWarps)
                         : LinearLayout::axisInThread(shape, last, L.numWarps);
    regs = L.convert(s.getSrc(), t);
    layout = L.share(t);
  }
  unsigned bit = findBit(*layout);
  LayoutRef out = L.share(layout->sliceDim(last));
  std::vector<unsigned> kept = layout->sliceKeptRegs(last);
  Lowered lo{out, {}}, hi{out, {}};
  for (unsigned r : kept) {
    lo.regs.push_back(regs[r]);
    hi.regs.push_back(regs[r | (1u << bit)]);
  }
  if (out->rank() == 0) {
    L.set(s.getOutLHS(), Lowered{nullptr, lo.regs});
    L.set(s.getOutRHS(), Lowered{nullptr, hi.regs});
    return success();
  }
  L.set(s.getOutLHS(), std::move(lo));
  L.set(s.getOutRHS(), std::move(hi));
  return success();
}

LogicalResult hint(Lowering &L, Operation *op) {
  L.set(op->getResult(0), L.get(op->getOperand(0)));
  return success();
}

LogicalResult nothing(Lowering &, Operation *) { return success(); }

/// A move the layout assignment placed: registers picked within the
/// thread, cheap producers recomputed, or a trip through shared memory.
LogicalResult convertLayout(Lowering &L, Operation *op) {
  Value r = op->getResult(0);
  LayoutRef to = L.assigned(r.getType());
  if (!to || !L.get(op->getOperand(0)).layout)
    return L.fail(op, "internal error: conversion to or from shared memory");
  L.set(r, Lowered{to, L.convert(op->getOperand(0), *to)});
  return success();
}

LogicalResult debugBarrier(Lowering &L, Operation *) {
  // tl.debug_barrier, and the pipeliner's before copies refill slots a
  // product read: neither writes the staging area.
  L.barrier(/*staging=*/false);
  return success();
}

} // namespace

void tritium::codegen::populateShapeHandlers(HandlerTable &t) {
  t["tile.get_program_id"] = programId;
  t["tile.get_num_programs"] = numPrograms;
  t["tile.make_range"] = makeRange;
  t["tile.splat"] = splat;
  t["tile.unsplat"] = unsplat;
  t["tile.expand_dims"] = expandDims;
  t["tile.broadcast"] = broadcast;
  t["tile.reshape"] = reshape;
  t["tile.trans"] = trans;
  t["tile.join"] = join;
  t["tile.cat"] = cat;
  t["tile.split"] = split;
  t["tile.hint"] = hint;
  t["tile.assume"] = nothing;
  t["tgpu.convert_layout"] = convertLayout;
  t["tile.barrier"] = debugBarrier;
}

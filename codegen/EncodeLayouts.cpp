//===- EncodeLayouts.cpp - The tile-gpu stage: layouts as tgpu encodings ---===//
//
// After the lowering, every tensor value of the kernel has the layout it
// was emitted in (Lowering::chosen), and tiles that products read in place
// sit in shared memory (Lowering::sharedTiles). This writes them into the
// IR as tgpu encodings on the values' types, named where a named form
// gives the same map (#blocked, #mma, #dot_op, #shared) and #linear
// otherwise, and makes each move between layouts that the lowering did
// inside an op explicit as a tgpu.convert_layout before it:
//
//   op(x : L1) -> r : L2   where op takes its operands in r's layout
//     =>  op(convert_layout(x) : L2) -> r : L2
//
// so the stage parses and verifies as tgpu IR (`--emit tile-gpu`).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace tritium::codegen;

namespace {

/// The encoding for `l` on a tensor of type `t`: the first named form
/// whose map is `l`, else #tgpu.linear.
Attribute encodingFor(MLIRContext *ctx, const LinearLayout &l, RankedTensorType t,
                      const Lowering &L) {
  auto shape = t.getShape();
  unsigned lanes = L.target.warpSize();
  auto same = [&](Attribute enc) {
    auto m = tgpu::toLinearLayout(enc, shape, lanes);
    return m && *m == l;
  };
  std::vector<int64_t> s(shape.begin(), shape.end());
  Type et = t.getElementType();
  unsigned elemBits = isa<tile::PointerType>(et) ? 64 : std::max(8u, et.getIntOrFloatBitWidth());
  for (unsigned bits : {L.layoutBits, elemBits})
    for (unsigned d = s.size(); d-- > 0;) {
      Attribute b = tgpu::blockedEncoding(
          ctx, LinearLayout::defaultBlocked(s, L.numWarps, bits, lanes, d));
      if (same(b))
        return b;
    }
  if (s.size() == 2)
    for (unsigned wm = 1; wm <= L.numWarps; wm *= 2) {
      unsigned wn = L.numWarps / wm;
      for (unsigned version : {3u, 2u}) {
        if (version == 3 && wm % 4)
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

/// Ops whose tensor operands of the result's shape are read in the
/// result's layout (the lowering moved them there).
bool readsInResultLayout(Operation *op) {
  return !isa<tile::DotOp, tile::TransOp, tile::ReshapeOp, tile::GatherOp,
              tile::HistogramOp, tile::ReduceOp, tgpu::ConvertLayoutOp,
              tile::DescriptorGatherOp>(op);
}

void convertOperand(OpOperand &use, Type want) {
  Value v = use.get();
  if (v.getType() == want)
    return;
  OpBuilder b(use.getOwner());
  use.set(tgpu::ConvertLayoutOp::create(b, use.getOwner()->getLoc(), want, v));
}

/// Moves `use` (when a tensor of `like`'s shape) into `like`'s layout.
void convertLike(OpOperand &use, Type like) {
  auto t = dyn_cast<RankedTensorType>(use.get().getType());
  auto l = dyn_cast<RankedTensorType>(like);
  if (t && l && t.getShape() == l.getShape() && l.getEncoding())
    convertOperand(use, tgpu::withEncoding(t, l.getEncoding()));
}

} // namespace

bool tritium::codegen::encodeLayouts(Operation *module, const Lowering &L) {
  MLIRContext *ctx = module->getContext();
  llvm::DenseMap<std::pair<const LinearLayout *, Type>, Attribute> named;
  auto encode = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return;
    if (auto it = L.sharedTiles.find(v); it != L.sharedTiles.end()) {
      const SharedLayout &s = it->second.layout;
      v.setType(tgpu::withEncoding(
          t, tgpu::SharedEncodingAttr::get(ctx, s.swizzleBytes, s.pad, it->second.transposed)));
      return;
    }
    if (auto it = L.chosen.find(v); it != L.chosen.end()) {
      // Values share layouts: name each (layout, type) once.
      Attribute &enc = named[{it->second.get(), t}];
      if (!enc)
        enc = encodingFor(ctx, *it->second, t, L);
      RankedTensorType nt = tgpu::withEncoding(t, enc);
      v.setType(nt);
      // A constant's value carries its type too.
      if (auto c = v.getDefiningOp<arith::ConstantOp>())
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
          c.setValueAttr(dense.reshape(nt));
    }
  };
  module->walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          encode(a);
    for (Value r : op->getResults())
      encode(r);
  });

  // The moves between layouts, made explicit.
  std::vector<Operation *> ops;
  module->walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      for (OpOperand &u : op->getOpOperands())
        convertLike(u, load.getType());
      continue;
    }
    if (isa<tile::StoreOp, tgpu::AsyncCopyOp, tile::AtomicRMWOp, tile::AtomicCASOp>(op)) {
      Type ptrT = op->getOperand(0).getType();
      for (OpOperand &u : op->getOpOperands())
        if (u.getOperandNumber() > 0)
          convertLike(u, ptrT);
      continue;
    }
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      convertOperand(dot.getCMutable(), dot.getType());
      continue;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        for (auto [u, arg] : llvm::zip(op->getOpOperands(), loop.getRegionIterArgs()))
          convertOperand(u, arg.getType());
      } else if (isa<scf::IfOp>(parent) ||
                 (isa<scf::WhileOp>(parent) && yield->getParentRegion() ==
                                                   &cast<scf::WhileOp>(parent).getAfter())) {
        SmallVector<Type> targets;
        if (isa<scf::IfOp>(parent))
          targets.assign(parent->getResultTypes().begin(), parent->getResultTypes().end());
        else
          for (BlockArgument a : cast<scf::WhileOp>(parent).getBefore().getArguments())
            targets.push_back(a.getType());
        for (auto [u, t] : llvm::zip(op->getOpOperands(), targets))
          convertOperand(u, t);
      }
      continue;
    }
    if (auto cond = dyn_cast<scf::ConditionOp>(op)) {
      auto loop = cast<scf::WhileOp>(op->getParentOp());
      for (auto [u, t] : llvm::zip(cond.getArgsMutable(), loop.getResultTypes()))
        convertOperand(u, t);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [u, arg] : llvm::zip(loop.getInitArgsMutable(), loop.getRegionIterArgs()))
        convertOperand(u, arg.getType());
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (auto [u, t] : llvm::zip(loop.getInitsMutable(), loop.getBefore().getArgumentTypes()))
        convertOperand(u, t);
      continue;
    }
    if (op->getNumResults() == 0 || !readsInResultLayout(op))
      continue;
    Type rt = op->getResult(0).getType();
    for (OpOperand &u : op->getOpOperands())
      convertLike(u, rt);
  }
  return succeeded(verify(module));
}

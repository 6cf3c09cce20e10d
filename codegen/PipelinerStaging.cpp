//===- PipelinerStaging.cpp - tiles staged in shared memory ---------------===//
//
// Loads outside pipelined loops that tensor cores read inside loops are
// copied into shared memory once; descriptor block loads feeding tensor
// cores become masked pointer loads (then pipelined or staged like any
// other); and the shared-memory arithmetic both use.
//
//===----------------------------------------------------------------------===//
#include "codegen/PipelinerStaging.h"

#include "codegen/Lowering.h"
#include "codegen/dialect/GpuDialect.h"
#include "codegen/layouts/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
namespace tile = mlir::tile;

namespace tritium::codegen::pipeliner {

/// A zero constant (scalar or splat), as cp.async fills masked lanes.
bool isZeroConstant(Value v) {
  if (auto splat = v.getDefiningOp<tile::SplatOp>())
    v = splat.getOperand();
  if (auto cvt = v.getDefiningOp<tile::FpToFpOp>()) // 0.0 converted to fp8
    v = cvt.getSrc();
  Attribute a;
  if (!matchPattern(v, m_Constant(&a)))
    return false;
  if (auto dense = dyn_cast<SplatElementsAttr>(a))
    a = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(a))
    return i.getValue().isZero();
  return false;
}

/// A load that can land in shared memory asynchronously: a 16-bit float,
/// fp8, int8, fp32 or fp64 tile, 2-D or batched (3-D, its slot flattened)
/// (rows a multiple of 8 elements, masked-off lanes zero) read only by
/// products that read it in place (int8: wgmma only; fp32: wgmma, or FMA
/// products on sm_80+).
bool feedsTensorCores(tile::LoadOp load, unsigned cc, unsigned numWarps) {
  auto t = dyn_cast<RankedTensorType>(load.getType());
  Type et = t ? t.getElementType() : Type();
  bool fp8 = et && isa<Float8E4M3FNType, Float8E5M2Type>(et);
  if (!t || t.getRank() < 2 || t.getRank() > 3 || t.getShape().back() % 8 != 0 ||
      load.getIsVolatile() ||
      !(et.isF16() || et.isBF16() || fp8 || et.isInteger(8) || et.isF32() || et.isF64()))
    return false;
  if (load.getOther() && !isZeroConstant(load.getOther()))
    return false;
  return tritium::codegen::tensorCoresReadInPlace(load.getResult(), cc, numWarps);
}


/// Shared memory one program may use on a compute capability (with the
/// opt-in above 48 KB).
unsigned sharedLimit(unsigned cc) {
  if (cc >= 90)
    return 232448;
  if (cc == 80 || cc == 87)
    return 166912;
  return cc >= 80 ? 101376 : 49152;
}

/// Bytes of one slot of `load`'s tile, in the layout the lowering gives it
/// (copySlotLayout; FMA products' padded rows may run either way, which is
/// decided later: the larger).
int64_t slotBytes(Operation *load, unsigned cc, unsigned numWarps) {
  Value v = load->getResult(0);
  auto t = cast<RankedTensorType>(v.getType());
  unsigned eb = std::max(1u, t.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t cols = t.getShape().back(), rows = t.getNumElements() / cols;
  int64_t bytes = tritium::codegen::copySlotLayout(v, rows, cols, eb, false, cc, numWarps).bytes();
  if (tritium::codegen::onlyFmaProductsRead(v, cc, numWarps))
    bytes = std::max(
        bytes, tritium::codegen::copySlotLayout(v, rows, cols, eb, true, cc, numWarps).bytes());
  return bytes;
}


/// A load outside loops that only tensor cores read, inside loops (say the
/// queries of an attention kernel, read by every iteration), is copied into
/// shared memory once, never held in registers:
///   async_copy(p, m) -> slot 0; ...; commit; wait(0); x = shared_load slot 0
/// with the wait just before its first user.
/// Whether a product reading `load`'s tile (directly or through a
/// transpose) lies inside a loop, so that the tile is read again on every
/// iteration.
bool readInLoops(Operation *load) {
  for (Operation *u : load->getUsers()) {
    if (u->getParentOfType<LoopLikeOpInterface>())
      return true;
    if (isa<tile::TransOp>(u))
      for (Operation *tu : u->getUsers())
        if (tu->getParentOfType<LoopLikeOpInterface>())
          return true;
  }
  return false;
}

/// The op of `load`'s block holding its first user, or null.
Operation *firstUserInBlock(Operation *load) {
  Block *block = load->getBlock();
  Operation *first = nullptr;
  for (Operation *u : load->getUsers()) {
    Operation *a = block->findAncestorOpInBlock(*u);
    if (a && (!first || a->isBeforeInBlock(first)))
      first = a;
  }
  return first;
}

void stageOutsideLoops(ModuleOp module, unsigned cc, unsigned numWarps,
                       int64_t &nextBuffer, SharedBudget &budget) {
  std::vector<tile::LoadOp> loads;
  module.walk([&](tile::LoadOp load) {
    if (!load->getParentOfType<LoopLikeOpInterface>() && feedsTensorCores(load, cc, numWarps) &&
        readInLoops(load) && budget.take(slotBytes(load, cc, numWarps)))
      loads.push_back(load);
  });
  for (tile::LoadOp load : loads) {
    Operation *first = firstUserInBlock(load);
    if (!first)
      continue;
    int64_t buffer = nextBuffer++;
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
    tgpu::AsyncCopyOp::create(b, loc, load.getPtr(), slot, load.getMask(),
                              b.getI64IntegerAttr(buffer), b.getI64IntegerAttr(1));
    b.setInsertionPoint(first);
    tgpu::AsyncCommitOp::create(b, loc);
    tgpu::AsyncWaitOp::create(b, loc, b.getI64IntegerAttr(0));
    auto x = tgpu::SharedLoadOp::create(b, loc, load.getType(), slot,
                                        b.getI64IntegerAttr(buffer));
    load.getResult().replaceAllUsesWith(x.getResult());
    load.erase();
  }
}


/// Whether `dl` qualifies: a 2-D block of 16-bit, fp8, int8 or fp32 values with zero padding
/// from a descriptor made by tile.make_tensor_descriptor, read only by
/// tensor-core products.
bool descriptorLoadFeedsTensorCores(tile::DescriptorLoadOp dl, unsigned cc, unsigned numWarps) {
  auto mk = dl.getDesc().getDefiningOp<tile::MakeTensorDescOp>();
  auto t = cast<RankedTensorType>(dl.getType());
  Type et = t.getElementType();
  return mk && mk.getPadding() == tile::PaddingOption::PAD_ZERO && t.getRank() == 2 &&
         (et.isF16() || et.isBF16() || et.isF32() || et.isInteger(8) ||
          isa<Float8E4M3FNType, Float8E5M2Type>(et)) &&
         tritium::codegen::tensorCoresReadInPlace(dl.getResult(), cc, numWarps);
}


/// The same for loads outside loops read by products inside loops (the
/// queries of an attention kernel), which are then copied into shared
/// memory once (stageOutsideLoops).
void descriptorLoadsOutsideLoops(ModuleOp module, unsigned cc, unsigned numWarps) {
  std::vector<tile::DescriptorLoadOp> loads;
  module.walk([&](tile::DescriptorLoadOp dl) {
    if (dl->getParentOfType<LoopLikeOpInterface>() ||
        !descriptorLoadFeedsTensorCores(dl, cc, numWarps))
      return;
    if (readInLoops(dl))
      loads.push_back(dl);
  });
  rewriteDescriptorLoads(loads);
}

void rewriteDescriptorLoads(ArrayRef<tile::DescriptorLoadOp> loads) {
  for (tile::DescriptorLoadOp dl : loads) {
    auto mk = dl.getDesc().getDefiningOp<tile::MakeTensorDescOp>();
    auto t = cast<RankedTensorType>(dl.getType());
    OpBuilder b(dl);
    Location loc = dl.getLoc();
    Type i64 = b.getI64Type();
    int64_t B0 = t.getShape()[0], B1 = t.getShape()[1];
    auto tensorOf = [&](ArrayRef<int64_t> shape, Type et) {
      return RankedTensorType::get(shape, et);
    };
    Value ptr, mask;
    for (unsigned d = 0; d < 2; ++d) {
      int64_t Bd = t.getShape()[d];
      Value r = tile::MakeRangeOp::create(b, loc, tensorOf({Bd}, b.getI32Type()), 0,
                                          int32_t(Bd));
      r = arith::ExtSIOp::create(b, loc, tensorOf({Bd}, i64), r);
      Value idx = arith::ExtSIOp::create(b, loc, i64, dl.getIndices()[d]);
      Value c = arith::AddIOp::create(
          b, loc, tile::SplatOp::create(b, loc, tensorOf({Bd}, i64), idx), r);
      SmallVector<int64_t> shape{d == 0 ? Bd : 1, d == 0 ? 1 : Bd};
      c = tile::ReshapeOp::create(b, loc, tensorOf(shape, i64), c, UnitAttr());
      Value zero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(tensorOf(shape, i64), b.getI64IntegerAttr(0)));
      Value ext = arith::ExtSIOp::create(b, loc, i64, mk.getShape()[d]);
      Value in = arith::AndIOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c, zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                tile::SplatOp::create(b, loc, tensorOf(shape, i64), ext)));
      in = tile::BroadcastOp::create(b, loc, tensorOf({B0, B1}, b.getI1Type()), in);
      mask = mask ? arith::AndIOp::create(b, loc, mask, in) : in;
      Value off = c;
      if (d == 0)
        off = arith::MulIOp::create(
            b, loc, c, tile::SplatOp::create(b, loc, tensorOf(shape, i64), mk.getStrides()[0]));
      off = tile::BroadcastOp::create(b, loc, tensorOf({B0, B1}, i64), off);
      if (!ptr) {
        Type pt = mk.getBase().getType();
        ptr = tile::SplatOp::create(b, loc, tensorOf({B0, B1}, pt), mk.getBase());
      }
      ptr = tile::AddPtrOp::create(b, loc, ptr.getType(), ptr, off);
    }
    // An invariant `other`, as pipelined loads' must be.
    Operation *top = dl;
    while (auto l = top->getParentOfType<LoopLikeOpInterface>())
      top = l;
    OpBuilder outside(top);
    Value other = arith::ConstantOp::create(
        outside, loc, DenseElementsAttr::get(t, b.getFloatAttr(t.getElementType(), 0.0)));
    auto load = tile::LoadOp::create(b, loc, ptr, mask, other, dl.getCacheAttr(),
                                     dl.getEvictAttr(), UnitAttr());
    dl.getResult().replaceAllUsesWith(load.getResult());
    dl.erase();
  }
}

} // namespace tritium::codegen::pipeliner

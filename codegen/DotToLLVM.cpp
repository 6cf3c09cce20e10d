//===- DotToLLVM.cpp - tl.dot: the FMA path and the choice of path --------===//
//
// The FMA path, correct for every operand type: A and B are staged in
// shared memory in the accumulator's type (fp16/bf16 widened exactly, fp8
// decoded exactly, int8 widened to int32, fp32 rounded to tf32 first when
// the precision is tf32, as the tensor cores would), then each thread forms
// the outer products for its accumulator registers: per k, one load per
// distinct row of A and per distinct column of B it owns, then one FMA per
// register. Batched (3-D) products index the batch like the rows. On
// sm_80+ a 2-D product of fp32/fp16/bf16 tiles reads the operands the
// pipeliner copied into its slots in place (rows unswizzled and padded,
// copySlotLayout), widening as it loads; only other operands are staged.
//
// Which path a product takes, and the queries the passes ask about it
// (warps, layouts, operand staging). The tensor-core paths: mma.sync
// (nvidia/MmaSyncToLLVM.cpp), wgmma (nvidia/WgmmaToLLVM.cpp), MFMA on AMD
// (amd/MfmaToLLVM.cpp).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "codegen/amd/Amd.h"
#include "codegen/dialect/GpuDialect.h"
#include "codegen/nvidia/MmaSync.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include <map>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// Warps over (M, N): split the larger per-warp extent first.
std::pair<unsigned, unsigned> mmaWarps(int64_t M, int64_t N, unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool mRoom = M / (wm * 2) >= 16, nRoom = N / (wn * 2) >= 8;
    if (mRoom && (!nRoom || M / wm >= N / wn))
      wm *= 2;
    else if (nRoom)
      wn *= 2;
    else
      wm *= 2; // more warps than tiles: replicas
  }
  return {wm, wn};
}

/// Elementwise ops (arith, math) keep a tile's shape: products chained
/// through them (softmax(Q K^T) V) can hand over registers.
bool isElementwise(Operation *op) {
  llvm::StringRef n = op->getName().getStringRef();
  return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         (n.starts_with("arith.") || n.starts_with("math."));
}

/// `v` reaches operand A of a product through elementwise ops.
bool feedsDotA(Value v, int depth) {
  for (OpOperand &use : v.getUses()) {
    Operation *u = use.getOwner();
    if (isa<tile::DotOp, tgpu::WgmmaOp>(u) && use.getOperandNumber() == 0)
      return true;
    if (depth >= 8 || !isElementwise(u))
      continue;
    auto rt = dyn_cast<RankedTensorType>(u->getResult(0).getType());
    if (rt &&
        rt.getShape() == cast<RankedTensorType>(v.getType()).getShape() &&
        feedsDotA(u->getResult(0), depth + 1))
      return true;
  }
  return false;
}

/// `v` is a product's result, through elementwise ops.
bool fromDot(Value v, int depth) {
  Operation *d = v.getDefiningOp();
  if (!d)
    return false;
  if (isa<tile::DotOp, tgpu::WgmmaOp>(d))
    return true;
  if (depth >= 8 || !isElementwise(d))
    return false;
  auto shape = cast<RankedTensorType>(v.getType()).getShape();
  for (Value o : d->getOperands())
    if (auto t = dyn_cast<RankedTensorType>(o.getType()))
      if (t.getShape() == shape && fromDot(o, depth + 1))
        return true;
  return false;
}

/// Warps of a tensor-core product: every warp along M when the product
/// feeds another one's operand A or takes its A from one (the accumulator
/// then is the operand layout, in registers), else mmaWarps.
std::pair<unsigned, unsigned> mmaWarpsFor(tile::DotOp op, int64_t M, int64_t N,
                                          unsigned numWarps) {
  if (M / 16 >= int64_t(numWarps) &&
      (feedsDotA(op.getResult(), 0) || fromDot(op.getA(), 0)))
    return {numWarps, 1};
  return mmaWarps(M, N, numWarps);
}

LinearLayout mmaAccLayout(int64_t M, int64_t N, unsigned wm, unsigned wn) {
  return LinearLayout::mmaAccumulator(M, N, wm, wn);
}

bool mmaEligible(Lowering &L, tile::DotOp op) {
  return dotUsesMma(op, parseCudaTarget(L.target.name()), L.numWarps);
}

LogicalResult dot(Lowering &L, Operation *o) {
  auto op = cast<tile::DotOp>(o);
  if (!L.target.isNvidia())
    if (MfmaShape mf = dotMfmaShape(op, L.numWarps, parseHipTarget(L.target.name()));
        mf.block)
      return dotMfma(L, op.getOperation(), mf);
  if (dotUsesWgmma(op, parseCudaTarget(L.target.name()), L.numWarps))
    return L.fail(op, "internal error: a wgmma product not issued as a tgpu.wgmma group");
  if (mmaEligible(L, op)) {
    Type et = cast<RankedTensorType>(op.getA().getType()).getElementType();
    return et.isF32()               ? dotMmaTf32(L, op)
           : et.isF64()                 ? dotMmaF64(L, op)
           : mma8BitType(et) != nullptr ? dotMma8Bit(L, op)
                                        : dotMma(L, op);
  }
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto bT = cast<RankedTensorType>(op.getB().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = aT.getShape()[rank - 2], K = aT.getShape()[rank - 1];
  int64_t N = bT.getShape()[rank - 1];
  int64_t batch = rank == 3 ? cT.getShape()[0] : 1;
  Type ae = aT.getElementType(), ce = cT.getElementType();
  // fp8 operands (each side may have its own format) are decoded exactly to
  // fp32 per register, as the interpreter does before its fp32 (or fp64)
  // product; products of fp8 values are exact in fp32, so only the sums
  // round, as in the interpreter.
  Type be = bT.getElementType();
  auto decodeFp8 = [&](Lowered v, Type et) -> FailureOr<Lowered> {
    if (!isa<FloatType>(et) || et.getIntOrFloatBitWidth() != 8)
      return v;
    Type f32 = Float32Type::get(o->getContext());
    for (llvm::Value *&r : v.regs)
      if (!(r = emitFp8Convert(L, r, et, f32, /*roundTowardZero=*/false)))
        return failure();
    return v;
  };
  bool isInt = isa<IntegerType>(ce);
  llvm::Type *accTy = isInt ? (llvm::Type *)b.getInt32Ty()
                      : ce.isF64() ? b.getDoubleTy() : b.getFloatTy();
  if (isInt && ce.getIntOrFloatBitWidth() == 64)
    accTy = b.getInt64Ty();
  bool tf32 = ae.isF32() && op.getInputPrecision() == tile::InputPrecision::TF32;
  auto widen = [&](llvm::Value *v) -> llvm::Value * {
    if (isInt)
      return b.CreateSExtOrTrunc(v, accTy);
    if (v->getType() != accTy)
      v = b.CreateFPExt(v, accTy);
    return tf32 ? roundTf32(L, v) : v;
  };

  // Operands a pipeliner's slot holds (2-D fp32/fp16/bf16 tiles) are read
  // there in place; the others are staged.
  auto slotOf = [&](Value v) -> const Lowering::SharedTile * {
    auto it = L.sharedTiles.find(v);
    return it == L.sharedTiles.end() ? nullptr : &it->second;
  };
  const Lowering::SharedTile *aSlot = slotOf(op.getA()), *bSlot = slotOf(op.getB());
  Lowered a, bb;
  if (!aSlot || !bSlot) {
    FailureOr<Lowered> aDec =
        aSlot ? FailureOr<Lowered>(Lowered{}) : decodeFp8(L.get(op.getA()), ae);
    FailureOr<Lowered> bDec =
        bSlot ? FailureOr<Lowered>(Lowered{}) : decodeFp8(L.get(op.getB()), be);
    if (failed(aDec) || failed(bDec))
      return L.fail(o, "tl.dot: unsupported fp8 operand format");
    a = std::move(*aDec);
    bb = std::move(*bDec);
  }
  Lowered c = L.get(op.getC());
  LayoutRef cl = c.layout;
  unsigned eb = L.storeBytes(accTy);
  unsigned bOffset = unsigned(batch * M * K * eb);
  if (!aSlot || !bSlot) {
    L.reserveShared(unsigned(bOffset + batch * K * N * eb));
    L.barrier();
    if (!aSlot)
      for (unsigned r = 0; r < a.layout->numRegs(); ++r)
        if (!a.layout->isReplicaReg(r))
          b.CreateStore(widen(a.regs[r]), L.sharedPtr(accTy, L.linearCoord(*a.layout, r)));
    if (!bSlot)
      for (unsigned r = 0; r < bb.layout->numRegs(); ++r)
        if (!bb.layout->isReplicaReg(r))
          b.CreateStore(widen(bb.regs[r]),
                        L.sharedPtr(accTy, L.linearCoord(*bb.layout, r), bOffset));
    L.barrier();
  }
  // Element (row, col) of a slot, widened.
  auto fromSlot = [&](const Lowering::SharedTile &t, llvm::Value *row, llvm::Value *col,
                      Type et) -> llvm::Value * {
    llvm::Value *off = t.transposed ? L.sharedOffset(t.layout, col, row)
                                    : L.sharedOffset(t.layout, row, col);
    llvm::Value *v = b.CreateLoad(L.llvmType(et), L.sharedBytePtr(b.CreateAdd(t.byteOffset, off)));
    return widen(v);
  };

  // Rows (batch, m) and columns (batch, n) this thread needs, by the
  // constant part of their coordinates.
  unsigned mDim = rank - 2, nDim = rank - 1;
  std::map<std::pair<int64_t, int64_t>, unsigned> rowOf, colOf;
  std::vector<std::pair<unsigned, unsigned>> regRowCol;
  std::vector<unsigned> rowRep, colRep;
  for (unsigned r = 0; r < cl->numRegs(); ++r) {
    Coord k = cl->applyOne(LinearLayout::Reg, r);
    int64_t bt = rank == 3 ? k[0] : 0;
    auto ri = rowOf.try_emplace({bt, k[mDim]}, rowOf.size());
    if (ri.second)
      rowRep.push_back(r);
    auto ci = colOf.try_emplace({bt, k[nDim]}, colOf.size());
    if (ci.second)
      colRep.push_back(r);
    regRowCol.push_back({ri.first->second, ci.first->second});
  }
  std::vector<llvm::Value *> rowBase, colBase; // element index at k = 0
  std::vector<llvm::Value *> rowIdx, colIdx;   // m and n (slots read in place)
  for (unsigned r : rowRep) {
    llvm::Value *bt = rank == 3 ? L.coord(*cl, r, 0) : L.i32(0);
    llvm::Value *m = L.coord(*cl, r, mDim);
    rowIdx.push_back(m);
    rowBase.push_back(b.CreateMul(b.CreateAdd(b.CreateMul(bt, L.i32(M)), m), L.i32(K)));
  }
  for (unsigned r : colRep) {
    llvm::Value *bt = rank == 3 ? L.coord(*cl, r, 0) : L.i32(0);
    llvm::Value *n = L.coord(*cl, r, nDim);
    colIdx.push_back(n);
    colBase.push_back(b.CreateAdd(b.CreateMul(bt, L.i32(K * N)), n));
  }
  std::vector<llvm::Value *> acc;
  for (llvm::Value *v : c.regs)
    acc.push_back(v->getType() == accTy ? v
                  : isInt ? b.CreateSExtOrTrunc(v, accTy)
                          : b.CreateFPExt(v, accTy));
  for (int64_t k = 0; k < K; ++k) {
    std::vector<llvm::Value *> av, bv;
    for (size_t i = 0; i < rowBase.size(); ++i)
      av.push_back(aSlot ? fromSlot(*aSlot, rowIdx[i], L.i32(k), ae)
                         : b.CreateLoad(accTy, L.sharedPtr(accTy, b.CreateAdd(rowBase[i],
                                                                             L.i32(k)))));
    for (size_t i = 0; i < colBase.size(); ++i)
      bv.push_back(bSlot ? fromSlot(*bSlot, L.i32(k), colIdx[i], be)
                         : b.CreateLoad(accTy, L.sharedPtr(accTy, b.CreateAdd(colBase[i],
                                                                             L.i32(k * N)),
                                                           bOffset)));
    for (unsigned r = 0; r < acc.size(); ++r) {
      auto [ri, ci] = regRowCol[r];
      acc[r] = isInt ? b.CreateAdd(acc[r], b.CreateMul(av[ri], bv[ci]))
                     : b.CreateIntrinsic(llvm::Intrinsic::fma, {accTy},
                                         {av[ri], bv[ci], acc[r]});
    }
  }
  llvm::Type *outTy = L.llvmType(ce);
  for (llvm::Value *&v : acc)
    if (v->getType() != outTy)
      v = isInt ? b.CreateTrunc(v, outTy) : b.CreateFPTrunc(v, outTy);
  L.set(op, Lowered{cl, acc});
  return success();
}

} // namespace

unsigned tritium::codegen::dotBatchWarps(tile::DotOp op, unsigned numWarps) {
  auto cT = cast<RankedTensorType>(op.getC().getType());
  if (cT.getRank() != 3)
    return 1;
  return unsigned(std::min<int64_t>(numWarps, cT.getShape()[0]));
}

unsigned tritium::codegen::assignedBatchWarps(tile::DotOp op, unsigned numWarps) {
  if (auto mma = dyn_cast_or_null<tgpu::MmaEncodingAttr>(op.getType().getEncoding()))
    return mma.getWarpsPerCTA().size() == 3 ? mma.getWarpsPerCTA()[0] : 1;
  return dotBatchWarps(op, numWarps);
}

LinearLayout tritium::codegen::mmaProductLayout(tile::DotOp op, unsigned wb, unsigned wm,
                                                unsigned wn) {
  auto shape = cast<RankedTensorType>(op.getC().getType()).getShape();
  unsigned r = shape.size();
  LinearLayout inner = mmaAccLayout(shape[r - 2], shape[r - 1], wm, wn);
  return r == 3 ? LinearLayout::batched(inner, shape[0], wb) : inner;
}

std::pair<unsigned, unsigned> tritium::codegen::dotMmaWarps(tile::DotOp op, unsigned numWarps,
                                                           unsigned computeCapability) {
  auto cT = cast<RankedTensorType>(op.getC().getType());
  if (cT.getRank() == 3) // batch entries first, the rest over (M, N)
    return mmaWarps(cT.getShape()[1], cT.getShape()[2], numWarps / dotBatchWarps(op, numWarps));
  int64_t M = cT.getShape()[0], N = cT.getShape()[1];
  if (dotUsesWgmma(op, computeCapability, numWarps)) {
    auto [wgM, wgN] = wgmmaWarpgroups(M, N, numWarps);
    return {4 * wgM, wgN};
  }
  Type et = cast<RankedTensorType>(op.getA().getType()).getElementType();
  if (et.isF32() || et.isF64() || mma8BitType(et))
    return mmaWarps(M, N, numWarps);
  return mmaWarpsFor(op, M, N, numWarps);
}

std::pair<unsigned, unsigned>
tritium::codegen::assignedMmaWarps(tile::DotOp op, unsigned numWarps, unsigned computeCapability) {
  if (auto mma = dyn_cast_or_null<tgpu::MmaEncodingAttr>(op.getType().getEncoding())) {
    auto w = mma.getWarpsPerCTA().take_back(2);
    return {w[0], w[1]};
  }
  return dotMmaWarps(op, numWarps, computeCapability);
}


bool tritium::codegen::dotUsesMma(Operation *o, unsigned computeCapability,
                                  unsigned numWarps) {
  auto op = dyn_cast<tile::DotOp>(o);
  if (!op)
    return false;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  if (computeCapability < 80 || cT.getRank() > 3)
    return false;
  Type ae = aT.getElementType();
  Type be = cast<RankedTensorType>(op.getB().getType()).getElementType();
  bool tf32 = ae.isF32() && be.isF32() &&
              (op.getInputPrecision() == tile::InputPrecision::TF32 ||
               op.getInputPrecision() == tile::InputPrecision::TF32x3);
  unsigned r = cT.getRank();
  int64_t M = cT.getShape()[r - 2], N = cT.getShape()[r - 1], K = aT.getShape()[r - 1];
  if (ae.isInteger(8) && be.isInteger(8) && cT.getElementType().isInteger(32))
    return M % 16 == 0 && N % 8 == 0 && K % 32 == 0;
  if (ae.isInteger(8) || be.isInteger(8))
    return false;
  if (ae.isF64() || be.isF64()) // DMMA
    return ae.isF64() && be.isF64() && cT.getElementType().isF64() && M % 16 == 0 &&
           N % 8 == 0 && K % 16 == 0;
  if (mma8BitType(ae) && mma8BitType(be) && cT.getElementType().isF32())
    return computeCapability >= 89 && M % 16 == 0 && N % 8 == 0 && K % 32 == 0;
  bool f16Acc = ae.isF16() && be.isF16() && cT.getElementType().isF16();
  if (!((ae.isF16() && be.isF16()) || (ae.isBF16() && be.isBF16()) || tf32) ||
      !(cT.getElementType().isF32() || f16Acc))
    return false;
  // More warps than m16n8 tiles: the extra warps hold replicas.
  (void)numWarps;
  return M % 16 == 0 && N % 8 == 0 && K % (tf32 ? 8 : 16) == 0;
}

std::optional<OperandStaging> tritium::codegen::mmaOperandStaging(tile::DotOp dot,
                                                                 unsigned operand,
                                                                 unsigned cc,
                                                                 unsigned numWarps) {
  if (dotUsesWgmma(dot, cc, numWarps) || !dotUsesMma(dot, cc, numWarps))
    return std::nullopt;
  auto aT = cast<RankedTensorType>(dot.getA().getType());
  auto cT = cast<RankedTensorType>(dot.getC().getType());
  Type ae = aT.getElementType();
  if (!ae.isF16() && !ae.isBF16() && !ae.isF64())
    return std::nullopt; // the other precisions stage inside their lowering
  auto t = cast<RankedTensorType>((operand ? dot.getB() : dot.getA()).getType());
  if (isa_and_nonnull<tgpu::SharedEncodingAttr>(t.getEncoding()))
    return std::nullopt;
  unsigned rank = cT.getRank();
  int64_t M = cT.getShape()[rank - 2], K = aT.getShape()[rank - 1];
  if (operand == 0 && rank == 2 && !ae.isF64()) {
    auto [wm, wn] = assignedMmaWarps(dot, numWarps, cc);
    auto al = tgpu::toLinearLayout(t.getEncoding(), t.getShape());
    if (al && LinearLayout::threadLocalMap(*al, LinearLayout::mmaOperandA(M, K, wm, wn)))
      return std::nullopt;
  }
  // A batched operand is staged flattened: [batch * rows, cols].
  int64_t cols = t.getShape().back(), rows = t.getNumElements() / cols;
  // (fp64: rows padded as SharedLayout::best pads 8-byte elements.)
  SharedLayout l = SharedLayout::best(rows, cols, ae.getIntOrFloatBitWidth() / 8, 8);
  return OperandStaging{l.swizzleBytes, l.pad, false};
}

/// Whether `dot` runs on the FMA units reading its operands in place from
/// the pipeliner's slots: 2-D products of fp32/fp16/bf16 tiles on sm_80+
/// (where cp.async fills the slots), not on tensor cores.
static bool fmaReadsInPlace(tile::DotOp dot, unsigned cc, unsigned numWarps) {
  if (cc < 80 || dotUsesWgmma(dot, cc, numWarps) || dotUsesMma(dot, cc, numWarps))
    return false;
  auto aT = cast<RankedTensorType>(dot.getA().getType());
  auto bT = cast<RankedTensorType>(dot.getB().getType());
  Type ae = aT.getElementType(), be = bT.getElementType();
  auto plain = [](Type t) { return t.isF32() || t.isF16() || t.isBF16(); };
  return aT.getRank() == 2 && plain(ae) && plain(be) &&
         isa<FloatType>(cast<RankedTensorType>(dot.getC().getType()).getElementType());
}

/// Whether `u` (a tile.dot) reads its operands from shared memory where
/// they lie: wgmma, mma.sync on 16-bit floats and fp64, and FMA products
/// of plain float tiles (the others stage their operands from registers).
static bool readsOperandsInPlace(Operation *u, unsigned cc, unsigned numWarps) {
  if (dotUsesWgmma(u, cc, numWarps))
    return true;
  auto dot = dyn_cast<tile::DotOp>(u);
  if (!dot)
    return false;
  if (fmaReadsInPlace(dot, cc, numWarps))
    return true;
  if (!dotUsesMma(u, cc, numWarps))
    return false;
  Type ae = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  return ae.isF16() || ae.isBF16() || ae.isF64();
}

bool tritium::codegen::everyReader(Value v, llvm::function_ref<bool(Operation *)> pred) {
  if (!v || v.use_empty())
    return false;
  for (Operation *u : v.getUsers()) {
    if (isa<tile::TransOp>(u)) {
      if (u->use_empty() || !llvm::all_of(u->getUsers(), pred))
        return false;
    } else if (!pred(u)) {
      return false;
    }
  }
  return true;
}

bool tritium::codegen::onlyFmaProductsRead(Value v, unsigned cc, unsigned numWarps) {
  return everyReader(v, [&](Operation *u) {
    auto d = dyn_cast<tile::DotOp>(u);
    return d && fmaReadsInPlace(d, cc, numWarps);
  });
}

SharedLayout tritium::codegen::copySlotLayout(Value read, int64_t rows, int64_t cols,
                                              unsigned elemBytes, bool transposed, unsigned cc,
                                              unsigned numWarps) {
  if (transposed)
    std::swap(rows, cols);
  // Read only by FMA products: unswizzled, so that a thread's run along a
  // row is one vector load; rows padded by 16 bytes, so that the rows 8
  // lanes read at once fall on distinct banks. Otherwise swizzled where
  // the tile allows, else rows padded by 8 elements.
  if (onlyFmaProductsRead(read, cc, numWarps))
    return SharedLayout::padded(rows, cols, elemBytes, std::max(1u, 16 / elemBytes));
  return SharedLayout::best(rows, cols, elemBytes, 8);
}

bool tritium::codegen::tensorCoresReadInPlace(Value v, unsigned computeCapability,
                                              unsigned numWarps) {
  if (v.use_empty())
    return false;
  for (OpOperand &use : v.getUses()) {
    Operation *u = use.getOwner();
    if (auto t = dyn_cast<tile::TransOp>(u)) {
      if (t.getType().getRank() != 2 || t->use_empty())
        return false;
      for (OpOperand &tu : t->getUses())
        if (tu.getOperandNumber() != 1 ||
            !readsOperandsInPlace(tu.getOwner(), computeCapability, numWarps))
          return false;
      continue;
    }
    if (use.getOperandNumber() > 1 || !readsOperandsInPlace(u, computeCapability, numWarps))
      return false;
  }
  return true;
}

void tritium::codegen::populateDotHandlers(HandlerTable &t) { t["tile.dot"] = dot; }

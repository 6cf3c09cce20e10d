//===- DotToLLVM.cpp - tl.dot on FMA units --------------------------------===//
//
// The FMA path, correct for every operand type: A and B are staged in
// shared memory in the accumulator's type (fp16/bf16 widened exactly, fp8
// decoded exactly, int8 widened to int32, fp32 rounded to tf32 first when
// the precision is tf32, as the tensor cores would), then each thread forms
// the outer products for its accumulator registers: per k, one load per
// distinct row of A and per distinct column of B it owns, then one FMA per
// register. Batched (3-D) products index the batch like the rows.
//
// The tensor-core paths (sm_80+): fp16/bf16 operands with an fp32
// accumulator, or fp16 ones with an fp16 accumulator (M%16 = N%8 = K%16 =
// 0), use mma.sync.m16n8k16, fp32 operands with tf32 or
// tf32x3 precision (K%8 = 0) mma.sync.m16n8k8 on tf32 parts, fp64 ones
// DMMA (K%16 = 0). The accumulator is a linear layout (mmaAccLayout).
// Batched (3-D) products run as 2-D ones per batch entry (MmaBatches).
// fp16/bf16 A and B are read from shared memory into operand fragments
// with ldmatrix (B with .trans), through their SharedLayout (swizzled where
// the shape allows): the software pipeliner's slots in place (a slot may
// hold B transposed ([N, K]), read with plain ldmatrix), other operands
// where a tgpu.local_alloc staged them (transforms/StageOperands.cpp); A
// may also sit in the registers of its fragment. fp64 operands are read
// from the same places with scalar loads. The tf32, int8 and fp8 paths
// stage their operands themselves (rows padded). On sm_90a products that fill a
// warpgroup's m64 steps go to wgmma instead (nvidia/WgmmaToLLVM.cpp).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "codegen/amd/Amd.h"
#include "codegen/dialect/GpuDialect.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/IR/InlineAsm.h"

#include <array>
#include <map>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// fp32 rounded to tf32 (10 mantissa bits), round to nearest even; NaN and
/// infinity pass through.
llvm::Value *roundTf32(Lowering &L, llvm::Value *x) {
  auto &b = L.b;
  llvm::Value *bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value *lsb = b.CreateAnd(b.CreateLShr(bits, 13), 1);
  llvm::Value *rounded = b.CreateAnd(b.CreateAdd(bits, b.CreateAdd(L.i32(0xfff), lsb)),
                                     L.i32(int64_t(0xffffe000u)));
  llvm::Value *special = b.CreateICmpEQ(b.CreateAnd(bits, L.i32(0x7f800000)), L.i32(0x7f800000));
  return b.CreateBitCast(b.CreateSelect(special, bits, rounded), b.getFloatTy());
}

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

/// Where a warp's m16n8 tiles sit and how its lanes address 8x8 matrices
/// for ldmatrix (lane l names row l%8 of matrix l/8), for `wm` x `wn` warps
/// over an [M, N] accumulator; replica warps read the same tiles.
struct MmaGeometry {
  MmaGeometry(Lowering &L, int64_t M, int64_t N, unsigned wm, unsigned wn)
      : L(L), M(M), N(N), wm(wm), wn(wn) {
    auto &b = L.b;
    lane = L.laneId();
    llvm::Value *warp = L.warpId();
    warpM = b.CreateAnd(warp, L.i32(wm - 1));
    warpN = b.CreateAnd(b.CreateLShr(warp, llvm::Log2_32(wm)), L.i32(wn - 1));
    r8 = b.CreateAnd(lane, L.i32(7));
    mat1 = b.CreateAnd(b.CreateLShr(lane, 3), L.i32(1));
    mat2 = b.CreateLShr(lane, 4);
    mTiles = std::max<int64_t>(1, M / (16 * wm));
    nTiles = std::max<int64_t>(1, N / (8 * wn));
  }
  /// First row of this warp's m-tile `mt`, first column of n-tile `nt`.
  llvm::Value *mBase(int64_t mt) const {
    auto &b = L.b;
    return b.CreateAdd(
        b.CreateMul(b.CreateURem(warpM, L.i32(std::max<int64_t>(1, M / 16))), L.i32(16)),
        L.i32(mt * 16 * wm));
  }
  llvm::Value *nBase(int64_t nt) const {
    auto &b = L.b;
    return b.CreateAdd(
        b.CreateMul(b.CreateURem(warpN, L.i32(std::max<int64_t>(1, N / 8))), L.i32(8)),
        L.i32(nt * 8 * wn));
  }
  /// ldmatrix .x4 (transposing when `trans`): four 32-bit registers.
  llvm::InlineAsm *ldmatrix(bool trans) const {
    auto *i32 = L.b.getInt32Ty();
    return llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(L.ctx, {i32, i32, i32, i32}),
                                {L.b.getInt64Ty()}, false),
        std::string("ldmatrix.sync.aligned.m8n8.x4") + (trans ? ".trans" : "") +
            ".shared.b16 {$0, $1, $2, $3}, [$4];",
        "=r,=r,=r,=r,l", true);
  }
  /// mma.sync `shape`.row.col.f32.`ty`.`ty`.f32: four A, two B registers.
  llvm::InlineAsm *mma(const std::string &shape, const std::string &ty) const {
    auto *i32 = L.b.getInt32Ty();
    auto *f32 = L.b.getFloatTy();
    return llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(L.ctx, {f32, f32, f32, f32}),
                                {i32, i32, i32, i32, i32, i32, f32, f32, f32, f32}, false),
        "mma.sync.aligned." + shape + ".row.col.f32." + ty + "." + ty +
            ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};",
        "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", false);
  }

  /// mma.sync m16n8k16.row.col.f16.f16.f16.f16: four A, two B registers,
  /// the accumulator as two f16 pairs.
  llvm::InlineAsm *mmaF16() const {
    auto *i32 = L.b.getInt32Ty();
    return llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(L.ctx, {i32, i32}),
                                {i32, i32, i32, i32, i32, i32, i32, i32}, false),
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0, $1}, {$2, $3, $4, $5}, "
        "{$6, $7}, {$8, $9};",
        "=r,=r,r,r,r,r,r,r,0,1", false);
  }

  /// One `mma` of a warp's tile: four A and two B registers into the four
  /// accumulator registers from `acc[cBase]`, updated in place.
  void issue(llvm::InlineAsm *mma, const std::array<llvm::Value *, 4> &a,
             const std::array<llvm::Value *, 2> &bb, std::vector<llvm::Value *> &acc,
             unsigned cBase) const {
    llvm::Value *res = L.b.CreateCall(mma, {a[0], a[1], a[2], a[3], bb[0], bb[1], acc[cBase],
                                            acc[cBase + 1], acc[cBase + 2], acc[cBase + 3]});
    for (unsigned j = 0; j < 4; ++j)
      acc[cBase + j] = L.b.CreateExtractValue(res, j);
  }

  Lowering &L;
  int64_t M, N;
  unsigned wm, wn;
  llvm::Value *lane, *warpM, *warpN, *r8, *mat1, *mat2;
  int64_t mTiles, nTiles;
};

/// The batch entries of a batched (3-D) product that a warp computes, one
/// after the other as 2-D products: its warp's batch index, then every
/// wb-th entry on (registers past the first entry's hold the next ones:
/// LinearLayout::batched). Operands are staged flattened ([batch * rows,
/// cols]), so entry `i`'s tile starts `rows` rows lower. A 2-D product is
/// one entry at row 0.
struct MmaBatches {
  MmaBatches(Lowering &L, tile::DotOp op, unsigned wm, unsigned wn) : L(L) {
    auto cT = cast<RankedTensorType>(op.getC().getType());
    if (cT.getRank() != 3)
      return;
    int64_t batch = cT.getShape()[0];
    wb = assignedBatchWarps(op, L.numWarps);
    count = std::max<int64_t>(1, batch / wb);
    auto &b = L.b;
    warpB = b.CreateURem(
        b.CreateAnd(b.CreateLShr(L.warpId(), llvm::Log2_32(wm * wn)), L.i32(wb - 1)),
        L.i32(uint32_t(batch)));
  }
  /// The first row, in a staged operand of `rows` rows an entry, of this
  /// warp's `i`-th entry.
  llvm::Value *firstRow(int64_t i, int64_t rows) const {
    if (!warpB)
      return L.i32(0);
    return L.b.CreateMul(L.b.CreateAdd(warpB, L.i32(uint32_t(i * wb))), L.i32(uint32_t(rows)));
  }
  /// Runs `body(i, acc)` over the entries with `acc` the entry's
  /// accumulator registers (a slice of `all`), written back after.
  template <typename F> void forEach(std::vector<llvm::Value *> &all, F body) const {
    size_t per = all.size() / size_t(count);
    for (int64_t i = 0; i < count; ++i) {
      std::vector<llvm::Value *> acc(all.begin() + i * per, all.begin() + (i + 1) * per);
      body(i, acc);
      std::copy(acc.begin(), acc.end(), all.begin() + i * per);
    }
  }

  Lowering &L;
  unsigned wb = 1;
  int64_t count = 1;
  llvm::Value *warpB = nullptr;
};

LogicalResult dotMma(Lowering &L, tile::DotOp op) {
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = cT.getShape()[rank - 2], N = cT.getShape()[rank - 1],
          K = aT.getShape()[rank - 1];
  bool bf16 = aT.getElementType().isBF16();
  auto [wm, wn] = assignedMmaWarps(op, L.numWarps, parseCudaTarget(L.target.name()));
  LayoutRef lc = L.share(mmaProductLayout(op, assignedBatchWarps(op, L.numWarps), wm, wn));
  llvm::Type *et = bf16 ? b.getBFloatTy() : b.getHalfTy();
  // Operands lie in shared memory (a pipeliner's slot, or staged by a
  // tgpu.local_alloc: transforms/StageOperands.cpp), or A in the registers
  // of its fragment (a chained product's accumulator, cast elementwise).
  auto aTile = L.sharedTiles.find(op.getA());
  auto bTile = L.sharedTiles.find(op.getB());
  std::vector<llvm::Value *> aRegs;
  if (aTile == L.sharedTiles.end() && rank == 2) {
    Lowered &av = L.get(op.getA());
    if (auto map = LinearLayout::threadLocalMap(*av.layout,
                                                LinearLayout::mmaOperandA(M, K, wm, wn)))
      for (unsigned r : *map)
        aRegs.push_back(av.regs[r]);
  }
  if ((aRegs.empty() && aTile == L.sharedTiles.end()) || bTile == L.sharedTiles.end())
    return L.fail(op, "internal error: an mma operand is neither in shared memory nor in "
                      "registers of its A fragment (not staged)");
  std::vector<llvm::Value *> acc = L.convert(op.getC(), *lc);
  if (isStagedTile(op.getA()) || isStagedTile(op.getB()))
    L.barrier(); // every thread's staged elements are written
  // Byte offsets of A's and B's element (0, 0) in shared memory.
  llvm::Value *aBase = nullptr;
  SharedLayout aL;
  if (aRegs.empty()) {
    aBase = aTile->second.byteOffset;
    aL = aTile->second.layout;
  }
  llvm::Value *bBase = bTile->second.byteOffset;
  SharedLayout bL = bTile->second.layout;
  bool bTransposed = bTile->second.transposed; // B stored as [N, K]
  // A stored [K, M] (a tile contiguous along M): read with ldmatrix.trans.
  bool aTransposed = aTile != L.sharedTiles.end() && aTile->second.transposed && aRegs.empty();
  if (rank == 3 && (aTransposed || bTransposed))
    return L.fail(op, "internal error: a batched product's operand is staged transposed");

  auto *i32 = b.getInt32Ty();
  auto *i64 = b.getInt64Ty();
  MmaGeometry G(L, M, N, wm, wn);
  llvm::Value *r8 = G.r8, *mat1 = G.mat1, *mat2 = G.mat2;
  llvm::InlineAsm *ldA = G.ldmatrix(false), *ldBT = G.ldmatrix(true);
  // Address of element (row, col) of a tile stored in `l` from `base`.
  auto sharedAddr = [&](const SharedLayout &l, llvm::Value *base, llvm::Value *row,
                        llvm::Value *col) {
    return b.CreatePtrToInt(L.sharedBytePtr(b.CreateAdd(base, L.sharedOffset(l, row, col))),
                            i64);
  };
  bool f16Acc = cT.getElementType().isF16();
  llvm::InlineAsm *mma = f16Acc ? G.mmaF16() : G.mma("m16n8k16", bf16 ? "bf16" : "f16");
  auto *halfPair = llvm::FixedVectorType::get(b.getHalfTy(), 2);
  auto pack = [&](llvm::Value *lo, llvm::Value *hi) {
    llvm::Value *v = llvm::PoisonValue::get(halfPair);
    v = b.CreateInsertElement(v, lo, uint64_t(0));
    v = b.CreateInsertElement(v, hi, uint64_t(1));
    return b.CreateBitCast(v, i32);
  };
  int64_t mTiles = G.mTiles, nTiles = G.nTiles, kTiles = K / 16;
  auto nBase = [&](int64_t nt) { return G.nBase(nt); };
  MmaBatches batches(L, op, wm, wn);
  batches.forEach(acc, [&](int64_t entry, std::vector<llvm::Value *> &acc) {
    llvm::Value *aRow0 = batches.firstRow(entry, M), *bRow0 = batches.firstRow(entry, K);
    auto mBase = [&](int64_t mt) { return G.mBase(mt); };
    for (int64_t kt = 0; kt < kTiles; ++kt) {
      // A: matrices (rows +0/+8) x (k +0/+8) -> a0a1, a2a3, a4a5, a6a7.
      std::vector<std::array<llvm::Value *, 4>> af(mTiles);
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        if (!aRegs.empty()) { // registers 8 * (kt + kTiles * mt) on, in pairs
          auto *pairTy = llvm::FixedVectorType::get(et, 2);
          size_t base = size_t(8 * (kt + kTiles * mt));
          for (unsigned j = 0; j < 4; ++j) {
            llvm::Value *v = llvm::PoisonValue::get(pairTy);
            v = b.CreateInsertElement(v, aRegs[base + 2 * j], uint64_t(0));
            v = b.CreateInsertElement(v, aRegs[base + 2 * j + 1], uint64_t(1));
            af[mt][j] = b.CreateBitCast(v, i32);
          }
          continue;
        }
        llvm::Value *r;
        if (aTransposed) { // matrix j = (m half mat1, k half mat2), rows are k
          llvm::Value *krow = b.CreateAdd(L.i32(kt * 16), b.CreateAdd(r8, b.CreateShl(mat2, 3)));
          llvm::Value *m = b.CreateAdd(mBase(mt), b.CreateShl(mat1, 3));
          r = b.CreateCall(ldBT, {sharedAddr(aL, aBase, krow, m)});
        } else {
          llvm::Value *row = b.CreateAdd(mBase(mt), b.CreateAdd(r8, b.CreateShl(mat1, 3)));
          llvm::Value *col = b.CreateAdd(L.i32(kt * 16), b.CreateShl(mat2, 3));
          r = b.CreateCall(ldA, {sharedAddr(aL, aBase, b.CreateAdd(aRow0, row), col)});
        }
        for (unsigned j = 0; j < 4; ++j)
          af[mt][j] = b.CreateExtractValue(r, j);
      }
      // B, transposed by ldmatrix: matrices (k +0/+8) x (n-tile t, t+1).
      std::vector<std::array<llvm::Value *, 2>> bf(nTiles);
      for (int64_t nt = 0; nt < nTiles; nt += 2) {
        int64_t other = nt + 1 < nTiles ? nt + 1 : nt; // odd count: read twice
        llvm::Value *n = b.CreateSelect(b.CreateICmpEQ(mat2, L.i32(0)), nBase(nt), nBase(other));
        llvm::Value *r;
        if (bTransposed) { // rows are n: the fragments need no transpose
          llvm::Value *row = b.CreateAdd(n, r8);
          llvm::Value *col = b.CreateAdd(L.i32(kt * 16), b.CreateShl(mat1, 3));
          r = b.CreateCall(ldA, {sharedAddr(bL, bBase, row, col)});
        } else {
          llvm::Value *krow = b.CreateAdd(L.i32(kt * 16), b.CreateAdd(r8, b.CreateShl(mat1, 3)));
          r = b.CreateCall(ldBT, {sharedAddr(bL, bBase, b.CreateAdd(bRow0, krow), n)});
        }
        bf[nt] = {b.CreateExtractValue(r, 0), b.CreateExtractValue(r, 1)};
        if (other != nt)
          bf[other] = {b.CreateExtractValue(r, 2), b.CreateExtractValue(r, 3)};
      }
      for (int64_t mt = 0; mt < mTiles; ++mt)
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          unsigned cBase = unsigned(4 * (nt + nTiles * mt));
          if (f16Acc) { // c0c1 and c2c3 as f16 pairs
            llvm::Value *res = b.CreateCall(
                mma, {af[mt][0], af[mt][1], af[mt][2], af[mt][3], bf[nt][0], bf[nt][1],
                      pack(acc[cBase], acc[cBase + 1]), pack(acc[cBase + 2], acc[cBase + 3])});
            for (unsigned j = 0; j < 2; ++j) {
              llvm::Value *p = b.CreateBitCast(b.CreateExtractValue(res, j), halfPair);
              acc[cBase + 2 * j] = b.CreateExtractElement(p, uint64_t(0));
              acc[cBase + 2 * j + 1] = b.CreateExtractElement(p, uint64_t(1));
            }
            continue;
          }
          G.issue(mma, af[mt], bf[nt], acc, cBase);
        }
    }
  });
  L.set(op, Lowered{lc, acc});
  return success();
}

/// fp32 operands on tensor cores (tf32, and tf32x3: three products of big
/// and small tf32 parts), mma.sync.m16n8k8: A and B are staged as fp32,
/// A (rows padded by 4 floats) is read with ldmatrix (an 8x8 b16 matrix is
/// an 8x4 fp32 one: lane l gets row l/4, column l%4, as the A fragment
/// wants), B (rows padded by 8 floats, conflict-free) with scalar loads.
/// Each operand is rounded to tf32 (nearest even) in registers, as the
/// interpreter does.
LogicalResult dotMmaTf32(Lowering &L, tile::DotOp op) {
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = cT.getShape()[rank - 2], N = cT.getShape()[rank - 1],
          K = aT.getShape()[rank - 1], batch = rank == 3 ? cT.getShape()[0] : 1;
  bool x3 = op.getInputPrecision() == tile::InputPrecision::TF32x3;
  auto [wm, wn] = assignedMmaWarps(op, L.numWarps, parseCudaTarget(L.target.name()));
  LayoutRef lc = L.share(mmaProductLayout(op, assignedBatchWarps(op, L.numWarps), wm, wn));
  auto *f32 = b.getFloatTy();
  auto *i32 = b.getInt32Ty();
  auto *i64 = b.getInt64Ty();
  const unsigned aPad = 4, bPad = 8;
  unsigned aStride = unsigned(K + aPad), bStride = unsigned(N + bPad);
  unsigned bOffset = unsigned(batch * M * aStride * 4);
  std::vector<llvm::Value *> acc = L.convert(op.getC(), *lc);
  L.barrier();
  L.storeToShared(L.get(op.getA()), f32, aPad, 0);
  L.storeToShared(L.get(op.getB()), f32, bPad, bOffset);
  L.barrier();

  MmaGeometry G(L, M, N, wm, wn);
  llvm::Value *r8 = G.r8, *mat1 = G.mat1, *mat2 = G.mat2;
  llvm::Value *g = b.CreateLShr(G.lane, 2), *t = b.CreateAnd(G.lane, L.i32(3));
  llvm::InlineAsm *ldA = G.ldmatrix(false);
  llvm::InlineAsm *mma = G.mma("m16n8k8", "tf32");
  // value -> (big, small) tf32 parts as i32 bits (small only for x3).
  auto split = [&](llvm::Value *v) -> std::pair<llvm::Value *, llvm::Value *> {
    llvm::Value *big = roundTf32(L, v);
    llvm::Value *small = x3 ? roundTf32(L, b.CreateFSub(v, big)) : nullptr;
    return {b.CreateBitCast(big, i32), small ? b.CreateBitCast(small, i32) : nullptr};
  };
  int64_t mTiles = G.mTiles, nTiles = G.nTiles;
  auto mBase = [&](int64_t mt) { return G.mBase(mt); };
  auto nBase = [&](int64_t nt) { return G.nBase(nt); };
  MmaBatches batches(L, op, wm, wn);
  batches.forEach(acc, [&](int64_t entry, std::vector<llvm::Value *> &acc) {
    llvm::Value *aRow0 = batches.firstRow(entry, M), *bRow0 = batches.firstRow(entry, K);
    for (int64_t kt = 0; kt < K / 8; ++kt) {
      // A: matrices (rows +0/+8) x (k +0/+4) -> a0, a1, a2, a3.
      std::vector<std::array<llvm::Value *, 4>> aBig(mTiles), aSmall(mTiles);
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        llvm::Value *row = b.CreateAdd(
            aRow0, b.CreateAdd(mBase(mt), b.CreateAdd(r8, b.CreateShl(mat1, 3))));
        llvm::Value *col = b.CreateAdd(L.i32(kt * 8), b.CreateShl(mat2, 2));
        llvm::Value *idx = b.CreateAdd(b.CreateMul(row, L.i32(aStride)), col);
        llvm::Value *addr = b.CreatePtrToInt(L.sharedPtr(f32, idx, 0), i64);
        llvm::Value *r = b.CreateCall(ldA, {addr});
        for (unsigned j = 0; j < 4; ++j) {
          auto [big, small] = split(b.CreateBitCast(b.CreateExtractValue(r, j), f32));
          aBig[mt][j] = big;
          aSmall[mt][j] = small;
        }
      }
      // B: b0 = (k = t, n = g), b1 = (k = t + 4, n = g).
      std::vector<std::array<llvm::Value *, 2>> bBig(nTiles), bSmall(nTiles);
      for (int64_t nt = 0; nt < nTiles; ++nt)
        for (unsigned j = 0; j < 2; ++j) {
          llvm::Value *k = b.CreateAdd(bRow0, b.CreateAdd(t, L.i32(kt * 8 + 4 * j)));
          llvm::Value *idx = b.CreateAdd(b.CreateMul(k, L.i32(bStride)), b.CreateAdd(nBase(nt), g));
          auto [big, small] = split(b.CreateLoad(f32, L.sharedPtr(f32, idx, bOffset)));
          bBig[nt][j] = big;
          bSmall[nt][j] = small;
        }
      auto product = [&](std::array<llvm::Value *, 4> &a, std::array<llvm::Value *, 2> &bb,
                         unsigned cBase) { G.issue(mma, a, bb, acc, cBase); };
      for (int64_t mt = 0; mt < mTiles; ++mt)
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          unsigned cBase = unsigned(4 * (nt + nTiles * mt));
          if (x3) { // the small cross products first
            product(aSmall[mt], bBig[nt], cBase);
            product(aBig[mt], bSmall[nt], cBase);
          }
          product(aBig[mt], bBig[nt], cBase);
        }
    }
  });
  L.set(op, Lowered{lc, acc});
  return success();
}

/// fp64 operands with an fp64 accumulator on the tensor cores' DMMA:
/// mma.sync m16n8k16.f64 on sm_90, and on sm_80 each m16n8k4 step as two
/// m8n8k4 (rows +0 and +8), so that both use the m16n8 accumulator
/// layout. A and B lie in shared memory, as for 16-bit operands (the
/// pipeliner's slots, either orientation, or staged by a tgpu.local_alloc;
/// rows padded: SharedLayout::best), and are read with scalar loads: A's register i of a step at
/// (g + 8 (i % 2), t + 4 (i / 2)), B's register j at (t + 4 j, g), g =
/// lane / 4, t = lane % 4. Products and sums round as fp64 FMAs do.
LogicalResult dotMmaF64(Lowering &L, tile::DotOp op) {
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = cT.getShape()[rank - 2], N = cT.getShape()[rank - 1],
          K = aT.getShape()[rank - 1];
  unsigned cc = parseCudaTarget(L.target.name());
  auto [wm, wn] = assignedMmaWarps(op, L.numWarps, cc);
  LayoutRef lc = L.share(mmaProductLayout(op, assignedBatchWarps(op, L.numWarps), wm, wn));
  auto *f64 = b.getDoubleTy();
  auto aTile = L.sharedTiles.find(op.getA());
  auto bTile = L.sharedTiles.find(op.getB());
  if (aTile == L.sharedTiles.end() || bTile == L.sharedTiles.end())
    return L.fail(op, "internal error: an fp64 mma operand is not in shared memory (not "
                      "staged)");
  const Lowering::SharedTile &at = aTile->second, &bt = bTile->second;
  if (rank == 3 && (at.transposed || bt.transposed))
    return L.fail(op, "internal error: a batched product's operand is staged transposed");
  std::vector<llvm::Value *> acc = L.convert(op.getC(), *lc);
  if (isStagedTile(op.getA()) || isStagedTile(op.getB()))
    L.barrier(); // every thread's staged elements are written
  // Element (row, col) of a tile, stored [cols, rows] when transposed.
  auto load = [&](const Lowering::SharedTile &tile, llvm::Value *row, llvm::Value *col) {
    llvm::Value *off = tile.transposed ? L.sharedOffset(tile.layout, col, row)
                                       : L.sharedOffset(tile.layout, row, col);
    return b.CreateLoad(f64, L.sharedBytePtr(b.CreateAdd(tile.byteOffset, off)));
  };

  // k per instruction: 16 on sm_90, 4 (two m8n8k4) before.
  int64_t kStep = cc >= 90 ? 16 : 4;
  unsigned aRegs = unsigned(kStep / 2), bRegs = unsigned(kStep / 4);
  auto mmaAsm = [&](const std::string &shape, unsigned na, unsigned nb, unsigned nc) {
    std::vector<llvm::Type *> outs(nc, f64), ins(na + nb + nc, f64);
    std::string text = "mma.sync.aligned." + shape + ".row.col.f64.f64.f64.f64 {";
    std::string cons;
    unsigned n = 0;
    auto group = [&](unsigned count, bool out) {
      for (unsigned i = 0; i < count; ++i, ++n) {
        text += (i ? ", $" : "$") + std::to_string(n);
        cons += std::string(n ? "," : "") + (out ? "=d" : "d");
      }
      text += "}";
    };
    group(nc, true);
    text += ", {";
    group(na, false);
    text += ", {";
    group(nb, false);
    text += ", {";
    for (unsigned i = 0; i < nc; ++i) {
      text += (i ? ", $" : "$") + std::to_string(n + i);
      cons += "," + std::to_string(i);
    }
    text += "};";
    return llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(L.ctx, outs), ins, false), text, cons,
        false);
  };
  llvm::InlineAsm *mma = cc >= 90 ? mmaAsm("m16n8k" + std::to_string(kStep), aRegs, bRegs, 4)
                                  : mmaAsm("m8n8k4", 1, 1, 2);

  MmaGeometry G(L, M, N, wm, wn);
  llvm::Value *g = b.CreateLShr(G.lane, 2), *t = b.CreateAnd(G.lane, L.i32(3));
  int64_t mTiles = G.mTiles, nTiles = G.nTiles;
  MmaBatches batches(L, op, wm, wn);
  batches.forEach(acc, [&](int64_t entry, std::vector<llvm::Value *> &acc) {
    llvm::Value *aRow0 = batches.firstRow(entry, M), *bRow0 = batches.firstRow(entry, K);
    for (int64_t kt = 0; kt < K / kStep; ++kt) {
      std::vector<std::vector<llvm::Value *>> af(mTiles), bf(nTiles);
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        llvm::Value *row = b.CreateAdd(aRow0, b.CreateAdd(G.mBase(mt), g));
        for (unsigned i = 0; i < aRegs; ++i) {
          llvm::Value *r = b.CreateAdd(row, L.i32(8 * (i % 2)));
          llvm::Value *k = b.CreateAdd(t, L.i32(uint32_t(kt * kStep + 4 * (i / 2))));
          af[mt].push_back(load(at, r, k));
        }
      }
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        llvm::Value *n = b.CreateAdd(G.nBase(nt), g);
        for (unsigned j = 0; j < bRegs; ++j) {
          llvm::Value *k =
              b.CreateAdd(bRow0, b.CreateAdd(t, L.i32(uint32_t(kt * kStep + 4 * j))));
          bf[nt].push_back(load(bt, k, n));
        }
      }
      for (int64_t mt = 0; mt < mTiles; ++mt)
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          unsigned c = unsigned(4 * (nt + nTiles * mt));
          if (cc >= 90) {
            std::vector<llvm::Value *> args = af[mt];
            args.insert(args.end(), bf[nt].begin(), bf[nt].end());
            args.insert(args.end(), acc.begin() + c, acc.begin() + c + 4);
            llvm::Value *res = b.CreateCall(mma, args);
            for (unsigned j = 0; j < 4; ++j)
              acc[c + j] = b.CreateExtractValue(res, j);
            continue;
          }
          for (unsigned half = 0; half < 2; ++half) { // rows +0, then +8
            llvm::Value *res = b.CreateCall(
                mma, {af[mt][half], bf[nt][0], acc[c + 2 * half], acc[c + 2 * half + 1]});
            for (unsigned j = 0; j < 2; ++j)
              acc[c + 2 * half + j] = b.CreateExtractValue(res, j);
          }
        }
    }
  });
  L.set(op, Lowered{lc, acc});
  return success();
}

/// The PTX name of an 8-bit operand type of mma.sync.m16n8k32.
const char *mma8BitType(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return "e4m3";
  if (isa<Float8E5M2Type>(t))
    return "e5m2";
  return t.isInteger(8) ? "s8" : nullptr;
}

/// 8-bit operands on mma.sync.m16n8k32: int8 with an int32 accumulator
/// (satfinite), fp8 (e4m3/e5m2, either side its own, sm_89+) with an fp32
/// one. A is staged row-major, B transposed ([N, K]), both with rows padded
/// by 16 bytes, so that ldmatrix (an 8x8 b16 matrix is an 8x16 byte one:
/// lane l gets row l/4, bytes 4(l%4)..+3) yields both fragments: A's
/// (row g, k 4t..4t+3) and B's (k 4t..4t+3, column g).
LogicalResult dotMma8Bit(Lowering &L, tile::DotOp op) {
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = cT.getShape()[rank - 2], N = cT.getShape()[rank - 1],
          K = aT.getShape()[rank - 1], batch = rank == 3 ? cT.getShape()[0] : 1;
  auto [wm, wn] = assignedMmaWarps(op, L.numWarps, parseCudaTarget(L.target.name()));
  LayoutRef lc = L.share(mmaProductLayout(op, assignedBatchWarps(op, L.numWarps), wm, wn));
  auto *i8 = b.getInt8Ty();
  auto *i32 = b.getInt32Ty();
  auto *i64 = b.getInt64Ty();
  const unsigned pad = 16;
  unsigned stride = unsigned(K + pad); // bytes per row of A and of B^T
  unsigned bOffset = unsigned(batch * M * stride);
  std::vector<llvm::Value *> acc = L.convert(op.getC(), *lc);
  L.barrier();
  L.storeToShared(L.get(op.getA()), i8, pad, 0);
  Lowered &bv = L.get(op.getB());
  L.reserveShared(unsigned(bOffset + batch * N * stride));
  for (unsigned r = 0; r < bv.layout->numRegs(); ++r) {
    if (bv.layout->isReplicaReg(r))
      continue;
    // B^T row: (entry, n), flattened.
    llvm::Value *k = L.coord(*bv.layout, r, rank - 2), *n = L.coord(*bv.layout, r, rank - 1);
    if (rank == 3)
      n = b.CreateAdd(b.CreateMul(L.coord(*bv.layout, r, 0), L.i32(uint32_t(N))), n);
    llvm::Value *idx = b.CreateAdd(b.CreateMul(n, L.i32(stride)), k);
    llvm::Value *x = bv.regs[r];
    if (x->getType() != i8)
      x = b.CreateBitCast(x, i8);
    b.CreateStore(x, L.sharedPtr(i8, idx, bOffset));
  }
  L.barrier();

  MmaGeometry G(L, M, N, wm, wn);
  llvm::InlineAsm *ld = G.ldmatrix(false);
  bool isInt = aT.getElementType().isInteger(8);
  std::string at = mma8BitType(aT.getElementType());
  std::string bt = mma8BitType(cast<RankedTensorType>(op.getB().getType()).getElementType());
  llvm::Type *accTy = isInt ? (llvm::Type *)i32 : b.getFloatTy();
  std::string shape = isInt ? "m16n8k32.row.col.satfinite.s32.s8.s8.s32"
                            : "m16n8k32.row.col.f32." + at + "." + bt + ".f32";
  std::string c = isInt ? "r" : "f";
  llvm::InlineAsm *mma = llvm::InlineAsm::get(
      llvm::FunctionType::get(llvm::StructType::get(L.ctx, {accTy, accTy, accTy, accTy}),
                              {i32, i32, i32, i32, i32, i32, accTy, accTy, accTy, accTy},
                              false),
      "mma.sync.aligned." + shape + " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
      "{$10, $11, $12, $13};",
      "=" + c + ",=" + c + ",=" + c + ",=" + c + ",r,r,r,r,r,r,0,1,2,3", false);
  auto address = [&](llvm::Value *row, llvm::Value *col, unsigned base) {
    llvm::Value *byte = b.CreateAdd(b.CreateMul(row, L.i32(stride)), col);
    return b.CreatePtrToInt(
        L.sharedBytePtr(b.CreateAdd(byte, L.i32(L.scratchStart() + base))), i64);
  };
  int64_t mTiles = G.mTiles, nTiles = G.nTiles;
  MmaBatches batches(L, op, wm, wn);
  batches.forEach(acc, [&](int64_t entry, std::vector<llvm::Value *> &acc) {
    llvm::Value *aRow0 = batches.firstRow(entry, M), *bRow0 = batches.firstRow(entry, N);
    for (int64_t kt = 0; kt < K / 32; ++kt) {
      // A: matrices (rows +0/+8) x (k +0/+16) -> a0, a1, a2, a3.
      std::vector<std::array<llvm::Value *, 4>> af(mTiles);
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        llvm::Value *row = b.CreateAdd(
            aRow0, b.CreateAdd(G.mBase(mt), b.CreateAdd(G.r8, b.CreateShl(G.mat1, 3))));
        llvm::Value *col = b.CreateAdd(L.i32(kt * 32), b.CreateShl(G.mat2, 4));
        llvm::Value *r = b.CreateCall(ld, {address(row, col, 0)});
        for (unsigned j = 0; j < 4; ++j)
          af[mt][j] = b.CreateExtractValue(r, j);
      }
      // B^T: matrices (k +0/+16) x (n-tile t, t+1).
      std::vector<std::array<llvm::Value *, 2>> bf(nTiles);
      for (int64_t nt = 0; nt < nTiles; nt += 2) {
        int64_t other = nt + 1 < nTiles ? nt + 1 : nt;
        llvm::Value *n = b.CreateSelect(b.CreateICmpEQ(G.mat2, L.i32(0)), G.nBase(nt),
                                        G.nBase(other));
        llvm::Value *col = b.CreateAdd(L.i32(kt * 32), b.CreateShl(G.mat1, 4));
        llvm::Value *r =
            b.CreateCall(ld, {address(b.CreateAdd(bRow0, b.CreateAdd(n, G.r8)), col, bOffset)});
        bf[nt] = {b.CreateExtractValue(r, 0), b.CreateExtractValue(r, 1)};
        if (other != nt)
          bf[other] = {b.CreateExtractValue(r, 2), b.CreateExtractValue(r, 3)};
      }
      for (int64_t mt = 0; mt < mTiles; ++mt)
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          G.issue(mma, af[mt], bf[nt], acc, unsigned(4 * (nt + nTiles * mt)));
        }
    }
  });
  L.set(op, Lowered{lc, acc});
  return success();
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

  FailureOr<Lowered> aDec = decodeFp8(L.get(op.getA()), ae);
  FailureOr<Lowered> bDec = decodeFp8(L.get(op.getB()), be);
  if (failed(aDec) || failed(bDec))
    return L.fail(o, "tl.dot: unsupported fp8 operand format");
  Lowered a = std::move(*aDec), bb = std::move(*bDec);
  Lowered c = L.get(op.getC());
  LayoutRef cl = c.layout;
  unsigned eb = L.storeBytes(accTy);
  unsigned bOffset = unsigned(batch * M * K * eb);
  L.reserveShared(unsigned(bOffset + batch * K * N * eb));
  L.barrier();
  for (unsigned r = 0; r < a.layout->numRegs(); ++r)
    if (!a.layout->isReplicaReg(r))
      b.CreateStore(widen(a.regs[r]), L.sharedPtr(accTy, L.linearCoord(*a.layout, r)));
  for (unsigned r = 0; r < bb.layout->numRegs(); ++r)
    if (!bb.layout->isReplicaReg(r))
      b.CreateStore(widen(bb.regs[r]),
                    L.sharedPtr(accTy, L.linearCoord(*bb.layout, r), bOffset));
  L.barrier();

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
  for (unsigned r : rowRep) {
    llvm::Value *bt = rank == 3 ? L.coord(*cl, r, 0) : L.i32(0);
    llvm::Value *m = L.coord(*cl, r, mDim);
    rowBase.push_back(b.CreateMul(b.CreateAdd(b.CreateMul(bt, L.i32(M)), m), L.i32(K)));
  }
  for (unsigned r : colRep) {
    llvm::Value *bt = rank == 3 ? L.coord(*cl, r, 0) : L.i32(0);
    llvm::Value *n = L.coord(*cl, r, nDim);
    colBase.push_back(b.CreateAdd(b.CreateMul(bt, L.i32(K * N)), n));
  }
  std::vector<llvm::Value *> acc;
  for (llvm::Value *v : c.regs)
    acc.push_back(v->getType() == accTy ? v
                  : isInt ? b.CreateSExtOrTrunc(v, accTy)
                          : b.CreateFPExt(v, accTy));
  for (int64_t k = 0; k < K; ++k) {
    std::vector<llvm::Value *> av, bv;
    for (llvm::Value *base : rowBase)
      av.push_back(b.CreateLoad(accTy, L.sharedPtr(accTy, b.CreateAdd(base, L.i32(k)))));
    for (llvm::Value *base : colBase)
      bv.push_back(b.CreateLoad(
          accTy, L.sharedPtr(accTy, b.CreateAdd(base, L.i32(k * N)), bOffset)));
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

/// Whether `u` (a tile.dot) reads its operands from shared memory where
/// they lie: wgmma, and mma.sync on 16-bit floats (the others stage their
/// operands from registers).
static bool readsOperandsInPlace(Operation *u, unsigned cc, unsigned numWarps) {
  if (dotUsesWgmma(u, cc, numWarps))
    return true;
  auto dot = dyn_cast<tile::DotOp>(u);
  if (!dot || !dotUsesMma(u, cc, numWarps))
    return false;
  Type ae = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  return ae.isF16() || ae.isBF16() || ae.isF64();
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

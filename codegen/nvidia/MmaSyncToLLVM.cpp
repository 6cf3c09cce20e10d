//===- MmaSyncToLLVM.cpp - tl.dot on mma.sync -------------------------------===//
//
// The tensor-core paths before wgmma (sm_80+): fp16/bf16 operands with an fp32
// accumulator, or fp16 ones with an fp16 accumulator (M%16 = N%8 = K%16 =
// 0), use mma.sync.m16n8k16, fp32 operands with tf32 or
// tf32x3 precision (K%8 = 0) mma.sync.m16n8k8 on tf32 parts, fp64 ones
// DMMA (K%16 = 0). The accumulator is LinearLayout::mmaAccumulator.
// Batched (3-D) products run as 2-D ones per batch entry (MmaBatches).
// fp16/bf16 A and B are read from shared memory into operand fragments
// with ldmatrix (B with .trans), through their SharedLayout (swizzled where
// the shape allows): the software pipeliner's slots in place (a slot may
// hold B transposed ([N, K]), read with plain ldmatrix), other operands
// where a tgpu.local_alloc staged them (transforms/StageOperands.cpp); A
// may also sit in the registers of its fragment. fp64 operands are read
// from the same places with scalar loads. The tf32, int8 and fp8 paths
// stage their operands themselves (rows padded). On sm_90a products that
// fill a warpgroup's m64 steps go to wgmma instead (nvidia/WgmmaToLLVM.cpp);
// DotToLLVM.cpp chooses.
//
//===----------------------------------------------------------------------===//
#include "codegen/nvidia/MmaSync.h"

#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/IR/InlineAsm.h"

#include <array>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

/// fp32 rounded to tf32 (10 mantissa bits), round to nearest even; NaN and
/// infinity pass through.
llvm::Value *tritium::codegen::roundTf32(Lowering &L, llvm::Value *x) {
  auto &b = L.b;
  llvm::Value *bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value *lsb = b.CreateAnd(b.CreateLShr(bits, 13), 1);
  llvm::Value *rounded = b.CreateAnd(b.CreateAdd(bits, b.CreateAdd(L.i32(0xfff), lsb)),
                                     L.i32(int64_t(0xffffe000u)));
  llvm::Value *special = b.CreateICmpEQ(b.CreateAnd(bits, L.i32(0x7f800000)), L.i32(0x7f800000));
  return b.CreateBitCast(b.CreateSelect(special, bits, rounded), b.getFloatTy());
}

namespace {

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

} // namespace

LogicalResult tritium::codegen::dotMma(Lowering &L, tile::DotOp op) {
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
LogicalResult tritium::codegen::dotMmaTf32(Lowering &L, tile::DotOp op) {
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
LogicalResult tritium::codegen::dotMmaF64(Lowering &L, tile::DotOp op) {
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
const char *tritium::codegen::mma8BitType(Type t) {
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
LogicalResult tritium::codegen::dotMma8Bit(Lowering &L, tile::DotOp op) {
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

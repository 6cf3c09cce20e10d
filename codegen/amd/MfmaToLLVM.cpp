//===- MfmaToLLVM.cpp - tl.dot on AMD's MFMA ------------------------------===//
//
// Products AMD's matrix cores take (fp16/bf16, int8, and fp8 in the
// target's formats): which ones and in which blocks (dotMfmaShape), and
// their lowering from shared memory or A's registers (dotMfma).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/amd/Amd.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// Waves over (M, N) for B x B MFMA blocks: the larger extent left per
/// wave is split first.
std::pair<unsigned, unsigned> mfmaWarps(int64_t M, int64_t N, unsigned numWarps,
                                        int64_t B) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    int64_t m = M / (B * wm), n = N / (B * wn);
    if (m >= 2 && m >= n)
      wm *= 2;
    else if (n >= 2)
      wn *= 2;
    else
      break;
  }
  return {wm, wn};
}

/// Whether `t` is an fp8 format `amdArch`'s MFMA instructions take: gfx942
/// reads FNUZ e4m3 ("fp8") and e5m2 ("bf8"), gfx950 the OCP ones.
bool mfmaFp8(Type t, llvm::StringRef amdArch) {
  if (amdArch == "gfx942")
    return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t);
  if (amdArch == "gfx950")
    return isa<Float8E4M3FNType, Float8E5M2Type>(t);
  return false;
}

/// A product on v_mfma_f32_32x32x8{f16,bf16_1k} or, with 16x16 blocks,
/// v_mfma_f32_16x16x16{f16,bf16_1k} (AMD CDNA, wave64); on gfx950 on
/// v_mfma_f32_32x32x16_{f16,bf16} and 16x16x32 (twice the k per
/// instruction); int8 on the v_mfma_i32 ones, fp8 on the target's fp8
/// ones. A is staged [M, K] and B transposed, [N, K], in shared memory in
/// their own type; each lane then reads its four (gfx950 16-bit, 8-bit from
/// gfx942: eight or more) k values of a block's row (A) and column (B) as
/// one load: lane % B picks the row/column, lane / B the k group. The
/// accumulator stays in mfmaAccumulator's registers, B * B / 64
/// per block; in its transposed form the instruction takes B's fragment as
/// its first operand and A's as its second (each block then holds C^T).
/// A in mfmaOperandA's layout is not staged: its fragments are its
/// registers.
} // namespace

LogicalResult tritium::codegen::dotMfma(Lowering &L, Operation *o, MfmaShape shape) {
  auto op = cast<tile::DotOp>(o);
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  int64_t M = cT.getShape()[0], N = cT.getShape()[1], K = aT.getShape()[1];
  bool bf16 = aT.getElementType().isBF16();
  Type ae = aT.getElementType();
  Type be = cast<RankedTensorType>(op.getB().getType()).getElementType();
  bool fp8 = mfmaFp8(ae, parseHipTarget(L.target.name()));
  bool int8 = ae.isInteger(8) || fp8; // 8-bit operands (fp8 as their bits)
  unsigned eb = int8 ? 1 : 2; // bytes per operand element
  unsigned wm = shape.wm, wn = shape.wn;
  int64_t B = shape.block;
  unsigned perBlock = unsigned(B * B / 64);
  Lowered a = L.get(op.getA()), bb = L.get(op.getB()), c = L.get(op.getC());
  // The accumulator as the instruction holds it, or each block transposed
  // (the operands go in swapped: B^T A^T).
  bool transposed = c.layout && *c.layout == LinearLayout::mfmaAccumulator(
                                                  M, N, wm, wn, unsigned(B), true);
  if (!c.layout ||
      (!transposed && *c.layout != LinearLayout::mfmaAccumulator(M, N, wm, wn, unsigned(B))))
    return L.fail(op, "internal error: an MFMA product's accumulator is not in the MFMA layout");
  llvm::Type *ht = int8 ? b.getInt8Ty() : bf16 ? b.getBFloatTy() : b.getHalfTy();
  // A already in the registers of its fragments (a product's transposed
  // accumulator, converted elementwise: attention's P) is read there.
  bool aInRegs = !int8 && K % B == 0 && a.layout &&
                 *a.layout == LinearLayout::mfmaOperandA(M, K, wm, wn, unsigned(B));
  // gfx950 doubles the k of each instruction (v_mfma_f32_32x32x16_{f16,bf16},
  // 16x16x32): each lane holds eight k values of its row or column, with
  // the same accumulator. Which k each of a lane's eight slots holds is
  // free as long as A and B agree: staged operands take eight consecutive
  // ones (one 16-byte read); A held in registers (four-value fragments of
  // the narrower instruction) takes two narrow steps' fragments side by
  // side, and B is read for the same k, 8 bytes at a time.
  //
  // int8 (signed, an int32 accumulator): v_mfma_i32_32x32x8i8 and
  // 16x16x16i8 take four k values a lane (one i32); gfx942 and gfx950 have
  // v_mfma_i32_32x32x16_i8 and 16x16x32_i8 instead, eight a lane (one
  // i64), and gfx950 also 32x32x32_i8 and 16x16x64_i8, sixteen a lane (four
  // i32), all with the same accumulator.
  int64_t narrowStep = B == 32 ? 8 : 16;
  bool gfx950 = L.target.name() == "hip:gfx950";
  bool wide = int8 ? L.target.name() != "hip:gfx90a" : gfx950 && K % (2 * narrowStep) == 0;
  bool widest = int8 && !fp8 && gfx950 && K % (4 * narrowStep) == 0;
  // fp8 on gfx950: v_mfma_f32_32x32x64_f8f6f4 and 16x16x128, thirty-two a
  // lane (eight i32), the formats given as operands, unscaled.
  bool f8f6f4 = fp8 && gfx950 && K % (8 * narrowStep) == 0;
  int64_t kPerLane = f8f6f4 ? 32 : widest ? 16 : wide ? 8 : 4;
  int64_t kStep = narrowStep * kPerLane / 4;
  unsigned bOffset = aInRegs ? 0 : unsigned(M * K * eb);
  L.reserveShared(unsigned(bOffset + N * K * eb));
  L.barrier();
  if (!aInRegs)
    for (unsigned r = 0; r < a.layout->numRegs(); ++r)
      if (!a.layout->isReplicaReg(r))
        b.CreateStore(a.regs[r], L.sharedPtr(ht, L.linearCoord(*a.layout, r)));
  for (unsigned r = 0; r < bb.layout->numRegs(); ++r)
    if (!bb.layout->isReplicaReg(r)) {
      llvm::Value *k = L.coord(*bb.layout, r, 0), *n = L.coord(*bb.layout, r, 1);
      b.CreateStore(bb.regs[r],
                    L.sharedPtr(ht, b.CreateAdd(b.CreateMul(n, L.i32(K)), k), bOffset));
    }
  L.barrier();

  llvm::Value *lane = L.laneId(), *warp = L.warpId();
  llvm::Value *lb = b.CreateAnd(lane, L.i32(B - 1));
  llvm::Value *kGroup = b.CreateLShr(lane, llvm::Log2_64(B)); // the lane's k group
  llvm::Value *wmIdx = b.CreateAnd(warp, L.i32(wm - 1));
  llvm::Value *wnIdx = b.CreateLShr(warp, llvm::Log2_32(wm));
  int64_t MT = M / (B * wm), NT = N / (B * wn);
  // (The older bf16 instructions take their values as i16.)
  llvm::Type *pieceElt = bf16 && !wide ? (llvm::Type *)b.getInt16Ty() : ht;
  auto *pieceTy = llvm::FixedVectorType::get(pieceElt, 4);
  auto *accTy = llvm::FixedVectorType::get(
      int8 && !fp8 ? (llvm::Type *)b.getInt32Ty() : b.getFloatTy(), perBlock);
  // Row (column) of block mt (nt) this lane reads, times K.
  std::vector<llvm::Value *> aRow, bRow;
  for (int64_t mt = 0; mt < MT; ++mt)
    aRow.push_back(b.CreateMul(
        b.CreateAdd(b.CreateMul(b.CreateAdd(wmIdx, L.i32(mt * wm)), L.i32(B)), lb),
        L.i32(K)));
  for (int64_t nt = 0; nt < NT; ++nt)
    bRow.push_back(b.CreateMul(
        b.CreateAdd(b.CreateMul(b.CreateAdd(wnIdx, L.i32(nt * wn)), L.i32(B)), lb),
        L.i32(K)));
  std::vector<llvm::Value *> acc(MT * NT);
  for (int64_t blk = 0; blk < MT * NT; ++blk) {
    llvm::Value *v = llvm::PoisonValue::get(accTy);
    for (unsigned i = 0; i < perBlock; ++i)
      v = b.CreateInsertElement(v, c.regs[perBlock * blk + i], uint64_t(i));
    acc[blk] = v;
  }
  llvm::Intrinsic::ID id = int8 ? (widest ? (B == 32 ? llvm::Intrinsic::amdgcn_mfma_i32_32x32x32_i8
                                       : llvm::Intrinsic::amdgcn_mfma_i32_16x16x64_i8)
                   : wide ? (B == 32 ? llvm::Intrinsic::amdgcn_mfma_i32_32x32x16_i8
                                     : llvm::Intrinsic::amdgcn_mfma_i32_16x16x32_i8)
                          : (B == 32 ? llvm::Intrinsic::amdgcn_mfma_i32_32x32x8i8
                                     : llvm::Intrinsic::amdgcn_mfma_i32_16x16x16i8))
          : wide ? (B == 32 ? (bf16 ? llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_bf16
                                     : llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_f16)
                             : (bf16 ? llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_bf16
                                     : llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_f16))
          : B == 32 ? (bf16 ? llvm::Intrinsic::amdgcn_mfma_f32_32x32x8bf16_1k
                            : llvm::Intrinsic::amdgcn_mfma_f32_32x32x8f16)
                    : (bf16 ? llvm::Intrinsic::amdgcn_mfma_f32_16x16x16bf16_1k
                            : llvm::Intrinsic::amdgcn_mfma_f32_16x16x16f16);
  // fp8 (eight a lane, as int8 from gfx942 on): v_mfma_f32_32x32x16 and
  // 16x16x32 with each operand's format in the name (fp8: e4m3, bf8: e5m2;
  // the first is the instruction's first operand).
  auto e5m2 = [](Type t) { return isa<Float8E5M2Type, Float8E5M2FNUZType>(t); };
  auto fp8Id = [&](Type first, Type second) {
    bool f = e5m2(first), s2 = e5m2(second);
    if (B == 32)
      return f ? (s2 ? llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_bf8_bf8
                     : llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_bf8_fp8)
               : (s2 ? llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_fp8_bf8
                     : llvm::Intrinsic::amdgcn_mfma_f32_32x32x16_fp8_fp8);
    return f ? (s2 ? llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_bf8_bf8
                   : llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_bf8_fp8)
             : (s2 ? llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_fp8_bf8
                   : llvm::Intrinsic::amdgcn_mfma_f32_16x16x32_fp8_fp8);
  };
  if (fp8)
    id = transposed ? fp8Id(be, ae) : fp8Id(ae, be);
  if (f8f6f4)
    id = B == 32 ? llvm::Intrinsic::amdgcn_mfma_scale_f32_32x32x64_f8f6f4
                 : llvm::Intrinsic::amdgcn_mfma_scale_f32_16x16x128_f8f6f4;
  // The f8f6f4 instructions' format codes: 0 e4m3, 1 e5m2.
  auto formatCode = [&](Type t) {
    return L.i32(e5m2(t) ? 1 : 0);
  };
  // `count` k values from k = group * count + first on, of the row (column)
  // at rowTimesK / K, in one load.
  auto read = [&](llvm::Value *rowTimesK, int64_t first, int64_t count, unsigned offset) {
    llvm::Value *idx = b.CreateAdd(
        rowTimesK, b.CreateAdd(b.CreateMul(kGroup, L.i32(count)), L.i32(first)));
    llvm::Value *v =
        b.CreateAlignedLoad(llvm::FixedVectorType::get(pieceElt, unsigned(count)),
                            L.sharedPtr(ht, idx, offset), llvm::Align(unsigned(count * eb)));
    // The int8 instructions take a lane's bytes as one i32, one i64 or
    // four i32.
    if (!int8)
      return v;
    return b.CreateBitCast(v, count >= 16 ? (llvm::Type *)llvm::FixedVectorType::get(
                                                 b.getInt32Ty(), unsigned(count / 4))
                                          : b.getIntNTy(unsigned(8 * count)));
  };
  auto concat = [&](llvm::Value *x, llvm::Value *y) {
    return b.CreateShuffleVector(x, y, llvm::ArrayRef<int>{0, 1, 2, 3, 4, 5, 6, 7});
  };
  // In registers: register r holds (row offset, k) = apply(r, 0, 0); its
  // fragment is (m repeat, narrow k step), its place there k % 4.
  std::vector<llvm::Value *> regFrags;
  int64_t narrowSteps = K / narrowStep;
  if (aInRegs) {
    regFrags.assign(MT * narrowSteps, llvm::PoisonValue::get(pieceTy));
    for (unsigned r = 0; r < a.layout->numRegs(); ++r) {
      Coord at = a.layout->apply(r, 0, 0);
      int64_t mt = at[0] / (B * wm), ks = at[1] / narrowStep, j = at[1] % 4;
      llvm::Value *v = a.regs[r];
      if (bf16 && !wide)
        v = b.CreateBitCast(v, b.getInt16Ty());
      llvm::Value *&f = regFrags[mt * narrowSteps + ks];
      f = b.CreateInsertElement(f, v, uint64_t(j));
    }
  }
  for (int64_t kt = 0; kt < K / kStep; ++kt) {
    std::vector<llvm::Value *> af, bf;
    for (int64_t mt = 0; mt < MT; ++mt) {
      if (!aInRegs)
        af.push_back(read(aRow[mt], kt * kStep, kPerLane, 0));
      else if (!wide)
        af.push_back(regFrags[mt * narrowSteps + kt]);
      else
        af.push_back(concat(regFrags[mt * narrowSteps + 2 * kt],
                            regFrags[mt * narrowSteps + 2 * kt + 1]));
    }
    for (llvm::Value *r : bRow)
      bf.push_back(!(wide && aInRegs)
                       ? read(r, kt * kStep, kPerLane, bOffset)
                       : concat(read(r, 2 * kt * narrowStep, 4, bOffset),
                                read(r, (2 * kt + 1) * narrowStep, 4, bOffset)));
    // Register bits: the block's 16, then N repeats, then M repeats.
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t nt = 0; nt < NT; ++nt) {
        llvm::Value *&d = acc[nt + NT * mt];
        llvm::Value *x = transposed ? bf[nt] : af[mt], *y = transposed ? af[mt] : bf[nt];
        if (f8f6f4) {
          Type fx = transposed ? be : ae, fy = transposed ? ae : be;
          d = b.CreateIntrinsic(accTy, id,
                                {x, y, d, formatCode(fx), formatCode(fy), L.i32(0), L.i32(0),
                                 L.i32(0), L.i32(0)});
        } else {
          d = b.CreateIntrinsic(accTy, id, {x, y, d, L.i32(0), L.i32(0), L.i32(0)});
        }
      }
  }
  std::vector<llvm::Value *> out(c.regs.size());
  for (int64_t blk = 0; blk < MT * NT; ++blk)
    for (unsigned i = 0; i < perBlock; ++i)
      out[perBlock * blk + i] = b.CreateExtractElement(acc[blk], uint64_t(i));
  L.set(op, Lowered{c.layout, out});
  return success();
}


MfmaShape tritium::codegen::dotMfmaShape(Operation *o, unsigned numWarps,
                                         llvm::StringRef amdArch) {
  auto op = dyn_cast<tile::DotOp>(o);
  if (!op)
    return {};
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto bT = cast<RankedTensorType>(op.getB().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  if (cT.getRank() != 2)
    return {};
  Type ae = aT.getElementType();
  bool int8 = ae.isInteger(8) && cT.getElementType().isInteger(32);
  bool fp8 = mfmaFp8(ae, amdArch) && mfmaFp8(bT.getElementType(), amdArch) &&
             cT.getElementType().isF32();
  if (!fp8 && (ae != bT.getElementType() ||
               !(int8 || ((ae.isF16() || ae.isBF16()) && cT.getElementType().isF32()))))
    return {};
  int8 |= fp8; // eight 8-bit values a lane, like int8 from gfx942 on
  int64_t M = cT.getShape()[0], N = cT.getShape()[1], K = aT.getShape()[1];
  // 32x32x8 where every wave gets blocks of its own, else 16x16x16 (int8:
  // k steps of 16 and 32, which the instructions of every target divide).
  for (int64_t B : {32, 16}) {
    int64_t kStep = (B == 32 ? 8 : 16) * (int8 ? 2 : 1);
    if (M % B || N % B || K % kStep)
      continue;
    auto [wm, wn] = mfmaWarps(M, N, numWarps, B);
    if (wm * wn == numWarps)
      return MfmaShape{unsigned(B), wm, wn};
  }
  return {};
}

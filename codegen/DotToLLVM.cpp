//===- DotToLLVM.cpp - tl.dot on FMA units --------------------------------===//
//
// The FMA path, correct for every operand type: A and B are staged in
// shared memory in the accumulator's type (fp16/bf16 widened exactly, int8
// widened to int32, fp32 rounded to tf32 first when the precision is tf32,
// as the tensor cores would), then each thread forms the outer products for
// its accumulator registers: per k, one load per distinct row of A and per
// distinct column of B it owns, then one FMA per register. Batched (3-D)
// products index the batch like the rows.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

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

LogicalResult dot(Lowering &L, Operation *o) {
  auto op = cast<tile::DotOp>(o);
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto bT = cast<RankedTensorType>(op.getB().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  unsigned rank = cT.getRank();
  int64_t M = aT.getShape()[rank - 2], K = aT.getShape()[rank - 1];
  int64_t N = bT.getShape()[rank - 1];
  int64_t batch = rank == 3 ? cT.getShape()[0] : 1;
  Type ae = aT.getElementType(), ce = cT.getElementType();
  if (ae.getIntOrFloatBitWidth() == 8 && isa<FloatType>(ae))
    return L.fail(o, "tl.dot on fp8 operands is not supported on the GPU yet");
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

  Lowered a = L.get(op.getA()), bb = L.get(op.getB());
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

void tritium::codegen::populateDotHandlers(HandlerTable &t) { t["tile.dot"] = dot; }

//===- SharedMemory.cpp - Tiles through shared memory ---------------------===//
//
// The lowering's shared-memory side: barriers, element addresses in padded
// and swizzled tiles (one base per thread, constants per register), stores
// and loads of distributed tiles (vectorized, stmatrix from tensor-core
// fragments) and layout conversions staged through shared memory in parts.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace tritium::codegen;
//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

void Lowering::barrier(bool staging) {
  // A TMA store's reads of the staging area end before the barrier lets
  // anyone write there (its issuing thread waits for them).
  if (staging && bulkReadsPending && partition != Partition::Producer) {
    bulkReadsPending = false;
    waitTmaStoreReads();
  }
  // Two barriers in a row are one.
  llvm::BasicBlock *bb = b.GetInsertBlock();
  auto callee = [](llvm::Instruction &i) -> llvm::Function * {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
    return call ? call->getCalledFunction() : nullptr;
  };
  if (barrierFn_ && !bb->empty() && callee(bb->back()) == barrierFn_) {
    stagingTouched = false;
    return;
  }
  // A warp-specialized producer is one warp ordered by mbarriers; its
  // consumers meet at a named barrier that counts them only.
  if (partition == Partition::Producer)
    return;
  stagingTouched = false;
  if (partition == Partition::Consumer)
    target.barrier(b, 1, numWarps * target.warpSize());
  else
    target.barrier(b);
  if (!bb->empty())
    barrierFn_ = callee(bb->back());
}

llvm::Value *Lowering::sharedPtr(llvm::Type *ty, llvm::Value *index,
                                 unsigned byteOffset) {
  llvm::Value *base = smem_;
  if (byteOffset + scratchStart())
    base = b.CreateConstGEP1_32(b.getInt8Ty(), base, byteOffset + scratchStart());
  return b.CreateGEP(ty, base, index);
}

static llvm::Type *memType(Lowering &L, llvm::Type *t);

llvm::Value *Lowering::sharedOffset(const SharedLayout &l, llvm::Value *row,
                                    llvm::Value *col) {
  if (!l.isSwizzled())
    return b.CreateMul(b.CreateAdd(b.CreateMul(row, i32(l.cols + l.pad)), col),
                       i32(l.elemBytes));
  unsigned s = l.swizzleBytes;
  llvm::Value *block = b.CreateUDiv(col, i32(l.blockCols()));
  llvm::Value *within = b.CreateURem(col, i32(l.blockCols()));
  llvm::Value *o = b.CreateAdd(b.CreateMul(row, i32(s)), b.CreateMul(within, i32(l.elemBytes)));
  llvm::Value *x = b.CreateShl(b.CreateAnd(b.CreateLShr(o, 7), i32(s / 16 - 1)), 4);
  return b.CreateAdd(b.CreateMul(block, i32(l.blockBytes())), b.CreateXor(o, x));
}

llvm::Value *Lowering::elementOffset(const SharedLayout &l, const LinearLayout &from,
                                     unsigned reg, bool transposed) {
  unsigned cols = unsigned(from.shape().back());
  // Element (r, c) at (c, r) when transposed; else the row-major index
  // split at `cols`.
  auto offsetOf = [&](unsigned r) {
    if (transposed)
      return sharedOffset(l, coord(from, r, 1), coord(from, r, 0));
    llvm::Value *lin = linearCoord(from, r);
    return sharedOffset(l, b.CreateUDiv(lin, i32(cols)), b.CreateURem(lin, i32(cols)));
  };
  // One base per thread (register 0's offset) and a constant per register,
  // which folds into the address's immediate.
  SharedLayout::RegisterTerm term = l.registerTerm(from, reg, transposed);
  if (term.kind == SharedLayout::RegisterTerm::None)
    return offsetOf(reg);
  llvm::Value *base = offsetOf(0);
  if (!term.constant)
    return base;
  return term.kind == SharedLayout::RegisterTerm::Add
             ? b.CreateAdd(base, i32(term.constant))
             : b.CreateXor(base, i32(term.constant));
}

/// Stores registers [r, r + sv) of `src` (consecutive elements) at `p`:
/// one element, or one vector of sv.
static void storeRun(Lowering &L, const Lowered &src, unsigned r, unsigned sv, llvm::Type *ty,
                     llvm::Type *mt, llvm::Value *p) {
  auto &b = L.b;
  if (sv == 1) {
    L.storeShared(src.regs[r], p);
    return;
  }
  llvm::Value *vec = llvm::UndefValue::get(llvm::FixedVectorType::get(mt, sv));
  for (unsigned i = 0; i < sv; ++i) {
    llvm::Value *x = src.regs[r + i];
    if (ty->isPointerTy())
      x = b.CreatePtrToInt(x, mt);
    else if (ty->isIntegerTy(1))
      x = b.CreateZExt(x, mt);
    vec = b.CreateInsertElement(vec, x, i);
  }
  b.CreateAlignedStore(vec, p, llvm::Align(sv * L.storeBytes(mt)));
}

void Lowering::storeToSharedLayout(const Lowered &src, llvm::Type *ty,
                                   const SharedLayout &layout, llvm::Value *byteOffset) {
  stagingTouched = true;
  // A tensor-core fragment into a swizzled tile: stmatrix, whose 16-byte
  // rows the swizzle keeps whole.
  if (layout.isSwizzled() && src.layout->rank() == 2 &&
      storeToSharedStmatrix(src, ty, layout, byteOffset))
    return;
  const LinearLayout &from = *src.layout;
  llvm::Type *mt = memType(*this, ty);
  unsigned eb = storeBytes(mt);
  unsigned cols = unsigned(from.shape().back());
  unsigned sv = std::min<unsigned>(from.contiguousRegs(from.rank() - 1), 16 / eb);
  while (sv > 1 && cols % sv)
    sv /= 2;
  sv = std::max(1u, sv);
  for (unsigned r = 0; r < from.numRegs(); r += sv)
    if (!from.isReplicaReg(r))
      storeRun(*this, src, r, sv, ty, mt,
               sharedBytePtr(b.CreateAdd(byteOffset, elementOffset(layout, from, r))));
}

void Lowering::waitTmaStoreReads() {
  guarded(b.CreateICmpEQ(tid_, i32(0)), [&] {
    b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), false),
                                      "cp.async.bulk.wait_group.read 0;", "", true));
  }, "tma.store.read");
}

llvm::Value *Lowering::sharedBytePtr(llvm::Value *byteOffset) {
  return b.CreateGEP(b.getInt8Ty(), smem_, byteOffset);
}

static llvm::Type *memType(Lowering &L, llvm::Type *t) {
  if (t->isPointerTy())
    return L.b.getInt64Ty();
  if (t->isIntegerTy(1))
    return L.b.getInt8Ty();
  return t;
}

llvm::Value *Lowering::loadShared(llvm::Type *ty, llvm::Value *ptr) {
  llvm::Type *mt = memType(*this, ty);
  llvm::Value *v = b.CreateLoad(mt, ptr);
  if (ty->isPointerTy())
    return b.CreateIntToPtr(v, ty);
  if (ty->isIntegerTy(1))
    return b.CreateICmpNE(v, llvm::ConstantInt::get(mt, 0));
  return v;
}

void Lowering::storeShared(llvm::Value *v, llvm::Value *ptr) {
  llvm::Type *ty = v->getType();
  if (ty->isPointerTy())
    v = b.CreatePtrToInt(v, b.getInt64Ty());
  else if (ty->isIntegerTy(1))
    v = b.CreateZExt(v, b.getInt8Ty());
  b.CreateStore(v, ptr);
}

void Lowering::guarded(llvm::Value *cond, const std::function<void()> &body,
                       const llvm::Twine &name) {
  auto *then = llvm::BasicBlock::Create(ctx, name + ".then", fn);
  auto *cont = llvm::BasicBlock::Create(ctx, name + ".end", fn);
  b.CreateCondBr(cond, then, cont);
  b.SetInsertPoint(then);
  body();
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

llvm::Value *Lowering::broadcastFromThread0(llvm::Value *v) {
  llvm::Type *mt = memType(*this, v->getType());
  reserveShared(storeBytes(mt));
  barrierBeforeStaging();
  llvm::Value *ptr = sharedPtr(mt, i32(0));
  guarded(b.CreateICmpEQ(tid_, i32(0)), [&] { storeShared(v, ptr); }, "bcast");
  barrier();
  stagingTouched = true;
  return loadShared(v->getType(), ptr);
}

/// Registers moved per shared-memory access: runs of consecutive elements
/// (up to 16 bytes) when the padded rows keep them aligned.
static unsigned sharedVector(const LinearLayout &l, unsigned eb, unsigned padLast) {
  unsigned v = std::min<unsigned>(l.contiguousRegs(l.rank() - 1), 16 / eb);
  while (v > 1 && (padLast % v || l.shape().back() % v))
    v /= 2;
  return std::max(1u, v);
}

bool Lowering::storeToSharedStmatrix(const Lowered &src, llvm::Type *ty, unsigned padLast,
                                     unsigned byteOffset) {
  const LinearLayout &from = *src.layout;
  int64_t cols = from.shape().back();
  return storeToSharedStmatrix(
      src, ty, SharedLayout::padded(from.numElements() / std::max<int64_t>(1, cols), cols, 2, padLast),
      i32(byteOffset + scratchStart()));
}

bool Lowering::storeToSharedStmatrix(const Lowered &src, llvm::Type *ty,
                                     const SharedLayout &staging, llvm::Value *byteOffset) {
  // stmatrix .x4 stores four 8x8 matrices of 16-bit elements: lane t holds
  // row t/4, columns 2(t%4) and 2(t%4)+1 of each (one 32-bit register), and
  // lanes 8m..8m+7 give the addresses of matrix m's eight 16-byte rows. That
  // is the mma/wgmma accumulator's fragment: the layout must map register
  // bit 0 and lane bits 0, 1 to columns +1, +2, +4 and lane bits 2-4 to
  // rows +1, +2, +4 (of the row-major [rows, cols] view); register bits 1
  // and 2 pick the four matrices, the rest and the warps one stmatrix each.
  const LinearLayout &from = *src.layout;
  if (!target.hasStmatrix() || storeBytes(memType(*this, ty)) != 2 || from.numRegs() < 8 ||
      from.numLanes() != 32)
    return false;
  int64_t cols = from.shape().back();
  if (staging.cols != cols || (!staging.isSwizzled() && (cols + staging.pad) % 8))
    return false; // rows must start 16-byte aligned (swizzled rows do)
  auto place = [&](const Coord &c) -> std::pair<int64_t, int64_t> {
    int64_t lin = 0;
    for (unsigned d = 0; d < from.rank(); ++d)
      lin = lin * from.shape()[d] + c[d];
    return {lin / cols, lin % cols};
  };
  const auto &regB = from.bases(LinearLayout::Reg);
  const auto &laneB = from.bases(LinearLayout::Lane);
  std::pair<int64_t, int64_t> want[] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  if (place(regB[0]) != std::make_pair<int64_t, int64_t>(0, 1))
    return false;
  for (unsigned i = 0; i < 5; ++i)
    if (place(laneB[i]) != want[i])
      return false;
  // Every matrix starts on a 16-byte boundary of its row, and no register
  // repeats another.
  for (unsigned i = 1; i < regB.size(); ++i) {
    auto [r, c] = place(regB[i]);
    if ((r == 0 && c == 0) || c % 8)
      return false;
  }
  for (const Coord &w : from.bases(LinearLayout::Warp))
    if (place(w).second % 8)
      return false;
  // The rows' addresses: a layout whose lanes 0-2 step the rows and lanes
  // 3, 4 the matrices (register bits 1, 2); its registers the remaining
  // register bits.
  std::vector<Coord> addrRegs(regB.begin() + 3, regB.end());
  std::vector<Coord> addrLanes = {laneB[2], laneB[3], laneB[4], regB[1], regB[2]};
  LinearLayout addr(from.shape(), addrRegs, addrLanes, from.bases(LinearLayout::Warp));
  auto *i32t = b.getInt32Ty();
  auto *asmTy = llvm::FunctionType::get(b.getVoidTy(), {i32t, i32t, i32t, i32t, i32t}, false);
  auto *st = llvm::InlineAsm::get(
      asmTy, "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};",
      "r,r,r,r,r", true);
  llvm::Type *mt = memType(*this, ty);
  auto *pairTy = llvm::FixedVectorType::get(mt, 2);
  // One row address per lane for the first stmatrix; the others add
  // constants (SharedLayout::registerTerm).
  for (unsigned q = 0; q < addr.numRegs(); ++q) {
    llvm::Value *p = sharedBytePtr(b.CreateAdd(byteOffset, elementOffset(staging, addr, q, false)));
    llvm::Value *args[5] = {b.CreatePtrToInt(p, i32t)};
    for (unsigned m = 0; m < 4; ++m) {
      unsigned r = (q << 3) | ((m & 1) << 1) | ((m >> 1) << 2);
      llvm::Value *v = llvm::UndefValue::get(pairTy);
      v = b.CreateInsertElement(v, src.regs[r], uint64_t(0));
      v = b.CreateInsertElement(v, src.regs[r | 1], uint64_t(1));
      args[1 + m] = b.CreateBitCast(v, i32t);
    }
    b.CreateCall(st, args);
  }
  return true;
}

void Lowering::storeToShared(const Lowered &src, llvm::Type *ty, unsigned padLast,
                             unsigned byteOffset) {
  stagingTouched = true;
  const LinearLayout &from = *src.layout;
  llvm::Type *mt = memType(*this, ty);
  unsigned eb = storeBytes(mt);
  int64_t rows = from.numElements() / std::max<int64_t>(1, from.shape().back());
  reserveShared(unsigned(byteOffset + rows * (from.shape().back() + padLast) * eb));
  if (storeToSharedStmatrix(src, ty, padLast, byteOffset))
    return;
  unsigned sv = sharedVector(from, eb, padLast);
  for (unsigned r = 0; r < from.numRegs(); r += sv)
    if (!from.isReplicaReg(r))
      storeRun(*this, src, r, sv, ty, mt, sharedPtr(mt, linearCoord(from, r, padLast), byteOffset));
}

std::vector<llvm::Value *> Lowering::loadFromShared(llvm::Type *ty,
                                                    const LinearLayout &to,
                                                    unsigned padLast,
                                                    unsigned byteOffset,
                                                    unsigned firstReg,
                                                    unsigned numRegs) {
  stagingTouched = true;
  llvm::Type *mt = memType(*this, ty);
  unsigned eb = storeBytes(mt);
  unsigned dv = sharedVector(to, eb, padLast);
  while (dv > 1 && (firstReg % dv || (numRegs != ~0u && numRegs % dv)))
    dv /= 2;
  unsigned end = numRegs == ~0u ? to.numRegs() : std::min(to.numRegs(), firstReg + numRegs);
  std::vector<llvm::Value *> out;
  for (unsigned r = firstReg; r < end; r += dv) {
    llvm::Value *p = sharedPtr(mt, linearCoord(to, r, padLast), byteOffset);
    if (dv == 1) {
      out.push_back(loadShared(ty, p));
      continue;
    }
    llvm::Value *vec = b.CreateAlignedLoad(llvm::FixedVectorType::get(mt, dv), p,
                                           llvm::Align(dv * eb));
    for (unsigned i = 0; i < dv; ++i) {
      llvm::Value *x = b.CreateExtractElement(vec, i);
      if (ty->isPointerTy())
        x = b.CreateIntToPtr(x, ty);
      else if (ty->isIntegerTy(1))
        x = b.CreateICmpNE(x, llvm::ConstantInt::get(mt, 0));
      out.push_back(x);
    }
  }
  return out;
}

namespace {

/// A coordinate bit that one register bit alone sets in a layout: the
/// register bit's position, or -1. Other bases must leave the bit clear.
int pureRegisterBit(const LinearLayout &l, unsigned dim, int64_t bit) {
  int found = -1;
  for (auto d : {LinearLayout::Reg, LinearLayout::Lane, LinearLayout::Warp})
    for (auto [i, v] : llvm::enumerate(l.bases(d))) {
      if (!(v[dim] & bit))
        continue;
      bool pure = d == LinearLayout::Reg && found < 0;
      for (unsigned k = 0; k < v.size() && pure; ++k)
        pure = v[k] == (k == dim ? bit : 0);
      if (!pure)
        return -1;
      found = int(i);
    }
  return found;
}

/// `l` without register bit `reg` and without coordinate bit `bit` of
/// `dim` (which only that register bit sets): the layout of the half of
/// the tile where that coordinate bit is fixed.
LinearLayout withoutBit(const LinearLayout &l, unsigned reg, unsigned dim, int64_t bit) {
  auto squeeze = [&](Coord c) {
    c[dim] = (c[dim] & (bit - 1)) | ((c[dim] >> 1) & ~(bit - 1));
    return c;
  };
  std::vector<Coord> regs, lanes, warps;
  for (auto [i, v] : llvm::enumerate(l.bases(LinearLayout::Reg)))
    if (i != reg)
      regs.push_back(squeeze(v));
  for (const Coord &v : l.bases(LinearLayout::Lane))
    lanes.push_back(squeeze(v));
  for (const Coord &v : l.bases(LinearLayout::Warp))
    warps.push_back(squeeze(v));
  std::vector<int64_t> shape = l.shape();
  shape[dim] /= 2;
  return LinearLayout(shape, regs, lanes, warps);
}

} // namespace

namespace {

/// A 16-bit tile transposed between registers: each thread holds runs of 8
/// down the columns (`from`, a tl.trans of a row-major load) and wants runs
/// of 8 along the rows (`to`, a coalesced store's). Plain staging stores or
/// loads one element at a time on one of the two sides. Instead the tile is
/// staged column by column (each 16-byte run one st.shared.v4) and read
/// back with ldmatrix.trans, which hands each lane 2 consecutive elements
/// of a row from each of 4 matrices whose rows (the staged columns) the
/// lanes address freely: lane t gets row t/4 of an 8-row block and the 8
/// columns 8 (t % 4) .. +7 of a 32-column one. `to` must be that: registers
/// 0-2 the columns +1, +2, +4, lanes the columns +8, +16 and rows +1, +2,
/// +4, the rest whole 8 x 32 blocks; `from` runs of 8 rows in registers
/// 0-2 starting at multiples of 8. The staged columns' 16-byte chunks are
/// XOR-swizzled so that neither side's accesses meet in a bank.
bool convertTransposedLdmatrix(Lowering &L, const Lowered &src, llvm::Type *ty,
                               const LinearLayout &to, std::vector<llvm::Value *> &out) {
  const LinearLayout &from = *src.layout;
  if (!L.target.isNvidia() || from.rank() != 2 || to.rank() != 2 ||
      from.shape() != to.shape() || ty->getPrimitiveSizeInBits() != 16)
    return false;
  int64_t R = to.shape()[0], C = to.shape()[1];
  if (R % 8 || C % 32 || from.numRegs() % 8 || to.numRegs() % 8)
    return false;
  auto is = [](const Coord &c, int64_t r, int64_t k) { return c[0] == r && c[1] == k; };
  const auto &fr = from.bases(LinearLayout::Reg);
  const auto &tr = to.bases(LinearLayout::Reg), &tl = to.bases(LinearLayout::Lane);
  if (fr.size() < 3 || !is(fr[0], 1, 0) || !is(fr[1], 2, 0) || !is(fr[2], 4, 0))
    return false;
  if (tr.size() < 3 || !is(tr[0], 0, 1) || !is(tr[1], 0, 2) || !is(tr[2], 0, 4) ||
      tl.size() != 5 || !is(tl[0], 0, 8) || !is(tl[1], 0, 16) || !is(tl[2], 1, 0) ||
      !is(tl[3], 2, 0) || !is(tl[4], 4, 0))
    return false;
  auto wholeBlocks = [](const std::vector<Coord> &bs, size_t first, int64_t rows, int64_t cols) {
    for (size_t i = first; i < bs.size(); ++i)
      if (bs[i][0] % rows || bs[i][1] % cols)
        return false;
    return true;
  };
  if (!wholeBlocks(fr, 3, 8, 1) || !wholeBlocks(from.bases(LinearLayout::Lane), 0, 8, 1) ||
      !wholeBlocks(from.bases(LinearLayout::Warp), 0, 8, 1) || !wholeBlocks(tr, 3, 8, 32) ||
      !wholeBlocks(to.bases(LinearLayout::Warp), 0, 8, 32))
    return false;

  auto &b = L.b;
  unsigned chunks = unsigned(R / 8);
  unsigned colBytes = unsigned(R * 2);
  // Element (row, col) of the staged tile: column `col` at col * 2R, its
  // 16-byte chunk row / 8 XOR a key of the column (its bits 0, 3, 4: the
  // eight columns one ldmatrix matrix reads, and the columns lanes 8 apart
  // store, fall in distinct chunks).
  auto offset = [&](llvm::Value *row, llvm::Value *col) {
    llvm::Value *key = b.CreateOr(b.CreateAnd(col, L.i32(1)),
                                  b.CreateAnd(b.CreateLShr(col, L.i32(2)), L.i32(6)));
    key = b.CreateAnd(key, L.i32(std::min(chunks, 8u) - 1));
    llvm::Value *chunk = b.CreateXor(b.CreateLShr(row, L.i32(3)), key);
    return b.CreateAdd(L.i32(L.scratchStart()),
                       b.CreateAdd(b.CreateMul(col, L.i32(colBytes)),
                                   b.CreateShl(chunk, L.i32(4))));
  };
  auto *i32 = b.getInt32Ty();
  auto *i16 = b.getInt16Ty();
  L.barrierBeforeStaging();
  L.reserveShared(unsigned(R * C * 2));
  L.stagingTouched = true;
  for (unsigned g = 0; g < from.numRegs(); g += 8) {
    if (from.isReplicaReg(g))
      continue;
    llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(i32, 4));
    for (unsigned j = 0; j < 4; ++j) {
      llvm::Value *lo = b.CreateZExt(b.CreateBitCast(src.regs[g + 2 * j], i16), i32);
      llvm::Value *hi = b.CreateZExt(b.CreateBitCast(src.regs[g + 2 * j + 1], i16), i32);
      vec = b.CreateInsertElement(vec, b.CreateOr(lo, b.CreateShl(hi, L.i32(16))), uint64_t(j));
    }
    llvm::Value *p = L.sharedBytePtr(offset(L.coord(from, g, 0), L.coord(from, g, 1)));
    b.CreateAlignedStore(vec, p, llvm::Align(16));
  }
  L.barrier();
  auto *ld = llvm::InlineAsm::get(
      llvm::FunctionType::get(llvm::StructType::get(L.ctx, {i32, i32, i32, i32}),
                              {b.getInt64Ty()}, false),
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];",
      "=r,=r,=r,=r,l", true);
  llvm::Value *lane = L.laneId();
  // Lane i names row i % 8 of matrix i / 8: the column 2 (i / 8) + i % 2 +
  // 8 ((i / 2) % 4) of the block, at the block's first row.
  llvm::Value *m = b.CreateLShr(lane, L.i32(3)), *rho = b.CreateAnd(lane, L.i32(7));
  llvm::Value *within =
      b.CreateAdd(b.CreateAdd(b.CreateShl(m, L.i32(1)), b.CreateAnd(rho, L.i32(1))),
                  b.CreateShl(b.CreateLShr(rho, L.i32(1)), L.i32(3)));
  llvm::Value *ownCol = b.CreateShl(b.CreateAnd(lane, L.i32(3)), L.i32(3));
  llvm::Value *ownRow = b.CreateAnd(b.CreateLShr(lane, L.i32(2)), L.i32(7));
  // The reads below touch the staging area: the next write there waits
  // for them at a barrier.
  L.stagingTouched = true;
  out.assign(to.numRegs(), nullptr);
  for (unsigned k = 0; k < to.numRegs(); k += 8) {
    llvm::Value *row0 = b.CreateSub(L.coord(to, k, 0), ownRow);
    llvm::Value *col0 = b.CreateSub(L.coord(to, k, 1), ownCol);
    llvm::Value *addr = L.sharedBytePtr(offset(row0, b.CreateAdd(col0, within)));
    llvm::Value *res = b.CreateCall(ld, {b.CreatePtrToInt(addr, b.getInt64Ty())});
    for (unsigned j = 0; j < 4; ++j) {
      llvm::Value *w = b.CreateExtractValue(res, j);
      out[k + 2 * j] = b.CreateBitCast(b.CreateTrunc(w, i16), ty);
      out[k + 2 * j + 1] = b.CreateBitCast(b.CreateTrunc(b.CreateLShr(w, L.i32(16)), i16), ty);
    }
  }
  return true;
}

} // namespace

std::vector<llvm::Value *> Lowering::convertRegs(const Lowered &src,
                                                 llvm::Type *ty,
                                                 const LinearLayout &to,
                                                 unsigned padLast) {
  {
    std::vector<llvm::Value *> out;
    if (padLast == 0 && convertTransposedLdmatrix(*this, src, ty, to, out))
      return out;
  }
  // A tile larger than kConversionChunkBytes moves in parts, each a set of
  // coordinate bits that registers alone select in both layouts (rows of
  // a product's accumulator held in the same registers before and after),
  // so that the staging area stays small (a persistent kernel's epilogue
  // then leaves room for another pipeline slot).
  const LinearLayout &from = *src.layout;
  unsigned eb = storeBytes(memType(*this, ty));
  struct Split {
    unsigned fromBit, toBit;
  };
  std::vector<Split> splits;
  LinearLayout f = from, t = to;
  int64_t bytes = from.numElements() * eb;
  for (unsigned dim = 0; dim < from.rank() && padLast == 0; ++dim) {
    // The last dimension's low bits form the vector runs: its upper half
    // only.
    int64_t lowest = dim + 1 == from.rank() ? std::max<int64_t>(2, f.shape()[dim] / 2) : 1;
    for (int64_t bit = f.shape()[dim] / 2; bit >= lowest && bytes > kConversionChunkBytes;
         bit /= 2) {
      int rf = pureRegisterBit(f, dim, bit), rt = pureRegisterBit(t, dim, bit);
      if (rf < 0 || rt < 0)
        continue;
      f = withoutBit(f, unsigned(rf), dim, bit);
      t = withoutBit(t, unsigned(rt), dim, bit);
      splits.push_back({unsigned(rf), unsigned(rt)});
      bytes /= 2;
    }
  }
  // Rows of 128-byte multiples that the lanes of one store spread over
  // would meet in the same banks: each row is padded by 16 bytes.
  if (padLast == 0 && f.rank() >= 2) {
    int64_t rowBytes = f.shape().back() * eb;
    bool lanesCrossRows = llvm::any_of(f.bases(LinearLayout::Lane), [&](const Coord &c) {
      for (unsigned d = 0; d + 1 < c.size(); ++d)
        if (c[d])
          return true;
      return false;
    });
    if (lanesCrossRows && rowBytes % 128 == 0 && 16 % eb == 0)
      padLast = 16 / eb;
  }
  if (splits.empty()) {
    barrierBeforeStaging();
    storeToShared(src, ty, padLast);
    barrier();
    return loadFromShared(ty, to, padLast);
  }
  // Register index of the part's register `r` in the full layout, the
  // part selecting `part`'s bits (removed bits reinserted, last first).
  auto expand = [&](unsigned r, unsigned part, bool isFrom) {
    for (size_t k = splits.size(); k-- > 0;) {
      unsigned p = isFrom ? splits[k].fromBit : splits[k].toBit;
      unsigned low = r & ((1u << p) - 1);
      r = ((r >> p) << (p + 1)) | (((part >> k) & 1u) << p) | low;
    }
    return r;
  };
  auto fromPart = std::make_shared<const LinearLayout>(f);
  std::vector<llvm::Value *> out(to.numRegs());
  for (unsigned part = 0; part < (1u << splits.size()); ++part) {
    Lowered piece{fromPart, {}};
    for (unsigned r = 0; r < f.numRegs(); ++r)
      piece.regs.push_back(src.regs[expand(r, part, true)]);
    barrierBeforeStaging();
    storeToShared(piece, ty, padLast);
    barrier();
    std::vector<llvm::Value *> got = loadFromShared(ty, t, padLast);
    for (unsigned r = 0; r < t.numRegs(); ++r)
      out[expand(r, part, false)] = got[r];
  }
  return out;
}

//===- Lowering.cpp - Tile IR to LLVM IR: values, layouts, shared memory -===//
//
// The core of the GPU lowering: the kernel's LLVM signature, the value map,
// layout conversion (register picks, recomputation of cheap producers,
// shared-memory staging) and the thread geometry; scf control flow is in
// ControlFlowToLLVM.cpp, the pipeliner's shared buffers in SharedBuffers.cpp.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace tritium::codegen;

Lowering::Lowering(llvm::Module &module, TargetInfo &target, unsigned numWarps)
    : ctx(module.getContext()), mod(module), b(module.getContext()),
      target(target), numWarps(numWarps) {
  populateElementwiseHandlers(handlers_);
  populateShapeHandlers(handlers_);
  populateMemoryHandlers(handlers_);
  populateReduceHandlers(handlers_);
  populateDotHandlers(handlers_);
  populateDebugHandlers(handlers_);
  populateSortHandlers(handlers_);
  populateMapHandlers(handlers_);
  populateDescriptorHandlers(handlers_);
  populateTmaHandlers(handlers_);
}

LogicalResult Lowering::fail(Operation *op, const llvm::Twine &msg) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  if (auto fl = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
       << fl.getColumn() << ": ";
  else
    op->getLoc().print(os), os << ": ";
  if (error.empty())
    error = loc + "error: " + msg.str() + " (in '" +
            op->getName().getStringRef().str() + "')";
  return failure();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

llvm::Type *Lowering::llvmType(Type t) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    t = rt.getElementType();
  if (isa<mlir::tile::PointerType>(t))
    return llvm::PointerType::get(ctx, target.globalAddrSpace());
  if (auto td = dyn_cast<mlir::tile::TensorDescType>(t)) {
    // A descriptor is one scalar value, {base, shape (i32) x rank, strides
    // (i64) x rank, NaN padding (i1)}, so scf loops and ifs carry it as a
    // single phi. The padding is a field because descriptors made with
    // different paddings may meet at a phi.
    unsigned rank = td.getBlockType().getRank();
    std::vector<llvm::Type *> fields{
        llvm::PointerType::get(ctx, target.globalAddrSpace())};
    fields.insert(fields.end(), rank, b.getInt32Ty());
    fields.insert(fields.end(), rank, b.getInt64Ty());
    fields.push_back(b.getInt1Ty());
    return llvm::StructType::get(ctx, fields);
  }
  if (auto it = dyn_cast<IntegerType>(t))
    return llvm::IntegerType::get(ctx, it.getWidth());
  if (t.isF16())
    return b.getHalfTy();
  if (t.isBF16())
    return b.getBFloatTy();
  if (t.isF32())
    return b.getFloatTy();
  if (t.isF64())
    return b.getDoubleTy();
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() == 8)
    return b.getInt8Ty(); // fp8 formats travel as their bits
  if (t.isIndex())
    return b.getInt64Ty();
  return nullptr;
}

unsigned Lowering::storeBytes(llvm::Type *t) {
  if (t->isPointerTy())
    return 8;
  return std::max<unsigned>(1, t->getPrimitiveSizeInBits() / 8);
}

LayoutRef Lowering::defaultLayout(Type t) {
  auto rt = cast<RankedTensorType>(t);
  // One width for every element type keeps masks, offsets and data of a
  // tile in the same layout, so they combine without conversions.
  return share(LinearLayout::defaultFor(
      std::vector<int64_t>(rt.getShape().begin(), rt.getShape().end()),
      numWarps, layoutBits, target.warpSize()));
}

LayoutRef Lowering::assigned(Type t) {
  auto rt = cast<RankedTensorType>(t);
  Attribute enc = rt.getEncoding();
  if (!enc)
    return defaultLayout(rt);
  if (isa<tgpu::SharedEncodingAttr>(enc))
    return nullptr;
  LayoutRef &l = assigned_[rt];
  if (!l) {
    auto m = tgpu::toLinearLayout(enc, rt.getShape(), target.warpSize());
    l = m ? share(std::move(*m)) : defaultLayout(rt);
  }
  return l;
}

unsigned Lowering::constantRegs(Value v, const LinearLayout &layout) {
  if (!constancyHint)
    return 0;
  unsigned mask = 0;
  const auto &bases = layout.bases(LinearLayout::Reg);
  for (unsigned i = 0; i < bases.size(); ++i) {
    // A register bit that moves along one dimension by less than the run
    // length stays inside an aligned run of equal elements.
    int dim = -1;
    for (unsigned d = 0; d < bases[i].size(); ++d)
      if (bases[i][d])
        dim = dim < 0 ? int(d) : -2;
    if (dim >= 0 && bases[i][dim] < constancyHint(v, unsigned(dim)))
      mask |= 1u << i;
  }
  return mask;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Lowered &Lowering::get(Value v) {
  auto it = values_.find(v);
  assert(it != values_.end() && "value used before it was lowered");
  return it->second;
}

llvm::Value *Lowering::scalar(Value v) { return get(v).regs.front(); }

void Lowering::set(Value v, Lowered l) {
  // The layout assignment decided where `v` lives; a handler that made it
  // elsewhere has it moved there.
  if (l.layout && !l.regs.empty() && isa<RankedTensorType>(v.getType())) {
    LayoutRef want = assigned(v.getType());
    if (want && *want != *l.layout) {
      ++layoutMismatches;
      static const bool report = std::getenv("TRITIUM_CHECK_LAYOUTS") != nullptr;
      if (report) {
        llvm::errs() << "layout mismatch at ";
        v.getLoc().print(llvm::errs());
        llvm::errs() << ": " << (v.getDefiningOp() ? v.getDefiningOp()->getName().getStringRef()
                                                   : llvm::StringRef("block argument"))
                     << "\n  made:     " << l.layout->str() << "\n  assigned: " << want->str()
                     << "\n";
      }
      if (auto map = LinearLayout::threadLocalMap(*l.layout, *want)) {
        std::vector<llvm::Value *> regs;
        for (unsigned r : *map)
          regs.push_back(l.regs[r]);
        l = Lowered{want, regs};
      } else {
        l = Lowered{want, convertRegs(l, llvmType(v.getType()), *want)};
      }
    }
  }
  values_[v] = std::move(l);
}

//===----------------------------------------------------------------------===//
// Thread geometry
//===----------------------------------------------------------------------===//

llvm::Value *Lowering::threadId() { return tid_; }
llvm::Value *Lowering::laneId() { return lane_; }
llvm::Value *Lowering::warpId() { return warp_; }

llvm::Value *Lowering::coord(const LinearLayout &l, unsigned reg,
                             unsigned dim) {
  int64_t constant = l.applyOne(LinearLayout::Reg, reg)[dim];
  llvm::Value *acc = nullptr;
  uint64_t usedBits = 0;
  bool disjoint = true;
  auto addBits = [&](llvm::Value *id, LinearLayout::InDim d) {
    const auto &bases = l.bases(d);
    for (unsigned bit = 0; bit < bases.size(); ++bit) {
      int64_t v = bases[bit][dim];
      if (!v)
        continue;
      llvm::Value *set = b.CreateAnd(b.CreateLShr(id, bit), 1);
      llvm::Value *term = llvm::isPowerOf2_64(v)
                              ? b.CreateShl(set, llvm::Log2_64(v))
                              : b.CreateMul(set, i32(v));
      if (usedBits & uint64_t(v))
        disjoint = false;
      usedBits |= uint64_t(v);
      acc = !acc ? term : disjoint ? b.CreateOr(acc, term) : b.CreateXor(acc, term);
    }
  };
  addBits(lane_, LinearLayout::Lane);
  addBits(warp_, LinearLayout::Warp);
  if (!acc)
    return i32(constant);
  if (!constant)
    return acc;
  if (!(usedBits & uint64_t(constant)) && disjoint)
    return b.CreateOr(acc, i32(constant), "", /*IsDisjoint=*/true);
  return b.CreateXor(acc, i32(constant));
}

llvm::Value *Lowering::linearCoord(const LinearLayout &l, unsigned reg,
                                   unsigned padLast) {
  llvm::Value *idx = nullptr;
  for (unsigned d = 0; d < l.rank(); ++d) {
    llvm::Value *c = coord(l, reg, d);
    int64_t extent = l.shape()[d] + (d + 1 == l.rank() ? padLast : 0);
    idx = !idx ? c : b.CreateAdd(b.CreateMul(idx, i32(extent)), c);
  }
  return idx ? idx : i32(0);
}

llvm::Value *Lowering::isOwner(const LinearLayout &l) {
  unsigned lm = l.replicatedMask(LinearLayout::Lane);
  unsigned wm = l.replicatedMask(LinearLayout::Warp);
  llvm::Value *ok = b.getTrue();
  if (lm)
    ok = b.CreateICmpEQ(b.CreateAnd(lane_, lm), i32(0));
  if (wm)
    ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateAnd(warp_, wm), i32(0)));
  return ok;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

void Lowering::barrier() {
  // Two barriers in a row are one.
  llvm::BasicBlock *bb = b.GetInsertBlock();
  auto callee = [](llvm::Instruction &i) -> llvm::Function * {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
    return call ? call->getCalledFunction() : nullptr;
  };
  if (barrierFn_ && !bb->empty() && callee(bb->back()) == barrierFn_)
    return;
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
  barrier();
  llvm::Value *ptr = sharedPtr(mt, i32(0));
  guarded(b.CreateICmpEQ(tid_, i32(0)), [&] { storeShared(v, ptr); }, "bcast");
  barrier();
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
  if ((cols + padLast) % 8)
    return false; // rows must start 16-byte aligned
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
  SharedLayout staging = SharedLayout::padded(from.numElements() / cols, cols, 2, padLast);
  for (unsigned q = 0; q < addr.numRegs(); ++q) {
    llvm::Value *p = sharedBytePtr(b.CreateAdd(i32(byteOffset + scratchStart()),
                                               elementOffset(staging, addr, q, false)));
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

std::vector<llvm::Value *> Lowering::convertRegs(const Lowered &src,
                                                 llvm::Type *ty,
                                                 const LinearLayout &to,
                                                 unsigned padLast) {
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
    barrier();
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
    barrier();
    storeToShared(piece, ty, padLast);
    barrier();
    std::vector<llvm::Value *> got = loadFromShared(ty, t, padLast);
    for (unsigned r = 0; r < t.numRegs(); ++r)
      out[expand(r, part, false)] = got[r];
  }
  return out;
}

std::vector<llvm::Value *> Lowering::convert(Value v, const LinearLayout &to) {
  Lowered &src = get(v);
  assert(src.layout && "scalars have no layout");
  if (*src.layout == to)
    return src.regs;
  if (auto map = LinearLayout::threadLocalMap(*src.layout, to)) {
    std::vector<llvm::Value *> out;
    for (unsigned r : *map)
      out.push_back(src.regs[r]);
    return out;
  }
  auto remat = tryRematerialize(v, to, 0);
  if (succeeded(remat))
    return *remat;
  Lowered copy = src; // convertRegs may grow the value map
  return convertRegs(copy, llvmType(v.getType()), to);
}

FailureOr<std::vector<llvm::Value *>>
Lowering::tryRematerialize(Value v, const LinearLayout &to, int depth) {
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16 || op->getNumResults() != 1)
    return failure();
  // Operands either already sit in `to` within the thread, or are
  // recomputed there in turn.
  auto operandIn = [&](Value x,
                       const LinearLayout &want) -> FailureOr<std::vector<llvm::Value *>> {
    Lowered &l = get(x);
    if (!l.layout)
      return failure();
    if (*l.layout == want)
      return l.regs;
    if (auto map = LinearLayout::threadLocalMap(*l.layout, want)) {
      std::vector<llvm::Value *> out;
      for (unsigned r : *map)
        out.push_back(l.regs[r]);
      return out;
    }
    return tryRematerialize(x, want, depth + 1);
  };
  // A conversion the layout assignment placed: its source is recomputed
  // in `to` instead.
  if (auto cv = dyn_cast<tgpu::ConvertLayoutOp>(op))
    return operandIn(cv.getSrc(), to);
  if (isa<mlir::tile::HintOp>(op)) // a fact about the values, no code
    return operandIn(op->getOperand(0), to);
  if (auto mr = dyn_cast<mlir::tile::MakeRangeOp>(op)) {
    std::vector<llvm::Value *> out;
    for (unsigned r = 0; r < to.numRegs(); ++r)
      out.push_back(b.CreateAdd(coord(to, r, 0), i32(mr.getStart())));
    return out;
  }
  if (isa<mlir::tile::SplatOp>(op) ||
      (isa<arith::ConstantOp>(op) && isa<SplatElementsAttr>(
                                         cast<arith::ConstantOp>(op).getValue())))
    return std::vector<llvm::Value *>(to.numRegs(), get(v).regs.front());
  if (auto ed = dyn_cast<mlir::tile::ExpandDimsOp>(op)) // `to` without the unit dim
    return operandIn(ed.getSrc(), to.sliceDim(ed.getAxis()));
  if (auto rs = dyn_cast<mlir::tile::ReshapeOp>(op)) {
    // The same elements in the same registers, read through the row-major
    // reshape (a block pointer's offsets shaped [B0, 1] or [1, B1]).
    auto srcShape = cast<RankedTensorType>(rs.getSrc().getType()).getShape();
    return operandIn(rs.getSrc(),
                     to.reshape(std::vector<int64_t>(srcShape.begin(), srcShape.end())));
  }
  if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op)) {
    // The source has fewer elements: when it cannot be recomputed, it is
    // the one that moves through shared memory, not the broadcast tile.
    auto srcShape = cast<RankedTensorType>(bc.getSrc().getType()).getShape();
    LinearLayout src = to.projectTo(std::vector<int64_t>(srcShape.begin(), srcShape.end()));
    auto r = operandIn(bc.getSrc(), src);
    if (succeeded(r) || !get(bc.getSrc()).layout)
      return r;
    return convert(bc.getSrc(), src);
  }
  if (!isRecomputableElementwise(op))
    return failure();
  std::vector<std::vector<llvm::Value *>> ins;
  for (Value x : op->getOperands()) {
    if (!isa<RankedTensorType>(x.getType())) {
      ins.push_back(std::vector<llvm::Value *>(to.numRegs(), scalar(x)));
      continue;
    }
    auto r = operandIn(x, to);
    if (failed(r))
      return failure();
    ins.push_back(*r);
  }
  std::vector<llvm::Value *> out;
  for (unsigned r = 0; r < to.numRegs(); ++r) {
    std::vector<llvm::Value *> args;
    for (auto &in : ins)
      args.push_back(in[r]);
    llvm::Value *res = emitScalarElementwise(*this, op, args);
    if (!res)
      return failure();
    out.push_back(res);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Kernel entry and dispatch
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerKernel(Operation *funcOp) {
  auto func = cast<func::FuncOp>(funcOp);
  std::vector<llvm::Type *> params;
  for (Type t : func.getArgumentTypes()) {
    llvm::Type *lt = llvmType(t);
    if (!lt || isa<RankedTensorType, mlir::tile::TensorDescType>(t))
      return fail(funcOp, "kernel parameter type is not supported on the GPU");
    params.push_back(lt);
  }
  // Descriptors read by TMA copies get tensor maps in global scratch
  // memory, passed as one more parameter.
  func.walk([&](tgpu::TmaCopyOp copy) {
    if (!tensorMapIndex.count(copy.getDesc())) {
      unsigned index = tensorMapIndex.size();
      tensorMapIndex[copy.getDesc()] = index;
    }
  });
  globalScratchBytes = 128 * tensorMapIndex.size();
  if (globalScratchBytes)
    params.push_back(llvm::PointerType::get(ctx, target.globalAddrSpace()));
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), params, false);
  fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage,
                              func.getName().str(), mod);
  target.markKernel(fn, numWarps * target.warpSize(), maxRegisters);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  b.SetInsertPoint(entry);

  auto *smemTy = llvm::ArrayType::get(b.getInt8Ty(), 0);
  smem_ = new llvm::GlobalVariable(
      mod, smemTy, false, llvm::GlobalValue::ExternalLinkage, nullptr,
      "tritium_smem", nullptr, llvm::GlobalValue::NotThreadLocal,
      target.sharedAddrSpace());
  smem_->setAlignment(llvm::Align(1024));

  placeSharedBuffers(func);

  tid_ = target.threadIdX(b);
  lane_ = b.CreateAnd(tid_, i32(target.warpSize() - 1), "lane");
  // The warp index is uniform in each warp: said so to the assembler, so
  // that what derives from it alone (wgmma descriptors, per-warp shared
  // offsets) can sit in uniform registers. The mask gives LLVM back the
  // range the broadcast hides.
  warp_ = target.warpUniform(
      b, b.CreateLShr(tid_, llvm::Log2_32(target.warpSize())));
  if (llvm::isPowerOf2_32(numWarps))
    warp_ = b.CreateAnd(warp_, i32(numWarps - 1), "warp");

  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    llvm::Argument *a = fn->getArg(i);
    if (auto div = func.getArgAttrOfType<IntegerAttr>(i, "tile.divisibility"))
      if (a->getType()->isPointerTy())
        a->addAttr(llvm::Attribute::getWithAlignment(
            ctx, llvm::Align(div.getInt())));
    // No `noalias`: kernels are often launched with one buffer for two
    // parameters (in-place updates), as Triton allows.
    // An integer the launch guarantees divisible (`i32:16`) says so to
    // LLVM, which folds the checks and index math that depend on it.
    if (auto div = func.getArgAttrOfType<IntegerAttr>(i, "tile.divisibility"))
      if (a->getType()->isIntegerTy() && div.getInt() > 1 &&
          llvm::isPowerOf2_64(uint64_t(div.getInt()))) {
        llvm::Value *low = b.CreateAnd(a, llvm::ConstantInt::get(a->getType(), div.getInt() - 1));
        b.CreateAssumption(b.CreateICmpEQ(low, llvm::ConstantInt::get(a->getType(), 0)));
      }
    set(arg, Lowered{nullptr, {a}});
  }
  if (globalScratchBytes) {
    // Programs take their parts in launch order (x fastest).
    llvm::Value *id = target.programId(b, 2);
    for (int axis = 1; axis >= 0; --axis)
      id = b.CreateAdd(b.CreateMul(id, target.numPrograms(b, axis)), target.programId(b, axis));
    globalScratch = b.CreateGEP(
        b.getInt8Ty(), fn->getArg(fn->arg_size() - 1),
        b.CreateMul(b.CreateZExt(id, b.getInt64Ty()), b.getInt64(globalScratchBytes)));
  }
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  b.CreateRetVoid();
  return success();
}

LogicalResult Lowering::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(&op)))
      return failure();
  Operation *term = block.getTerminator();
  if (term && !isa<func::ReturnOp, scf::YieldOp, scf::ConditionOp>(term) &&
      term->getName().getStringRef() != "tile.reduce.return" &&
      term->getName().getStringRef() != "tile.scan.return" &&
      term->getName().getStringRef() != "tile.map_elementwise.return")
    return emitOp(term);
  if (auto ret = dyn_cast_or_null<func::ReturnOp>(term))
    if (ret.getNumOperands())
      return fail(term, "kernels return nothing");
  return success();
}

LogicalResult Lowering::emitOp(Operation *op) {
  LogicalResult r = emitOpOnly(op);
  if (op == lastBufferOp_) // every copy has landed, every read is done
    buffersLive = false;
  return r;
}

LogicalResult Lowering::emitOpOnly(Operation *op) {
  if (isa<scf::ForOp>(op))
    return emitFor(op);
  if (isa<scf::IfOp>(op))
    return emitIf(op);
  if (isa<scf::WhileOp>(op))
    return emitWhile(op);
  auto it = handlers_.find(op->getName().getStringRef());
  if (it == handlers_.end())
    return fail(op, "this operation is not supported by the GPU code generator yet");
  return it->second(*this, op);
}

FailureOr<std::vector<llvm::Value *>>
Lowering::emitScalarRegion(Region &region, llvm::ArrayRef<llvm::Value *> args) {
  Block &block = region.front();
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    set(arg, Lowered{nullptr, {v}});
  if (failed(emitBlock(block)))
    return failure();
  std::vector<llvm::Value *> out;
  for (Value y : block.getTerminator()->getOperands()) {
    Lowered &l = get(y);
    if (l.layout)
    {
      (void)fail(block.getTerminator(), "combine regions must yield scalars");
      return failure();
    }
    out.push_back(l.regs.front());
  }
  return out;
}

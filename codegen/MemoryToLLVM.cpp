//===- MemoryToLLVM.cpp - global loads, stores and atomics ----------------===//
//
// A thread moves the registers of its pointer layout in groups of `vec`
// consecutive elements: vec is the layout's contiguous run, capped at 128
// bits and at what the axis analysis proves about contiguity, alignment
// and mask constancy. Masked accesses are predicated PTX (`@p ld...`), so
// no lane ever touches a masked-off address; stores and atomics run only in
// the thread that owns an element (replicas skip), and an atomic's old value
// is shared with the replicas through shared memory. A volatile scalar load
// is read by one thread and shared the same way, so scalars stay uniform.
// Shared-memory slots and staged tiles are SharedToLLVM.cpp's.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/MemoryAccess.h"
#include "codegen/Pipeline.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/InlineAsm.h"

using namespace mlir;
using namespace tritium::codegen;
using namespace tritium::codegen::mem;
namespace tile = mlir::tile;

unsigned tritium::codegen::mem::elemBitsOf(llvm::Type *et) {
  return et->isPointerTy() ? 64 : std::max(8u, unsigned(et->getPrimitiveSizeInBits()));
}

unsigned tritium::codegen::mem::vectorWidth(Lowering &L, const LinearLayout &layout,
                                            Value ptr, Value mask, llvm::Type *et,
                                            unsigned dim) {
  unsigned bits = elemBitsOf(et);
  unsigned vec = std::min(layout.contiguousRegs(dim), 128u / bits);
  unsigned hint = L.vectorWidthHint ? L.vectorWidthHint(ptr, mask, dim) : 1;
  vec = std::min(vec, std::max(1u, hint));
  while (vec > 1 && (vec & (vec - 1)))
    vec &= vec - 1;
  return vec;
}

llvm::Type *tritium::codegen::mem::pointeeType(Lowering &L, Value ptr) {
  Type t = ptr.getType();
  if (auto r = dyn_cast<RankedTensorType>(t))
    t = r.getElementType();
  return L.llvmType(cast<tile::PointerType>(t).getPointeeType());
}

std::vector<llvm::Value *> tritium::codegen::mem::regsIn(Lowering &L, Value v,
                                                         const LayoutRef &layout) {
  if (!v)
    return {};
  if (!layout || !isa<RankedTensorType>(v.getType()))
    return std::vector<llvm::Value *>(layout ? layout->numRegs() : 1, L.scalar(v));
  return L.convert(v, *layout);
}

namespace {

std::string cacheSuffix(std::optional<tile::CacheModifier> c, bool load) {
  if (!c)
    return "";
  switch (*c) {
  case tile::CacheModifier::CA: return load ? ".ca" : "";
  case tile::CacheModifier::CG: return ".cg";
  case tile::CacheModifier::CV: return load ? ".cv" : "";
  case tile::CacheModifier::WB: return load ? "" : ".wb";
  case tile::CacheModifier::CS: return ".cs";
  case tile::CacheModifier::WT: return load ? "" : ".wt";
  }
  return "";
}

/// L1 eviction priority; PTX rejects it next to the cache operators that
/// bypass or stream through L1 (.cg, .cv, .cs), where it is dropped.
std::string evictSuffix(std::optional<tile::EvictionPolicy> e,
                        std::optional<tile::CacheModifier> c = std::nullopt) {
  if (!e)
    return "";
  if (c && (*c == tile::CacheModifier::CG || *c == tile::CacheModifier::CV ||
            *c == tile::CacheModifier::CS))
    return "";
  return *e == tile::EvictionPolicy::EvictFirst ? ".L1::evict_first"
                                                 : ".L1::evict_last";
}

/// The memory type of an element (i1 is a byte in memory).
llvm::Type *memElem(Lowering &L, llvm::Type *t) {
  return t->isIntegerTy(1) ? L.b.getInt8Ty() : t;
}

struct Words {
  unsigned bits, count; // PTX register width (8 is carried in 32) and count
  std::string ptxType() const { return bits == 8 ? "u8" : "b" + std::to_string(bits); }
  std::string constraint() const {
    return bits == 64 ? "l" : bits == 16 ? "h" : "r";
  }
  llvm::Type *regType(llvm::LLVMContext &c) const {
    return llvm::IntegerType::get(c, bits == 8 ? 32 : bits);
  }
};

/// The PTX words of `totalBits` of `elemBits`-bit elements: 64-bit
/// elements stay b64 (v2.b64), the rest are carried in b32 words.
Words wordsFor(unsigned totalBits, unsigned elemBits) {
  if (elemBits == 64 || totalBits == 64)
    return Words{64, std::max(1u, totalBits / 64)};
  if (totalBits >= 32)
    return Words{32, totalBits / 32};
  return Words{totalBits, 1};
}

/// `v` as the memory element `et`: bools widened, pointers as integers,
/// other types reinterpreted.
llvm::Value *toMemElem(Lowering &L, llvm::Value *v, llvm::Type *et) {
  llvm::Type *t = v->getType();
  if (t == et)
    return v;
  if (t->isIntegerTy(1))
    return L.b.CreateZExt(v, et);
  if (t->isPointerTy())
    return L.b.CreatePtrToInt(v, et);
  return L.b.CreateBitCast(v, et);
}

/// Pack `vals` (vec elements of type et) into PTX words.
std::vector<llvm::Value *> pack(Lowering &L, llvm::ArrayRef<llvm::Value *> vals,
                                llvm::Type *et, const Words &w) {
  auto &b = L.b;
  unsigned n = vals.size();
  llvm::Value *vec = llvm::UndefValue::get(llvm::FixedVectorType::get(et, n));
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value *v = vals[i];
    if (v->getType()->isIntegerTy(1))
      v = b.CreateZExt(v, et);
    else if (v->getType()->isPointerTy())
      v = b.CreatePtrToInt(v, et);
    vec = b.CreateInsertElement(vec, v, i);
  }
  llvm::Type *wt = llvm::IntegerType::get(L.ctx, w.bits);
  llvm::Value *asWords =
      b.CreateBitCast(vec, llvm::FixedVectorType::get(wt, w.count));
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < w.count; ++i) {
    llvm::Value *x = b.CreateExtractElement(asWords, i);
    if (w.bits == 8)
      x = b.CreateZExt(x, b.getInt32Ty());
    out.push_back(x);
  }
  return out;
}

std::vector<llvm::Value *> unpack(Lowering &L, llvm::ArrayRef<llvm::Value *> words,
                                  llvm::Type *et, llvm::Type *valueTy,
                                  unsigned n, const Words &w) {
  auto &b = L.b;
  llvm::Type *wt = llvm::IntegerType::get(L.ctx, w.bits);
  llvm::Value *wv = llvm::UndefValue::get(llvm::FixedVectorType::get(wt, w.count));
  for (unsigned i = 0; i < w.count; ++i) {
    llvm::Value *x = words[i];
    if (w.bits == 8)
      x = b.CreateTrunc(x, wt);
    wv = b.CreateInsertElement(wv, x, i);
  }
  llvm::Value *vec = b.CreateBitCast(wv, llvm::FixedVectorType::get(et, n));
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value *x = b.CreateExtractElement(vec, i);
    if (valueTy->isIntegerTy(1))
      x = b.CreateICmpNE(x, llvm::ConstantInt::get(et, 0));
    else if (valueTy->isPointerTy())
      x = b.CreateIntToPtr(x, valueTy);
    out.push_back(x);
  }
  return out;
}

/// How a global access of `ptr` (tensor) runs: its pointers' layout (the
/// layout assignment gives a column-major tile, `base + rows + cols *
/// stride`, one with the first dimension fastest), the dimension its
/// vectors run along, and the pointers, mask and other value in it.
struct Access {
  LayoutRef layout;
  unsigned dim = 0;
  std::vector<llvm::Value *> ptrs, mask, other;
};

Access accessOf(Lowering &L, Value ptr, Value mask, Value other, llvm::Type *vt) {
  Access a;
  a.layout = L.get(ptr).layout;
  a.ptrs = L.get(ptr).regs;
  a.mask = regsIn(L, mask, a.layout);
  a.other = regsIn(L, other, a.layout);
  if (!a.layout)
    return a;
  // Vectors run along the dimension that gives the widest ones (the last
  // on ties).
  unsigned rank = a.layout->rank();
  a.dim = rank - 1;
  unsigned best = vectorWidth(L, *a.layout, ptr, mask, vt, a.dim);
  for (unsigned d = 0; d + 1 < rank; ++d) {
    unsigned w = vectorWidth(L, *a.layout, ptr, mask, vt, d);
    if (w > best)
      best = w, a.dim = d;
  }
  return a;
}

/// Targets other than NVIDIA: `emit` (an atomic, a volatile load) under a
/// branch on `pred`; the value is poison where it is off.
llvm::Value *underPredicate(Lowering &L, llvm::Value *pred, llvm::Type *t,
                              const std::function<llvm::Value *()> &emit) {
  auto &b = L.b;
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *from = b.GetInsertBlock();
  auto *then = llvm::BasicBlock::Create(L.ctx, "atom", fn);
  auto *done = llvm::BasicBlock::Create(L.ctx, "atom.done", fn);
  b.CreateCondBr(pred, then, done);
  b.SetInsertPoint(then);
  llvm::Value *v = emit();
  llvm::BasicBlock *end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode *phi = b.CreatePHI(t, 2);
  phi->addIncoming(llvm::PoisonValue::get(t), from);
  phi->addIncoming(v, end);
  return phi;
}

LogicalResult load(Lowering &L, Operation *o) {
  auto op = cast<tile::LoadOp>(o);
  auto &b = L.b;
  llvm::Type *vt = pointeeType(L, op.getPtr());
  Access acc = accessOf(L, op.getPtr(), op.getMask(), op.getOther(), vt);
  LayoutRef layout = acc.layout; // null: a scalar load
  std::vector<llvm::Value *> &ptrs = acc.ptrs, &mask = acc.mask, &other = acc.other;
  llvm::Type *et = memElem(L, vt);
  if (vt->isPointerTy())
    et = b.getInt64Ty();
  unsigned n = ptrs.size();
  unsigned vec =
      layout ? vectorWidth(L, *layout, op.getPtr(), op.getMask(), vt, acc.dim) : 1;
  unsigned elemBits = et->getPrimitiveSizeInBits();
  Words w = wordsFor(vec * elemBits, elemBits);
  std::string cache =
      cacheSuffix(op.getCache(), true) + evictSuffix(op.getEvict(), op.getCache());
  bool plain = mask.empty() && cache.empty() && !op.getIsVolatile();
  std::vector<llvm::Value *> out;
  for (unsigned g = 0; g < n; g += vec) {
    // Registers that replicate lower ones (a vector broadcast along a
    // tile, loaded in the tile's layout) take those registers' values.
    if (layout && layout->isReplicaReg(g)) {
      unsigned m = layout->replicatedMask(LinearLayout::Reg);
      for (unsigned i = 0; i < vec && g + i < n; ++i)
        out.push_back(out[(g + i) & ~m]);
      continue;
    }
    std::vector<llvm::Value *> vals;
    if (plain) {
      llvm::Type *lt = vec == 1 ? et : llvm::FixedVectorType::get(et, vec);
      auto *ld = b.CreateAlignedLoad(lt, ptrs[g], llvm::Align(vec * elemBits / 8));
      for (unsigned i = 0; i < vec; ++i) {
        llvm::Value *x = vec == 1 ? (llvm::Value *)ld : b.CreateExtractElement(ld, i);
        if (vt->isIntegerTy(1))
          x = b.CreateICmpNE(x, llvm::ConstantInt::get(et, 0));
        else if (vt->isPointerTy())
          x = b.CreateIntToPtr(x, vt);
        vals.push_back(x);
      }
    } else if (!L.target.isNvidia()) {
      // LLVM's masked load, the vector's shared mask on every element;
      // `other` (zeros without one) where it is off.
      if (op.getIsVolatile()) {
        // One volatile load per element where the mask holds, `other`
        // (zero) elsewhere.
        for (unsigned i = 0; i < vec; ++i) {
          llvm::Value *m = mask.empty() ? b.getTrue() : mask[g + i];
          llvm::Value *p = vec == 1 ? ptrs[g] : b.CreateConstGEP1_32(et, ptrs[g], i);
          llvm::Value *x = underPredicate(L, m, et, [&] {
            auto *ld = b.CreateAlignedLoad(et, p, llvm::Align(elemBits / 8));
            ld->setVolatile(true);
            return ld;
          });
          llvm::Value *alt = !other.empty() && !mask.empty()
                                 ? toMemElem(L, other[g + i], et)
                                 : llvm::Constant::getNullValue(et);
          x = b.CreateSelect(m, x, alt);
          if (vt->isIntegerTy(1))
            x = b.CreateICmpNE(x, llvm::ConstantInt::get(et, 0));
          else if (vt->isPointerTy())
            x = b.CreateIntToPtr(x, vt);
          vals.push_back(x);
        }
        out.insert(out.end(), vals.begin(), vals.end());
        continue;
      }
      auto *lt = llvm::FixedVectorType::get(et, vec);
      llvm::Value *pass = llvm::Constant::getNullValue(lt);
      if (!other.empty() && !mask.empty())
        for (unsigned i = 0; i < vec; ++i)
          pass = b.CreateInsertElement(pass, toMemElem(L, other[g + i], et), uint64_t(i));
      llvm::Value *m = mask.empty() ? b.getTrue() : mask[g];
      llvm::Value *ld = b.CreateMaskedLoad(lt, ptrs[g], llvm::Align(vec * elemBits / 8),
                                           b.CreateVectorSplat(vec, m), pass);
      for (unsigned i = 0; i < vec; ++i) {
        llvm::Value *x = b.CreateExtractElement(ld, i);
        if (vt->isIntegerTy(1))
          x = b.CreateICmpNE(x, llvm::ConstantInt::get(et, 0));
        else if (vt->isPointerTy())
          x = b.CreateIntToPtr(x, vt);
        vals.push_back(x);
      }
    } else {
      // The destination registers start out holding `other` (zeros without
      // one) and the predicated load overwrites them where the mask holds:
      // no select per element. A vector's elements share their mask (the
      // axis analysis bounds the width by the mask's constancy).
      std::vector<llvm::Value *> init;
      if (!other.empty() && !mask.empty()) {
        init = pack(L, llvm::ArrayRef<llvm::Value *>(other).slice(g, vec), et, w);
      } else {
        for (unsigned i = 0; i < w.count; ++i)
          init.push_back(llvm::ConstantInt::get(w.regType(L.ctx), 0));
      }
      std::string outs, cons;
      for (unsigned i = 0; i < w.count; ++i) {
        outs += (i ? ", $" : "$") + std::to_string(i);
        cons += (i ? ",=" : "=") + w.constraint();
      }
      if (w.count > 1)
        outs = "{" + outs + "}";
      std::string vsuf = w.count > 1 ? ".v" + std::to_string(w.count) : "";
      unsigned pIdx = w.count, aIdx = w.count + 1;
      std::string text = "@$" + std::to_string(pIdx) + " ld" +
                         (op.getIsVolatile() ? ".volatile" : "") + ".global" +
                         cache + vsuf + "." + w.ptxType() + " " + outs + ", [$" +
                         std::to_string(aIdx) + "];";
      cons += ",b,l";
      std::vector<llvm::Type *> argTys = {b.getInt1Ty(), ptrs[g]->getType()};
      for (unsigned i = 0; i < w.count; ++i) {
        cons += "," + std::to_string(i); // tied to output i
        argTys.push_back(w.regType(L.ctx));
      }
      std::vector<llvm::Type *> rts(w.count, w.regType(L.ctx));
      llvm::Type *rt = w.count == 1 ? rts[0] : llvm::StructType::get(L.ctx, rts);
      auto *ia = llvm::InlineAsm::get(
          llvm::FunctionType::get(rt, argTys, false), text, cons,
          // The asm names no memory operand, so without side effects LLVM
          // would take it for a pure function and merge two loads of one
          // address across a store between them.
          /*hasSideEffects=*/true);
      llvm::Value *pred = mask.empty() ? b.getTrue() : mask[g];
      std::vector<llvm::Value *> args = {pred, ptrs[g]};
      args.insert(args.end(), init.begin(), init.end());
      llvm::Value *call = b.CreateCall(ia, args);
      std::vector<llvm::Value *> words;
      for (unsigned i = 0; i < w.count; ++i)
        words.push_back(w.count == 1 ? call : b.CreateExtractValue(call, i));
      vals = unpack(L, words, et, vt, vec, w);
    }
    out.insert(out.end(), vals.begin(), vals.end());
  }
  // Scalars are uniform across the program, but a volatile scalar may be
  // changing under other programs' writes: one thread reads it for all
  // (otherwise branches on it could diverge around barriers).
  if (!layout && op.getIsVolatile())
    out[0] = L.broadcastFromThread0(out[0]);
  L.set(op, Lowered{layout, out});
  return success();
}

LogicalResult store(Lowering &L, Operation *o) {
  auto op = cast<tile::StoreOp>(o);
  auto &b = L.b;
  llvm::Type *vt = pointeeType(L, op.getPtr());
  Access acc = accessOf(L, op.getPtr(), op.getMask(), Value(), vt);
  LayoutRef layout = acc.layout;
  std::vector<llvm::Value *> &ptrs = acc.ptrs, &mask = acc.mask;
  std::vector<llvm::Value *> vals = regsIn(L, op.getValue(), layout);
  llvm::Type *et = vt->isPointerTy() ? b.getInt64Ty() : memElem(L, vt);
  unsigned n = ptrs.size();
  unsigned vec =
      layout ? vectorWidth(L, *layout, op.getPtr(), op.getMask(), vt, acc.dim) : 1;
  Words w = wordsFor(vec * et->getPrimitiveSizeInBits(), et->getPrimitiveSizeInBits());
  std::string cache =
      cacheSuffix(op.getCache(), false) + evictSuffix(op.getEvict(), op.getCache());
  llvm::Value *owner = layout ? L.isOwner(*layout)
                              : b.CreateICmpEQ(L.threadId(), L.i32(0));
  for (unsigned g = 0; g < n; g += vec) {
    if (layout && layout->isReplicaReg(g))
      continue;
    llvm::Value *pred = owner;
    if (!mask.empty())
      pred = b.CreateAnd(pred, mask[g]);
    if (!L.target.isNvidia()) {
      // LLVM's masked store.
      auto *vty = llvm::FixedVectorType::get(et, vec);
      llvm::Value *v = llvm::PoisonValue::get(vty);
      for (unsigned i = 0; i < vec; ++i)
        v = b.CreateInsertElement(v, toMemElem(L, vals[g + i], et), uint64_t(i));
      b.CreateMaskedStore(v, ptrs[g], llvm::Align(vec * et->getPrimitiveSizeInBits() / 8),
                          b.CreateVectorSplat(vec, pred));
      continue;
    }
    std::vector<llvm::Value *> words =
        pack(L, llvm::ArrayRef<llvm::Value *>(vals).slice(g, vec), et, w);
    std::string ins;
    for (unsigned i = 0; i < w.count; ++i)
      ins += (i ? ", $" : "$") + std::to_string(i + 2);
    if (w.count > 1)
      ins = "{" + ins + "}";
    std::string vsuf = w.count > 1 ? ".v" + std::to_string(w.count) : "";
    std::string text = "@$0 st.global" + cache + vsuf + "." + w.ptxType() +
                       " [$1], " + ins + ";";
    std::string cons = "b,l";
    std::vector<llvm::Type *> tys = {b.getInt1Ty(), ptrs[g]->getType()};
    for (unsigned i = 0; i < w.count; ++i) {
      cons += "," + w.constraint();
      tys.push_back(w.regType(L.ctx));
    }
    auto *ia = llvm::InlineAsm::get(
        llvm::FunctionType::get(b.getVoidTy(), tys, false), text, cons, true);
    std::vector<llvm::Value *> args = {pred, ptrs[g]};
    args.insert(args.end(), words.begin(), words.end());
    b.CreateCall(ia, args);
  }
  return success();
}

std::string semScope(tile::MemSemantic sem, tile::MemScope scope) {
  std::string s;
  switch (sem) {
  case tile::MemSemantic::RELAXED: s = ".relaxed"; break;
  case tile::MemSemantic::ACQUIRE: s = ".acquire"; break;
  case tile::MemSemantic::RELEASE: s = ".release"; break;
  case tile::MemSemantic::ACQUIRE_RELEASE: s = ".acq_rel"; break;
  }
  switch (scope) {
  case tile::MemScope::GPU: return s + ".gpu";
  case tile::MemScope::CTA: return s + ".cta";
  case tile::MemScope::SYSTEM: return s + ".sys";
  }
  return s;
}

/// Runs `emit(reg, pred)` for each element's owner and gives every thread
/// the old values: through shared memory when the layout has replicas.
/// `emit(reg, pred)` gives the old values of registers reg .. reg + vec - 1
/// (one access of `vec` consecutive elements).
LogicalResult atomicCommon(
    Lowering &L, Operation *op, Value ptrV, Value maskV, llvm::Type *vt, unsigned vec,
    const std::function<std::vector<llvm::Value *>(unsigned, llvm::Value *)> &emit) {
  auto &b = L.b;
  LayoutRef layout = L.get(ptrV).layout;
  std::vector<llvm::Value *> mask = regsIn(L, maskV, layout);
  unsigned n = L.get(ptrV).regs.size();
  llvm::Value *owner = layout ? L.isOwner(*layout)
                              : b.CreateICmpEQ(L.threadId(), L.i32(0));
  std::vector<llvm::Value *> old(n, nullptr);
  for (unsigned r = 0; r < n; r += vec) {
    if (layout && layout->isReplicaReg(r))
      continue;
    llvm::Value *pred = mask.empty() ? owner : b.CreateAnd(owner, mask[r]);
    std::vector<llvm::Value *> got = emit(r, pred);
    for (unsigned i = 0; i < vec; ++i)
      old[r + i] = got[i];
  }
  bool used = !op->getResult(0).use_empty();
  if (!layout) {
    L.set(op->getResult(0), Lowered{nullptr, {used ? L.broadcastFromThread0(old[0]) : old[0]}});
    return success();
  }
  for (unsigned r = 0; r < n; ++r)
    if (!old[r]) // a replica register: the value of its first copy
      old[r] = old[r & ~layout->replicatedMask(LinearLayout::Reg)];
  Lowered res{layout, old};
  bool replicated = layout->replicatedMask(LinearLayout::Lane) ||
                    layout->replicatedMask(LinearLayout::Warp);
  if (used && replicated) {
    // Owners publish the old values; every thread reads its elements.
    llvm::Type *mt = vt->isIntegerTy(1) ? b.getInt8Ty() : vt;
    L.reserveShared(unsigned(layout->numElements() * L.storeBytes(mt)));
    L.barrier();
    for (unsigned r = 0; r < n; ++r) {
      if (layout->isReplicaReg(r))
        continue;
      llvm::Value *p = L.sharedPtr(mt, L.linearCoord(*layout, r));
      L.guarded(owner, [&] { L.storeShared(old[r], p); }, "atom.publish");
    }
    L.barrier();
    for (unsigned r = 0; r < n; ++r)
      res.regs[r] = L.loadShared(vt, L.sharedPtr(mt, L.linearCoord(*layout, r)));
  }
  L.set(op->getResult(0), std::move(res));
  return success();
}

LogicalResult atomicCommon(
    Lowering &L, Operation *op, Value ptrV, Value maskV, llvm::Type *vt,
    const std::function<llvm::Value *(unsigned, llvm::Value *)> &emit) {
  return atomicCommon(L, op, ptrV, maskV, vt, 1,
                      [&](unsigned r, llvm::Value *pred) -> std::vector<llvm::Value *> {
                        return {emit(r, pred)};
                      });
}

std::string regConstraint(llvm::Type *t) {
  if (t->isFloatTy()) return "f";
  if (t->isDoubleTy()) return "d";
  if (t->getPrimitiveSizeInBits() == 16) return "h";
  return t->getPrimitiveSizeInBits() == 64 ? "l" : "r";
}

llvm::AtomicOrdering ordering(tile::MemSemantic sem) {
  switch (sem) {
  case tile::MemSemantic::RELAXED: return llvm::AtomicOrdering::Monotonic;
  case tile::MemSemantic::ACQUIRE: return llvm::AtomicOrdering::Acquire;
  case tile::MemSemantic::RELEASE: return llvm::AtomicOrdering::Release;
  case tile::MemSemantic::ACQUIRE_RELEASE: return llvm::AtomicOrdering::AcquireRelease;
  }
  return llvm::AtomicOrdering::SequentiallyConsistent;
}

llvm::SyncScope::ID syncScope(Lowering &L, tile::MemScope scope) {
  if (L.target.isNvidia())
    switch (scope) {
    case tile::MemScope::GPU: return L.ctx.getOrInsertSyncScopeID("device");
    case tile::MemScope::CTA: return L.ctx.getOrInsertSyncScopeID("block");
    case tile::MemScope::SYSTEM: return llvm::SyncScope::System;
    }
  switch (scope) {
  case tile::MemScope::GPU: return L.ctx.getOrInsertSyncScopeID("agent");
  case tile::MemScope::CTA: return L.ctx.getOrInsertSyncScopeID("workgroup");
  case tile::MemScope::SYSTEM: return llvm::SyncScope::System;
  }
  return llvm::SyncScope::System;
}

LogicalResult atomicRmw(Lowering &L, Operation *o) {
  auto op = cast<tile::AtomicRMWOp>(o);
  auto &b = L.b;
  llvm::Type *vt = pointeeType(L, op.getPtr());
  unsigned bits = vt->getPrimitiveSizeInBits();
  bool isFloat = vt->isFloatingPointTy();
  // PTX adds bf16 atomically from sm_90 on; before, LLVM's NVPTX back end
  // expands the add into a compare-and-swap loop.
  bool bf16AddBeforeHopper = L.target.isNvidia() && vt->isBFloatTy() &&
                             op.getAtomicRmwOp() == tile::RMWOp::FADD &&
                             parseCudaTarget(L.target.name()) < 90;
  if (!L.target.isNvidia() || bf16AddBeforeHopper) {
    using K = llvm::AtomicRMWInst::BinOp;
    K kind = K::Add;
    switch (op.getAtomicRmwOp()) {
    case tile::RMWOp::AND: kind = K::And; break;
    case tile::RMWOp::OR: kind = K::Or; break;
    case tile::RMWOp::XOR: kind = K::Xor; break;
    case tile::RMWOp::ADD: kind = K::Add; break;
    case tile::RMWOp::FADD: kind = K::FAdd; break;
    case tile::RMWOp::MAX: kind = K::Max; break;
    case tile::RMWOp::MIN: kind = K::Min; break;
    case tile::RMWOp::UMAX: kind = K::UMax; break;
    case tile::RMWOp::UMIN: kind = K::UMin; break;
    case tile::RMWOp::XCHG: kind = K::Xchg; break;
    }
    if ((bits != 32 && bits != 64 && !(isFloat && bits == 16)) || vt->isPointerTy())
      return L.fail(o, "atomics on this element type are not supported on the GPU yet");
    LayoutRef layout = L.get(op.getPtr()).layout;
    std::vector<llvm::Value *> ptrs = L.get(op.getPtr()).regs;
    std::vector<llvm::Value *> vals = regsIn(L, op.getVal(), layout);
    return atomicCommon(L, o, op.getPtr(), op.getMask(), vt,
                        [&](unsigned r, llvm::Value *pred) -> llvm::Value * {
                          return underPredicate(L, pred, vt, [&] {
                            return b.CreateAtomicRMW(kind, ptrs[r], vals[r],
                                                     llvm::Align(bits / 8),
                                                     ordering(op.getSem()),
                                                     syncScope(L, op.getScope()));
                          });
                        });
  }
  std::string t, opName;
  switch (op.getAtomicRmwOp()) {
  case tile::RMWOp::AND: opName = "and"; t = "b"; break;
  case tile::RMWOp::OR: opName = "or"; t = "b"; break;
  case tile::RMWOp::XOR: opName = "xor"; t = "b"; break;
  case tile::RMWOp::ADD: opName = "add"; t = "u"; break;
  case tile::RMWOp::FADD: opName = bits == 16 ? "add.noftz" : "add"; t = vt->isBFloatTy() ? "bf" : "f"; break;
  case tile::RMWOp::MAX: opName = "max"; t = "s"; break;
  case tile::RMWOp::MIN: opName = "min"; t = "s"; break;
  case tile::RMWOp::UMAX: opName = "max"; t = "u"; break;
  case tile::RMWOp::UMIN: opName = "min"; t = "u"; break;
  case tile::RMWOp::XCHG: opName = "exch"; t = "b"; break;
  }
  if ((bits != 32 && bits != 64 && !(isFloat && bits == 16)) || vt->isPointerTy())
    return L.fail(o, "atomics on this element type are not supported on the GPU yet");
  std::string type = t + std::to_string(bits);
  LayoutRef layout = L.get(op.getPtr()).layout;
  std::vector<llvm::Value *> ptrs = L.get(op.getPtr()).regs;
  std::vector<llvm::Value *> vals = regsIn(L, op.getVal(), layout);
  std::string c = regConstraint(vt);
  llvm::Type *regTy = bits == 16 ? (llvm::Type *)b.getInt16Ty() : vt;
  // sm_90 adds f32 vectors of 2 or 4 and f16/bf16 vectors of 2, 4 or 8
  // in one atom (each element atomically on its own): as many consecutive
  // elements as the layout holds and the pointers' alignment allows.
  unsigned vec = 1;
  if (layout && op.getAtomicRmwOp() == tile::RMWOp::FADD &&
      parseCudaTarget(L.target.name()) >= 90 &&
      (vt->isFloatTy() || vt->isHalfTy() || vt->isBFloatTy())) {
    Access acc = accessOf(L, op.getPtr(), op.getMask(), Value(), vt);
    vec = vectorWidth(L, *layout, op.getPtr(), op.getMask(), vt, acc.dim);
    if (vec < 2)
      vec = 1;
  }
  if (vec > 1) {
    std::string outs, ins;
    for (unsigned i = 0; i < vec; ++i) {
      outs += (i ? ", $" : "$") + std::to_string(i);
      ins += (i ? ", $" : "$") + std::to_string(vec + 1 + i);
    }
    std::string text = "@$" + std::to_string(2 * vec + 1) + " atom" +
                       semScope(op.getSem(), op.getScope()) + ".global." + opName + ".v" +
                       std::to_string(vec) + "." + type + " {" + outs + "}, [$" +
                       std::to_string(vec) + "], {" + ins + "};";
    std::string cons;
    for (unsigned i = 0; i < vec; ++i)
      cons += "=" + c + ",";
    cons += "l";
    for (unsigned i = 0; i < vec; ++i)
      cons += "," + c;
    cons += ",b";
    std::vector<llvm::Type *> argTys = {ptrs[0]->getType()};
    argTys.insert(argTys.end(), vec, regTy);
    argTys.push_back(b.getInt1Ty());
    auto *st = llvm::StructType::get(L.ctx, std::vector<llvm::Type *>(vec, regTy));
    auto *ia = llvm::InlineAsm::get(llvm::FunctionType::get(st, argTys, false), text, cons,
                                    true);
    return atomicCommon(L, o, op.getPtr(), op.getMask(), vt, vec,
                        [&](unsigned r, llvm::Value *pred) {
                          std::vector<llvm::Value *> args = {ptrs[r]};
                          for (unsigned i = 0; i < vec; ++i)
                            args.push_back(bits == 16 ? b.CreateBitCast(vals[r + i], regTy)
                                                      : vals[r + i]);
                          args.push_back(pred);
                          llvm::Value *res = b.CreateCall(ia, args);
                          std::vector<llvm::Value *> out;
                          for (unsigned i = 0; i < vec; ++i) {
                            llvm::Value *x = b.CreateExtractValue(res, i);
                            out.push_back(bits == 16 ? b.CreateBitCast(x, vt) : x);
                          }
                          return out;
                        });
  }
  std::string text = "@$3 atom" + semScope(op.getSem(), op.getScope()) +
                     ".global." + opName + "." + type + " $0, [$1], $2;";
  auto *ia = llvm::InlineAsm::get(
      llvm::FunctionType::get(regTy, {ptrs[0]->getType(), regTy, b.getInt1Ty()}, false),
      text, "=" + c + ",l," + c + ",b", true);
  return atomicCommon(L, o, op.getPtr(), op.getMask(), vt,
                      [&](unsigned r, llvm::Value *pred) -> llvm::Value * {
                        llvm::Value *v = vals[r];
                        if (bits == 16)
                          v = b.CreateBitCast(v, regTy);
                        llvm::Value *res = b.CreateCall(ia, {ptrs[r], v, pred});
                        return bits == 16 ? b.CreateBitCast(res, vt) : res;
                      });
}

LogicalResult atomicCas(Lowering &L, Operation *o) {
  auto op = cast<tile::AtomicCASOp>(o);
  auto &b = L.b;
  llvm::Type *vt = pointeeType(L, op.getPtr());
  unsigned bits = vt->getPrimitiveSizeInBits();
  if ((bits != 32 && bits != 64 && bits != 16) || vt->isPointerTy())
    return L.fail(o, "atomic_cas on this element type is not supported on the GPU yet");
  LayoutRef layout = L.get(op.getPtr()).layout;
  std::vector<llvm::Value *> ptrs = L.get(op.getPtr()).regs;
  std::vector<llvm::Value *> cmp = regsIn(L, op.getCmp(), layout);
  std::vector<llvm::Value *> val = regsIn(L, op.getVal(), layout);
  llvm::Type *it = llvm::IntegerType::get(L.ctx, bits);
  if (!L.target.isNvidia()) {
    llvm::AtomicOrdering success = ordering(op.getSem());
    llvm::AtomicOrdering failure =
        success == llvm::AtomicOrdering::AcquireRelease ? llvm::AtomicOrdering::Acquire
        : success == llvm::AtomicOrdering::Release      ? llvm::AtomicOrdering::Monotonic
                                                        : success;
    return atomicCommon(L, o, op.getPtr(), Value(), vt,
                        [&](unsigned r, llvm::Value *pred) -> llvm::Value * {
                          llvm::Value *res = underPredicate(L, pred, it, [&] {
                            llvm::Value *x = b.CreateAtomicCmpXchg(
                                ptrs[r], b.CreateBitCast(cmp[r], it),
                                b.CreateBitCast(val[r], it), llvm::Align(bits / 8), success,
                                failure, syncScope(L, op.getScope()));
                            return b.CreateExtractValue(x, 0);
                          });
                          return b.CreateBitCast(res, vt);
                        });
  }
  std::string c = bits == 64 ? "l" : bits == 16 ? "h" : "r";
  std::string text = "@$4 atom" + semScope(op.getSem(), op.getScope()) +
                     ".global.cas.b" + std::to_string(bits) + " $0, [$1], $2, $3;";
  auto *ia = llvm::InlineAsm::get(
      llvm::FunctionType::get(it, {ptrs[0]->getType(), it, it, b.getInt1Ty()}, false),
      text, "=" + c + ",l," + c + "," + c + ",b", true);
  return atomicCommon(L, o, op.getPtr(), Value(), vt,
                      [&](unsigned r, llvm::Value *pred) -> llvm::Value * {
                        llvm::Value *res = b.CreateCall(
                            ia, {ptrs[r], b.CreateBitCast(cmp[r], it),
                                 b.CreateBitCast(val[r], it), pred});
                        return b.CreateBitCast(res, vt);
                      });
}

} // namespace

void tritium::codegen::populateMemoryHandlers(HandlerTable &t) {
  t["tile.load"] = load;
  t["tile.store"] = store;
  t["tile.atomic_rmw"] = atomicRmw;
  t["tile.atomic_cas"] = atomicCas;
}

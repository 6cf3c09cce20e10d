//===- DescriptorToLLVM.cpp - tensor descriptors on the GPU ---------------===//
//
// Tensor descriptors as plain global memory traffic (blocks that feed
// products on sm_90 are copied by TMA instead: the pipeliner makes them
// tgpu.tma_copy ops, and a descriptor they read also gets a tensor map,
// nvidia/TmaToLLVM.cpp; so do block stores on sm_90 where the block has a
// swizzled shared layout). A descriptor is one LLVM struct value
// {base, shape (i32) x rank, strides (i64) x rank, NaN padding (i1)} (see
// Lowering::llvmType); block accesses are plain global memory traffic in
// the default layout of the block.
//
// The element at coordinates c (per dimension: the access's index plus the
// element's position in the block, both signed) is inside the tensor when
// 0 <= c < shape in every dimension; its address is base + sum(c * stride)
// elements. Outside elements are never touched: loads read the padding
// (zero, or NaN for floats of a NaN-padded descriptor), stores, reductions
// and scatters skip them. Accesses are predicated PTX (on AMD LLVM's masked
// loads and stores, and atomicrmw), so no lane touches a masked-off
// address, and only the owner of an element writes it.
//
// Loads and stores move a thread's run of consecutive elements along the
// last dimension as one vector (up to 128 bits) when a runtime check
// passes: the whole run inside the tensor, the last stride 1 and the
// address aligned. The block's offsets and the strides are runtime values,
// so this cannot be proven at compile time; runs failing the check move
// element by element. Reductions always go element by element.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// The fields of a descriptor value.
struct Desc {
  llvm::Value *base;
  std::vector<llvm::Value *> shape;   // i64, sign-extended from i32
  std::vector<llvm::Value *> strides; // i64, in elements
  llvm::Value *padNan;                // i1
};

Desc unpackDesc(Lowering &L, Value v) {
  auto &b = L.b;
  unsigned rank =
      cast<tile::TensorDescType>(v.getType()).getBlockType().getRank();
  llvm::Value *s = L.scalar(v);
  Desc d;
  d.base = b.CreateExtractValue(s, 0);
  for (unsigned k = 0; k < rank; ++k) {
    d.shape.push_back(
        b.CreateSExt(b.CreateExtractValue(s, 1 + k), b.getInt64Ty()));
    d.strides.push_back(b.CreateExtractValue(s, 1 + rank + k));
  }
  d.padNan = b.CreateExtractValue(s, 1 + 2 * rank);
  return d;
}

/// How an element moves: its value type, and the integer type of its bits
/// in memory (i1 is a byte; fp8 formats already travel as i8).
struct Elem {
  mlir::Type type;
  llvm::Type *valueTy;
  llvm::IntegerType *bitsTy;
  unsigned bits() const { return bitsTy->getBitWidth(); }
};

Elem elemOf(Lowering &L, mlir::Type t) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    t = rt.getElementType();
  llvm::Type *vt = L.llvmType(t);
  unsigned bits = vt->isPointerTy()    ? 64
                  : vt->isIntegerTy(1) ? 8
                                       : unsigned(vt->getPrimitiveSizeInBits());
  return {t, vt, llvm::IntegerType::get(L.ctx, bits)};
}

llvm::Value *toBits(Lowering &L, const Elem &e, llvm::Value *v) {
  if (v->getType()->isIntegerTy(1))
    return L.b.CreateZExt(v, e.bitsTy);
  if (v->getType()->isPointerTy())
    return L.b.CreatePtrToInt(v, e.bitsTy);
  return L.b.CreateBitCast(v, e.bitsTy);
}

llvm::Value *fromBits(Lowering &L, const Elem &e, llvm::Value *x) {
  if (e.valueTy->isIntegerTy(1))
    return L.b.CreateICmpNE(x, llvm::ConstantInt::get(e.bitsTy, 0));
  if (e.valueTy->isPointerTy())
    return L.b.CreateIntToPtr(x, e.valueTy);
  return L.b.CreateBitCast(x, e.valueTy);
}

/// The bits an out-of-bounds element reads: the interpreter's NaN of each
/// float format when the descriptor pads with NaN, zero otherwise.
llvm::Value *padBits(Lowering &L, const Elem &e, llvm::Value *padNan) {
  mlir::Type t = e.type;
  uint64_t nan = 0;
  if (t.isF16())
    nan = 0x7e00;
  else if (t.isBF16())
    nan = 0x7fc0;
  else if (t.isF32())
    nan = 0x7fc00000;
  else if (t.isF64())
    nan = 0x7ff8000000000000ull;
  else if (isa<Float8E4M3FNType, Float8E5M2Type>(t))
    nan = 0x7f;
  else if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
    nan = 0x80;
  else if (isa<Float8E4M3B11FNUZType>(t))
    nan = 0x7e; // no NaN: NaN converts to the saturated 1.75
  llvm::Constant *zero = llvm::ConstantInt::get(e.bitsTy, 0);
  if (!nan)
    return zero;
  return L.b.CreateSelect(padNan, llvm::ConstantInt::get(e.bitsTy, nan), zero);
}

/// PTX spelling of an element-sized access: type suffix, register
/// constraint and register type (bytes ride in 32-bit registers).
struct PtxWord {
  std::string type, constraint;
  llvm::Type *regTy;
};

PtxWord ptxWord(Lowering &L, unsigned bits) {
  switch (bits) {
  case 8:
    return {"u8", "r", L.b.getInt32Ty()};
  case 16:
    return {"b16", "h", L.b.getInt16Ty()};
  case 32:
    return {"b32", "r", L.b.getInt32Ty()};
  default:
    return {"b64", "l", L.b.getInt64Ty()};
  }
}

/// Whether the element at i64 coordinates `c` lies inside the tensor, and
/// its address.
std::pair<llvm::Value *, llvm::Value *>
locate(Lowering &L, const Desc &d, const Elem &e,
       llvm::ArrayRef<llvm::Value *> c) {
  auto &b = L.b;
  llvm::Value *in = nullptr, *off = nullptr;
  llvm::Value *zero = b.getInt64(0);
  for (unsigned k = 0; k < c.size(); ++k) {
    llvm::Value *ok = b.CreateAnd(b.CreateICmpSGE(c[k], zero),
                                  b.CreateICmpSLT(c[k], d.shape[k]));
    in = in ? b.CreateAnd(in, ok) : ok;
    llvm::Value *term = b.CreateMul(c[k], d.strides[k]);
    off = off ? b.CreateAdd(off, term) : term;
  }
  // No inbounds: out-of-bounds lanes compute addresses they never use.
  return {in, b.CreateGEP(e.bitsTy, d.base, off)};
}

/// Other targets: `n` elements of type `t` at `ptr`, read where `pred`
/// holds (zero elsewhere) by LLVM's masked load, which touches no memory
/// when the mask is off; aligned to the whole vector, as vectorOk checks.
std::vector<llvm::Value *> maskedLoad(Lowering &L, llvm::Type *t, unsigned n,
                                      llvm::Value *pred, llvm::Value *ptr) {
  auto &b = L.b;
  auto *vt = llvm::FixedVectorType::get(t, n);
  llvm::Value *v = b.CreateMaskedLoad(vt, ptr, llvm::Align(n * t->getPrimitiveSizeInBits() / 8),
                                      b.CreateVectorSplat(n, pred),
                                      llvm::Constant::getNullValue(vt));
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < n; ++i)
    out.push_back(b.CreateExtractElement(v, uint64_t(i)));
  return out;
}

/// Other targets: `bits` (elements of one type) to `ptr` where `pred`
/// holds, by LLVM's masked store.
void maskedStore(Lowering &L, llvm::ArrayRef<llvm::Value *> bits, llvm::Value *pred,
                 llvm::Value *ptr) {
  auto &b = L.b;
  llvm::Type *t = bits[0]->getType();
  auto *vt = llvm::FixedVectorType::get(t, bits.size());
  llvm::Value *v = llvm::PoisonValue::get(vt);
  for (unsigned i = 0; i < bits.size(); ++i)
    v = b.CreateInsertElement(v, bits[i], uint64_t(i));
  b.CreateMaskedStore(v, ptr, llvm::Align(bits.size() * t->getPrimitiveSizeInBits() / 8),
                      b.CreateVectorSplat(bits.size(), pred));
}

/// Reads the element at `ptr` where `pred` holds (its bits; undefined
/// elsewhere).
llvm::Value *predicatedLoad(Lowering &L, const Elem &e, llvm::Value *pred,
                            llvm::Value *ptr) {
  auto &b = L.b;
  if (!L.target.isNvidia())
    return maskedLoad(L, e.bitsTy, 1, pred, ptr).front();
  PtxWord w = ptxWord(L, e.bits());
  // Side effects keep the load ordered with the kernel's other memory
  // accesses (the asm names no memory operand).
  auto *ia = llvm::InlineAsm::get(
      llvm::FunctionType::get(w.regTy, {b.getInt1Ty(), ptr->getType()}, false),
      "@$1 ld.global." + w.type + " $0, [$2];", "=" + w.constraint + ",b,l",
      /*hasSideEffects=*/true);
  llvm::Value *x = b.CreateCall(ia, {pred, ptr});
  return x->getType() == e.bitsTy ? x : b.CreateTrunc(x, e.bitsTy);
}

void predicatedStore(Lowering &L, const Elem &e, llvm::Value *pred,
                     llvm::Value *ptr, llvm::Value *bits) {
  auto &b = L.b;
  if (!L.target.isNvidia()) {
    maskedStore(L, {bits}, pred, ptr);
    return;
  }
  PtxWord w = ptxWord(L, e.bits());
  if (bits->getType() != w.regTy)
    bits = b.CreateZExt(bits, w.regTy);
  auto *ia = llvm::InlineAsm::get(
      llvm::FunctionType::get(b.getVoidTy(),
                              {b.getInt1Ty(), ptr->getType(), w.regTy}, false),
      "@$0 st.global." + w.type + " [$1], $2;", "b,l," + w.constraint,
      /*hasSideEffects=*/true);
  b.CreateCall(ia, {pred, ptr, bits});
}

/// Elements per vector access: the layout's run along the last dimension,
/// capped at 128 bits; 1 below 32 bits (not worth the check).
unsigned vectorWidth(const LinearLayout &l, const Elem &e) {
  unsigned vec = std::min(l.contiguousRegs(l.rank() - 1), 128u / e.bits());
  while (vec & (vec - 1))
    vec &= vec - 1;
  return vec * e.bits() >= 32 ? vec : 1;
}

/// Whether a run of elements (inside the tensor where `in` holds) starting
/// at `ptr` may move as one vector of `bytes`.
llvm::Value *vectorOk(Lowering &L, const Desc &d,
                      llvm::ArrayRef<llvm::Value *> in, llvm::Value *ptr,
                      unsigned bytes) {
  auto &b = L.b;
  llvm::Value *ok = b.CreateICmpEQ(d.strides.back(), b.getInt64(1));
  for (llvm::Value *x : in)
    ok = b.CreateAnd(ok, x);
  llvm::Value *low =
      b.CreateAnd(b.CreatePtrToInt(ptr, b.getInt64Ty()), bytes - 1);
  return b.CreateAnd(ok, b.CreateICmpEQ(low, b.getInt64(0)));
}

/// PTX words of a `totalBits` vector: 64 bits as one b64, otherwise b32s.
std::pair<unsigned, unsigned> vectorWords(unsigned totalBits) {
  return totalBits == 64 ? std::make_pair(64u, 1u)
                         : std::make_pair(32u, totalBits / 32);
}

/// Reads `vec` elements at `ptr` where `pred` holds; returns their bits.
std::vector<llvm::Value *> predicatedVectorLoad(Lowering &L, const Elem &e,
                                                unsigned vec, llvm::Value *pred,
                                                llvm::Value *ptr) {
  auto &b = L.b;
  if (!L.target.isNvidia())
    return maskedLoad(L, e.bitsTy, vec, pred, ptr);
  auto [wbits, count] = vectorWords(vec * e.bits());
  llvm::Type *wt = b.getIntNTy(wbits);
  std::string c = wbits == 64 ? "l" : "r";
  std::string outs, cons;
  for (unsigned i = 0; i < count; ++i) {
    outs += (i ? ", $" : "$") + std::to_string(i);
    cons += (i ? ",=" : "=") + c;
  }
  if (count > 1)
    outs = "{" + outs + "}";
  std::string vsuf = count > 1 ? ".v" + std::to_string(count) : "";
  std::string text = "@$" + std::to_string(count) + " ld.global" + vsuf + ".b" +
                     std::to_string(wbits) + " " + outs + ", [$" +
                     std::to_string(count + 1) + "];";
  std::vector<llvm::Type *> rts(count, wt);
  llvm::Type *rt = count == 1 ? wt : llvm::StructType::get(L.ctx, rts);
  auto *ia = llvm::InlineAsm::get(
      llvm::FunctionType::get(rt, {b.getInt1Ty(), ptr->getType()}, false), text,
      cons + ",b,l", /*hasSideEffects=*/true);
  llvm::Value *call = b.CreateCall(ia, {pred, ptr});
  llvm::Value *words =
      llvm::UndefValue::get(llvm::FixedVectorType::get(wt, count));
  for (unsigned i = 0; i < count; ++i)
    words = b.CreateInsertElement(
        words, count == 1 ? call : b.CreateExtractValue(call, i), i);
  llvm::Value *elems =
      b.CreateBitCast(words, llvm::FixedVectorType::get(e.bitsTy, vec));
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < vec; ++i)
    out.push_back(b.CreateExtractElement(elems, i));
  return out;
}

void predicatedVectorStore(Lowering &L, const Elem &e, llvm::Value *pred,
                           llvm::Value *ptr,
                           llvm::ArrayRef<llvm::Value *> bits) {
  auto &b = L.b;
  if (!L.target.isNvidia()) {
    maskedStore(L, bits, pred, ptr);
    return;
  }
  unsigned vec = bits.size();
  auto [wbits, count] = vectorWords(vec * e.bits());
  llvm::Type *wt = b.getIntNTy(wbits);
  llvm::Value *elems =
      llvm::UndefValue::get(llvm::FixedVectorType::get(e.bitsTy, vec));
  for (unsigned i = 0; i < vec; ++i)
    elems = b.CreateInsertElement(elems, bits[i], i);
  llvm::Value *words =
      b.CreateBitCast(elems, llvm::FixedVectorType::get(wt, count));
  std::string ins, cons = "b,l";
  std::vector<llvm::Type *> tys = {b.getInt1Ty(), ptr->getType()};
  std::vector<llvm::Value *> args = {pred, ptr};
  for (unsigned i = 0; i < count; ++i) {
    ins += (i ? ", $" : "$") + std::to_string(i + 2);
    cons += wbits == 64 ? ",l" : ",r";
    tys.push_back(wt);
    args.push_back(b.CreateExtractElement(words, i));
  }
  if (count > 1)
    ins = "{" + ins + "}";
  std::string vsuf = count > 1 ? ".v" + std::to_string(count) : "";
  auto *ia =
      llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), tys, false),
                           "@$0 st.global" + vsuf + ".b" +
                               std::to_string(wbits) + " [$1], " + ins + ";",
                           cons, /*hasSideEffects=*/true);
  b.CreateCall(ia, args);
}

/// The 1-D layout of the row offsets of a gather/scatter whose data is in
/// `data` ([rows, cols]): register r holds the row of data's register r.
LinearLayout rowsLayout(const LinearLayout &data) {
  std::vector<Coord> bases[3];
  for (int k = 0; k < 3; ++k)
    for (Coord c : data.bases(LinearLayout::InDim(k))) {
      c.resize(1);
      bases[k].push_back(c);
    }
  return LinearLayout({data.shape()[0]}, bases[0], bases[1], bases[2]);
}

/// Per register of `layout`: the coordinates of its element in the tensor.
using CoordsFn = std::function<std::vector<llvm::Value *>(unsigned reg)>;

/// Block coordinates: the access's indices plus the element's position.
CoordsFn blockCoords(Lowering &L, const LinearLayout &layout,
                     std::vector<llvm::Value *> indices) {
  return [&L, &layout, indices](unsigned r) {
    std::vector<llvm::Value *> c;
    for (unsigned k = 0; k < indices.size(); ++k)
      c.push_back(L.b.CreateAdd(
          L.b.CreateSExt(indices[k], L.b.getInt64Ty()),
          L.b.CreateZExt(L.coord(layout, r, k), L.b.getInt64Ty())));
    return c;
  };
}

/// Row-gather coordinates: (x_offsets[row], y_offset + column).
CoordsFn rowCoords(Lowering &L, const LinearLayout &layout,
                   std::vector<llvm::Value *> rows, llvm::Value *y) {
  return [&L, &layout, rows, y](unsigned r) {
    auto &b = L.b;
    return std::vector<llvm::Value *>{
        b.CreateSExt(rows[r], b.getInt64Ty()),
        b.CreateAdd(b.CreateSExt(y, b.getInt64Ty()),
                    b.CreateZExt(L.coord(layout, r, 1), b.getInt64Ty()))};
  };
}

/// Loads every element of `layout` (padding outside the tensor) as the
/// result of `op`.
void emitLoad(Lowering &L, Operation *op, Value descV, LayoutRef layout,
              const CoordsFn &coords) {
  auto &b = L.b;
  Desc d = unpackDesc(L, descV);
  Elem e = elemOf(L, op->getResult(0).getType());
  llvm::Value *pad = padBits(L, e, d.padNan);
  unsigned n = layout->numRegs();
  unsigned vec = vectorWidth(*layout, e);
  unsigned regRepl = layout->replicatedMask(LinearLayout::Reg);
  std::vector<llvm::Value *> out(n, nullptr);
  for (unsigned g = 0; g < n; g += vec) {
    // Replicated register bits lie above a contiguous run: a run is all
    // replicas or none.
    if (layout->isReplicaReg(g))
      continue;
    std::vector<llvm::Value *> in, ptrs;
    for (unsigned i = 0; i < vec; ++i) {
      auto [x, p] = locate(L, d, e, coords(g + i));
      in.push_back(x);
      ptrs.push_back(p);
    }
    llvm::Value *ok = nullptr;
    std::vector<llvm::Value *> wide;
    if (vec > 1) {
      ok = vectorOk(L, d, in, ptrs[0], vec * e.bits() / 8);
      wide = predicatedVectorLoad(L, e, vec, ok, ptrs[0]);
    }
    for (unsigned i = 0; i < vec; ++i) {
      llvm::Value *pred = ok ? b.CreateAnd(in[i], b.CreateNot(ok)) : in[i];
      llvm::Value *x =
          b.CreateSelect(in[i], predicatedLoad(L, e, pred, ptrs[i]), pad);
      if (ok)
        x = b.CreateSelect(ok, wide[i], x);
      out[g + i] = fromBits(L, e, x);
    }
  }
  for (unsigned r = 0; r < n; ++r)
    if (!out[r]) // a replica register: the value of its first copy
      out[r] = out[r & ~regRepl];
  L.set(op->getResult(0), Lowered{layout, out});
}

/// Runs `emit(reg, pred, ptr)` for each element of `layout` its owner holds,
/// with `pred` true inside the tensor.
void forOwnedElements(
    Lowering &L, const Desc &d, const Elem &e, const LinearLayout &layout,
    const CoordsFn &coords,
    const std::function<void(unsigned, llvm::Value *, llvm::Value *)> &emit) {
  llvm::Value *owner = L.isOwner(layout);
  for (unsigned r = 0; r < layout.numRegs(); ++r) {
    if (layout.isReplicaReg(r))
      continue;
    auto [in, ptr] = locate(L, d, e, coords(r));
    emit(r, L.b.CreateAnd(owner, in), ptr);
  }
}

void emitStore(Lowering &L, Value descV, Value src, const LayoutRef &layout,
               const CoordsFn &coords) {
  auto &b = L.b;
  Desc d = unpackDesc(L, descV);
  Elem e = elemOf(L, src.getType());
  std::vector<llvm::Value *> vals = L.convert(src, *layout);
  unsigned vec = vectorWidth(*layout, e);
  llvm::Value *owner = L.isOwner(*layout);
  for (unsigned g = 0; g < layout->numRegs(); g += vec) {
    if (layout->isReplicaReg(g))
      continue;
    std::vector<llvm::Value *> in, ptrs, bits;
    for (unsigned i = 0; i < vec; ++i) {
      auto [x, p] = locate(L, d, e, coords(g + i));
      in.push_back(x);
      ptrs.push_back(p);
      bits.push_back(toBits(L, e, vals[g + i]));
    }
    llvm::Value *ok = nullptr;
    if (vec > 1) {
      ok = vectorOk(L, d, in, ptrs[0], vec * e.bits() / 8);
      predicatedVectorStore(L, e, b.CreateAnd(owner, ok), ptrs[0], bits);
    }
    for (unsigned i = 0; i < vec; ++i) {
      llvm::Value *pred = b.CreateAnd(owner, in[i]);
      if (ok)
        pred = b.CreateAnd(pred, b.CreateNot(ok));
      predicatedStore(L, e, pred, ptrs[i], bits[i]);
    }
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult makeDesc(Lowering &L, Operation *o) {
  auto op = cast<tile::MakeTensorDescOp>(o);
  auto &b = L.b;
  llvm::Value *d = llvm::PoisonValue::get(L.llvmType(op.getType()));
  unsigned field = 0;
  d = b.CreateInsertValue(d, L.scalar(op.getBase()), field++);
  for (Value v : op.getShape())
    d = b.CreateInsertValue(d, L.scalar(v), field++);
  for (Value v : op.getStrides())
    d = b.CreateInsertValue(d, L.scalar(v), field++);
  d = b.CreateInsertValue(
      d, b.getInt1(op.getPadding() == tile::PaddingOption::PAD_NAN), field);
  L.set(op.getResult(), Lowered{nullptr, {d}});
  if (L.tensorMapIndex.count(op.getResult()))
    return emitTensorMap(L, op);
  return success();
}

std::vector<llvm::Value *> scalars(Lowering &L, ValueRange vs) {
  std::vector<llvm::Value *> out;
  for (Value v : vs)
    out.push_back(L.scalar(v));
  return out;
}

LogicalResult descLoad(Lowering &L, Operation *o) {
  auto op = cast<tile::DescriptorLoadOp>(o);
  LayoutRef layout = L.defaultLayout(op.getType());
  emitLoad(L, o, op.getDesc(), layout,
           blockCoords(L, *layout, scalars(L, op.getIndices())));
  return success();
}

LogicalResult descStore(Lowering &L, Operation *o) {
  auto op = cast<tile::DescriptorStoreOp>(o);
  if (L.tensorMaps.count(op.getDesc()) &&
      descriptorStoreUsesTma(op, parseCudaTarget(L.target.name())))
    return emitTmaStore(L, op);
  LayoutRef layout = L.defaultLayout(op.getSrc().getType());
  emitStore(L, op.getDesc(), op.getSrc(), layout,
            blockCoords(L, *layout, scalars(L, op.getIndices())));
  return success();
}

LogicalResult descGather(Lowering &L, Operation *o) {
  auto op = cast<tile::DescriptorGatherOp>(o);
  LayoutRef layout = L.defaultLayout(op.getType());
  std::vector<llvm::Value *> rows =
      L.convert(op.getXOffsets(), rowsLayout(*layout));
  emitLoad(L, o, op.getDesc(), layout,
           rowCoords(L, *layout, rows, L.scalar(op.getYOffset())));
  return success();
}

LogicalResult descScatter(Lowering &L, Operation *o) {
  auto op = cast<tile::DescriptorScatterOp>(o);
  LayoutRef layout = L.defaultLayout(op.getSrc().getType());
  std::vector<llvm::Value *> rows =
      L.convert(op.getXOffsets(), rowsLayout(*layout));
  emitStore(L, op.getDesc(), op.getSrc(), layout,
            rowCoords(L, *layout, rows, L.scalar(op.getYOffset())));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

using RK = tile::DescriptorReduceKind;

/// `old kind v` as the interpreter computes it: 16-bit floats in f32 and
/// rounded back, float min/max ignoring a NaN operand (fmin/fmax), integer
/// min/max signed (umin/umax unsigned).
llvm::Value *combine(Lowering &L, RK kind, llvm::Value *old, llvm::Value *v) {
  auto &b = L.b;
  llvm::Type *t = old->getType();
  if (t->isFloatingPointTy()) {
    bool narrow = t->getPrimitiveSizeInBits() < 32;
    if (narrow) {
      old = b.CreateFPExt(old, b.getFloatTy());
      v = b.CreateFPExt(v, b.getFloatTy());
    }
    llvm::Value *r =
        kind == RK::ADD ? b.CreateFAdd(old, v)
        : kind == RK::MIN
            ? b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, old, v)
            : b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, old, v);
    return narrow ? b.CreateFPTrunc(r, t) : r;
  }
  switch (kind) {
  case RK::ADD:
    return b.CreateAdd(old, v);
  case RK::MIN:
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, old, v);
  case RK::MAX:
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, old, v);
  case RK::UMIN:
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, old, v);
  case RK::UMAX:
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, old, v);
  case RK::AND:
    return b.CreateAnd(old, v);
  case RK::OR:
    return b.CreateOr(old, v);
  case RK::XOR:
    return b.CreateXor(old, v);
  }
  return nullptr;
}

/// The PTX `red` operation for `kind` on `e`, or "" where there is none
/// (narrow integers, float min/max, bf16 add before sm_90): those take a
/// compare-and-swap loop.
std::string nativeRed(Lowering &L, RK kind, const Elem &e) {
  unsigned bits = e.bits();
  std::string w = std::to_string(bits);
  llvm::Type *t = e.valueTy;
  if (t->isIntegerTy() && (bits == 32 || bits == 64)) {
    switch (kind) {
    case RK::ADD:
      return "add.u" + w;
    case RK::MIN:
      return "min.s" + w;
    case RK::MAX:
      return "max.s" + w;
    case RK::UMIN:
      return "min.u" + w;
    case RK::UMAX:
      return "max.u" + w;
    case RK::AND:
      return "and.b" + w;
    case RK::OR:
      return "or.b" + w;
    case RK::XOR:
      return "xor.b" + w;
    }
  }
  if (kind != RK::ADD)
    return "";
  // The instructions tl.atomic_add uses for these types.
  if (t->isFloatTy() || t->isDoubleTy())
    return "add.f" + w;
  if (t->isHalfTy())
    return "add.noftz.f16";
  unsigned cc = 0;
  if (t->isBFloatTy() &&
      !llvm::StringRef(L.target.name())
           .rsplit(':')
           .second.getAsInteger(10, cc) &&
      cc >= 90)
    return "add.noftz.bf16";
  return "";
}

/// The atomicrmw operation of a reduction that nativeRed finds.
llvm::AtomicRMWInst::BinOp rmwKind(RK kind, const Elem &e) {
  using K = llvm::AtomicRMWInst::BinOp;
  switch (kind) {
  case RK::ADD:
    return e.valueTy->isFloatingPointTy() ? K::FAdd : K::Add;
  case RK::MIN:
    return K::Min;
  case RK::MAX:
    return K::Max;
  case RK::UMIN:
    return K::UMin;
  case RK::UMAX:
    return K::UMax;
  case RK::AND:
    return K::And;
  case RK::OR:
    return K::Or;
  case RK::XOR:
    return K::Xor;
  }
  return K::Add;
}

/// *ptr = combine(*ptr, v) atomically by compare-and-swap; elements
/// narrower than 32 bits swap their aligned 32-bit word.
void casLoop(Lowering &L, const Elem &e, RK kind, llvm::Value *ptr,
             llvm::Value *v) {
  auto &b = L.b;
  unsigned bits = e.bits();
  llvm::IntegerType *wordTy = bits < 32 ? b.getInt32Ty() : e.bitsTy;
  llvm::Value *wordPtr = ptr, *shift = nullptr;
  if (bits < 32) {
    llvm::Value *byteOff =
        b.CreateAnd(b.CreatePtrToInt(ptr, b.getInt64Ty()), 3);
    wordPtr = b.CreateGEP(b.getInt8Ty(), ptr, b.CreateNeg(byteOff));
    shift = b.CreateTrunc(b.CreateShl(byteOff, 3), b.getInt32Ty());
  }
  auto align = llvm::Align(wordTy->getBitWidth() / 8);
  auto *first = b.CreateAlignedLoad(wordTy, wordPtr, align);
  first->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *loop = llvm::BasicBlock::Create(L.ctx, "desc.cas", L.fn);
  auto *done = llvm::BasicBlock::Create(L.ctx, "desc.cas.done", L.fn);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode *cur = b.CreatePHI(wordTy, 2);
  cur->addIncoming(first, pre);
  llvm::Value *oldBits =
      bits < 32 ? b.CreateTrunc(b.CreateLShr(cur, shift), e.bitsTy) : cur;
  llvm::Value *next =
      toBits(L, e, combine(L, kind, fromBits(L, e, oldBits), v));
  if (bits < 32) {
    llvm::Value *field = b.CreateShl(b.getInt32((1u << bits) - 1), shift);
    next = b.CreateOr(b.CreateAnd(cur, b.CreateNot(field)),
                      b.CreateShl(b.CreateZExt(next, wordTy), shift));
  }
  auto *cx = b.CreateAtomicCmpXchg(wordPtr, cur, next, align,
                                   llvm::AtomicOrdering::Monotonic,
                                   llvm::AtomicOrdering::Monotonic);
  cur->addIncoming(b.CreateExtractValue(cx, 0), b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(cx, 1), done, loop);
  b.SetInsertPoint(done);
}

LogicalResult descReduce(Lowering &L, Operation *o) {
  auto op = cast<tile::DescriptorReduceOp>(o);
  auto &b = L.b;
  Elem e = elemOf(L, op.getSrc().getType());
  RK kind = op.getKind();
  if (e.valueTy->isIntegerTy(1) || e.valueTy->isPointerTy() ||
      (isa<FloatType>(e.type) && e.bits() == 8))
    return L.fail(o, "descriptor reductions of this element type are not "
                     "supported");
  if (isa<FloatType>(e.type) && kind != RK::ADD && kind != RK::MIN &&
      kind != RK::MAX)
    return L.fail(o, "bitwise descriptor reductions need integers");
  LayoutRef layout = L.defaultLayout(op.getSrc().getType());
  Desc d = unpackDesc(L, op.getDesc());
  std::vector<llvm::Value *> vals = L.convert(op.getSrc(), *layout);
  CoordsFn coords = blockCoords(L, *layout, scalars(L, op.getIndices()));
  std::string red = nativeRed(L, kind, e);
  PtxWord w = ptxWord(L, e.bits());
  llvm::InlineAsm *ia = nullptr;
  if (!red.empty() && L.target.isNvidia())
    ia = llvm::InlineAsm::get(
        llvm::FunctionType::get(
            b.getVoidTy(), {b.getInt1Ty(), d.base->getType(), w.regTy}, false),
        "@$0 red.global." + red + " [$1], $2;", "b,l," + w.constraint,
        /*hasSideEffects=*/true);
  // Other targets: LLVM's atomicrmw where PTX has a `red` (relaxed, device
  // scope, as `red` is); the back end expands what the hardware lacks.
  bool rmw = !red.empty() && !L.target.isNvidia();
  forOwnedElements(L, d, e, *layout, coords,
                   [&](unsigned r, llvm::Value *pred, llvm::Value *ptr) {
                     if (ia) {
                       b.CreateCall(ia, {pred, ptr, toBits(L, e, vals[r])});
                       return;
                     }
                     auto *then =
                         llvm::BasicBlock::Create(L.ctx, "desc.red", L.fn);
                     auto *cont =
                         llvm::BasicBlock::Create(L.ctx, "desc.red.done", L.fn);
                     b.CreateCondBr(pred, then, cont);
                     b.SetInsertPoint(then);
                     if (rmw)
                       b.CreateAtomicRMW(rmwKind(kind, e), ptr, vals[r],
                                         llvm::Align(e.bits() / 8),
                                         llvm::AtomicOrdering::Monotonic,
                                         L.ctx.getOrInsertSyncScopeID("agent"));
                     else
                       casLoop(L, e, kind, ptr, vals[r]);
                     b.CreateBr(cont);
                     b.SetInsertPoint(cont);
                   });
  return success();
}

} // namespace

void tritium::codegen::populateDescriptorHandlers(HandlerTable &t) {
  t["tile.make_tensor_descriptor"] = makeDesc;
  t["tile.descriptor_load"] = descLoad;
  t["tile.descriptor_store"] = descStore;
  t["tile.descriptor_reduce"] = descReduce;
  t["tile.descriptor_gather"] = descGather;
  t["tile.descriptor_scatter"] = descScatter;
}

//===- SharedToLLVM.cpp - shared-memory slots and staged tiles ------------===//
//
// The shared-memory tiles of products: the pipeliner's slots, filled by
// cp.async copies (tgpu.async_copy, committed and waited on in groups) and
// read back as tensors (tgpu.shared_load), and operands staged by
// tgpu.local_alloc for the tensor cores. A copy moves each thread's
// registers in the vectors a global load of its pointers would use
// (MemoryAccess.h), into the slot's layout.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/MemoryAccess.h"
#include "codegen/Pipeline.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/InlineAsm.h"

#include <array>

using namespace mlir;
using namespace tritium::codegen;
using namespace tritium::codegen::mem;
namespace tile = mlir::tile;

namespace {

llvm::InlineAsm *asmStmt(Lowering &L, llvm::ArrayRef<llvm::Type *> args,
                         const std::string &text, const std::string &cons) {
  return llvm::InlineAsm::get(
      llvm::FunctionType::get(L.b.getVoidTy(), args, false), text, cons, true);
}

/// Byte offset (i32) of slot `slot` of `buf`.
llvm::Value *slotOffset(Lowering &L, const Lowering::SharedBuffer &buf,
                        llvm::Value *slot) {
  return L.b.CreateAdd(L.i32(buf.offset), L.b.CreateMul(slot, L.i32(buf.slotBytes)));
}

LogicalResult asyncCopy(Lowering &L, Operation *o) {
  auto op = cast<tgpu::AsyncCopyOp>(o);
  auto &b = L.b;
  const Lowering::SharedBuffer &buf = L.sharedBuffers.at(op.getBuffer());
  LayoutRef layout = L.get(op.getPtr()).layout;
  std::vector<llvm::Value *> ptrs = L.get(op.getPtr()).regs;
  // The layout assignment gave the pointers the layout the copy reads in:
  // the widest runs along the last dimension, along the first for a slot
  // holding the tile transposed (where pointers and mask can be recomputed
  // there).
  unsigned dim = buf.transposed ? 0 : layout->rank() - 1;
  std::vector<llvm::Value *> mask = regsIn(L, op.getMask(), layout);
  llvm::Type *vt = pointeeType(L, op.getPtr());
  unsigned eb = L.storeBytes(vt);
  unsigned vec = vectorWidth(L, *layout, op.getPtr(), op.getMask(), vt, dim);
  unsigned bytes = vec * eb;
  llvm::Value *base = slotOffset(L, buf, L.scalar(op.getSlot()));
  // Byte offset of register g's run in the slot.
  auto offsetOf = [&](unsigned g) {
    return L.elementOffset(buf.layout, *layout, g, buf.transposed);
  };
  auto *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  if (!L.buffersLive) {
    // The staging area overlapped the buffers until now: every thread is
    // done with it before the first copy lands.
    L.barrier();
    L.buffersLive = true;
  }
  // 16-byte copies bypass L1 (.cg); smaller ones may only use .ca.
  std::string cp = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") +
                   ".shared.global [$0], [$1], " + std::to_string(bytes);
  auto *copyAll = asmStmt(L, {i64, ptrs[0]->getType()}, cp + ";", "l,l");
  auto *copySome = asmStmt(L, {i64, ptrs[0]->getType(), i32}, cp + ", $2;", "l,l,r");
  // Below 4 bytes there is no cp.async: a predicated load and a store.
  auto *loadOne = llvm::InlineAsm::get(
      llvm::FunctionType::get(b.getInt16Ty(), {ptrs[0]->getType(), b.getInt1Ty()}, false),
      std::string("mov.b16 $0, 0;\n\t@$2 ld.global.") + (eb == 1 ? "b8" : "b16") +
          " $0, [$1];",
      "=h,l,b", true);
  // A 1- or 4-byte tile that runs along its rows in memory, stored
  // transposed (the B of a wgmma that reads its operands K-major only, from
  // a row-major matrix), in 4 x 4 blocks per thread (registers: 4 columns,
  // then 4 rows): four loads of 4 elements along the rows, the elements
  // transposed in registers, and four stores of 4 elements, each 4
  // consecutive rows of one column (contiguous in the transposed slot):
  // not a load and a store (or one 4-byte cp.async) per element. 8-bit
  // rows whose runs of 4 are not whole or aligned (N or the row stride not
  // a multiple of 16) are loaded a byte at a time, then go the same way.
  auto regAt = [&](unsigned r) { return layout->applyOne(LinearLayout::Reg, r); };
  bool wordRows = vectorWidth(L, *layout, op.getPtr(), op.getMask(), vt, 1) >= 4;
  if (buf.transposed && (eb == 1 || eb == 4) && layout->rank() == 2 &&
      layout->numRegs() % 16 == 0 && regAt(1) == Coord{0, 1} && regAt(2) == Coord{0, 2} &&
      regAt(4) == Coord{1, 0} && regAt(8) == Coord{2, 0} && (wordRows || eb == 1)) {
    auto *word = llvm::FixedVectorType::get(b.getInt8Ty(), 4);
    auto *quad = llvm::FixedVectorType::get(i32, 4);
    auto *loadWord = llvm::InlineAsm::get(
        llvm::FunctionType::get(i32, {ptrs[0]->getType(), b.getInt1Ty()}, false),
        "mov.b32 $0, 0;\n\t@$2 ld.global.b32 $0, [$1];", "=r,l,b", true);
    auto *loadQuad = llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(L.ctx, {i32, i32, i32, i32}),
                                {ptrs[0]->getType(), b.getInt1Ty()}, false),
        "mov.b32 $0, 0;\n\tmov.b32 $1, 0;\n\tmov.b32 $2, 0;\n\tmov.b32 $3, 0;\n\t"
        "@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];",
        "=r,=r,=r,=r,l,b", true);
    for (unsigned g = 0; g < ptrs.size(); g += 16) {
      if (layout->isReplicaReg(g))
        continue;
      std::array<llvm::Value *, 4> rows; // row a: columns j = 0..3
      for (unsigned a = 0; a < 4; ++a) {
        llvm::Value *p = ptrs[g + 4 * a];
        llvm::Value *m = mask.empty() ? b.getTrue() : mask[g + 4 * a];
        if (eb == 1 && !wordRows) {
          rows[a] = llvm::PoisonValue::get(word);
          for (unsigned j = 0; j < 4; ++j) {
            unsigned i = g + 4 * a + j;
            llvm::Value *v = b.CreateCall(loadOne, {ptrs[i], mask.empty() ? b.getTrue() : mask[i]});
            rows[a] = b.CreateInsertElement(rows[a], b.CreateTrunc(v, b.getInt8Ty()), uint64_t(j));
          }
          continue;
        }
        if (eb == 1) {
          rows[a] = b.CreateBitCast(b.CreateCall(loadWord, {p, m}), word);
          continue;
        }
        llvm::Value *r = b.CreateCall(loadQuad, {p, m});
        rows[a] = llvm::PoisonValue::get(quad);
        for (unsigned j = 0; j < 4; ++j)
          rows[a] = b.CreateInsertElement(rows[a], b.CreateExtractValue(r, j), uint64_t(j));
      }
      // Element j of row a goes to element a of column j.
      llvm::Value *lo = b.CreateShuffleVector(rows[0], rows[1], {0, 4, 1, 5, 2, 6, 3, 7});
      llvm::Value *hi = b.CreateShuffleVector(rows[2], rows[3], {0, 4, 1, 5, 2, 6, 3, 7});
      for (unsigned j = 0; j < 4; ++j) {
        llvm::Value *col = b.CreateShuffleVector(
            lo, hi, {int(2 * j), int(2 * j + 1), int(8 + 2 * j), int(8 + 2 * j + 1)});
        llvm::Value *dst = L.sharedBytePtr(b.CreateAdd(base, offsetOf(g + j)));
        if (eb == 1)
          b.CreateStore(b.CreateBitCast(col, i32), dst);
        else
          b.CreateAlignedStore(col, dst, llvm::Align(16));
      }
    }
    return success();
  }
  for (unsigned g = 0; g < ptrs.size(); g += vec) {
    if (layout->isReplicaReg(g))
      continue;
    if (bytes < 4) { // element by element
      for (unsigned i = g; i < g + vec; ++i) {
        llvm::Value *v = b.CreateCall(loadOne, {ptrs[i], mask.empty() ? b.getTrue() : mask[i]});
        if (eb == 1)
          v = b.CreateTrunc(v, b.getInt8Ty());
        b.CreateStore(v, L.sharedBytePtr(b.CreateAdd(base, offsetOf(i))));
      }
      continue;
    }
    llvm::Value *dst = L.sharedBytePtr(b.CreateAdd(base, offsetOf(g)));
    llvm::Value *dstAddr = b.CreatePtrToInt(dst, i64);
    if (mask.empty())
      b.CreateCall(copyAll, {dstAddr, ptrs[g]});
    else // a masked-off group reads nothing and writes zeros
      b.CreateCall(copySome, {dstAddr, ptrs[g],
                              b.CreateSelect(mask[g], L.i32(bytes), L.i32(0))});
  }
  return success();
}

LogicalResult asyncCommit(Lowering &L, Operation *) {
  L.b.CreateCall(asmStmt(L, {}, "cp.async.commit_group;", ""), {});
  return success();
}

LogicalResult asyncWait(Lowering &L, Operation *o) {
  auto op = cast<tgpu::AsyncWaitOp>(o);
  L.b.CreateCall(asmStmt(L, {}, "cp.async.wait_group " +
                                    std::to_string(op.getPending()) + ";", ""), {});
  L.barrier(/*staging=*/false); // the landed slots, apart from the staging area
  return success();
}

/// The registers of `layout` read from a tile `tile` holds in shared memory.
std::vector<llvm::Value *> readSharedTile(Lowering &L, const Lowering::SharedTile &tile,
                                          const LinearLayout &layout, llvm::Type *et) {
  std::vector<llvm::Value *> regs;
  for (unsigned r = 0; r < layout.numRegs(); ++r) {
    llvm::Value *off = L.elementOffset(tile.layout, layout, r, tile.transposed);
    regs.push_back(L.b.CreateLoad(et, L.sharedBytePtr(L.b.CreateAdd(tile.byteOffset, off))));
  }
  return regs;
}

/// A slot read in place when every user is a tensor-core product (which
/// reads its operands from shared memory anyway); otherwise into registers.
LogicalResult sharedLoad(Lowering &L, Operation *o) {
  auto op = cast<tgpu::SharedLoadOp>(o);
  auto it = L.sharedBuffers.find(op.getBuffer());
  if (it == L.sharedBuffers.end())
    return L.fail(o, "no tgpu.async_copy fills shared buffer " +
                         std::to_string(op.getBuffer()));
  const Lowering::SharedBuffer &buf = it->second;
  llvm::Value *base = slotOffset(L, buf, L.scalar(op.getSlot()));
  // The layout assignment leaves tiles that products read in place in
  // shared memory.
  bool inPlace = isa_and_nonnull<tgpu::SharedEncodingAttr>(op.getType().getEncoding());
  LayoutRef layout = L.defaultLayout(op.getType());
  Lowering::SharedTile tile{base, buf.layout, buf.transposed};
  if (inPlace) {
    L.sharedTiles[op.getResult()] = tile;
    L.set(op.getResult(), Lowered{layout, {}});
    return success();
  }
  // Into registers in the layout assigned to the result.
  layout = L.assigned(op.getType());
  llvm::Type *et = L.llvmType(cast<RankedTensorType>(op.getType()).getElementType());
  L.set(op.getResult(), Lowered{layout, readSharedTile(L, tile, *layout, et)});
  return success();
}

/// A tile written into the staging area for a product: from registers, or
/// read back from a slot held in the other orientation.
LogicalResult localAlloc(Lowering &L, Operation *o) {
  auto op = cast<tgpu::LocalAllocOp>(o);
  auto &b = L.b;
  auto t = cast<RankedTensorType>(op.getType());
  llvm::Type *et = L.llvmType(t.getElementType());
  bool transposed = cast<tgpu::SharedEncodingAttr>(t.getEncoding()).getTransposed();
  SharedLayout layout = localAllocLayout(t);
  int64_t begin = op.getOffset(), end = begin + layout.bytes();
  // The area's last readers are done, unless only the tiles staged right
  // before this one (in other bytes) were written since the last barrier.
  bool apart = false;
  for (Operation *p = op->getPrevNode(); auto prev = dyn_cast_or_null<tgpu::LocalAllocOp>(p);
       p = p->getPrevNode()) {
    int64_t pb = prev.getOffset(), pe = pb + localAllocLayout(prev.getType()).bytes();
    apart = pe <= begin || end <= pb;
    if (!apart)
      break;
  }
  if (!apart)
    L.barrierBeforeStaging();
  std::optional<Lowered> fromSlot;
  auto slot = L.sharedTiles.find(op.getSrc());
  if (slot != L.sharedTiles.end()) {
    LayoutRef l = L.defaultLayout(t);
    fromSlot = Lowered{l, readSharedTile(L, slot->second, *l, et)};
  }
  const Lowered &src = fromSlot ? *fromSlot : L.get(op.getSrc());
  llvm::Value *base = L.i32(unsigned(L.scratchStart() + begin));
  if (!transposed) {
    L.storeToSharedLayout(src, et, layout, base);
  } else { // stored [cols, rows], element by element
    for (unsigned r = 0; r < src.layout->numRegs(); ++r) {
      if (src.layout->isReplicaReg(r))
        continue;
      llvm::Value *off = L.elementOffset(layout, *src.layout, r, /*transposed=*/true);
      L.storeShared(src.regs[r], L.sharedBytePtr(b.CreateAdd(base, off)));
    }
  }
  L.reserveShared(unsigned(end));
  // One fence after the last of the tiles staged together, for the
  // tensor cores' asynchronous reads (mma.sync reads through ldmatrix).
  if (isa_and_nonnull<tgpu::WgmmaOp>(op->getNextNode()))
    b.CreateCall(asmStmt(L, {}, "fence.proxy.async.shared::cta;", ""), {});
  L.sharedTiles[op.getResult()] = {base, layout, transposed};
  L.set(op.getResult(), Lowered{L.defaultLayout(t), {}});
  return success();
}

} // namespace

SharedLayout tritium::codegen::localAllocLayout(RankedTensorType t) {
  auto enc = cast<tgpu::SharedEncodingAttr>(t.getEncoding());
  bool transposed = enc.getTransposed();
  // A batched (3-D) tile is stored flattened, [batch * rows, cols]; a
  // transposed (2-D) one as [cols, rows].
  int64_t cols = t.getShape().back(), rows = t.getNumElements() / cols;
  if (transposed)
    std::swap(rows, cols);
  unsigned eb = elementBytes(t.getElementType());
  return enc.getSwizzle() ? SharedLayout::swizzled(rows, cols, eb, enc.getSwizzle())
                          : SharedLayout::padded(rows, cols, eb, enc.getPad());
}

void tritium::codegen::populateSharedHandlers(HandlerTable &t) {
  t["tgpu.async_copy"] = asyncCopy;
  t["tgpu.async_commit"] = asyncCommit;
  t["tgpu.async_wait"] = asyncWait;
  t["tgpu.shared_load"] = sharedLoad;
  t["tgpu.local_alloc"] = localAlloc;
}

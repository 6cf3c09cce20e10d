//===- TmaToLLVM.cpp - TMA copies and mbarriers on sm_90 ------------------===//
//
// Tensor descriptors whose blocks the pipeliner copies with the tensor
// memory accelerator (tgpu.tma_copy) get a tensor map: 128 bytes in the
// program's part of the kernel's global scratch memory, made where the
// descriptor is made. Warp 0 zeroes a 128-byte staging area in shared
// memory, thread 0 writes the fields with tensormap.replace (a 2-D tiled
// map: the box is one column block of the slot's swizzled layout by up to
// 256 rows, out-of-bounds elements read as zeros), and warp 0 copies it
// out with a release fence and acquires it for the tensor-map proxy.
//
// A copy is issued by thread 0 alone: one arrive on the slot's mbarrier
// that expects the block's bytes, then one cp.async.bulk.tensor per column
// block (and per 256 rows). Before it every thread meets the others at a
// barrier, so no thread still reads the slot being overwritten (the first
// copy also fences the staging area's generic writes against the async
// proxy).
// Readers wait on the mbarrier's phase parity (mbarrier.try_wait.parity
// in a loop).
//
// Block stores through such descriptors (sm_90) go the other way: every
// thread writes its part of the block into the staging area in the map's
// swizzled layout, and thread 0 copies it out with cp.async.bulk.tensor
// (elements outside the tensor are not written); it waits until the copies
// have read the area at the next barrier, before anyone writes it again,
// and before the program ends.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "ir/Names.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/InlineAsm.h"

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {



void emitAsm(Lowering &L, const std::string &text, const std::string &constraints,
             llvm::ArrayRef<llvm::Value *> args) {
  std::vector<llvm::Type *> tys;
  for (llvm::Value *a : args)
    tys.push_back(a->getType());
  L.b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(L.b.getVoidTy(), tys, false),
                                      text, constraints, true),
                 args);
}

/// The generic address (i64) of shared memory byte `offset` (i32).
llvm::Value *sharedAddr(Lowering &L, llvm::Value *offset) {
  return L.b.CreatePtrToInt(L.sharedBytePtr(offset), L.b.getInt64Ty());
}

/// The slot layout a descriptor's block takes (what tgpu.shared_load and
/// the products read).
SharedLayout blockLayout(RankedTensorType block, Lowering &L) {
  unsigned eb = L.storeBytes(L.llvmType(block.getElementType()));
  int64_t cols = block.getShape().back(), rows = block.getNumElements() / cols;
  // TMA writes swizzled tiles (whatever the element size).
  if (auto s = SharedLayout::swizzleFor(rows, cols, eb))
    return SharedLayout::swizzled(rows, cols, eb, *s);
  return SharedLayout::padded(rows, cols, eb, 8);
}

llvm::Value *mbarrierAddr(Lowering &L, int64_t ring, llvm::Value *slot) {
  return sharedAddr(L, L.b.CreateAdd(L.i32(L.barrierRings.at(ring)),
                                     L.b.CreateMul(slot, L.i32(8))));
}

/// TMA's code for an element type.
int tmaElementType(Type t) {
  if (t.isF16())
    return 6;
  if (t.isBF16())
    return 10;
  if (t.isF32())
    return 7;
  unsigned bytes = t.getIntOrFloatBitWidth() / 8;
  return bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 4;
}

LogicalResult tmaCopy(Lowering &L, Operation *o) {
  auto op = cast<tgpu::TmaCopyOp>(o);
  auto &b = L.b;
  auto it = L.tensorMaps.find(op.getDesc());
  if (it == L.tensorMaps.end())
    return L.fail(o, "TMA copy from a descriptor without a tensor map");
  const Lowering::SharedBuffer &buf = L.sharedBuffers.at(op.getBuffer());
  const SharedLayout &sl = buf.layout;
  // Every thread is done reading the slot before it is overwritten (a
  // barrier; consecutive copies share one). Until the buffers are live
  // the staging area overlapped them: its generic writes are ordered
  // before the async proxy's with a proxy fence.
  // A warp-specialized producer waited for the slot's release instead.
  bool producer = L.partition == Lowering::Partition::Producer;
  Operation *prev = o->getPrevNode();
  while (prev && isMemoryEffectFree(prev) && prev->getNumRegions() == 0)
    prev = prev->getPrevNode();
  if (producer) {
    if (!L.buffersLive)
      emitAsm(L, "fence.proxy.async.shared::cta;", "", {});
    L.buffersLive = true;
  } else if (!L.buffersLive) {
    emitAsm(L, "fence.proxy.async.shared::cta;", "", {});
    L.barrier();
    L.buffersLive = true;
  } else if (!prev || !isa<tgpu::TmaCopyOp>(prev)) {
    L.barrier(/*staging=*/false); // live slots lie apart from the staging area
  }
  llvm::Value *slot = L.scalar(op.getSlot());
  llvm::Value *base = b.CreateAdd(L.i32(buf.offset), b.CreateMul(slot, L.i32(buf.slotBytes)));
  llvm::Value *bar = mbarrierAddr(L, op.getBarrier(), slot);
  llvm::Value *row0 = L.scalar(op.getIndices()[0]);
  llvm::Value *col0 = L.scalar(op.getIndices()[1]);
  llvm::Value *tmap = it->second;
  llvm::Value *first = L.i32(producer ? L.numWarps * L.target.warpSize() : 0);
  llvm::Value *issue = b.CreateAnd(b.CreateICmpEQ(L.threadId(), first), L.scalar(op.getPred()));
  L.guarded(issue, [&] {
    emitAsm(L, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "l,r",
            {bar, L.i32(sl.bytes())});
    int64_t boxRows = std::min<int64_t>(sl.rows, 256);
    for (int64_t cb = 0; cb < sl.cols / sl.blockCols(); ++cb)
      for (int64_t r = 0; r < sl.rows; r += boxRows) {
        llvm::Value *dst = sharedAddr(L, b.CreateAdd(base, L.i32(cb * sl.blockBytes() +
                                                                 r * sl.swizzleBytes)));
        emitAsm(L,
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                "bytes [$0], [$1, {$2, $3}], [$4];",
                "l,l,r,r,l",
                {dst, tmap, b.CreateAdd(col0, L.i32(cb * sl.blockCols())),
                 b.CreateAdd(row0, L.i32(r)), bar});
      }
  }, "tma");
  return success();
}

LogicalResult mbarrierInit(Lowering &L, Operation *o) {
  auto op = cast<tgpu::MbarrierInitOp>(o);
  // Every thread is done with the ring's previous phases (and with
  // whatever shared memory it reuses) before it starts again.
  L.barrier();
  L.guarded(L.b.CreateICmpEQ(L.threadId(), L.i32(0)), [&] {
    for (int64_t s = 0; s < int64_t(op.getNumSlots()); ++s)
      emitAsm(L, "mbarrier.init.shared::cta.b64 [$0], $1;", "l,r",
              {mbarrierAddr(L, op.getBarrier(), L.i32(s)), L.i32(op.getCount())});
    emitAsm(L, "fence.mbarrier_init.release.cluster;", "", {});
  }, "mbarrier.init");
  L.barrier();
  return success();
}

LogicalResult mbarrierWait(Lowering &L, Operation *o) {
  auto op = cast<tgpu::MbarrierWaitOp>(o);
  auto &b = L.b;
  llvm::Value *bar = mbarrierAddr(L, op.getBarrier(), L.scalar(op.getSlot()));
  llvm::Value *phase = L.scalar(op.getPhase());
  auto *tryWait = llvm::InlineAsm::get(
      llvm::FunctionType::get(b.getInt32Ty(), {b.getInt64Ty(), b.getInt32Ty()}, false),
      "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;\n\t"
      "selp.u32 $0, 1, 0, p;\n\t}",
      "=r,l,r", true);
  auto *loop = llvm::BasicBlock::Create(L.ctx, "mbarrier.wait", L.fn);
  auto *done = llvm::BasicBlock::Create(L.ctx, "mbarrier.done", L.fn);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::Value *ok = b.CreateCall(tryWait, {bar, phase});
  b.CreateCondBr(b.CreateICmpNE(ok, L.i32(0)), done, loop);
  b.SetInsertPoint(done);
  return success();
}

} // namespace

bool tritium::codegen::descriptorStoreUsesTma(Operation *o, unsigned cc) {
  auto op = dyn_cast<tile::DescriptorStoreOp>(o);
  if (!op || cc < 90 || !op.getDesc().getDefiningOp<tile::MakeTensorDescOp>())
    return false;
  auto block = cast<tile::TensorDescType>(op.getDesc().getType()).getBlockType();
  Type et = block.getElementType();
  if (block.getRank() != 2 || !et.isIntOrFloat() || et.getIntOrFloatBitWidth() < 8)
    return false;
  unsigned eb = et.getIntOrFloatBitWidth() / 8;
  int64_t cols = block.getShape().back();
  return SharedLayout::swizzleFor(block.getNumElements() / cols, cols, eb).has_value();
}

LogicalResult tritium::codegen::emitTmaStore(Lowering &L, tile::DescriptorStoreOp op) {
  auto &b = L.b;
  auto it = L.tensorMaps.find(op.getDesc());
  if (it == L.tensorMaps.end())
    return L.fail(op, "TMA store through a descriptor without a tensor map");
  auto block = cast<tile::TensorDescType>(op.getDesc().getType()).getBlockType();
  SharedLayout sl = blockLayout(block, L);
  llvm::Type *et = L.llvmType(block.getElementType());
  // The block into the staging area, in the tensor map's swizzled layout;
  // each thread orders its writes before the async proxy's reads, then all
  // meet.
  L.barrierBeforeStaging();
  L.reserveShared(unsigned(sl.bytes()));
  unsigned start = L.scratchStart();
  L.storeToSharedLayout(L.get(op.getSrc()), et, sl, L.i32(start));
  emitAsm(L, "fence.proxy.async.shared::cta;", "", {});
  L.barrier();
  // One thread copies it out, a box per column block (and per 256 rows);
  // elements outside the tensor are not written. It waits until the copies
  // have read the area at the next barrier (Lowering::barrier), before
  // anyone writes the area again; the program goes on meanwhile.
  llvm::Value *row0 = L.scalar(op.getIndices()[0]);
  llvm::Value *col0 = L.scalar(op.getIndices()[1]);
  L.guarded(b.CreateICmpEQ(L.threadId(), L.i32(0)), [&] {
    int64_t boxRows = std::min<int64_t>(sl.rows, 256);
    for (int64_t cb = 0; cb < sl.cols / sl.blockCols(); ++cb)
      for (int64_t r = 0; r < sl.rows; r += boxRows) {
        llvm::Value *src =
            sharedAddr(L, L.i32(unsigned(start + cb * sl.blockBytes() + r * sl.swizzleBytes)));
        emitAsm(L,
                "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];",
                "l,r,r,l",
                {it->second, b.CreateAdd(col0, L.i32(cb * sl.blockCols())),
                 b.CreateAdd(row0, L.i32(r)), src});
      }
    emitAsm(L, "cp.async.bulk.commit_group;", "", {});
  }, "tma.store");
  L.bulkReadsPending = true;
  L.stagingTouched = true;
  return success();
}

LogicalResult tritium::codegen::emitTensorMap(Lowering &L, tile::MakeTensorDescOp op) {
  auto &b = L.b;
  auto block = cast<tile::TensorDescType>(op.getType()).getBlockType();
  if (block.getRank() != 2)
    return L.fail(op, "TMA copies take 2-D descriptors");
  SharedLayout sl = blockLayout(block, L);
  if (!sl.isSwizzled())
    return L.fail(op, "TMA copies need a swizzled slot");
  unsigned eb = sl.elemBytes;
  llvm::Value *basePtr = L.scalar(op.getBase());
  llvm::Value *base = b.CreatePtrToInt(basePtr, b.getInt64Ty());
  llvm::Value *strideBytes = b.CreateMul(L.scalar(op.getStrides()[0]), b.getInt64(eb));
  // TMA takes a 16-byte aligned base and row strides of whole 16 bytes, as
  // Triton documents for tensor descriptors: say so instead of faulting.
  {
    std::string file = "unknown";
    unsigned line = 0;
    if (auto fl = tritium::fileLocOf(op->getLoc())) {
      file = fl.getFilename().str();
      line = fl.getLine();
    }
    llvm::Value *bad = b.CreateICmpNE(
        b.CreateAnd(b.CreateOr(base, strideBytes), b.getInt64(15)), b.getInt64(0));
    L.guarded(bad, [&] {
      L.target.assertFail(b,
                          "tensor descriptor: the base must be 16-byte aligned and the "
                          "strides (but the last) multiples of 16 bytes",
                          file, line, L.fn->getName());
    }, "desc.align");
  }
  unsigned index = L.tensorMapIndex.at(op.getResult());
  llvm::Value *global = b.CreateGEP(b.getInt8Ty(), L.globalScratch, b.getInt64(index * 128));
  llvm::Value *gaddr = b.CreatePtrToInt(
      b.CreateAddrSpaceCast(global, llvm::PointerType::get(L.ctx, 0)), b.getInt64Ty());
  L.reserveShared(128);
  llvm::Value *stage = sharedAddr(L, L.i32(L.scratchStart()));
  L.barrier(); // the staging area is free
  // Warp 0 (by thread index in a warp-specialized kernel, whose producer
  // warps repeat the consumers' layout positions).
  llvm::Value *warp0 = L.producerWarps
                           ? b.CreateICmpULT(L.threadId(), L.i32(L.target.warpSize()))
                           : b.CreateICmpEQ(L.warpId(), L.i32(0));
  L.guarded(warp0, [&] {
    emitAsm(L, "st.shared.b32 [$0], 0;", "l",
            {b.CreateAdd(stage, b.CreateZExt(b.CreateMul(L.laneId(), L.i32(4)), b.getInt64Ty()))});
    emitAsm(L, "bar.warp.sync -1;", "", {});
    L.guarded(b.CreateICmpEQ(L.laneId(), L.i32(0)), [&] {
      // Fields known at compile time are immediates (some must be).
      auto replace = [&](const std::string &field, llvm::Value *v, int ord = -1) {
        std::string text = "tensormap.replace.tile." + field + ".shared::cta.b1024.";
        std::string operand = "$1";
        std::string cons = "l,";
        if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
          operand = std::to_string(c->getSExtValue());
          cons = "l";
        } else {
          cons += v->getType()->isIntegerTy(64) ? "l" : "r";
        }
        text += std::string(v->getType()->isIntegerTy(64) ? "b64" : "b32") + " [$0], " +
                (ord >= 0 ? std::to_string(ord) + ", " : "") + operand + ";";
        if (cons == "l")
          emitAsm(L, text, cons, {stage});
        else
          emitAsm(L, text, cons, {stage, v});
      };
      replace("global_address", base);
      replace("rank", L.i32(1));
      replace("box_dim", L.i32(sl.blockCols()), 0);
      replace("box_dim", L.i32(std::min<int64_t>(sl.rows, 256)), 1);
      replace("global_dim", L.scalar(op.getShape()[1]), 0);
      replace("global_dim", L.scalar(op.getShape()[0]), 1);
      replace("global_stride", strideBytes, 0); // in bytes
      replace("element_stride", L.i32(1), 0);
      replace("element_stride", L.i32(1), 1);
      replace("elemtype", L.i32(tmaElementType(block.getElementType())));
      replace("interleave_layout", L.i32(0));
      replace("swizzle_mode", L.i32(sl.swizzleBytes == 128 ? 3 : sl.swizzleBytes == 64 ? 2 : 1));
      replace("fill_mode", L.i32(0));
    }, "tensormap.fields");
    emitAsm(L, "bar.warp.sync -1;", "", {});
    emitAsm(L,
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu."
            "sync.aligned [$0], [$1], 128;",
            "l,l", {gaddr, stage});
    emitAsm(L, "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l", {gaddr});
    // ptxas wants the acquire followed by a bulk-group round trip to order it.
    emitAsm(L, "cp.async.bulk.commit_group;", "", {});
    emitAsm(L, "cp.async.bulk.wait_group.read 0;", "", {});
  }, "tensormap");
  L.barrier();
  L.tensorMaps[op.getResult()] = gaddr;
  return success();
}

namespace {

LogicalResult mbarrierArrive(Lowering &L, Operation *o) {
  auto op = cast<tgpu::MbarrierArriveOp>(o);
  llvm::Value *bar = mbarrierAddr(L, op.getBarrier(), L.scalar(op.getSlot()));
  emitAsm(L, "bar.warp.sync -1;", "", {});
  L.guarded(L.b.CreateICmpEQ(L.laneId(), L.i32(0)), [&] {
    emitAsm(L, "mbarrier.arrive.shared::cta.b64 _, [$0];", "l", {bar});
  }, "mbarrier.arrive");
  return success();
}

/// tgpu.warp_specialize: threads past the consumers' take the producer's
/// path. All four producer warps lower their registers (setmaxnreg acts
/// per warpgroup), then the first runs the region and the others end.
LogicalResult warpSpecialize(Lowering &L, Operation *o) {
  auto op = cast<tgpu::WarpSpecializeOp>(o);
  auto &b = L.b;
  unsigned consumers = L.numWarps * L.target.warpSize();
  auto *producerBB = llvm::BasicBlock::Create(L.ctx, "ws.producer", L.fn);
  auto *runBB = llvm::BasicBlock::Create(L.ctx, "ws.producer.run", L.fn);
  auto *endBB = llvm::BasicBlock::Create(L.ctx, "ws.producer.end", L.fn);
  auto *consumerBB = llvm::BasicBlock::Create(L.ctx, "ws.consumer", L.fn);
  b.CreateCondBr(b.CreateICmpUGE(L.threadId(), L.i32(consumers)), producerBB, consumerBB);

  auto emitRegion = [&](Region &r) -> LogicalResult {
    for (Operation &x : r.front())
      if (failed(L.emitOp(&x)))
        return failure();
    return success();
  };
  Lowering::Partition saved = L.partition;
  b.SetInsertPoint(producerBB);
  emitAsm(L, "setmaxnreg.dec.sync.aligned.u32 " + std::to_string(op.getProducerRegs()) + ";",
          "", {});
  b.CreateCondBr(b.CreateICmpULT(L.threadId(), L.i32(consumers + L.target.warpSize())), runBB,
                 endBB);
  b.SetInsertPoint(endBB);
  b.CreateRetVoid();
  b.SetInsertPoint(runBB);
  // The tensor maps were made (and released) before the split by other
  // threads: acquired here for the tensor-map proxy of this one.
  llvm::SetVector<llvm::Value *> maps;
  op.getProducer().walk([&](tgpu::TmaCopyOp c) {
    if (llvm::Value *m = L.tensorMaps.lookup(c.getDesc()))
      maps.insert(m);
  });
  for (llvm::Value *m : maps)
    emitAsm(L, "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l", {m});
  L.partition = Lowering::Partition::Producer;
  if (failed(emitRegion(op.getProducer())))
    return failure();
  b.CreateRetVoid();

  b.SetInsertPoint(consumerBB);
  emitAsm(L, "setmaxnreg.inc.sync.aligned.u32 " + std::to_string(op.getConsumerRegs()) + ";",
          "", {});
  L.partition = Lowering::Partition::Consumer;
  L.stagingTouched = true;
  if (failed(emitRegion(op.getConsumer())))
    return failure();
  L.partition = saved;
  return success();
}

} // namespace

void tritium::codegen::populateTmaHandlers(HandlerTable &t) {
  t["tgpu.mbarrier_arrive"] = mbarrierArrive;
  t["tgpu.warp_specialize"] = warpSpecialize;
  t["tgpu.tma_copy"] = tmaCopy;
  t["tgpu.mbarrier_init"] = mbarrierInit;
  t["tgpu.mbarrier_wait"] = mbarrierWait;
}

//===- SharedBuffers.cpp - Where the pipeliner's shared buffers live ------===//
//
// The slots tgpu.async_copy and tgpu.tma_copy fill: the layout each buffer
// holds its tile in (swizzled where the tile allows, transposed when the
// tile is contiguous along its rows), the layouts the copies read global
// memory in, and the buffers' places in shared memory, given by their lives
// in the kernel's body (first fit); then the mbarrier rings.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <map>

using namespace mlir;
using namespace tritium::codegen;

bool tritium::codegen::copyStoresTransposed(tgpu::AsyncCopyOp copy, unsigned cc,
                                            unsigned numWarps,
                                            const VectorWidthFn &vectorWidthHint) {
  auto t = cast<RankedTensorType>(copy.getPtr().getType());
  if (t.getRank() != 2 || !vectorWidthHint)
    return false;
  auto pointee = cast<mlir::tile::PointerType>(t.getElementType()).getPointeeType();
  unsigned eb = elementBytes(pointee);
  Operation *func = copy->getParentOfType<func::FuncOp>();
  // 8-bit and tf32 operands of wgmma are read K-major only: B is stored
  // [N, K] and A as it is, however memory runs.
  std::optional<bool> eightBit;
  if (eb == 1 || eb == 4)
    func->walk([&](tgpu::SharedLoadOp ld) {
      if (ld.getBuffer() != copy.getBuffer())
        return;
      for (OpOperand &use : ld->getUses())
        if (dotUsesWgmma(use.getOwner(), cc, numWarps))
          eightBit = use.getOperandNumber() == 1;
    });
  if (eightBit)
    return *eightBit;
  // Contiguous along the rows only, in runs of at least 4 bytes.
  if (vectorWidthHint(copy.getPtr(), copy.getMask(), 1) > 1 ||
      vectorWidthHint(copy.getPtr(), copy.getMask(), 0) * eb < 4)
    return false;
  // Products read a transposed tile as either operand (wgmma through its
  // descriptors, mma.sync with ldmatrix.trans); through tl.trans it is the
  // plain tile again.
  return true;
}

bool Lowering::storeTransposed(tgpu::AsyncCopyOp copy) {
  return copyStoresTransposed(copy, parseCudaTarget(target.name()), numWarps, vectorWidthHint);
}

/// A shared_load's value (or its transpose): read in place from a buffer.
static bool readsSharedBuffer(Value v) {
  if (auto t = v.getDefiningOp<mlir::tile::TransOp>())
    v = t.getSrc();
  return v.getDefiningOp<tgpu::SharedLoadOp>() != nullptr;
}

void Lowering::placeSharedBuffers(Operation *funcOp) {
  auto func = cast<func::FuncOp>(funcOp);
  // The slots of asynchronous copies come first. Each buffer lives from
  // the first to the last op of the kernel's body that copies into it,
  // waits for it or reads it (directly or through the products reading
  // it in place); buffers whose lives do not overlap (the pipelines of two
  // loops one after the other) share memory. Copies still in flight after
  // the last of them (cp.async masked off past a loop's end) have landed
  // at the next wait for every group.
  Block &top = func.getBody().front();
  std::map<int64_t, std::pair<int, int>> lives; // buffer -> [first, last] op
  std::map<int64_t, unsigned> numSlots;
  {
    llvm::DenseMap<Operation *, int> index;
    for (Operation &op : top)
      index[&op] = int(index.size());
    auto touch = [&](int64_t buffer, Operation *op) {
      Operation *a = top.findAncestorOpInBlock(*op);
      if (!a)
        return;
      int i = index.lookup(a);
      auto [it, fresh] = lives.try_emplace(buffer, i, i);
      if (!fresh)
        it->second = {std::min(it->second.first, i), std::max(it->second.second, i)};
    };
    func.walk([&](Operation *op) {
      if (auto c = dyn_cast<tgpu::AsyncCopyOp>(op)) {
        touch(c.getBuffer(), op);
        // Until the next wait for all groups.
        for (Operation *n = top.findAncestorOpInBlock(*op); n; n = n->getNextNode())
          if (auto w = dyn_cast<tgpu::AsyncWaitOp>(n); w && w.getPending() == 0) {
            touch(c.getBuffer(), n);
            break;
          }
      } else if (auto t = dyn_cast<tgpu::TmaCopyOp>(op)) {
        touch(t.getBuffer(), op);
      } else if (auto l = dyn_cast<tgpu::SharedLoadOp>(op)) {
        touch(l.getBuffer(), op);
        for (Operation *u : l->getUsers()) {
          touch(l.getBuffer(), u);
          if (isa<mlir::tile::TransOp>(u))
            for (Operation *tu : u->getUsers())
              touch(l.getBuffer(), tu);
        }
      }
    });
  }
  func.walk([&](tgpu::AsyncCopyOp copy) {
    auto t = cast<RankedTensorType>(copy.getPtr().getType());
    auto &buf = sharedBuffers[copy.getBuffer()];
    if (buf.slotBytes)
      return;
    auto pointee = cast<mlir::tile::PointerType>(t.getElementType()).getPointeeType();
    unsigned eb = storeBytes(llvmType(pointee));
    int64_t rows = t.getNumElements() / t.getShape().back();
    int64_t cols = t.getShape().back();
    buf.transposed = storeTransposed(copy);
    // In the layout its readers want (the layout assignment gave their
    // types the same).
    Value read;
    func.walk([&](tgpu::SharedLoadOp ld) {
      if (ld.getBuffer() == copy.getBuffer())
        read = ld.getResult();
    });
    buf.layout = copySlotLayout(read, rows, cols, eb, buf.transposed,
                                parseCudaTarget(target.name()), numWarps);
    buf.slotBytes = unsigned(buf.layout.bytes());
    numSlots[copy.getBuffer()] = unsigned(copy.getNumSlots());
  });
  // Slots filled by TMA hold the descriptor's block as it lies in memory.
  func.walk([&](tgpu::TmaCopyOp copy) {
    auto &buf = sharedBuffers[copy.getBuffer()];
    if (buf.slotBytes)
      return;
    auto t = cast<mlir::tile::TensorDescType>(copy.getDesc().getType()).getBlockType();
    unsigned eb = storeBytes(llvmType(t.getElementType()));
    int64_t cols = t.getShape().back();
    buf.layout = SharedLayout::best(t.getNumElements() / cols, cols, eb, 8);
    buf.slotBytes = unsigned(buf.layout.bytes());
    numSlots[copy.getBuffer()] = unsigned(copy.getNumSlots());
  });
  // First fit, in order of first use; buffers start on 1024-byte
  // boundaries, where swizzle patterns start.
  {
    std::vector<int64_t> order;
    for (auto &[id, buf] : sharedBuffers)
      order.push_back(id);
    auto life = [&](int64_t id) {
      auto it = lives.find(id);
      return it == lives.end() ? std::pair<int, int>{0, INT32_MAX} : it->second;
    };
    llvm::stable_sort(order, [&](int64_t x, int64_t y) { return life(x).first < life(y).first; });
    std::vector<int64_t> placed;
    for (int64_t id : order) {
      SharedBuffer &buf = sharedBuffers[id];
      unsigned bytes = (numSlots[id] * buf.slotBytes + 1023) / 1024 * 1024;
      unsigned at = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (int64_t other : placed) {
          const SharedBuffer &o = sharedBuffers[other];
          unsigned obytes = (numSlots[other] * o.slotBytes + 1023) / 1024 * 1024;
          bool overlapInTime = life(id).first <= life(other).second &&
                               life(other).first <= life(id).second;
          if (overlapInTime && at < o.offset + obytes && o.offset < at + bytes) {
            at = o.offset + obytes;
            moved = true;
          }
        }
      }
      buf.offset = at;
      scratchBase = std::max(scratchBase, at + bytes);
      placed.push_back(id);
    }
  }
  // Then the mbarrier rings (the staging area after them starts on a
  // 1024-byte boundary too).
  {
    unsigned ringBytes = 0;
    func.walk([&](tgpu::MbarrierInitOp init) {
      if (barrierRings.count(init.getBarrier()))
        return;
      barrierRings[init.getBarrier()] = scratchBase + ringBytes;
      ringBytes += 8 * unsigned(init.getNumSlots());
    });
    scratchBase += (ringBytes + 1023) / 1024 * 1024;
  }
  sharedBytes = scratchBase;
  // The buffers' lives end with the last op of the kernel's body that
  // copies into them, waits for them or reads them (its wait for all
  // copies ends with a barrier).
  func.walk([&](Operation *op) {
    bool touches = isa<tgpu::AsyncCopyOp, tgpu::AsyncWaitOp,
                       tgpu::SharedLoadOp, tgpu::TmaCopyOp,
                       tgpu::MbarrierInitOp, tgpu::MbarrierWaitOp,
                       tgpu::MbarrierArriveOp>(op);
    for (Value v : op->getOperands())
      touches |= readsSharedBuffer(v);
    if (!touches)
      return;
    Operation *a = top.findAncestorOpInBlock(*op);
    if (a && (!lastBufferOp_ || lastBufferOp_->isBeforeInBlock(a)))
      lastBufferOp_ = a;
  });
}

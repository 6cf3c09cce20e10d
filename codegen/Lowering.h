//===- Lowering.h - Tile IR to LLVM IR, one thread's view -----------------===//
//
// The GPU lowering walks a kernel's tile IR (after the tile-level pipeline)
// and emits LLVM IR for one thread of a program. Every tensor value gets a
// distributed layout (codegen/layouts/LinearLayout.h) when it is produced;
// the thread then holds one LLVM value per register of that layout. Scalars
// are uniform across the program and are one LLVM value.
//
// Ops are lowered by handlers registered per op name, one file per op
// family (ElementwiseToLLVM, ShapeToLLVM, MemoryToLLVM, SharedToLLVM,
// ReduceToLLVM, DotToLLVM, DebugToLLVM); control flow and layout
// conversion live in Lowering.cpp. Target details (special registers,
// barriers, shuffles, printf) are behind TargetInfo.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_H
#define TRITIUM_CODEGEN_LOWERING_H

#include "codegen/TargetInfo.h"
#include "codegen/layouts/LinearLayout.h"
#include "codegen/layouts/SharedLayout.h"
#include "codegen/transforms/Passes.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/ConstantFolder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ValueHandle.h"

#include <functional>
#include <map>
#include <memory>

namespace mlir {
namespace tile {
class DotOp;
class MakeTensorDescOp;
class DescriptorStoreOp;
} // namespace tile
namespace tgpu {
class AsyncCopyOp;
} // namespace tgpu
class ModuleOp;
class RankedTensorType;
} // namespace mlir

namespace tritium::codegen {

class ModuleAxisInfoRef;

using LayoutRef = std::shared_ptr<const LinearLayout>;

/// One lowered tile IR value: a layout (null for scalars) and the registers
/// this thread holds, in the layout's register order.
struct Lowered {
  LayoutRef layout;
  std::vector<llvm::Value *> regs;
  bool isScalar() const { return !layout; }
};

/// The folder of the lowering's IR builder: constants fold as LLVM's
/// ConstantFolder does, and an integer op with an identity operand
/// (x + 0, x - 0, x | 0, x ^ 0, shifts by 0, x * 1, x / 1, x & ~0) is its
/// other operand. It looks at the operands only, never through them:
/// values are created while the phis of the loops around them still lack
/// their back edges, so anything that reasons about a phi's incoming
/// values (InstSimplify does) would see a loop's first iteration only.
class IdentityFolder final : public llvm::IRBuilderFolder {
  llvm::ConstantFolder c_;

  static llvm::Value *identity(llvm::Instruction::BinaryOps op, llvm::Value *l,
                               llvm::Value *r) {
    using I = llvm::Instruction;
    auto *lc = llvm::dyn_cast<llvm::ConstantInt>(l);
    auto *rc = llvm::dyn_cast<llvm::ConstantInt>(r);
    switch (op) {
    case I::Add: case I::Or: case I::Xor:
      if (rc && rc->isZero()) return l;
      if (lc && lc->isZero()) return r;
      return nullptr;
    case I::Sub: case I::Shl: case I::LShr: case I::AShr:
      return rc && rc->isZero() ? l : nullptr;
    case I::Mul:
      if (rc && rc->isOne()) return l;
      if (lc && lc->isOne()) return r;
      return nullptr;
    case I::UDiv: case I::SDiv:
      return rc && rc->isOne() ? l : nullptr;
    case I::And:
      if (rc && rc->isMinusOne()) return l;
      if (lc && lc->isMinusOne()) return r;
      return nullptr;
    default:
      return nullptr;
    }
  }

public:
  llvm::Value *FoldBinOp(llvm::Instruction::BinaryOps op, llvm::Value *l,
                         llvm::Value *r) const override {
    if (llvm::Value *v = c_.FoldBinOp(op, l, r))
      return v;
    return identity(op, l, r);
  }
  llvm::Value *FoldExactBinOp(llvm::Instruction::BinaryOps op, llvm::Value *l, llvm::Value *r,
                              bool exact) const override {
    if (llvm::Value *v = c_.FoldExactBinOp(op, l, r, exact))
      return v;
    return identity(op, l, r);
  }
  llvm::Value *FoldNoWrapBinOp(llvm::Instruction::BinaryOps op, llvm::Value *l, llvm::Value *r,
                               bool nuw, bool nsw) const override {
    if (llvm::Value *v = c_.FoldNoWrapBinOp(op, l, r, nuw, nsw))
      return v;
    return identity(op, l, r);
  }
  llvm::Value *FoldBinOpFMF(llvm::Instruction::BinaryOps op, llvm::Value *l, llvm::Value *r,
                            llvm::FastMathFlags fmf) const override {
    return c_.FoldBinOpFMF(op, l, r, fmf);
  }
  llvm::Value *FoldUnOpFMF(llvm::Instruction::UnaryOps op, llvm::Value *v,
                           llvm::FastMathFlags fmf) const override {
    return c_.FoldUnOpFMF(op, v, fmf);
  }
  llvm::Value *FoldCmp(llvm::CmpInst::Predicate p, llvm::Value *l,
                       llvm::Value *r) const override {
    return c_.FoldCmp(p, l, r);
  }
  llvm::Value *FoldGEP(llvm::Type *t, llvm::Value *ptr, llvm::ArrayRef<llvm::Value *> idx,
                       llvm::GEPNoWrapFlags nw) const override {
    return c_.FoldGEP(t, ptr, idx, nw);
  }
  llvm::Value *FoldSelect(llvm::Value *cond, llvm::Value *t, llvm::Value *f) const override {
    return c_.FoldSelect(cond, t, f);
  }
  llvm::Value *FoldExtractValue(llvm::Value *agg,
                                llvm::ArrayRef<unsigned> idx) const override {
    return c_.FoldExtractValue(agg, idx);
  }
  llvm::Value *FoldInsertValue(llvm::Value *agg, llvm::Value *v,
                               llvm::ArrayRef<unsigned> idx) const override {
    return c_.FoldInsertValue(agg, v, idx);
  }
  llvm::Value *FoldExtractElement(llvm::Value *vec, llvm::Value *idx) const override {
    return c_.FoldExtractElement(vec, idx);
  }
  llvm::Value *FoldInsertElement(llvm::Value *vec, llvm::Value *elt,
                                 llvm::Value *idx) const override {
    return c_.FoldInsertElement(vec, elt, idx);
  }
  llvm::Value *FoldShuffleVector(llvm::Value *a, llvm::Value *b,
                                 llvm::ArrayRef<int> mask) const override {
    return c_.FoldShuffleVector(a, b, mask);
  }
  llvm::Value *FoldCast(llvm::Instruction::CastOps op, llvm::Value *v,
                        llvm::Type *t) const override {
    return c_.FoldCast(op, v, t);
  }
  llvm::Value *FoldBinaryIntrinsic(llvm::Intrinsic::ID id, llvm::Value *l, llvm::Value *r,
                                   llvm::Type *t, llvm::Instruction *fmf) const override {
    return c_.FoldBinaryIntrinsic(id, l, r, t, fmf);
  }
  llvm::Value *CreatePointerCast(llvm::Constant *v, llvm::Type *t) const override {
    return c_.CreatePointerCast(v, t);
  }
  llvm::Value *CreatePointerBitCastOrAddrSpaceCast(llvm::Constant *v,
                                                   llvm::Type *t) const override {
    return c_.CreatePointerBitCastOrAddrSpaceCast(v, t);
  }
};

class Lowering;
using OpHandler = std::function<mlir::LogicalResult(Lowering &, mlir::Operation *)>;
using HandlerTable = llvm::StringMap<OpHandler>;

void populateElementwiseHandlers(HandlerTable &t);
void populateShapeHandlers(HandlerTable &t);
void populateMemoryHandlers(HandlerTable &t);
void populateSharedHandlers(HandlerTable &t);
void populateReduceHandlers(HandlerTable &t);
void populateDotHandlers(HandlerTable &t);
void populateDebugHandlers(HandlerTable &t);
void populateSortHandlers(HandlerTable &t);       // SortToLLVM.cpp
void populateMapHandlers(HandlerTable &t);        // MapElementwiseToLLVM.cpp
void populateDescriptorHandlers(HandlerTable &t); // DescriptorToLLVM.cpp
void populateTmaHandlers(HandlerTable &t);        // nvidia/TmaToLLVM.cpp
void populateWgmmaHandlers(HandlerTable &t);      // nvidia/WgmmaToLLVM.cpp

class Lowering {
public:
  Lowering(llvm::Module &module, TargetInfo &target, unsigned numWarps);

  llvm::LLVMContext &ctx;
  llvm::Module &mod;
  llvm::IRBuilder<IdentityFolder> b;
  TargetInfo &target;
  unsigned numWarps;
  unsigned maxRegisters = 0; // per thread; 0: no limit
  /// Warps launched after the numWarps the layouts place, running the
  /// producer of a warp-specialized loop (tgpu.warp_specialize); 0: none.
  unsigned producerWarps = 0;
  /// Which warps run the code being emitted: all of them, the consumers of
  /// a tgpu.warp_specialize (barriers count them only), or its producer
  /// (one warp, no barriers).
  enum class Partition { All, Consumer, Producer } partition = Partition::All;
  llvm::Function *fn = nullptr;
  /// fp8 conversions of single registers emitted so far (emitFp8Convert):
  /// past a bound, each further one calls a shared helper function.
  unsigned fp8Conversions = 0;
  /// Bytes of dynamic shared memory the kernel needs (the maximum over the
  /// conversions, reductions and products that stage through it).
  unsigned sharedBytes = 0;
  /// Element width the default layouts are made for: each thread holds
  /// 128 / layoutBits contiguous elements along the fastest dimension
  /// (where the tile has that many per thread).
  unsigned layoutBits = 32;
  /// Queries of the axis analysis (may be null: no vectorization).
  std::function<unsigned(mlir::Value ptr, mlir::Value mask, unsigned dim)>
      vectorWidthHint;
  /// Elements of `v` (a tensor) known equal in aligned runs along `dim`
  /// (the axis analysis's constancy; may be empty: 1).
  std::function<int64_t(mlir::Value v, unsigned dim)> constancyHint;
  /// The registers of a `layout` value that repeat an earlier register
  /// because its elements are equal in runs (constancyHint): a mask of
  /// register bits; register r holds what register r & ~mask holds.
  unsigned constantRegs(mlir::Value v, const LinearLayout &layout);

  /// Lowers `func` into an LLVM kernel of the same name. On failure the
  /// reason, with the op's location, is in `error`.
  mlir::LogicalResult lowerKernel(mlir::Operation *func);
  std::string error;

  // --- values -------------------------------------------------------------
  Lowered &get(mlir::Value v);
  llvm::Value *scalar(mlir::Value v); // a scalar operand
  void set(mlir::Value v, Lowered l);
  /// `v` in layout `to`: registers are picked when the data is already in
  /// the thread, cheap producers (ranges, splats, constants and arithmetic
  /// on them) are recomputed in `to`, anything else moves through shared
  /// memory.
  std::vector<llvm::Value *> convert(mlir::Value v, const LinearLayout &to);
  /// Same for registers without a producer to recompute.
  /// `padLast` elements of padding after each row of the staging area
  /// (to spread a tile's rows over the shared memory banks).
  std::vector<llvm::Value *> convertRegs(const Lowered &src, llvm::Type *ty,
                                         const LinearLayout &to,
                                         unsigned padLast = 0);
  /// The two halves of convertRegs (no barriers): write a tile row-major
  /// (rows padded by `padLast`) at `byteOffset`, and read it back in `to`.
  /// storeToShared with stmatrix when `src` is in the tensor-core fragment
  /// layout (16-bit elements); false (nothing emitted) otherwise.
  bool storeToSharedStmatrix(const Lowered &src, llvm::Type *ty, unsigned padLast,
                             unsigned byteOffset);
  /// The same into a tile in `layout` (padded or swizzled) starting
  /// `byteOffset` (i32) bytes past the start of shared memory.
  bool storeToSharedStmatrix(const Lowered &src, llvm::Type *ty, const SharedLayout &layout,
                             llvm::Value *byteOffset);
  void storeToShared(const Lowered &src, llvm::Type *ty, unsigned padLast = 0,
                     unsigned byteOffset = 0);
  /// Reads registers [firstReg, firstReg + numRegs) (all by default).
  std::vector<llvm::Value *> loadFromShared(llvm::Type *ty, const LinearLayout &to,
                                            unsigned padLast = 0,
                                            unsigned byteOffset = 0,
                                            unsigned firstReg = 0,
                                            unsigned numRegs = ~0u);
  /// The default layout of a tensor of type `t` (whatever its encoding).
  LayoutRef defaultLayout(mlir::Type tensorType);
  /// The layout a tensor of type `t` is assigned by its tgpu encoding
  /// (codegen/transforms/AssignLayouts.cpp); the default layout when it has
  /// none; null for a tile held in shared memory.
  LayoutRef assigned(mlir::Type tensorType);
  LayoutRef share(LinearLayout l) {
    return std::make_shared<const LinearLayout>(std::move(l));
  }

  // --- types and constants ---------------------------------------------------
  llvm::Type *llvmType(mlir::Type scalarOrElement);
  /// Bytes an element of `t` takes in memory (i1 as one byte).
  unsigned storeBytes(llvm::Type *t);
  llvm::Value *i32(int64_t v) { return b.getInt32(uint32_t(v)); }

  // --- thread geometry ---------------------------------------------------------
  llvm::Value *threadId();
  llvm::Value *laneId();
  llvm::Value *warpId();
  /// The coordinate along `dim` of register `reg` of `l` in this thread (i32).
  llvm::Value *coord(const LinearLayout &l, unsigned reg, unsigned dim);
  /// Row-major index of register `reg`'s element (i32), with `padLast`
  /// extra elements per row.
  llvm::Value *linearCoord(const LinearLayout &l, unsigned reg,
                           unsigned padLast = 0);
  /// True in exactly one thread of each group holding the same elements
  /// (replicas skip stores and atomics).
  llvm::Value *isOwner(const LinearLayout &l);

  // --- shared memory and barriers --------------------------------------------
  /// The most bytes a layout conversion stages at once (larger tiles move
  /// in parts where their layouts allow).
  static constexpr int64_t kConversionChunkBytes = 32 * 1024;
  /// A barrier of every thread of the program (of the consumer warps in a
  /// warp-specialized one). A pending TMA store's reads of the staging
  /// area are waited for first (bulkReadsPending), unless `staging` is
  /// false: the barrier then orders only what lies apart from the area (the
  /// pipeliner's slots while they are live, a program's tl.debug_barrier),
  /// and the wait is left to the next barrier that may precede a write
  /// there. Waiting costs more than the store: thread 0's wait also drains
  /// its cp.async groups, so a loop that waited at each slot barrier ran
  /// its copies one stage deep.
  void barrier(bool staging = true);
  /// The barrier before a write to the staging area: emitted only when
  /// some thread may have accessed the area since the last barrier
  /// (stagingTouched) on some path here.
  void barrierBeforeStaging() {
    if (stagingTouched || bulkReadsPending)
      barrier();
  }
  /// Whether a TMA store (emitTmaStore) may still be reading the staging
  /// area: its issuing thread (thread 0) waits for the reads at the next
  /// barrier, before any thread can write the area again. Set where such a
  /// store is issued, and at the entry of loops that hold one (the previous
  /// iteration's may be pending); an scf.if merges its branches', a loop's
  /// exit its entry's and its body's end.
  bool bulkReadsPending = false;
  /// The block stores TMA makes (emitTmaStore).
  llvm::SmallPtrSet<mlir::Operation *, 4> tmaStores;
  /// Whether `op` is or holds one of them.
  bool holdsTmaStore(mlir::Operation *op) const {
    return llvm::any_of(tmaStores, [&](mlir::Operation *s) { return op->isAncestor(s); });
  }
  /// Thread 0 waits until its TMA stores have read shared memory.
  void waitTmaStoreReads();
  /// Whether some thread may have read or written the staging area since
  /// the last barrier. Set by the staging helpers (storeToShared,
  /// loadFromShared, storeToSharedLayout), after every op not known to
  /// leave the area alone (stagingUntouchedBy), at loop entries and exits,
  /// and where the buffers stop being live (the area then overlaps them);
  /// cleared by a barrier; an scf.if merges its branches'.
  bool stagingTouched = true;
  /// Pointer to element `index` of type `ty` in the staging area, after
  /// `byteOffset` bytes; reserves the bytes it may touch.
  llvm::Value *sharedPtr(llvm::Type *ty, llvm::Value *index,
                         unsigned byteOffset = 0);
  void reserveShared(unsigned bytes) {
    sharedBytes = std::max(sharedBytes, scratchStart() + bytes);
  }
  /// Pointer `byteOffset` (i32) bytes into shared memory, below the staging
  /// area (where the asynchronous slots live).
  llvm::Value *sharedBytePtr(llvm::Value *byteOffset);

  /// The slots of one shared buffer filled by tgpu.async_copy, at the start
  /// of shared memory, each holding one tile in `layout` (swizzled where
  /// the tile allows, so that tensor cores read it without bank conflicts).
  struct SharedBuffer {
    unsigned offset = 0, slotBytes = 0;
    SharedLayout layout;
    /// The slot holds the tile transposed ([cols, rows] in `layout`): a
    /// tile contiguous along its rows in global memory (a column-major
    /// operand) is copied in 16-byte runs and read by the products as the
    /// transposed operand they take natively.
    bool transposed = false;
  };
  std::map<int64_t, SharedBuffer> sharedBuffers;
  /// Whether the slots `copy` fills hold its tile transposed.
  bool storeTransposed(mlir::tgpu::AsyncCopyOp copy);
  unsigned scratchBase = 0; ///< bytes taken by sharedBuffers
  /// The buffers are live from the first copy into them to the last op of
  /// the kernel's body that uses them; meanwhile the staging area sits
  /// after them, otherwise it overlaps them.
  bool buffersLive = false;
  unsigned scratchStart() const { return buffersLive ? scratchBase : 0; }
  /// A tgpu.shared_load read in place by its users (tensor-core products),
  /// or its transpose: the byte offset (i32) where the stored tile starts,
  /// its layout there, and whether the value is the stored tile transposed.
  struct SharedTile {
    llvm::Value *byteOffset;
    SharedLayout layout;
    bool transposed = false;
  };
  /// Byte offset (i32) of element (row, col) of a tile in `layout`,
  /// relative to where the tile starts.
  llvm::Value *sharedOffset(const SharedLayout &layout, llvm::Value *row, llvm::Value *col);
  /// Byte offset (i32) of register `reg`'s element of a tile in `from`
  /// stored in `layout` (rows: the leading dimensions; `transposed`: a 2-D
  /// tile stored [cols, rows]), relative to where the tile starts.
  llvm::Value *elementOffset(const SharedLayout &layout, const LinearLayout &from,
                             unsigned reg, bool transposed = false);
  /// Writes the registers of `src` (a 2-D tile, or rows of leading
  /// dimensions) into shared memory at `byteOffset` bytes past the start
  /// of shared memory, in `layout` (runs of up to 16 bytes per store).
  void storeToSharedLayout(const Lowered &src, llvm::Type *ty, const SharedLayout &layout,
                           llvm::Value *byteOffset);
  llvm::DenseMap<mlir::Value, SharedTile> sharedTiles;
  /// Byte offset in shared memory of each ring of mbarriers
  /// (tgpu.mbarrier_init), 8 bytes per slot, after the buffers.
  std::map<int64_t, unsigned> barrierRings;
  /// Tensor descriptors whose blocks TMA copies: each one's tensor map is
  /// 128 bytes at index * 128 in this program's part of the kernel's
  /// global scratch memory, and once made, its generic address (i64).
  llvm::DenseMap<mlir::Value, unsigned> tensorMapIndex;
  llvm::DenseMap<mlir::Value, llvm::Value *> tensorMaps;
  /// This program's part of the global scratch memory (a global pointer;
  /// the kernel's last parameter is the whole of it, globalScratchBytes per
  /// program in launch order), or null when the kernel needs none.
  llvm::Value *globalScratch = nullptr;
  unsigned globalScratchBytes = 0;
  llvm::Value *loadShared(llvm::Type *ty, llvm::Value *ptr);
  void storeShared(llvm::Value *v, llvm::Value *ptr);
  /// Emits `body` in a block that runs only where `cond` holds (no barrier
  /// may be inside: the branch can diverge).
  void guarded(llvm::Value *cond, const std::function<void()> &body,
               const llvm::Twine &name = "guarded");
  /// Broadcast a value computed by one thread to all (through shared memory).
  llvm::Value *broadcastFromThread0(llvm::Value *v);

  // --- nested regions (reduce/scan combiners, map_elementwise) ----------------
  /// Emits the scalar body of `region` with its arguments bound to `args`
  /// and returns the values its terminator yields.
  mlir::FailureOr<std::vector<llvm::Value *>>
  emitScalarRegion(mlir::Region &region, llvm::ArrayRef<llvm::Value *> args);

  mlir::LogicalResult emitBlock(mlir::Block &block);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult fail(mlir::Operation *op, const llvm::Twine &msg);

  /// Set when TRITIUM_CHECK_LAYOUTS is: a handler produced a value in
  /// another layout than its type's encoding (each is reported on stderr
  /// and the value converted).
  unsigned layoutMismatches = 0;

private:
  llvm::DenseMap<mlir::Value, Lowered> values_;
  llvm::DenseMap<mlir::Type, LayoutRef> assigned_;
  HandlerTable handlers_;
  llvm::Value *tid_ = nullptr, *lane_ = nullptr, *warp_ = nullptr;
  llvm::GlobalVariable *smem_ = nullptr;
  llvm::Function *barrierFn_ = nullptr; ///< what a barrier calls
  std::vector<llvm::Value *> scalarArgs_;
  /// The lane and warp part of coord(), per set of lane/warp bases of one
  /// dimension: reused while it dominates the insertion point.
  struct HwCoord {
    llvm::Value *value;
    uint64_t usedBits;
    bool disjoint;
  };
  struct CachedHwCoord {
    llvm::WeakVH value; ///< null once erased
    uint64_t usedBits;
    bool disjoint;
  };
  std::map<std::vector<int64_t>, CachedHwCoord> hwCoords_;
  HwCoord hwCoord(const LinearLayout &l, unsigned dim);

  /// Loop-carried values take the layouts of the loop's block arguments.
  mlir::LogicalResult emitFor(mlir::Operation *op);
  mlir::LogicalResult emitIf(mlir::Operation *op);
  mlir::LogicalResult emitOpOnly(mlir::Operation *op);
  /// The last op of the kernel's body using the shared buffers.
  mlir::Operation *lastBufferOp_ = nullptr;
  mlir::LogicalResult emitWhile(mlir::Operation *op);
  /// Lays out the slots of the kernel's shared buffers and places them and
  /// the mbarrier rings in shared memory (SharedBuffers.cpp); finds
  /// lastBufferOp_.
  void placeSharedBuffers(mlir::Operation *func);
  mlir::FailureOr<std::vector<llvm::Value *>>
  tryRematerialize(mlir::Value v, const LinearLayout &to, int depth);
  std::vector<llvm::Value *> flatten(llvm::ArrayRef<mlir::Value> vs,
                                     llvm::ArrayRef<LayoutRef> layouts);
};

/// fp8 <-> wider float conversions of one register (Fp8ToLLVM.cpp): `x`
/// holds the bits of `srcType` (fp8 formats travel as i8); returns the value
/// as `dstType`, or null when the pair is not supported. The first
/// kFp8InlineConversions of a kernel are emitted in place; each further one
/// calls a helper function of the module holding the same IR (one per
/// source, destination and rounding), so that a kernel converting
/// thousands of registers (an fp8 reduction whose every step rounds) stays
/// small enough for LLVM's code generation.
constexpr unsigned kFp8InlineConversions = 256;
llvm::Value *emitFp8Convert(Lowering &L, llvm::Value *x, mlir::Type srcType,
                            mlir::Type dstType, bool roundTowardZero);

/// A call of libdevice's function `name` (`__nv_sinf`...) on `args`,
/// returning `rt`; on AMD ROCm's ocml function for it (`__ocml_sin_f32`)
/// where the values are all fp32 or all fp64, and libdevice's integer and
/// predicate functions as LLVM IR (LibdeviceToLLVM.cpp).
llvm::Value *callMathLibrary(Lowering &L, llvm::StringRef name,
                             llvm::ArrayRef<llvm::Value *> args, llvm::Type *rt);

/// True when `dot` (a tile.dot) runs on tensor cores (mma.sync) for this
/// compute capability and warp count (DotToLLVM.cpp).
bool dotUsesMma(mlir::Operation *dot, unsigned computeCapability, unsigned numWarps);
/// Whether a product runs on AMD's MFMA (fp16 or bf16 operands and an fp32
/// accumulator, int8 and an int32 one, or fp8 in the target's formats and
/// an fp32 one; 2-D, every wave a block of its own): v_mfma_*_32x32xK
/// where 32x32 blocks allow that, else 16x16xK. The block size (32, 16; 0:
/// no MFMA) and the waves over (M, N) it takes. `amdArch`: "gfx942".
struct MfmaShape {
  unsigned block = 0, wm = 1, wn = 1;
};
MfmaShape dotMfmaShape(mlir::Operation *dot, unsigned numWarps, llvm::StringRef amdArch);
/// Lowers a product dotMfmaShape gives `shape` (amd/MfmaToLLVM.cpp).
mlir::LogicalResult dotMfma(Lowering &L, mlir::Operation *dot, MfmaShape shape);
/// True when `dot` runs on Hopper's warpgroup MMA (wgmma, sm_90a) for this
/// compute capability and warp count (nvidia/WgmmaToLLVM.cpp): a
/// tgpu.wgmma, or a tile.dot that becomes one; such a tile.dot also
/// satisfies dotUsesMma.
bool dotUsesWgmma(mlir::Operation *dot, unsigned computeCapability, unsigned numWarps);
/// Warps over (M, N) of a tensor-core product's accumulator: (wm, wn) of
/// mma.sync, (4 * warpgroups along M, warpgroups along N) of wgmma.
std::pair<unsigned, unsigned> dotMmaWarps(mlir::tile::DotOp dot, unsigned numWarps,
                                          unsigned computeCapability);
/// Warps over the batch of a batched (3-D) mma.sync product: up to one a
/// batch entry (dotMmaWarps shares the rest over M and N); 1 for 2-D.
unsigned dotBatchWarps(mlir::tile::DotOp dot, unsigned numWarps);
/// The accumulator layout of an mma.sync product with `wb` batch warps
/// (3-D) and `wm` x `wn` warps over (M, N).
LinearLayout mmaProductLayout(mlir::tile::DotOp dot, unsigned wb, unsigned wm, unsigned wn);
/// Warpgroups over (M, N) of a wgmma product (nvidia/WgmmaToLLVM.cpp).
std::pair<unsigned, unsigned> wgmmaWarpgroups(int64_t M, int64_t N, unsigned numWarps);
/// The warps of a product whose result type carries a #tgpu.mma encoding
/// (the layout assignment's choice), else dotMmaWarps.
std::pair<unsigned, unsigned> assignedMmaWarps(mlir::tile::DotOp dot, unsigned numWarps,
                                               unsigned computeCapability);
/// The batch warps of a product (its #tgpu.mma encoding's, else
/// dotBatchWarps).
unsigned assignedBatchWarps(mlir::tile::DotOp dot, unsigned numWarps);
/// Whether a wgmma product of `a` and `b` reads both where they lie: B
/// (and A) a shared tile in the form the instruction reads, or A in the
/// registers of its A fragment; otherwise tgpu-stage-operands stages them
/// (into the staging area, which the next product rewrites).
bool wgmmaReadsOperandsInPlace(mlir::Value a, mlir::Value b, unsigned numWarps);
/// The form a product's operand is staged in when the product cannot read
/// it where it lies: swizzled rows (`swizzle` bytes), or row-major with
/// `pad` elements after each row; `transposed`: stored [cols, rows].
struct OperandStaging {
  unsigned swizzle; ///< 0 and pad 0: no form the product reads holds the tile
  unsigned pad;
  bool transposed;
};
/// How operand `operand` (0: A, 1: B) of a wgmma product of `a` and `b`
/// is staged; std::nullopt: read in place (transforms/StageOperands.cpp
/// stages the others with tgpu.local_alloc).
std::optional<OperandStaging> wgmmaOperandStaging(mlir::Value a, mlir::Value b, unsigned operand,
                                                  unsigned numWarps);
/// The same for a tile.dot on mma.sync over 16-bit floats (read with
/// ldmatrix, from swizzled rows where the tile's shape has them, else rows
/// padded by 8 elements); std::nullopt also for products that stage
/// nothing through a tgpu.local_alloc (DotToLLVM.cpp).
std::optional<OperandStaging> mmaOperandStaging(mlir::tile::DotOp dot, unsigned operand,
                                                unsigned computeCapability, unsigned numWarps);
/// The layout a tgpu.local_alloc result of type `t` (a #tgpu.shared
/// encoding) is stored in (SharedToLLVM.cpp).
SharedLayout localAllocLayout(mlir::RankedTensorType t);
/// Whether `v` (a product's operand) is a tile tgpu.local_alloc wrote into
/// the staging area (or its transpose).
bool isStagedTile(mlir::Value v);
/// wgmma.wait_group `pending` with `regs` (accumulator registers) passed
/// through it; returns them as the wait hands them back.
std::vector<llvm::Value *> emitWgmmaWait(Lowering &L, unsigned pending,
                                         llvm::ArrayRef<llvm::Value *> regs);
/// True when every use of `v` (a 16-bit float tile) can read it in place
/// from shared memory: as operand A or B of a tensor-core product (or of
/// an FMA product of float tiles on sm_80+), or transposed (one
/// tile.trans) as operand B.
bool tensorCoresReadInPlace(mlir::Value v, unsigned computeCapability, unsigned numWarps);
/// Whether `v` has readers and `pred` holds for each (a tile.trans's
/// readers taken in its place).
bool everyReader(mlir::Value v, llvm::function_ref<bool(mlir::Operation *)> pred);
/// Whether only FMA products (reading their slots in place) read `v`.
bool onlyFmaProductsRead(mlir::Value v, unsigned computeCapability, unsigned numWarps);
/// The layout of a slot cp.async fills with a `rows` x `cols` tile of
/// `elemBytes`-byte elements (stored [cols, rows] when `transposed`) that
/// `read` (the tile read from the slot, or the load it replaces) holds.
SharedLayout copySlotLayout(mlir::Value read, int64_t rows, int64_t cols, unsigned elemBytes,
                            bool transposed, unsigned computeCapability, unsigned numWarps);

/// Whether the slots `copy` fills hold its tile transposed (a tile
/// contiguous along its rows in global memory; 8-bit wgmma operands as the
/// product reads them) (SharedBuffers.cpp).
bool copyStoresTransposed(mlir::tgpu::AsyncCopyOp copy, unsigned computeCapability,
                          unsigned numWarps, const VectorWidthFn &vectorWidth);

/// The ops lowered one register at a time (ElementwiseToLLVM.cpp).
bool isElementwiseOpName(llvm::StringRef name);

/// The layout tile.sort works in for a source in `src` (`def`: the default
/// layout of its type), and whether it sorts across lanes and warps (true)
/// or within each thread's registers (SortToLLVM.cpp); none when no layout
/// keeps the axis in registers.
std::optional<std::pair<LinearLayout, bool>> sortLayout(const LinearLayout &src,
                                                        const LinearLayout &def,
                                                        unsigned axis, unsigned numWarps,
                                                        unsigned lanes);

/// Makes the tensor map of `op` (a descriptor in tensorMapIndex) in global
/// scratch memory (nvidia/TmaToLLVM.cpp).
mlir::LogicalResult emitTensorMap(Lowering &L, mlir::tile::MakeTensorDescOp op);
/// Whether `store` (a tile.descriptor_store) goes through TMA on compute
/// capability `cc`: sm_90, a 2-D block of a descriptor this kernel makes
/// whose block has a swizzled shared layout (nvidia/TmaToLLVM.cpp).
bool descriptorStoreUsesTma(mlir::Operation *store, unsigned cc);
/// Lowers such a store: the block into shared memory, then one thread's
/// bulk tensor copies to global memory (nvidia/TmaToLLVM.cpp).
mlir::LogicalResult emitTmaStore(Lowering &L, mlir::tile::DescriptorStoreOp op);

/// Per-register helpers for elementwise handlers.
llvm::Value *emitScalarElementwise(Lowering &L, mlir::Operation *op,
                                   llvm::ArrayRef<llvm::Value *> operands);


} // namespace tritium::codegen

#endif

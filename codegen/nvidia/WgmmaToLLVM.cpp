//===- WgmmaToLLVM.cpp - tl.dot on Hopper's warpgroup MMA (sm_90a) --------===//
//
// wgmma.mma_async.m64nNk16 for fp16/bf16 operands with an fp32 (or, for
// fp16, an fp16) accumulator, and m64nNk32 for fp8 (e4m3/e5m2, each side its
// own) with an fp32 one; fp8 operands are read K-major only (a slot holding
// the other form is read back and staged). Each warpgroup (four warps) owns m64 steps of
// the accumulator (wgmmaAccumulator): warpgroups go along M first, then
// split N into contiguous parts.
//
// Operands are read from shared memory through matrix descriptors: the
// tile sits in its swizzled SharedLayout (column blocks of S = 32, 64 or
// 128 bytes, 8-row atoms of 8 * S bytes). A tile whose contiguous axis is K
// ("K-major": A as [M, K], B stored [N, K] and used through tl.trans) is
// read with the stride byte offset (SBO) of one atom, 8 * S; one whose
// contiguous axis is M or N ("MN-major": B as [K, N], A stored [K, M]) is
// read transposed (imm-trans), with SBO = 8 * S between 8-row groups of K
// and the leading byte offset (LBO) between column blocks. Slots of the
// software pipeliner are read in place; other operands were stored into
// the staging area in the same form by a tgpu.local_alloc
// (transforms/StageOperands.cpp; its proxy fence makes those generic
// writes visible to the tensor cores). Operand A that is already in the
// registers of mma's A fragment (a chained product: attention's P @ V)
// stays in registers.
//
// A tgpu.wgmma is one wgmma group, emitted as one asm statement: fence,
// the k steps, commit (one statement keeps the IR small: the accumulator's
// registers are extracted once per group, not once per step). A
// tgpu.wgmma_wait (placed by transforms/WgmmaGroups.cpp) ties the
// accumulator registers through wgmma.wait_group so that nothing reads them
// before their group is done.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"
#include "codegen/dialect/GpuDialect.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/IR/InlineAsm.h"

#include <array>
#include <map>

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

/// Warpgroups over (M, N): M first, in m64 steps.
struct WgmmaShape {
  unsigned wgM = 1, wgN = 1;
  int64_t perGroupN = 0, instrN = 0;
};

std::optional<WgmmaShape> wgmmaShape(int64_t M, int64_t N, unsigned numWarps) {
  if (numWarps % 4 || M % 64)
    return std::nullopt;
  WgmmaShape s;
  unsigned groups = numWarps / 4;
  while (s.wgM * 2 <= groups && M / (64 * s.wgM * 2) >= 1)
    s.wgM *= 2;
  s.wgN = groups / s.wgM;
  s.perGroupN = N / s.wgN;
  if (N % s.wgN || s.perGroupN % 16)
    return std::nullopt;
  s.instrN = std::min<int64_t>(256, s.perGroupN);
  if (s.perGroupN % s.instrN)
    return std::nullopt;
  return s;
}

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The layout of a product's operand tile stored [rows, cols], as the
/// pipeliner's slots and the staging here lay it out.
std::optional<SharedLayout> operandLayout(int64_t rows, int64_t cols, unsigned eb = 2) {
  auto s = SharedLayout::swizzleFor(rows, cols, eb);
  if (!s)
    return std::nullopt;
  return SharedLayout::swizzled(rows, cols, eb, *s);
}

/// The wgmma name of an fp8 operand type, or null.
const char *fp8Name(Type t) {
  return isa<Float8E4M3FNType>(t) ? "e4m3" : isa<Float8E5M2Type>(t) ? "e5m2" : nullptr;
}

/// Whether wgmma reads operands of type `t` K-major only (no transposed
/// form): fp8, int8, and fp32 read as tf32.
bool kMajorOnly(Type t) { return fp8Name(t) || t.isInteger(8) || t.isF32(); }

/// Bytes of an operand element of a wgmma product.
unsigned operandBytes(Type t) {
  return fp8Name(t) || t.isInteger(8) ? 1 : t.isF32() ? 4 : 2;
}

/// Descriptor mode bits (62-63) of a swizzle width.
uint64_t swizzleMode(unsigned bytes) {
  return bytes == 128 ? 1 : bytes == 64 ? 2 : bytes == 32 ? 3 : 0;
}

/// One operand of the product in shared memory: where its stored tile
/// starts (i32 bytes), its layout, and whether the stored tile's
/// contiguous axis is K.
struct SharedOperand {
  llvm::Value *base;
  SharedLayout layout;
  bool kMajor;
};

} // namespace

std::pair<unsigned, unsigned> tritium::codegen::wgmmaWarpgroups(int64_t M, int64_t N,
                                                               unsigned numWarps) {
  auto s = wgmmaShape(M, N, numWarps);
  return s ? std::make_pair(s->wgM, s->wgN) : std::make_pair(1u, 1u);
}


std::vector<llvm::Value *> tritium::codegen::emitWgmmaWait(Lowering &L, unsigned pending,
                                                           llvm::ArrayRef<llvm::Value *> regs) {
  auto &b = L.b;
  // Every register goes through the wait, so that no use of the results
  // moves above it. 16-bit ones go in pairs, as the 32-bit registers the
  // products wrote (an fp16 accumulator's consecutive elements): unpacked
  // before the wait, a pair would be read while its product is in flight,
  // and ptxas would serialize every wgmma of the kernel (C7514).
  std::vector<llvm::Type *> tys;
  std::vector<llvm::Value *> in;
  std::vector<unsigned> width; // registers of `regs` per input
  std::string c;
  auto is16 = [](llvm::Type *t) { return t->isHalfTy() || t->isBFloatTy(); };
  for (size_t i = 0; i < regs.size();) {
    llvm::Value *r = regs[i];
    llvm::Type *t = r->getType();
    unsigned w = 1;
    if (is16(t) && i + 1 < regs.size() && regs[i + 1]->getType() == t) {
      llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(t, 2));
      v = b.CreateInsertElement(v, r, uint64_t(0));
      v = b.CreateInsertElement(v, regs[i + 1], uint64_t(1));
      r = b.CreateBitCast(v, b.getInt32Ty());
      c += c.empty() ? "=r" : ",=r";
      w = 2;
    } else if (is16(t)) {
      r = b.CreateBitCast(r, b.getInt16Ty());
      c += c.empty() ? "=h" : ",=h";
    } else {
      c += c.empty() ? (t->isFloatTy() ? "=f" : "=r") : (t->isFloatTy() ? ",=f" : ",=r");
    }
    tys.push_back(r->getType());
    in.push_back(r);
    width.push_back(w);
    i += w;
  }
  for (unsigned i = 0; i < in.size(); ++i)
    c += "," + std::to_string(i);
  std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  if (in.empty()) {
    b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), {}, false), text,
                                      "", true),
                 {});
    return {};
  }
  auto *st = llvm::StructType::get(L.ctx, tys);
  llvm::Value *res =
      b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(st, tys, false), text, c, true),
                   in);
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < in.size(); ++i) {
    llvm::Value *r = b.CreateExtractValue(res, i);
    llvm::Type *t = regs[out.size()]->getType();
    if (width[i] == 2) {
      llvm::Value *v = b.CreateBitCast(r, llvm::FixedVectorType::get(t, 2));
      out.push_back(b.CreateExtractElement(v, uint64_t(0)));
      out.push_back(b.CreateExtractElement(v, uint64_t(1)));
      continue;
    }
    out.push_back(r->getType() == t ? r : b.CreateBitCast(r, t));
  }
  return out;
}

bool tritium::codegen::dotUsesWgmma(Operation *o, unsigned computeCapability,
                                    unsigned numWarps) {
  if (isa<tgpu::WgmmaOp>(o))
    return true;
  auto op = dyn_cast<tile::DotOp>(o);
  if (!op || computeCapability != 90)
    return false;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto bT = cast<RankedTensorType>(op.getB().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  if (cT.getRank() != 2)
    return false;
  Type ae = aT.getElementType(), be = bT.getElementType(), ce = cT.getElementType();
  int64_t M = cT.getShape()[0], N = cT.getShape()[1], K = aT.getShape()[1];
  if (!isPow2(M) || !isPow2(N) || !isPow2(K))
    return false;
  auto shape = wgmmaShape(M, N, numWarps);
  if (!shape)
    return false;
  if (fp8Name(ae) && fp8Name(be)) {
    // k32 steps, both operands K-major: A as [M, K], B stored [N, K].
    return ce.isF32() && K % 32 == 0 && operandLayout(M, K, 1) && operandLayout(N, K, 1);
  }
  if (ae.isF32() && be.isF32()) {
    // tf32: k8 steps, both operands K-major, as fp8's (a B that runs along
    // N in memory is copied transposed, in 4 x 4 blocks through registers).
    return ce.isF32() && op.getInputPrecision() == tile::InputPrecision::TF32 && K % 8 == 0 &&
           operandLayout(M, K, 4) && operandLayout(N, K, 4);
  }
  if (ae.isInteger(8) && be.isInteger(8)) {
    // s8: k32 steps into s32, both operands K-major, as fp8's.
    return ce.isInteger(32) && K % 32 == 0 && operandLayout(M, K, 1) && operandLayout(N, K, 1);
  }
  bool f16 = ae.isF16() && be.isF16(), bf16 = ae.isBF16() && be.isBF16();
  if (!(f16 || bf16) || !(ce.isF32() || (f16 && ce.isF16())) || K % 16)
    return false;
  // Every operand tile must be swizzle-able in the form it may be stored:
  // [M, K] or [K, M] for A, [K, N] or [N, K] for B. An MN-major B's part
  // per warpgroup starts on a column block.
  auto bl = operandLayout(K, N);
  if (!operandLayout(M, K) || !operandLayout(K, M) || !bl || !operandLayout(N, K))
    return false;
  return shape->perGroupN % bl->blockCols() == 0 || shape->wgN == 1;
}

namespace {

/// Registers per thread of the accumulators of the other products in
/// `op`'s loop body whose results the loop carries to its next iteration
/// (directly, or through their wait).
int64_t carriedAccumulatorRegs(tgpu::WgmmaOp op, unsigned numWarps) {
  Block *body = op->getBlock();
  if (!isa_and_nonnull<scf::ForOp, scf::WhileOp>(op->getParentOp()))
    return 0;
  Operation *yield = body->getTerminator();
  auto yielded = [&](Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *u) { return u == yield; });
  };
  int64_t regs = 0;
  for (auto other : body->getOps<tgpu::WgmmaOp>()) {
    if (other == op)
      continue;
    Value r = other.getResult();
    bool carried = yielded(r);
    for (Operation *u : r.getUsers())
      if (auto w = dyn_cast<tgpu::WgmmaWaitOp>(u))
        for (Value x : w.getResults())
          carried |= yielded(x);
    if (!carried)
      continue;
    auto t = cast<RankedTensorType>(r.getType());
    regs += t.getNumElements() / (32 * int64_t(numWarps)) / (t.getElementType().isF16() ? 2 : 1);
  }
  return regs;
}

/// Whether operand `operand` (0: A, 1: B) of a wgmma product of `a` and
/// `b` is read where it lies: a shared tile in a form the instruction
/// reads (8-bit and tf32 operands K-major only), or A in the registers of
/// its A fragment (16-bit operands).
bool operandInPlace(Value a, Value b, unsigned operand, unsigned numWarps) {
  auto aT = cast<RankedTensorType>(a.getType()), bT = cast<RankedTensorType>(b.getType());
  bool eight = kMajorOnly(aT.getElementType());
  RankedTensorType t = operand ? bT : aT;
  if (auto s = dyn_cast_or_null<tgpu::SharedEncodingAttr>(t.getEncoding()))
    return !eight || s.getTransposed() == (operand == 1);
  if (operand == 1 || eight)
    return false;
  int64_t M = aT.getShape()[0], K = aT.getShape()[1], N = bT.getShape()[1];
  auto ws = wgmmaShape(M, N, numWarps);
  auto al = tgpu::toLinearLayout(aT.getEncoding(), aT.getShape());
  return ws && al &&
         LinearLayout::threadLocalMap(*al, LinearLayout::mmaOperandA(M, K, 4 * ws->wgM, ws->wgN));
}

} // namespace

bool tritium::codegen::wgmmaReadsOperandsInPlace(Value a, Value b, unsigned numWarps) {
  return operandInPlace(a, b, 0, numWarps) && operandInPlace(a, b, 1, numWarps);
}

std::optional<OperandStaging> tritium::codegen::wgmmaOperandStaging(Value a, Value b,
                                                                   unsigned operand,
                                                                   unsigned numWarps) {
  if (operandInPlace(a, b, operand, numWarps))
    return std::nullopt;
  auto aT = cast<RankedTensorType>(a.getType()), bT = cast<RankedTensorType>(b.getType());
  bool eight = kMajorOnly(aT.getElementType());
  unsigned eb = operandBytes(aT.getElementType());
  int64_t M = aT.getShape()[0], K = aT.getShape()[1], N = bT.getShape()[1];
  // A as [M, K] (K-major); B as [K, N] (MN-major), or stored [N, K] when
  // 8-bit or tf32 (K-major only). Products dotUsesWgmma accepts swizzle
  // each form.
  bool transposed = operand == 1 && eight;
  auto l = operand == 0 ? operandLayout(M, K, eb)
                        : eight ? operandLayout(N, K, eb) : operandLayout(K, N, eb);
  return OperandStaging{l ? l->swizzleBytes : 0, 0, transposed};
}

bool tritium::codegen::isStagedTile(Value v) {
  if (auto t = v.getDefiningOp<tile::TransOp>())
    v = t.getSrc();
  return v.getDefiningOp<tgpu::LocalAllocOp>() != nullptr;
}

namespace {

LogicalResult wgmmaGroup(Lowering &L, Operation *o) {
  auto op = cast<tgpu::WgmmaOp>(o);
  auto &b = L.b;
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  int64_t M = cT.getShape()[0], N = cT.getShape()[1], K = aT.getShape()[1];
  WgmmaShape ws = *wgmmaShape(M, N, L.numWarps);
  Type ae = aT.getElementType();
  Type be = cast<RankedTensorType>(op.getB().getType()).getElementType();
  bool bf16 = ae.isBF16();
  // fp8 and int8 (k32 steps) and tf32 (k8): both operands K-major; 32
  // bytes of K a step.
  bool eight = kMajorOnly(ae);
  bool tf32 = ae.isF32(), s8 = ae.isInteger(8);
  int64_t kStep = 32 / operandBytes(ae);
  bool f16Acc = cT.getElementType().isF16();
  bool s32Acc = cT.getElementType().isInteger(32);
  llvm::Type *et = eight ? b.getInt8Ty() : bf16 ? b.getBFloatTy() : b.getHalfTy();
  auto *i32 = b.getInt32Ty();
  auto *i64 = b.getInt64Ty();
  LayoutRef lc = L.share(LinearLayout::wgmmaAccumulator(M, N, ws.wgM, ws.wgN));

  // Operand A in the registers of mma's A fragment stays there; the rest
  // lie in shared memory, in a pipeliner's slot or staged
  // (tgpu.local_alloc).
  std::vector<llvm::Value *> aRegs;
  auto aTile = L.sharedTiles.find(op.getA());
  auto bTile = L.sharedTiles.find(op.getB());
  if (aTile == L.sharedTiles.end() && !eight) {
    Lowered &av = L.get(op.getA());
    if (auto map = LinearLayout::threadLocalMap(
            *av.layout, LinearLayout::mmaOperandA(M, K, 4 * ws.wgM, ws.wgN)))
      for (unsigned r : *map)
        aRegs.push_back(av.regs[r]);
  }
  if ((aRegs.empty() && aTile == L.sharedTiles.end()) || bTile == L.sharedTiles.end() ||
      (eight && (aTile->second.transposed || !bTile->second.transposed)))
    return L.fail(op, "internal error: a wgmma operand is neither in shared memory in the form "
                      "the instruction reads nor in registers of its A fragment (not staged)");
  Value zeroWhen = op.getZeroIf();
  std::vector<llvm::Value *> acc = L.convert(op.getC(), *lc);
  // The instruction's accumulate predicate in the first k step: 0 where
  // the accumulator restarts.
  llvm::Value *accumulate = L.i32(1);
  if (zeroWhen)
    accumulate = b.CreateZExt(b.CreateNot(L.scalar(zeroWhen)), i32);
  // Staged operands: every thread's writes (each fenced for the async
  // proxy by its local_alloc) are done.
  if (isStagedTile(op.getA()) || isStagedTile(op.getB()))
    L.barrier();

  SharedOperand a{nullptr, {}, true}, bo{nullptr, {}, false};
  if (aRegs.empty()) // [M, K] (K-major) or, transposed, [K, M]
    a = {aTile->second.byteOffset, aTile->second.layout, !aTile->second.transposed};
  // [K, N] (MN-major) or, through tl.trans, [N, K]
  bo = {bTile->second.byteOffset, bTile->second.layout, bTile->second.transposed};
  for (SharedOperand *s : {&a, &bo})
    if (s->base && !s->layout.isSwizzled())
      return L.fail(op, "internal error: wgmma operand in an unswizzled shared tile");

  // Warpgroup coordinates.
  llvm::Value *wg = b.CreateLShr(L.warpId(), 2);
  llvm::Value *wgM = b.CreateAnd(wg, L.i32(ws.wgM - 1));
  llvm::Value *wgN = b.CreateLShr(wg, llvm::Log2_32(ws.wgM));

  // The descriptor of a tile whose element (0, 0) is `byteOffset` (i32)
  // bytes into shared memory; the k steps add constants to it.
  auto descriptor = [&](const SharedOperand &s, llvm::Value *byteOffset) {
    unsigned S = s.layout.swizzleBytes;
    uint64_t sbo = 8 * S, lbo = s.kMajor ? 0 : uint64_t(s.layout.blockBytes());
    uint64_t fields = ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32 |
                      swizzleMode(S) << 62;
    llvm::Value *addr = b.CreatePtrToInt(L.sharedBytePtr(byteOffset), i64);
    llvm::Value *start = b.CreateAnd(b.CreateLShr(addr, 4), llvm::ConstantInt::get(i64, 0x3fff));
    return b.CreateOr(start, llvm::ConstantInt::get(i64, fields));
  };
  // Base descriptors: A at this warpgroup's first row, B at its first
  // column (the per-step offsets below are constants).
  llvm::Value *aDesc = nullptr, *bDesc;
  if (a.base) {
    // K-major [M, K]: rows are m (S bytes apart within a block). MN-major
    // [K, M]: m runs along columns; the warpgroup's first m is a multiple of
    // 64, which starts a column block when S = 128, or whole blocks.
    llvm::Value *m0 = b.CreateMul(wgM, L.i32(64));
    llvm::Value *off = a.kMajor
                           ? b.CreateMul(m0, L.i32(a.layout.swizzleBytes))
                           : b.CreateMul(b.CreateUDiv(m0, L.i32(a.layout.blockCols())),
                                         L.i32(a.layout.blockBytes()));
    aDesc = descriptor(a, b.CreateAdd(a.base, off));
  }
  {
    llvm::Value *n0 = b.CreateMul(wgN, L.i32(ws.perGroupN));
    llvm::Value *off = bo.kMajor
                           ? b.CreateMul(n0, L.i32(bo.layout.swizzleBytes))
                           : b.CreateMul(b.CreateUDiv(n0, L.i32(bo.layout.blockCols())),
                                         L.i32(bo.layout.blockBytes()));
    bDesc = descriptor(bo, b.CreateAdd(bo.base, off));
  }
  // Constant bytes from the warpgroup's base to (row, col) of a stored
  // tile, for row a multiple of 8 and col a multiple of 16 bytes' worth:
  // there the swizzle changes nothing.
  auto stepBytes = [](const SharedOperand &s, int64_t row, int64_t col) {
    return s.layout.byteOffset(row, col);
  };
  // Each step's descriptor is its operand's base descriptor plus a
  // constant, added inside the asm statement: only the two bases are
  // values of the program, so a loop keeps two registers live for them
  // rather than hoisting one 64-bit descriptor per step out of it (where
  // ptxas keeps them in vector registers and spills them around the loop's
  // products); ptxas does the additions on the uniform datapath.
  std::string stepDescs;
  unsigned stepDescCount = 0;
  std::map<std::pair<std::string, int64_t>, std::string> stepDescNames;
  auto plus = [&](const std::string &base, int64_t bytes) -> std::string {
    if (!bytes)
      return base;
    std::string &name = stepDescNames[{base, bytes}];
    if (!name.empty())
      return name;
    name = "d" + std::to_string(stepDescCount++);
    stepDescs += "add.s64 " + name + ", " + base + ", " + std::to_string(uint64_t(bytes) >> 4) +
                 ";\n";
    return name;
  };

  // The group is one asm statement: the fence, every step, the commit.
  // Its outputs are the accumulator's registers (fp16 pairs packed), tied
  // to the inputs after them; the base descriptors (A's only when A is in
  // shared memory) come first among the inputs, then each step's A
  // registers when A is in registers, then the first step's accumulate
  // flag and a 1 for the later steps.
  unsigned accRegs = unsigned(f16Acc ? ws.instrN / 4 : ws.instrN / 2);
  bool aInRegs = !aRegs.empty();
  int64_t mSteps = M / (64 * ws.wgM), nSteps = ws.perGroupN / ws.instrN, kSteps = K / kStep;
  unsigned total = unsigned(mSteps * nSteps) * accRegs;
  llvm::Type *accTy = f16Acc || s32Acc ? (llvm::Type *)i32 : b.getFloatTy();
  auto *pairTy = llvm::FixedVectorType::get(et, 2);
  auto *halfPair = llvm::FixedVectorType::get(b.getHalfTy(), 2);

  // The steps, k outermost: consecutive instructions write different parts
  // of the accumulator. When every part in flight cannot stay in registers
  // beside what else is live across the group (ptxas spills around the
  // instructions), each part takes all its k steps before the next starts:
  // for an accumulator of more than 128 registers per thread, or 192 with
  // A's registers and the accumulators of the loop's products carried to
  // its next iteration (attention's P V sum beside Q K^T).
  int64_t accPerThread = M * N / (32 * int64_t(L.numWarps)) / (f16Acc ? 2 : 1);
  int64_t live = accPerThread + int64_t(aRegs.size() * et->getPrimitiveSizeInBits() / 32) +
                 carriedAccumulatorRegs(op, L.numWarps);
  bool partsInTurn = accPerThread > 128 || live >= 192;
  std::vector<std::array<int64_t, 3>> steps; // (kt, mt, nt)
  for (int64_t i = 0; i < kSteps * mSteps * nSteps; ++i)
    steps.push_back(partsInTurn ? std::array<int64_t, 3>{i % kSteps, i / (kSteps * nSteps),
                                                         (i / kSteps) % nSteps}
                                : std::array<int64_t, 3>{i / (mSteps * nSteps),
                                                         (i / nSteps) % mSteps, i % nSteps});

  std::string ta = tf32 ? "tf32" : s8 ? "s8" : eight ? fp8Name(ae) : bf16 ? "bf16" : "f16";
  std::string tb = tf32 || s8 ? ta : eight ? fp8Name(be) : ta;
  std::string instr = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(ws.instrN) + "k" +
                      std::to_string(kStep) + "." + (f16Acc ? "f16" : s32Acc ? "s32" : "f32") +
                      "." + ta + "." + tb + " {";
  auto reg = [](unsigned i) { return "$" + std::to_string(i); };
  std::vector<llvm::Value *> args;
  std::vector<llvm::Type *> argTys;
  std::string cons;
  for (unsigned i = 0; i < total; ++i)
    cons += (i ? ",=" : "=") + std::string(f16Acc || s32Acc ? "r" : "f");
  std::string body;
  unsigned next = total;
  // The base descriptors come first among the inputs.
  std::string aBase, bBase;
  if (aRegs.empty()) {
    args.push_back(aDesc);
    argTys.push_back(i64);
    cons += ",l";
    aBase = reg(next++);
  }
  args.push_back(bDesc);
  argTys.push_back(i64);
  cons += ",l";
  bBase = reg(next++);
  for (auto [kt, mt, nt] : steps) {
    int64_t m = mt * 64 * ws.wgM, n = nt * ws.instrN, k = kt * kStep;
    // The part's registers in the tile's order (mma.sync's accumulator
    // order within each m64 x instrN part).
    unsigned first = unsigned((mt * nSteps + nt) * accRegs);
    body += instr;
    for (unsigned i = 0; i < accRegs; ++i)
      body += (i ? ", " : "") + reg(first + i);
    body += "}, ";
    if (aInRegs) { // registers 8 * (kt + kSteps * mt) on, in pairs
      size_t base = size_t(8 * (kt + kSteps * mt));
      body += "{";
      for (unsigned j = 0; j < 4; ++j) {
        llvm::Value *v = llvm::PoisonValue::get(pairTy);
        v = b.CreateInsertElement(v, aRegs[base + 2 * j], uint64_t(0));
        v = b.CreateInsertElement(v, aRegs[base + 2 * j + 1], uint64_t(1));
        args.push_back(b.CreateBitCast(v, i32));
        argTys.push_back(i32);
        cons += ",r";
        body += (j ? ", " : "") + reg(next++);
      }
      body += "}, ";
    } else {
      body += plus(aBase, a.kMajor ? stepBytes(a, m, k) : stepBytes(a, k, m)) + ", ";
    }
    // The accumulate predicate, then (floats) the scales of A and B.
    body += plus(bBase, bo.kMajor ? stepBytes(bo, n, k) : stepBytes(bo, k, n)) +
            (kt == 0 ? ", p" : ", q") + (s8 ? "" : ", 1, 1");
    if (!eight) { // 8-bit and tf32 operands have no transposed form
      if (!aInRegs)
        body += std::string(", ") + (a.kMajor ? "0" : "1");
      body += std::string(", ") + (bo.kMajor ? "0" : "1");
    }
    body += ";\n";
  }
  std::string decls =
      stepDescCount ? ".reg .b64 d<" + std::to_string(stepDescCount) + ">;\n" : std::string();
  std::string text = "{\n.reg .pred p, q;\n" + decls + "setp.ne.b32 p, " + reg(next) +
                     ", 0;\nsetp.ne.b32 q, " + reg(next + 1) + ", 0;\n" + stepDescs +
                     "wgmma.fence.sync.aligned;\n" + body +
                     "wgmma.commit_group.sync.aligned;\n}";
  args.push_back(accumulate);
  args.push_back(L.i32(1));
  argTys.push_back(i32);
  argTys.push_back(i32);
  cons += ",r,r";
  // The accumulator's registers, fp16 pairs packed, tied to the outputs.
  // Registers of part p (in steps' numbering) hold the accumulator's
  // registers from (mt * (perGroupN / 8) + nt * (instrN / 8)) * 4 on.
  auto accIndex = [&](unsigned part) {
    int64_t mt = part / nSteps, nt = part % nSteps;
    return unsigned((mt * (ws.perGroupN / 8) + nt * (ws.instrN / 8)) * 4);
  };
  for (unsigned part = 0; part < unsigned(mSteps * nSteps); ++part) {
    unsigned first = accIndex(part);
    for (unsigned i = 0; i < accRegs; ++i) {
      llvm::Value *v;
      if (!f16Acc) {
        v = acc[first + i];
      } else {
        v = llvm::PoisonValue::get(halfPair);
        v = b.CreateInsertElement(v, acc[first + 2 * i], uint64_t(0));
        v = b.CreateInsertElement(v, acc[first + 2 * i + 1], uint64_t(1));
        v = b.CreateBitCast(v, i32);
      }
      args.push_back(v);
      argTys.push_back(accTy);
      cons += "," + std::to_string(part * accRegs + i);
    }
  }
  std::vector<llvm::Type *> outTys(total, accTy);
  auto *group = llvm::InlineAsm::get(
      llvm::FunctionType::get(llvm::StructType::get(L.ctx, outTys), argTys, false), text, cons,
      true);
  llvm::Value *res = b.CreateCall(group, args);
  for (unsigned part = 0; part < unsigned(mSteps * nSteps); ++part) {
    unsigned first = accIndex(part);
    for (unsigned i = 0; i < accRegs; ++i) {
      llvm::Value *r = b.CreateExtractValue(res, part * accRegs + i);
      if (!f16Acc) {
        acc[first + i] = r;
        continue;
      }
      llvm::Value *p = b.CreateBitCast(r, halfPair);
      acc[first + 2 * i] = b.CreateExtractElement(p, uint64_t(0));
      acc[first + 2 * i + 1] = b.CreateExtractElement(p, uint64_t(1));
    }
  }
  L.set(op, Lowered{lc, acc});
  return success();
}

/// The wait ties every input register, in order, to the result it becomes.
LogicalResult wgmmaWait(Lowering &L, Operation *o) {
  auto op = cast<tgpu::WgmmaWaitOp>(o);
  std::vector<llvm::Value *> regs;
  for (Value v : op.getInputs()) {
    const Lowered &l = L.get(v);
    regs.insert(regs.end(), l.regs.begin(), l.regs.end());
  }
  regs = emitWgmmaWait(L, unsigned(op.getPending()), regs);
  size_t k = 0;
  for (auto [v, r] : llvm::zip(op.getInputs(), op.getResults())) {
    Lowered l = L.get(v);
    for (llvm::Value *&x : l.regs)
      x = regs[k++];
    L.set(r, l);
  }
  return success();
}

} // namespace

void tritium::codegen::populateWgmmaHandlers(HandlerTable &t) {
  t["tgpu.wgmma"] = wgmmaGroup;
  t["tgpu.wgmma_wait"] = wgmmaWait;
}

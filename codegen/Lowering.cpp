//===- Lowering.cpp - Tile IR to LLVM IR: values, layouts, thread geometry ===//
//
// The core of the GPU lowering: the kernel's LLVM signature, the value map,
// layout conversion (register picks, recomputation of cheap producers,
// shared-memory staging) and the thread geometry; scf control flow is in
// ControlFlowToLLVM.cpp, shared-memory staging and conversions through it in
// SharedMemory.cpp, the pipeliner's shared buffers in SharedBuffers.cpp.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/Names.h"
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
  populateSharedHandlers(handlers_);
  populateReduceHandlers(handlers_);
  populateDotHandlers(handlers_);
  populateDebugHandlers(handlers_);
  populateSortHandlers(handlers_);
  populateMapHandlers(handlers_);
  populateDescriptorHandlers(handlers_);
  populateTmaHandlers(handlers_);
  populateWgmmaHandlers(handlers_);
}

LogicalResult Lowering::fail(Operation *op, const llvm::Twine &msg) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  os << tritium::diagPrefixOf(op->getLoc());
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

Lowering::HwCoord Lowering::hwCoord(const LinearLayout &l, unsigned dim) {
  std::vector<int64_t> key;
  for (auto d : {LinearLayout::Lane, LinearLayout::Warp}) {
    for (const auto &basis : l.bases(d))
      key.push_back(basis[dim]);
    key.push_back(-1);
  }
  // A value made earlier in the block being filled, before the insertion
  // point, dominates it; anything else is made again (and replaces it).
  auto it = hwCoords_.find(key);
  if (it != hwCoords_.end() && it->second.value) {
    HwCoord hw{it->second.value, it->second.usedBits, it->second.disjoint};
    auto *inst = llvm::dyn_cast<llvm::Instruction>(hw.value);
    if (!inst)
      return hw;
    llvm::BasicBlock *bb = b.GetInsertBlock();
    if (inst->getParent() == bb &&
        (b.GetInsertPoint() == bb->end() || inst->comesBefore(&*b.GetInsertPoint())))
      return hw;
  }
  HwCoord hw{nullptr, 0, true};
  auto addBits = [&](llvm::Value *id, LinearLayout::InDim d) {
    const auto &bases = l.bases(d);
    for (unsigned bit = 0; bit < bases.size(); ++bit) {
      int64_t v = bases[bit][dim];
      if (!v)
        continue;
      // A run of id bits that land on consecutive coordinate bits (bases
      // v, 2v, 4v, ... with v a power of two) is one field: shifted,
      // masked and shifted into place at once.
      unsigned n = 1;
      if (llvm::isPowerOf2_64(v))
        while (bit + n < bases.size() && bases[bit + n][dim] == v << n)
          ++n;
      llvm::Value *field = b.CreateAnd(bit ? b.CreateLShr(id, bit) : id, (1u << n) - 1);
      llvm::Value *term = llvm::isPowerOf2_64(v)
                              ? b.CreateShl(field, llvm::Log2_64(v))
                              : b.CreateMul(field, i32(v));
      uint64_t bits = uint64_t(v) * ((uint64_t(1) << n) - 1); // v alone when n is 1
      bit += n - 1;
      if (hw.usedBits & bits)
        hw.disjoint = false;
      hw.usedBits |= bits;
      hw.value = !hw.value          ? term
                 : hw.disjoint ? b.CreateOr(hw.value, term)
                                    : b.CreateXor(hw.value, term);
    }
  };
  addBits(lane_, LinearLayout::Lane);
  addBits(warp_, LinearLayout::Warp);
  hwCoords_[key] = CachedHwCoord{hw.value, hw.usedBits, hw.disjoint};
  return hw;
}

llvm::Value *Lowering::coord(const LinearLayout &l, unsigned reg,
                             unsigned dim) {
  int64_t constant = l.applyOne(LinearLayout::Reg, reg)[dim];
  HwCoord hw = hwCoord(l, dim);
  if (!hw.value)
    return i32(constant);
  if (!constant)
    return hw.value;
  if (!(hw.usedBits & uint64_t(constant)) && hw.disjoint)
    return b.CreateOr(hw.value, i32(constant), "", /*IsDisjoint=*/true);
  return b.CreateXor(hw.value, i32(constant));
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
  auto needsMap = [&](Value desc) { tensorMapIndex.try_emplace(desc, tensorMapIndex.size()); };
  func.walk([&](tgpu::TmaCopyOp copy) { needsMap(copy.getDesc()); });
  // So do descriptors whose block stores TMA makes.
  unsigned cc = target.isNvidia() ? parseCudaTarget(target.name()) : 0;
  func.walk([&](mlir::tile::DescriptorStoreOp st) {
    if (!descriptorStoreUsesTma(st, cc))
      return;
    tmaStores.insert(st);
    needsMap(st.getDesc());
  });
  globalScratchBytes = 128 * tensorMapIndex.size();
  if (globalScratchBytes)
    params.push_back(llvm::PointerType::get(ctx, target.globalAddrSpace()));
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), params, false);
  fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage,
                              func.getName().str(), mod);
  unsigned threads = (numWarps + producerWarps) * target.warpSize();
  unsigned regs = maxRegisters;
  if (producerWarps) {
    // setmaxnreg moves registers between warpgroups of a launch that
    // says its register count: what the whole program's threads can hold.
    unsigned cap = std::min(255u, 65536 / threads) / 8 * 8;
    regs = regs ? std::min(regs, cap) : cap;
  }
  target.markKernel(fn, threads, regs);
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
  stagingTouched = false; // no thread has accessed shared memory yet
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  // Shared memory outlives the last TMA store's reads of it.
  if (!tmaStores.empty())
    waitTmaStoreReads();
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

/// Ops whose lowering touches the staging area only through the staging
/// helpers, which say so themselves: register-only ops, layout moves
/// (through Lowering::convert), global loads and
/// stores (a scalar load shared from thread 0 goes through
/// broadcastFromThread0), barriers, the accesses of the pipeliner's slots
/// while those lie apart from the area, and branches (emitIf merges what
/// theirs did).
static bool stagingUntouchedBy(Operation *op, bool buffersLive, unsigned numWarps) {
  if (isa<scf::IfOp, scf::YieldOp, tile::BarrierOp>(op))
    return true;
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  if (dialect == "arith" || dialect == "math")
    return true;
  if (isa<tile::SplatOp, tile::MakeRangeOp, tile::AddPtrOp, tile::GetProgramIdOp,
          tile::GetNumProgramsOp, tile::ExpandDimsOp, tile::BroadcastOp, tile::HintOp,
          tile::LoadOp, tile::StoreOp, tile::TransOp, tile::ReshapeOp, tile::JoinOp,
          tgpu::ConvertLayoutOp>(op))
    return true;
  if (!buffersLive)
    return false;
  if (auto w = dyn_cast<tgpu::WgmmaOp>(op))
    return wgmmaReadsOperandsInPlace(w.getA(), w.getB(), numWarps) && !isStagedTile(w.getA()) &&
           !isStagedTile(w.getB());
  return isa<tgpu::AsyncCopyOp, tgpu::AsyncCommitOp, tgpu::AsyncWaitOp, tgpu::TmaCopyOp,
             tgpu::MbarrierInitOp, tgpu::MbarrierWaitOp, tgpu::MbarrierArriveOp,
             tgpu::SharedLoadOp, tgpu::WgmmaWaitOp>(op);
}

LogicalResult Lowering::emitOp(Operation *op) {
  LogicalResult r = emitOpOnly(op);
  if (!stagingUntouchedBy(op, buffersLive, numWarps))
    stagingTouched = true;
  if (op == lastBufferOp_) { // every copy has landed, every read is done
    buffersLive = false;
    stagingTouched = true; // the area now overlaps the buffers
  }
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
  if (target.isNvidia())
    return it->second(*this, op);
  // Other targets: an op whose lowering is still PTX (inline asm) or
  // libdevice is an error at the op, not an assembler failure later.
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  auto foreign = [&](std::string &what) {
    for (llvm::BasicBlock &bb : *fn)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
          if (auto *ia = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
            what = "PTX ('" + ia->getAsmString().substr(0, 40).str() + "')";
            return true;
          }
          if (llvm::Function *f = call->getCalledFunction())
            if (f->getName().starts_with("__nv_")) {
              what = "libdevice's " + f->getName().str();
              return true;
            }
        }
    return false;
  };
  LogicalResult r = it->second(*this, op);
  std::string what;
  if (succeeded(r) && foreign(what))
    return fail(op, "this operation is not supported on " + target.name() +
                        " yet (its lowering is " + what + ")");
  return r;
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

//===- ElementwiseToLLVM.cpp - arith, math and elementwise tile ops -------===//
//
// Elementwise ops lower register by register: the tensor operands are
// brought into one layout (the one they share, or the result's default),
// then the scalar operation is emitted once per register. Transcendentals
// call libdevice (__nv_*), which the NVIDIA pipeline links; exp/exp2/log/
// log2 on fp32 use the hardware approximations as Triton does. fp16/bf16
// math goes through fp32. inline_asm_elementwise emits the user's asm once
// per run of `pack` consecutive elements a thread holds, narrow elements
// packed into 32-bit operands as Triton packs them.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace tritium::codegen;

namespace {

llvm::CmpInst::Predicate icmpPred(arith::CmpIPredicate p) {
  using P = llvm::CmpInst::Predicate;
  switch (p) {
  case arith::CmpIPredicate::eq: return P::ICMP_EQ;
  case arith::CmpIPredicate::ne: return P::ICMP_NE;
  case arith::CmpIPredicate::slt: return P::ICMP_SLT;
  case arith::CmpIPredicate::sle: return P::ICMP_SLE;
  case arith::CmpIPredicate::sgt: return P::ICMP_SGT;
  case arith::CmpIPredicate::sge: return P::ICMP_SGE;
  case arith::CmpIPredicate::ult: return P::ICMP_ULT;
  case arith::CmpIPredicate::ule: return P::ICMP_ULE;
  case arith::CmpIPredicate::ugt: return P::ICMP_UGT;
  case arith::CmpIPredicate::uge: return P::ICMP_UGE;
  }
  return P::ICMP_EQ;
}

/// arith's float predicates are not numbered like LLVM's (UEQ..UNO differ).
llvm::CmpInst::Predicate fcmpPred(arith::CmpFPredicate p) {
  using P = llvm::CmpInst::Predicate;
  using A = arith::CmpFPredicate;
  switch (p) {
  case A::AlwaysFalse: return P::FCMP_FALSE;
  case A::OEQ: return P::FCMP_OEQ;
  case A::OGT: return P::FCMP_OGT;
  case A::OGE: return P::FCMP_OGE;
  case A::OLT: return P::FCMP_OLT;
  case A::OLE: return P::FCMP_OLE;
  case A::ONE: return P::FCMP_ONE;
  case A::ORD: return P::FCMP_ORD;
  case A::UEQ: return P::FCMP_UEQ;
  case A::UGT: return P::FCMP_UGT;
  case A::UGE: return P::FCMP_UGE;
  case A::ULT: return P::FCMP_ULT;
  case A::ULE: return P::FCMP_ULE;
  case A::UNE: return P::FCMP_UNE;
  case A::UNO: return P::FCMP_UNO;
  case A::AlwaysTrue: return P::FCMP_TRUE;
  }
  return P::FCMP_FALSE;
}

/// Calls libdevice's `__nv_<base>f` / `__nv_<base>` in fp32 or fp64 (on
/// AMD ocml's); half-width floats are computed in fp32.
llvm::Value *libdevice(Lowering &L, llvm::StringRef base,
                       llvm::ArrayRef<llvm::Value *> args) {
  llvm::Type *t = args[0]->getType();
  bool f64 = t->isDoubleTy();
  llvm::Type *ct = f64 ? L.b.getDoubleTy() : L.b.getFloatTy();
  std::vector<llvm::Value *> cargs;
  std::vector<llvm::Type *> tys;
  for (llvm::Value *a : args) {
    cargs.push_back(a->getType() == ct ? a : L.b.CreateFPExt(a, ct));
    tys.push_back(ct);
  }
  std::string name = ("__nv_" + base + (f64 ? "" : "f")).str();
  llvm::Value *r = callMathLibrary(L, name, cargs, ct);
  return r->getType() == t ? r : L.b.CreateFPTrunc(r, t);
}

llvm::Value *intrinsic(Lowering &L, llvm::Intrinsic::ID id,
                       llvm::ArrayRef<llvm::Value *> args) {
  return L.b.CreateIntrinsic(id, {args[0]->getType()}, args);
}

/// exp, exp2, log and log2 (`scale` folds in e's or 2's base change) as
/// Triton lowers them: ex2.approx on NVIDIA for the exps, libdevice for
/// the logs and for fp64.
llvm::Value *approx(Lowering &L, bool exp, double scale, llvm::Value *x) {
  llvm::Type *t = x->getType();
  if (!L.target.isNvidia() && !t->isDoubleTy()) {
    // LLVM's exp2/log2 (v_exp_f32/v_log_f32 on AMD), scaled; half-width
    // floats in fp32. (fp64 goes to libdevice, which such a target reports
    // as missing: AMDGPU has no fp64 exp2/log2 of its own.)
    llvm::Value *f = t->isFloatTy() ? x : L.b.CreateFPExt(x, L.b.getFloatTy());
    llvm::Type *ft = f->getType();
    if (exp && scale != 1.0)
      f = L.b.CreateFMul(f, llvm::ConstantFP::get(ft, scale));
    llvm::Value *r = L.b.CreateIntrinsic(exp ? llvm::Intrinsic::exp2 : llvm::Intrinsic::log2,
                                         {ft}, {f});
    if (!exp && scale != 1.0)
      r = L.b.CreateFMul(r, llvm::ConstantFP::get(ft, scale));
    return ft == t ? r : L.b.CreateFPTrunc(r, t);
  }
  // As Triton lowers them: log and log2 are libdevice's (__nv_logf,
  // __nv_log2f: accurate where lg2.approx is not, which would make
  // log(1 + 1e-4) off by a fraction of a percent); exp is ex2.approx of
  // x * log2(e), keeping subnormal results; exp2 is __nv_exp2f under
  // libdevice's flush-to-zero, ex2.approx.ftz.
  if (t->isDoubleTy() || !exp)
    return libdevice(L, exp ? (scale == 1.0 ? "exp2" : "exp") : (scale == 1.0 ? "log2" : "log"), {x});
  llvm::Value *f = t->isFloatTy() ? x : L.b.CreateFPExt(x, L.b.getFloatTy());
  llvm::Value *r;
  if (scale != 1.0) {
    f = L.b.CreateFMul(f, llvm::ConstantFP::get(L.b.getFloatTy(), scale));
    r = L.b.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx, {L.b.getFloatTy()}, {f});
  } else {
    r = L.b.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz, {L.b.getFloatTy()}, {f});
  }
  return t->isFloatTy() ? r : L.b.CreateFPTrunc(r, t);
}

/// Round-toward-zero float narrowing (fp_to_fp rtz). fp64 to a 16-bit
/// format goes through fp32, rounding toward zero both times: every 16-bit
/// value is an fp32 value, so the two steps round as one would.
llvm::Value *truncRtz(Lowering &L, llvm::Value *x, llvm::Type *to) {
  auto &b = L.b;
  if (x->getType()->isDoubleTy() && !to->isFloatTy())
    x = truncRtz(L, x, b.getFloatTy());
  if (!L.target.isNvidia()) {
    if (to->isBFloatTy()) {
      // fp32's upper half is the value rounded toward zero; a NaN whose
      // payload lies in the lower half would become an infinity, so its
      // quiet bit is set.
      llvm::Value *hi =
          b.CreateTrunc(b.CreateLShr(b.CreateBitCast(x, b.getInt32Ty()), 16), b.getInt16Ty());
      hi = b.CreateSelect(b.CreateFCmpUNO(x, x), b.CreateOr(hi, 0x40), hi);
      return b.CreateBitCast(hi, to);
    }
    // f32 -> f16 and f64 -> f32: the conversion instruction under the
    // round-toward-zero mode (AMDGPU sets the MODE register around it).
    llvm::Value *mode = llvm::MetadataAsValue::get(
        L.ctx, llvm::MDString::get(L.ctx, "round.towardzero"));
    return b.CreateIntrinsic(llvm::Intrinsic::fptrunc_round, {to, x->getType()}, {x, mode});
  }
  std::string src = x->getType()->isDoubleTy() ? "f64" : "f32";
  std::string dst = to->isFloatTy() ? "f32" : to->isHalfTy() ? "f16" : "bf16";
  std::string outC = to->isFloatTy() ? "=f" : "=h";
  std::string inC = x->getType()->isDoubleTy() ? "d" : "f";
  auto *fty = llvm::FunctionType::get(to->isFloatTy() ? to : (llvm::Type *)b.getInt16Ty(),
                                      {x->getType()}, false);
  auto *ia = llvm::InlineAsm::get(fty, "cvt.rz." + dst + "." + src + " $0, $1;",
                                  outC + "," + inC, false);
  llvm::Value *r = b.CreateCall(ia, {x});
  return to->isFloatTy() ? r : b.CreateBitCast(r, to);
}

} // namespace

llvm::Value *tritium::codegen::emitScalarElementwise(
    Lowering &L, Operation *op, llvm::ArrayRef<llvm::Value *> a) {
  auto &b = L.b;
  llvm::StringRef n = op->getName().getStringRef();
  Type resT = op->getNumResults() ? op->getResult(0).getType() : Type();
  llvm::Type *rt = resT ? L.llvmType(resT) : nullptr;
  // arith ---------------------------------------------------------------
  if (n == "arith.addi") return b.CreateAdd(a[0], a[1]);
  if (n == "arith.subi") return b.CreateSub(a[0], a[1]);
  if (n == "arith.muli") return b.CreateMul(a[0], a[1]);
  if (n == "arith.divsi") return b.CreateSDiv(a[0], a[1]);
  if (n == "arith.divui") return b.CreateUDiv(a[0], a[1]);
  if (n == "arith.remsi") return b.CreateSRem(a[0], a[1]);
  if (n == "arith.remui") return b.CreateURem(a[0], a[1]);
  if (n == "arith.andi") return b.CreateAnd(a[0], a[1]);
  if (n == "arith.ori") return b.CreateOr(a[0], a[1]);
  if (n == "arith.xori") return b.CreateXor(a[0], a[1]);
  if (n == "arith.shli") return b.CreateShl(a[0], a[1]);
  if (n == "arith.shrsi") return b.CreateAShr(a[0], a[1]);
  if (n == "arith.shrui") return b.CreateLShr(a[0], a[1]);
  if (n == "arith.maxsi") return intrinsic(L, llvm::Intrinsic::smax, a);
  if (n == "arith.minsi") return intrinsic(L, llvm::Intrinsic::smin, a);
  if (n == "arith.maxui") return intrinsic(L, llvm::Intrinsic::umax, a);
  if (n == "arith.minui") return intrinsic(L, llvm::Intrinsic::umin, a);
  if (n == "arith.ceildivsi" || n == "arith.floordivsi") {
    // q = a / b rounded toward +inf (ceil) or -inf (floor).
    llvm::Value *q = b.CreateSDiv(a[0], a[1]);
    llvm::Value *r = b.CreateSRem(a[0], a[1]);
    llvm::Value *zero = llvm::ConstantInt::get(a[0]->getType(), 0);
    llvm::Value *one = llvm::ConstantInt::get(a[0]->getType(), 1);
    llvm::Value *signsDiffer = b.CreateICmpSLT(b.CreateXor(a[0], a[1]), zero);
    llvm::Value *inexact = b.CreateICmpNE(r, zero);
    if (n == "arith.floordivsi")
      return b.CreateSelect(b.CreateAnd(inexact, signsDiffer), b.CreateSub(q, one), q);
    return b.CreateSelect(b.CreateAnd(inexact, b.CreateNot(signsDiffer)),
                          b.CreateAdd(q, one), q);
  }
  if (n == "arith.ceildivui") {
    llvm::Value *q = b.CreateUDiv(a[0], a[1]);
    llvm::Value *r = b.CreateURem(a[0], a[1]);
    return b.CreateSelect(b.CreateICmpNE(r, llvm::ConstantInt::get(r->getType(), 0)),
                          b.CreateAdd(q, llvm::ConstantInt::get(q->getType(), 1)), q);
  }
  if (n == "arith.addf") return b.CreateFAdd(a[0], a[1]);
  if (n == "arith.subf") return b.CreateFSub(a[0], a[1]);
  if (n == "arith.mulf") return b.CreateFMul(a[0], a[1]);
  if (n == "arith.divf") {
    // fp32 division is div.full.f32 (2 ulp) on NVIDIA, as Triton lowers it;
    // div_rn is the correctly rounded one. Elsewhere LLVM's fdiv.
    if (a[0]->getType()->isFloatTy() && L.target.isNvidia()) {
      auto *ia = llvm::InlineAsm::get(
          llvm::FunctionType::get(b.getFloatTy(), {b.getFloatTy(), b.getFloatTy()}, false),
          "div.full.f32 $0, $1, $2;", "=f,f,f", false);
      return b.CreateCall(ia, {a[0], a[1]});
    }
    return b.CreateFDiv(a[0], a[1]);
  }
  if (n == "arith.remf")
    return L.target.isNvidia() ? libdevice(L, "fmod", a) : b.CreateFRem(a[0], a[1]);
  if (n == "arith.negf") return b.CreateFNeg(a[0]);
  if (n == "arith.maximumf") return intrinsic(L, llvm::Intrinsic::maximum, a);
  if (n == "arith.minimumf") return intrinsic(L, llvm::Intrinsic::minimum, a);
  if (n == "arith.maxnumf") return intrinsic(L, llvm::Intrinsic::maxnum, a);
  if (n == "arith.minnumf") return intrinsic(L, llvm::Intrinsic::minnum, a);
  if (auto c = dyn_cast<arith::CmpIOp>(op))
    return b.CreateICmp(icmpPred(c.getPredicate()), a[0], a[1]);
  if (auto c = dyn_cast<arith::CmpFOp>(op))
    return b.CreateFCmp(fcmpPred(c.getPredicate()), a[0], a[1]);
  if (n == "arith.select") return b.CreateSelect(a[0], a[1], a[2]);
  if (n == "arith.extsi") return b.CreateSExt(a[0], rt);
  if (n == "arith.extui") return b.CreateZExt(a[0], rt);
  if (n == "arith.trunci") return b.CreateTrunc(a[0], rt);
  if (n == "arith.index_cast") return b.CreateSExtOrTrunc(a[0], rt);
  if (n == "arith.index_castui") return b.CreateZExtOrTrunc(a[0], rt);
  if (n == "arith.sitofp") return b.CreateSIToFP(a[0], rt);
  if (n == "arith.uitofp") return b.CreateUIToFP(a[0], rt);
  if (n == "arith.fptosi") return b.CreateFPToSI(a[0], rt);
  if (n == "arith.fptoui") return b.CreateFPToUI(a[0], rt);
  if (n == "arith.extf") return b.CreateFPExt(a[0], rt);
  if (n == "arith.truncf") return b.CreateFPTrunc(a[0], rt);
  if (n == "arith.bitcast") return b.CreateBitCast(a[0], rt);
  // math ----------------------------------------------------------------
  if (n == "math.exp") return approx(L, true, 1.4426950408889634, a[0]);
  if (n == "math.exp2") return approx(L, true, 1.0, a[0]);
  if (n == "math.log") return approx(L, false, 0.6931471805599453, a[0]);
  if (n == "math.log2") return approx(L, false, 1.0, a[0]);
  if (n == "math.sqrt") { // tl.sqrt: approximate in fp32 (tl.sqrt_rn is IEEE), as Triton
    llvm::Type *t = a[0]->getType();
    if (t->isDoubleTy())
      return intrinsic(L, llvm::Intrinsic::sqrt, a);
    llvm::Value *f = t->isFloatTy() ? a[0] : b.CreateFPExt(a[0], b.getFloatTy());
    llvm::Value *r = L.target.isNvidia()
                         ? b.CreateIntrinsic(llvm::Intrinsic::nvvm_sqrt_approx_ftz_f, {}, {f})
                         : b.CreateIntrinsic(llvm::Intrinsic::sqrt, {f->getType()}, {f});
    return t->isFloatTy() ? r : b.CreateFPTrunc(r, t);
  }
  if (n == "math.rsqrt") {
    if (L.target.isNvidia())
      return libdevice(L, "rsqrt", a);
    // AMD: v_rsq (1 ulp), in fp32 for half-width floats.
    llvm::Type *t = a[0]->getType();
    llvm::Value *f = t->isFloatTy() || t->isDoubleTy() ? a[0] : b.CreateFPExt(a[0], b.getFloatTy());
    llvm::Value *r = b.CreateIntrinsic(f->getType(), llvm::Intrinsic::amdgcn_rsq, {f});
    return r->getType() == t ? r : b.CreateFPTrunc(r, t);
  }
  if (!L.target.isNvidia() && (n == "math.sin" || n == "math.cos") &&
      !a[0]->getType()->isDoubleTy()) {
    // AMD: v_sin_f32/v_cos_f32 (LLVM scales by 1/2pi), half-width in fp32.
    llvm::Type *t = a[0]->getType();
    llvm::Value *f = t->isFloatTy() ? a[0] : b.CreateFPExt(a[0], b.getFloatTy());
    llvm::Value *r = b.CreateIntrinsic(
        n == "math.sin" ? llvm::Intrinsic::sin : llvm::Intrinsic::cos, {f->getType()}, {f});
    return r->getType() == t ? r : b.CreateFPTrunc(r, t);
  }
  if (n == "math.absf") return intrinsic(L, llvm::Intrinsic::fabs, a);
  if (n == "math.absi") return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a[0], b.getFalse());
  if (n == "math.floor") return intrinsic(L, llvm::Intrinsic::floor, a);
  if (n == "math.ceil") return intrinsic(L, llvm::Intrinsic::ceil, a);
  if (n == "math.trunc") return intrinsic(L, llvm::Intrinsic::trunc, a);
  if (n == "math.round") return intrinsic(L, llvm::Intrinsic::round, a);
  if (n == "math.roundeven") return intrinsic(L, llvm::Intrinsic::roundeven, a);
  if (n == "math.fma") return intrinsic(L, llvm::Intrinsic::fma, a);
  if (n == "math.copysign") return intrinsic(L, llvm::Intrinsic::copysign, a);
  static const char *libm[][2] = {
      {"math.sin", "sin"},     {"math.cos", "cos"},     {"math.tan", "tan"},
      {"math.asin", "asin"},   {"math.acos", "acos"},   {"math.atan", "atan"},
      {"math.atan2", "atan2"}, {"math.sinh", "sinh"},   {"math.cosh", "cosh"},
      {"math.tanh", "tanh"},   {"math.asinh", "asinh"}, {"math.acosh", "acosh"},
      {"math.atanh", "atanh"}, {"math.erf", "erf"},     {"math.erfc", "erfc"},
      {"math.log10", "log10"}, {"math.log1p", "log1p"}, {"math.expm1", "expm1"},
      {"math.powf", "pow"},    {"math.cbrt", "cbrt"}};
  for (auto &e : libm)
    if (n == e[0])
      return libdevice(L, e[1], a);
  // tile ------------------------------------------------------------------
  if (n == "tile.precise_sqrt") return intrinsic(L, llvm::Intrinsic::sqrt, a);
  if (n == "tile.precise_divf") return b.CreateFDiv(a[0], a[1]);
  if (auto c = dyn_cast<mlir::tile::ClampFOp>(op)) {
    bool nan = c.getPropagateNan() == mlir::tile::PropagateNan::ALL;
    auto mx = nan ? llvm::Intrinsic::maximum : llvm::Intrinsic::maxnum;
    auto mn = nan ? llvm::Intrinsic::minimum : llvm::Intrinsic::minnum;
    return intrinsic(L, mn, {intrinsic(L, mx, {a[0], a[1]}), a[2]});
  }
  if (n == "tile.mulhiui") {
    auto *t = a[0]->getType();
    auto *wide = llvm::IntegerType::get(L.ctx, 2 * t->getIntegerBitWidth());
    llvm::Value *p = b.CreateMul(b.CreateZExt(a[0], wide), b.CreateZExt(a[1], wide));
    return b.CreateTrunc(b.CreateLShr(p, t->getIntegerBitWidth()), t);
  }
  if (n == "tile.bitcast") {
    if (a[0]->getType()->isPointerTy() && rt->isPointerTy())
      return a[0];
    return b.CreateBitCast(a[0], rt);
  }
  if (n == "tile.int_to_ptr") return b.CreateIntToPtr(a[0], rt);
  if (n == "tile.ptr_to_int") return b.CreatePtrToInt(a[0], rt);
  if (auto ap = dyn_cast<mlir::tile::AddPtrOp>(op)) {
    Type pt = ap.getPtr().getType();
    if (auto r = dyn_cast<RankedTensorType>(pt))
      pt = r.getElementType();
    Type pointee = cast<mlir::tile::PointerType>(pt).getPointeeType();
    llvm::Type *et = L.llvmType(pointee);
    if (et->isIntegerTy(1))
      et = b.getInt8Ty();
    return b.CreateGEP(et, a[0], a[1]);
  }
  if (auto fp = dyn_cast<mlir::tile::FpToFpOp>(op)) {
    llvm::Type *st = a[0]->getType();
    Type srcElem = getElementTypeOrSelf(fp.getSrc().getType());
    Type dstElem = getElementTypeOrSelf(resT);
    if (srcElem.getIntOrFloatBitWidth() == 8 || dstElem.getIntOrFloatBitWidth() == 8)
      return emitFp8Convert(L, a[0], srcElem, dstElem,
                            fp.getRounding() &&
                                *fp.getRounding() == mlir::tile::RoundingMode::RTZ);
    if (st->getPrimitiveSizeInBits() < rt->getPrimitiveSizeInBits() ||
        (st->isHalfTy() && rt->isBFloatTy()) || (st->isBFloatTy() && rt->isHalfTy())) {
      llvm::Value *f = b.CreateFPExt(a[0], b.getFloatTy());
      if (rt->isFloatTy())
        return f;
      if (rt->isDoubleTy())
        return b.CreateFPExt(a[0], rt);
      return b.CreateFPTrunc(f, rt);
    }
    if (fp.getRounding() && *fp.getRounding() == mlir::tile::RoundingMode::RTZ)
      return truncRtz(L, a[0], rt);
    return b.CreateFPTrunc(a[0], rt);
  }
  if (auto ex = dyn_cast<mlir::tile::ExternElementwiseOp>(op))
    return callMathLibrary(L, ex.getSymbol(), a, rt);
  return nullptr;
}

namespace {

LogicalResult lowerElementwise(Lowering &L, Operation *op) {
  Type rt = op->getResult(0).getType();
  if (!isa<RankedTensorType>(rt)) {
    std::vector<llvm::Value *> args;
    for (Value v : op->getOperands())
      args.push_back(L.scalar(v));
    llvm::Value *r = emitScalarElementwise(L, op, args);
    if (!r)
      return L.fail(op, "this operation is not supported by the GPU code generator yet");
    L.set(op->getResult(0), Lowered{nullptr, {r}});
    return success();
  }
  LayoutRef layout = L.assigned(rt);
  std::vector<std::vector<llvm::Value *>> ins;
  for (Value v : op->getOperands())
    ins.push_back(isa<RankedTensorType>(v.getType())
                      ? L.convert(v, *layout)
                      : std::vector<llvm::Value *>(layout->numRegs(), L.scalar(v)));
  Lowered out{layout, {}};
  // Elements equal in runs (a mask compared against a bound divisible by
  // the run) are computed once per run.
  unsigned same = L.constantRegs(op->getResult(0), *layout);
  unsigned n = layout->numRegs();
  out.regs.assign(n, nullptr);
  // A loop-carried update (an accumulator `acc += x` the loop yields) is
  // emitted from the last register back. The loop's loads are issued in
  // register order; when the update consumes them in that same order,
  // ptxas pairs each load with its consumer and keeps one 16-byte load in
  // flight per thread (layer norm's mean and variance loops). Consumed
  // last-first, the first add needs the last load, and all of an
  // iteration's loads are in flight together.
  bool lastFirst = llvm::any_of(op->getResult(0).getUsers(),
                                [](Operation *u) { return isa<scf::YieldOp>(u); });
  for (unsigned i = 0; i < n; ++i) {
    unsigned r = lastFirst ? n - 1 - i : i;
    if (r & same)
      continue;
    std::vector<llvm::Value *> args;
    for (auto &in : ins)
      args.push_back(in[r]);
    llvm::Value *v = emitScalarElementwise(L, op, args);
    if (!v)
      return L.fail(op, "this operation is not supported by the GPU code generator yet");
    out.regs[r] = v;
  }
  for (unsigned r = 0; r < n; ++r)
    if (r & same)
      out.regs[r] = out.regs[r & ~same];
  L.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult lowerConstant(Lowering &L, Operation *op) {
  auto c = cast<arith::ConstantOp>(op);
  Type t = c.getType();
  auto scalarConst = [&](Attribute a, Type et) -> llvm::Constant * {
    llvm::Type *lt = L.llvmType(et);
    if (auto i = dyn_cast<IntegerAttr>(a))
      return llvm::ConstantInt::get(lt, i.getValue());
    if (auto f = dyn_cast<FloatAttr>(a)) {
      if (lt->isIntegerTy()) // fp8 bits
        return llvm::ConstantInt::get(lt, f.getValue().bitcastToAPInt());
      return llvm::ConstantFP::get(lt, f.getValue());
    }
    return nullptr;
  };
  if (auto rt = dyn_cast<RankedTensorType>(t)) {
    LayoutRef layout = L.assigned(rt);
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense)
      return L.fail(op, "unsupported constant");
    if (dense.isSplat()) {
      llvm::Constant *v = scalarConst(dense.getSplatValue<Attribute>(), rt.getElementType());
      if (!v)
        return L.fail(op, "unsupported constant");
      L.set(c, Lowered{layout, std::vector<llvm::Value *>(layout->numRegs(), v)});
      return success();
    }
    // A non-uniform constant tile: a table in global memory, indexed by
    // each register's element.
    std::vector<llvm::Constant *> elems;
    for (Attribute a : dense.getValues<Attribute>())
      elems.push_back(scalarConst(a, rt.getElementType()));
    llvm::Type *et = L.llvmType(rt.getElementType());
    if (et->isIntegerTy(1)) {
      for (auto &e : elems)
        e = llvm::ConstantInt::get(L.b.getInt8Ty(), cast<llvm::ConstantInt>(e)->getZExtValue());
      et = L.b.getInt8Ty();
    }
    auto *arr = llvm::ConstantArray::get(llvm::ArrayType::get(et, elems.size()), elems);
    auto *g = new llvm::GlobalVariable(L.mod, arr->getType(), true,
                                       llvm::GlobalValue::InternalLinkage, arr,
                                       "tile_const", nullptr,
                                       llvm::GlobalValue::NotThreadLocal,
                                       L.target.globalAddrSpace());
    Lowered out{layout, {}};
    for (unsigned r = 0; r < layout->numRegs(); ++r) {
      llvm::Value *v = L.b.CreateLoad(et, L.b.CreateGEP(et, g, L.linearCoord(*layout, r)));
      if (rt.getElementType().isInteger(1))
        v = L.b.CreateICmpNE(v, L.b.getInt8(0));
      out.regs.push_back(v);
    }
    L.set(c, std::move(out));
    return success();
  }
  llvm::Constant *v = scalarConst(c.getValue(), t);
  if (!v)
    return L.fail(op, "unsupported constant");
  L.set(c, Lowered{nullptr, {v}});
  return success();
}

/// How many elements of type `t` share one asm operand: types narrower than
/// 32 bits are packed into one 32-bit register (fewer when `pack` is
/// smaller), wider ones take an operand each (Triton's rule).
unsigned elemsPerOperand(llvm::Type *t, unsigned pack) {
  unsigned bits = t->isPointerTy() ? 64 : t->getPrimitiveSizeInBits();
  return bits < 32 ? std::min(32 / bits, pack) : 1;
}

/// The asm operand type for `n` elements of type `t`: the element itself,
/// or an integer holding them side by side (element 0 in the low bits).
llvm::Type *operandType(Lowering &L, llvm::Type *t, unsigned n) {
  return n == 1 ? t : L.b.getIntNTy(n * t->getPrimitiveSizeInBits());
}

/// `regs` (n elements of one type T) as one operand: <n x T> bitcast to an
/// integer of n * bits(T) bits.
llvm::Value *packOperand(Lowering &L, llvm::ArrayRef<llvm::Value *> regs) {
  if (regs.size() == 1)
    return regs[0];
  llvm::Type *t = regs[0]->getType();
  llvm::Value *v =
      llvm::PoisonValue::get(llvm::FixedVectorType::get(t, regs.size()));
  for (unsigned i = 0; i < regs.size(); ++i)
    v = L.b.CreateInsertElement(v, regs[i], L.b.getInt32(i));
  return L.b.CreateBitCast(v, operandType(L, t, regs.size()));
}

/// One asm result -> `n` elements of type `t` (the inverse of packOperand).
void unpackResult(Lowering &L, llvm::Value *v, llvm::Type *t, unsigned n,
                  std::vector<llvm::Value *> &out) {
  if (n == 1) {
    out.push_back(v);
    return;
  }
  llvm::Value *vec = L.b.CreateBitCast(v, llvm::FixedVectorType::get(t, n));
  for (unsigned i = 0; i < n; ++i)
    out.push_back(L.b.CreateExtractElement(vec, L.b.getInt32(i)));
}

std::string typeName(llvm::Type *t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  return s;
}

/// inline_asm_elementwise: one asm statement per run of `pack` consecutive
/// (row-major) elements that a thread holds,
///   (r_0..r_m) = asm(a_0[run]..a_n[run])  for every run,
/// with each argument's run packed into 32-bit operands when its elements
/// are narrower (4 x i8 or 2 x f16 -> one b32; 2 x i8 -> one b16), and each
/// result likewise: `pack` elements of the result type come back in
/// pack / elemsPerOperand outputs, results one after the other, then the
/// arguments one after the other, as the constraints list them. The
/// operands' layout is kept when its runs lie in single threads; otherwise
/// they are converted to one that has `pack` consecutive elements per
/// thread.
LogicalResult lowerInlineAsm(Lowering &L, Operation *o) {
  auto op = cast<mlir::tile::ElementwiseInlineAsmOp>(o);
  int64_t pack = int32_t(op.getPackedElement());
  if (pack < 1)
    return L.fail(o, "inline_asm_elementwise: pack must be at least 1 (got " +
                         llvm::Twine(pack) + ")");
  RankedTensorType tensorTy; // the shape every tensor result and argument has
  for (Type t : o->getResultTypes())
    tensorTy = tensorTy ? tensorTy : dyn_cast<RankedTensorType>(t);
  for (Value v : op.getArgs())
    tensorTy = tensorTy ? tensorTy : dyn_cast<RankedTensorType>(v.getType());
  LayoutRef layout;
  std::vector<std::vector<unsigned>> runs;
  if (tensorTy) {
    int64_t numel = tensorTy.getNumElements();
    if (!llvm::isPowerOf2_64(uint64_t(pack)) || numel % pack)
      return L.fail(o, "inline_asm_elementwise: pack = " + llvm::Twine(pack) +
                           " must be a power of two that divides the " +
                           llvm::Twine(numel) + " elements of the tensor");
    Type resultTy = o->getNumResults() ? o->getResult(0).getType() : Type(tensorTy);
    layout = L.assigned(isa<RankedTensorType>(resultTy) ? resultTy : Type(tensorTy));
    auto found = layout->packedRuns(pack);
    if (!found) {
      layout = L.defaultLayout(tensorTy);
      found = layout->packedRuns(pack);
    }
    if (!found) {
      unsigned lanes = L.target.warpSize();
      layout = L.share(LinearLayout::blocked({numel}, {unsigned(pack)}, {lanes},
                                             {L.numWarps}, {0}, lanes)
                           .reshape(tensorTy.getShape().vec()));
      found = layout->packedRuns(pack);
    }
    if (!found)
      return L.fail(o, "inline_asm_elementwise: no layout keeps each pack of " +
                           llvm::Twine(pack) + " elements in one thread");
    runs = std::move(*found);
  } else if (pack > 1) {
    return L.fail(o, "inline_asm_elementwise: pack = " + llvm::Twine(pack) +
                         " needs tensor arguments (a scalar is one element)");
  } else {
    runs = {{0}};
  }
  unsigned numRegs = layout ? layout->numRegs() : 1;

  // Operands, in constraint order: each argument's `pack` elements, packed.
  std::vector<std::vector<llvm::Value *>> ins;
  std::vector<llvm::Type *> argTys;
  std::vector<unsigned> argPer;
  for (Value v : op.getArgs()) {
    ins.push_back(isa<RankedTensorType>(v.getType())
                      ? L.convert(v, *layout)
                      : std::vector<llvm::Value *>(numRegs, L.scalar(v)));
    llvm::Type *t = ins.back().front()->getType();
    if (pack > 1 && t->isIntegerTy(1))
      return L.fail(o, "inline_asm_elementwise: boolean arguments cannot be "
                       "packed (pack = " +
                           llvm::Twine(pack) + "); convert them to int8 first");
    argPer.push_back(elemsPerOperand(t, pack));
    for (unsigned j = 0; j < pack; j += argPer.back())
      argTys.push_back(operandType(L, t, argPer.back()));
  }
  // Outputs: each result's `pack` elements, packed.
  std::vector<llvm::Type *> resElemTys, resTys;
  std::vector<unsigned> resPer;
  for (Value r : o->getResults()) {
    llvm::Type *t = L.llvmType(getElementTypeOrSelf(r.getType()));
    if (pack > 1 && t->isIntegerTy(1))
      return L.fail(o, "inline_asm_elementwise: boolean results cannot be "
                       "packed (pack = " +
                           llvm::Twine(pack) + "); return int8 instead");
    resElemTys.push_back(t);
    resPer.push_back(elemsPerOperand(t, pack));
    for (unsigned j = 0; j < pack; j += resPer.back())
      resTys.push_back(operandType(L, t, resPer.back()));
  }
  llvm::Type *retTy = resTys.empty() ? L.b.getVoidTy()
                      : resTys.size() == 1
                          ? resTys[0]
                          : llvm::StructType::get(L.ctx, resTys);
  auto *fty = llvm::FunctionType::get(retTy, argTys, false);
  if (llvm::Error e = llvm::InlineAsm::verify(fty, op.getConstraints())) {
    llvm::consumeError(std::move(e));
    std::string outs, args;
    for (llvm::Type *t : resTys)
      outs += (outs.empty() ? "" : ", ") + typeName(t);
    for (llvm::Type *t : argTys)
      args += (args.empty() ? "" : ", ") + typeName(t);
    auto count = [](size_t n, const char *what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    return L.fail(
        o, "inline_asm_elementwise: constraints \"" + op.getConstraints() +
               "\" do not match the " + count(resTys.size(), "output") + " (" +
               outs + ") and " + count(argTys.size(), "input") + " (" + args +
               ") that pack = " + llvm::Twine(pack) + " gives");
  }
  // Operand references as LLVM's asm printer reads them ($N, ${N},
  // ${N:modifier}, $$ for a dollar sign, $( $| $) for dialect variants):
  // anything else would abort code generation.
  {
    llvm::StringRef text = op.getAsmString();
    size_t numOperands = resTys.size() + argTys.size();
    auto bad = [&](size_t at, const llvm::Twine &why) {
      return L.fail(o, "inline_asm_elementwise: in the asm string at offset " +
                           llvm::Twine(at) + ": " + why);
    };
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '$')
        continue;
      if (i + 1 == text.size())
        return bad(i, "'$' ends the string (an operand is $N, a dollar sign $$)");
      char c = text[i + 1];
      if (c == '$' || c == '(' || c == '|' || c == ')') {
        ++i;
        continue;
      }
      size_t start = i + 1 + (c == '{');
      size_t end = start;
      while (end < text.size() && llvm::isDigit(text[end]))
        ++end;
      if (end == start)
        return bad(i, "'$' is followed by '" + llvm::Twine(text[i + 1]) +
                          "', not by an operand number (an operand is $N, a dollar sign $$)");
      unsigned n = 0;
      if (text.substr(start, end - start).getAsInteger(10, n) || n >= numOperands)
        return bad(i, "$" + text.substr(start, end - start) + " names no operand: there are " +
                          llvm::Twine(numOperands) + " ($0 to $" +
                          llvm::Twine(numOperands ? numOperands - 1 : 0) + ", outputs first)");
      if (c == '{') {
        size_t close = text.find('}', end);
        if (close == llvm::StringRef::npos)
          return bad(i, "'${' is not closed by '}'");
        end = close + 1;
      }
      i = end - 1;
    }
  }
  auto *ia = llvm::InlineAsm::get(fty, op.getAsmString(), op.getConstraints(),
                                  !op.getPure());

  unsigned numResults = o->getNumResults();
  std::vector<std::vector<llvm::Value *>> outs(
      numResults, std::vector<llvm::Value *>(numRegs, nullptr));
  for (const std::vector<unsigned> &run : runs) {
    std::vector<llvm::Value *> args;
    for (unsigned a = 0; a < ins.size(); ++a)
      for (unsigned j = 0; j < pack; j += argPer[a]) {
        std::vector<llvm::Value *> regs;
        for (unsigned k = j; k < j + argPer[a]; ++k)
          regs.push_back(ins[a][run[k]]);
        args.push_back(packOperand(L, regs));
      }
    llvm::Value *call = L.b.CreateCall(ia, args);
    unsigned field = 0;
    for (unsigned k = 0; k < numResults; ++k) {
      std::vector<llvm::Value *> elems;
      for (unsigned j = 0; j < pack; j += resPer[k]) {
        llvm::Value *v =
            resTys.size() == 1 ? call : L.b.CreateExtractValue(call, field);
        ++field;
        unpackResult(L, v, resElemTys[k], resPer[k], elems);
      }
      for (unsigned j = 0; j < pack; ++j)
        outs[k][run[j]] = elems[j];
    }
  }
  unsigned replica = layout ? layout->replicatedMask(LinearLayout::Reg) : 0;
  for (unsigned k = 0; k < numResults; ++k) {
    for (unsigned r = 0; r < numRegs; ++r)
      if (!outs[k][r])
        outs[k][r] = outs[k][r & ~replica];
    L.set(o->getResult(k),
          Lowered{isa<RankedTensorType>(o->getResult(k).getType()) ? layout
                                                                   : nullptr,
                  outs[k]});
  }
  return success();
}

} // namespace

namespace {
const char *const kElementwiseOps[] = {"arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
        "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
        "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi",
        "arith.maxui", "arith.minui", "arith.ceildivsi", "arith.floordivsi",
        "arith.ceildivui", "arith.addf", "arith.subf", "arith.mulf",
        "arith.divf", "arith.remf", "arith.negf", "arith.maximumf",
        "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.cmpi",
        "arith.cmpf", "arith.select", "arith.extsi", "arith.extui",
        "arith.trunci", "arith.index_cast", "arith.index_castui",
        "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
        "arith.extf", "arith.truncf", "arith.bitcast", "math.exp", "math.exp2",
        "math.log", "math.log2", "math.sqrt", "math.rsqrt", "math.absf",
        "math.absi", "math.floor", "math.ceil", "math.trunc", "math.round",
        "math.roundeven", "math.fma", "math.copysign", "math.sin", "math.cos",
        "math.tan", "math.asin", "math.acos", "math.atan", "math.atan2",
        "math.sinh", "math.cosh", "math.tanh", "math.asinh", "math.acosh",
        "math.atanh", "math.erf", "math.erfc", "math.log10", "math.log1p",
        "math.expm1", "math.powf", "math.cbrt", "tile.precise_sqrt",
        "tile.precise_divf", "tile.clampf", "tile.mulhiui", "tile.bitcast",
        "tile.int_to_ptr", "tile.ptr_to_int", "tile.addptr", "tile.fp_to_fp",
        "tile.extern_elementwise"};
} // namespace

bool tritium::codegen::isElementwiseOpName(llvm::StringRef name) {
  for (const char *n : kElementwiseOps)
    if (name == n)
      return true;
  return false;
}

void tritium::codegen::populateElementwiseHandlers(HandlerTable &t) {
  for (const char *n : kElementwiseOps)
    t[n] = lowerElementwise;
  t["arith.constant"] = lowerConstant;
  t["tile.elementwise_inline_asm"] = lowerInlineAsm;
}

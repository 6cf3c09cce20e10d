//===- LibdeviceToLLVM.cpp - libdevice calls on each GPU target -----------===//
//
// Kernels name math and bit functions by NVIDIA's libdevice symbols
// (`__nv_sinf`, `__nv_popc`...): tl.math, tl.extra.libdevice and
// tile.extern_elementwise all arrive here. On NVIDIA the call stays and the
// pipeline links libdevice. On AMD a float function becomes a call of ROCm's
// ocml (`__ocml_sin_f32`, linked from ocml.bc), and libdevice's integer,
// predicate and bit-reinterpreting functions, which ocml does not have
// under a mechanical name, become LLVM IR here, with libdevice's results
// (its bitcode is the reference: __nv_clz(0) = 32, predicates are 0 or 1).
// What is left is a call of `__nv_*`, which the lowering reports at the op
// as not supported on the target.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "llvm/ADT/FloatingPointMode.h"
#include "llvm/IR/Module.h"

using namespace tritium::codegen;

namespace {

/// On AMD, libdevice's `__nv_<name>f` / `__nv_<name>` on fp32 / fp64 values
/// is ROCm's `__ocml_<name>_f32` / `_f64` (linked from ocml.bc); "" when
/// the arguments and result are not all fp32 or all fp64.
std::string ocmlName(llvm::StringRef nv, llvm::ArrayRef<llvm::Type *> args,
                     llvm::Type *rt) {
  if (!nv.starts_with("__nv_"))
    return "";
  std::string base = nv.drop_front(5).str();
  auto all = [&](bool (llvm::Type::*is)() const) {
    for (llvm::Type *t : args)
      if (!(t->*is)())
        return false;
    return (rt->*is)();
  };
  if (all(&llvm::Type::isFloatTy) && base.size() > 1 && base.back() == 'f')
    return "__ocml_" + base.substr(0, base.size() - 1) + "_f32";
  if (all(&llvm::Type::isDoubleTy))
    return "__ocml_" + base + "_f64";
  return "";
}

/// `x` as the integer of its bits.
llvm::Value *asInt(llvm::IRBuilderBase &b, llvm::Value *x) {
  llvm::Type *t = x->getType();
  return t->isIntegerTy()
             ? x
             : b.CreateBitCast(x, b.getIntNTy(t->getPrimitiveSizeInBits()));
}

/// 1 where `x` is in the classes of `mask`, else 0, as libdevice's i32.
llvm::Value *fpClass(llvm::IRBuilderBase &b, llvm::Value *x,
                     llvm::FPClassTest mask, llvm::Type *rt) {
  return b.CreateZExt(b.createIsFPClass(x, mask), rt);
}

/// High half of the double-width product of two i32 or i64 values.
llvm::Value *mulHi(llvm::IRBuilderBase &b, llvm::Value *x, llvm::Value *y,
                   bool isSigned) {
  unsigned bits = x->getType()->getIntegerBitWidth();
  llvm::Type *wide = b.getIntNTy(2 * bits);
  auto ext = [&](llvm::Value *v) {
    return isSigned ? b.CreateSExt(v, wide) : b.CreateZExt(v, wide);
  };
  return b.CreateTrunc(b.CreateLShr(b.CreateMul(ext(x), ext(y)), bits),
                       x->getType());
}

/// (x + y + round) >> 1 without overflow: the sum in 64 bits.
llvm::Value *halfAdd(llvm::IRBuilderBase &b, llvm::Value *x, llvm::Value *y,
                     bool isSigned, bool round) {
  auto ext = [&](llvm::Value *v) {
    return isSigned ? b.CreateSExt(v, b.getInt64Ty())
                    : b.CreateZExt(v, b.getInt64Ty());
  };
  llvm::Value *s = b.CreateAdd(ext(x), ext(y));
  if (round)
    s = b.CreateAdd(s, b.getInt64(1));
  return b.CreateTrunc(isSigned ? b.CreateAShr(s, 1) : b.CreateLShr(s, 1),
                       b.getInt32Ty());
}

/// libdevice's integer, predicate and bit-reinterpreting function `name`
/// (without `__nv_`) as LLVM IR, or null when it is not one of them. The
/// results are libdevice's, bit for bit:
///   clz(x)  = leading zeros, 32 (64) for 0      popc(x) = set bits
///   ffs(x)  = 1 + index of the lowest set bit, 0 for 0
///   brev(x) = bits reversed                      abs(INT_MIN) = INT_MIN
///   isnan, isinf, finite, isfinite = 1 or 0      signbit = the sign bit, 1 or
///   0 mulhi = high word of the double-width product, mul24 = product of the
///   low 24 bits (sign-extended for the signed one), sad(x, y, z) = |x - y|
///   + z, hadd / rhadd = (x + y (+ 1)) >> 1 without overflow, byte_perm(x,
///   y, s) = byte n of the result is byte (s >> 4n) & 7 of y:x,
///   *_as_* = the same bits, double2hiint / loint = a double's words.
llvm::Value *integerFunction(llvm::IRBuilderBase &b, llvm::StringRef name,
                             llvm::ArrayRef<llvm::Value *> a, llvm::Type *rt) {
  auto unary = [&](llvm::Intrinsic::ID id) {
    return b.CreateZExtOrTrunc(b.CreateUnaryIntrinsic(id, a[0]), rt);
  };
  if (name == "clz" || name == "clzll")
    return b.CreateZExtOrTrunc(
        b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0], b.getFalse()), rt);
  if (name == "popc" || name == "popcll")
    return unary(llvm::Intrinsic::ctpop);
  if (name == "brev" || name == "brevll")
    return unary(llvm::Intrinsic::bitreverse);
  if (name == "ffs" || name == "ffsll") {
    llvm::Value *x = a[0];
    llvm::Value *tz =
        b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, b.getTrue());
    llvm::Value *r =
        b.CreateAdd(b.CreateZExtOrTrunc(tz, rt), llvm::ConstantInt::get(rt, 1));
    return b.CreateSelect(
        b.CreateICmpEQ(x, llvm::ConstantInt::get(x->getType(), 0)),
        llvm::ConstantInt::get(rt, 0), r);
  }
  if (name == "abs" ||
      name == "llabs") // libdevice wraps: abs(INT_MIN) = INT_MIN
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a[0], b.getFalse());
  if (name == "isnanf" || name == "isnand")
    return fpClass(b, a[0], llvm::fcNan, rt);
  if (name == "isinff" || name == "isinfd")
    return fpClass(b, a[0], llvm::fcInf, rt);
  if (name == "finitef" || name == "isfinited")
    return fpClass(b, a[0], llvm::fcFinite, rt);
  if (name == "signbitf" || name == "signbitd") {
    llvm::Value *bits = asInt(b, a[0]);
    unsigned w = bits->getType()->getIntegerBitWidth();
    return b.CreateTrunc(b.CreateLShr(bits, w - 1), rt);
  }
  if (name == "mulhi" || name == "mul64hi")
    return mulHi(b, a[0], a[1], /*isSigned=*/true);
  if (name == "umulhi" || name == "umul64hi")
    return mulHi(b, a[0], a[1], /*isSigned=*/false);
  if (name == "mul24") // the low 24 bits, sign-extended
    return b.CreateMul(b.CreateAShr(b.CreateShl(a[0], 8), 8),
                       b.CreateAShr(b.CreateShl(a[1], 8), 8));
  if (name == "umul24")
    return b.CreateMul(b.CreateAnd(a[0], 0xFFFFFF),
                       b.CreateAnd(a[1], 0xFFFFFF));
  if (name == "sad") { // |x - y| in 64 bits, wrapped into the unsigned sum
    llvm::Value *d = b.CreateSub(b.CreateSExt(a[0], b.getInt64Ty()),
                                 b.CreateSExt(a[1], b.getInt64Ty()));
    d = b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, d, b.getFalse());
    return b.CreateAdd(a[2], b.CreateTrunc(d, b.getInt32Ty()));
  }
  if (name == "usad") {
    llvm::Value *d =
        b.CreateSub(b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, a[0], a[1]),
                    b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, a[0], a[1]));
    return b.CreateAdd(a[2], d);
  }
  if (name == "hadd" || name == "rhadd")
    return halfAdd(b, a[0], a[1], /*isSigned=*/true, name == "rhadd");
  if (name == "uhadd" || name == "urhadd")
    return halfAdd(b, a[0], a[1], /*isSigned=*/false, name == "urhadd");
  if (name == "byte_perm") {
    // src = y:x (x the low word); byte n of the result is byte
    // (s >> 4n) & 7 of src.
    llvm::Type *i64 = b.getInt64Ty();
    llvm::Value *src = b.CreateOr(b.CreateShl(b.CreateZExt(a[1], i64), 32),
                                  b.CreateZExt(a[0], i64));
    llvm::Value *s = b.CreateZExt(a[2], i64);
    llvm::Value *r = b.getInt64(0);
    for (unsigned n = 0; n < 4; ++n) {
      llvm::Value *sel = b.CreateAnd(b.CreateLShr(s, 4 * n), 7);
      llvm::Value *byte =
          b.CreateAnd(b.CreateLShr(src, b.CreateShl(sel, 3)), 0xFF);
      r = b.CreateOr(r, b.CreateShl(byte, 8 * n));
    }
    return b.CreateTrunc(r, b.getInt32Ty());
  }
  if (name == "int_as_float" || name == "uint_as_float" ||
      name == "float_as_int" || name == "float_as_uint" ||
      name == "longlong_as_double" || name == "double_as_longlong")
    return b.CreateBitCast(a[0], rt);
  if (name == "double2loint")
    return b.CreateTrunc(asInt(b, a[0]), rt);
  if (name == "double2hiint")
    return b.CreateTrunc(b.CreateLShr(asInt(b, a[0]), 32), rt);
  if (name == "hiloint2double") {
    llvm::Type *i64 = b.getInt64Ty();
    llvm::Value *bits = b.CreateOr(b.CreateShl(b.CreateZExt(a[0], i64), 32),
                                   b.CreateZExt(a[1], i64));
    return b.CreateBitCast(bits, rt);
  }
  return nullptr;
}

} // namespace

llvm::Value *
tritium::codegen::callMathLibrary(Lowering &L, llvm::StringRef name,
                                  llvm::ArrayRef<llvm::Value *> args,
                                  llvm::Type *rt) {
  std::vector<llvm::Type *> tys;
  for (llvm::Value *a : args)
    tys.push_back(a->getType());
  std::string callee = name.str();
  if (!L.target.isNvidia()) {
    if (name.starts_with("__nv_"))
      if (llvm::Value *v = integerFunction(L.b, name.drop_front(5), args, rt))
        return v;
    if (std::string o = ocmlName(name, tys, rt); !o.empty())
      callee = o;
  }
  auto fn = L.mod.getOrInsertFunction(callee,
                                      llvm::FunctionType::get(rt, tys, false));
  return L.b.CreateCall(fn, args);
}

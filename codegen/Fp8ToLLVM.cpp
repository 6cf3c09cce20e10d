//===- Fp8ToLLVM.cpp - fp8 conversions as integer LLVM IR -----------------===//
//
// tile.fp_to_fp between the five fp8 formats and fp16/bf16/fp32/fp64 (and
// between fp8 formats), one register at a time. The results match the
// interpreter (interpreter/Fp8.cpp) bit for bit: exact decoding, encoding
// with round-to-nearest-even or toward zero, saturation of overflow and
// infinities to the largest finite value, the format's NaN for NaN, no
// negative zero in the FNUZ formats, and fp8e4b15 (MLIR's f8E4M3B11FNUZ
// type carrying Triton's bias-15, all-finite format) clamped to 1.75 and
// rounded half away from zero.
//
// Everything is integer IR on the bit patterns, with llvm.ctlz and a few
// float conversions that are exact on normal numbers (uitofp of a small
// mantissa, fptrunc/fpext of a decoded value): no target-specific
// intrinsics, so the same emitter runs on the host, and no step depends on
// how the target treats fp32 subnormals (flush-to-zero would lose
// subnormal inputs). Wider sources, fp64 included, are rounded straight
// from their own bits, so there is a single rounding. A kernel's first
// kFp8InlineConversions registers are converted in place, the rest by
// calls of one helper function per conversion (Lowering.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace tritium::codegen;

namespace {

/// How a format spends its all-ones codes.
enum class Special {
  IeeeInf,     // e5m2: exponent all ones is inf (mantissa 0) or NaN
  NanAllOnes,  // e4m3fn: only S.1111.111 is NaN, no infinities
  Fnuz,        // 0x80 is the only NaN, no infinities, no negative zero
  TritonE4B15, // every code finite, encoding clamps to 1.75
};

struct Fp8Format {
  unsigned ebits, mbits;
  int bias;
  Special special;
  uint8_t maxCode; // magnitude code of the largest value encoding yields
  uint8_t nanCode;
};

std::optional<Fp8Format> fp8FormatOf(mlir::Type t) {
  if (llvm::isa<mlir::Float8E4M3FNType>(t))
    return Fp8Format{4, 3, 7, Special::NanAllOnes, 0x7e, 0x7f}; // 448
  if (llvm::isa<mlir::Float8E5M2Type>(t))
    return Fp8Format{5, 2, 15, Special::IeeeInf, 0x7b, 0x7f}; // 57344
  if (llvm::isa<mlir::Float8E4M3B11FNUZType>(t))
    return Fp8Format{4, 3, 15, Special::TritonE4B15, 0x7e, 0x7e}; // 1.75
  if (llvm::isa<mlir::Float8E4M3FNUZType>(t))
    return Fp8Format{4, 3, 8, Special::Fnuz, 0x7f, 0x80}; // 240
  if (llvm::isa<mlir::Float8E5M2FNUZType>(t))
    return Fp8Format{5, 2, 16, Special::Fnuz, 0x7f, 0x80}; // 57344
  return std::nullopt;
}

/// An IEEE binary format that fp8 converts from or to.
struct IeeeFormat {
  unsigned width, mbits;
  int bias;
};

std::optional<IeeeFormat> ieeeFormatOf(mlir::Type t) {
  if (t.isF16())
    return IeeeFormat{16, 10, 15};
  if (t.isBF16())
    return IeeeFormat{16, 7, 127};
  if (t.isF32())
    return IeeeFormat{32, 23, 127};
  if (t.isF64())
    return IeeeFormat{64, 52, 1023};
  return std::nullopt;
}

llvm::Value *cst(llvm::Type *t, int64_t v) {
  return llvm::ConstantInt::get(t, uint64_t(v), /*isSigned=*/v < 0);
}

/// fp8 code (i8) -> the fp32 bits (i32) of its value, and whether it is NaN.
/// Every fp8 value is a normal fp32 number (or zero), so normal codes only
/// move their exponent field; subnormal codes are normalized by an exact
/// uitofp of the mantissa, whose exponent field is then rebased.
std::pair<llvm::Value *, llvm::Value *>
decodeToF32Bits(llvm::IRBuilderBase &b, llvm::Value *code, const Fp8Format &f) {
  llvm::Type *i32 = b.getInt32Ty();
  llvm::Value *c = b.CreateZExt(code, i32);
  llvm::Value *sign = b.CreateShl(b.CreateAnd(c, 0x80), 24);
  llvm::Value *mag = b.CreateAnd(c, 0x7f);
  llvm::Value *e = b.CreateLShr(mag, f.mbits);
  llvm::Value *m = b.CreateAnd(mag, (1u << f.mbits) - 1);
  llvm::Value *normal = b.CreateAdd(b.CreateShl(mag, 23 - f.mbits),
                                    cst(i32, int64_t(127 - f.bias) << 23));
  // m * 2^(1 - bias - mbits): uitofp(m) is exact and normal, its exponent
  // is shifted by the constant.
  llvm::Value *sub = b.CreateAdd(
      b.CreateBitCast(b.CreateUIToFP(m, b.getFloatTy()), i32),
      cst(i32, int64_t(1 - f.bias - int(f.mbits)) * (int64_t(1) << 23)));
  sub = b.CreateSelect(b.CreateICmpEQ(m, cst(i32, 0)), cst(i32, 0), sub);
  llvm::Value *magBits =
      b.CreateSelect(b.CreateICmpEQ(e, cst(i32, 0)), sub, normal);
  llvm::Value *isNaN = b.getFalse();
  switch (f.special) {
  case Special::IeeeInf: {
    int64_t inf = int64_t((1u << f.ebits) - 1) << f.mbits;
    magBits = b.CreateSelect(b.CreateICmpEQ(mag, cst(i32, inf)),
                             cst(i32, 0x7f800000), magBits);
    isNaN = b.CreateICmpUGT(mag, cst(i32, inf));
    break;
  }
  case Special::NanAllOnes:
    isNaN = b.CreateICmpEQ(mag, cst(i32, 0x7f));
    break;
  case Special::Fnuz:
    isNaN = b.CreateICmpEQ(c, cst(i32, 0x80));
    break;
  case Special::TritonE4B15:
    break;
  }
  // NaN decodes to the positive quiet NaN whatever its sign and payload.
  llvm::Value *bits =
      b.CreateSelect(isNaN, cst(i32, 0x7fc00000), b.CreateOr(sign, magBits));
  return {bits, isNaN};
}

/// The bits `x` (iN) of a value in format `s` -> fp8 code (i8) of `f`.
///
/// The magnitude is sig * 2^elsb (sig the significand with its implicit
/// bit). Its fp8 exponent is te = max(floor(log2 |x|), emin), the quantum
/// 2^(te - mbits), so the quantized magnitude is sig >> (te - mbits - elsb)
/// rounded on the dropped bits. The code is then ((te - emin) << mbits) + q:
/// for subnormal results te = emin and q < 2^mbits is the mantissa; for
/// normal ones q carries the implicit bit into the exponent field, and a
/// rounding carry out of the mantissa bumps the exponent as it should.
llvm::Value *encodeFromBits(llvm::IRBuilderBase &b, llvm::Value *x,
                            const IeeeFormat &s, const Fp8Format &f, bool rtz) {
  llvm::Type *t = x->getType();
  unsigned n = s.width;
  int emin = 1 - f.bias;
  llvm::Value *signBit = b.CreateLShr(x, n - 1);
  llvm::Value *sign = b.CreateShl(b.CreateTrunc(signBit, b.getInt8Ty()), 7);
  llvm::APInt absMask = llvm::APInt::getSignedMaxValue(n);
  llvm::APInt infBits =
      llvm::APInt::getLowBitsSet(n, n - 1 - s.mbits).shl(s.mbits);
  llvm::Value *abs = b.CreateAnd(x, llvm::ConstantInt::get(t, absMask));
  llvm::Value *isNaN = b.CreateICmpUGT(abs, llvm::ConstantInt::get(t, infBits));
  llvm::Value *isInf = b.CreateICmpEQ(abs, llvm::ConstantInt::get(t, infBits));

  llvm::Value *expField = b.CreateLShr(abs, s.mbits);
  llvm::Value *man = b.CreateAnd(abs, cst(t, (int64_t(1) << s.mbits) - 1));
  llvm::Value *isSub = b.CreateICmpEQ(expField, cst(t, 0));
  llvm::Value *sig = b.CreateSelect(
      isSub, man, b.CreateOr(man, cst(t, int64_t(1) << s.mbits)));
  llvm::Value *elsb = b.CreateSub(b.CreateSelect(isSub, cst(t, 1), expField),
                                  cst(t, s.bias + int(s.mbits)));
  // floor(log2 |x|). For source subnormals the leading bit must be found
  // only when they can reach the fp8 normal range (fp16 -> e5m2fnuz);
  // otherwise they all land on te = emin anyway.
  llvm::Value *top;
  if (1 - s.bias > emin) {
    llvm::Value *lz =
        b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, sig, b.getFalse());
    top = b.CreateSub(cst(t, n - 1), lz);
  } else {
    top = cst(t, s.mbits);
  }
  llvm::Value *elog = b.CreateAdd(elsb, top);
  llvm::Value *te =
      b.CreateSelect(b.CreateICmpSGT(elog, cst(t, emin)), elog, cst(t, emin));
  // Source formats have at least 4 more mantissa bits than fp8, so the
  // shift is >= 1; past mbits + 2 every bit of sig lies below half a
  // quantum (rounds to 0), and clamping keeps the shift in range.
  llvm::Value *shift = b.CreateSub(b.CreateSub(te, cst(t, f.mbits)), elsb);
  llvm::Value *maxShift = cst(t, s.mbits + 2);
  shift = b.CreateSelect(b.CreateICmpUGT(shift, maxShift), maxShift, shift);
  llvm::Value *q = b.CreateLShr(sig, shift);
  llvm::Value *one = cst(t, 1);
  llvm::Value *rem =
      b.CreateAnd(sig, b.CreateSub(b.CreateShl(one, shift), one));
  llvm::Value *half = b.CreateShl(one, b.CreateSub(shift, one));
  llvm::Value *up = nullptr;
  if (f.special == Special::TritonE4B15) {
    up = b.CreateICmpUGE(rem, half); // half away from zero, never rtz
    // The interpreter rounds with floor(|x| / quantum + 0.5) in double; the
    // sum rounds up to 1.0 for one fp64 input only, the largest double below
    // 2^-18 (half the smallest subnormal), which thus encodes as 0x01.
    if (n == 64)
      up = b.CreateOr(up,
                      b.CreateICmpEQ(abs, b.getInt64(0x3ecfffffffffffffull)));
  } else if (!rtz) {
    up =
        b.CreateOr(b.CreateICmpUGT(rem, half),
                   b.CreateAnd(b.CreateICmpEQ(rem, half),
                               b.CreateICmpNE(b.CreateAnd(q, one), cst(t, 0))));
  }
  if (up)
    q = b.CreateAdd(q, b.CreateZExt(up, t));
  llvm::Value *code =
      b.CreateAdd(b.CreateShl(b.CreateSub(te, cst(t, emin)), f.mbits), q);
  llvm::Value *maxCode = cst(t, f.maxCode);
  code = b.CreateSelect(b.CreateICmpUGT(code, maxCode), maxCode, code);
  llvm::Value *mag = b.CreateTrunc(code, b.getInt8Ty());

  llvm::Type *i8 = b.getInt8Ty();
  if (f.special == Special::TritonE4B15) {
    // NaN and infinities clamp to 1.75 like everything else, keeping the sign.
    mag = b.CreateSelect(b.CreateOr(isNaN, isInf), cst(i8, f.maxCode), mag);
    return b.CreateOr(sign, mag);
  }
  mag = b.CreateSelect(isInf, cst(i8, f.maxCode), mag);
  llvm::Value *r = b.CreateOr(sign, mag);
  if (f.special == Special::Fnuz)
    r = b.CreateSelect(b.CreateICmpEQ(mag, cst(i8, 0)), cst(i8, 0), r);
  return b.CreateSelect(isNaN, cst(i8, f.nanCode), r);
}

/// fp32 bits of an fp8 value -> `dst` (exact: every fp8 value fits fp16
/// and bf16). NaN becomes the quiet NaN the interpreter's conversions give
/// (0x7e00, 0x7fc0, 0x7ff8...), whatever the target's cvt would produce.
llvm::Value *fromF32Bits(llvm::IRBuilderBase &b, llvm::Value *bits,
                         llvm::Value *isNaN, mlir::Type dst) {
  if (dst.isF32())
    return b.CreateBitCast(bits, b.getFloatTy());
  if (dst.isBF16()) // the low 16 bits are zero
    return b.CreateBitCast(
        b.CreateTrunc(b.CreateLShr(bits, 16), b.getInt16Ty()), b.getBFloatTy());
  llvm::Value *f = b.CreateBitCast(bits, b.getFloatTy());
  if (dst.isF16()) {
    llvm::Value *h =
        b.CreateBitCast(b.CreateFPTrunc(f, b.getHalfTy()), b.getInt16Ty());
    return b.CreateBitCast(b.CreateSelect(isNaN, b.getInt16(0x7e00), h),
                           b.getHalfTy());
  }
  if (dst.isF64()) {
    llvm::Value *d =
        b.CreateBitCast(b.CreateFPExt(f, b.getDoubleTy()), b.getInt64Ty());
    return b.CreateBitCast(
        b.CreateSelect(isNaN, b.getInt64(0x7ff8000000000000ull), d),
        b.getDoubleTy());
  }
  return nullptr;
}

llvm::Value *convert(llvm::IRBuilderBase &b, llvm::Value *x, mlir::Type srcType,
                     mlir::Type dstType, bool rtz) {
  std::optional<Fp8Format> src = fp8FormatOf(srcType),
                           dst = fp8FormatOf(dstType);
  if (src && dst) {
    // Decoding is exact, so one rounding happens, as in the interpreter.
    llvm::Value *bits = decodeToF32Bits(b, x, *src).first;
    return encodeFromBits(b, bits, IeeeFormat{32, 23, 127}, *dst, rtz);
  }
  if (src) {
    std::optional<IeeeFormat> to = ieeeFormatOf(dstType);
    if (!to)
      return nullptr;
    if (src->special == Special::IeeeInf && dstType.isF16()) {
      // e5m2 is the top byte of fp16 (subnormals and infinities included);
      // only NaN payloads are replaced by the quiet NaN.
      llvm::Value *h = b.CreateShl(b.CreateZExt(x, b.getInt16Ty()), 8);
      llvm::Value *isNaN =
          b.CreateICmpUGT(b.CreateAnd(h, 0x7fff), b.getInt16(0x7c00));
      return b.CreateBitCast(b.CreateSelect(isNaN, b.getInt16(0x7e00), h),
                             b.getHalfTy());
    }
    auto [bits, isNaN] = decodeToF32Bits(b, x, *src);
    return fromF32Bits(b, bits, isNaN, dstType);
  }
  if (dst) {
    std::optional<IeeeFormat> from = ieeeFormatOf(srcType);
    if (!from)
      return nullptr;
    llvm::Value *bits = b.CreateBitCast(x, b.getIntNTy(from->width));
    return encodeFromBits(b, bits, *from, *dst, rtz);
  }
  return nullptr;
}

/// The LLVM type a register of `t` travels in, or null.
llvm::Type *registerType(llvm::LLVMContext &ctx, mlir::Type t) {
  if (fp8FormatOf(t))
    return llvm::Type::getInt8Ty(ctx);
  if (t.isF16())
    return llvm::Type::getHalfTy(ctx);
  if (t.isBF16())
    return llvm::Type::getBFloatTy(ctx);
  if (t.isF32())
    return llvm::Type::getFloatTy(ctx);
  if (t.isF64())
    return llvm::Type::getDoubleTy(ctx);
  return nullptr;
}

std::string typeTag(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The module's helper converting one register from `srcType` to
/// `dstType`, made on first use; null when the pair is not supported.
llvm::Function *conversionHelper(llvm::Module &m, llvm::Type *argType,
                                 mlir::Type srcType, mlir::Type dstType,
                                 bool rtz) {
  std::string name = "__tritium_cvt_" + typeTag(srcType) + "_" +
                     typeTag(dstType) + (rtz ? "_rtz" : "");
  if (llvm::Function *f = m.getFunction(name))
    return f;
  llvm::Type *ret = registerType(m.getContext(), dstType);
  if (!ret)
    return nullptr;
  auto *f = llvm::Function::Create(
      llvm::FunctionType::get(ret, {argType}, false),
      llvm::GlobalValue::InternalLinkage, name, &m);
  f->addFnAttr(llvm::Attribute::NoInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addFnAttr(llvm::Attribute::WillReturn);
  f->setDoesNotAccessMemory();
  llvm::IRBuilder<> fb(llvm::BasicBlock::Create(m.getContext(), "entry", f));
  llvm::Value *r = convert(fb, f->getArg(0), srcType, dstType, rtz);
  if (!r || r->getType() != ret) {
    f->eraseFromParent();
    return nullptr;
  }
  fb.CreateRet(r);
  return f;
}
} // namespace

llvm::Value *tritium::codegen::emitFp8Convert(Lowering &L, llvm::Value *x,
                                              mlir::Type srcType,
                                              mlir::Type dstType,
                                              bool roundTowardZero) {
  if (L.fp8Conversions++ >= kFp8InlineConversions)
    if (llvm::Function *f = conversionHelper(L.mod, x->getType(), srcType,
                                             dstType, roundTowardZero))
      return L.b.CreateCall(f, {x});
  return convert(L.b, x, srcType, dstType, roundTowardZero);
}

//===- Fp8ConvertTest.cpp - GPU fp8 conversions against the interpreter ---===//
//
// emitFp8Convert emits target-independent IR, so the very code the GPU
// kernels get can be JIT-compiled for the host and run on every input that
// matters: all 256 codes of each fp8 format up to fp16/bf16/fp32/fp64 and to
// every other fp8 format, all fp16 and bf16 values, and a sweep of fp32 and
// fp64 values (every sign/exponent/top-7-mantissa-bit pattern with several
// low-bit tails, every fp8 midpoint and its neighbours, random bit patterns,
// NaN payloads, infinities, subnormals) down to each format, rounding to
// nearest even and toward zero. Each result must equal the interpreter's
// conversion (interpreter/Fp8.cpp, with the interpreter's fp16/bf16/fp64
// write-back) bit for bit.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "interpreter/Value.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tritium;
using interp::EK;

namespace {

struct Fmt {
  const char *name;
  EK kind;
  mlir::Type type;
};

template <class To, class From> To bits(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To r;
  std::memcpy(static_cast<void *>(&r), static_cast<const void *>(&v), sizeof r);
  return r;
}

double halfToDouble(uint16_t h) { return float(bits<interp::half>(h)); }
double bf16ToDouble(uint16_t h) { return float(bits<interp::bf16>(h)); }

/// Builds `iR name(iA)` functions around emitFp8Convert (floats travel as
/// their bits so that the host ABI never sees half/bfloat), then
/// JIT-compiles them all at once.
class ConvertJit {
public:
  ConvertJit()
      : ctx_(std::make_unique<llvm::LLVMContext>()),
        mod_(std::make_unique<llvm::Module>("fp8", *ctx_)),
        target_(codegen::createNvidiaTargetInfo(90)),
        lowering_(*mod_, *target_, 4) {}

  void add(const std::string &name, mlir::Type src, mlir::Type dst, bool rtz) {
    llvm::IRBuilderBase &b = lowering_.b;
    llvm::Type *srcTy = lowering_.llvmType(src),
               *dstTy = lowering_.llvmType(dst);
    auto *argTy = b.getIntNTy(srcTy->getPrimitiveSizeInBits());
    auto *retTy = b.getIntNTy(dstTy->getPrimitiveSizeInBits());
    auto *fn =
        llvm::Function::Create(llvm::FunctionType::get(retTy, {argTy}, false),
                               llvm::GlobalValue::ExternalLinkage, name, *mod_);
    b.SetInsertPoint(llvm::BasicBlock::Create(*ctx_, "entry", fn));
    llvm::Value *x = b.CreateBitCast(fn->getArg(0), srcTy);
    llvm::Value *r = codegen::emitFp8Convert(lowering_, x, src, dst, rtz);
    if (!r) {
      missing_.push_back(name);
      b.CreateRet(llvm::UndefValue::get(retTy));
      return;
    }
    b.CreateRet(b.CreateBitCast(r, retTy));
  }

  /// Compiles everything added so far; the error text on failure.
  std::string compile() {
    if (!missing_.empty())
      return "emitFp8Convert returned null for " + missing_.front();
    std::string err;
    llvm::raw_string_ostream os(err);
    lowering_.b.ClearInsertionPoint();
    if (llvm::verifyModule(*mod_, &os))
      return "invalid IR: " + err;
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto jit = llvm::orc::LLJITBuilder().create();
    if (!jit)
      return llvm::toString(jit.takeError());
    jit_ = std::move(*jit);
    if (auto e = jit_->addIRModule(
            llvm::orc::ThreadSafeModule(std::move(mod_), std::move(ctx_))))
      return llvm::toString(std::move(e));
    return "";
  }

  template <class R, class A> R (*lookup(const std::string &name))(A) {
    auto addr = jit_->lookup(name);
    if (!addr) {
      FAIL_CHECK(llvm::toString(addr.takeError()));
      return nullptr;
    }
    return addr->toPtr<R (*)(A)>();
  }

private:
  std::unique_ptr<llvm::LLVMContext> ctx_;
  std::unique_ptr<llvm::Module> mod_;
  std::unique_ptr<codegen::TargetInfo> target_;
  // The JIT ends up owning the module and its context: it must outlive the
  // lowering, whose builder still refers to them.
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  codegen::Lowering lowering_;
  std::vector<std::string> missing_;
};

/// Counts mismatches and keeps the first few for the failure message.
struct Mismatches {
  std::string what;
  uint64_t compared = 0, bad = 0;
  std::ostringstream first;
  void check(uint64_t input, uint64_t got, uint64_t want) {
    ++compared;
    if (got == want)
      return;
    if (++bad <= 8)
      first << "  input 0x" << std::hex << input << ": got 0x" << got
            << ", want 0x" << want << std::dec << "\n";
  }
};

#define REQUIRE_NO_MISMATCH(m)                                                 \
  do {                                                                         \
    INFO((m).what << ": " << (m).bad << " of " << (m).compared << " differ\n"  \
                  << (m).first.str());                                         \
    CHECK((m).bad == 0);                                                       \
  } while (0)

const char *rtzName(bool rtz) { return rtz ? "rtz" : "rtne"; }

/// f32 inputs: every (sign, exponent, top 7 mantissa bits) with several
/// tails for the low 16 bits, which puts every fp8 rounding midpoint (at
/// most 5 significant bits) and its neighbours in the set; plus random
/// patterns.
std::vector<uint32_t> f32Inputs() {
  std::vector<uint32_t> v;
  const uint32_t tails[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0x1234};
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (uint32_t t : tails)
      v.push_back(hi << 16 | t);
  std::mt19937 rng(12345);
  for (int i = 0; i < 1000000; ++i)
    v.push_back(uint32_t(rng()));
  return v;
}

/// f64 inputs: the f32 set (top half) widened, each with its two f64
/// neighbours (sticky bits far below fp32 precision), values outside the
/// fp32 range, and random patterns.
std::vector<uint64_t> f64Inputs() {
  std::vector<uint64_t> v;
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (uint32_t t : {0u, 0x8000u, 0x7fffu}) {
      double d = bits<float>(hi << 16 | t);
      v.push_back(bits<uint64_t>(d));
      if (std::isfinite(d)) {
        v.push_back(bits<uint64_t>(std::nextafter(d, INFINITY)));
        v.push_back(bits<uint64_t>(std::nextafter(d, -INFINITY)));
      }
    }
  for (double d : {1e300, -1e300, 1e-300, -1e-300, 4.9e-324, -4.9e-324, 3.5e38,
                   1e39, 2.2250738585072014e-308})
    v.push_back(bits<uint64_t>(d));
  for (uint64_t nan :
       {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
        0xfff0000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull})
    v.push_back(nan);
  std::mt19937_64 rng(6789);
  for (int i = 0; i < 300000; ++i)
    v.push_back(rng());
  return v;
}

/// Every midpoint between neighbouring magnitudes of format `k` and the
/// values next to it, in fp32 and fp64 (also the NaN-free codes
/// themselves and their neighbours).
void addMidpoints(EK k, std::vector<uint32_t> &f32,
                  std::vector<uint64_t> &f64) {
  std::vector<double> mags;
  for (int c = 0; c < 0x80; ++c) {
    float x = interp::fp8ToFloat(k, uint8_t(c));
    if (std::isfinite(x))
      mags.push_back(x);
  }
  std::sort(mags.begin(), mags.end());
  mags.push_back(2 * mags.back()); // past the largest value
  std::vector<double> pts;
  for (size_t i = 0; i + 1 < mags.size(); ++i) {
    pts.push_back(mags[i]);
    pts.push_back((mags[i] + mags[i + 1]) / 2);
  }
  pts.push_back(mags.back());
  for (double p : pts)
    for (double s : {1.0, -1.0}) {
      double d = s * p;
      float f = float(d);
      for (float g :
           {f, std::nextafter(f, INFINITY), std::nextafter(f, -INFINITY)})
        f32.push_back(bits<uint32_t>(g));
      for (double e :
           {d, std::nextafter(d, INFINITY), std::nextafter(d, -INFINITY)})
        f64.push_back(bits<uint64_t>(e));
    }
}

} // namespace

TEST_CASE("fp8 conversions emitted for the GPU match the interpreter",
          "[fp8]") {
  mlir::MLIRContext mctx;
  mlir::Builder mb(&mctx);
  std::vector<Fmt> fmts = {
      {"e4m3fn", EK::F8E4M3FN, mlir::Float8E4M3FNType::get(&mctx)},
      {"e5m2", EK::F8E5M2, mlir::Float8E5M2Type::get(&mctx)},
      {"e4b15", EK::F8E4M3B11, mlir::Float8E4M3B11FNUZType::get(&mctx)},
      {"e4m3fnuz", EK::F8E4M3FNUZ, mlir::Float8E4M3FNUZType::get(&mctx)},
      {"e5m2fnuz", EK::F8E5M2FNUZ, mlir::Float8E5M2FNUZType::get(&mctx)},
  };
  struct Wide {
    const char *name;
    mlir::Type type;
  };
  std::vector<Wide> wides = {{"f16", mb.getF16Type()},
                             {"bf16", mb.getBF16Type()},
                             {"f32", mb.getF32Type()},
                             {"f64", mb.getF64Type()}};

  ConvertJit jit;
  for (const Fmt &f : fmts) {
    for (const Wide &w : wides) {
      jit.add(std::string("up_") + f.name + "_" + w.name, f.type, w.type,
              false);
      for (bool rtz : {false, true})
        jit.add(std::string("down_") + w.name + "_" + f.name + "_" +
                    rtzName(rtz),
                w.type, f.type, rtz);
    }
    for (const Fmt &g : fmts)
      for (bool rtz : {false, true})
        jit.add(std::string("cross_") + f.name + "_" + g.name + "_" +
                    rtzName(rtz),
                f.type, g.type, rtz);
  }
  std::string err = jit.compile();
  INFO(err);
  REQUIRE(err.empty());

  std::vector<uint32_t> in32 = f32Inputs();
  std::vector<uint64_t> in64 = f64Inputs();
  for (const Fmt &f : fmts)
    addMidpoints(f.kind, in32, in64);

  uint64_t total = 0;
  for (const Fmt &f : fmts) {
    // Up: all 256 codes, to each wider type as the interpreter writes them.
    {
      Mismatches m16, mb16, m32, m64;
      m16.what = std::string(f.name) + " -> f16";
      mb16.what = std::string(f.name) + " -> bf16";
      m32.what = std::string(f.name) + " -> f32";
      m64.what = std::string(f.name) + " -> f64";
      auto up16 =
          jit.lookup<uint16_t, uint8_t>(std::string("up_") + f.name + "_f16");
      auto upb16 =
          jit.lookup<uint16_t, uint8_t>(std::string("up_") + f.name + "_bf16");
      auto up32 =
          jit.lookup<uint32_t, uint8_t>(std::string("up_") + f.name + "_f32");
      auto up64 =
          jit.lookup<uint64_t, uint8_t>(std::string("up_") + f.name + "_f64");
      REQUIRE((up16 && upb16 && up32 && up64));
      for (int c = 0; c < 256; ++c) {
        float x = interp::fp8ToFloat(f.kind, uint8_t(c));
        m16.check(c, up16(uint8_t(c)), bits<uint16_t>(interp::half(x)));
        mb16.check(c, upb16(uint8_t(c)), bits<uint16_t>(interp::bf16(x)));
        m32.check(c, up32(uint8_t(c)), bits<uint32_t>(x));
        m64.check(c, up64(uint8_t(c)), bits<uint64_t>(double(x)));
      }
      for (Mismatches *m : {&m16, &mb16, &m32, &m64}) {
        REQUIRE_NO_MISMATCH(*m);
        total += m->compared;
      }
    }
    for (bool rtz : {false, true}) {
      std::string sfx = std::string("_") + f.name + "_" + rtzName(rtz);
      auto d16 = jit.lookup<uint8_t, uint16_t>("down_f16" + sfx);
      auto db16 = jit.lookup<uint8_t, uint16_t>("down_bf16" + sfx);
      auto d32 = jit.lookup<uint8_t, uint32_t>("down_f32" + sfx);
      auto d64 = jit.lookup<uint8_t, uint64_t>("down_f64" + sfx);
      REQUIRE((d16 && db16 && d32 && d64));
      Mismatches m16, mb16, m32, m64;
      m16.what = std::string("f16 -> ") + f.name + " " + rtzName(rtz);
      mb16.what = std::string("bf16 -> ") + f.name + " " + rtzName(rtz);
      m32.what = std::string("f32 -> ") + f.name + " " + rtzName(rtz);
      m64.what = std::string("f64 -> ") + f.name + " " + rtzName(rtz);
      for (uint32_t h = 0; h < 0x10000; ++h) {
        m16.check(h, d16(uint16_t(h)),
                  interp::floatToFp8(f.kind, halfToDouble(uint16_t(h)), rtz));
        mb16.check(h, db16(uint16_t(h)),
                   interp::floatToFp8(f.kind, bf16ToDouble(uint16_t(h)), rtz));
      }
      for (uint32_t x : in32)
        m32.check(x, d32(x), interp::floatToFp8(f.kind, bits<float>(x), rtz));
      for (uint64_t x : in64)
        m64.check(x, d64(x), interp::floatToFp8(f.kind, bits<double>(x), rtz));
      for (Mismatches *m : {&m16, &mb16, &m32, &m64}) {
        REQUIRE_NO_MISMATCH(*m);
        total += m->compared;
      }
      // fp8 -> fp8: decode exactly, round once.
      for (const Fmt &g : fmts) {
        auto cross =
            jit.lookup<uint8_t, uint8_t>(std::string("cross_") + g.name + sfx);
        REQUIRE(cross);
        Mismatches m;
        m.what = std::string(g.name) + " -> " + f.name + " " + rtzName(rtz);
        for (int c = 0; c < 256; ++c)
          m.check(c, cross(uint8_t(c)),
                  interp::floatToFp8(
                      f.kind, interp::fp8ToFloat(g.kind, uint8_t(c)), rtz));
        REQUIRE_NO_MISMATCH(m);
        total += m.compared;
      }
    }
  }
  INFO("compared " << total << " conversions");
  CHECK(total > 20000000);
}

TEST_CASE("emitFp8Convert refuses pairs without an fp8 side", "[fp8]") {
  mlir::MLIRContext mctx;
  mlir::Builder mb(&mctx);
  llvm::LLVMContext ctx;
  llvm::Module mod("m", ctx);
  auto target = codegen::createNvidiaTargetInfo(90);
  codegen::Lowering L(mod, *target, 4);
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(L.b.getVoidTy(), {L.b.getFloatTy()}, false),
      llvm::GlobalValue::ExternalLinkage, "f", mod);
  L.b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  CHECK(codegen::emitFp8Convert(L, fn->getArg(0), mb.getF32Type(),
                                mb.getF16Type(), false) == nullptr);
  CHECK(codegen::emitFp8Convert(L, fn->getArg(0), mb.getF32Type(),
                                mb.getIntegerType(8), false) == nullptr);
}

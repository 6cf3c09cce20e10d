//===- SortJitTest.cpp - the GPU sort network against the interpreter -----===//
//
// The registers of a short sort axis are sorted by target-independent IR
// (emitSortRegisters), so that very code is JIT-compiled for the host and
// run on arrays of every dtype tile.sort takes, ascending and descending:
// random values with many duplicates, both zeros, NaNs with different signs
// and payloads, infinities. The result must equal, bit for bit, a stable
// sort by the interpreter's rule (interpreter/SortGather.cpp): integers
// signed (i1 unsigned); fp16, bf16, fp32 and fp64 by the total order of
// their bits (by value, -0.0 before +0.0, then the NaNs: positive ones by
// rising payload, then negative ones by falling payload; reversed
// descending); fp8 by value with
// NaNs last ascending and first descending, ties in their original order.
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
#include <numeric>
#include <random>
#include <tuple>
#include <string>
#include <vector>

namespace tritium::codegen {
bool emitSortRegisters(Lowering &L, mlir::Type elem, bool desc,
                       std::vector<llvm::Value *> &vals);
} // namespace tritium::codegen

using namespace tritium;
using interp::EK;

namespace {

struct Case {
  std::string name;
  mlir::Type type;
  EK kind;
  unsigned bytes;
};

/// The interpreter's order on the stored bits of one element kind.
bool isFloatKind(EK k) { return interp::isFloat(k); }
double asDouble(EK k, uint64_t v) {
  switch (k) {
  case EK::F16: {
    interp::half h;
    uint16_t b = uint16_t(v);
    std::memcpy(static_cast<void *>(&h), &b, 2);
    return float(h);
  }
  case EK::BF16: {
    interp::bf16 h;
    uint16_t b = uint16_t(v);
    std::memcpy(static_cast<void *>(&h), &b, 2);
    return float(h);
  }
  case EK::F32: {
    float f;
    uint32_t b = uint32_t(v);
    std::memcpy(&f, &b, 4);
    return f;
  }
  case EK::F64: {
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
  default:
    return interp::fp8ToFloat(k, uint8_t(v));
  }
}
int64_t asInt(EK k, uint64_t v, unsigned bytes) {
  if (k == EK::I1)
    return int64_t(v & 1);
  unsigned bits = bytes * 8;
  uint64_t m = uint64_t(1) << (bits - 1);
  if (bits < 64)
    v &= (m << 1) - 1;
  return int64_t((v ^ m) - m);
}

std::vector<uint64_t> reference(const Case &c, std::vector<uint64_t> in,
                                bool desc) {
  std::vector<size_t> perm(in.size());
  std::iota(perm.begin(), perm.end(), 0);
  unsigned mant = c.kind == tritium::interp::EK::F16    ? 10
                  : c.kind == tritium::interp::EK::BF16 ? 7
                  : c.kind == tritium::interp::EK::F32  ? 23
                  : c.kind == tritium::interp::EK::F64  ? 52
                                                        : 0;
  if (mant) {
    // Written out here from its definition, not shared with the code.
    unsigned bits = c.bytes * 8;
    uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    uint64_t sign = uint64_t(1) << (bits - 1);
    auto rank = [&](uint64_t v) {
      v &= all;
      bool nan = (v & ~sign) > (((all >> 1) >> mant) << mant);
      bool neg = v & sign;
      // Numbers: by value, -0 below +0 (sign-magnitude made unsigned).
      // NaNs: after every number, the positive ones first; each sign's
      // ordered as its numbers are (negative ones by falling magnitude).
      uint64_t mag = v & ~sign;
      if (nan)
        return std::make_tuple(2, neg ? 1 : 0, neg ? ~mag : mag);
      return std::make_tuple(1, 0, neg ? (~v & all) : (v | sign));
    };
    std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
      return desc ? rank(in[a]) > rank(in[b]) : rank(in[a]) < rank(in[b]);
    });
  } else if (isFloatKind(c.kind)) {
    std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
      double x = asDouble(c.kind, in[a]), y = asDouble(c.kind, in[b]);
      bool nx = std::isnan(x), ny = std::isnan(y);
      if (nx || ny)
        return desc ? (nx && !ny) : (!nx && ny);
      return desc ? x > y : x < y;
    });
  } else {
    std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
      int64_t x = asInt(c.kind, in[a], c.bytes),
              y = asInt(c.kind, in[b], c.bytes);
      return desc ? x > y : x < y;
    });
  }
  std::vector<uint64_t> out;
  for (size_t i : perm)
    out.push_back(in[i]);
  return out;
}

/// Element bit patterns: random bits, values drawn from a small pool (so
/// duplicates and ties are common), and the special values.
std::vector<uint64_t> inputs(const Case &c, unsigned n, std::mt19937_64 &rng) {
  unsigned bits = c.bytes * 8;
  uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  std::vector<uint64_t> pool;
  for (int i = 0; i < 6; ++i)
    pool.push_back(rng() & mask);
  uint64_t sign = uint64_t(1) << (bits - 1);
  pool.push_back(0);
  pool.push_back(sign);      // -0.0 / the most negative integer
  pool.push_back(mask);      // -NaN with every payload bit / -1
  pool.push_back(mask >> 1); // +NaN / the largest integer
  if (c.kind == EK::F32) {
    pool.push_back(0x7f800000);
    pool.push_back(0xff800000);
    pool.push_back(0x7fc00000);
    pool.push_back(0x7f800001);
  } else if (c.kind == EK::F64) {
    pool.push_back(0x7ff0000000000000ull);
    pool.push_back(0xfff8000000000000ull);
  } else if (c.kind == EK::F16) {
    pool.push_back(0x7c00);
    pool.push_back(0xfe00);
  } else if (c.bytes == 1) {
    pool.push_back(0x80);
    pool.push_back(0x7f);
    pool.push_back(0x7c);
    pool.push_back(0xff);
  }
  std::vector<uint64_t> v(n);
  for (auto &x : v)
    x = rng() % 3 == 0 ? (rng() & mask) : pool[rng() % pool.size()];
  if (c.kind == EK::I1)
    for (auto &x : v)
      x &= 1;
  return v;
}

} // namespace

TEST_CASE("GPU sort network matches the interpreter's sort", "[sort]") {
  mlir::MLIRContext mctx;
  mlir::Builder mb(&mctx);
  std::vector<Case> cases = {
      {"i1", mb.getI1Type(), EK::I1, 1},
      {"i8", mb.getI8Type(), EK::I8, 1},
      {"i16", mb.getI16Type(), EK::I16, 2},
      {"i32", mb.getI32Type(), EK::I32, 4},
      {"i64", mb.getI64Type(), EK::I64, 8},
      {"f16", mb.getF16Type(), EK::F16, 2},
      {"bf16", mb.getBF16Type(), EK::BF16, 2},
      {"f32", mb.getF32Type(), EK::F32, 4},
      {"f64", mb.getF64Type(), EK::F64, 8},
      {"f8e4m3fn", mlir::Float8E4M3FNType::get(&mctx), EK::F8E4M3FN, 1},
      {"f8e5m2", mlir::Float8E5M2Type::get(&mctx), EK::F8E5M2, 1},
      {"f8e4b15", mlir::Float8E4M3B11FNUZType::get(&mctx), EK::F8E4M3B11, 1},
      {"f8e4m3fnuz", mlir::Float8E4M3FNUZType::get(&mctx), EK::F8E4M3FNUZ, 1},
      {"f8e5m2fnuz", mlir::Float8E5M2FNUZType::get(&mctx), EK::F8E5M2FNUZ, 1},
  };
  const unsigned lengths[] = {1, 2, 8, 32};

  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto mod = std::make_unique<llvm::Module>("sort", *ctx);
  auto target = codegen::createNvidiaTargetInfo(90);
  std::unique_ptr<llvm::orc::LLJIT> jit;
  codegen::Lowering L(*mod, *target, 4);
  auto &b = L.b;
  // void name(const iN *in, iN *out): elements travel as their bits.
  auto fnName = [](const Case &c, unsigned n, bool desc) {
    return "sort_" + c.name + "_" + std::to_string(n) + (desc ? "_d" : "_a");
  };
  for (const Case &c : cases)
    for (unsigned n : lengths)
      for (bool desc : {false, true}) {
        auto *ptr = b.getPtrTy();
        auto *fn = llvm::Function::Create(
            llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr}, false),
            llvm::GlobalValue::ExternalLinkage, fnName(c, n, desc), *mod);
        b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", fn));
        llvm::Type *st = b.getIntNTy(c.bytes * 8);
        llvm::Type *vt = L.llvmType(c.type);
        std::vector<llvm::Value *> vals;
        for (unsigned i = 0; i < n; ++i) {
          llvm::Value *x =
              b.CreateLoad(st, b.CreateConstGEP1_32(st, fn->getArg(0), i));
          vals.push_back(vt->isIntegerTy() ? b.CreateTrunc(x, vt)
                                           : b.CreateBitCast(x, vt));
        }
        REQUIRE(codegen::emitSortRegisters(L, c.type, desc, vals));
        for (unsigned i = 0; i < n; ++i) {
          llvm::Value *x = vals[i];
          x = vt->isIntegerTy() ? b.CreateZExt(x, st) : b.CreateBitCast(x, st);
          b.CreateStore(x, b.CreateConstGEP1_32(st, fn->getArg(1), i));
        }
        b.CreateRetVoid();
      }
  b.ClearInsertionPoint();
  std::string err;
  llvm::raw_string_ostream os(err);
  REQUIRE_FALSE(llvm::verifyModule(*mod, &os));
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto j = llvm::orc::LLJITBuilder().create();
  REQUIRE(bool(j));
  jit = std::move(*j);
  // The host has no NVPTX data layout; the module takes the JIT's.
  mod->setDataLayout(jit->getDataLayout());
  mod->setTargetTriple(jit->getTargetTriple());
  REQUIRE_FALSE(bool(jit->addIRModule(
      llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)))));

  std::mt19937_64 rng(42);
  for (const Case &c : cases)
    for (unsigned n : lengths)
      for (bool desc : {false, true}) {
        auto addr = jit->lookup(fnName(c, n, desc));
        REQUIRE(bool(addr));
        auto *run = addr->toPtr<void (*)(const void *, void *)>();
        for (int trial = 0; trial < 200; ++trial) {
          std::vector<uint64_t> in = inputs(c, n, rng);
          std::vector<uint8_t> src(n * c.bytes), dst(n * c.bytes);
          for (unsigned i = 0; i < n; ++i)
            std::memcpy(&src[i * c.bytes], &in[i], c.bytes);
          run(src.data(), dst.data());
          std::vector<uint64_t> got(n, 0);
          for (unsigned i = 0; i < n; ++i)
            std::memcpy(&got[i], &dst[i * c.bytes], c.bytes);
          INFO(fnName(c, n, desc) << " trial " << trial);
          REQUIRE(got == reference(c, in, desc));
        }
      }
}

//===- InterpreterSweepTest.cpp - elementwise ops × dtypes, end to end ----===//
//
// Every elementwise operator, where, maximum/minimum/clamp, abs, and casts
// between every pair of dtypes (plus fp8 round trips), compiled from Python
// source and run on the interpreter over tricky lanes (0, ±1, extremes, NaN,
// ±inf, ±0, subnormals, rounding ties), each lane compared with a reference
// computed here: exact integer arithmetic with explicit wraparound, float64
// rounded to the storage type, Triton's promotion rules.
//
//===----------------------------------------------------------------------===//
#include "InterpreterSweep.h"

using namespace sweep;
using tritium::DType;

namespace {
constexpr size_t N = 128;
const DType kInts[] = {DType::I8, DType::I16, DType::I32, DType::I64,
                       DType::U8, DType::U16, DType::U32, DType::U64};
const DType kFloats[] = {DType::F16, DType::BF16, DType::F32, DType::F64};

/// Kernel: loads a, b, c (same length), stores EXPR into o; checks its dtype.
std::string kernel3(const std::string &expr, const std::string &outTy) {
  std::string s = "def kern(a_ptr, b_ptr, c_ptr, o_ptr, N: tl.constexpr):\n"
                  "    offs = tl.arange(0, N)\n"
                  "    a = tl.load(a_ptr + offs)\n"
                  "    b = tl.load(b_ptr + offs)\n"
                  "    c = tl.load(c_ptr + offs)\n"
                  "    z = " + expr + "\n";
  if (!outTy.empty())
    s += "    tl.static_assert(z.dtype == " + outTy + ", 'dtype')\n";
  return s + "    tl.store(o_ptr + offs, z)\n";
}
void launch3(const std::string &expr, DType outTy, Buf &a, Buf &b, Buf &c, Buf &o,
             bool checkTy = true) {
  run(kernel3(expr, checkTy ? tl(outTy) : ""),
      {a.arg(), b.arg(), c.arg(), o.arg()}, {{"N", int(N)}});
}

enum class K { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, And, Or, Xor, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne };
struct OpInfo {
  K k;
  const char *sym;
};
const OpInfo kOps[] = {{K::Add, "+"},      {K::Sub, "-"}, {K::Mul, "*"},  {K::TrueDiv, "/"},
                       {K::FloorDiv, "//"}, {K::Mod, "%"}, {K::And, "&"},  {K::Or, "|"},
                       {K::Xor, "^"},      {K::Shl, "<<"}, {K::Shr, ">>"}, {K::Lt, "<"},
                       {K::Le, "<="},      {K::Gt, ">"},  {K::Ge, ">="},  {K::Eq, "=="},
                       {K::Ne, "!="}};
bool isCmp(K k) { return k >= K::Lt; }
bool intOnly(K k) { return k == K::FloorDiv || (k >= K::And && k <= K::Shr); }

/// One binary operator on (a, b): the result dtype and each lane's expected
/// bits, or false where Triton rejects the combination.
bool sweepBinary(const OpInfo &op, DType ta, DType tb, unsigned seed) {
  bool floaty = isFloat(ta) || isFloat(tb);
  if (floaty && intOnly(op.k))
    return false;
  bool divmod = op.k == K::TrueDiv || op.k == K::FloorDiv || op.k == K::Mod;
  DType C;
  if (!promote(ta, tb, divmod, C))
    return false;
  if ((ta == DType::I1 || tb == DType::I1) && !isCmp(op.k) &&
      !(op.k >= K::And && op.k <= K::Xor) && !floaty && C == DType::I1)
    return false;
  DType outTy = isCmp(op.k) ? DType::I1 : (op.k == K::TrueDiv && !isFloat(C)) ? DType::F32 : C;
  Buf a = tricky(ta, N, seed), b = tricky(tb, N, seed * 3 + 1), c(DType::I8, N), o(outTy, N);
  for (size_t k = 0; k < N; ++k) {
    if ((op.k == K::FloorDiv || op.k == K::Mod) && !isFloat(C) && castI(b, k, C) == 0)
      b.setI(k, 1);
    if (op.k == K::Shl || op.k == K::Shr)
      b.setI(k, k % bitsOf(C));
  }
  INFO("op " << op.sym << " " << tl(ta) << " " << tl(tb) << " -> " << tl(outTy));
  launch3(std::string("a ") + op.sym + " b", outTy, a, b, c, o);
  for (size_t k = 0; k < N; ++k) {
    INFO("lane " << k << ": " << a.d(k) << " " << op.sym << " " << b.d(k) << " = " << o.d(k));
    if (isFloat(C) || op.k == K::TrueDiv) {
      DType F = isFloat(C) ? C : DType::F32;
      double x = isFloat(C) ? castF(a, k, C) : castF(a, k, DType::F32);
      double y = isFloat(C) ? castF(b, k, C) : castF(b, k, DType::F32);
      if (!isFloat(C)) { // int / int: the ints (in C) converted to fp32
        Buf t(C, 2);
        t.setI(0, castI(a, k, C));
        t.setI(1, castI(b, k, C));
        x = castF(t, 0, F), y = castF(t, 1, F);
      }
      switch (op.k) {
      case K::Lt: CHECK(o.bits(k) == (x < y)); continue;
      case K::Le: CHECK(o.bits(k) == (x <= y)); continue;
      case K::Gt: CHECK(o.bits(k) == (x > y)); continue;
      case K::Ge: CHECK(o.bits(k) == (x >= y)); continue;
      case K::Eq: CHECK(o.bits(k) == (x == y)); continue;
      case K::Ne: CHECK(o.bits(k) == (x != y)); continue;
      default: break;
      }
      double r = op.k == K::Add ? x + y : op.k == K::Sub ? x - y : op.k == K::Mul ? x * y
                 : op.k == K::TrueDiv ? x / y : std::fmod(x, y);
      CHECK(sameF(o.f(k), roundTo(r, F)));
      continue;
    }
    uint64_t x = castI(a, k, C), y = castI(b, k, C);
    bool u = isUnsigned(C) && C != DType::I1;
    int64_t sx = int64_t(x), sy = int64_t(y);
    if (C == DType::I1) // i1 is signed: icmp slt sees true as -1, as on the GPU
      sx = -sx, sy = -sy;
    uint64_t r = 0;
    switch (op.k) {
    case K::Add: r = x + y; break;
    case K::Sub: r = x - y; break;
    case K::Mul: r = x * y; break;
    case K::FloorDiv:
      r = u ? x / y : (sy == -1 ? 0 - x : uint64_t(sx / sy));
      break;
    case K::Mod: r = u ? x % y : (sy == -1 ? 0 : uint64_t(sx % sy)); break;
    case K::And: r = x & y; break;
    case K::Or: r = x | y; break;
    case K::Xor: r = x ^ y; break;
    case K::Shl: r = x << y; break;
    case K::Shr: {
      // Arithmetic when the left operand's own type is signed (as Triton:
      // int32 >> uint32 shifts the uint32 bits arithmetically).
      int w = bitsOf(C);
      bool arith = !isUnsigned(ta) && ta != DType::I1 && !isFloat(ta);
      int64_t sxC = w >= 64 ? int64_t(x) : int64_t(x << (64 - w)) >> (64 - w);
      r = arith ? uint64_t(sxC >> sy) : x >> y;
      break;
    }
    case K::Lt: r = u ? x < y : sx < sy; break;
    case K::Le: r = u ? x <= y : sx <= sy; break;
    case K::Gt: r = u ? x > y : sx > sy; break;
    case K::Ge: r = u ? x >= y : sx >= sy; break;
    case K::Eq: r = x == y; break;
    case K::Ne: r = x != y; break;
    default: break;
    }
    CHECK(o.i(k) == wrap(outTy, r));
  }
  return true;
}
} // namespace

TEST_CASE("sweep: binary operators, every dtype with itself", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  all.push_back(DType::I1);
  for (const OpInfo &op : kOps)
    for (DType t : all)
      if (t != DType::I1 || isCmp(op.k) || (op.k >= K::And && op.k <= K::Xor))
        sweepBinary(op, t, t, 5);
}

TEST_CASE("sweep: binary operators promote mixed dtypes as Triton", "[sweep]") {
  const std::pair<DType, DType> pairs[] = {
      {DType::I8, DType::I16},  {DType::U32, DType::I32}, {DType::I32, DType::U32},
      {DType::I64, DType::U8},  {DType::U8, DType::I8},   {DType::U16, DType::I32},
      {DType::I8, DType::U64},  {DType::F16, DType::BF16}, {DType::BF16, DType::F32},
      {DType::F16, DType::F64}, {DType::I32, DType::F16}, {DType::U8, DType::BF16},
      {DType::I64, DType::F32}, {DType::I1, DType::I32},  {DType::I1, DType::F32},
      {DType::BF16, DType::BF16}, {DType::U64, DType::F64}};
  for (auto [ta, tb] : pairs)
    for (const OpInfo &op : kOps)
      sweepBinary(op, ta, tb, 11);
}

TEST_CASE("sweep: unary -, ~, not and abs", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  for (DType t : all) {
    Buf a = tricky(t, N, 7), o(t, N), o2(t, N);
    INFO(tl(t));
    launch3("-a", t, a, a, a, o);
    launch3("tl.abs(a)", t, a, a, a, o2);
    for (size_t k = 0; k < N; ++k) {
      INFO("lane " << k << " " << a.d(k));
      if (isFloat(t)) {
        CHECK(sameF(o.f(k), -a.f(k)));
        CHECK(sameF(o2.f(k), std::fabs(a.f(k))));
      } else {
        CHECK(o.i(k) == wrap(t, 0 - a.i(k)));
        CHECK(o2.i(k) == (isUnsigned(t) || int64_t(a.i(k)) >= 0 ? a.i(k) : wrap(t, 0 - a.i(k))));
      }
    }
    if (!isFloat(t)) {
      launch3("~a", t, a, a, a, o);
      for (size_t k = 0; k < N; ++k)
        CHECK(o.i(k) == wrap(t, ~a.i(k)));
    }
  }
  Buf a(DType::I1, N), o(DType::I1, N);
  for (size_t k = 0; k < N; ++k)
    a.setBits(k, k % 3 == 0);
  launch3("not a", DType::I1, a, a, a, o);
  for (size_t k = 0; k < N; ++k)
    CHECK(o.bits(k) == (k % 3 != 0));
}

TEST_CASE("sweep: tl.where selects per lane for every dtype", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  all.push_back(DType::I1);
  for (DType t : all) {
    Buf c(DType::I1, N), x = tricky(t, N, 3), y = tricky(t, N, 9), o(t, N);
    for (size_t k = 0; k < N; ++k)
      c.setBits(k, (k * 7) % 5 < 2);
    INFO(tl(t));
    launch3("tl.where(a, b, c)", t, c, x, y, o);
    for (size_t k = 0; k < N; ++k)
      CHECK(o.bits(k) == (c.bits(k) ? x.bits(k) : y.bits(k)));
  }
}

TEST_CASE("sweep: maximum/minimum (both NaN modes) and clamp", "[sweep]") {
  std::vector<DType> all(std::begin(kInts), std::end(kInts));
  all.insert(all.end(), std::begin(kFloats), std::end(kFloats));
  for (DType t : all)
    for (bool isMax : {true, false})
      for (bool nanAll : {false, true}) {
        Buf a = tricky(t, N, 5), b = tricky(t, N, 13), o(t, N);
        std::string fn = isMax ? "tl.maximum" : "tl.minimum";
        std::string pn = nanAll ? "tl.PropagateNan.ALL" : "tl.PropagateNan.NONE";
        INFO(fn << " " << tl(t) << " " << pn);
        launch3(fn + "(a, b, propagate_nan=" + pn + ")", t, a, b, b, o, t != DType::BF16);
        for (size_t k = 0; k < N; ++k) {
          INFO("lane " << k << ": " << a.d(k) << ", " << b.d(k) << " -> " << o.d(k));
          if (!isFloat(t)) {
            bool lt = isUnsigned(t) ? a.i(k) < b.i(k) : int64_t(a.i(k)) < int64_t(b.i(k));
            CHECK(o.i(k) == ((lt == isMax) ? b.i(k) : a.i(k)));
            continue;
          }
          double x = a.f(k), y = b.f(k);
          double want = std::isnan(x) ? (nanAll ? x : y)
                        : std::isnan(y) ? (nanAll ? y : x)
                        : isMax ? std::fmax(x, y) : std::fmin(x, y);
          CHECK(sameF(o.f(k), want, true));
        }
      }
  for (DType t : kFloats)
    for (bool nanAll : {false, true}) {
      Buf x = tricky(t, N, 5), lo = tricky(t, N, 13), hi = tricky(t, N, 17), o(t, N);
      for (size_t k = 0; k < N; ++k) { // lo <= hi, neither NaN
        double l = lo.f(k), h = hi.f(k);
        l = std::isnan(l) ? -1.0 : l, h = std::isnan(h) ? 2.0 : h;
        lo.setF(k, std::fmin(l, h));
        hi.setF(k, std::fmax(l, h));
      }
      std::string pn = nanAll ? "tl.PropagateNan.ALL" : "tl.PropagateNan.NONE";
      INFO("clamp " << tl(t) << " " << pn);
      // bf16 is computed (and returned) as fp32, as for maximum/minimum.
      launch3("tl.clamp(a, b, c, propagate_nan=" + pn + ")", t, x, lo, hi, o, t != DType::BF16);
      for (size_t k = 0; k < N; ++k) {
        INFO("lane " << k << ": " << x.d(k) << " in [" << lo.d(k) << ", " << hi.d(k) << "]");
        double v = x.f(k);
        double want = std::isnan(v) ? (nanAll ? v : lo.f(k)) : std::fmin(std::fmax(v, lo.f(k)), hi.f(k));
        CHECK(sameF(o.f(k), want, true));
      }
    }
}

TEST_CASE("sweep: casts between every pair of dtypes", "[sweep]") {
  const DType types[] = {DType::I8,  DType::I16, DType::I32,  DType::I64,
                         DType::U8,  DType::U32, DType::U64,  DType::F16,
                         DType::BF16, DType::F32, DType::F64, DType::I1};
  // Float inputs: specials, in-range values for every int type, and values
  // whose rounding differs between fp16/bf16/fp32 or by double rounding.
  const double fvals[] = {0, -0.0, 1, -1, NAN, INFINITY, -INFINITY, 0.999, -0.75, 127.9,
                          -128.5, 255.5, 32767.0, -32768.0, 65504, 65519, 65520, 1e5,
                          2147483520.0, -2147483648.0, 4294967040.0, 9.2e18, -9.2e18,
                          1.8e19, 1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-8, 1 + 3 * 0x1p-8,
                          1 + 0x1p-24, 0x1p-24, 0x1p-25, 3 * 0x1p-26, 0x1p-14 - 0x1p-25,
                          0x1p-133, 0x1p-149, 3.4e38, 3.5e38, 1e300, 1e-300, 0.1, -2.5,
                          3.5, 1.0 / 3, 100.7};
  for (DType src : types)
    for (DType dst : types)
      for (bool rtz : {false, true}) {
        if (rtz && !(isFloat(src) && isFloat(dst) && bitsOf(dst) < bitsOf(src)))
          continue;
        Buf a = tricky(src, N, 21), o(dst, N);
        std::vector<double> cand(std::begin(fvals), std::end(fvals));
        for (size_t k = 0; k < N; ++k) {
          if (src == DType::I1) {
            a.setBits(k, k & 1);
          } else if (isFloat(src)) {
            a.setF(k, roundTo(cand[k % cand.size()], src));
            if (!isFloat(dst) && dst != DType::I1) {
              // fptosi/fptoui are poison out of range: only in-range lanes.
              double t = std::trunc(a.f(k));
              double lo = isUnsigned(dst) ? 0 : -std::ldexp(1, bitsOf(dst) - 1);
              double hi = std::ldexp(1, bitsOf(dst) - (isUnsigned(dst) ? 0 : 1));
              if (!(t >= lo && t < hi))
                a.setF(k, std::fmod(double(k), 100.0) + 0.5);
            }
          }
        }
        std::string expr = "a.to(" + tl(dst) + (rtz ? ", fp_downcast_rounding='rtz')" : ")");
        INFO(expr << " from " << tl(src));
        launch3(expr, dst, a, a, a, o);
        for (size_t k = 0; k < N; ++k) {
          INFO("lane " << k << ": " << a.d(k) << " -> " << o.d(k));
          if (dst == DType::I1)
            CHECK(o.bits(k) == (isFloat(src) ? a.f(k) != 0 : castI(a, k, src) != 0));
          else if (isFloat(dst))
            CHECK(sameF(o.f(k), isFloat(src) ? roundTo(a.f(k), dst, rtz) : castF(a, k, dst)));
          else if (isFloat(src))
            CHECK(o.i(k) == wrap(dst, a.f(k) < 0 ? uint64_t(int64_t(std::trunc(a.f(k))))
                                                 : uint64_t(std::trunc(a.f(k)))));
          else
            CHECK(o.i(k) == castI(a, k, dst));
        }
      }
}

TEST_CASE("sweep: fp8 e4m3/e5m2 encode, decode and round trips", "[sweep]") {
  for (auto [name, fmt] : {std::pair{"tl.float8e4nv", kE4M3}, std::pair{"tl.float8e5", kE5M2}}) {
    // Decode: all 256 codes, bitcast from uint8, widened to fp32.
    Buf codes(DType::U8, 256), out(DType::F32, 256);
    for (size_t k = 0; k < 256; ++k)
      codes.setI(k, k);
    INFO(name);
    run("def kern(a_ptr, o_ptr):\n    offs = tl.arange(0, 256)\n"
        "    x = tl.load(a_ptr + offs).to(" + std::string(name) + ", bitcast=True)\n"
        "    tl.store(o_ptr + offs, x.to(tl.float32))\n",
        {codes.arg(), out.arg()});
    for (size_t k = 0; k < 256; ++k) {
      INFO("code " << k);
      CHECK(sameF(out.f(k), decode(k, fmt)));
    }
    // Encode from fp32, fp16 and bf16 (rtne, saturating), then decode back.
    for (DType src : {DType::F32, DType::F16, DType::BF16}) {
      Buf a = tricky(src, N, 31), bits(DType::U8, N), back(DType::F32, N);
      for (size_t k = 0; k < 32; ++k) // ties and near-ties on the fp8 grid
        a.setF(k, roundTo((1 + (k % 8) / 16.0 + (k / 8 == 1 ? 1.0 / 128 : 0)) *
                              std::ldexp(1, int(k % 16) - 9) * (k & 1 ? -1 : 1), src));
      INFO("from " << tl(src));
      run("def kern(a_ptr, b_ptr, o_ptr, N: tl.constexpr):\n"
          "    offs = tl.arange(0, N)\n"
          "    x = tl.load(a_ptr + offs).to(" + std::string(name) + ")\n"
          "    tl.store(b_ptr + offs, x.to(tl.uint8, bitcast=True))\n"
          "    tl.store(o_ptr + offs, x.to(tl.float32))\n",
          {a.arg(), bits.arg(), back.arg()}, {{"N", int(N)}});
      for (size_t k = 0; k < N; ++k) {
        INFO("lane " << k << ": " << a.f(k) << " -> " << back.f(k));
        uint64_t want = encode(a.f(k), fmt, false, true);
        CHECK(sameF(decode(bits.i(k), fmt), decode(want, fmt)));
        CHECK(sameF(back.f(k), decode(want, fmt)));
      }
    }
  }
}

//===- BuiltinsRandom.cpp - Philox random numbers (random.py) -------------===//
//
// tl.randint/rand/randn (and their 4x forms), philox, philox_impl,
// uint_to_uniform_float and pair_uniform_to_normal. Each is emitted with the
// same operations, operand order and dtypes as Triton's random.py (written
// there as @jit code), through the Emitter's typing rules, so the numbers are
// bit-identical to Triton's. Philox is Salmon et al.'s counter-based
// generator: 4 counters, 2 keys, `n_rounds` rounds (10 by default); 32-bit
// counters run Philox4x32, 64-bit ones Philox4x64.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

using namespace tritium::fe;
using namespace mlir;

namespace {
/// Philox constants for one counter width (random.py's PHILOX_* values).
struct PhiloxConsts {
  uint64_t keyA, keyB, roundA, roundB;
};
} // namespace

static const PhiloxConsts kPhilox32 = {0x9E3779B9, 0xBB67AE85, 0xD2511F53,
                                       0xCD9E8D57};
static const PhiloxConsts kPhilox64 = {
    0x9E3779B97F4A7C15ull, 0xBB67AE8584CAA73Bull, 0xD2E7470EE14C6C93ull,
    0xCA5A826395121157ull};

/// A Python int literal (typed by range when it meets a tensor: these are
/// all above INT32_MAX, so uint32 or, past INT64_MAX, uint64).
static TValue literal(uint64_t v) {
  TValue t = TValue::integer(int64_t(v));
  t.unsignedInt = v > uint64_t(INT64_MAX);
  return t;
}

namespace {
/// Shorthands for Triton operators at one location.
struct Ops {
  Emitter &em;
  SourceLoc l;
  TValue bin(BinOpKind k, const TValue &a, const TValue &b) {
    return em.binary(k, a, b, l);
  }
  TValue add(const TValue &a, const TValue &b) {
    return bin(BinOpKind::Add, a, b);
  }
  TValue mul(const TValue &a, const TValue &b) {
    return bin(BinOpKind::Mul, a, b);
  }
  TValue xor_(const TValue &a, const TValue &b) {
    return bin(BinOpKind::BitXor, a, b);
  }
  TValue to(const TValue &a, DType d, bool bitcast = false) {
    return em.cast(a, d, l, bitcast);
  }
  TValue call(const std::string &name, std::vector<TValue> args) {
    CallArgs c;
    c.loc = l;
    c.name = name;
    c.args = std::move(args);
    c.argLocs.assign(c.args.size(), l);
    return builtinTable().at(name)(em, c);
  }
};
} // namespace

static int64_t rounds(Emitter &em, const BoundArgs &a) {
  int64_t n = em.requireInt(a.get("n_rounds"), a.loc("n_rounds"), "n_rounds");
  if (n < 0)
    em.error(a.loc("n_rounds"),
             "n_rounds must be non-negative, got " + std::to_string(n));
  return n;
}

static TValue tensorArg(Emitter &em, const BoundArgs &a, const char *name) {
  return em.toTensor(a.get(name), a.loc(name));
}

/// philox_impl: per round
///   _c0, _c2 = c0, c2
///   c0 = umulhi(B, _c2) ^ c1 ^ k0;  c2 = umulhi(A, _c0) ^ c3 ^ k1
///   c1 = B * _c2;                   c3 = A * _c0
///   k0 += KEY_A;                    k1 += KEY_B
static std::vector<TValue> philoxImpl(Emitter &em, std::vector<TValue> c,
                                      TValue k0, TValue k1, int64_t n,
                                      SourceLoc l) {
  Ops o{em, l};
  DType d = c[0].dtype;
  if (d != DType(DType::U32) && d != DType(DType::U64))
    em.error(l, "philox_impl needs uint32 or uint64 counters, got " +
                    c[0].typeStr());
  const PhiloxConsts &k = d.kind == DType::U32 ? kPhilox32 : kPhilox64;
  TValue A = literal(k.roundA), B = literal(k.roundB);
  for (int64_t i = 0; i < n; ++i) {
    TValue c0 = c[0], c2 = c[2];
    c[0] = o.xor_(o.xor_(o.call("tl.umulhi", {B, c2}), c[1]), k0);
    c[2] = o.xor_(o.xor_(o.call("tl.umulhi", {A, c0}), c[3]), k1);
    c[1] = o.mul(B, c2);
    c[3] = o.mul(A, c0);
    k0 = o.add(k0, literal(k.keyA));
    k1 = o.add(k1, literal(k.keyB));
  }
  return c;
}

/// philox: the seed (as uint64) keys the generator. 32-bit counters take
/// k0 = seed & 0xffffffff, k1 = (seed >> 32) & 0xffffffff; 64-bit ones take
/// k0 = seed, k1 = a [1]-block of 0. Counters are bitcast to unsigned.
static std::vector<TValue> philox(Emitter &em, TValue seed,
                                  std::vector<TValue> c, int64_t n,
                                  SourceLoc l) {
  Ops o{em, l};
  seed = em.toTensor(seed, l);
  if (!seed.dtype.isInt())
    em.error(l, "philox: seed must be an integer, got " + seed.typeStr());
  seed = o.to(seed, DType::U64);
  for (auto &x : c)
    x = em.toTensor(x, l);
  DType u;
  TValue hi, lo;
  if (c[0].dtype.bits() == 32) {
    u = DType::U32;
    hi = o.to(o.bin(BinOpKind::BitAnd,
                    o.bin(BinOpKind::RShift, seed, TValue::integer(32)),
                    literal(0xffffffff)),
              u);
    lo = o.to(o.bin(BinOpKind::BitAnd, seed, literal(0xffffffff)), u);
  } else if (c[0].dtype.bits() == 64) {
    u = DType::U64;
    hi = fullOf(em, {1}, TValue::integer(0), u, l);
    lo = seed;
  } else {
    em.error(l, "philox needs 32- or 64-bit counters, got " + c[0].typeStr());
  }
  for (auto &x : c)
    x = o.to(x, u, /*bitcast=*/true);
  return philoxImpl(em, c, lo, hi, n, l);
}

/// randint4x: counters (offset_lo, offset_hi, 0, 0), offset_hi the high
/// word of a 64-bit offset (else 0); `0` is computed as `offset_lo * 0`.
static std::vector<TValue> randint4x(Emitter &em, const TValue &seed,
                                     TValue offset, int64_t n, SourceLoc l) {
  Ops o{em, l};
  offset = em.toTensor(offset, l);
  TValue lo = o.to(offset, DType::U32);
  TValue zero = o.mul(lo, TValue::integer(0));
  TValue hi = offset.dtype.bits() > 32
                  ? o.to(o.bin(BinOpKind::RShift, offset, TValue::integer(32)),
                         DType::U32)
                  : zero;
  return philox(em, seed, {lo, hi, zero, zero}, n, l);
}

/// uint_to_uniform_float: reinterpret as signed, fold negatives onto
/// non-negatives (x < 0 ? -x - 1 : x) and scale by the largest value with
/// MAX_INT * scale < 1 in fp32: 4.6566127342e-10 for 32 bits,
/// 1.0842020432385337e-19 for 64.
static TValue uintToUniform(Emitter &em, TValue x, SourceLoc l) {
  Ops o{em, l};
  x = em.toTensor(x, l);
  DType d = x.dtype;
  double scale;
  if (d == DType(DType::U32) || d == DType(DType::I32)) {
    x = o.to(x, DType::I32, true);
    scale = 4.6566127342e-10;
  } else if (d == DType(DType::U64) || d == DType(DType::I64)) {
    x = o.to(x, DType::I64, true);
    scale = 1.0842020432385337e-19;
  } else {
    em.error(l, "uint_to_uniform_float needs a 32- or 64-bit integer, got " +
                    x.typeStr());
  }
  TValue neg = em.compare(CmpOpKind::Lt, x, TValue::integer(0), l);
  TValue flipped = o.bin(BinOpKind::Sub, em.unary(UnaryOpKind::Neg, x, l),
                         TValue::integer(1));
  x = em.where(neg, flipped, x, l);
  return o.mul(x, TValue::floating(scale));
}

/// pair_uniform_to_normal (Box-Muller):
///   u1 = maximum(1e-7, u1); th = 2*pi * u2; r = sqrt(-2 * log(u1))
///   return r * cos(th), r * sin(th)
static std::pair<TValue, TValue>
uniformToNormal(Emitter &em, const TValue &u1, const TValue &u2, SourceLoc l) {
  Ops o{em, l};
  TValue v1 = o.call("tl.maximum", {TValue::floating(1.0e-7), u1});
  TValue th = o.mul(TValue::floating(6.283185307179586), u2);
  TValue r = o.call("tl.sqrt",
                    {o.mul(TValue::floating(-2.0), o.call("tl.log", {v1}))});
  return {o.mul(r, o.call("tl.cos", {th})), o.mul(r, o.call("tl.sin", {th}))};
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

static TValue philoxImplFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds=10"});
  std::vector<TValue> cs;
  for (const char *n : {"c0", "c1", "c2", "c3"})
    cs.push_back(tensorArg(em, a, n));
  if (cs[0].dtype != DType(DType::U32) && cs[0].dtype != DType(DType::U64))
    em.error(a.loc("c0"), "philox_impl needs uint32 or uint64 counters, got " +
                              cs[0].typeStr());
  return TValue::tuple(philoxImpl(em, cs, tensorArg(em, a, "k0"),
                                  tensorArg(em, a, "k1"), rounds(em, a),
                                  c.loc));
}

static TValue philoxFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"seed", "c0", "c1", "c2", "c3", "n_rounds=10"});
  std::vector<TValue> cs;
  for (const char *n : {"c0", "c1", "c2", "c3"})
    cs.push_back(a.get(n));
  return TValue::tuple(philox(em, a.get("seed"), cs, rounds(em, a), c.loc));
}

/// randint, rand and randn share (seed, offset, n_rounds); rand4x names its
/// offsets `offsets`.
static BoundArgs bindSeedOffset(Emitter &em, CallArgs &c, const char *offset) {
  return em.bind(c, {"seed", offset, "n_rounds=10"});
}

static TValue randint4xFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offset");
  return TValue::tuple(
      randint4x(em, a.get("seed"), a.get("offset"), rounds(em, a), c.loc));
}

static TValue randintFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offset");
  return randint4x(em, a.get("seed"), a.get("offset"), rounds(em, a), c.loc)[0];
}

static TValue randFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offset");
  auto r = randint4x(em, a.get("seed"), a.get("offset"), rounds(em, a), c.loc);
  return uintToUniform(em, r[0], c.loc);
}

static std::vector<TValue> rand4x(Emitter &em, const BoundArgs &a,
                                  const char *offset, SourceLoc l) {
  auto r = randint4x(em, a.get("seed"), a.get(offset), rounds(em, a), l);
  std::vector<TValue> u;
  for (auto &x : r)
    u.push_back(uintToUniform(em, x, l));
  return u;
}

static TValue rand4xFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offsets");
  return TValue::tuple(rand4x(em, a, "offsets", c.loc));
}

static TValue randnFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offset");
  auto r = randint4x(em, a.get("seed"), a.get("offset"), rounds(em, a), c.loc);
  TValue u1 = uintToUniform(em, r[0], c.loc);
  TValue u2 = uintToUniform(em, r[1], c.loc);
  return uniformToNormal(em, u1, u2, c.loc).first;
}

static TValue randn4xFn(Emitter &em, CallArgs &c) {
  auto a = bindSeedOffset(em, c, "offset");
  auto u = rand4x(em, a, "offset", c.loc);
  auto [n1, n2] = uniformToNormal(em, u[0], u[1], c.loc);
  auto [n3, n4] = uniformToNormal(em, u[2], u[3], c.loc);
  return TValue::tuple({n1, n2, n3, n4});
}

void tritium::fe::registerRandomBuiltins(BuiltinTable &t) {
  t["tl.philox_impl"] = philoxImplFn;
  t["tl.philox"] = philoxFn;
  t["tl.randint"] = randintFn;
  t["tl.randint4x"] = randint4xFn;
  t["tl.rand"] = randFn;
  t["tl.rand4x"] = rand4xFn;
  t["tl.randn"] = randnFn;
  t["tl.randn4x"] = randn4xFn;
  t["tl.uint_to_uniform_float"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"x"});
    return uintToUniform(em, a.get("x"), c.loc);
  };
  t["tl.pair_uniform_to_normal"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"u1", "u2"});
    auto [n1, n2] = uniformToNormal(em, tensorArg(em, a, "u1"),
                                    tensorArg(em, a, "u2"), c.loc);
    return TValue::tuple({n1, n2});
  };
}

//===- BuiltinsMath.cpp - tl.math, maximum/minimum/clamp, libdevice -------===//
//
// Triton's math.py (exp ... ceil on fp32/fp64 only, as math._check_dtype
// demands; abs, fma, fdiv, div_rn, umulhi), core's maximum/minimum/clamp with
// their NaN rule, standard.py's sigmoid and softmax, and the NVIDIA libdevice
// wrappers (tl.extra.libdevice.*), each an extern_elementwise call picked by
// the argument dtypes exactly as Triton's `extern_elementwise` dispatches.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

#include <sstream>

using namespace tritium::fe;
using namespace mlir;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// `binary_op_type_checking_impl` on two tensors: both are cast to Triton's
/// computation type (unless !arith) and broadcast to one shape. Operands are
/// tensors already, so Python scalars take part in the promotion as Triton's
/// math functions (which call to_tensor first) let them.
static void legalizePair(Emitter &em, TValue &x, TValue &y, SourceLoc l,
                         bool arith = true, BinOpKind op = BinOpKind::Add) {
  x = em.toTensor(x, l);
  y = em.toTensor(y, l);
  if (arith && !x.dtype.isPtr() && !y.dtype.isPtr()) {
    DType t = em.promote(x, y, op, l);
    x = em.cast(x, t, l);
    y = em.cast(y, t, l);
  }
  em.broadcastPair(x, y, l);
}

static bool isF32OrF64(DType d) {
  return !d.isPtr() && (d.kind == DType::F32 || d.kind == DType::F64);
}

/// math._check_dtype, with the operand already a tensor.
static void requireFloat(Emitter &em, const TValue &x, SourceLoc l,
                         const std::string &fn, bool f32Only = false) {
  bool ok = f32Only ? (!x.dtype.isPtr() && x.dtype.kind == DType::F32)
                    : isF32OrF64(x.dtype);
  std::string expected = f32Only ? "float32" : "float32 or float64";
  if (!ok)
    em.error(l, fn + " expects " + expected + ", got " + x.dtype.name());
}

static TValue callBuiltin(Emitter &em, const std::string &name,
                          std::vector<TValue> args,
                          std::vector<std::pair<std::string, TValue>> kwargs,
                          SourceLoc l) {
  CallArgs c;
  c.loc = l;
  c.name = name;
  c.args = std::move(args);
  c.argLocs.assign(c.args.size(), l);
  c.kwargs = std::move(kwargs);
  c.kwLocs.assign(c.kwargs.size(), l);
  return builtinTable().at(name)(em, c);
}

//===----------------------------------------------------------------------===//
// math.py
//===----------------------------------------------------------------------===//

/// exp, log, sin, ... : one fp32/fp64 operand, one math-dialect op.
template <typename OpT> static BuiltinFn unaryMath(const char *name) {
  return [name](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"x"});
    TValue x = em.toTensor(a.get("x"), a.loc("x"));
    requireFloat(em, x, a.loc("x"), std::string("tl.") + name);
    Value r = OpT::create(em.b, em.loc(c.loc), x.v);
    return TValue::tensor(r, x.dtype, x.shape);
  };
}

static TValue sqrtRn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  TValue x = em.toTensor(a.get("x"), a.loc("x"));
  requireFloat(em, x, a.loc("x"), "tl.sqrt_rn", /*f32Only=*/true);
  Value r = tile::PreciseSqrtOp::create(em.b, em.loc(c.loc), x.v);
  return TValue::tensor(r, x.dtype, x.shape);
}

static TValue absFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  TValue x = em.toTensor(a.get("x"), a.loc("x"));
  Location L = em.loc(c.loc);
  DType d = x.dtype;
  if (d.isPtr())
    em.error(a.loc("x"), "tl.abs needs a number, got " + x.typeStr());
  if (d.isUnsigned() || d.isBool())
    return x;
  if (d.isSigned())
    return TValue::tensor(math::AbsIOp::create(em.b, L, x.v), d, x.shape);
  if (d.isFP8()) {
    // |x| of an fp8 value clears its sign bit: bits(x) & 0x7F, exact for
    // every format (fp8e4b15 has no MLIR type with arithmetic at all).
    TValue i = em.cast(x, DType::I8, c.loc, /*bitcast=*/true);
    Value m = arith::AndIOp::create(em.b, L, i.v,
                                    em.constInt(DType::I8, 0x7F, x.shape));
    return em.cast(TValue::tensor(m, DType::I8, x.shape), d, c.loc, true);
  }
  return TValue::tensor(math::AbsFOp::create(em.b, L, x.v), d, x.shape);
}

static TValue fmaFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "y", "z"});
  TValue x = a.get("x"), y = a.get("y"), z = a.get("z");
  // binary_op_type_legalization on (x, y), then (z, x), then (z, y).
  legalizePair(em, x, y, c.loc);
  legalizePair(em, z, x, c.loc);
  legalizePair(em, z, y, c.loc);
  for (const TValue *v : {&x, &y, &z})
    if (!v->dtype.isFloat())
      em.error(c.loc,
               "tl.fma expects floating-point operands, got " + v->dtype.name());
  Value r = math::FmaOp::create(em.b, em.loc(c.loc), x.v, y.v, z.v);
  return TValue::tensor(r, x.dtype, x.shape);
}

/// x / y in the division computation type (fp16/bf16 go to fp32). Triton
/// accepts ieee_rounding but still emits a plain divf; tritium honours it
/// with a correctly rounded division.
static TValue fdivValues(Emitter &em, TValue x, TValue y, bool ieee,
                         SourceLoc l) {
  x = em.toTensor(x, l);
  y = em.toTensor(y, l);
  if (!x.dtype.isFloat() || !y.dtype.isFloat())
    em.error(l,
             "both operands of tl.fdiv must have floating scalar type, got " +
                 x.dtype.name() + " and " + y.dtype.name());
  legalizePair(em, x, y, l, true, BinOpKind::Div);
  Location L = em.loc(l);
  Value r = ieee ? Value(tile::PreciseDivFOp::create(em.b, L, x.v, y.v))
                 : Value(arith::DivFOp::create(em.b, L, x.v, y.v));
  return TValue::tensor(r, x.dtype, x.shape);
}

static TValue fdivFn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "y", "ieee_rounding=False"});
  bool ieee = em.requireBool(a.get("ieee_rounding"), a.loc("ieee_rounding"),
                             "ieee_rounding");
  return fdivValues(em, a.get("x"), a.get("y"), ieee, c.loc);
}

static TValue divRn(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "y"});
  TValue x = a.get("x"), y = a.get("y");
  // _check_dtype looks at the tensor arguments only.
  for (const char *n : {"x", "y"})
    if (a.get(n).isTensor())
      requireFloat(em, a.get(n), a.loc(n), "tl.div_rn", true);
  legalizePair(em, x, y, c.loc);
  requireFloat(em, x, c.loc, "tl.div_rn", true);
  Value r = tile::PreciseDivFOp::create(em.b, em.loc(c.loc), x.v, y.v);
  return TValue::tensor(r, x.dtype, x.shape);
}

static TValue umulhi(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "y"});
  TValue x = a.get("x"), y = a.get("y");
  auto ok = [](DType d) {
    return !d.isPtr() && (d.kind == DType::I32 || d.kind == DType::I64 ||
                          d.kind == DType::U32 || d.kind == DType::U64);
  };
  for (const char *n : {"x", "y"})
    if (a.get(n).isTensor() && !ok(a.get(n).dtype))
      em.error(a.loc(n),
               "tl.umulhi expects int32, int64, uint32 or uint64, got " +
                   a.get(n).dtype.name());
  legalizePair(em, x, y, c.loc);
  if (!ok(x.dtype))
    em.error(c.loc, "tl.umulhi expects int32, int64, uint32 or uint64, got " +
                        x.dtype.name());
  Value r = tile::MulhiUIOp::create(em.b, em.loc(c.loc), x.v, y.v);
  return TValue::tensor(r, x.dtype, x.shape);
}

//===----------------------------------------------------------------------===//
// maximum, minimum, clamp (core.py)
//===----------------------------------------------------------------------===//

/// tl.PropagateNan.NONE (0) or ALL (0xFFFF): accepted as the enum member
/// (when tl.PropagateNan resolves to the "tl.PropagateNan.*" entries below),
/// its int value, or a string.
static bool propagateAll(Emitter &em, const BoundArgs &a) {
  const TValue &v = a.get("propagate_nan");
  SourceLoc l = a.loc("propagate_nan");
  std::string s;
  if (v.kind == TValue::None)
    return false;
  if (v.kind == TValue::Builtin)
    s = v.s.substr(v.s.rfind('.') + 1);
  else if (v.kind == TValue::Str)
    s = v.s;
  else if (v.kind == TValue::Int && (v.i == 0 || v.i == 0xFFFF))
    return v.i == 0xFFFF;
  for (auto &ch : s)
    ch = char(std::toupper(ch));
  if (s == "NONE" || s == "ALL")
    return s == "ALL";
  em.error(l, "propagate_nan must be tl.PropagateNan.NONE or "
              "tl.PropagateNan.ALL, got " +
                  v.typeStr() + " " + v.repr());
}

static TValue bf16ToF32(Emitter &em, const TValue &v, SourceLoc l) {
  TValue t = em.toTensor(v, l);
  return t.dtype.kind == DType::BF16 && !t.dtype.isPtr()
             ? em.cast(t, DType::F32, l)
             : t;
}

static TValue maxMin(Emitter &em, CallArgs &c, bool isMax) {
  auto a = em.bind(c, {"x", "y", "propagate_nan=None"});
  bool all = propagateAll(em, a);
  TValue x = bf16ToF32(em, a.get("x"), a.loc("x"));
  TValue y = bf16ToF32(em, a.get("y"), a.loc("y"));
  legalizePair(em, x, y, c.loc);
  Location L = em.loc(c.loc);
  DType d = x.dtype;
  Value r;
  if (d.isPtr() || y.dtype.isPtr())
    em.error(c.loc, std::string(isMax ? "tl.maximum" : "tl.minimum") +
                        " needs numbers, got " + (d.isPtr() ? x : y).typeStr());
  if (d.isFloat()) {
    // NONE: maxnum/minnum return the number when one side is NaN;
    // ALL: maximumf/minimumf return NaN.
    if (all)
      r = isMax ? Value(arith::MaximumFOp::create(em.b, L, x.v, y.v))
                : Value(arith::MinimumFOp::create(em.b, L, x.v, y.v));
    else
      r = isMax ? Value(arith::MaxNumFOp::create(em.b, L, x.v, y.v))
                : Value(arith::MinNumFOp::create(em.b, L, x.v, y.v));
  } else if (d.isSigned()) {
    r = isMax ? Value(arith::MaxSIOp::create(em.b, L, x.v, y.v))
              : Value(arith::MinSIOp::create(em.b, L, x.v, y.v));
  } else { // unsigned, and int1 which Triton counts as unsigned
    r = isMax ? Value(arith::MaxUIOp::create(em.b, L, x.v, y.v))
              : Value(arith::MinUIOp::create(em.b, L, x.v, y.v));
  }
  return TValue::tensor(r, d, x.shape);
}

static TValue clamp(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "min", "max", "propagate_nan=None"});
  bool all = propagateAll(em, a);
  TValue x = bf16ToF32(em, a.get("x"), a.loc("x"));
  TValue lo = bf16ToF32(em, a.get("min"), a.loc("min"));
  TValue hi = bf16ToF32(em, a.get("max"), a.loc("max"));
  // semantic.clamp legalizes (min, max), then (x, min), then (x, max).
  legalizePair(em, lo, hi, c.loc);
  legalizePair(em, x, lo, c.loc);
  legalizePair(em, x, hi, c.loc);
  for (const TValue *v : {&x, &lo, &hi})
    if (!v->dtype.isFloat())
      em.error(c.loc,
               "tl.clamp only supports floating point, got " + v->dtype.name());
  auto mode = all ? tile::PropagateNan::ALL : tile::PropagateNan::NONE;
  Value r = tile::ClampFOp::create(em.b, em.loc(c.loc), x.v, lo.v, hi.v,
                                   tile::PropagateNanAttr::get(&em.ctx, mode));
  return TValue::tensor(r, x.dtype, x.shape);
}

//===----------------------------------------------------------------------===//
// standard.py: sigmoid, softmax
//===----------------------------------------------------------------------===//

static TValue expOf(Emitter &em, const TValue &x, SourceLoc l,
                    const std::string &fn) {
  requireFloat(em, x, l, fn);
  return TValue::tensor(math::ExpOp::create(em.b, em.loc(l), x.v), x.dtype,
                        x.shape);
}

/// sigmoid(x) = 1 / (1 + exp(-x))
static TValue sigmoid(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  TValue x = em.toTensor(a.get("x"), a.loc("x"));
  TValue e =
      expOf(em, em.unary(UnaryOpKind::Neg, x, c.loc), c.loc, "tl.sigmoid");
  TValue den = em.binary(BinOpKind::Add, TValue::integer(1), e, c.loc);
  return em.binary(BinOpKind::Div, TValue::integer(1), den, c.loc);
}

/// softmax(x) = fdiv(exp(z), sum(exp(z), dim)), z = x - max(x, dim), with
/// dim defaulting to 0 as in standard.py.
static TValue softmax(Emitter &em, CallArgs &c) {
  auto a =
      em.bind(c, {"x", "dim=None", "keep_dims=False", "ieee_rounding=False"});
  SourceLoc l = c.loc;
  TValue x = requireBlock(em, a.get("x"), a.loc("x"), "tl.softmax x");
  TValue dim = a.has("dim") ? a.get("dim") : TValue::integer(0);
  TValue keep = a.get("keep_dims");
  bool ieee = em.requireBool(a.get("ieee_rounding"), a.loc("ieee_rounding"),
                             "ieee_rounding");
  TValue m = callBuiltin(em, "tl.max", {x, dim}, {{"keep_dims", keep}}, l);
  TValue num = expOf(em, em.binary(BinOpKind::Sub, x, m, l), l, "tl.softmax");
  TValue den = callBuiltin(em, "tl.sum", {num, dim}, {{"keep_dims", keep}}, l);
  return fdivValues(em, num, den, ieee, l);
}

//===----------------------------------------------------------------------===//
// libdevice
//===----------------------------------------------------------------------===//

namespace {
struct ExternVariant {
  std::vector<DType> args;
  std::string symbol;
  DType ret;
};
struct ExternFn {
  std::vector<ExternVariant> variants;
  bool toBool = false; // isnan & co: `.to(tl.int1)` of the int32 result
};
} // namespace

static DType codeType(char c) {
  switch (c) {
  case 'i':
    return DType::I32;
  case 'I':
    return DType::I64;
  case 'u':
    return DType::U32;
  case 'U':
    return DType::U64;
  case 'f':
    return DType::F32;
  default:
    return DType::F64;
  }
}

/// NVIDIA's libdevice.py as a table. An entry is "name sig:symbol:ret ...";
/// a sig and ret are type codes (i int32, I int64, u uint32, U uint64,
/// f fp32, d fp64). "~1 a b ..." declares unary float functions
/// (f:__nv_af:f d:__nv_a:d), "~2"/"~3" the binary/ternary ones. A '%' in a
/// name expands to the rn/rz/rd/ru rounding variants; a '!' suffix marks
/// predicates that Triton converts to int1.
static const char *const kLibdevice[] = {
    "~1 floor ceil trunc rint nearbyint round exp exp2 exp10 expm1 log log2 "
    "log10 log1p sqrt rsqrt cbrt rcbrt sin cos tan sinpi cospi sinh cosh "
    "tanh asin acos atan asinh acosh atanh erf erfc erfinv erfcinv erfcx "
    "normcdf normcdfinv lgamma tgamma logb j0 j1 y0 y1 cyl_bessel_i0 "
    "cyl_bessel_i1 fabs",
    "~2 atan2 hypot rhypot copysign nextafter fmod remainder fdim fmin fmax",
    "~3 fma norm3d rnorm3d",
    "clz i:__nv_clz:i I:__nv_clzll:i",
    "popc i:__nv_popc:i I:__nv_popcll:i",
    "ffs i:__nv_ffs:i I:__nv_ffsll:i",
    "brev i:__nv_brev:i I:__nv_brevll:I",
    "byte_perm iii:__nv_byte_perm:i",
    "mulhi ii:__nv_mulhi:i uu:__nv_umulhi:u "
    "II:__nv_mul64hi:I UU:__nv_umul64hi:U",
    "mul24 ii:__nv_mul24:i uu:__nv_umul24:u",
    "sad iiu:__nv_sad:i uuu:__nv_usad:u",
    "hadd ii:__nv_hadd:i uu:__nv_uhadd:u",
    "rhadd ii:__nv_rhadd:i uu:__nv_urhadd:u",
    "abs i:__nv_abs:i I:__nv_llabs:I f:__nv_fabsf:f d:__nv_fabs:d",
    "rcp64h d:__nv_rcp64h:d",
    "saturatef f:__nv_saturatef:f",
    "rsqrt_rn f:__nv_frsqrt_rn:f",
    "fast_dividef ff:__nv_fast_fdividef:f",
    "fast_powf ff:__nv_fast_powf:f",
    "fast_sinf f:__nv_fast_sinf:f",
    "fast_cosf f:__nv_fast_cosf:f",
    "fast_tanf f:__nv_fast_tanf:f",
    "fast_expf f:__nv_fast_expf:f",
    "fast_exp10f f:__nv_fast_exp10f:f",
    "fast_logf f:__nv_fast_logf:f",
    "fast_log2f f:__nv_fast_log2f:f",
    "fast_log10f f:__nv_fast_log10f:f",
    "fma_% fff:__nv_fmaf_%:f ddd:__nv_fma_%:d",
    "div_% ff:__nv_fdiv_%:f dd:__nv_ddiv_%:d",
    "rcp_% f:__nv_frcp_%:f d:__nv_drcp_%:d",
    "sqrt_% f:__nv_fsqrt_%:f d:__nv_dsqrt_%:d",
    "add_% ff:__nv_fadd_%:f dd:__nv_dadd_%:d",
    "sub_% ff:__nv_fsub_%:f dd:__nv_dsub_%:d",
    "mul_% ff:__nv_fmul_%:f dd:__nv_dmul_%:d",
    "double2float_% d:__nv_double2float_%:f",
    "double2int_% d:__nv_double2int_%:i",
    "double2uint_% d:__nv_double2uint_%:i",
    "double2ll_% d:__nv_double2ll_%:I",
    "double2ull_% d:__nv_double2ull_%:I",
    "float2int_% f:__nv_float2int_%:i",
    "float2uint_% f:__nv_float2uint_%:i",
    "float2ll_% f:__nv_float2ll_%:I",
    "float2ull_% f:__nv_float2ull_%:I",
    "int2float_% i:__nv_int2float_%:f",
    "uint2float_% u:__nv_uint2float_%:f",
    "ll2float_% I:__nv_ll2float_%:f",
    "ull2float_% U:__nv_ull2float_%:f",
    "ll2double_% I:__nv_ll2double_%:d",
    "ull2double_% U:__nv_ull2double_%:d",
    "int2double_rn i:__nv_int2double_rn:d",
    "uint2double_rn u:__nv_uint2double_rn:d",
    "hiloint2double ii:__nv_hiloint2double:d",
    "double2loint d:__nv_double2loint:i",
    "double2hiint d:__nv_double2hiint:i",
    "int_as_float i:__nv_int_as_float:f",
    "float_as_int f:__nv_float_as_int:i",
    "uint_as_float u:__nv_uint_as_float:f",
    "float_as_uint f:__nv_float_as_uint:i",
    "longlong_as_double I:__nv_longlong_as_double:d",
    "double_as_longlong d:__nv_double_as_longlong:I",
    "llrint f:__nv_llrintf:I d:__nv_llrint:I",
    "llround f:__nv_llroundf:I d:__nv_llround:I",
    "ilogb f:__nv_ilogbf:i d:__nv_ilogb:i",
    "signbit f:__nv_signbitf:i d:__nv_signbitd:i",
    "isnan! f:__nv_isnanf:i d:__nv_isnand:i",
    "isinf! f:__nv_isinff:i d:__nv_isinfd:i",
    "finitef! f:__nv_finitef:i",
    "isfinited! d:__nv_isfinited:i",
    "norm4d ffff:__nv_norm4df:f dddd:__nv_norm4d:d",
    "rnorm4d ffff:__nv_rnorm4df:f dddd:__nv_rnorm4d:d",
    "yn if:__nv_ynf:f id:__nv_yn:d",
    "jn if:__nv_jnf:f id:__nv_jn:d",
    "ldexp fi:__nv_ldexpf:f di:__nv_ldexp:d",
    "scalbn fi:__nv_scalbnf:f di:__nv_scalbn:d",
    "pow fi:__nv_powif:f di:__nv_powi:d ff:__nv_powf:f dd:__nv_pow:d",
};

static std::string replaceAll(std::string s, const std::string &from,
                              const std::string &to) {
  for (size_t p = s.find(from); p != std::string::npos;
       p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

static std::map<std::string, ExternFn> libdeviceTable() {
  std::map<std::string, ExternFn> table;
  for (const char *entry : kLibdevice) {
    std::istringstream in(entry);
    std::string name, tok;
    in >> name;
    if (name[0] == '~') { // a family of float functions
      int n = name[1] - '0';
      while (in >> tok)
        table[tok].variants = {
            {std::vector<DType>(n, DType::F32), "__nv_" + tok + "f",
             DType::F32},
            {std::vector<DType>(n, DType::F64), "__nv_" + tok, DType::F64}};
      continue;
    }
    std::vector<std::string> toks;
    while (in >> tok)
      toks.push_back(tok);
    bool toBool = name.back() == '!';
    if (toBool)
      name.pop_back();
    bool rounded = name.find('%') != std::string::npos;
    for (const char *rm : {"rn", "rz", "rd", "ru"}) {
      ExternFn fn;
      fn.toBool = toBool;
      for (auto &t : toks) {
        std::string v = replaceAll(t, "%", rm);
        size_t c1 = v.find(':'), c2 = v.rfind(':');
        ExternVariant var;
        for (char ch : v.substr(0, c1))
          var.args.push_back(codeType(ch));
        var.symbol = v.substr(c1 + 1, c2 - c1 - 1);
        var.ret = codeType(v[c2 + 1]);
        fn.variants.push_back(var);
      }
      table[replaceAll(name, "%", rm)] = fn;
      if (!rounded)
        break;
    }
  }
  return table;
}

static std::string sigStr(const std::vector<DType> &ts) {
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i)
    s += (i ? ", " : "") + ts[i].name();
  return s + ")";
}

/// core.extern_elementwise + dispatch: an exact dtype match is used as is;
/// otherwise the operands are promoted together (binary_op_type_checking_impl
/// folded over them) and looked up again. Operands always broadcast.
static TValue externCall(Emitter &em, CallArgs &c, const std::string &name,
                         const ExternFn &fn) {
  size_t n = fn.variants[0].args.size();
  std::vector<std::string> params;
  for (size_t i = 0; i < n; ++i)
    params.push_back("arg" + std::to_string(i));
  auto a = em.bind(c, params);
  std::vector<TValue> xs;
  for (auto &p : params)
    xs.push_back(em.toTensor(a.get(p), a.loc(p)));
  std::vector<DType> types;
  for (auto &x : xs)
    types.push_back(x.dtype);
  auto find = [&](const std::vector<DType> &ts) -> const ExternVariant * {
    for (auto &v : fn.variants)
      if (v.args == ts)
        return &v;
    return nullptr;
  };
  bool arith = find(types) == nullptr;
  TValue common = xs[0];
  for (auto &x : xs) {
    TValue item = x;
    legalizePair(em, item, common, c.loc, arith);
  }
  for (auto &x : xs) {
    TValue other = common;
    legalizePair(em, x, other, c.loc, arith);
  }
  types.clear();
  for (auto &x : xs)
    types.push_back(x.dtype);
  const ExternVariant *v = find(types);
  if (!v) {
    std::string expected;
    for (auto &var : fn.variants)
      expected += (expected.empty() ? "" : ", ") + sigStr(var.args);
    em.error(c.loc, "libdevice." + name + " does not support argument types " +
                        sigStr(types) + "; expected one of " + expected);
  }
  SmallVector<Value> vals;
  for (auto &x : xs)
    vals.push_back(x.v);
  std::vector<int64_t> shape = xs[0].shape;
  Value r = tile::ExternElementwiseOp::create(em.b, em.loc(c.loc),
                                              em.irType(v->ret, shape), vals,
                                              "libdevice", "", v->symbol, true);
  TValue out = TValue::tensor(r, v->ret, shape);
  return fn.toBool ? em.cast(out, DType::I1, c.loc) : out;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void tritium::fe::registerMathBuiltins(BuiltinTable &t) {
  t["tl.exp"] = unaryMath<math::ExpOp>("exp");
  t["tl.exp2"] = unaryMath<math::Exp2Op>("exp2");
  t["tl.log"] = unaryMath<math::LogOp>("log");
  t["tl.log2"] = unaryMath<math::Log2Op>("log2");
  t["tl.sin"] = unaryMath<math::SinOp>("sin");
  t["tl.cos"] = unaryMath<math::CosOp>("cos");
  t["tl.sqrt"] = unaryMath<math::SqrtOp>("sqrt");
  t["tl.rsqrt"] = unaryMath<math::RsqrtOp>("rsqrt");
  t["tl.erf"] = unaryMath<math::ErfOp>("erf");
  t["tl.floor"] = unaryMath<math::FloorOp>("floor");
  t["tl.ceil"] = unaryMath<math::CeilOp>("ceil");
  t["tl.sqrt_rn"] = sqrtRn;
  t["tl.abs"] = absFn;
  t["tl.fma"] = fmaFn;
  t["tl.fdiv"] = fdivFn;
  t["tl.div_rn"] = divRn;
  t["tl.umulhi"] = umulhi;
  const char *mathNames[] = {"exp",    "exp2",    "log",   "log2", "sin",
                             "cos",    "sqrt",    "rsqrt", "erf",  "floor",
                             "ceil",   "sqrt_rn", "abs",   "fma",  "fdiv",
                             "div_rn", "umulhi"};
  for (const char *n : mathNames) {
    t[std::string("tl.math.") + n] = t.at(std::string("tl.") + n);
    t[std::string("tensor.") + n] = t.at(std::string("tl.") + n);
  }
  // The operators as functions; overflow checks are the operators' too.
  static const std::pair<const char *, BinOpKind> arith[] = {
      {"tl.add", BinOpKind::Add}, {"tl.sub", BinOpKind::Sub},
      {"tl.mul", BinOpKind::Mul}};
  for (auto [name, op] : arith)
    t[name] = [op = op](Emitter &em, CallArgs &c) {
      auto a = em.bind(c, {"x", "y", "sanitize_overflow=True"});
      return em.binary(op, a.get("x"), a.get("y"), c.loc);
    };
  t["tl.to_tensor"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"x"});
    return em.toTensor(a.get("x"), a.loc("x"));
  };
  t["tl.maximum"] = [](Emitter &em, CallArgs &c) {
    return maxMin(em, c, true);
  };
  t["tl.minimum"] = [](Emitter &em, CallArgs &c) {
    return maxMin(em, c, false);
  };
  t["tl.clamp"] = clamp;
  t["tl.sigmoid"] = sigmoid;
  t["tl.softmax"] = softmax;
  alias(t, "tl.sigmoid", {"tensor.sigmoid", "tl.math.sigmoid"});
  alias(t, "tl.softmax", {"tensor.softmax", "tl.math.softmax"});
  // Members of tl.PropagateNan, for when `tl.PropagateNan` resolves as a
  // namespace; propagate_nan also accepts the values these return.
  t["tl.PropagateNan.NONE"] = [](Emitter &, CallArgs &) {
    return TValue::integer(0);
  };
  t["tl.PropagateNan.ALL"] = [](Emitter &, CallArgs &) {
    return TValue::integer(0xFFFF);
  };

  for (auto &[name, fn] : libdeviceTable()) {
    BuiltinFn call = [name, fn](Emitter &em, CallArgs &c) {
      return externCall(em, c, name, fn);
    };
    t["libdevice." + name] = call;
    // Pre-3.0 Triton exposed these as tl.math.*; keep the core versions
    // where both exist.
    if (!t.count("tl.math." + name))
      t["tl.math." + name] = call;
  }
}

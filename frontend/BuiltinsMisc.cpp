//===- BuiltinsMisc.cpp - debug, hints, Python builtins, helpers ----------===//
//
// static_print/static_assert, device_print/device_assert (and Python's
// print), axis hints (multiple_of, max_contiguous, max_constancy), assume,
// debug_barrier, inline assembly, triton.cdiv/next_power_of_2, swizzle2d,
// dtype predicates, and Python's min/max/float/int/bool/len/abs.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

#include <algorithm>
#include <functional>

#include <cmath>

using namespace tritium::fe;
using namespace mlir;

static TValue staticPrint(Emitter &em, CallArgs &c) {
  std::string line;
  for (size_t i = 0; i < c.args.size(); ++i)
    line += (i ? " " : "") + (c.args[i].kind == TValue::Str ? c.args[i].s : c.args[i].repr());
  em.staticPrints.push_back(line);
  return TValue::none();
}

static TValue staticAssert(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"cond", "msg="});
  const TValue &cond = a.get("cond");
  if (!cond.isConstexpr())
    em.error(a.loc("cond"), "tl.static_assert needs a compile-time condition, got " +
                                cond.typeStr());
  if (!em.truthy(cond, a.loc("cond"))) {
    std::string msg = em.requireStr(a.get("msg"), a.loc("msg"), "msg");
    em.error(c.loc, "static_assert failed" + (msg.empty() ? "" : ": " + msg));
  }
  return TValue::none();
}

static TValue devicePrint(Emitter &em, CallArgs &c, bool python) {
  std::string prefix;
  bool hex = false;
  for (size_t k = 0; k < c.kwargs.size(); ++k) {
    if (c.kwargs[k].first == "hex")
      hex = em.requireBool(c.kwargs[k].second, c.kwLocs[k], "hex");
    else if (!(python && (c.kwargs[k].first == "sep" || c.kwargs[k].first == "end")))
      em.error(c.kwLocs[k], c.name + "() got an unexpected keyword argument '" +
                                c.kwargs[k].first + "'");
  }
  size_t i = 0;
  if (!python) {
    if (c.args.empty() || c.args[0].kind != TValue::Str)
      em.error(c.loc, "tl.device_print needs a string prefix as its first argument");
    prefix = c.args[0].s;
    i = 1;
  } else {
    for (; i < c.args.size() && c.args[i].kind == TValue::Str; ++i)
      prefix += (i ? " " : "") + c.args[i].s;
  }
  SmallVector<Value> vals;
  SmallVector<int32_t> signs;
  for (; i < c.args.size(); ++i) {
    if (c.args[i].kind == TValue::Str)
      em.error(c.argLocs[i], "strings may only come before the values printed");
    TValue v = em.toTensor(c.args[i], c.argLocs[i]);
    vals.push_back(v.v);
    signs.push_back(v.dtype.isSigned() ? 1 : 0);
  }
  // Triton's spacing: "pid (..) idx (..)" + prefix + value, with a space put
  // before prefixes longer than two characters and after a non-empty one.
  if (prefix.size() > 2 && prefix[0] != ' ')
    prefix = " " + prefix;
  if (!prefix.empty() && prefix.back() != ' ' && !vals.empty())
    prefix += " ";
  tile::PrintOp::create(em.b, em.loc(c.loc), em.b.getStringAttr(prefix),
                        em.b.getBoolAttr(hex), vals, em.b.getDenseI32ArrayAttr(signs));
  return TValue::none();
}

static TValue deviceAssert(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"cond", "msg=", "mask=None"});
  TValue cond = a.get("cond");
  std::string msg = em.requireStr(a.get("msg"), a.loc("msg"), "msg");
  if (cond.isConstexpr()) {
    if (!em.truthy(cond, a.loc("cond")))
      em.error(c.loc, "device_assert fails at compile time" + (msg.empty() ? "" : ": " + msg));
    return TValue::none();
  }
  if (!em.options.debug)
    return TValue::none(); // active only with debug, as in Triton
  TValue cb = em.cast(cond, DType::I1, a.loc("cond"));
  if (a.has("mask")) {
    TValue off = em.unary(UnaryOpKind::Not, a.get("mask"), a.loc("mask"));
    cb = em.logical(BoolOpKind::Or, cb, off, c.loc);
  }
  tile::AssertOp::create(em.b, em.loc(c.loc), cb.v, em.b.getStringAttr(msg));
  return TValue::none();
}

static TValue hint(Emitter &em, CallArgs &c, const char *kind) {
  auto a = em.bind(c, {"input", "values"});
  TValue x = requireBlock(em, a.get("input"), a.loc("input"), "input");
  auto vals = em.requireShape(a.get("values"), a.loc("values"), "values");
  size_t rank = std::max<size_t>(1, x.shape.size());
  if (vals.size() != rank)
    em.error(a.loc("values"), std::string(kind) + " needs " + std::to_string(rank) +
                                  " values for " + x.typeStr() + ", got " +
                                  std::to_string(vals.size()));
  SmallVector<int32_t> v32;
  for (int64_t v : vals) {
    if (v <= 0)
      em.error(a.loc("values"), std::string(kind) + " values must be positive");
    v32.push_back(int32_t(v));
  }
  auto op = tile::HintOp::create(em.b, em.loc(c.loc), x.v.getType(), x.v,
                                 DenseI32ArrayAttr(), DenseI32ArrayAttr(),
                                 DenseI32ArrayAttr());
  op->setAttr(kind, em.b.getDenseI32ArrayAttr(v32));
  return TValue::tensor(op.getResult(), x.dtype, x.shape);
}

static TValue assume(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"cond"});
  TValue cond = a.get("cond");
  if (cond.isConstexpr()) {
    if (!em.truthy(cond, a.loc("cond")))
      em.error(c.loc, "tl.assume of a condition that is false at compile time");
    return TValue::none();
  }
  if (!cond.shape.empty())
    em.error(a.loc("cond"), "tl.assume needs a scalar condition, got " + cond.typeStr());
  tile::AssumeOp::create(em.b, em.loc(c.loc), em.cast(cond, DType::I1, c.loc).v);
  return TValue::none();
}

static TValue cdiv(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x", "div"});
  TValue x = a.get("x"), d = a.get("div");
  if (d.kind == TValue::Int && d.i == 0)
    em.error(a.loc("div"), "cdiv by zero");
  // (x + div - 1) // div
  TValue num = em.binary(BinOpKind::Sub, em.binary(BinOpKind::Add, x, d, c.loc),
                         TValue::integer(1), c.loc);
  return em.binary(BinOpKind::FloorDiv, num, d, c.loc);
}

static TValue nextPow2(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"n"});
  int64_t n = em.requireInt(a.get("n"), a.loc("n"), "next_power_of_2 argument");
  int64_t p = 1;
  while (p < n)
    p <<= 1;
  return TValue::integer(p);
}

static TValue minMax(Emitter &em, CallArgs &c, bool isMax) {
  std::vector<TValue> vals = c.args;
  if (vals.size() == 1 && vals[0].kind == TValue::Tuple)
    vals = vals[0].elems;
  if (vals.size() < 2)
    em.error(c.loc, c.name + "() needs at least two arguments");
  TValue acc = vals[0];
  for (size_t i = 1; i < vals.size(); ++i) {
    const TValue &v = vals[i];
    if (acc.isConstexpr() && v.isConstexpr()) {
      TValue lt;
      em.foldCompare(CmpOpKind::Lt, acc, v, c.loc, lt);
      acc = (lt.b == isMax) ? v : acc;
      continue;
    }
    acc = callBuiltin(em, isMax ? "tl.maximum" : "tl.minimum", {acc, v}, c.loc);
  }
  return acc;
}

static TValue pyFloat(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  const TValue &x = a.get("x");
  if (x.kind == TValue::Str) {
    std::string s = x.s;
    for (auto &ch : s) ch = char(std::tolower(ch));
    if (s == "inf" || s == "+inf" || s == "infinity") return TValue::floating(INFINITY);
    if (s == "-inf" || s == "-infinity") return TValue::floating(-INFINITY);
    if (s == "nan") return TValue::floating(NAN);
    char *end = nullptr;
    double v = std::strtod(x.s.c_str(), &end);
    if (!end || *end)
      em.error(a.loc("x"), "could not convert string to float: '" + x.s + "'");
    return TValue::floating(v);
  }
  if (x.kind == TValue::Int) return TValue::floating(double(x.i));
  if (x.kind == TValue::Bool) return TValue::floating(x.b);
  if (x.kind == TValue::Float) return x;
  if (x.isTensor()) return em.cast(x, DType::F32, c.loc);
  em.error(a.loc("x"), "float() of " + x.typeStr() + " is not supported");
}

static TValue pyInt(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  const TValue &x = a.get("x");
  if (x.kind == TValue::Float) return TValue::integer(int64_t(x.f));
  if (x.kind == TValue::Bool) return TValue::integer(x.b);
  if (x.kind == TValue::Int) return x;
  if (x.isTensor()) return em.cast(x, DType::I32, c.loc);
  em.error(a.loc("x"), "int() of " + x.typeStr() + " is not supported");
}

static TValue pyBool(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  const TValue &x = a.get("x");
  if (x.isTensor()) return em.cast(x, DType::I1, c.loc);
  return TValue::boolean(em.truthy(x, a.loc("x")));
}

static TValue pyLen(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"x"});
  const TValue &x = a.get("x");
  if (x.kind == TValue::Tuple) return TValue::integer(int64_t(x.elems.size()));
  if (x.kind == TValue::Str) return TValue::integer(int64_t(x.s.size()));
  if (x.isBlock()) return TValue::integer(x.shape[0]);
  em.error(a.loc("x"), "len() of " + x.typeStr() + " is not supported");
}

static TValue swizzle2d(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"i", "j", "size_i", "size_j", "size_g"});
  SourceLoc l = c.loc;
  auto B = [&](BinOpKind k, const TValue &x, const TValue &y) { return em.binary(k, x, y, l); };
  TValue i = a.get("i"), j = a.get("j"), si = a.get("size_i"), sj = a.get("size_j"),
         sg = a.get("size_g");
  TValue ij = B(BinOpKind::Add, B(BinOpKind::Mul, i, sj), j);
  TValue sizeGJ = B(BinOpKind::Mul, sg, sj);
  TValue group = B(BinOpKind::FloorDiv, ij, sizeGJ);
  TValue offI = B(BinOpKind::Mul, group, sg);
  TValue g = callBuiltin(em, "tl.minimum", {B(BinOpKind::Sub, si, offI), sg}, l);
  TValue r = B(BinOpKind::Mod, ij, sizeGJ);
  TValue newI = B(BinOpKind::Add, offI, B(BinOpKind::Mod, r, g));
  TValue newJ = B(BinOpKind::FloorDiv, r, g);
  return TValue::tuple({newI, newJ});
}

static TValue inlineAsm(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"asm", "constraints", "args", "dtype", "is_pure", "pack"});
  std::string asmStr = em.requireStr(a.get("asm"), a.loc("asm"), "asm");
  std::string cons = em.requireStr(a.get("constraints"), a.loc("constraints"), "constraints");
  bool pure = em.requireBool(a.get("is_pure"), a.loc("is_pure"), "is_pure");
  int64_t pack = em.requireInt(a.get("pack"), a.loc("pack"), "pack");
  std::vector<TValue> args;
  const TValue &av = a.get("args");
  if (av.kind == TValue::Tuple)
    args = av.elems;
  else
    args.push_back(av);
  std::vector<DType> outs;
  const TValue &dv = a.get("dtype");
  if (dv.kind == TValue::Tuple)
    for (auto &d : dv.elems) outs.push_back(em.requireDType(d, a.loc("dtype"), "dtype"));
  else
    outs.push_back(em.requireDType(dv, a.loc("dtype"), "dtype"));
  std::vector<int64_t> shape;
  for (auto &x : args) {
    x = em.toTensor(x, a.loc("args"));
    shape = em.broadcastShapes(shape, x.shape, a.loc("args"));
  }
  SmallVector<Value> vals;
  for (auto &x : args)
    vals.push_back(em.broadcastTo(x, shape, a.loc("args")).v);
  SmallVector<Type> types;
  for (auto d : outs)
    types.push_back(em.irType(d, shape));
  auto op = tile::ElementwiseInlineAsmOp::create(
      em.b, em.loc(c.loc), types, em.b.getStringAttr(asmStr), em.b.getStringAttr(cons),
      em.b.getBoolAttr(pure), em.b.getI32IntegerAttr(int32_t(pack)), vals);
  if (outs.size() == 1 && dv.kind != TValue::Tuple)
    return TValue::tensor(op.getResult()[0], outs[0], shape);
  std::vector<TValue> rs;
  for (size_t i = 0; i < outs.size(); ++i)
    rs.push_back(TValue::tensor(op.getResult()[i], outs[i], shape));
  return TValue::tuple(rs);
}

static BuiltinFn dtypePredicate(bool (*pred)(DType)) {
  return [pred](Emitter &em, CallArgs &c) {
    if (c.args.size() != 1 || !c.kwargs.empty())
      em.error(c.loc, c.name + "() takes no arguments");
    return TValue::boolean(pred(c.args[0].dtype));
  };
}

void tritium::fe::registerMiscBuiltins(BuiltinTable &t) {
  // Loop iterables: handled by the for statement itself.
  for (const char *r : {"range", "tl.range", "tl.static_range"})
    t[r] = [r](Emitter &em, CallArgs &c) -> TValue {
      em.error(c.loc, std::string(r) + "() can only be the iterable of a for loop");
    };
  // tl.tuple(iterable): kernels build tuples from lists and comprehensions.
  t["tl.tuple"] = [](Emitter &em, CallArgs &c) -> TValue {
    auto a = em.bind(c, {"args=()"});
    TValue v = a.get("args");
    if (!a.has("args"))
      return TValue::tuple({});
    if (v.kind != TValue::Tuple)
      em.error(a.loc("args"), "tl.tuple takes a tuple or list, got " + v.typeStr());
    return v;
  };
  t["tl.static_print"] = staticPrint;
  t["tl.static_assert"] = staticAssert;
  t["tl.device_print"] = [](Emitter &em, CallArgs &c) { return devicePrint(em, c, false); };
  t["print"] = [](Emitter &em, CallArgs &c) { return devicePrint(em, c, true); };
  t["tl.device_assert"] = deviceAssert;
  t["tl.multiple_of"] = [](Emitter &em, CallArgs &c) { return hint(em, c, "divisibility"); };
  t["tl.max_contiguous"] = [](Emitter &em, CallArgs &c) { return hint(em, c, "contiguity"); };
  t["tl.max_constancy"] = [](Emitter &em, CallArgs &c) { return hint(em, c, "constancy"); };
  t["tl.assume"] = assume;
  t["tl.debug_barrier"] = [](Emitter &em, CallArgs &c) {
    em.bind(c, {});
    tile::BarrierOp::create(em.b, em.loc(c.loc));
    return TValue::none();
  };
  // tl.extra.cuda: the launch's warps and threads are compile-time values.
  t["tl.extra.cuda.num_warps"] = [](Emitter &em, CallArgs &c) {
    em.bind(c, {});
    return TValue::integer(em.options.numWarps);
  };
  t["tl.extra.cuda.num_threads"] = [](Emitter &em, CallArgs &c) {
    em.bind(c, {});
    return TValue::integer(int64_t(em.options.numWarps) * 32);
  };
  // Programmatic dependent launch: tritium launches no kernel with the
  // programmatic-serialization attribute, so a grid never overlaps the one
  // before it; waiting for it and releasing the next one are no-ops.
  t["tl.extra.cuda.gdc_wait"] = [](Emitter &em, CallArgs &c) {
    em.bind(c, {});
    return TValue::none();
  };
  t["tl.extra.cuda.gdc_launch_dependents"] = [](Emitter &em, CallArgs &c) {
    em.bind(c, {});
    return TValue::none();
  };
  // `while tl.condition(c)`: the condition itself (LICM hints are not
  // used by tritium's passes).
  t["tl.condition"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"arg", "disable_licm=False"});
    return a.get("arg");
  };
  t["tl.constexpr"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"value"});
    return a.get("value");
  };
  t["tl.pointer_type"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"element_ty", "address_space=1", "const=False"});
    DType d = em.requireDType(a.get("element_ty"), a.loc("element_ty"), "element_ty");
    if (em.requireInt(a.get("address_space"), a.loc("address_space"), "address_space") != 1)
      em.error(a.loc("address_space"), "only global pointers (address_space=1) are supported");
    DType p = d.pointerTo();
    p.isConst = em.requireBool(a.get("const"), a.loc("const"), "const");
    return TValue::type(p);
  };
  t["tl.cdiv"] = cdiv;
  t["triton.cdiv"] = cdiv;
  t["triton.next_power_of_2"] = nextPow2;
  t["tl.swizzle2d"] = swizzle2d;
  t["tl.inline_asm_elementwise"] = inlineAsm;
  t["min"] = [](Emitter &em, CallArgs &c) { return minMax(em, c, false); };
  t["max"] = [](Emitter &em, CallArgs &c) { return minMax(em, c, true); };
  t["float"] = pyFloat;
  t["int"] = pyInt;
  t["bool"] = pyBool;
  t["len"] = pyLen;
  // Classes kernels test values against; calling them is an error.
  for (const char *cls : {"tl.tensor", "tl.tensor_descriptor", "tl.tensor_descriptor_base",
                          "tl.dtype", "tl.block_type", "str"})
    t[cls] = [cls](Emitter &em, CallArgs &c) -> TValue {
      em.error(c.loc, std::string(cls) + "(...) cannot be called inside a kernel; "
                                         "it is for isinstance() checks");
    };
  // isinstance(x, cls) / isinstance(x, (cls, ...)), decided at compile time.
  t["isinstance"] = [](Emitter &em, CallArgs &c) -> TValue {
    if (c.args.size() != 2 || !c.kwargs.empty())
      em.error(c.loc, "isinstance() takes a value and a class (or a tuple of classes)");
    const TValue &x = c.args[0];
    std::function<bool(const TValue &)> is = [&](const TValue &cls) -> bool {
      if (cls.kind == TValue::Tuple)
        return std::any_of(cls.elems.begin(), cls.elems.end(), is);
      if (cls.kind != TValue::Builtin)
        em.error(c.argLocs[1], "isinstance() needs a class, got " + cls.typeStr());
      const std::string &n = cls.s;
      if (n == "tl.tensor")
        return x.kind == TValue::Tensor;
      if (n == "tl.tensor_descriptor" || n == "tl.tensor_descriptor_base")
        return x.kind == TValue::Descriptor;
      if (n == "tl.constexpr")
        return x.isConstexpr();
      if (n == "tl.tuple" || n == "tuple")
        return x.kind == TValue::Tuple;
      if (n == "tl.dtype")
        return x.kind == TValue::Type && !x.constexprType;
      if (n == "tl.constexpr_type")
        return x.kind == TValue::Type && x.constexprType;
      if (n == "tl.block_type")
        return false;
      if (n == "tl.pointer_type")
        return x.kind == TValue::Type && x.dtype.isPtr();
      if (n == "int")
        return x.kind == TValue::Int || x.kind == TValue::Bool;
      if (n == "float")
        return x.kind == TValue::Float;
      if (n == "bool")
        return x.kind == TValue::Bool;
      if (n == "str")
        return x.kind == TValue::Str;
      em.error(c.argLocs[1], "isinstance() cannot test against " + n);
    };
    return TValue::boolean(is(c.args[1]));
  };
  // getattr(obj, "name"[, default]) with a compile-time name, e.g.
  // getattr(tl, op) to pick a function by a constexpr string.
  t["getattr"] = [](Emitter &em, CallArgs &c) -> TValue {
    if (c.args.size() < 2 || c.args.size() > 3 || !c.kwargs.empty())
      em.error(c.loc, "getattr() takes an object, a name and an optional default");
    std::string name = em.requireStr(c.args[1], c.argLocs[1], "getattr's name");
    if (c.args.size() == 3) {
      try {
        return em.getAttr(c.args[0], name, c.argLocs[1]);
      } catch (CompileError &) {
        return c.args[2];
      }
    }
    return em.getAttr(c.args[0], name, c.argLocs[1]);
  };
  // constexpr_type(v): the type of the compile-time value v.
  t["tl.constexpr_type"] = [](Emitter &em, CallArgs &c) -> TValue {
    auto a = em.bind(c, {"value"});
    const TValue &v = a.get("value");
    if (!v.isConstexpr() && v.kind != TValue::Tuple && v.kind != TValue::None)
      em.error(a.loc("value"), "constexpr_type needs a compile-time value, got " +
                                   v.typeStr());
    return TValue::constexprTypeOf(v);
  };
  // hasattr(obj, "name"): whether getattr would find it (at compile time).
  t["hasattr"] = [](Emitter &em, CallArgs &c) -> TValue {
    if (c.args.size() != 2 || !c.kwargs.empty())
      em.error(c.loc, "hasattr() takes an object and a name");
    std::string name = em.requireStr(c.args[1], c.argLocs[1], "hasattr's name");
    try {
      em.getAttr(c.args[0], name, c.argLocs[1]);
      return TValue::boolean(true);
    } catch (CompileError &) {
      return TValue::boolean(false);
    }
  };
  t["abs"] = [](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"x"});
    const TValue &x = a.get("x");
    if (x.kind == TValue::Int) return TValue::integer(x.i < 0 ? -x.i : x.i);
    if (x.kind == TValue::Float) return TValue::floating(std::fabs(x.f));
    return callBuiltin(em, "tl.abs", {x}, c.loc);
  };
  t["dtype.is_floating"] = dtypePredicate([](DType d) { return d.isFloat(); });
  t["dtype.is_int"] = dtypePredicate([](DType d) { return d.isInt(); });
  t["dtype.is_int_signed"] = dtypePredicate([](DType d) { return d.isSigned(); });
  t["dtype.is_int_unsigned"] = dtypePredicate([](DType d) { return d.isUnsigned(); });
  t["dtype.is_bool"] = dtypePredicate([](DType d) { return d.isBool(); });
  t["dtype.is_ptr"] = dtypePredicate([](DType d) { return d.isPtr(); });
  t["dtype.is_fp8"] = dtypePredicate([](DType d) { return d.isFP8(); });
  t["dtype.is_fp16"] = dtypePredicate([](DType d) { return !d.isPtr() && d.kind == DType::F16; });
  t["dtype.is_bf16"] = dtypePredicate([](DType d) { return !d.isPtr() && d.kind == DType::BF16; });
  t["dtype.is_fp32"] = dtypePredicate([](DType d) { return !d.isPtr() && d.kind == DType::F32; });
  t["dtype.is_fp64"] = dtypePredicate([](DType d) { return !d.isPtr() && d.kind == DType::F64; });
}

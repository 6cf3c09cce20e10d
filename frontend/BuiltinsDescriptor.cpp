//===- BuiltinsDescriptor.cpp - tensor descriptors and map_elementwise ----===//
//
// tl.make_tensor_descriptor and the descriptor methods (load, store,
// atomic_*, gather, scatter; also tl.load/store_tensor_descriptor), checked
// with Triton's rules (rank 1-5, last stride 1, at least 16 bytes per block
// row), and tl.map_elementwise, whose scalar @jit function becomes the body
// of a tile.map_elementwise region.
//
//===----------------------------------------------------------------------===//
#include "frontend/Builtins.h"

using namespace tritium::fe;
using namespace mlir;

static const TValue &requireDesc(Emitter &em, const TValue &v, SourceLoc l) {
  if (v.kind != TValue::Descriptor)
    em.error(l, "expected a tensor descriptor (tl.make_tensor_descriptor), got " +
                    v.typeStr());
  return v;
}

/// Block offsets as i32 scalars, one per descriptor dimension.
static SmallVector<Value> offsetsOf(Emitter &em, const TValue &desc, const TValue &offs,
                                    SourceLoc l) {
  std::vector<TValue> items =
      offs.kind == TValue::Tuple ? offs.elems : std::vector<TValue>{offs};
  if (items.size() != desc.shape.size())
    em.error(l, "a rank-" + std::to_string(desc.shape.size()) +
                    " descriptor takes " + std::to_string(desc.shape.size()) +
                    " offsets, got " + std::to_string(items.size()));
  SmallVector<Value> out;
  for (auto &v : items) {
    TValue t = em.toTensor(v, l);
    if (!t.dtype.isInt() || !t.shape.empty())
      em.error(l, "descriptor offsets must be integer scalars, got " + t.typeStr());
    out.push_back(em.cast(t, DType::I32, l).v);
  }
  return out;
}

static TValue makeDescriptor(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"base", "shape", "strides", "block_shape", "padding_option=zero"});
  SourceLoc l = c.loc;
  TValue base = a.get("base");
  if (!base.isTensor() || !base.dtype.isPtr() || !base.shape.empty())
    em.error(a.loc("base"), "base must be a scalar pointer, got " + base.typeStr());
  auto block = em.requireShape(a.get("block_shape"), a.loc("block_shape"), "block_shape");
  size_t rank = block.size();
  if (rank < 1 || rank > 5)
    em.error(a.loc("block_shape"), "tensor descriptors have rank 1 to 5, got " +
                                       std::to_string(rank));
  em.checkBlockShape(block, a.loc("block_shape"));
  DType elem = base.dtype.pointee();
  if (block.back() * int64_t(std::max(1u, elem.bits() / 8)) < 16)
    em.error(a.loc("block_shape"),
             "Descriptor block shape must have at least 16 bytes in the last "
             "dimension, got " + std::to_string(block.back()) + " x " +
                 elem.name());
  auto list = [&](const char *name) {
    const TValue &v = a.get(name);
    if (v.kind != TValue::Tuple || v.elems.size() != rank)
      em.error(a.loc(name), std::string(name) + " must be a tuple of " +
                                std::to_string(rank) + " values, got " + v.typeStr());
    return v.elems;
  };
  SmallVector<Value> shape, strides;
  for (auto &v : list("shape"))
    shape.push_back(em.cast(em.toTensor(v, a.loc("shape")), DType::I32, a.loc("shape")).v);
  auto st = list("strides");
  if (!(st.back().kind == TValue::Int && st.back().i == 1))
    em.error(a.loc("strides"), "the last stride of a tensor descriptor must be the "
                               "constant 1, got " + st.back().repr());
  for (auto &v : st)
    strides.push_back(em.cast(em.toTensor(v, a.loc("strides")), DType::I64, a.loc("strides")).v);
  std::string pad = em.requireStr(a.get("padding_option"), a.loc("padding_option"),
                                  "padding_option");
  if (pad != "zero" && pad != "nan")
    em.error(a.loc("padding_option"), "padding_option must be 'zero' or 'nan', got '" +
                                          pad + "'");
  if (pad == "nan" && !elem.isFloat())
    em.error(a.loc("padding_option"), "padding_option='nan' needs a float tensor");
  auto blockType = mlir::cast<RankedTensorType>(em.irType(elem, block));
  auto descType = tile::TensorDescType::get(&em.ctx, blockType);
  Value d = tile::MakeTensorDescOp::create(
      em.b, em.loc(l), descType, base.v, shape, strides,
      pad == "nan" ? tile::PaddingOption::PAD_NAN : tile::PaddingOption::PAD_ZERO);
  TValue r;
  r.kind = TValue::Descriptor;
  r.v = d;
  r.dtype = elem;
  r.shape = block;
  // desc.shape / desc.strides: the values it was made with.
  for (Value v : shape)
    r.elems.push_back(TValue::tensor(v, DType::I32, {}));
  for (Value v : strides)
    r.elems.push_back(TValue::tensor(v, DType::I64, {}));
  return r;
}

static TValue descLoad(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"desc", "offsets"});
  const TValue &d = requireDesc(em, a.get("desc"), a.loc("desc"));
  auto offs = offsetsOf(em, d, a.get("offsets"), a.loc("offsets"));
  Value r = tile::DescriptorLoadOp::create(em.b, em.loc(c.loc), em.irType(d.dtype, d.shape),
                                           d.v, offs, nullptr, nullptr);
  return TValue::tensor(r, d.dtype, d.shape);
}

static TValue blockValue(Emitter &em, const TValue &d, const TValue &v, SourceLoc l) {
  return em.broadcastTo(em.cast(em.toTensor(v, l), d.dtype, l), d.shape, l);
}

static TValue descStore(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"desc", "offsets", "value"});
  const TValue &d = requireDesc(em, a.get("desc"), a.loc("desc"));
  auto offs = offsetsOf(em, d, a.get("offsets"), a.loc("offsets"));
  TValue v = blockValue(em, d, a.get("value"), a.loc("value"));
  tile::DescriptorStoreOp::create(em.b, em.loc(c.loc), d.v, v.v, offs);
  return TValue::none();
}

static BuiltinFn descReduce(tile::DescriptorReduceKind kind, const char *name) {
  return [kind, name](Emitter &em, CallArgs &c) {
    auto a = em.bind(c, {"desc", "offsets", "value"});
    const TValue &d = requireDesc(em, a.get("desc"), a.loc("desc"));
    // The element types TMA reductions take (Hopper): add on 32/64-bit
    // unsigned, i32 and 32/16-bit floats; min/max on 32/64-bit integers
    // and 16-bit floats; bitwise ops on 32/64-bit integers.
    using K = tile::DescriptorReduceKind;
    DType::Kind t = d.dtype.isPtr() ? DType::Void : d.dtype.kind;
    bool int3264 = t == DType::I32 || t == DType::U32 || t == DType::I64 || t == DType::U64;
    bool half = t == DType::F16 || t == DType::BF16;
    bool ok = kind == K::ADD ? (t == DType::U32 || t == DType::I32 || t == DType::U64 ||
                                t == DType::F32 || half)
              : kind == K::MIN || kind == K::MAX ? (int3264 || half)
                                                 : int3264;
    if (!ok)
      em.error(c.loc, std::string("descriptor atomic_") + name + " does not support " +
                          d.dtype.name() + " (it takes " +
                          (kind == K::ADD ? "uint32, int32, uint64, float32, float16 or bfloat16"
                           : kind == K::MIN || kind == K::MAX
                               ? "32- and 64-bit integers, float16 or bfloat16"
                               : "32- and 64-bit integers") +
                          ")");
    K op = kind;
    if (d.dtype.isUnsigned())
      op = kind == K::MIN ? K::UMIN : kind == K::MAX ? K::UMAX : kind;
    auto offs = offsetsOf(em, d, a.get("offsets"), a.loc("offsets"));
    TValue v = blockValue(em, d, a.get("value"), a.loc("value"));
    tile::DescriptorReduceOp::create(em.b, em.loc(c.loc), op, d.v, v.v, offs);
    return TValue::none();
  };
}

static TValue rowOffsets(Emitter &em, const TValue &d, const TValue &x, SourceLoc l) {
  if (d.shape.size() != 2 || d.shape[0] != 1)
    em.error(l, "gather/scatter need a 2-D descriptor whose block is one row "
                "([1, N]), got a block of shape rank " + std::to_string(d.shape.size()));
  TValue t = em.toTensor(x, l);
  if (!t.dtype.isInt() || t.shape.size() != 1 || t.shape[0] < 8)
    em.error(l, "x_offsets must be a 1-D integer block of at least 8 rows, got " +
                    t.typeStr());
  return em.cast(t, DType::I32, l);
}

static TValue descGather(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"desc", "x_offsets", "y_offset"});
  const TValue &d = requireDesc(em, a.get("desc"), a.loc("desc"));
  TValue rows = rowOffsets(em, d, a.get("x_offsets"), a.loc("x_offsets"));
  TValue col = em.cast(em.toTensor(a.get("y_offset"), a.loc("y_offset")), DType::I32,
                       a.loc("y_offset"));
  std::vector<int64_t> shape{rows.shape[0], d.shape[1]};
  Value r = tile::DescriptorGatherOp::create(em.b, em.loc(c.loc), em.irType(d.dtype, shape),
                                             d.v, rows.v, col.v);
  return TValue::tensor(r, d.dtype, shape);
}

static TValue descScatter(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"desc", "value", "x_offsets", "y_offset"});
  const TValue &d = requireDesc(em, a.get("desc"), a.loc("desc"));
  TValue rows = rowOffsets(em, d, a.get("x_offsets"), a.loc("x_offsets"));
  TValue col = em.cast(em.toTensor(a.get("y_offset"), a.loc("y_offset")), DType::I32,
                       a.loc("y_offset"));
  TValue v = em.broadcastTo(em.cast(em.toTensor(a.get("value"), a.loc("value")), d.dtype,
                                    a.loc("value")),
                            {rows.shape[0], d.shape[1]}, a.loc("value"));
  tile::DescriptorScatterOp::create(em.b, em.loc(c.loc), d.v, rows.v, col.v, v.v);
  return TValue::none();
}

static TValue mapElementwise(Emitter &em, CallArgs &c) {
  auto a = em.bind(c, {"scalar_fn", "*args", "pack=1"});
  const TValue &fn = a.get("scalar_fn");
  if (fn.kind != TValue::Function)
    em.error(a.loc("scalar_fn"), "scalar_fn must be a @triton.jit function, got " +
                                     fn.typeStr());
  int64_t pack = em.requireInt(a.get("pack"), a.loc("pack"), "pack");
  if (pack < 1)
    em.error(a.loc("pack"), "pack must be positive");
  std::vector<TValue> args;
  std::vector<int64_t> shape;
  for (auto &v : a.varargs()) {
    args.push_back(em.toTensor(v, c.loc));
    shape = em.broadcastShapes(shape, args.back().shape, c.loc);
  }
  if (args.empty())
    em.error(c.loc, "tl.map_elementwise needs at least one tensor argument");
  if (shape.empty())
    shape = {1};
  SmallVector<Value> srcs;
  for (auto &x : args) {
    x = em.broadcastTo(x, shape, c.loc);
    srcs.push_back(x.v);
  }
  // The body: call the scalar function on block arguments, then find out
  // what it returns to type the op's results.
  auto region = std::make_unique<Region>();
  mlir::Block *body = new mlir::Block();
  region->push_back(body);
  CallArgs call;
  call.loc = c.loc;
  call.name = fn.fn->def->name;
  for (auto &x : args)
    for (int64_t p = 0; p < pack; ++p) {
      Value arg = body->addArgument(x.dtype.toMlir(&em.ctx), em.loc(c.loc));
      call.args.push_back(TValue::tensor(arg, x.dtype, {}));
      call.argLocs.push_back(c.loc);
    }
  std::vector<TValue> outs;
  {
    OpBuilder::InsertionGuard guard(em.b);
    em.b.setInsertionPointToStart(body);
    TValue r = em.callFunction(*fn.fn, call);
    outs = r.kind == TValue::Tuple ? r.elems : std::vector<TValue>{r};
    SmallVector<Value> vals;
    for (auto &o : outs) {
      o = em.toTensor(o, c.loc);
      if (!o.shape.empty())
        em.error(c.loc, "scalar_fn must return scalars, got " + o.typeStr());
      vals.push_back(o.v);
    }
    if (outs.size() % pack)
      em.error(c.loc, "scalar_fn returns " + std::to_string(outs.size()) +
                          " values, not a multiple of pack " + std::to_string(pack));
    tile::MapElementwiseReturnOp::create(em.b, em.loc(c.loc), vals);
  }
  SmallVector<Type> types;
  std::vector<DType> dtypes;
  for (size_t i = 0; i < outs.size(); i += size_t(pack)) {
    types.push_back(em.irType(outs[i].dtype, shape));
    dtypes.push_back(outs[i].dtype);
  }
  auto op = tile::MapElementwiseOp::create(em.b, em.loc(c.loc), types, srcs,
                                           uint32_t(pack));
  op.getScalarOp().takeBody(*region);
  if (dtypes.size() == 1)
    return TValue::tensor(op.getResult()[0], dtypes[0], shape);
  std::vector<TValue> rs;
  for (size_t i = 0; i < dtypes.size(); ++i)
    rs.push_back(TValue::tensor(op.getResult()[i], dtypes[i], shape));
  return TValue::tuple(rs);
}

void tritium::fe::registerDescriptorBuiltins(BuiltinTable &t) {
  t["tl.make_tensor_descriptor"] = makeDescriptor;
  t["tl.load_tensor_descriptor"] = descLoad;
  t["tl.store_tensor_descriptor"] = descStore;
  t["tensordesc.load"] = descLoad;
  t["tensordesc.store"] = descStore;
  t["tensordesc.gather"] = descGather;
  t["tensordesc.scatter"] = descScatter;
  using K = tile::DescriptorReduceKind;
  t["tensordesc.atomic_add"] = descReduce(K::ADD, "add");
  t["tensordesc.atomic_min"] = descReduce(K::MIN, "min");
  t["tensordesc.atomic_max"] = descReduce(K::MAX, "max");
  t["tensordesc.atomic_and"] = descReduce(K::AND, "and");
  t["tensordesc.atomic_or"] = descReduce(K::OR, "or");
  t["tensordesc.atomic_xor"] = descReduce(K::XOR, "xor");
  t["tl.map_elementwise"] = mapElementwise;
}

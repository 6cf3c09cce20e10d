//===- Program.cpp - flattening a kernel into a Program ---------*- C++ -*-===//
//
// The one walk over the MLIR of a kernel: values get slots, constants are
// materialized into slot images, and every op is handed to the build
// function of its family (Elementwise, Cast, Shape, MemoryOps, Atomic, Dot,
// ReduceScan, SortGather, Control, Debug). Nothing here runs per program
// except Frame construction and the slot helpers.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"
#include "interpreter/Memory.h"

#include "ir/Names.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tritium::interp {

std::optional<EK> elementKindOf(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    type = t.getElementType();
  if (isa<tile::PointerType>(type))
    return EK::Ptr;
  if (type.isIndex())
    return EK::I64;
  if (auto it = dyn_cast<IntegerType>(type)) {
    switch (it.getWidth()) {
    case 1: return EK::I1;
    case 8: return EK::I8;
    case 16: return EK::I16;
    case 32: return EK::I32;
    case 64: return EK::I64;
    default: return std::nullopt;
    }
  }
  if (type.isF16()) return EK::F16;
  if (type.isBF16()) return EK::BF16;
  if (type.isF32()) return EK::F32;
  if (type.isF64()) return EK::F64;
  if (isa<Float8E4M3FNType>(type)) return EK::F8E4M3FN;
  if (isa<Float8E5M2Type>(type)) return EK::F8E5M2;
  if (isa<Float8E4M3B11FNUZType>(type)) return EK::F8E4M3B11;
  if (isa<Float8E4M3FNUZType>(type)) return EK::F8E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(type)) return EK::F8E5M2FNUZ;
  return std::nullopt;
}

std::optional<EK> pointeeKindOf(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    type = t.getElementType();
  if (auto p = dyn_cast<tile::PointerType>(type))
    return elementKindOf(p.getPointeeType());
  return std::nullopt;
}

const char *kindName(EK k) {
  static const char *names[] = {"i1",  "i8",   "i16",      "i32",
                                "i64", "f16",  "bf16",     "f32",
                                "f64", "fp8e4nv", "fp8e5", "fp8e4b15",
                                "fp8e4nvfnuz", "fp8e5fnuz", "ptr"};
  return names[static_cast<int>(k)];
}

std::string lineOf(Location loc) {
  if (auto f = tritium::fileLocOf(loc))
    return (f.getFilename().str() + ":" + std::to_string(f.getLine()));
  return "<unknown>";
}

std::string lineColOf(Location loc) {
  if (auto f = tritium::fileLocOf(loc))
    return (f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
            std::to_string(f.getColumn()));
  return "<unknown>";
}

Frame::Frame(const Program &p, Memory *m) : prog(&p), mem(m) {
  arena.reset(new uint64_t[p.arenaBytes / 8 + 1]());
  slot.resize(p.slots.size());
  auto *base = reinterpret_cast<uint8_t *>(arena.get());
  for (size_t i = 0; i < p.slots.size(); ++i) {
    slot[i] = base + p.slotOffsets[i];
    const SlotInfo &s = p.slots[i];
    if (s.constant.empty())
      continue;
    for (int64_t off = 0; off + (int64_t)s.constant.size() <= s.bytes;
         off += s.constant.size())
      std::memcpy(slot[i] + off, s.constant.data(), s.constant.size());
  }
}

std::string Frame::pidText() const {
  return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

void Frame::fail(const Op &op, const std::string &what,
                 const std::string &detail) {
  if (failed)
    return;
  failed = true;
  error = what + " in kernel " + prog->kernelName + ", program " + pidText() +
          ", " + op.loc + ": " + detail;
}

std::string laneText(const Op &op, int64_t lane) {
  if (op.shape.size() < 2)
    return std::to_string(lane);
  auto strides = rowMajorStrides(op.shape);
  std::string s = "(";
  for (size_t d = 0; d < op.shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string((lane / strides[d]) % op.shape[d]);
  return s + ")";
}

void copySlot(Frame &f, int dst, int src) {
  if (dst != src)
    std::memcpy(f.slot[dst], f.slot[src], f.bytes(dst));
}

llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> s(shape.size(), 1);
  for (int i = (int)shape.size() - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

template <class T>
static void stridedCopyT(T *dst, const T *src, llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> st) {
  size_t rank = shape.size();
  if (rank == 0) {
    *dst = *src;
    return;
  }
  int64_t inner = shape[rank - 1], is = st[rank - 1];
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    outer *= shape[d];
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t o = 0; o < outer; ++o) {
    int64_t off = 0;
    for (size_t d = 0; d + 1 < rank; ++d)
      off += idx[d] * st[d];
    const T *s = src + off;
    if (is == 1)
      std::memcpy(dst, s, inner * sizeof(T));
    else if (is == 0)
      std::fill(dst, dst + inner, *s);
    else
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = s[i * is];
    dst += inner;
    for (int d = (int)rank - 2; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

void stridedCopy(uint8_t *dst, const uint8_t *src,
                 llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> srcStrides, unsigned esize) {
  switch (esize) {
  case 1:
    return stridedCopyT(dst, src, shape, srcStrides);
  case 2:
    return stridedCopyT(reinterpret_cast<uint16_t *>(dst),
                        reinterpret_cast<const uint16_t *>(src), shape,
                        srcStrides);
  case 4:
    return stridedCopyT(reinterpret_cast<uint32_t *>(dst),
                        reinterpret_cast<const uint32_t *>(src), shape,
                        srcStrides);
  default:
    return stridedCopyT(reinterpret_cast<uint64_t *>(dst),
                        reinterpret_cast<const uint64_t *>(src), shape,
                        srcStrides);
  }
}

bool fillCommon(Builder &b, Operation *mop, Op &op) {
  for (Value v : mop->getOperands())
    op.in.push_back(b.use(v));
  for (Value v : mop->getResults())
    op.res.push_back(b.define(v));
  if (mop->getNumOperands()) {
    op.srcKind = b.info(op.in[0]).kind;
    op.srcShape.assign(b.info(op.in[0]).shape.begin(),
                       b.info(op.in[0]).shape.end());
  }
  if (mop->getNumResults()) {
    op.kind = b.info(op.res[0]).kind;
    op.shape.assign(b.info(op.res[0]).shape.begin(),
                    b.info(op.res[0]).shape.end());
    op.n = b.inLaneMode() ? -1 : b.info(op.res[0]).elems;
  } else if (mop->getNumOperands()) {
    op.kind = op.srcKind;
    op.n = b.inLaneMode() ? -1 : b.info(op.in[0]).elems;
  }
  return true;
}

namespace {

class Flattener : public Builder {
public:
  Flattener(Program &p) : prog(p) {}

  int use(Value v) override {
    auto it = slots.find(v);
    if (it == slots.end()) {
      // Should not happen in verified IR; give it a zeroed slot.
      return define(v);
    }
    if (lanes > 0 && !prog.slots[it->second].lane)
      if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
        // A constant that CSE or folding placed outside a combine region:
        // the region gets a lane copy of its own.
        auto lc = laneConstants.find(v);
        if (lc != laneConstants.end())
          return lc->second;
        int outer = it->second;
        buildConstant(c); // defines slots[v] as a lane slot
        int copy = slots[v];
        slots[v] = outer;
        laneConstants[v] = copy;
        return copy;
      }
    return it->second;
  }

  int define(Value v) override {
    SlotInfo s;
    Type t = v.getType();
    if (isa<tile::TensorDescType>(t)) {
      // Opaque: a Desc record, copied whole by copySlot.
      s.kind = EK::I64;
      s.elems = kDescBytes / 8;
      s.bytes = kDescBytes;
      int id = prog.slots.size();
      prog.slots.push_back(std::move(s));
      slots[v] = id;
      return id;
    }
    auto k = elementKindOf(t);
    s.kind = k.value_or(EK::I64);
    if (!k)
      badType = t;
    if (auto rt = dyn_cast<RankedTensorType>(t))
      s.shape.assign(rt.getShape().begin(), rt.getShape().end());
    s.elems = 1;
    for (int64_t d : s.shape)
      s.elems *= d;
    s.lane = lanes > 0;
    s.bytes = (lanes > 0 ? lanes : s.elems) * elemBytes(s.kind);
    s.names = tritium::valueNames(v);
    if (!s.names.empty()) {
      Location l = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getLoc()
                                         : v.getDefiningOp()->getLoc();
      s.loc = lineOf(l);
      if (auto fl = tritium::fileLocOf(l))
        s.line = int(fl.getLine());
    }
    int id = prog.slots.size();
    prog.slots.push_back(std::move(s));
    slots[v] = id;
    return id;
  }

  SlotInfo &info(int slot) override { return prog.slots[slot]; }
  bool inLaneMode() const override { return lanes > 0; }

  bool error(Operation *op, const std::string &msg) override {
    if (!err)
      err = lineColOf(op->getLoc()) + ": " + msg;
    return false;
  }

  std::unique_ptr<Block> buildRegion(Region &r, int64_t regionLanes) override {
    auto out = std::make_unique<Block>();
    if (r.empty())
      return out;
    int64_t saved = lanes;
    llvm::DenseMap<Value, int> savedConstants;
    savedConstants.swap(laneConstants);
    if (regionLanes > 0)
      lanes = regionLanes;
    buildBlock(r.front(), *out);
    lanes = saved;
    laneConstants.swap(savedConstants);
    return out;
  }

  void buildBlock(mlir::Block &blk, Block &out) {
    for (BlockArgument a : blk.getArguments())
      out.args.push_back(define(a));
    for (Operation &o : blk) {
      if (err)
        return;
      if (o.hasTrait<OpTrait::IsTerminator>()) {
        for (Value v : o.getOperands())
          out.results.push_back(use(v));
        continue;
      }
      buildOp(&o, out);
    }
    if (lanes <= 0 && !out.args.empty() && !out.ops.empty())
      out.ops.front().entersArgs = out.args;
  }

  void buildConstant(arith::ConstantOp c) {
    int s = define(c.getResult());
    SlotInfo &si = info(s);
    unsigned es = elemBytes(si.kind);
    auto writeBits = [&](const APInt &bits, int64_t i) {
      uint64_t v = bits.getZExtValue();
      std::memcpy(si.constant.data() + i * es, &v, es); // little endian
    };
    Attribute attr = c.getValue();
    auto one = [&](Attribute a, int64_t i) {
      if (auto ia = dyn_cast<IntegerAttr>(a))
        writeBits(ia.getValue(), i);
      else if (auto fa = dyn_cast<FloatAttr>(a))
        writeBits(fa.getValue().bitcastToAPInt(), i);
    };
    if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
      if (dense.isSplat()) {
        si.constant.assign(es, 0);
        if (isa<FloatType>(dense.getElementType()))
          writeBits(dense.getSplatValue<APFloat>().bitcastToAPInt(), 0);
        else
          writeBits(dense.getSplatValue<APInt>(), 0);
      } else {
        si.constant.assign(es * si.elems, 0);
        int64_t i = 0;
        if (isa<FloatType>(dense.getElementType()))
          for (APFloat v : dense.getValues<APFloat>())
            writeBits(v.bitcastToAPInt(), i++);
        else
          for (APInt v : dense.getValues<APInt>())
            writeBits(v, i++);
        if (lanes > 0)
          error(c, "non-splat constant in a combine region");
      }
    } else if (isa<IntegerAttr, FloatAttr>(attr)) {
      si.constant.assign(es, 0);
      one(attr, 0);
    } else {
      error(c, "cannot interpret constant of this kind");
    }
  }

  void buildOp(Operation *o, Block &out) {
    if (auto c = dyn_cast<arith::ConstantOp>(o))
      return buildConstant(c);
    Op op;
    op.loc = lineOf(o->getLoc());
    op.name = o->getName().getStringRef().data();
    if (auto fl = tritium::fileLocOf(o->getLoc())) {
      op.line = int(fl.getLine());
      op.locCol = lineColOf(o->getLoc());
      for (Value r : o->getResults()) {
        if (r.use_empty())
          op.lineOutput = true;
        for (Operation *user : r.getUsers()) {
          auto ul = tritium::fileLocOf(user->getLoc());
          if (user->hasTrait<OpTrait::IsTerminator>() || !ul ||
              ul.getLine() != fl.getLine() || ul.getFilename() != fl.getFilename())
            op.lineOutput = true;
        }
      }
    }
    using BuildFn = Built (*)(Builder &, Operation *, Op &);
    static const BuildFn laneFamilies[] = {buildElementwise, buildCast};
    static const BuildFn allFamilies[] = {
        buildElementwise, buildCast,       buildShape,
        buildMemoryOp,    buildAtomic,     buildDot,
        buildReduceScan,  buildSortGather, buildControl,
        buildDebug,       buildDescriptor, buildDotScaled};
    llvm::ArrayRef<BuildFn> fams = lanes > 0 ? llvm::ArrayRef<BuildFn>(laneFamilies)
                                             : llvm::ArrayRef<BuildFn>(allFamilies);
    for (BuildFn fn : fams) {
      Built r = fn(*this, o, op);
      if (r == Built::Error) {
        if (!err)
          error(o, "cannot interpret '" + o->getName().getStringRef().str() +
                       "'");
        return;
      }
      if (r == Built::Ok) {
        if (badType) {
          std::string ts;
          llvm::raw_string_ostream os(ts);
          os << *badType;
          error(o, "cannot interpret values of type " + ts);
          return;
        }
        if (lanes > 0)
          for (int s : op.in)
            if (!info(s).lane) {
              error(o, "combine region uses a value defined outside it");
              return;
            }
        if (!op.fn) {
          error(o, "internal: no handler");
          return;
        }
        op.id = int32_t(prog.numOps++);
        if (o->hasAttr("tile.signed") && op.n >= 0 && op.in.size() == 2)
          op.signedArith = isa<arith::AddIOp>(o)   ? '+'
                           : isa<arith::SubIOp>(o) ? '-'
                           : isa<arith::MulIOp>(o) ? '*'
                                                   : 0;
        op.nanCheck = nanCheckable(op, prog.slots);
        for (int s : op.res)
          op.named = op.named || (op.n >= 0 && !prog.slots[s].names.empty());
        op.maskedAccess = op.a >= 0 && op.n > 0 &&
                          isa<tile::LoadOp, tile::StoreOp, tile::AtomicRMWOp>(o);
        out.ops.push_back(std::move(op));
        return;
      }
    }
    std::string why = lanes > 0 ? " inside a reduce/scan combine region"
                                : " (unsupported operation)";
    if (isa<tile::ElementwiseInlineAsmOp>(o))
      why = ": inline assembly runs only on a GPU";
    else if (isa<func::CallOp>(o))
      why = ": calls must be inlined by the tile pipeline first";
    error(o, "cannot interpret '" + o->getName().getStringRef().str() + "'" +
                 why);
  }

  Program &prog;
  llvm::DenseMap<Value, int> slots;
  int64_t lanes = 0;
  /// Lane copies of constants defined outside the combine region being
  /// built.
  llvm::DenseMap<Value, int> laneConstants;
  std::optional<std::string> err;
  std::optional<Type> badType;
};

} // namespace

std::optional<std::string> flattenKernel(Operation *funcOp, Program &prog) {
  auto func = cast<func::FuncOp>(funcOp);
  Flattener fl(prog);
  if (func.getBody().empty())
    return lineColOf(func.getLoc()) + ": kernel has no body";
  mlir::Block &entry = func.getBody().front();
  if (func.getBody().getBlocks().size() != 1)
    return lineColOf(func.getLoc()) +
           ": cannot interpret a kernel with unstructured control flow";
  for (BlockArgument a : entry.getArguments()) {
    int s = fl.define(a);
    prog.argSlots.push_back(s);
    prog.argKinds.push_back(prog.slots[s].kind);
    prog.argIsPtr.push_back(prog.slots[s].kind == EK::Ptr);
    if (!prog.slots[s].shape.empty())
      return lineColOf(func.getLoc()) + ": tensor kernel arguments are not supported";
  }
  if (fl.badType)
    return lineColOf(func.getLoc()) + ": kernel argument of unsupported type";
  // Arguments were defined already; build the body ops only.
  for (Operation &o : entry) {
    if (fl.err)
      break;
    if (o.hasTrait<OpTrait::IsTerminator>())
      continue;
    fl.buildOp(&o, prog.body);
  }
  if (fl.err)
    return fl.err;
  if (!prog.body.ops.empty())
    prog.body.ops.front().entersArgs = prog.argSlots;
  int64_t off = 0;
  for (SlotInfo &s : prog.slots) {
    prog.slotOffsets.push_back(off);
    off += (std::max<int64_t>(s.bytes, 8) + 63) & ~int64_t(63);
  }
  prog.arenaBytes = off;
  return std::nullopt;
}

} // namespace tritium::interp

//===- GpuDialect.cpp - the tgpu dialect: registration and layouts --------===//
//
// Registers the encodings and ops, names encodings in printed IR
// (#blocked, #mma, ...), and turns encodings into the linear maps of
// codegen/layouts for the passes and the lowering.
//
//===----------------------------------------------------------------------===//
#include "codegen/dialect/GpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tgpu;
using tritium::codegen::Coord;
using tritium::codegen::LinearLayout;
using tritium::codegen::SharedLayout;

#include "codegen/dialect/GpuDialect.cpp.inc"

#define GET_OP_CLASSES
#include "codegen/dialect/GpuOps.cpp.inc"

namespace {
/// Printed IR names encodings by kind: #blocked, #blocked1, #mma, ...
struct GpuAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<SliceEncodingAttr>(attr))
      os << "slice";
    else if (isa<MmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<DotOperandEncodingAttr>(attr))
      os << "dot_op";
    else if (isa<LinearEncodingAttr>(attr))
      os << "linear";
    else if (isa<SharedEncodingAttr>(attr))
      os << "shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TGpuDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "codegen/dialect/GpuOps.cpp.inc"
      >();
  addInterfaces<GpuAsmInterface>();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  // convert(x : T -> T) = x
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult WgmmaOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("takes 2-D operands");
  if (a.getShape()[1] != b.getShape()[0] || a.getShape()[0] != c.getShape()[0] ||
      b.getShape()[1] != c.getShape()[1])
    return emitOpError("operand shapes do not make a product: ")
           << a << " * " << b << " -> " << c;
  return success();
}

LogicalResult LocalAllocOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getResult().getType());
  if (src.getShape() != res.getShape() || src.getElementType() != res.getElementType())
    return emitOpError("result must be the source's tile: ") << src << " -> " << res;
  auto enc = dyn_cast_or_null<SharedEncodingAttr>(res.getEncoding());
  if (res.getRank() < 2 || res.getRank() > 3 || !enc ||
      (enc.getSwizzle() == 0) == (enc.getPad() == 0) ||
      (res.getRank() == 3 && enc.getTransposed()))
    return emitOpError("result must be a 2-D (or, not transposed, 3-D) tile with a "
                       "#tgpu.shared encoding that swizzles or pads its rows, not ")
           << res;
  if (getOffset() % 1024)
    return emitOpError("offset must be a multiple of 1024 bytes, not ")
           << getOffset();
  return success();
}

LogicalResult WgmmaWaitOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                            ValueRange operands, DictionaryAttr,
                                            OpaqueProperties, RegionRange,
                                            SmallVectorImpl<Type> &types) {
  for (Value v : operands)
    types.push_back(v.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Encodings as linear maps
//===----------------------------------------------------------------------===//

namespace {
std::vector<unsigned> vec(ArrayRef<unsigned> a) { return std::vector<unsigned>(a.begin(), a.end()); }

std::optional<std::vector<Coord>> basesOf(ArrayAttr a, size_t rank,
                                          ArrayRef<int64_t> shape, std::string *why) {
  std::vector<Coord> out;
  for (Attribute v : a) {
    Coord c;
    for (Attribute e : cast<ArrayAttr>(v))
      c.push_back(cast<IntegerAttr>(e).getInt());
    if (c.size() != rank) {
      if (why)
        *why = "a basis vector has " + std::to_string(c.size()) + " entries for a rank-" +
               std::to_string(rank) + " tensor";
      return std::nullopt;
    }
    for (size_t d = 0; d < rank; ++d)
      if (c[d] < 0 || c[d] >= shape[d] || (c[d] && !llvm::isPowerOf2_64(uint64_t(c[d])))) {
        if (why)
          *why = "basis entry " + std::to_string(c[d]) + " is not a power of two below " +
                 std::to_string(shape[d]);
        return std::nullopt;
      }
    out.push_back(c);
  }
  return out;
}
/// Elements along `dim` that one tile of `enc`'s threads covers.
int64_t tileExtent(Attribute enc, unsigned dim) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(enc))
    if (dim < b.getOrder().size())
      return int64_t(b.getSizePerThread()[dim]) * b.getThreadsPerWarp()[dim] *
             b.getWarpsPerCTA()[dim];
  if (auto m = dyn_cast<MmaEncodingAttr>(enc)) {
    auto w = m.getWarpsPerCTA();
    if (w.size() == 3) { // [batch, M, N]
      if (dim == 0)
        return w[0];
      w = w.drop_front();
      --dim;
    }
    if (dim == 0)
      return m.getVersion() == 3 ? 64 * int64_t(w[0] / 4) : 16 * int64_t(w[0]);
    return 8 * int64_t(w[1]);
  }
  if (auto s = dyn_cast<SliceEncodingAttr>(enc))
    return tileExtent(s.getParent(), dim < s.getDim() ? dim : dim + 1);
  return 1;
}
} // namespace

std::optional<LinearLayout> mlir::tgpu::toLinearLayout(Attribute enc, ArrayRef<int64_t> shape,
                                                       unsigned lanes, std::string *why) {
  auto fail = [&](const std::string &msg) -> std::optional<LinearLayout> {
    if (why)
      *why = msg;
    return std::nullopt;
  };
  std::vector<int64_t> s(shape.begin(), shape.end());
  for (int64_t d : s)
    if (d <= 0 || !llvm::isPowerOf2_64(uint64_t(d)))
      return fail("the shape is not made of powers of two");
  size_t rank = s.size();
  if (!enc)
    return fail("the tensor has no layout");
  if (auto b = dyn_cast<BlockedEncodingAttr>(enc)) {
    if (b.getOrder().size() != rank)
      return fail("a rank-" + std::to_string(b.getOrder().size()) +
                  " blocked layout on a rank-" + std::to_string(rank) + " tensor");
    unsigned threads = 1;
    for (unsigned t : b.getThreadsPerWarp())
      threads *= t;
    if (threads != lanes)
      return fail("threadsPerWarp covers " + std::to_string(threads) + " lanes, a warp has " +
                  std::to_string(lanes));
    return LinearLayout::blocked(s, vec(b.getSizePerThread()), vec(b.getThreadsPerWarp()),
                                 vec(b.getWarpsPerCTA()), vec(b.getOrder()), lanes);
  }
  if (auto sl = dyn_cast<SliceEncodingAttr>(enc)) {
    if (sl.getDim() > rank)
      return fail("slice dimension " + std::to_string(sl.getDim()) + " past rank " +
                  std::to_string(rank + 1));
    // The parent spans one tile of its threads along the removed
    // dimension, so every register bit along it moves and is dropped.
    std::vector<int64_t> parentShape = s;
    parentShape.insert(parentShape.begin() + sl.getDim(), tileExtent(sl.getParent(), sl.getDim()));
    auto parent = toLinearLayout(sl.getParent(), parentShape, lanes, why);
    if (!parent)
      return std::nullopt;
    return parent->sliceDim(sl.getDim());
  }
  if (auto m = dyn_cast<MmaEncodingAttr>(enc)) {
    auto w = m.getWarpsPerCTA();
    if (rank != w.size())
      return fail("a rank-" + std::to_string(w.size()) + " mma layout on a rank-" +
                  std::to_string(rank) + " tensor");
    if (rank == 3) { // mma.sync, batched
      if (s[1] % 16 || s[2] % 8)
        return fail("mma.sync needs tiles of 16 rows and 8 columns");
      return LinearLayout::batched(LinearLayout::mmaAccumulator(s[1], s[2], w[1], w[2]), s[0],
                                   w[0]);
    }
    if (m.getVersion() == 3) {
      if (s[0] < 64 * int64_t(w[0] / 4))
        return fail("wgmma needs 64 rows per warpgroup along M");
      return LinearLayout::wgmmaAccumulator(s[0], s[1], w[0] / 4, w[1]);
    }
    // Warps past the tile's m16n8 instructions hold replicas.
    if (s[0] % 16 || s[1] % 8)
      return fail("mma.sync needs tiles of 16 rows and 8 columns");
    return LinearLayout::mmaAccumulator(s[0], s[1], w[0], w[1]);
  }
  if (auto d = dyn_cast<DotOperandEncodingAttr>(enc)) {
    auto m = cast<MmaEncodingAttr>(d.getParent());
    if (rank != 2)
      return fail("a dot operand layout is for 2-D tiles");
    auto w = m.getWarpsPerCTA();
    if (s[0] % 16 || s[1] % 16)
      return fail("operand A needs tiles of 16 rows and 16 columns");
    return LinearLayout::mmaOperandA(s[0], s[1], w[0], w[1]);
  }
  if (auto l = dyn_cast<LinearEncodingAttr>(enc)) {
    auto reg = basesOf(l.getRegisterBases(), rank, s, why);
    auto lane = basesOf(l.getLaneBases(), rank, s, why);
    auto warp = basesOf(l.getWarpBases(), rank, s, why);
    if (!reg || !lane || !warp)
      return std::nullopt;
    if ((1u << lane->size()) != lanes)
      return fail(std::to_string(lane->size()) + " lane bases, a warp has " +
                  std::to_string(lanes) + " lanes");
    LinearLayout out(s, *reg, *lane, *warp);
    // Every element must be held by some thread.
    int64_t numel = 1;
    for (int64_t d : s)
      numel *= d;
    unsigned rankBits = 0;
    {
      // The span of the bases must be the whole coordinate space: count the
      // independent vectors by elimination over GF(2) on the linearized
      // coordinates.
      std::vector<uint64_t> rows;
      for (const auto *bs : {&*reg, &*lane, &*warp})
        for (const Coord &c : *bs)
          rows.push_back(uint64_t(tritium::codegen::linearIndex(c, s)));
      for (unsigned bit = 64; bit-- > 0;) {
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&](uint64_t r) { return (r >> bit) & 1; });
        if (it == rows.end())
          continue;
        uint64_t pivot = *it;
        rows.erase(it);
        for (uint64_t &r : rows)
          if ((r >> bit) & 1)
            r ^= pivot;
        ++rankBits;
      }
    }
    if ((int64_t(1) << rankBits) != numel)
      return fail("the bases do not reach every element of the tile");
    return out;
  }
  if (isa<SharedEncodingAttr>(enc))
    return fail("the tile is in shared memory, not in registers");
  return fail("not a tgpu layout");
}

std::optional<SharedLayout> mlir::tgpu::toSharedLayout(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  auto enc = t ? dyn_cast_or_null<SharedEncodingAttr>(t.getEncoding()) : nullptr;
  if (!enc || t.getRank() < 2)
    return std::nullopt;
  Type et = t.getElementType();
  unsigned bytes = isa<tile::PointerType>(et) ? 8 : std::max(1u, et.getIntOrFloatBitWidth() / 8);
  int64_t rows = 1;
  for (int64_t d : t.getShape().drop_back())
    rows *= d;
  int64_t cols = t.getShape().back();
  if (enc.getTransposed())
    std::swap(rows, cols);
  if (enc.getSwizzle())
    return SharedLayout::swizzled(rows, cols, bytes, enc.getSwizzle());
  return SharedLayout::padded(rows, cols, bytes, enc.getPad());
}

LinearEncodingAttr mlir::tgpu::linearEncoding(MLIRContext *ctx, const LinearLayout &l) {
  Builder b(ctx);
  auto bases = [&](LinearLayout::InDim d) {
    SmallVector<Attribute> vs;
    for (const Coord &c : l.bases(d)) {
      SmallVector<Attribute> es;
      for (int64_t e : c)
        es.push_back(b.getI64IntegerAttr(e));
      vs.push_back(b.getArrayAttr(es));
    }
    return b.getArrayAttr(vs);
  };
  return LinearEncodingAttr::get(ctx, bases(LinearLayout::Reg), bases(LinearLayout::Lane),
                                 bases(LinearLayout::Warp));
}

BlockedEncodingAttr mlir::tgpu::blockedEncoding(MLIRContext *ctx,
                                                const tritium::codegen::BlockedParams &p) {
  return BlockedEncodingAttr::get(ctx, p.sizePerThread, p.threadsPerWarp, p.warpsPerCTA,
                                  p.order);
}

RankedTensorType mlir::tgpu::withEncoding(Type type, Attribute encoding) {
  auto t = cast<RankedTensorType>(type);
  return RankedTensorType::get(t.getShape(), t.getElementType(), encoding);
}

void mlir::tgpu::registerGpuDialect(DialectRegistry &registry) {
  tile::registerTileDialects(registry);
  registry.insert<TGpuDialect>();
}

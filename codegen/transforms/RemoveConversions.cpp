//===- RemoveConversions.cpp - Conversions removed by rematerialization ---===//
//
// After layout assignment, a tgpu.convert_layout whose source is cheap to
// compute anywhere (a range, a splat, a splat constant, and expand_dims,
// reshape, broadcast and elementwise ops over such values) is replaced by
// the same computation made in the target layout:
//
//   %s = tile.splat %p : #blocked3          %s' = tile.splat %p : #blocked2
//   %c = tgpu.convert_layout %s             ... uses of %c use %s'
//          : #blocked3 -> #blocked2    =>
//
// Leaves that sit in the target layout within each thread stay (with an
// in-thread conversion, a register pick); a broadcast's source that cannot
// be recomputed is converted itself (a row or column moves, not the tile).
// Loaded and computed data are never recomputed, except that a load read
// only by the converted value is issued in the target layout instead (a
// vector broadcast along a tile, as a bias row is), and so is a read of a
// pipelined slot into registers. Values carried through
// scf.if and scf.for (a flattened loop's per-tile offsets) take the layout
// every reader converts them to, where their sources can be had in it for
// free (recomputed, or made before the loops): the conversion then runs
// where the value is made, not in every iteration that reads it.
// Producers left without users are erased. The lowering emits the same code either way; the IR
// then says where each value is computed.
//
//===----------------------------------------------------------------------===//
#include "codegen/transforms/Passes.h"

#include "codegen/dialect/GpuDialect.h"
#include "ir/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace tritium::codegen;

namespace {

std::vector<int64_t> shapeOf(Value v) {
  auto s = cast<RankedTensorType>(v.getType()).getShape();
  return std::vector<int64_t>(s.begin(), s.end());
}

class Remover {
public:
  explicit Remover(const LayoutOptions &o) : o(o) {}
  void run(Operation *func);

private:
  const LayoutOptions &o;

  std::optional<LinearLayout> layoutOf(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.getEncoding() || isa<tgpu::SharedEncodingAttr>(t.getEncoding()))
      return std::nullopt;
    return tgpu::toLinearLayout(t.getEncoding(), t.getShape(), o.warpSize);
  }
  /// The encodings the kernel already names its layouts with (a slice, a
  /// product's accumulator), by map and shape: values made here name their
  /// layouts alike, so ops whose operands must agree still verify.
  std::map<std::string, Attribute> inUse_;
  static std::string key(const LinearLayout &l) { return l.str(); }
  RankedTensorType typeIn(Type t, const LinearLayout &l) {
    auto plain = tgpu::withEncoding(t, Attribute());
    Attribute &enc = inUse_[key(l)];
    if (!enc)
      enc = layoutEncoding(l, plain, o);
    return tgpu::withEncoding(plain, enc);
  }
  /// Recomputed op by op: elementwise ops and hints (which make no code).
  static bool isElementwise(Operation *d) {
    return isRecomputableElementwise(d) || isa<tile::HintOp>(d);
  }
  /// The conversion being removed, while its source is examined: a load
  /// issued again runs there (none: loads are not issued again).
  Operation *point_ = nullptr;
  /// Whether nothing can write memory between `ld` and `at` (in `ld`'s
  /// block, or nested in an op of it that comes later): a load issued at
  /// `at` then reads what `ld` read.
  static bool unwrittenUntil(Operation *ld, Operation *at) {
    if (!at)
      return false;
    Operation *end = ld->getBlock()->findAncestorOpInBlock(*at);
    if (!end || end->isBeforeInBlock(ld))
      return false;
    for (Operation *op = ld->getNextNode(); op && op != end; op = op->getNextNode()) {
      if (op->getNumRegions() || isa<tile::BarrierOp>(op))
        return false;
      if (!isMemoryEffectFree(op) && !hasSingleEffect<MemoryEffects::Read>(op))
        return false;
    }
    return end == at || !end->getNumRegions();
  }
  /// Each load's vector width hint per dimension, taken before any
  /// pointer is recomputed (recomputed values have no axis information).
  llvm::DenseMap<Operation *, std::vector<unsigned>> loadHints_;
  /// While set, values carried through control flow count as leaves
  /// that rematerialization converts (pushing conversions up to them).
  bool carriedLeaves_ = false;
  /// Whether `v` can be had in `to` without moving data between threads.
  bool canRemat(Value v, const LinearLayout &to, int depth);
  /// `v` in `to` (canRemat holds), built before the builder's point.
  Value remat(Value v, const LinearLayout &to, OpBuilder &b);
  /// Moves conversions of values carried through scf.if and scf.for to
  /// where those values are made (see hoistWeb); true when one moved.
  bool hoistThroughControlFlow(Operation *func);
  struct Web {
    llvm::SetVector<Value> values;
    std::vector<OpOperand *> sources;
    std::vector<tgpu::ConvertLayoutOp> readers;
    bool otherUses = false;
  };
  bool collectWeb(Value seed, Web &w);
  bool sourcesCanTake(const Web &w, const LinearLayout &to);
  bool hoistWeb(Value seed);
  void eraseDead(Operation *func);
  /// `v` in `to`: recomputed where it can be, else converted; a value made
  /// outside the loops around the builder's point is converted once,
  /// before them, not in every iteration.
  Value rematOrConvert(Value v, const LinearLayout &to, OpBuilder &b) {
    if (canRemat(v, to, 0))
      return remat(v, to, b);
    OpBuilder::InsertionGuard guard(b);
    Operation *at = b.getInsertionBlock()->getParentOp();
    Operation *outside = nullptr;
    Operation *home = v.getParentRegion()->getParentOp();
    for (; at && isa<scf::ForOp, scf::WhileOp>(at) && !at->isAncestor(home);
         at = at->getParentOp())
      outside = at;
    if (outside)
      b.setInsertionPoint(outside);
    return tgpu::ConvertLayoutOp::create(b, v.getLoc(), typeIn(v.getType(), to), v);
  }
};

/// A value carried through control flow: an scf.for's iteration argument
/// or result, an scf.if's result.
bool isCarried(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa<scf::ForOp>(arg.getOwner()->getParentOp()) && arg.getArgNumber() > 0;
  return v.getDefiningOp<scf::IfOp>() || v.getDefiningOp<scf::ForOp>();
}

/// Ops that cost many instructions per element.
bool isCostly(Operation *op) {
  return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp, arith::DivFOp,
             arith::RemFOp>(op) ||
         (op->getDialect() && op->getDialect()->getNamespace() == "math");
}

/// The elements each thread holds, replicas not counted.
unsigned distinctRegs(const LinearLayout &l) {
  return l.numRegs() >> llvm::popcount(l.replicatedMask(LinearLayout::Reg));
}

bool Remover::canRemat(Value v, const LinearLayout &to, int depth) {
  auto have = layoutOf(v);
  if (!have)
    return false;
  if (*have == to || LinearLayout::threadLocalMap(*have, to))
    return true;
  if (carriedLeaves_ && isCarried(v)) { // a leaf when its web can take `to`
    Web w;
    return collectWeb(v, w) && sourcesCanTake(w, to);
  }
  Operation *d = v.getDefiningOp();
  if (!d || depth > 16 || d->getNumResults() != 1)
    return false;
  if (auto c = dyn_cast<tgpu::ConvertLayoutOp>(d))
    return canRemat(c.getSrc(), to, depth + 1);
  if (isCheapTile(v) || isa<tile::BroadcastOp>(d))
    return true;
  if (auto e = dyn_cast<tile::ExpandDimsOp>(d))
    return canRemat(e.getSrc(), to.sliceDim(e.getAxis()), depth + 1);
  if (auto r = dyn_cast<tile::ReshapeOp>(d))
    return canRemat(r.getSrc(), to.reshape(shapeOf(r.getSrc())), depth + 1);
  if (auto ld = dyn_cast<tile::LoadOp>(d)) {
    // A load read once, by what is converted, is issued in `to` instead
    // (its pointers, mask and other value recomputed there): each thread
    // loads the elements it needs, a broadcast vector included, with no
    // round trip through shared memory and no barrier (the conversion
    // would read as many elements per thread from shared memory). Not
    // when the accesses would be narrower: the widest run of consecutive
    // elements a thread holds where memory is contiguous.
    auto hints = loadHints_.find(d);
    auto width = [&](const LinearLayout &l) {
      unsigned w = 1;
      for (unsigned dim = 0; dim < l.rank(); ++dim)
        w = std::max(w, std::min(l.contiguousRegs(dim),
                                 hints == loadHints_.end() ? 1u : hints->second[dim]));
      return w;
    };
    if (!v.hasOneUse() || ld.getIsVolatile() || width(to) < width(*have) ||
        !unwrittenUntil(ld, point_))
      return false;
    for (Value x : d->getOperands())
      if (isa<RankedTensorType>(x.getType()) && !canRemat(x, to, depth + 1))
        return false;
    return true;
  }
  if (isa<tgpu::SharedLoadOp>(d)) {
    // A slot read into registers (one the pipeliner filled for a loop's
    // iteration) is read in `to` instead, in the same iteration: each
    // thread reads the elements it needs from shared memory once.
    Operation *at = point_ ? d->getBlock()->findAncestorOpInBlock(*point_) : nullptr;
    return v.hasOneUse() && at && !at->isBeforeInBlock(d);
  }
  if (!isElementwise(d))
    return false;
  // A costly op (a division, a remainder, a math function) is not made
  // again in a layout that gives each thread more elements than it has:
  // moving the values costs less than repeating it per register (03's
  // `% N` on the columns, recomputed for a bias row broadcast to a
  // 64-register accumulator slice, was 32 remainders a thread).
  if (isCostly(d) && distinctRegs(to) > distinctRegs(*have))
    return false;
  for (Value x : d->getOperands())
    if (isa<RankedTensorType>(x.getType()) && !canRemat(x, to, depth + 1))
      return false;
  return true;
}

Value Remover::remat(Value v, const LinearLayout &to, OpBuilder &b) {
  auto have = layoutOf(v);
  if (*have == to)
    return v;
  RankedTensorType type = typeIn(v.getType(), to);
  Operation *d = v.getDefiningOp();
  bool inThread = bool(LinearLayout::threadLocalMap(*have, to));
  if (!d || (inThread && !isCheapTile(v)) || (carriedLeaves_ && isCarried(v)))
    return tgpu::ConvertLayoutOp::create(b, v.getLoc(), type, v);
  if (auto c = dyn_cast<tgpu::ConvertLayoutOp>(d))
    return remat(c.getSrc(), to, b);
  // A load issued in `to` stays where it was (with what computes its
  // pointers, mask and other value): loads keep their program order, so a
  // later load's latency is not waited for before an earlier one's.
  OpBuilder::InsertionGuard keep(b);
  if (isa<tile::LoadOp>(d))
    b.setInsertionPoint(d);
  std::vector<Value> operands;
  if (auto e = dyn_cast<tile::ExpandDimsOp>(d)) {
    operands.push_back(remat(e.getSrc(), to.sliceDim(e.getAxis()), b));
  } else if (auto r = dyn_cast<tile::ReshapeOp>(d)) {
    operands.push_back(remat(r.getSrc(), to.reshape(shapeOf(r.getSrc())), b));
  } else if (auto bc = dyn_cast<tile::BroadcastOp>(d)) {
    operands.push_back(
        rematOrConvert(bc.getSrc(), to.projectTo(shapeOf(bc.getSrc())), b));
  } else {
    for (Value x : d->getOperands())
      operands.push_back(isa<RankedTensorType>(x.getType()) ? remat(x, to, b) : x);
  }
  Operation *n = b.clone(*d);
  for (auto [k, x] : llvm::enumerate(operands))
    n->setOperand(k, x);
  n->getResult(0).setType(type);
  if (auto c = dyn_cast<arith::ConstantOp>(n))
    c.setValueAttr(cast<DenseElementsAttr>(c.getValue()).reshape(type));
  return n->getResult(0);
}

/// A web: values one tile flows through across control flow (an scf.for's
/// initial value, iteration argument, yielded value and result; an
/// scf.if's result and what its branches yield), connected through the
/// yields. Its sources are the operands that feed it from outside; its
/// readers the conversions of its values; `otherUses` whether anything
/// else reads it.
bool Remover::collectWeb(Value seed, Web &w) {
  w.values.insert(seed);
  for (size_t k = 0; k < w.values.size(); ++k) {
    Value x = w.values[k];
    if (!isa<RankedTensorType>(x.getType()) || w.values.size() > 64)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0 || arg.getOwner() != loop.getBody())
        return false;
      unsigned i = arg.getArgNumber() - 1;
      w.values.insert(loop.getResult(i));
      w.sources.push_back(&loop.getInitArgsMutable()[i]);
      w.sources.push_back(&loop.getBody()->getTerminator()->getOpOperand(i));
    } else if (auto loop = x.getDefiningOp<scf::ForOp>()) {
      w.values.insert(loop.getRegionIterArgs()[cast<OpResult>(x).getResultNumber()]);
    } else if (auto ifOp = x.getDefiningOp<scf::IfOp>()) {
      unsigned i = cast<OpResult>(x).getResultNumber();
      if (ifOp.getElseRegion().empty())
        return false;
      w.sources.push_back(&ifOp.thenYield()->getOpOperand(i));
      w.sources.push_back(&ifOp.elseYield()->getOpOperand(i));
    } else {
      return false;
    }
    for (OpOperand &use : x.getUses()) {
      Operation *u = use.getOwner();
      if (auto y = dyn_cast<scf::YieldOp>(u)) {
        Operation *parent = y->getParentOp();
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          w.values.insert(loop.getRegionIterArgs()[use.getOperandNumber()]);
        else if (isa<scf::IfOp>(parent))
          w.values.insert(parent->getResult(use.getOperandNumber()));
        else
          return false;
      } else if (auto c = dyn_cast<tgpu::ConvertLayoutOp>(u)) {
        w.readers.push_back(c);
      } else if (auto loop = dyn_cast<scf::ForOp>(u);
                 loop && use.getOperandNumber() >= loop.getNumControlOperands()) {
        w.values.insert(loop.getRegionIterArgs()[use.getOperandNumber() -
                                                 loop.getNumControlOperands()]);
      } else {
        w.otherUses = true;
      }
    }
  }
  auto have = layoutOf(seed);
  return have && llvm::all_of(w.values, [&](Value x) { return layoutOf(x) == have; });
}

/// Whether every source of `w` can be had in `to` at no cost where it
/// feeds the web: recomputed there, or made before the web's loops (so no
/// conversion would run more often than one of the web's readers).
bool Remover::sourcesCanTake(const Web &w, const LinearLayout &to) {
  Operation *outermost = nullptr;
  for (Value x : w.values)
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      Operation *l = arg.getOwner()->getParentOp();
      if (!outermost || l->isAncestor(outermost))
        outermost = l;
    }
  for (OpOperand *o : w.sources) {
    Value v = o->get();
    if (w.values.contains(v))
      continue;
    bool before = outermost && !outermost->isAncestor(v.getParentBlock()->getParentOp()) &&
                  !(v.getDefiningOp() && outermost->isAncestor(v.getDefiningOp()));
    bool saved = carriedLeaves_;
    carriedLeaves_ = false;
    bool cheap = before || canRemat(v, to, 0);
    carriedLeaves_ = saved;
    if (!cheap)
      return false;
  }
  return true;
}

/// When every reader of a web converts it to one layout, the whole web
/// takes that layout: its sources are converted instead (recomputed there
/// when cheap) and the readers' conversions go. A flattened loop's
/// per-tile offsets, carried from an scf.if, then stop being converted in
/// every iteration.
bool Remover::hoistWeb(Value seed) {
  Web w;
  if (!collectWeb(seed, w) || w.otherUses || w.readers.empty())
    return false;
  auto to = layoutOf(w.readers.front().getResult());
  auto have = layoutOf(seed);
  if (!to || *have == *to)
    return false;
  for (tgpu::ConvertLayoutOp c : w.readers)
    if (layoutOf(c.getResult()) != to)
      return false;
  if (!sourcesCanTake(w, *to))
    return false;
  for (OpOperand *o : w.sources) {
    if (w.values.contains(o->get()))
      continue;
    OpBuilder b(o->getOwner());
    o->set(rematOrConvert(o->get(), *to, b));
  }
  RankedTensorType type = typeIn(seed.getType(), *to);
  for (Value x : w.values)
    x.setType(type);
  for (tgpu::ConvertLayoutOp c : w.readers) {
    c.getResult().replaceAllUsesWith(c.getSrc());
    c.erase();
  }
  return true;
}

bool Remover::hoistThroughControlFlow(Operation *func) {
  // Conversions of values computed (by cheap ops) from carried values are
  // first moved up to those values.
  std::vector<tgpu::ConvertLayoutOp> converts;
  func->walk([&](tgpu::ConvertLayoutOp c) { converts.push_back(c); });
  for (tgpu::ConvertLayoutOp c : converts) {
    auto from = layoutOf(c.getSrc()), to = layoutOf(c.getResult());
    if (!from || !to || LinearLayout::threadLocalMap(*from, *to) || isCarried(c.getSrc()) ||
        canRemat(c.getSrc(), *to, 0))
      continue;
    carriedLeaves_ = true;
    if (canRemat(c.getSrc(), *to, 0)) {
      OpBuilder b(c);
      Value v = remat(c.getSrc(), *to, b);
      c.getResult().replaceAllUsesWith(v);
      c.erase();
    }
    carriedLeaves_ = false;
  }
  eraseDead(func); // the chains replaced still read the carried values
  std::vector<Value> seeds;
  func->walk([&](tgpu::ConvertLayoutOp c) {
    Value s = c.getSrc();
    auto arg = dyn_cast<BlockArgument>(s);
    if ((arg && isa<scf::ForOp>(arg.getOwner()->getParentOp())) ||
        s.getDefiningOp<scf::IfOp>() || s.getDefiningOp<scf::ForOp>())
      seeds.push_back(s);
  });
  for (Value s : seeds)
    if (hoistWeb(s))
      return true; // the walk saw ops since erased: look again
  return false;
}

void Remover::run(Operation *func) {
  func->walk([&](tile::LoadOp ld) {
    auto t = dyn_cast<RankedTensorType>(ld.getPtr().getType());
    if (!t || !o.vectorWidth)
      return;
    // (Layout assignment's conversions of pointers and masks are new
    // values: the analysis knows their sources.)
    Value ptr = ld.getPtr(), mask = ld.getMask();
    while (auto c = ptr.getDefiningOp<tgpu::ConvertLayoutOp>())
      ptr = c.getSrc();
    while (auto c = mask ? mask.getDefiningOp<tgpu::ConvertLayoutOp>() : nullptr)
      mask = c.getSrc();
    std::vector<unsigned> &h = loadHints_[ld];
    for (unsigned dim = 0; dim < t.getRank(); ++dim)
      h.push_back(o.vectorWidth(ptr, mask, dim));
  });
  auto note = [&](Value v) {
    if (auto l = layoutOf(v))
      inUse_.try_emplace(key(*l), cast<RankedTensorType>(v.getType()).getEncoding());
  };
  func->walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          note(a);
    for (Value r : op->getResults())
      note(r);
  });
  // The same value converted to the same layout twice in a block is
  // converted once (a bias row broadcast into two products, rope's cos
  // read by both halves of the rotation): the first conversion's reader
  // set then covers both, so a load read only through it is issued in the
  // target layout where it was, before any store that follows.
  func->walk([&](Block *block) {
    llvm::DenseMap<std::pair<Value, Type>, tgpu::ConvertLayoutOp> seen;
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      auto c = dyn_cast<tgpu::ConvertLayoutOp>(op);
      if (!c)
        continue;
      auto [it, fresh] = seen.try_emplace({c.getSrc(), c.getType()}, c);
      if (!fresh) {
        c.getResult().replaceAllUsesWith(it->second.getResult());
        c.erase();
      }
    }
  });
  // Rematerialization, then conversions moved through control flow (which
  // may leave new ones to rematerialize), until nothing moves.
  bool madeNew = false;
  for (int round = 0; round < 8; ++round) {
    std::vector<tgpu::ConvertLayoutOp> converts;
    func->walk([&](tgpu::ConvertLayoutOp c) { converts.push_back(c); });
    for (tgpu::ConvertLayoutOp c : converts) {
      auto from = layoutOf(c.getSrc()), to = layoutOf(c.getResult());
      if (!from || !to || LinearLayout::threadLocalMap(*from, *to))
        continue;
      Operation *d = c.getSrc().getDefiningOp();
      point_ = c; // where a load recomputed for it would run
      if (d && canRemat(c.getSrc(), *to, 0)) {
        OpBuilder b(c);
        Value v = remat(c.getSrc(), *to, b);
        c.getResult().replaceAllUsesWith(v);
        c.erase();
        // (Its sources may now be converted before a loop, where a load
        // can be issued again: the next round looks.)
        madeNew = true;
      }
      point_ = nullptr;
    }
    bool moved = madeNew;
    madeNew = false;
    for (int k = 0; k < 64 && hoistThroughControlFlow(func); ++k)
      moved = true;
    if (!moved)
      break;
  }
  eraseDead(func);
}

void Remover::eraseDead(Operation *func) {
  // Producers nobody reads any more.
  bool erased = true;
  while (erased) {
    erased = false;
    std::vector<Operation *> dead;
    func->walk([&](Operation *op) {
      // (A load or a slot's read issued again in another layout leaves its
      // first copy unread.)
      auto ld = dyn_cast<tile::LoadOp>(op);
      if (op->use_empty() && op->getNumResults() &&
          (isMemoryEffectFree(op) || (ld && !ld.getIsVolatile()) ||
           isa<tgpu::SharedLoadOp>(op)) &&
          op->getNumRegions() == 0)
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    erased = !dead.empty();
  }
}

} // namespace

void tritium::codegen::removeConversions(Operation *func, const LayoutOptions &options) {
  Remover(options).run(func);
}

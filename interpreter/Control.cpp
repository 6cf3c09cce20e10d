//===- Control.cpp - scf.for, scf.if, scf.while ------------------*- C++ -*-===//
//
// Structured control flow over nested Blocks. Loop-carried values move
// through the op's result slots (yield -> results -> block arguments), so a
// yield that permutes the block arguments is handled without aliasing.
// Bounds of any integer width; scf.for compares signed unless
// `unsignedCmp` is set.
//
//===----------------------------------------------------------------------===//
#include "interpreter/Program.h"

#include "ir/TileDialect.h"

using namespace mlir;

namespace tritium::interp {
namespace {

void moveAll(Frame &f, llvm::ArrayRef<int> dst, llvm::ArrayRef<int> src) {
  for (size_t i = 0; i < dst.size(); ++i)
    copySlot(f, dst[i], src[i]);
}

// op.a: unsigned compare.
void forLoop(const Op &op, Frame &f) {
  const Block &body = *op.regions[0];
  bool sgn = !op.a;
  int64_t lb = readInt(f.slot[op.in[0]], 0, op.srcKind, sgn);
  int64_t ub = readInt(f.slot[op.in[1]], 0, op.srcKind, sgn);
  int64_t step = readInt(f.slot[op.in[2]], 0, op.srcKind, sgn);
  auto inits = llvm::ArrayRef<int>(op.in).drop_front(3);
  auto iterArgs = llvm::ArrayRef<int>(body.args).drop_front(1);
  moveAll(f, op.res, inits);
  if (step == 0 && (sgn ? lb < ub : uint64_t(lb) < uint64_t(ub))) {
    f.fail(op, "infinite loop", "scf.for with step 0");
    return;
  }
  for (int64_t iv = lb; sgn ? iv < ub : uint64_t(iv) < uint64_t(ub);) {
    writeInt(f.slot[body.args[0]], 0, op.srcKind, uint64_t(iv));
    moveAll(f, iterArgs, op.res);
    runBlock(body, f);
    if (f.failed)
      return;
    moveAll(f, op.res, body.results);
    // Stop rather than wrap when the induction variable overflows.
    int64_t next;
    if (sgn ? __builtin_add_overflow(iv, step, &next)
            : __builtin_add_overflow(uint64_t(iv), uint64_t(step),
                                     reinterpret_cast<uint64_t *>(&next)))
      break;
    iv = next;
  }
}

void ifOp(const Op &op, Frame &f) {
  bool c = *f.get<uint8_t>(op.in[0]);
  const Block &blk = *op.regions[c ? 0 : 1];
  runBlock(blk, f);
  if (!f.failed)
    moveAll(f, op.res, blk.results);
}

void whileOp(const Op &op, Frame &f) {
  const Block &before = *op.regions[0], &after = *op.regions[1];
  moveAll(f, before.args, op.in);
  for (;;) {
    runBlock(before, f);
    if (f.failed)
      return;
    bool c = *f.get<uint8_t>(before.results[0]);
    auto passed = llvm::ArrayRef<int>(before.results).drop_front(1);
    moveAll(f, op.res, passed);
    if (!c)
      return;
    moveAll(f, after.args, op.res);
    runBlock(after, f);
    if (f.failed)
      return;
    // yield -> before args. The op's results cannot serve as temporaries:
    // scf.condition may forward fewer values than the loop carries (its
    // unused results are folded away). The yielded values never alias the
    // before block's arguments (another region's values, one slot each).
    moveAll(f, before.args, after.results);
  }
}

// op.a: pack; op.ints: element bytes of the operands, then of the results.
// The scalar body runs once per group of `pack` elements.
void mapElementwise(const Op &op, Frame &f) {
  const Block &body = *op.regions[0];
  int64_t pack = op.a, groups = op.n / pack;
  size_t nin = op.in.size(), nres = op.res.size();
  for (int64_t g = 0; g < groups; ++g) {
    for (size_t j = 0; j < nin; ++j) {
      int64_t es = op.ints[j];
      for (int64_t p = 0; p < pack; ++p)
        std::memcpy(f.slot[body.args[j * pack + p]],
                    f.slot[op.in[j]] + (g * pack + p) * es, es);
    }
    runBlock(body, f);
    if (f.failed)
      return;
    for (size_t r = 0; r < nres; ++r) {
      int64_t es = op.ints[nin + r];
      for (int64_t p = 0; p < pack; ++p)
        std::memcpy(f.slot[op.res[r]] + (g * pack + p) * es,
                    f.slot[body.results[r * pack + p]], es);
    }
  }
}

} // namespace

Built buildControl(Builder &b, Operation *mop, Op &op) {
  if (auto fo = dyn_cast<scf::ForOp>(mop)) {
    fillCommon(b, mop, op);
    op.a = fo.getUnsignedCmp();
    op.regions.push_back(b.buildRegion(fo.getRegion(), 0));
    op.fn = forLoop;
    return Built::Ok;
  }
  if (auto io = dyn_cast<scf::IfOp>(mop)) {
    fillCommon(b, mop, op);
    op.regions.push_back(b.buildRegion(io.getThenRegion(), 0));
    op.regions.push_back(b.buildRegion(io.getElseRegion(), 0));
    op.fn = ifOp;
    return Built::Ok;
  }
  if (auto wo = dyn_cast<scf::WhileOp>(mop)) {
    fillCommon(b, mop, op);
    op.regions.push_back(b.buildRegion(wo.getBefore(), 0));
    op.regions.push_back(b.buildRegion(wo.getAfter(), 0));
    op.fn = whileOp;
    return Built::Ok;
  }
  if (auto me = dyn_cast<tile::MapElementwiseOp>(mop)) {
    if (b.inLaneMode())
      return Built::NotMine;
    if (me.getScalarOp().getBlocks().size() != 1)
      return b.error(mop, "cannot interpret 'tile.map_elementwise' with "
                          "branches between blocks (cf.br/cf.cond_br); "
                          "use structured control flow (scf) in its body"),
             Built::Error;
    fillCommon(b, mop, op);
    op.a = me.getPack();
    if (op.n % op.a)
      return b.error(mop, "map_elementwise: element count is not a multiple "
                          "of pack"),
             Built::Error;
    for (int s : op.in)
      op.ints.push_back(elemBytes(b.info(s).kind));
    for (int s : op.res)
      op.ints.push_back(elemBytes(b.info(s).kind));
    op.regions.push_back(b.buildRegion(me.getScalarOp(), 0));
    op.fn = mapElementwise;
    return Built::Ok;
  }
  return Built::NotMine;
}

} // namespace tritium::interp

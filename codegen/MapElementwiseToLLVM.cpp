//===- MapElementwiseToLLVM.cpp - tile.map_elementwise on the GPU ---------===//
//
// The operands are brought into one layout and the scalar region is
// emitted once per group of `pack` elements each thread holds. As in the
// interpreter, a group is `pack` consecutive elements of the row-major
// order (elements g*pack .. g*pack+pack-1), and the region takes the
// operands one after the other, each with its `pack` elements in order.
// That needs a layout where each group lies in one thread's registers:
// the first operand's when it qualifies, otherwise a blocked layout of the
// flattened tile with `pack` elements per thread, read back in the tile's
// shape.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"


using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

LogicalResult mapElementwise(Lowering &L, Operation *o) {
  auto op = cast<tile::MapElementwiseOp>(o);
  unsigned pack = op.getPack();
  if (op.getResult().empty() && op.getSrcs().empty())
    return success();
  Type anyTy = op.getSrcs().empty() ? op.getResult()[0].getType()
                                    : op.getSrcs()[0].getType();
  auto rt = cast<RankedTensorType>(anyTy);
  std::vector<int64_t> shape(rt.getShape().begin(), rt.getShape().end());
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (pack == 0 || numel % pack)
    return L.fail(o, "map_elementwise: element count is not a multiple of "
                     "pack");

  LayoutRef S = op.getSrcs().empty() ? L.defaultLayout(anyTy)
                                     : L.get(op.getSrcs()[0]).layout;
  auto groups = S->packedRuns(pack);
  if (!groups) {
    S = L.share(LinearLayout::blocked({numel}, {pack}, {L.target.warpSize()},
                                      {L.numWarps}, {0}, L.target.warpSize())
                    .reshape(shape));
    groups = S->packedRuns(pack);
    if (!groups)
      return L.fail(o, "map_elementwise: no layout keeps each pack in one "
                       "thread");
  }
  std::vector<std::vector<llvm::Value *>> in;
  for (Value v : op.getSrcs())
    in.push_back(L.convert(v, *S));

  unsigned nres = op.getResult().size();
  std::vector<std::vector<llvm::Value *>> out(
      nres, std::vector<llvm::Value *>(S->numRegs(), nullptr));
  for (const std::vector<unsigned> &g : *groups) {
    std::vector<llvm::Value *> args;
    for (const auto &regs : in)
      for (unsigned r : g)
        args.push_back(regs[r]);
    auto res = L.emitScalarRegion(op.getScalarOp(), args);
    if (failed(res))
      return failure();
    if (res->size() != nres * pack)
      return L.fail(o, "map_elementwise: the body yields the wrong number "
                       "of values");
    for (unsigned k = 0; k < nres; ++k)
      for (unsigned p = 0; p < pack; ++p)
        out[k][g[p]] = (*res)[k * pack + p];
  }
  unsigned replica = S->replicatedMask(LinearLayout::Reg);
  for (unsigned k = 0; k < nres; ++k) {
    for (unsigned r = 0; r < S->numRegs(); ++r)
      if (!out[k][r])
        out[k][r] = out[k][r & ~replica];
    L.set(op.getResult()[k], Lowered{S, out[k]});
  }
  return success();
}

} // namespace

void tritium::codegen::populateMapHandlers(HandlerTable &t) {
  t["tile.map_elementwise"] = mapElementwise;
}

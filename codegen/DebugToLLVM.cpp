//===- DebugToLLVM.cpp - device_print and device_assert -------------------===//
//
// tile.print becomes one device printf per element, from the element's
// owner, in the interpreter's format: `pid (x, y, z) idx (i, j)<prefix>
// <value>`. tile.assert calls the target's assert-fail with the user's
// file and line when any of the thread's lanes is false.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "ir/Names.h"
#include "ir/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tritium::codegen;
namespace tile = mlir::tile;

namespace {

LogicalResult print(Lowering &L, Operation *o) {
  auto op = cast<tile::PrintOp>(o);
  auto &b = L.b;
  std::vector<llvm::Value *> pid = {L.target.programId(b, 0), L.target.programId(b, 1),
                                    L.target.programId(b, 2)};
  std::string prefix = op.getPrefix().str();
  std::string escaped;
  for (char ch : prefix)
    escaped += ch == '%' ? "%%" : std::string(1, ch);
  if (op.getArgs().empty()) {
    L.guarded(b.CreateICmpEQ(L.threadId(), L.i32(0)),
              [&] { L.target.printf(b, "pid (%u, %u, %u)" + escaped + "\n", pid); },
              "print");
    return success();
  }
  auto isSigned = op.getIsSigned();
  for (auto [k, v] : llvm::enumerate(op.getArgs())) {
    Lowered &lv = L.get(v);
    llvm::Type *t = L.llvmType(v.getType());
    std::string valFmt;
    bool sgn = k < isSigned.size() && isSigned[k];
    if (t->isPointerTy())
      valFmt = "0x%llx";
    else if (op.getHex())
      valFmt = "0x%0" + std::to_string(std::max(1u, L.storeBytes(t)) * 2) + "llx";
    else if (t->isIntegerTy())
      valFmt = (sgn && !t->isIntegerTy(1)) ? "%lld" : "%llu";
    else
      valFmt = "%f";
    std::string idxFmt;
    if (lv.layout) {
      idxFmt = " idx (";
      for (unsigned d = 0; d < lv.layout->rank(); ++d) {
        unsigned width = std::to_string(std::max<int64_t>(lv.layout->shape()[d] - 1, 0)).size();
        idxFmt += (d ? ", %" : "%") + std::to_string(width) + "d";
      }
      idxFmt += ")";
    }
    std::string fmt = "pid (%u, %u, %u)" + idxFmt + escaped +
                      (op.getArgs().size() > 1 ? "(operand " + std::to_string(k) + ") " : "") +
                      valFmt + "\n";
    llvm::Value *owner = lv.layout ? L.isOwner(*lv.layout)
                                   : b.CreateICmpEQ(L.threadId(), L.i32(0));
    unsigned n = lv.layout ? lv.layout->numRegs() : 1;
    for (unsigned r = 0; r < n; ++r) {
      if (lv.layout && lv.layout->isReplicaReg(r))
        continue;
      std::vector<llvm::Value *> args = pid;
      if (lv.layout)
        for (unsigned d = 0; d < lv.layout->rank(); ++d)
          args.push_back(L.coord(*lv.layout, r, d));
      llvm::Value *x = lv.regs[r];
      if (t->isPointerTy())
        x = b.CreatePtrToInt(x, b.getInt64Ty());
      else if (t->isIntegerTy() || op.getHex()) {
        if (!t->isIntegerTy())
          x = b.CreateBitCast(x, llvm::IntegerType::get(L.ctx, t->getPrimitiveSizeInBits()));
        x = (sgn && !op.getHex() && !t->isIntegerTy(1)) ? b.CreateSExt(x, b.getInt64Ty())
                                                        : b.CreateZExt(x, b.getInt64Ty());
      } else {
        x = b.CreateFPExt(x, b.getDoubleTy());
      }
      args.push_back(x);
      L.guarded(owner, [&] { L.target.printf(b, fmt, args); }, "print");
    }
  }
  return success();
}

LogicalResult assertOp(Lowering &L, Operation *o) {
  auto op = cast<tile::AssertOp>(o);
  auto &b = L.b;
  Lowered &c = L.get(op.getCondition());
  llvm::Value *anyFalse = b.getFalse();
  for (llvm::Value *v : c.regs)
    anyFalse = b.CreateOr(anyFalse, b.CreateNot(v));
  std::string file = "unknown";
  unsigned line = 0;
  if (auto fl = tritium::fileLocOf(o->getLoc())) {
    file = fl.getFilename().str();
    line = fl.getLine();
  }
  L.guarded(anyFalse,
            [&] { L.target.assertFail(b, op.getMessage(), file, line, L.fn->getName()); },
            "assert");
  return success();
}

} // namespace

void tritium::codegen::populateDebugHandlers(HandlerTable &t) {
  t["tile.print"] = print;
  t["tile.assert"] = assertOp;
}

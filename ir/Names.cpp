//===- Names.cpp - source positions and variable names on tile IR ---------===//
//
// See Names.h.
//
//===----------------------------------------------------------------------===//
#include "ir/Names.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tritium {

FileLineColLoc fileLocOf(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return f;
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return fileLocOf(c.getCallee());
  if (auto n = dyn_cast<NameLoc>(loc))
    return fileLocOf(n.getChildLoc());
  if (auto fu = dyn_cast<FusedLoc>(loc))
    for (Location l : fu.getLocations())
      if (auto f = fileLocOf(l))
        return f;
  return {};
}

std::string diagPrefixOf(Location loc) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (auto fl = fileLocOf(loc))
    os << fl.getFilename().getValue() << ":" << fl.getLine() << ":" << fl.getColumn();
  else
    loc.print(os);
  os << ": ";
  return out;
}

namespace {
/// The names a NameLoc chain at the top of `loc` holds (outermost first).
void chainNames(Location loc, std::vector<std::string> &out) {
  while (auto n = dyn_cast<NameLoc>(loc)) {
    out.push_back(n.getName().str());
    loc = n.getChildLoc();
  }
}

/// The per-result names of a multi-result op's location (empty: none).
ArrayAttr resultNames(Location loc) {
  if (auto fu = dyn_cast<FusedLoc>(loc))
    return dyn_cast_or_null<ArrayAttr>(fu.getMetadata());
  return {};
}
} // namespace

void nameValue(Value v, const std::string &name) {
  if (!v || name.empty())
    return;
  for (const std::string &have : valueNames(v))
    if (have == name)
      return;
  MLIRContext *ctx = v.getContext();
  auto nameAttr = StringAttr::get(ctx, name);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    arg.setLoc(NameLoc::get(nameAttr, arg.getLoc()));
    return;
  }
  auto res = cast<OpResult>(v);
  Operation *op = res.getOwner();
  if (op->getNumResults() == 1) {
    op->setLoc(NameLoc::get(nameAttr, op->getLoc()));
    return;
  }
  Location inner = op->getLoc();
  SmallVector<Attribute> names(op->getNumResults(), StringAttr::get(ctx, ""));
  if (ArrayAttr old = resultNames(inner); old && old.size() == names.size()) {
    names.assign(old.begin(), old.end());
    inner = cast<FusedLoc>(inner).getLocations().front();
  }
  std::string now = cast<StringAttr>(names[res.getResultNumber()]).str();
  names[res.getResultNumber()] = StringAttr::get(ctx, now.empty() ? name : now + " " + name);
  op->setLoc(FusedLoc::get(ctx, {inner}, ArrayAttr::get(ctx, names)));
}

std::vector<std::string> valueNames(Value v) {
  std::vector<std::string> out;
  if (!v)
    return out;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    chainNames(arg.getLoc(), out);
  } else {
    auto res = cast<OpResult>(v);
    Operation *op = res.getOwner();
    Location loc = op->getLoc();
    if (ArrayAttr names = resultNames(loc); names && names.size() == op->getNumResults()) {
      if (auto s = dyn_cast<StringAttr>(names[res.getResultNumber()]))
        for (StringRef part : llvm::split(s.getValue(), ' '))
          if (!part.empty())
            out.push_back(part.str());
      return out;
    }
    if (op->getNumResults() == 1) {
      // Through call sites (an inlined helper's values keep their names).
      while (auto c = dyn_cast<CallSiteLoc>(loc))
        loc = c.getCallee();
      chainNames(loc, out);
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace tritium

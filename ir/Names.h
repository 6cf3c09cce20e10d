//===- Names.h - source positions and variable names on tile IR --*- C++ -*-===//
//
// Every op the frontend makes is located at the kernel's source
// (file:line:col). Values bound to a variable of the source also carry the
// variable's name, for the interpreter's debugger and traces:
//   - an op with one result: NameLoc("acc", <its location>);
//   - an op with several results (scf.for, scf.if, scf.while): a FusedLoc
//     around its location whose metadata is an array with one string per
//     result (the names bound to it, separated by spaces; "" for none);
//   - a block argument (a kernel parameter, a loop-carried variable): a
//     NameLoc as its own location.
// Several names of one value nest (`b = a` names a's value "b" too).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_NAMES_H
#define TRITIUM_IR_NAMES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <string>
#include <vector>

namespace tritium {

/// The source position inside `loc` (through names, call sites and fused
/// locations); null when there is none.
mlir::FileLineColLoc fileLocOf(mlir::Location loc);

/// "file:line:col: " for `loc`, or its printed form and ": " when it has
/// no source position (the prefix of a diagnostic).
std::string diagPrefixOf(mlir::Location loc);

/// Gives `v` the name `name` (nothing when it has it already).
void nameValue(mlir::Value v, const std::string &name);

/// The names given to `v`, the first given first.
std::vector<std::string> valueNames(mlir::Value v);

} // namespace tritium

#endif // TRITIUM_IR_NAMES_H

//===- ExternBits.h - libdevice symbols over raw operand bits -----*- C++ -*-===//
//
// The extern_elementwise symbols Extern.cpp's <cmath> maps do not cover:
// ternary float functions, directed roundings, conversions, bit casts,
// integer functions and predicates (ExternBits.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_INTERPRETER_EXTERNBITS_H
#define TRITIUM_INTERPRETER_EXTERNBITS_H

#include "interpreter/Program.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium::interp {

/// Builds `op` for the libdevice function `name` (the symbol `sym` without
/// its `__nv_` prefix): NotMine when this file has no such function, Error
/// (reported) when the operand or result types differ from its signature.
Built buildExternBits(Builder &b, mlir::Operation *mop, Op &op,
                      llvm::StringRef name, const std::string &sym);

} // namespace tritium::interp

#endif // TRITIUM_INTERPRETER_EXTERNBITS_H

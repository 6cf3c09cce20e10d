//===- AstDump.h - textual dump of the syntax tree --------------*- C++ -*-===//
//
// Debugging and testing aid for the Parser's output: an indented tree with
// one node per line, its kind, its distinguishing details and its begin
// location (@line:col). Children are introduced by their role
// ("target: Name x @5:5"). The output is deterministic, so tests and
// FileCheck can match it. Parameter annotations and defaults, which are
// usually tiny, are printed inline: `Param BLOCK :
// Attribute(Name(tl).constexpr)`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_ASTDUMP_H
#define TRITIUM_FRONTEND_ASTDUMP_H

#include "frontend/Ast.h"

#include <string>

namespace tritium::fe {

/// One function definition (with decorators, parameters, docstring, body).
std::string dumpFunction(const FunctionDef &fn);

/// Imports, globals and functions of a module, in that order.
std::string dumpModule(const Module &module);

/// A single expression as a tree (the same format the statement dumps use).
std::string dumpExpr(const Expr &expr);

/// A single expression on one line: `Call(Attribute(Name(tl).arange), Int(0))`.
std::string inlineExpr(const Expr &expr);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_ASTDUMP_H

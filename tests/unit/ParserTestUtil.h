//===- ParserTestUtil.h - helpers shared by the parser unit tests ---------===//
//
// Parsing snippets into modules, functions and inline dumps, and small
// accessors, for LexerTest/ParserTest/ParserModuleTest.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_UNIT_PARSERTESTUTIL_H
#define TRITIUM_TESTS_UNIT_PARSERTESTUTIL_H

#include "frontend/AstDump.h"
#include "frontend/Parser.h"

#include <catch2/catch.hpp>

#include <string>

namespace tritium::fe::test {

inline ParseResult parse(const std::string &text) {
  return parseSource("test.py", text);
}

/// The inline dump of `src` parsed as the value of a global assignment.
inline std::string expr(const std::string &src) {
  ParseResult r = parse("_ = " + src + "\n");
  INFO("expression: " << src);
  REQUIRE(r.errors.empty());
  REQUIRE(r.module->globals.size() == 1);
  return inlineExpr(*r.module->globals[0].value);
}

/// Parses `def f():` with the given (already indented) body; requires it
/// to parse cleanly.
inline ParseResult function(const std::string &body) {
  ParseResult r = parse("def f():\n" + body);
  INFO("body:\n" << body);
  REQUIRE(r.errors.empty());
  if (!r.skippedFunctions.empty())
    FAIL(r.skippedFunctions[0].second.render());
  REQUIRE(r.module->functions.size() == 1);
  return r;
}

inline const Block &bodyOf(const ParseResult &r) {
  return r.module->functions[0]->body;
}

/// The inline dump of `src` parsed as a return value inside a function.
inline std::string bodyExpr(const std::string &src) {
  ParseResult r = function("    return " + src + "\n");
  const auto &ret = static_cast<const ReturnStmt &>(*bodyOf(r).at(0));
  REQUIRE(ret.value);
  return inlineExpr(*ret.value);
}

/// The diagnostic of a single function that must fail to parse.
inline Diagnostic defError(const std::string &text) {
  ParseResult r = parse(text);
  INFO("source:\n" << text);
  CHECK(r.errors.empty());
  REQUIRE(r.skippedFunctions.size() == 1);
  return r.skippedFunctions[0].second;
}

template <typename T> const T &as(const Stmt &s) {
  return static_cast<const T &>(s);
}
template <typename T> const T &as(const Expr &e) {
  return static_cast<const T &>(e);
}

inline bool locIs(SourceLoc loc, uint32_t line, uint32_t col) {
  return loc.line == line && loc.col == col;
}

} // namespace tritium::fe::test

#endif // TRITIUM_TESTS_UNIT_PARSERTESTUTIL_H

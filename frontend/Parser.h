//===- Parser.h - recursive-descent parser for kernel files -----*- C++ -*-===//
//
// The third frontend stage: reads the Lexer's tokens into the syntax tree of
// Ast.h. A kernel file is a whole Python script, and only its Triton kernels
// have to be understood, so the module level is forgiving: imports, simple
// global assignments and every top-level `def` are kept; any other top-level
// statement (classes, `if __name__ == "__main__":`, loops, calls, ...) is
// skipped by tokens, never rejected. A top-level def that does not parse is
// skipped too and its diagnostic kept in ParseResult::skippedFunctions, so a
// later stage can report it if that function turns out to be a kernel.
//
// Inside a function the parser is strict and precise: the first syntax error
// abandons that function with a located Diagnostic. Nesting is capped, so no
// input makes it crash, hang or recurse without bound.
//
// Parser.cpp holds the token cursor and the module level, ParserStmt.cpp the
// statements, ParserExpr.cpp the expressions.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_PARSER_H
#define TRITIUM_FRONTEND_PARSER_H

#include "frontend/Ast.h"
#include "frontend/Lexer.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tritium::fe {

struct ParseResult {
  /// Never null: on errors it holds what could be parsed.
  std::unique_ptr<Module> module;
  /// Lexical errors and errors in the module's own structure (an indented
  /// first line). A well-formed Python file produces none.
  std::vector<Diagnostic> errors;
  /// Top-level functions that failed to parse: (name, why).
  std::vector<std::pair<std::string, Diagnostic>> skippedFunctions;
};

/// Parses a whole file.
ParseResult parseModule(std::shared_ptr<SourceFile> file);

/// Convenience: wraps `text` in a SourceFile named `path` and parses it.
ParseResult parseSource(std::string path, std::string text);

/// The parsing engine behind parseModule; one instance parses one file.
class Parser {
public:
  /// Takes the Lexer's whole result: its tokens, and its error if any (the
  /// tokens then stop at that error).
  Parser(std::shared_ptr<SourceFile> file, LexResult lexed);
  /// Parses the token stream into `result`; call once.
  void parseModule(ParseResult &result);

  /// Deepest nesting of expressions and blocks accepted.
  static constexpr unsigned kMaxDepth = 250;
  /// Most operators and trailers (calls, subscripts, attributes) in one
  /// statement, or elif branches in one chain. Such chains are built by
  /// loops, not recursion, but each link deepens the tree, and every later
  /// walk of the tree (destruction included) recurses over it.
  static constexpr unsigned kMaxChain = 1000;

private:
  //===--- Token cursor and errors (Parser.cpp) ---------------------------===//
  const Token &tok() const { return toks_[pos_]; }
  const Token &peekTok(size_t ahead = 1) const;
  void advance() {
    if (pos_ + 1 < toks_.size())
      ++pos_;
  }
  bool atOp(std::string_view op) const { return tok().isOp(op); }
  bool atKeyword(std::string_view kw) const { return tok().isName(kw); }
  bool atEnd() const { return tok().is(TokenKind::EndOfFile); }
  bool atLineEnd() const {
    return tok().is(TokenKind::Newline) || tok().is(TokenKind::EndOfFile);
  }
  bool consumeOp(std::string_view op);
  bool consumeKeyword(std::string_view kw);
  /// Consumes `op` or reports "expected 'op' <context>, found X".
  bool expectOp(std::string_view op, std::string_view context);
  /// Range from the token at `startTok` to the last real token consumed.
  SourceRange rangeFrom(size_t startTok) const;
  /// End of the last consumed token that is not NEWLINE/INDENT/DEDENT.
  SourceLoc lastEnd() const;
  /// Where an error about `t` points: layout tokens and end of file point
  /// just past the preceding token, where the missing text belongs.
  SourceLoc errorLoc(const Token &t) const;

  std::nullptr_t error(SourceLoc loc, std::string message);
  std::nullptr_t errorAt(const Token &t, std::string message) {
    return error(errorLoc(t), std::move(message));
  }
  bool failed() const { return err_.has_value(); }

  /// RAII nesting counter; reports once when kMaxDepth is exceeded.
  class DepthGuard {
  public:
    explicit DepthGuard(Parser &p);
    ~DepthGuard() { --p_.depth_; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;
    bool ok() const { return ok_; }

  private:
    Parser &p_;
    bool ok_;
  };

  /// Counts one more link of an operator or trailer chain in the current
  /// statement; reports once when kMaxChain is exceeded.
  bool addLink();

  /// Skips from an opening bracket to just past its match.
  void skipBracketed();

  //===--- Module level (Parser.cpp) --------------------------------------===//
  void parseTopLevelDef(Module &module, ParseResult &result);
  void parseTopLevelSimpleLine(Module &module);
  bool parseImport(Module &module);
  bool parseFromImport(Module &module);
  bool parseDottedName(std::string &out);
  void parseGlobal(Module &module);
  void skipSmallStatement();
  void skipLogicalLine();
  void skipIndentedBlock();
  void skipCompoundStatement();
  void skipTopLevelStatement();
  /// Skips a compound statement's header up to its ':' so that the body is
  /// read as module-level statements.
  void skipHeaderKeepBody();

  //===--- Statements (ParserStmt.cpp) ------------------------------------===//
  bool parseStatement(Block &out);
  bool parseSimpleStatements(Block &out);
  StmtPtr parseSmallStatement();
  StmtPtr parseExprOrAssign();
  ExprPtr parseAssignValue();
  bool checkTarget(const Expr &target, bool starredOk);
  StmtPtr parseIf();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseReturn();
  StmtPtr parseAssert();
  StmtPtr parseDecorated();
  std::unique_ptr<FunctionDef>
  parseFunctionDef(std::vector<ExprPtr> decorators);
  bool parseParams(std::vector<Param> &params, std::string_view closer,
                   bool annotations);
  bool parseBlock(Block &out, const Token &header, std::string_view what);
  bool parseOptionalElse(Block &out);
  StmtPtr parseUnsupportedSimple();
  StmtPtr parseUnsupportedCompound(std::string what);
  bool isMatchStatement() const;

  //===--- Expressions (ParserExpr.cpp) -----------------------------------===//
  ExprPtr parseExpression();
  ExprPtr parseNamedExpression();
  ExprPtr parseStarNamedExpression();
  ExprPtr parseStarExpressions();
  ExprPtr parseStarTargets();
  ExprPtr parseDisjunction();
  ExprPtr parseConjunction();
  ExprPtr parseBoolChain(BoolOpKind kind, const char *keyword,
                         ExprPtr (Parser::*operand)());
  ExprPtr parseInversion();
  ExprPtr parseComparison();
  ExprPtr parseBinary(int minPrec);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseListComprehension(size_t open, ExprPtr first);
  ExprPtr parseBraceDisplay();
  ExprPtr parseStrings();
  ExprPtr parseNumber();
  ExprPtr parseLambda();
  ExprPtr parseYield();
  ExprPtr parseCall(ExprPtr func, size_t startTok);
  ExprPtr parseSubscript(ExprPtr value, size_t startTok);
  ExprPtr parseSliceItem();
  bool startsExpression(const Token &t) const;
  bool atComprehensionFor() const;

  std::shared_ptr<SourceFile> file_;
  std::vector<Token> toks_;
  /// For each opening bracket token, the index of its closing token.
  static constexpr size_t kNoMatch = size_t(-1);
  std::vector<size_t> match_;
  size_t pos_ = 0;
  std::optional<Diagnostic> err_;
  /// Location of the token where err_ was raised.
  SourceLoc errTokLoc_;
  /// The lexical error that cut the token stream short, if any.
  std::optional<Diagnostic> lexError_;
  unsigned depth_ = 0;
  /// Chain links in the statement being parsed (see kMaxChain).
  unsigned links_ = 0;
};

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_PARSER_H

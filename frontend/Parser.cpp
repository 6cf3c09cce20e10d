//===- Parser.cpp - token cursor, module level and entry points -----------===//
//
// Implements the parts of Parser.h that are not statements or expressions:
// the token cursor, error reporting, the nesting guard, and the forgiving
// module level. At module level only imports, simple global assignments and
// top-level defs are parsed; everything else is skipped by tokens, which is
// always safe because the Lexer guarantees balanced brackets and balanced
// INDENT/DEDENT pairs. Statements live in ParserStmt.cpp, expressions in
// ParserExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "ir/StageLimit.h"
#include "frontend/Parser.h"

namespace tritium::fe {

namespace {

bool isLayout(const Token &t) {
  return t.is(TokenKind::Newline) || t.is(TokenKind::Indent) ||
         t.is(TokenKind::Dedent);
}

bool isOpenBracket(const Token &t) {
  return t.isOp("(") || t.isOp("[") || t.isOp("{");
}

bool isCloseBracket(const Token &t) {
  return t.isOp(")") || t.isOp("]") || t.isOp("}");
}

bool locBefore(SourceLoc a, SourceLoc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

} // namespace

Parser::Parser(std::shared_ptr<SourceFile> file, LexResult lexed)
    : file_(std::move(file)), toks_(std::move(lexed.tokens)) {
  if (!lexed.errors.empty())
    lexError_ = std::move(lexed.errors.front());
  if (toks_.empty() || !toks_.back().is(TokenKind::EndOfFile)) {
    Token eof;
    eof.kind = TokenKind::EndOfFile;
    eof.offset = eof.endOffset = file_->text().size();
    eof.loc = eof.endLoc = file_->locOf(eof.offset);
    toks_.push_back(std::move(eof));
  }
  // Pair up brackets once so skipping a display or comprehension is O(1).
  match_.assign(toks_.size(), kNoMatch);
  std::vector<size_t> open;
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (isOpenBracket(toks_[i])) {
      open.push_back(i);
    } else if (isCloseBracket(toks_[i]) && !open.empty()) {
      match_[open.back()] = i;
      open.pop_back();
    }
  }
}

//===----------------------------------------------------------------------===//
// Token cursor and errors
//===----------------------------------------------------------------------===//

const Token &Parser::peekTok(size_t ahead) const {
  size_t p = pos_ + ahead;
  return p < toks_.size() ? toks_[p] : toks_.back();
}

bool Parser::consumeOp(std::string_view op) {
  if (!atOp(op))
    return false;
  advance();
  return true;
}

bool Parser::consumeKeyword(std::string_view kw) {
  if (!atKeyword(kw))
    return false;
  advance();
  return true;
}

bool Parser::expectOp(std::string_view op, std::string_view context) {
  if (consumeOp(op))
    return true;
  errorAt(tok(), "expected '" + std::string(op) + "' " + std::string(context) +
                     ", found " + describeToken(tok()));
  return false;
}

SourceLoc Parser::lastEnd() const {
  for (size_t i = pos_; i > 0; --i)
    if (!isLayout(toks_[i - 1]))
      return toks_[i - 1].endLoc;
  return toks_.front().loc;
}

SourceRange Parser::rangeFrom(size_t startTok) const {
  SourceRange range;
  range.begin = toks_[startTok].loc;
  range.end = startTok < pos_ ? lastEnd() : toks_[startTok].endLoc;
  return range;
}

SourceLoc Parser::errorLoc(const Token &t) const {
  if ((t.is(TokenKind::Newline) || t.is(TokenKind::Dedent) ||
       t.is(TokenKind::EndOfFile)) &&
      pos_ > 0)
    return lastEnd();
  return t.loc;
}

std::nullptr_t Parser::error(SourceLoc loc, std::string message) {
  // Only the first error of a unit counts: everything after it is a
  // consequence, and the unit is abandoned anyway.
  if (!err_) {
    err_ = makeDiagnostic(*file_, loc, std::move(message));
    errTokLoc_ = tok().loc;
  }
  return nullptr;
}

Parser::DepthGuard::DepthGuard(Parser &p) : p_(p) {
  ok_ = ++p_.depth_ <= kMaxDepth;
  if (!ok_)
    p_.errorAt(p_.tok(), "too deeply nested: more than " +
                             std::to_string(kMaxDepth) +
                             " levels of expressions or blocks");
}

bool Parser::addLink() {
  if (++links_ <= kMaxChain)
    return true;
  errorAt(tok(), "statement too long: more than " + std::to_string(kMaxChain) +
                     " operators, calls, subscripts and attribute accesses");
  return false;
}

void Parser::skipBracketed() {
  size_t close = match_[pos_];
  if (close == kNoMatch) {
    pos_ = toks_.size() - 1; // unbalanced only after a lexical error
    return;
  }
  pos_ = close;
  advance();
}

//===----------------------------------------------------------------------===//
// Skipping
//===----------------------------------------------------------------------===//

// One simple statement: up to ';' or the end of the logical line.
void Parser::skipSmallStatement() {
  while (!atLineEnd() && !atOp(";")) {
    if (isOpenBracket(tok()))
      skipBracketed();
    else
      advance();
  }
}

void Parser::skipLogicalLine() {
  while (!atLineEnd())
    advance();
  if (tok().is(TokenKind::Newline))
    advance();
}

void Parser::skipIndentedBlock() {
  if (!tok().is(TokenKind::Indent))
    return;
  unsigned depth = 0;
  while (!atEnd()) {
    if (tok().is(TokenKind::Indent)) {
      ++depth;
    } else if (tok().is(TokenKind::Dedent) && --depth == 0) {
      advance();
      return;
    }
    advance();
  }
}

// A header line with its block, plus the clauses that continue it. Clause
// keywords (elif/else/except/finally) can never start a statement, so
// swallowing them is always right.
void Parser::skipCompoundStatement() {
  do {
    skipLogicalLine();
    skipIndentedBlock();
  } while (atKeyword("elif") || atKeyword("else") || atKeyword("except") ||
           atKeyword("finally"));
}

void Parser::skipHeaderKeepBody() {
  int depth = 0;
  while (!atEnd()) {
    const Token &t = tok();
    if (depth == 0 && (t.is(TokenKind::Newline) || t.is(TokenKind::Dedent)))
      return; // a header without ':' is host code we do not need
    if (t.isOp("(") || t.isOp("[") || t.isOp("{"))
      ++depth;
    else if ((t.isOp(")") || t.isOp("]") || t.isOp("}")) && depth > 0)
      --depth;
    else if (depth == 0 && t.isOp(":")) {
      advance();
      if (tok().is(TokenKind::Newline)) {
        advance();
        if (tok().is(TokenKind::Indent))
          advance(); // the body's statements follow at module level
      } else {
        skipLogicalLine(); // a one-line body holds no def
      }
      return;
    }
    advance();
  }
}

void Parser::skipTopLevelStatement() {
  while (atOp("@"))
    skipLogicalLine();
  skipCompoundStatement();
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

// file: statement* ENDMARKER, where only imports, `NAME [: ann] = value` and
// defs are kept and every other statement is skipped.
void Parser::parseModule(ParseResult &result) {
  Module &module = *result.module;
  if (lexError_)
    result.errors.push_back(*lexError_);
  if (tok().is(TokenKind::Indent) &&
      (!lexError_ || locBefore(tok().loc, lexError_->loc)))
    result.errors.push_back(
        makeDiagnostic(*file_, tok().loc, "unexpected indent"));
  while (!atEnd()) {
    size_t start = pos_;
    const Token &t = tok();
    if (t.is(TokenKind::Indent)) {
      skipIndentedBlock();
    } else if (t.is(TokenKind::Newline) || t.is(TokenKind::Dedent)) {
      advance();
    } else if (t.isName("def") || t.isOp("@")) {
      parseTopLevelDef(module, result);
    } else if (t.isName("if") || t.isName("for") || t.isName("while") ||
               t.isName("try") || t.isName("with") || t.isName("elif") ||
               t.isName("else") || t.isName("except") ||
               t.isName("finally")) {
      // Kernels may sit under a module-level `if` (optional dependencies) or
      // `try`: the header is skipped and its body read as module level.
      skipHeaderKeepBody();
    } else if (t.isName("class") || t.isName("async") || isMatchStatement()) {
      skipCompoundStatement();
    } else {
      parseTopLevelSimpleLine(module);
    }
    if (pos_ == start) // cannot happen; guarantees termination regardless
      advance();
  }
}

void Parser::parseTopLevelDef(Module &module, ParseResult &result) {
  size_t start = pos_;
  // Look past the decorator lines to see what they decorate.
  size_t i = pos_;
  while (toks_[i].isOp("@")) {
    while (!toks_[i].is(TokenKind::Newline) &&
           !toks_[i].is(TokenKind::EndOfFile))
      ++i;
    if (toks_[i].is(TokenKind::Newline))
      ++i;
  }
  if (!toks_[i].isName("def")) { // a decorated class or async def
    skipTopLevelStatement();
    return;
  }
  std::string name = i + 1 < toks_.size() && toks_[i + 1].is(TokenKind::Name)
                         ? toks_[i + 1].text
                         : "<unnamed>";
  err_.reset();
  depth_ = 0;
  links_ = 0;
  StmtPtr def = atOp("@") ? parseDecorated() : parseFunctionDef({});
  if (def && !failed() && def->kind == StmtKind::FunctionDef) {
    module.functions.push_back(std::unique_ptr<FunctionDef>(
        static_cast<FunctionDef *>(def.release())));
    return;
  }
  if (!err_)
    error(toks_[i].loc, "invalid function definition");
  // A function that ran into the end of a stream cut by a lexical error
  // failed because of that error, whatever the parser saw there.
  if (lexError_ && !locBefore(errTokLoc_, lexError_->loc))
    err_ = lexError_;
  result.skippedFunctions.emplace_back(name, *err_);
  result.module->brokenFunctions.emplace_back(name, *err_);
  err_.reset();
  pos_ = start;
  skipTopLevelStatement();
}

// simple_stmts at module level: imports and globals are kept, any other
// simple statement is skipped on its own.
void Parser::parseTopLevelSimpleLine(Module &module) {
  while (true) {
    size_t start = pos_;
    bool ok = true;
    err_.reset();
    depth_ = 0;
    links_ = 0;
    if (atKeyword("import"))
      ok = parseImport(module);
    else if (atKeyword("from"))
      ok = parseFromImport(module);
    else if (tok().is(TokenKind::Name) && !isKeyword(tok().text) &&
             (peekTok().isOp("=") || peekTok().isOp(":")))
      parseGlobal(module);
    else
      ok = false;
    if (!ok) {
      err_.reset();
      pos_ = start;
      skipSmallStatement();
    }
    if (!consumeOp(";") || atLineEnd())
      break;
  }
  // Whatever is left of the line, and a block under an unrecognized header.
  skipLogicalLine();
  skipIndentedBlock();
}

bool Parser::parseDottedName(std::string &out) {
  out.clear();
  do {
    if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
      return false;
    if (!out.empty())
      out += '.';
    out += tok().text;
    advance();
  } while (consumeOp("."));
  return true;
}

// import_name: 'import' dotted_as_name (',' dotted_as_name)*
// dotted_as_name: dotted_name ['as' NAME]
bool Parser::parseImport(Module &module) {
  advance();
  std::vector<ImportBinding> bindings;
  do {
    ImportBinding b;
    b.loc = tok().loc;
    std::string dotted;
    if (!parseDottedName(dotted))
      return false;
    if (consumeKeyword("as")) {
      if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
        return false;
      b.localName = tok().text;
      b.qualified = dotted;
      advance();
    } else {
      // `import a.b` binds `a`, the top-level package.
      b.localName = dotted.substr(0, dotted.find('.'));
      b.qualified = b.localName;
    }
    bindings.push_back(std::move(b));
  } while (consumeOp(","));
  if (!atOp(";") && !atLineEnd())
    return false;
  for (ImportBinding &b : bindings)
    module.imports.push_back(std::move(b));
  return true;
}

// import_from: 'from' ('.' | '...')* dotted_name 'import' import_targets
//            | 'from' ('.' | '...')+ 'import' import_targets
// import_targets: '(' import_as_names [','] ')' | import_as_names | '*'
bool Parser::parseFromImport(Module &module) {
  advance();
  std::string base;
  while (atOp(".") || atOp("...")) {
    base += tok().text;
    advance();
  }
  if (!atKeyword("import")) {
    std::string dotted;
    if (!parseDottedName(dotted))
      return false;
    base += dotted;
  }
  if (base.empty() || !consumeKeyword("import"))
    return false;
  if (atOp("*")) {
    // Recorded as localName "*": IRGen resolves otherwise unknown names in
    // the imported module (e.g. `from triton.language import *`).
    ImportBinding b;
    b.loc = tok().loc;
    b.localName = "*";
    b.qualified = base;
    advance();
    if (!(atOp(";") || atLineEnd()))
      return false;
    module.imports.push_back(b);
    return true;
  }
  bool paren = consumeOp("(");
  std::vector<ImportBinding> bindings;
  do {
    if (paren && atOp(")"))
      break;
    if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
      return false;
    ImportBinding b;
    b.loc = tok().loc;
    b.localName = tok().text;
    b.qualified = base + (base.back() == '.' ? "" : ".") + tok().text;
    advance();
    if (consumeKeyword("as")) {
      if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
        return false;
      b.localName = tok().text;
      advance();
    }
    bindings.push_back(std::move(b));
  } while (consumeOp(","));
  if ((paren && !consumeOp(")")) || (!atOp(";") && !atLineEnd()))
    return false;
  for (ImportBinding &b : bindings)
    module.imports.push_back(std::move(b));
  return true;
}

// Tries the line's next simple statement as `NAME = value` or
// `NAME: ann = value`; anything else (or anything that does not parse) is
// skipped without a word, since it is host code.
void Parser::parseGlobal(Module &module) {
  size_t start = pos_;
  StmtPtr stmt = parseSmallStatement();
  if (!stmt || failed() || (!atOp(";") && !atLineEnd())) {
    err_.reset();
    pos_ = start;
    skipSmallStatement();
    return;
  }
  GlobalAssign global;
  if (stmt->kind == StmtKind::Assign) {
    auto &assign = static_cast<AssignStmt &>(*stmt);
    if (assign.targets.size() != 1 || assign.targets[0]->kind != ExprKind::Name)
      return;
    global.name = static_cast<NameExpr &>(*assign.targets[0]).id;
    global.value = std::move(assign.value);
  } else if (stmt->kind == StmtKind::AnnAssign) {
    auto &ann = static_cast<AnnAssignStmt &>(*stmt);
    if (ann.target->kind != ExprKind::Name || !ann.value)
      return;
    global.name = static_cast<NameExpr &>(*ann.target).id;
    global.annotation = std::move(ann.annotation);
    global.value = std::move(ann.value);
  } else {
    return;
  }
  global.loc = stmt->loc();
  module.globals.push_back(std::move(global));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

ParseResult parseModule(std::shared_ptr<SourceFile> file) {
  ParseResult result;
  result.module = std::make_unique<Module>();
  result.module->file = file;
  LexResult lexed = tokenize(*file);
  Parser(file, std::move(lexed)).parseModule(result);
  return result;
}

ParseResult parseSource(std::string path, std::string text) {
  StageGuard guard("parse", path);
  auto file = std::make_shared<SourceFile>(path, std::move(text));
  ParseResult r = parseModule(file);
  if (auto err = guard.error())
    r.errors.push_back(makeDiagnostic(*file, SourceLoc{1, 1}, *err));
  return r;
}

} // namespace tritium::fe

//===- ParserStmt.cpp - statements of function bodies ---------------------===//
//
// The statement half of the recursive-descent Parser: blocks, simple and
// compound statements, function definitions and their parameter lists.
// Python statements that kernels cannot use (with, try, class, raise, del,
// import, global, ...) are not modelled in detail: they are skipped by tokens
// and kept as an UnsupportedStmt naming their keyword, so that host functions
// still parse and IRGen can reject them inside kernels with a location.
//
// Each parse function carries the grammar rule it implements (simplified
// from the CPython PEG grammar) in the comment above it.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"

namespace tritium::fe {

namespace {

const char *exprDescription(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Name:
    return "name";
  case ExprKind::Int:
  case ExprKind::Float:
  case ExprKind::Str:
    return "literal";
  case ExprKind::Bool:
    return static_cast<const BoolExpr &>(e).value ? "True" : "False";
  case ExprKind::None:
    return "None";
  case ExprKind::Ellipsis:
    return "ellipsis";
  case ExprKind::Attribute:
    return "attribute";
  case ExprKind::Subscript:
    return "subscript";
  case ExprKind::Slice:
    return "slice";
  case ExprKind::Call:
    return "function call";
  case ExprKind::BinOp:
  case ExprKind::UnaryOp:
  case ExprKind::BoolOp:
    return "expression";
  case ExprKind::Compare:
    return "comparison";
  case ExprKind::IfExp:
    return "conditional expression";
  case ExprKind::Tuple:
    return "tuple";
  case ExprKind::List:
    return "list";
  case ExprKind::ListComp:
    return "list comprehension";
  case ExprKind::Starred:
    return "starred";
  case ExprKind::Lambda:
    return "lambda";
  case ExprKind::Other:
    return static_cast<const OtherExpr &>(e).what.c_str();
  }
  return "expression";
}

bool augAssignOp(const Token &t, BinOpKind &op) {
  static const std::pair<std::string_view, BinOpKind> kOps[] = {
      {"+=", BinOpKind::Add},       {"-=", BinOpKind::Sub},
      {"*=", BinOpKind::Mul},       {"/=", BinOpKind::Div},
      {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
      {"**=", BinOpKind::Pow},      {"@=", BinOpKind::MatMul},
      {"<<=", BinOpKind::LShift},   {">>=", BinOpKind::RShift},
      {"&=", BinOpKind::BitAnd},    {"|=", BinOpKind::BitOr},
      {"^=", BinOpKind::BitXor}};
  if (!t.is(TokenKind::Op))
    return false;
  for (const auto &[text, kind] : kOps) {
    if (t.text == text) {
      op = kind;
      return true;
    }
  }
  return false;
}

bool isCompoundKeyword(const Token &t) {
  for (std::string_view kw :
       {"if", "for", "while", "def", "with", "try", "class", "async"})
    if (t.isName(kw))
      return true;
  return t.isOp("@");
}

} // namespace

// A `match` soft keyword starts a statement only as the header of a block:
// the logical line ends with ':' and an indented block follows.
bool Parser::isMatchStatement() const {
  if (!atKeyword("match"))
    return false;
  size_t i = pos_ + 1;
  while (i < toks_.size() && !toks_[i].is(TokenKind::Newline) &&
         !toks_[i].is(TokenKind::EndOfFile))
    ++i;
  return i + 1 < toks_.size() && toks_[i - 1].isOp(":") &&
         toks_[i].is(TokenKind::Newline) &&
         toks_[i + 1].is(TokenKind::Indent) && i > pos_ + 2;
}

// statement: compound_stmt | simple_stmts
// compound_stmt: function_def | if_stmt | for_stmt | while_stmt
//              | with_stmt | try_stmt | class_def | async_stmt | match_stmt
bool Parser::parseStatement(Block &out) {
  const Token &t = tok();
  StmtPtr stmt;
  links_ = 0;
  if (t.is(TokenKind::Indent))
    return errorAt(t, "unexpected indent"), false;
  if (t.isOp("@"))
    stmt = parseDecorated();
  else if (t.isName("if"))
    stmt = parseIf();
  else if (t.isName("for"))
    stmt = parseFor();
  else if (t.isName("while"))
    stmt = parseWhile();
  else if (t.isName("def"))
    stmt = parseFunctionDef({});
  else if (t.isName("with") || t.isName("try") || t.isName("class") ||
           t.isName("async"))
    stmt = parseUnsupportedCompound(t.text);
  else if (isMatchStatement())
    stmt = parseUnsupportedCompound("match");
  else if (t.isName("elif"))
    return errorAt(t, "'elif' without a matching 'if'"), false;
  else if (t.isName("else"))
    return errorAt(t, "'else' without a matching 'if', 'for', 'while' or "
                      "'try'"),
           false;
  else if (t.isName("except") || t.isName("finally"))
    return errorAt(t, "'" + t.text + "' without a matching 'try'"), false;
  else
    return parseSimpleStatements(out);
  if (!stmt)
    return false;
  out.push_back(std::move(stmt));
  return true;
}

// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
bool Parser::parseSimpleStatements(Block &out) {
  while (true) {
    StmtPtr stmt = parseSmallStatement();
    if (!stmt)
      return false;
    out.push_back(std::move(stmt));
    if (!consumeOp(";") || atLineEnd())
      break;
  }
  if (tok().is(TokenKind::Newline)) {
    advance();
    return true;
  }
  if (atEnd())
    return true;
  errorAt(tok(), "expected end of line after statement, found " +
                     describeToken(tok()));
  return false;
}

// simple_stmt: assignment | star_expressions | return_stmt | assert_stmt
//            | 'pass' | 'break' | 'continue'
//            | del_stmt | global_stmt | nonlocal_stmt | import_stmt
//            | raise_stmt | yield_stmt                  (unsupported)
StmtPtr Parser::parseSmallStatement() {
  size_t start = pos_;
  links_ = 0;
  const Token &t = tok();
  if (t.isName("pass") || t.isName("break") || t.isName("continue")) {
    StmtKind kind = t.isName("pass")    ? StmtKind::Pass
                    : t.isName("break") ? StmtKind::Break
                                        : StmtKind::Continue;
    advance();
    return std::make_unique<SimpleStmt>(kind, rangeFrom(start));
  }
  if (t.isName("return"))
    return parseReturn();
  if (t.isName("assert"))
    return parseAssert();
  for (std::string_view kw :
       {"del", "global", "nonlocal", "import", "from", "raise", "yield"})
    if (t.isName(kw))
      return parseUnsupportedSimple();
  if (t.isName("type") && peekTok().is(TokenKind::Name) &&
      !isKeyword(peekTok().text)) // `type X = ...` (3.12 type alias)
    return parseUnsupportedSimple();
  return parseExprOrAssign();
}

StmtPtr Parser::parseUnsupportedSimple() {
  size_t start = pos_;
  std::string what = tok().text;
  advance();
  skipSmallStatement();
  return std::make_unique<UnsupportedStmt>(rangeFrom(start), std::move(what));
}

StmtPtr Parser::parseUnsupportedCompound(std::string what) {
  size_t start = pos_;
  skipCompoundStatement();
  return std::make_unique<UnsupportedStmt>(rangeFrom(start), std::move(what));
}

// assignment: NAME ':' expression ['=' annotated_rhs]
//           | single_target ':' expression ['=' annotated_rhs]
//           | (star_targets '=')+ (yield_expr | star_expressions)
//           | single_target augassign (yield_expr | star_expressions)
// expression statement: star_expressions
StmtPtr Parser::parseExprOrAssign() {
  size_t start = pos_;
  ExprPtr first = parseAssignValue();
  if (!first)
    return nullptr;

  if (atOp(":")) {
    ExprKind k = first->kind;
    if (k == ExprKind::Tuple || k == ExprKind::List)
      return error(first->loc(), std::string("only single target (not ") +
                                     (k == ExprKind::Tuple ? "tuple" : "list") +
                                     ") can be annotated");
    if (k != ExprKind::Name && k != ExprKind::Attribute &&
        k != ExprKind::Subscript)
      return error(first->loc(), "illegal target for annotation");
    advance();
    auto stmt = std::make_unique<AnnAssignStmt>(SourceRange{});
    stmt->target = std::move(first);
    if (!(stmt->annotation = parseExpression()))
      return nullptr;
    if (consumeOp("=") && !(stmt->value = parseAssignValue()))
      return nullptr;
    stmt->range = rangeFrom(start);
    return stmt;
  }

  BinOpKind op;
  if (augAssignOp(tok(), op)) {
    ExprKind k = first->kind;
    if (k != ExprKind::Name && k != ExprKind::Attribute &&
        k != ExprKind::Subscript)
      return error(first->loc(), std::string("'") + exprDescription(*first) +
                                     "' is an illegal expression for "
                                     "augmented assignment");
    advance();
    ExprPtr value = parseAssignValue();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(rangeFrom(start), std::move(first),
                                           op, std::move(value));
  }

  if (atOp("=")) {
    auto stmt = std::make_unique<AssignStmt>(SourceRange{});
    if (!checkTarget(*first, false))
      return nullptr;
    stmt->targets.push_back(std::move(first));
    while (consumeOp("=")) {
      ExprPtr value = parseAssignValue();
      if (!value)
        return nullptr;
      if (atOp("=")) { // a = b = value: b is one more target
        if (!checkTarget(*value, false))
          return nullptr;
        stmt->targets.push_back(std::move(value));
        continue;
      }
      if (value->kind == ExprKind::Starred)
        return error(value->loc(), "cannot use starred expression here");
      stmt->value = std::move(value);
    }
    stmt->range = rangeFrom(start);
    return stmt;
  }

  if (first->kind == ExprKind::Starred)
    return error(first->loc(), "cannot use starred expression here");
  return std::make_unique<ExprStmt>(rangeFrom(start), std::move(first));
}

// annotated_rhs: yield_expr | star_expressions
// A lone starred expression is legal only as (part of) a target, where
// checkTarget judges it; as a value it is rejected by the caller.
ExprPtr Parser::parseAssignValue() {
  if (atKeyword("yield"))
    return parseYield();
  return parseStarExpressions();
}

// star_targets: star_target (',' star_target)* [',']
// star_target: '*'? (t_primary '.' NAME | t_primary '[' slices ']'
//                   | NAME | '(' star_targets ')' | '[' star_targets ']')
bool Parser::checkTarget(const Expr &target, bool starredOk) {
  switch (target.kind) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript:
    return true;
  case ExprKind::Tuple:
  case ExprKind::List: {
    const auto &elts = target.kind == ExprKind::Tuple
                           ? static_cast<const TupleExpr &>(target).elts
                           : static_cast<const ListExpr &>(target).elts;
    bool sawStar = false;
    for (const ExprPtr &elt : elts) {
      if (elt->kind == ExprKind::Starred) {
        if (sawStar)
          return error(elt->loc(),
                       "multiple starred expressions in assignment"),
                 false;
        sawStar = true;
      }
      if (!checkTarget(*elt, true))
        return false;
    }
    return true;
  }
  case ExprKind::Starred: {
    const auto &star = static_cast<const StarredExpr &>(target);
    if (!starredOk || star.doubleStar)
      return error(target.loc(),
                   "starred assignment target must be in a list or tuple"),
             false;
    return checkTarget(*star.value, false);
  }
  default:
    return error(target.loc(),
                 std::string("cannot assign to ") + exprDescription(target)),
           false;
  }
}

// block: NEWLINE INDENT statement+ DEDENT | simple_stmts
bool Parser::parseBlock(Block &out, const Token &header,
                        std::string_view what) {
  if (tok().is(TokenKind::Newline)) {
    advance();
    if (!tok().is(TokenKind::Indent)) {
      SourceLoc loc = atEnd() ? errorLoc(tok()) : tok().loc;
      return error(loc, "expected an indented block after " +
                            std::string(what) + " on line " +
                            std::to_string(header.loc.line)),
             false;
    }
    DepthGuard guard(*this);
    if (!guard.ok())
      return false;
    advance();
    while (!tok().is(TokenKind::Dedent) && !atEnd())
      if (!parseStatement(out))
        return false;
    if (tok().is(TokenKind::Dedent))
      advance();
    return true;
  }
  if (atEnd())
    return errorAt(tok(), "expected a statement after ':'"), false;
  if (isCompoundKeyword(tok()))
    return errorAt(tok(), "a '" + tok().text +
                              "' statement cannot follow ':' on the same "
                              "line; put it on its own indented line"),
           false;
  return parseSimpleStatements(out);
}

// if_stmt: 'if' named_expression ':' block
//          ('elif' named_expression ':' block)* ['else' ':' block]
StmtPtr Parser::parseIf() {
  // An elif chain is built iteratively (each elif is the single statement of
  // the previous orelse) so a long chain costs no recursion.
  std::vector<std::pair<IfStmt *, size_t>> chain;
  StmtPtr root;
  Block *slot = nullptr;
  do {
    const Token &kw = tok();
    std::string kwText = kw.text;
    size_t start = pos_;
    advance();
    auto stmt = std::make_unique<IfStmt>(SourceRange{});
    if (!(stmt->test = parseNamedExpression()))
      return nullptr;
    if (!expectOp(":", "after '" + kwText + "' condition") ||
        !parseBlock(stmt->body, kw, "'" + kwText + "' statement"))
      return nullptr;
    if (chain.size() > kMaxChain) // the if and kMaxChain elifs
      return error(toks_[start].loc, "too many 'elif' branches: more than " +
                                         std::to_string(kMaxChain));
    chain.emplace_back(stmt.get(), start);
    IfStmt *raw = stmt.get();
    if (slot)
      slot->push_back(std::move(stmt));
    else
      root = std::move(stmt);
    slot = &raw->orelse;
  } while (atKeyword("elif"));
  if (!parseOptionalElse(*slot))
    return nullptr;
  for (auto &[stmt, start] : chain)
    stmt->range = rangeFrom(start);
  return root;
}

// for_stmt: 'for' star_targets 'in' star_expressions ':' block
//           ['else' ':' block]
StmtPtr Parser::parseFor() {
  const Token &kw = tok();
  size_t start = pos_;
  advance();
  auto stmt = std::make_unique<ForStmt>(SourceRange{});
  if (!(stmt->target = parseStarTargets()) ||
      !checkTarget(*stmt->target, false))
    return nullptr;
  if (!consumeKeyword("in"))
    return errorAt(tok(), "expected 'in' after 'for' target, found " +
                              describeToken(tok()));
  if (!(stmt->iter = parseStarExpressions()))
    return nullptr;
  if (!expectOp(":", "after 'for' iterable") ||
      !parseBlock(stmt->body, kw, "'for' statement"))
    return nullptr;
  if (!parseOptionalElse(stmt->orelse))
    return nullptr;
  stmt->range = rangeFrom(start);
  return stmt;
}

// else_block: 'else' ':' block   (optional; false only on a syntax error)
bool Parser::parseOptionalElse(Block &out) {
  if (!atKeyword("else"))
    return true;
  const Token &kw = tok();
  advance();
  return expectOp(":", "after 'else'") && parseBlock(out, kw, "'else' statement");
}

// while_stmt: 'while' named_expression ':' block ['else' ':' block]
StmtPtr Parser::parseWhile() {
  const Token &kw = tok();
  size_t start = pos_;
  advance();
  auto stmt = std::make_unique<WhileStmt>(SourceRange{});
  if (!(stmt->test = parseNamedExpression()))
    return nullptr;
  if (!expectOp(":", "after 'while' condition") ||
      !parseBlock(stmt->body, kw, "'while' statement"))
    return nullptr;
  if (!parseOptionalElse(stmt->orelse))
    return nullptr;
  stmt->range = rangeFrom(start);
  return stmt;
}

// return_stmt: 'return' [star_expressions]
StmtPtr Parser::parseReturn() {
  size_t start = pos_;
  advance();
  auto stmt = std::make_unique<ReturnStmt>(SourceRange{});
  if (!atLineEnd() && !atOp(";")) {
    if (!(stmt->value = parseStarExpressions()))
      return nullptr;
    if (stmt->value->kind == ExprKind::Starred)
      return error(stmt->value->loc(), "cannot use starred expression here");
  }
  stmt->range = rangeFrom(start);
  return stmt;
}

// assert_stmt: 'assert' expression [',' expression]
StmtPtr Parser::parseAssert() {
  size_t start = pos_;
  advance();
  auto stmt = std::make_unique<AssertStmt>(SourceRange{});
  if (!(stmt->test = parseExpression()))
    return nullptr;
  if (consumeOp(",") && !(stmt->msg = parseExpression()))
    return nullptr;
  stmt->range = rangeFrom(start);
  return stmt;
}

// decorators: ('@' named_expression NEWLINE)+
// decorated: decorators (function_def | class_def)
StmtPtr Parser::parseDecorated() {
  std::vector<ExprPtr> decorators;
  while (consumeOp("@")) {
    ExprPtr deco = parseNamedExpression();
    if (!deco)
      return nullptr;
    if (!tok().is(TokenKind::Newline))
      return errorAt(tok(), "expected end of line after decorator, found " +
                                describeToken(tok()));
    advance();
    decorators.push_back(std::move(deco));
  }
  if (atKeyword("def"))
    return parseFunctionDef(std::move(decorators));
  if (atKeyword("class") || atKeyword("async"))
    return parseUnsupportedCompound(tok().text);
  return errorAt(tok(), "expected 'def' or 'class' after decorator, found " +
                            describeToken(tok()));
}

// function_def: 'def' NAME '(' [params] ')' ['->' expression] ':' block
std::unique_ptr<FunctionDef>
Parser::parseFunctionDef(std::vector<ExprPtr> decorators) {
  const Token &kw = tok();
  size_t start = pos_;
  advance();
  if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
    return errorAt(tok(), "expected function name after 'def', found " +
                              describeToken(tok()));
  auto fn = std::make_unique<FunctionDef>(SourceRange{});
  fn->name = tok().text;
  fn->nameLoc = tok().loc;
  fn->decorators = std::move(decorators);
  advance();
  if (!expectOp("(", "after function name") ||
      !parseParams(fn->params, ")", true))
    return nullptr;
  if (consumeOp("->") && !(fn->returns = parseExpression()))
    return nullptr;
  if (!expectOp(":", "after function signature") ||
      !parseBlock(fn->body, kw, "function definition"))
    return nullptr;
  // A leading plain string is the docstring, not code.
  if (!fn->body.empty() && fn->body.front()->kind == StmtKind::Expr) {
    auto &first = static_cast<ExprStmt &>(*fn->body.front());
    if (first.value->kind == ExprKind::Str) {
      auto &str = static_cast<StrExpr &>(*first.value);
      if (!str.isBytes && !str.isFString) {
        fn->docstring = str.value;
        fn->body.erase(fn->body.begin());
      }
    }
  }
  fn->range = rangeFrom(start);
  return fn;
}

// params: ','.param+ [','], each param one of
//   NAME [':' expression] ['=' expression]  |  '/'  |  '*'
//   '*' NAME [':' expression]  |  '**' NAME [':' expression]
// followed by `closer` (')' for def, ':' for lambda, which has no annotations).
bool Parser::parseParams(std::vector<Param> &params, std::string_view closer,
                         bool annotations) {
  bool keywordOnly = false, sawDefault = false, sawKwArgs = false;
  bool sawSlash = false;
  const Token *bareStar = nullptr;
  while (!atOp(closer)) {
    if (sawKwArgs)
      return errorAt(tok(), "no parameter may follow the '**' parameter"),
             false;
    if (atOp("/")) {
      if (sawSlash || keywordOnly || params.empty())
        return errorAt(tok(), "'/' must follow at least one parameter and "
                              "come before '*'"),
               false;
      sawSlash = true;
      advance();
      if (!consumeOp(","))
        break;
      continue;
    }
    Param param;
    if (atOp("**")) {
      advance();
      param.isKwArgs = true;
      sawKwArgs = true;
    } else if (atOp("*")) {
      if (keywordOnly)
        return errorAt(tok(), "'*' may appear only once in a parameter list"),
               false;
      const Token &star = tok();
      advance();
      keywordOnly = true;
      if (atOp(",") || atOp(closer)) {
        bareStar = &star;
        if (!consumeOp(","))
          break;
        continue;
      }
      param.isVarArgs = true;
    } else {
      param.isKeywordOnly = keywordOnly;
    }
    if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
      return errorAt(tok(),
                     "expected parameter name, found " + describeToken(tok())),
             false;
    param.name = tok().text;
    param.loc = tok().loc;
    for (const Param &other : params)
      if (other.name == param.name)
        return error(param.loc, "duplicate parameter '" + param.name +
                                    "' in function definition"),
               false;
    advance();
    if (param.isKeywordOnly || (!param.isVarArgs && !param.isKwArgs))
      bareStar = nullptr;
    if (annotations && consumeOp(":") &&
        !(param.annotation = parseExpression()))
      return false;
    if (!param.isVarArgs && !param.isKwArgs && consumeOp("=")) {
      if (!(param.defaultValue = parseExpression()))
        return false;
      sawDefault = true;
    } else if (sawDefault && !keywordOnly && !param.isVarArgs &&
               !param.isKwArgs) {
      return error(param.loc, "parameter without a default follows "
                              "parameter with a default"),
             false;
    }
    params.push_back(std::move(param));
    if (!consumeOp(","))
      break;
  }
  if (bareStar)
    return error(bareStar->loc, "named parameters must follow bare '*'"), false;
  return expectOp(closer, closer == ")" ? "to close the parameter list"
                                        : "after lambda parameters");
}

} // namespace tritium::fe

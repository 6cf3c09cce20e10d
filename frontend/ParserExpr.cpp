//===- ParserExpr.cpp - expressions ---------------------------------------===//
//
// The expression half of the recursive-descent Parser, one function per
// precedence level of Python's grammar (lambda, ternary, or, and, not,
// comparisons, the binary operators by precedence climbing, unary, '**',
// await, primaries, atoms; the bracketed displays are in ParserDisplay.cpp).
// Forms that kernels cannot use but host code is full of -- yield, await,
// ':=' -- become an OtherExpr naming the form.
//
// Ranges follow CPython: a node starts at its first token and ends at its
// last, so `(a + b) * c` starts at the '(' while the inner `a + b` does not.
// Recursion happens only through brackets and the right-recursive rules
// (unary, not, '**', ternary else, lambda), and each of those passes a
// DepthGuard, so nesting is bounded. The loops that wrap their previous
// result (left-associative operators, trailers) count links against
// kMaxChain, so the depth of the tree they build is bounded too.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"

#include <charconv>
#include <cstdlib>

namespace tritium::fe {

namespace {

struct BinOpInfo {
  BinOpKind kind;
  int prec;
};

// | ^ & (<< >>) (+ -) (* / // % @), loosest first.
bool binaryOp(const Token &t, BinOpInfo &info) {
  static const std::pair<std::string_view, BinOpInfo> kOps[] = {
      {"|", {BinOpKind::BitOr, 1}},   {"^", {BinOpKind::BitXor, 2}},
      {"&", {BinOpKind::BitAnd, 3}},  {"<<", {BinOpKind::LShift, 4}},
      {">>", {BinOpKind::RShift, 4}}, {"+", {BinOpKind::Add, 5}},
      {"-", {BinOpKind::Sub, 5}},     {"*", {BinOpKind::Mul, 6}},
      {"/", {BinOpKind::Div, 6}},     {"//", {BinOpKind::FloorDiv, 6}},
      {"%", {BinOpKind::Mod, 6}},     {"@", {BinOpKind::MatMul, 6}}};
  if (!t.is(TokenKind::Op))
    return false;
  for (const auto &[text, op] : kOps) {
    if (t.text == text) {
      info = op;
      return true;
    }
  }
  return false;
}

std::string withoutUnderscores(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c != '_')
      out += c;
  return out;
}

double parseDouble(const std::string &text) {
  double value = 0;
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  (void)ptr;
  // from_chars leaves out-of-range values unset; strtod yields the inf or 0
  // that Python gives for 1e999 / 1e-999.
  if (ec == std::errc::result_out_of_range)
    value = std::strtod(text.c_str(), nullptr);
  return value;
}

} // namespace

bool Parser::startsExpression(const Token &t) const {
  switch (t.kind) {
  case TokenKind::Name:
    return !isKeyword(t.text) || t.text == "True" || t.text == "False" ||
           t.text == "None" || t.text == "not" || t.text == "lambda" ||
           t.text == "await";
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::Imaginary:
  case TokenKind::String:
    return true;
  case TokenKind::Op:
    return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" ||
           t.text == "+" || t.text == "~" || t.text == "*" || t.text == "...";
  default:
    return false;
  }
}

bool Parser::atComprehensionFor() const {
  return atKeyword("for") || (atKeyword("async") && peekTok().isName("for"));
}

// star_expressions: star_expression (',' star_expression)* [',']
// star_expression: '*' bitwise_or | expression
ExprPtr Parser::parseStarExpressions() {
  size_t start = pos_;
  auto parseOne = [this]() -> ExprPtr {
    if (!atOp("*"))
      return parseExpression();
    size_t starStart = pos_;
    advance();
    ExprPtr value = parseBinary(1);
    if (!value)
      return nullptr;
    return std::make_unique<StarredExpr>(rangeFrom(starStart),
                                         std::move(value));
  };
  ExprPtr first = parseOne();
  if (!first || !atOp(","))
    return first;
  auto tuple = std::make_unique<TupleExpr>(SourceRange{});
  tuple->elts.push_back(std::move(first));
  while (consumeOp(",") && startsExpression(tok())) {
    ExprPtr elt = parseOne();
    if (!elt)
      return nullptr;
    tuple->elts.push_back(std::move(elt));
  }
  tuple->range = rangeFrom(start);
  return tuple;
}

// star_named_expression: '*' bitwise_or | named_expression
ExprPtr Parser::parseStarNamedExpression() {
  if (!atOp("*"))
    return parseNamedExpression();
  size_t start = pos_;
  advance();
  ExprPtr value = parseBinary(1);
  if (!value)
    return nullptr;
  return std::make_unique<StarredExpr>(rangeFrom(start), std::move(value));
}

// star_targets: star_target (',' star_target)* [',']
// star_target: ['*'] t_primary-or-atom; the comparison levels are not
// entered, so the 'in' of a for loop is not taken for an operator.
ExprPtr Parser::parseStarTargets() {
  size_t start = pos_;
  auto parseOne = [this]() -> ExprPtr {
    if (!atOp("*"))
      return parsePrimary();
    size_t starStart = pos_;
    advance();
    ExprPtr value = parsePrimary();
    if (!value)
      return nullptr;
    return std::make_unique<StarredExpr>(rangeFrom(starStart),
                                         std::move(value));
  };
  ExprPtr first = parseOne();
  if (!first || !atOp(","))
    return first;
  auto tuple = std::make_unique<TupleExpr>(SourceRange{});
  tuple->elts.push_back(std::move(first));
  while (consumeOp(",") &&
         (tok().is(TokenKind::Name) ? !isKeyword(tok().text)
                                    : startsExpression(tok()))) {
    ExprPtr elt = parseOne();
    if (!elt)
      return nullptr;
    tuple->elts.push_back(std::move(elt));
  }
  tuple->range = rangeFrom(start);
  return tuple;
}

// named_expression: NAME ':=' expression | expression
ExprPtr Parser::parseNamedExpression() {
  size_t start = pos_;
  if (tok().is(TokenKind::Name) && !isKeyword(tok().text) &&
      peekTok().isOp(":=")) {
    advance();
    advance();
    if (!parseExpression())
      return nullptr;
    return std::make_unique<OtherExpr>(rangeFrom(start),
                                       "assignment expression");
  }
  ExprPtr e = parseExpression();
  if (e && atOp(":="))
    return errorAt(tok(), std::string("cannot use an assignment expression "
                                      "(':=') with this target; it needs a "
                                      "plain name"));
  return e;
}

// expression: disjunction 'if' disjunction 'else' expression
//           | disjunction | lambdef
ExprPtr Parser::parseExpression() {
  if (atKeyword("lambda"))
    return parseLambda();
  size_t start = pos_;
  ExprPtr body = parseDisjunction();
  if (!body || !atKeyword("if"))
    return body;
  advance();
  ExprPtr test = parseDisjunction();
  if (!test)
    return nullptr;
  if (!consumeKeyword("else"))
    return errorAt(tok(), "expected 'else' after 'if' expression, found " +
                              describeToken(tok()));
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  ExprPtr orelse = parseExpression();
  if (!orelse)
    return nullptr;
  return std::make_unique<IfExpExpr>(rangeFrom(start), std::move(test),
                                     std::move(body), std::move(orelse));
}

// lambdef: 'lambda' [lambda_params] ':' expression
// Only the extent matters (kernels reject lambdas), so the body is parsed
// for correctness and dropped.
ExprPtr Parser::parseLambda() {
  size_t start = pos_;
  advance();
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  std::vector<Param> params;
  if (!parseParams(params, ":", false) || !parseExpression())
    return nullptr;
  return std::make_unique<LambdaExpr>(rangeFrom(start));
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
ExprPtr Parser::parseYield() {
  size_t start = pos_;
  advance();
  if (consumeKeyword("from")) {
    if (!parseExpression())
      return nullptr;
  } else if (startsExpression(tok()) && !parseStarExpressions()) {
    return nullptr;
  }
  return std::make_unique<OtherExpr>(rangeFrom(start), "yield expression");
}

// disjunction: conjunction ('or' conjunction)*
ExprPtr Parser::parseDisjunction() {
  return parseBoolChain(BoolOpKind::Or, "or", &Parser::parseConjunction);
}

// conjunction: inversion ('and' inversion)*
ExprPtr Parser::parseConjunction() {
  return parseBoolChain(BoolOpKind::And, "and", &Parser::parseInversion);
}

// operand (keyword operand)*, collected into one BoolOpExpr
ExprPtr Parser::parseBoolChain(BoolOpKind kind, const char *keyword,
                               ExprPtr (Parser::*operand)()) {
  size_t start = pos_;
  ExprPtr first = (this->*operand)();
  if (!first || !atKeyword(keyword))
    return first;
  auto op = std::make_unique<BoolOpExpr>(SourceRange{}, kind);
  op->values.push_back(std::move(first));
  while (consumeKeyword(keyword)) {
    ExprPtr value = (this->*operand)();
    if (!value)
      return nullptr;
    op->values.push_back(std::move(value));
  }
  op->range = rangeFrom(start);
  return op;
}

// inversion: 'not' inversion | comparison
ExprPtr Parser::parseInversion() {
  if (!atKeyword("not"))
    return parseComparison();
  size_t start = pos_;
  advance();
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  ExprPtr operand = parseInversion();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryOpExpr>(rangeFrom(start), UnaryOpKind::Not,
                                       std::move(operand));
}

// comparison: bitwise_or (compare_op bitwise_or)*
// compare_op: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not' 'in'
//           | 'is' | 'is' 'not'
ExprPtr Parser::parseComparison() {
  size_t start = pos_;
  ExprPtr lhs = parseBinary(1);
  if (!lhs)
    return nullptr;
  std::unique_ptr<CompareExpr> cmp;
  while (true) {
    const Token &t = tok();
    SourceLoc opLoc = t.loc;
    CmpOpKind op;
    if (t.isOp("<"))
      op = CmpOpKind::Lt;
    else if (t.isOp("<="))
      op = CmpOpKind::Le;
    else if (t.isOp(">"))
      op = CmpOpKind::Gt;
    else if (t.isOp(">="))
      op = CmpOpKind::Ge;
    else if (t.isOp("=="))
      op = CmpOpKind::Eq;
    else if (t.isOp("!="))
      op = CmpOpKind::Ne;
    else if (t.isName("in"))
      op = CmpOpKind::In;
    else if (t.isName("not") && peekTok().isName("in")) {
      op = CmpOpKind::NotIn;
      advance();
    } else if (t.isName("is")) {
      op = CmpOpKind::Is;
      if (peekTok().isName("not")) {
        op = CmpOpKind::IsNot;
        advance();
      }
    } else {
      break;
    }
    advance();
    if (!cmp)
      cmp = std::make_unique<CompareExpr>(SourceRange{}, std::move(lhs));
    ExprPtr rhs = parseBinary(1);
    if (!rhs)
      return nullptr;
    cmp->ops.push_back(op);
    cmp->opLocs.push_back(opLoc);
    cmp->comparators.push_back(std::move(rhs));
  }
  if (!cmp)
    return lhs;
  cmp->range = rangeFrom(start);
  return cmp;
}

// bitwise_or .. term: left-associative binary operators by precedence
// climbing; the right operand binds one level tighter than the operator.
ExprPtr Parser::parseBinary(int minPrec) {
  size_t start = pos_;
  ExprPtr lhs = parseFactor();
  if (!lhs)
    return nullptr;
  BinOpInfo info;
  while (binaryOp(tok(), info) && info.prec >= minPrec) {
    if (!addLink())
      return nullptr;
    SourceLoc opLoc = tok().loc;
    advance();
    ExprPtr rhs = parseBinary(info.prec + 1);
    if (!rhs)
      return nullptr;
    auto bin = std::make_unique<BinOpExpr>(rangeFrom(start), info.kind,
                                           std::move(lhs), std::move(rhs));
    bin->opLoc = opLoc;
    lhs = std::move(bin);
  }
  return lhs;
}

// factor: '+' factor | '-' factor | '~' factor | power
ExprPtr Parser::parseFactor() {
  UnaryOpKind op;
  if (atOp("-"))
    op = UnaryOpKind::Neg;
  else if (atOp("+"))
    op = UnaryOpKind::Pos;
  else if (atOp("~"))
    op = UnaryOpKind::Invert;
  else
    return parsePower();
  size_t start = pos_;
  advance();
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryOpExpr>(rangeFrom(start), op,
                                       std::move(operand));
}

// power: await_primary ['**' factor]
// await_primary: 'await' primary | primary
// The exponent is a factor, so -2**2 is -(2**2) and 2**-1 is 2**(-1).
ExprPtr Parser::parsePower() {
  size_t start = pos_;
  ExprPtr base;
  if (consumeKeyword("await")) {
    if (!parsePrimary())
      return nullptr;
    base = std::make_unique<OtherExpr>(rangeFrom(start), "await expression");
  } else if (!(base = parsePrimary())) {
    return nullptr;
  }
  if (!atOp("**"))
    return base;
  SourceLoc opLoc = tok().loc;
  advance();
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  auto bin = std::make_unique<BinOpExpr>(rangeFrom(start), BinOpKind::Pow,
                                         std::move(base), std::move(exponent));
  bin->opLoc = opLoc;
  return bin;
}

// primary: atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')*
ExprPtr Parser::parsePrimary() {
  DepthGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  size_t start = pos_;
  ExprPtr e = parseAtom();
  while (e && (atOp(".") || atOp("(") || atOp("["))) {
    if (!addLink())
      return nullptr;
    if (consumeOp(".")) {
      if (!tok().is(TokenKind::Name) || isKeyword(tok().text))
        return errorAt(tok(), "expected attribute name after '.', found " +
                                  describeToken(tok()));
      SourceLoc attrLoc = tok().loc;
      std::string attr = tok().text;
      advance();
      auto node =
          std::make_unique<AttributeExpr>(rangeFrom(start), std::move(e), attr);
      node->attrLoc = attrLoc;
      e = std::move(node);
    } else if (atOp("(")) {
      e = parseCall(std::move(e), start);
    } else {
      e = parseSubscript(std::move(e), start);
    }
  }
  return e;
}

// atom: NAME | 'True' | 'False' | 'None' | '...' | STRING+ | NUMBER
//     | tuple | group | genexp | list | listcomp | dict | set | comps
ExprPtr Parser::parseAtom() {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Name:
    if (t.text == "True" || t.text == "False") {
      advance();
      return std::make_unique<BoolExpr>(t.range(), t.text == "True");
    }
    if (t.text == "None") {
      advance();
      return std::make_unique<NoneExpr>(t.range());
    }
    if (isKeyword(t.text))
      break;
    advance();
    return std::make_unique<NameExpr>(t.range(), t.text);
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::Imaginary:
    return parseNumber();
  case TokenKind::String:
    return parseStrings();
  case TokenKind::Op:
    if (t.text == "(")
      return parseParenthesized();
    if (t.text == "[")
      return parseListDisplay();
    if (t.text == "{")
      return parseBraceDisplay();
    if (t.text == "...") {
      advance();
      return std::make_unique<EllipsisExpr>(t.range());
    }
    break;
  default:
    break;
  }
  return errorAt(t, "expected an expression, found " + describeToken(t));
}

ExprPtr Parser::parseNumber() {
  const Token &t = tok();
  advance();
  std::string digits = withoutUnderscores(t.text);
  if (t.is(TokenKind::Int)) {
    auto node = std::make_unique<IntExpr>(t.range());
    node->text = t.text;
    unsigned base = 10;
    size_t i = 0;
    if (digits.size() > 1 && digits[0] == '0') {
      char p = char(digits[1] | 0x20);
      base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
      i = base == 10 ? 0 : 2;
    }
    uint64_t value = 0;
    for (; i < digits.size(); ++i) {
      char c = digits[i];
      unsigned d =
          c <= '9' ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
      if (value > (UINT64_MAX - d) / base) {
        node->overflow = true;
        value = 0;
        break;
      }
      value = value * base + d;
    }
    node->value = value;
    return node;
  }
  bool imaginary = t.is(TokenKind::Imaginary);
  if (imaginary)
    digits.pop_back(); // the j
  auto node = std::make_unique<FloatExpr>(t.range(), parseDouble(digits));
  node->imaginary = imaginary;
  return node;
}

// strings: STRING+ (adjacent literals concatenate; bytes and str don't mix)
ExprPtr Parser::parseStrings() {
  size_t start = pos_;
  bool isBytes = tok().isBytes;
  bool isFString = false;
  std::string value;
  while (tok().is(TokenKind::String)) {
    if (tok().isBytes != isBytes)
      return errorAt(tok(), "cannot mix bytes and nonbytes literals");
    value += tok().value;
    isFString |= tok().isFString;
    advance();
  }
  auto node = std::make_unique<StrExpr>(rangeFrom(start), std::move(value));
  node->isBytes = isBytes;
  node->isFString = isFString;
  return node;
}

// arguments: ','.(starred_expression | named_expression | NAME '=' expression
//                 | '**' expression)+ [',']
// A lone generator expression may stand unparenthesized: f(x for x in y).
ExprPtr Parser::parseCall(ExprPtr func, size_t startTok) {
  size_t open = pos_;
  advance();
  auto call = std::make_unique<CallExpr>(SourceRange{}, std::move(func));
  bool sawKeyword = false, sawDoubleStar = false;
  while (!atOp(")")) {
    size_t argStart = pos_;
    if (atOp("*")) {
      advance();
      ExprPtr value = parseExpression();
      if (!value)
        return nullptr;
      if (sawDoubleStar)
        return error(toks_[argStart].loc, "iterable argument unpacking "
                                          "follows keyword argument "
                                          "unpacking");
      call->args.push_back(
          std::make_unique<StarredExpr>(rangeFrom(argStart), std::move(value)));
    } else if (atOp("**") ||
               (tok().is(TokenKind::Name) && peekTok().isOp("="))) {
      Keyword kw;
      kw.loc = tok().loc;
      if (tok().is(TokenKind::Name)) {
        if (isKeyword(tok().text))
          return errorAt(tok(), "a keyword argument cannot be named '" +
                                    tok().text + "'");
        kw.name = tok().text;
        for (const Keyword &other : call->keywords)
          if (other.name == kw.name)
            return errorAt(tok(), "keyword argument repeated: " + kw.name);
        advance();
        sawKeyword = true;
      } else {
        sawDoubleStar = true;
      }
      advance();
      if (!(kw.value = parseExpression()))
        return nullptr;
      call->keywords.push_back(std::move(kw));
    } else {
      ExprPtr value = parseNamedExpression();
      if (!value)
        return nullptr;
      if (atComprehensionFor()) {
        size_t close =
            match_[open] == kNoMatch ? toks_.size() - 1 : match_[open];
        if (!call->args.empty() || !call->keywords.empty())
          return error(value->loc(), "generator expression must be "
                                     "parenthesized");
        for (size_t i = pos_; i < close; ++i) {
          if (match_[i] != kNoMatch)
            i = match_[i];
          else if (toks_[i].isOp(","))
            return error(value->loc(), "generator expression must be "
                                       "parenthesized");
        }
        pos_ = close;
        call->args.push_back(std::make_unique<OtherExpr>(
            rangeFrom(argStart), "generator expression"));
        break;
      }
      if (sawKeyword || sawDoubleStar)
        return error(value->loc(),
                     sawDoubleStar
                         ? "positional argument follows keyword argument "
                           "unpacking"
                         : "positional argument follows keyword argument");
      call->args.push_back(std::move(value));
    }
    if (!consumeOp(","))
      break;
  }
  if (!consumeOp(")"))
    return errorAt(tok(), "expected ',' or ')' in call arguments, found " +
                              describeToken(tok()));
  call->range = rangeFrom(startTok);
  return call;
}

// slices: slice | ','.(slice | starred_expression)+ [',']
// x[a, b] indexes with a Tuple of the items; x[a] with the item itself.
ExprPtr Parser::parseSubscript(ExprPtr value, size_t startTok) {
  advance();
  size_t indexStart = pos_;
  ExprPtr index = parseSliceItem();
  if (!index)
    return nullptr;
  if (atOp(",")) {
    auto tuple = std::make_unique<TupleExpr>(SourceRange{});
    tuple->elts.push_back(std::move(index));
    while (consumeOp(",") && !atOp("]")) {
      ExprPtr item = parseSliceItem();
      if (!item)
        return nullptr;
      tuple->elts.push_back(std::move(item));
    }
    tuple->range = rangeFrom(indexStart);
    index = std::move(tuple);
  }
  if (!consumeOp("]"))
    return errorAt(tok(), "expected ',' or ']' in subscript, found " +
                              describeToken(tok()));
  return std::make_unique<SubscriptExpr>(rangeFrom(startTok), std::move(value),
                                         std::move(index));
}

// slice: [expression] ':' [expression] [':' [expression]]
//      | named_expression | '*' bitwise_or
ExprPtr Parser::parseSliceItem() {
  size_t start = pos_;
  if (atOp("*"))
    return parseStarNamedExpression();
  ExprPtr lower;
  if (!atOp(":")) {
    lower = parseNamedExpression();
    if (!lower || !atOp(":"))
      return lower;
  }
  auto slice = std::make_unique<SliceExpr>(SourceRange{});
  slice->lower = std::move(lower);
  advance(); // ':'
  auto atBoundary = [this] { return atOp(",") || atOp("]"); };
  if (!atBoundary() && !atOp(":") && !(slice->upper = parseExpression()))
    return nullptr;
  if (consumeOp(":") && !atBoundary() && !(slice->step = parseExpression()))
    return nullptr;
  slice->range = rangeFrom(start);
  return slice;
}

} // namespace tritium::fe

//===- ParserDisplay.cpp - bracketed displays ------------------------------===//
//
// The atoms of the expression parser that open a bracket: parenthesized
// groups and tuples, lists and list comprehensions (kernels unroll those
// over compile-time tuples), and dict/set displays and generator
// expressions, which kernels cannot use: those become an OtherExpr naming
// the form, their insides skipped as a balanced bracket group.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"

namespace tritium::fe {

// tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
// group: '(' (yield_expr | named_expression) ')'
// genexp: '(' named_expression for_if_clauses ')'
ExprPtr Parser::parseParenthesized() {
  size_t open = pos_;
  advance();
  if (consumeOp(")"))
    return std::make_unique<TupleExpr>(rangeFrom(open));
  if (atKeyword("yield")) {
    pos_ = open;
    skipBracketed();
    return std::make_unique<OtherExpr>(rangeFrom(open), "yield expression");
  }
  ExprPtr first = parseStarNamedExpression();
  if (!first)
    return nullptr;
  if (atComprehensionFor()) {
    pos_ = open;
    skipBracketed();
    return std::make_unique<OtherExpr>(rangeFrom(open), "generator expression");
  }
  if (consumeOp(")")) {
    if (first->kind == ExprKind::Starred)
      return error(first->loc(), "cannot use starred expression here");
    return first; // a group keeps the range of what it encloses
  }
  if (!atOp(","))
    return errorAt(tok(), "expected ',' or ')', found " + describeToken(tok()));
  auto tuple = std::make_unique<TupleExpr>(SourceRange{});
  tuple->elts.push_back(std::move(first));
  while (consumeOp(",") && !atOp(")")) {
    ExprPtr elt = parseStarNamedExpression();
    if (!elt)
      return nullptr;
    tuple->elts.push_back(std::move(elt));
  }
  if (!consumeOp(")"))
    return errorAt(tok(), "expected ',' or ')' in tuple, found " +
                              describeToken(tok()));
  tuple->range = rangeFrom(open);
  return tuple;
}

// list: '[' [star_named_expressions] ']'
// listcomp: '[' named_expression for_if_clauses ']'
ExprPtr Parser::parseListDisplay() {
  size_t open = pos_;
  advance();
  auto list = std::make_unique<ListExpr>(SourceRange{});
  if (!atOp("]")) {
    ExprPtr first = parseStarNamedExpression();
    if (!first)
      return nullptr;
    if (atComprehensionFor())
      return parseListComprehension(open, std::move(first));
    list->elts.push_back(std::move(first));
    while (consumeOp(",") && !atOp("]")) {
      ExprPtr elt = parseStarNamedExpression();
      if (!elt)
        return nullptr;
      list->elts.push_back(std::move(elt));
    }
  }
  if (!consumeOp("]"))
    return errorAt(tok(), "expected ',' or ']' in list, found " +
                              describeToken(tok()));
  list->range = rangeFrom(open);
  return list;
}

// listcomp: '[' named_expression for_if_clauses ']', after `first`
// for_if_clauses: ('for' star_targets 'in' disjunction ('if' disjunction)*)+
// (async comprehensions are skipped whole).
ExprPtr Parser::parseListComprehension(size_t open, ExprPtr first) {
  if (atKeyword("async")) {
    pos_ = open;
    skipBracketed();
    return std::make_unique<OtherExpr>(rangeFrom(open), "async comprehension");
  }
  auto comp = std::make_unique<ListCompExpr>(SourceRange{});
  comp->elt = std::move(first);
  while (atKeyword("for")) {
    advance();
    ListCompExpr::Clause c;
    if (!(c.target = parseStarTargets()) || !checkTarget(*c.target, false))
      return nullptr;
    if (!consumeKeyword("in"))
      return errorAt(tok(), "expected 'in' after the comprehension's target, found " +
                                describeToken(tok()));
    if (!(c.iter = parseDisjunction()))
      return nullptr;
    while (atKeyword("if")) {
      advance();
      ExprPtr cond = parseDisjunction();
      if (!cond)
        return nullptr;
      c.ifs.push_back(std::move(cond));
    }
    comp->clauses.push_back(std::move(c));
  }
  if (!consumeOp("]"))
    return errorAt(tok(), "expected ']' after the list comprehension, found " +
                              describeToken(tok()));
  comp->range = rangeFrom(open);
  return comp;
}

// dict | set | dictcomp | setcomp: kernels use none of them, so the braces
// are skipped whole and only classified by their top-level tokens.
ExprPtr Parser::parseBraceDisplay() {
  size_t open = pos_;
  size_t close = match_[open] == kNoMatch ? toks_.size() - 1 : match_[open];
  bool isDict = open + 1 == close || toks_[open + 1].isOp("**");
  bool isComp = false;
  for (size_t i = open + 1; i < close; ++i) {
    if (match_[i] != kNoMatch) {
      i = match_[i];
      continue;
    }
    if (toks_[i].isOp(":") && !isComp)
      isDict = true;
    if (toks_[i].isName("for"))
      isComp = true;
  }
  skipBracketed();
  std::string what = std::string(isDict ? "dict" : "set") +
                     (isComp ? " comprehension" : " display");
  return std::make_unique<OtherExpr>(rangeFrom(open), std::move(what));
}

} // namespace tritium::fe

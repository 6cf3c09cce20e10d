//===- Lexer.cpp - Python 3 tokenizer for kernel source files -------------===//
//
// Implements Lexer.h. The scan mirrors CPython's tokenizer: an indentation
// stack measured with tabs to multiples of 8 (and a second measure with tabs
// as 1 column, to reject ambiguous tab/space mixes the way Python does), a
// bracket stack that suppresses NEWLINE/INDENT/DEDENT inside (), [] and {},
// and scanners for names, operators and every numeric literal form (string
// literals are in LexerString.cpp). Every read goes through bounds checks,
// and every error stops the scan with a Diagnostic at the exact offending
// offset rather than guessing at recovery.
//
//===----------------------------------------------------------------------===//
#include "frontend/Lexer.h"

#include <array>
#include <cstdio>

namespace tritium::fe {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
char toLower(char c) { return (c >= 'A' && c <= 'Z') ? char(c | 0x20) : c; }
bool isNewlineChar(char c) { return c == '\n' || c == '\r'; }

/// Decodes one strict UTF-8 sequence at `pos`; returns its length, or 0 for
/// a malformed, overlong, surrogate or out-of-range sequence.
size_t decodeUtf8(std::string_view s, size_t pos, uint32_t &cp) {
  auto byte = [&](size_t i) -> unsigned {
    return pos + i < s.size() ? static_cast<unsigned char>(s[pos + i]) : 0u;
  };
  unsigned b0 = byte(0);
  size_t len;
  uint32_t min;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  for (size_t i = 1; i < len; ++i) {
    unsigned b = byte(i);
    if ((b & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

/// Whether a non-ASCII code point may appear in an identifier. Exact
/// XID_Start/XID_Continue tables are not worth their size here: letters of
/// every script are accepted, and what is rejected are the spaces,
/// punctuation and symbols that realistically reach source by accident
/// (no-break spaces, curly quotes, arrows, math signs, emoji, ...).
bool isIdentifierCodePoint(uint32_t cp) {
  struct Range {
    uint32_t lo, hi;
  };
  static constexpr Range kDenied[] = {
      {0x80, 0xA9},       {0xAB, 0xB4},     {0xB6, 0xB9},     {0xBB, 0xBF},
      {0xD7, 0xD7},       {0xF7, 0xF7},     {0x2000, 0x203E}, {0x2041, 0x2053},
      {0x2055, 0x206F},   {0x2190, 0x2BFF}, {0x3000, 0x3003}, {0x3008, 0x3020},
      {0xE000, 0xF8FF},   {0xFE10, 0xFE19}, {0xFE30, 0xFE32}, {0xFE35, 0xFE4C},
      {0xFE50, 0xFE6B},   {0xFEFF, 0xFEFF}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20},
      {0xFF3B, 0xFF3E},   {0xFF40, 0xFF40}, {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF},
      {0x1F000, 0x1FAFF},
  };
  for (const Range &r : kDenied)
    if (cp >= r.lo && cp <= r.hi)
      return false;
  return true;
}

// Longest match first: three-, two-, then one-character operators.
constexpr std::array<std::string_view, 4> kOps3 = {"**=", "//=", ">>=", "<<="};
constexpr std::array<std::string_view, 19> kOps2 = {
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=",
    "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^="};
constexpr std::string_view kOps1 = "+-*/%@&|^~<>()[]{},:.;=!";

} // namespace

void Lexer::fail(size_t offset, std::string message) {
  if (failed_)
    return;
  failed_ = true;
  errorOffset_ = offset;
  result_.errors.push_back(
      makeDiagnostic(file_, file_.locOf(offset), std::move(message)));
}

Token &Lexer::push(TokenKind kind, size_t begin, size_t end) {
  Token tok;
  tok.kind = kind;
  tok.text = std::string(src_.substr(begin, end - begin));
  tok.offset = begin;
  tok.endOffset = end;
  tok.loc = file_.locOf(begin);
  tok.endLoc = file_.locOf(end);
  if (kind != TokenKind::Newline && kind != TokenKind::Indent &&
      kind != TokenKind::Dedent && kind != TokenKind::EndOfFile)
    lineHasTokens_ = true;
  result_.tokens.push_back(std::move(tok));
  return result_.tokens.back();
}

bool Lexer::isIdentContinueAt(size_t at) const {
  if (at >= src_.size())
    return false;
  char c = src_[at];
  if (static_cast<unsigned char>(c) < 0x80)
    return isAsciiAlpha(c) || isDigit(c) || c == '_';
  uint32_t cp;
  return decodeUtf8(src_, at, cp) != 0 && isIdentifierCodePoint(cp);
}

LexResult Lexer::run() {
  bool atLineStart = true;
  while (!failed_) {
    if (atLineStart) {
      atLineStart = false;
      if (!handleIndentation())
        break;
    }
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f'))
      ++pos_;
    if (atEnd())
      break;
    char c = src_[pos_];
    if (c == '#') {
      while (!atEnd() && !isNewlineChar(peek()))
        ++pos_;
      continue;
    }
    if (size_t n = newlineLength(pos_)) {
      // Inside brackets a line end is plain whitespace (implicit joining).
      if (brackets_.empty()) {
        if (lineHasTokens_) {
          push(TokenKind::Newline, pos_, pos_ + n);
          lineHasTokens_ = false;
        }
        atLineStart = true;
      }
      pos_ += n;
      continue;
    }
    if (c == '\\') {
      if (size_t n = newlineLength(pos_ + 1)) {
        pos_ += 1 + n; // explicit joining: the next line continues this one
        continue;
      }
      fail(pos_, pos_ + 1 >= src_.size()
                     ? "unexpected end of file after line continuation "
                       "character"
                     : "unexpected character after line continuation "
                       "character");
      break;
    }
    lexToken();
  }
  finish();
  return std::move(result_);
}

// Measures the indentation of a new logical line and emits INDENT/DEDENT.
// Blank and comment-only lines do not count, as in Python.
bool Lexer::handleIndentation() {
  uint32_t col = 0, alt = 0;
  for (;; ++pos_) {
    char c = peek();
    if (c == ' ')
      ++col, ++alt;
    else if (c == '\t')
      col = (col / 8 + 1) * 8, ++alt;
    else if (c == '\f')
      col = alt = 0;
    else
      break;
  }
  if (atEnd() || peek() == '#' || newlineLength(pos_))
    return true;
  const char *tabError = "inconsistent use of tabs and spaces in indentation";
  if (result_.tokens.empty() && col > 0) {
    // The first logical line sets the module's own column: a function
    // defined inside another, read out of its file with its indentation
    // kept (so columns stay those of the file), is a module indented as a
    // whole. Every later top-level line must start at that column.
    indents_.back() = col;
    altIndents_.back() = alt;
    return true;
  }
  if (col == indents_.back()) {
    if (alt != altIndents_.back())
      return fail(pos_, tabError), false;
  } else if (col > indents_.back()) {
    if (indents_.size() > kMaxIndentLevels)
      return fail(pos_, "too many levels of indentation"), false;
    if (alt <= altIndents_.back())
      return fail(pos_, tabError), false;
    indents_.push_back(col);
    altIndents_.push_back(alt);
    push(TokenKind::Indent, pos_, pos_);
  } else {
    while (indents_.size() > 1 && col < indents_.back()) {
      indents_.pop_back();
      altIndents_.pop_back();
      push(TokenKind::Dedent, pos_, pos_);
    }
    if (col != indents_.back())
      return fail(pos_, "unindent does not match any outer indentation level"),
             false;
    if (alt != altIndents_.back())
      return fail(pos_, tabError), false;
  }
  return true;
}

void Lexer::lexToken() {
  char c = src_[pos_];
  if (isDigit(c) || (c == '.' && isDigit(peek(1))))
    return lexNumber();
  if (c == '\'' || c == '"')
    return lexString(pos_);
  if (isAsciiAlpha(c) || c == '_' ||
      (static_cast<unsigned char>(c) >= 0x80 && isIdentContinueAt(pos_)))
    return lexName();
  if (kOps1.find(c) != std::string_view::npos)
    return lexOperator();
  reportBadCharacter();
}

void Lexer::reportBadCharacter() {
  unsigned char c = static_cast<unsigned char>(src_[pos_]);
  char buf[64];
  if (c == 0) {
    return fail(pos_, "source code cannot contain null bytes");
  } else if (c < 0x80) {
    if (c < 0x20 || c == 0x7F)
      std::snprintf(buf, sizeof buf, "invalid non-printable character U+%04X",
                    unsigned(c));
    else
      std::snprintf(buf, sizeof buf, "invalid character '%c' (U+%04X)", c,
                    unsigned(c));
    return fail(pos_, buf);
  }
  uint32_t cp;
  size_t len = decodeUtf8(src_, pos_, cp);
  if (len == 0) {
    std::snprintf(buf, sizeof buf, "invalid UTF-8 byte 0x%02X", unsigned(c));
    return fail(pos_, buf);
  }
  if (cp <= 0xA0 || cp == 0xFEFF || (cp >= 0x2000 && cp <= 0x200F)) {
    std::snprintf(buf, sizeof buf, "invalid non-printable character U+%04X",
                  unsigned(cp));
    return fail(pos_, buf);
  }
  std::snprintf(buf, sizeof buf, "' (U+%04X)", unsigned(cp));
  fail(pos_, "invalid character '" + std::string(src_.substr(pos_, len)) + buf);
}

void Lexer::lexName() {
  size_t begin = pos_;
  while (isIdentContinueAt(pos_)) {
    uint32_t cp;
    pos_ += decodeUtf8(src_, pos_, cp);
  }
  if ((peek() == '\'' || peek() == '"') &&
      isStringPrefix(src_.substr(begin, pos_ - begin)))
    return lexString(begin);
  push(TokenKind::Name, begin, pos_);
}

// digitpart: digit (["_"] digit)*, with pos_ on the first digit.
bool Lexer::scanDigitPart() {
  while (true) {
    if (isDigit(peek())) {
      ++pos_;
    } else if (peek() == '_') {
      if (!isDigit(peek(1)))
        return fail(pos_, "invalid decimal literal"), false;
      ++pos_;
    } else {
      return true;
    }
  }
}

// A literal may not run into a name ("1abc"), except for the keywords
// Python still accepts glued to a number ("1if x else 2").
bool Lexer::checkNumberEnd(size_t begin, const char *what) {
  if (!isIdentContinueAt(pos_))
    return true;
  for (std::string_view kw :
       {"and", "else", "for", "if", "in", "is", "not", "or"}) {
    if (src_.substr(pos_, kw.size()) == kw &&
        !isIdentContinueAt(pos_ + kw.size()))
      return true;
  }
  fail(begin, std::string("invalid ") + what + " literal");
  return false;
}

void Lexer::lexNumber() {
  size_t begin = pos_;
  char base = toLower(peek(1));
  if (peek() == '0' && (base == 'x' || base == 'o' || base == 'b')) {
    const char *what = base == 'x'   ? "hexadecimal"
                       : base == 'o' ? "octal"
                                     : "binary";
    auto isBaseDigit = [base](char d) {
      return base == 'x'   ? isHexDigit(d)
             : base == 'o' ? (d >= '0' && d <= '7')
                           : (d == '0' || d == '1');
    };
    pos_ += 2;
    bool any = false;
    while (true) {
      if (peek() == '_' && isBaseDigit(peek(1)))
        ++pos_;
      if (!isBaseDigit(peek()))
        break;
      ++pos_;
      any = true;
    }
    if (isDigit(peek()))
      return fail(pos_, std::string("invalid digit '") + peek() + "' in " +
                            what + " literal");
    if (!any || peek() == '_')
      return fail(begin, std::string("invalid ") + what + " literal");
    if (checkNumberEnd(begin, what))
      push(TokenKind::Int, begin, pos_);
    return;
  }

  bool isFloat = false;
  if (peek() != '.' && !scanDigitPart())
    return;
  if (peek() == '.') {
    ++pos_;
    isFloat = true;
    if (isDigit(peek()) && !scanDigitPart())
      return;
  }
  if (toLower(peek()) == 'e') {
    size_t save = pos_;
    ++pos_;
    if (peek() == '+' || peek() == '-')
      ++pos_;
    if (isDigit(peek())) {
      if (!scanDigitPart())
        return;
      isFloat = true;
    } else {
      pos_ = save; // not an exponent: checkNumberEnd judges the letter
    }
  }
  TokenKind kind = isFloat ? TokenKind::Float : TokenKind::Int;
  if (toLower(peek()) == 'j') {
    ++pos_;
    kind = TokenKind::Imaginary;
  } else if (kind == TokenKind::Int && src_[begin] == '0') {
    for (size_t i = begin; i < pos_; ++i)
      if (src_[i] != '0' && src_[i] != '_')
        return fail(begin, "leading zeros in decimal integer literals are not "
                           "permitted; use an 0o prefix for octal integers");
  }
  if (checkNumberEnd(begin,
                     kind == TokenKind::Imaginary ? "imaginary" : "decimal"))
    push(kind, begin, pos_);
}

void Lexer::lexOperator() {
  size_t begin = pos_;
  std::string_view rest = src_.substr(pos_);
  size_t len = 1;
  for (std::string_view op : kOps3)
    if (rest.substr(0, 3) == op)
      len = 3;
  if (rest.substr(0, 3) == "...")
    len = 3;
  if (len == 1)
    for (std::string_view op : kOps2)
      if (rest.substr(0, 2) == op)
        len = 2;
  char c = src_[pos_];
  if (len == 1 && (c == '(' || c == '[' || c == '{')) {
    if (brackets_.size() >= kMaxBracketDepth)
      return fail(pos_, "too many nested parentheses");
    brackets_.push_back({c, pos_});
  } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
    if (brackets_.empty())
      return fail(pos_, std::string("unmatched '") + c + "'");
    char open = brackets_.back().ch;
    char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
    if (c != expected) {
      std::string msg = std::string("closing parenthesis '") + c +
                        "' does not match opening parenthesis '" + open + "'";
      SourceLoc openLoc = file_.locOf(brackets_.back().offset);
      if (openLoc.line != file_.locOf(pos_).line)
        msg += " on line " + std::to_string(openLoc.line);
      return fail(pos_, msg);
    }
    brackets_.pop_back();
  }
  pos_ += len;
  push(TokenKind::Op, begin, pos_);
}

void Lexer::finish() {
  if (!failed_ && !brackets_.empty())
    fail(brackets_.back().offset,
         std::string("'") + brackets_.back().ch + "' was never closed");
  // After an error the stream is cut at the error and closed normally, so the
  // parser never sees a half-open construct beyond it.
  size_t end = failed_ ? errorOffset_ : src_.size();
  if (failed_) {
    while (!result_.tokens.empty() && result_.tokens.back().offset > end)
      result_.tokens.pop_back();
  }
  if (lineHasTokens_)
    push(TokenKind::Newline, end, end);
  while (indents_.size() > 1) {
    indents_.pop_back();
    push(TokenKind::Dedent, end, end);
  }
  push(TokenKind::EndOfFile, end, end);
}

LexResult tokenize(const SourceFile &file) { return Lexer(file).run(); }

bool isStringPrefix(std::string_view word) {
  if (word.empty() || word.size() > 2)
    return false;
  bool r = false, b = false, u = false, f = false;
  for (char c : word) {
    switch (toLower(c)) {
    case 'r':
      if (r)
        return false;
      r = true;
      break;
    case 'b':
      if (b)
        return false;
      b = true;
      break;
    case 'u':
      if (u)
        return false;
      u = true;
      break;
    case 'f':
      if (f)
        return false;
      f = true;
      break;
    default:
      return false;
    }
  }
  // u combines with nothing; b and f exclude each other.
  return !(u && word.size() > 1) && !(b && f);
}

bool isKeyword(std::string_view name) {
  static constexpr std::string_view kKeywords[] = {
      "False",  "None",   "True",    "and",      "as",       "assert", "async",
      "await",  "break",  "class",   "continue", "def",      "del",    "elif",
      "else",   "except", "finally", "for",      "from",     "global", "if",
      "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
      "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"};
  for (std::string_view kw : kKeywords)
    if (kw == name)
      return true;
  return false;
}

const char *tokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Name:
    return "Name";
  case TokenKind::Int:
    return "Int";
  case TokenKind::Float:
    return "Float";
  case TokenKind::Imaginary:
    return "Imaginary";
  case TokenKind::String:
    return "String";
  case TokenKind::Op:
    return "Op";
  case TokenKind::Newline:
    return "Newline";
  case TokenKind::Indent:
    return "Indent";
  case TokenKind::Dedent:
    return "Dedent";
  case TokenKind::EndOfFile:
    return "EndOfFile";
  }
  return "?";
}

std::string describeToken(const Token &tok) {
  switch (tok.kind) {
  case TokenKind::Name:
    return (isKeyword(tok.text) ? "keyword '" : "name '") + tok.text + "'";
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::Imaginary:
    return "number '" + tok.text + "'";
  case TokenKind::String:
    return tok.isFString ? "f-string" : "string literal";
  case TokenKind::Op:
    return "'" + tok.text + "'";
  case TokenKind::Newline:
    return "end of line";
  case TokenKind::Indent:
    return "indent";
  case TokenKind::Dedent:
    return "end of block";
  case TokenKind::EndOfFile:
    return "end of file";
  }
  return "token";
}

} // namespace tritium::fe

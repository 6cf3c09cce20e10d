//===- Lexer.h - Python 3 tokenizer for kernel source files -----*- C++ -*-===//
//
// The second frontend stage: turns a SourceFile into the token stream the
// Parser reads. It follows Python's own tokenizer: INDENT/DEDENT from an
// indentation stack, NEWLINE only at the end of a logical line (never inside
// brackets or after a backslash continuation), comments and blank lines
// dropped, every numeric and string literal form recognised. Keywords are
// plain Name tokens; the parser decides by their text.
//
// The whole file is tokenized at once. A lexical error stops the scan: the
// tokens before it are kept, the stream is closed with NEWLINE/DEDENT/EOF so
// it is still well formed, and the error comes back as a located Diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_LEXER_H
#define TRITIUM_FRONTEND_LEXER_H

#include "frontend/Source.h"

#include <string>
#include <string_view>
#include <vector>

namespace tritium::fe {

enum class TokenKind {
  Name,      // identifiers and keywords
  Int,       // 42 0x2A 0o52 0b101010 1_000
  Float,     // 1.0 1e-3 .5 5.
  Imaginary, // 1j 1.5J
  String,    // any string or bytes literal, f-strings included
  Op,        // operators and delimiters, by text
  Newline,   // end of a logical line
  Indent,
  Dedent,
  EndOfFile,
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  /// Raw spelling: the name, operator, or literal exactly as written (string
  /// tokens include prefix and quotes). Empty for Indent/Dedent/EndOfFile and
  /// for the Newline synthesized at the end of a file without one.
  std::string text;
  size_t offset = 0;    // byte offset of the first character
  size_t endOffset = 0; // byte offset one past the last character
  SourceLoc loc;        // location of the first character
  SourceLoc endLoc;     // location one past the last character

  // String tokens only.
  std::string value;      // decoded contents; raw contents for r and f strings
  bool isRaw = false;     // r prefix
  bool isBytes = false;   // b prefix
  bool isFString = false; // f prefix: fields are not parsed

  bool is(TokenKind k) const { return kind == k; }
  /// An operator or delimiter with this exact text.
  bool isOp(std::string_view op) const {
    return kind == TokenKind::Op && text == op;
  }
  /// A Name token with this exact text (used for keywords).
  bool isName(std::string_view name) const {
    return kind == TokenKind::Name && text == name;
  }
  SourceRange range() const { return {loc, endLoc}; }
};

struct LexResult {
  std::vector<Token> tokens;      // always ends with EndOfFile
  std::vector<Diagnostic> errors; // at most one: the scan stops there
};

/// Tokenizes a whole file.
LexResult tokenize(const SourceFile &file);

/// True for the string prefixes Python accepts: r u b f rb br fr rf, any case.
bool isStringPrefix(std::string_view word);

/// True for Python's reserved keywords (not the soft ones: match, case, type).
bool isKeyword(std::string_view name);

/// "Name", "Int", ... for dumps and tests.
const char *tokenKindName(TokenKind kind);

/// The token as a diagnostic names it: "')'", "name 'x'", "keyword 'if'",
/// "number '12'", "string literal", "end of line", "end of file", ...
std::string describeToken(const Token &tok);

/// The scanner behind tokenize(); one instance scans one file. Lexer.cpp
/// holds layout, names, numbers and operators; LexerString.cpp the string
/// literals.
class Lexer {
public:
  explicit Lexer(const SourceFile &file) : file_(file), src_(file.text()) {}
  /// Scans the whole file; call once.
  LexResult run();

  /// Python refuses more than 100 indentation levels and 200 nested
  /// brackets; the same limits keep the parser's recursion bounded.
  static constexpr size_t kMaxIndentLevels = 100;
  static constexpr size_t kMaxBracketDepth = 200;

private:
  char peek(size_t ahead = 0) const {
    size_t p = pos_ + ahead;
    return p < src_.size() ? src_[p] : '\0';
  }
  bool atEnd() const { return pos_ >= src_.size(); }
  /// Length of the line end at `at` ("\r\n" is 2), 0 when there is none.
  size_t newlineLength(size_t at) const {
    if (at >= src_.size())
      return 0;
    if (src_[at] == '\r')
      return at + 1 < src_.size() && src_[at + 1] == '\n' ? 2 : 1;
    return src_[at] == '\n' ? 1 : 0;
  }
  bool isIdentContinueAt(size_t at) const;

  void fail(size_t offset, std::string message);
  Token &push(TokenKind kind, size_t begin, size_t end);

  // Lexer.cpp
  bool handleIndentation();
  void lexToken();
  void lexName();
  void lexNumber();
  bool scanDigitPart();
  bool checkNumberEnd(size_t begin, const char *what);
  void lexOperator();
  void reportBadCharacter();
  void finish();

  // LexerString.cpp
  void lexString(size_t begin);
  bool scanPlainBody(char quote, bool triple, size_t begin);
  bool scanFStringBody(char quote, bool triple, size_t begin, unsigned depth);
  bool scanFStringField(char quote, bool triple, size_t begin, unsigned depth);
  bool scanNestedString(size_t begin, unsigned depth);
  bool atClosingQuote(char quote, bool triple) const {
    return peek() == quote &&
           (!triple || (peek(1) == quote && peek(2) == quote));
  }
  void unterminated(size_t begin, bool triple);
  bool decodeEscapes(std::string_view body, size_t bodyOffset, bool isBytes,
                     std::string &out);

  const SourceFile &file_;
  std::string_view src_;
  size_t pos_ = 0;
  LexResult result_;
  bool failed_ = false;
  size_t errorOffset_ = 0;
  /// Indentation columns with tabs to multiples of 8, and with tabs as 1.
  std::vector<uint32_t> indents_{0};
  std::vector<uint32_t> altIndents_{0};
  struct OpenBracket {
    char ch;
    size_t offset;
  };
  std::vector<OpenBracket> brackets_;
  bool lineHasTokens_ = false;
};

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_LEXER_H

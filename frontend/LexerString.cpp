//===- LexerString.cpp - string literal scanning --------------------------===//
//
// The string half of the Lexer: finding where a literal ends (single, triple
// quoted, raw, bytes, f-strings with their replacement fields) and decoding
// the escapes of non-raw literals into the token's value. Errors point at
// the literal's start (unterminated) or at the bad escape.
//
//===----------------------------------------------------------------------===//
#include "frontend/Lexer.h"

namespace tritium::fe {

namespace {

bool isAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}
int hexValue(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }
char toLower(char c) { return (c >= 'A' && c <= 'Z') ? char(c | 0x20) : c; }
bool isNewlineChar(char c) { return c == '\n' || c == '\r'; }

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

} // namespace

void Lexer::unterminated(size_t begin, bool triple) {
  std::string line = std::to_string(file_.locOf(pos_).line);
  fail(begin, std::string(triple ? "unterminated triple-quoted string literal"
                                 : "unterminated string literal") +
                  " (detected at line " + line + ")");
}

// `begin` is the start of the prefix; pos_ is on the opening quote.
void Lexer::lexString(size_t begin) {
  bool raw = false, bytes = false, fstr = false;
  for (size_t i = begin; i < pos_; ++i) {
    char c = toLower(src_[i]);
    raw |= c == 'r';
    bytes |= c == 'b';
    fstr |= c == 'f';
  }
  char quote = peek();
  bool triple = peek(1) == quote && peek(2) == quote;
  size_t quoteLen = triple ? 3 : 1;
  pos_ += quoteLen;
  size_t bodyBegin = pos_;
  bool ok = fstr ? scanFStringBody(quote, triple, begin, 0)
                 : scanPlainBody(quote, triple, begin);
  if (!ok)
    return;
  std::string_view body = src_.substr(bodyBegin, pos_ - bodyBegin);
  size_t bodyEnd = pos_;
  pos_ += quoteLen;

  std::string value;
  if (raw || fstr) {
    // Raw text, with line ends normalized as Python reads source files.
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\r') {
        value += '\n';
        if (i + 1 < body.size() && body[i + 1] == '\n')
          ++i;
      } else {
        value += body[i];
      }
    }
  } else if (!decodeEscapes(body, bodyBegin, bytes, value)) {
    return;
  }
  if (bytes) {
    for (size_t i = bodyBegin; i < bodyEnd; ++i)
      if (static_cast<unsigned char>(src_[i]) >= 0x80)
        return fail(i, "bytes can only contain ASCII literal characters");
  }
  Token &tok = push(TokenKind::String, begin, pos_);
  tok.value = std::move(value);
  tok.isRaw = raw;
  tok.isBytes = bytes;
  tok.isFString = fstr;
}

// Scans to the closing quote (pos_ left on it). A backslash always protects
// the next character, in raw strings too (r"\"" is one quote long).
bool Lexer::scanPlainBody(char quote, bool triple, size_t begin) {
  while (true) {
    if (atEnd())
      return unterminated(begin, triple), false;
    char c = src_[pos_];
    if (c == '\\') {
      ++pos_;
      if (atEnd())
        return unterminated(begin, triple), false;
      size_t n = newlineLength(pos_);
      pos_ += n ? n : 1;
      continue;
    }
    if (atClosingQuote(quote, triple))
      return true;
    if (isNewlineChar(c) && !triple)
      return unterminated(begin, triple), false;
    ++pos_;
  }
}

// f-strings are kept as raw text, but their end can only be found by
// following the replacement fields: since Python 3.12 a field may contain
// strings with the enclosing quote character (f"{d["k"]}").
bool Lexer::scanFStringBody(char quote, bool triple, size_t begin,
                            unsigned depth) {
  while (true) {
    if (atEnd())
      return unterminated(begin, triple), false;
    char c = src_[pos_];
    if (c == '\\') {
      ++pos_;
      if (atEnd())
        return unterminated(begin, triple), false;
      size_t n = newlineLength(pos_);
      pos_ += n ? n : 1;
      continue;
    }
    if (atClosingQuote(quote, triple))
      return true;
    if (isNewlineChar(c) && !triple)
      return unterminated(begin, triple), false;
    if (c == '{' && peek(1) == '{') {
      pos_ += 2;
      continue;
    }
    ++pos_;
    if (c == '{' && !scanFStringField(quote, triple, begin, depth + 1))
      return false;
  }
}

// pos_ is just past the '{' of a replacement field; scans past its '}'.
bool Lexer::scanFStringField(char quote, bool triple, size_t begin,
                             unsigned depth) {
  if (depth > kMaxBracketDepth)
    return fail(pos_, "f-string nested too deeply"), false;
  unsigned nest = 0;
  bool inFormatSpec = false;
  while (true) {
    if (atEnd())
      return unterminated(begin, triple), false;
    char c = src_[pos_];
    if (inFormatSpec) {
      // The format spec is literal text (the enclosing quote ends the whole
      // string) in which '{' opens a nested field.
      if (atClosingQuote(quote, triple))
        return fail(pos_, "f-string: expecting '}'"), false;
      if (isNewlineChar(c) && !triple)
        return unterminated(begin, triple), false;
      ++pos_;
      if (c == '}')
        return true;
      if (c == '{' && !scanFStringField(quote, triple, begin, depth + 1))
        return false;
      continue;
    }
    if (c == '\'' || c == '"') {
      if (!scanNestedString(begin, depth + 1))
        return false;
      continue;
    }
    ++pos_;
    if (c == '\\' && !atEnd()) {
      ++pos_;
    } else if (c == '(' || c == '[' || c == '{') {
      ++nest;
    } else if (c == ')' || c == ']') {
      nest -= nest > 0;
    } else if (c == '}') {
      if (nest == 0)
        return true;
      --nest;
    } else if (c == ':' && nest == 0) {
      inFormatSpec = true;
    }
  }
}

// A string literal inside an f-string field, with pos_ on its opening quote;
// its prefix letters, if any, were already scanned as part of the field.
// Errors point at `begin`, the start of the outermost literal.
bool Lexer::scanNestedString(size_t begin, unsigned depth) {
  size_t quotePos = pos_;
  size_t wordBegin = quotePos;
  while (wordBegin > 0 && isAsciiAlpha(src_[wordBegin - 1]))
    --wordBegin;
  std::string_view prefix = src_.substr(wordBegin, quotePos - wordBegin);
  bool fstr = false;
  if (isStringPrefix(prefix))
    for (char c : prefix)
      fstr |= toLower(c) == 'f';
  char quote = peek();
  bool triple = peek(1) == quote && peek(2) == quote;
  pos_ += triple ? 3 : 1;
  bool ok = fstr ? scanFStringBody(quote, triple, begin, depth)
                 : scanPlainBody(quote, triple, begin);
  if (ok)
    pos_ += triple ? 3 : 1;
  return ok;
}

bool Lexer::decodeEscapes(std::string_view body, size_t bodyOffset,
                          bool isBytes, std::string &out) {
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\r') {
      out += '\n';
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      continue;
    }
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    size_t escape = i++;
    char e = body[i];
    auto hexEscape = [&](size_t digits, const char *message) -> bool {
      uint32_t v = 0;
      for (size_t k = 0; k < digits; ++k) {
        if (i + 1 >= body.size() || !isHexDigit(body[i + 1]))
          return fail(bodyOffset + escape, message), false;
        v = v * 16 + uint32_t(hexValue(body[++i]));
      }
      if (v > 0x10FFFF)
        return fail(bodyOffset + escape, "illegal Unicode character"), false;
      if (isBytes)
        out += char(v);
      else
        appendUtf8(out, v);
      return true;
    };
    switch (e) {
    case '\n':
      break; // line continuation inside the string
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case '\\':
    case '\'':
    case '"':
      out += e;
      break;
    case 'a':
      out += '\a';
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'n':
      out += '\n';
      break;
    case 'r':
      out += '\r';
      break;
    case 't':
      out += '\t';
      break;
    case 'v':
      out += '\v';
      break;
    case 'x':
      if (!hexEscape(2, "truncated \\xXX escape"))
        return false;
      break;
    case 'u':
    case 'U':
      if (isBytes) { // not an escape in bytes: kept as written
        out += '\\';
        out += e;
      } else if (!hexEscape(e == 'u' ? 4 : 8, e == 'u'
                                                  ? "truncated \\uXXXX escape"
                                                  : "truncated \\UXXXXXXXX "
                                                    "escape")) {
        return false;
      }
      break;
    default:
      if (e >= '0' && e <= '7') {
        uint32_t v = uint32_t(e - '0');
        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' &&
                        body[i + 1] <= '7';
             ++k)
          v = v * 8 + uint32_t(body[++i] - '0');
        if (isBytes)
          out += char(v & 0xFF);
        else
          appendUtf8(out, v);
      } else {
        // Unknown escapes (and \N{...}) stay as written, as Python keeps them.
        out += '\\';
        out += e;
      }
    }
  }
  return true;
}

} // namespace tritium::fe

//===- LexerTest.cpp - unit tests for Source and Lexer --------------------===//
//
// Checks the SourceFile line table and Diagnostic rendering, then the
// tokenizer: every literal form, operators, indentation and line joining,
// line-ending and encoding variants, and the exact location of each lexical
// error. A truncation sweep at the end checks that no prefix of a realistic
// file makes the tokenizer misbehave.
//
//===----------------------------------------------------------------------===//
#include "frontend/Lexer.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tritium::fe;

namespace {

LexResult lex(const std::string &text) {
  SourceFile file("test.py", text);
  return tokenize(file);
}

/// Compact kind/text listing: `Name:x Op:= Int:1 NL EOF`.
std::string kinds(const LexResult &r) {
  std::string out;
  for (const Token &t : r.tokens) {
    if (!out.empty())
      out += ' ';
    switch (t.kind) {
    case TokenKind::Newline:
      out += "NL";
      break;
    case TokenKind::Indent:
      out += "IN";
      break;
    case TokenKind::Dedent:
      out += "DE";
      break;
    case TokenKind::EndOfFile:
      out += "EOF";
      break;
    default:
      out += std::string(tokenKindName(t.kind)) + ":" + t.text;
    }
  }
  return out;
}

/// The single token of a one-token line (fails the test otherwise).
Token single(const std::string &text) {
  LexResult r = lex(text);
  INFO(text);
  REQUIRE(r.errors.empty());
  REQUIRE(r.tokens.size() == 3); // token, NEWLINE, EOF
  return r.tokens[0];
}

/// The error of a text that must fail to tokenize.
Diagnostic lexError(const std::string &text) {
  LexResult r = lex(text);
  INFO(text);
  REQUIRE(r.errors.size() == 1);
  REQUIRE(!r.tokens.empty());
  CHECK(r.tokens.back().kind == TokenKind::EndOfFile);
  return r.errors[0];
}

} // namespace

//===----------------------------------------------------------------------===//
// SourceFile and Diagnostic
//===----------------------------------------------------------------------===//

TEST_CASE("SourceFile line table", "[source]") {
  SourceFile f("a.py", "ab\ncd\r\nef\rg");
  CHECK(f.numLines() == 4);
  CHECK(f.line(1) == "ab");
  CHECK(f.line(2) == "cd");
  CHECK(f.line(3) == "ef");
  CHECK(f.line(4) == "g");
  CHECK(f.line(0).empty());
  CHECK(f.line(5).empty());
  CHECK(f.locOf(0).line == 1);
  CHECK(f.locOf(1).col == 2);
  CHECK(f.locOf(3).line == 2);
  CHECK(f.locOf(3).col == 1);
  CHECK(f.locOf(7).line == 3);  // after "\r\n"
  CHECK(f.locOf(10).line == 4); // after lone "\r"
  // Offsets past the end clamp to the end.
  CHECK(f.locOf(1000).line == 4);
  CHECK(f.locOf(1000).col == 2);
}

TEST_CASE("SourceFile drops a UTF-8 BOM and ends with an empty line",
          "[source]") {
  SourceFile f("a.py", "\xEF\xBB\xBFx\n");
  CHECK(f.text() == "x\n");
  CHECK(f.numLines() == 2);
  CHECK(f.line(1) == "x");
  CHECK(f.locOf(2).line == 2);
}

TEST_CASE("Diagnostic renders header, line and caret", "[source]") {
  SourceFile f("k.py", "def f():\n    x = tl.exp(y)\n");
  Diagnostic d = makeDiagnostic(f, SourceLoc{2, 9}, "bad thing");
  CHECK(d.sourceLine == "    x = tl.exp(y)");
  CHECK(d.render() == "k.py:2:9: error: bad thing\n"
                      "    x = tl.exp(y)\n"
                      "        ^\n");
  d.notes.push_back("called from here");
  CHECK(d.render() == "k.py:2:9: error: bad thing\n"
                      "    x = tl.exp(y)\n"
                      "        ^\n"
                      "note: called from here\n");
}

TEST_CASE("Diagnostic caret copies tabs", "[source]") {
  SourceFile f("k.py", "\tif\tx:\n");
  Diagnostic d = makeDiagnostic(f, SourceLoc{1, 5}, "m");
  CHECK(d.render() == "k.py:1:5: error: m\n\tif\tx:\n\t  \t^\n");
}

TEST_CASE("Diagnostic without location has no caret", "[source]") {
  Diagnostic d;
  d.path = "k.py";
  d.message = "no kernel";
  CHECK(d.render() == "k.py: error: no kernel\n");
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

TEST_CASE("simple statement tokens and locations", "[lexer]") {
  LexResult r = lex("x = a.b(1, 'c')\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Name:a Op:. Name:b Op:( Int:1 Op:, "
                    "String:'c' Op:) NL EOF");
  const Token &call = r.tokens[5];
  CHECK(call.loc.line == 1);
  CHECK(call.loc.col == 8);
  CHECK(call.endLoc.col == 9);
  CHECK(call.offset == 7);
  CHECK(call.endOffset == 8);
  CHECK(r.tokens[8].value == "c");
  CHECK(r.tokens[8].loc.col == 12);
  CHECK(r.tokens[8].endLoc.col == 15);
}

TEST_CASE("keywords are Name tokens", "[lexer]") {
  LexResult r = lex("if not x in y: pass\n");
  CHECK(kinds(r) ==
        "Name:if Name:not Name:x Name:in Name:y Op:: Name:pass NL EOF");
  CHECK(isKeyword("lambda"));
  CHECK(isKeyword("None"));
  CHECK_FALSE(isKeyword("match"));
  CHECK_FALSE(isKeyword("tl"));
}

TEST_CASE("operators use longest match", "[lexer]") {
  LexResult r = lex("a **= b //= c >>= d <<= e ... -> := != ! ~ @ @= ** // "
                    "<< >> <= >= == += -= *= /= %= &= |= ^= ; . ,\n");
  REQUIRE(r.errors.empty());
  std::vector<std::string> ops;
  for (const Token &t : r.tokens)
    if (t.kind == TokenKind::Op)
      ops.push_back(t.text);
  CHECK(ops ==
        std::vector<std::string>{
            "**=", "//=", ">>=", "<<=", "...", "->", ":=", "!=", "!",  "~",
            "@",   "@=",  "**",  "//",  "<<",  ">>", "<=", ">=", "==", "+=",
            "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", ";",  ".",  ","});
}

TEST_CASE("integer literals", "[lexer]") {
  for (const char *text :
       {"0", "42", "1_000", "0x2A", "0X_ff", "0o52", "0O7_7", "0b1010", "0B1_0",
        "00", "0_0", "123456789012345678901234567890"}) {
    Token t = single(text);
    CHECK(t.kind == TokenKind::Int);
    CHECK(t.text == text);
  }
}

TEST_CASE("float literals", "[lexer]") {
  for (const char *text : {"1.0", "1e-3", ".5", "5.", "1_0.5", "1E+10",
                           "0123.5", "1.e5", "1_000e1_0", "0e0", "00.5"}) {
    Token t = single(text);
    CHECK(t.kind == TokenKind::Float);
    CHECK(t.text == text);
  }
}

TEST_CASE("imaginary literals", "[lexer]") {
  for (const char *text : {"1j", "1.5J", "0j", "1e3j", ".5j", "012j"}) {
    Token t = single(text);
    CHECK(t.kind == TokenKind::Imaginary);
    CHECK(t.text == text);
  }
}

TEST_CASE("a number may be glued to a following keyword", "[lexer]") {
  LexResult r = lex("x = 1if y else 2\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Int:1 Name:if Name:y Name:else Int:2 NL EOF");
}

TEST_CASE("malformed numbers are located errors", "[lexer]") {
  struct Case {
    const char *text;
    uint32_t col;
    const char *message;
  } cases[] = {
      {"x = 1__0", 6, "invalid decimal literal"},
      {"x = 1_", 6, "invalid decimal literal"},
      {"x = 0x", 5, "invalid hexadecimal literal"},
      {"x = 0b12", 8, "invalid digit '2' in binary literal"},
      {"x = 0o8", 7, "invalid digit '8' in octal literal"},
      {"x = 012", 5,
       "leading zeros in decimal integer literals are not "
       "permitted; use an 0o prefix for octal integers"},
      {"x = 1abc", 5, "invalid decimal literal"},
      {"x = 1.5x", 5, "invalid decimal literal"},
      {"x = 1e", 5, "invalid decimal literal"},
      {"x = 2jx", 5, "invalid imaginary literal"},
  };
  for (const Case &c : cases) {
    Diagnostic d = lexError(c.text);
    INFO(c.text);
    CHECK(d.message == c.message);
    CHECK(d.loc.line == 1);
    CHECK(d.loc.col == c.col);
  }
}

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//

TEST_CASE("quoted strings and escapes", "[lexer]") {
  struct Case {
    const char *text;
    const char *value;
  } cases[] = {
      {"'abc'", "abc"},
      {"\"abc\"", "abc"},
      {"''", ""},
      {R"('a\nb\tc\\d')", "a\nb\tc\\d"},
      {R"('it\'s')", "it's"},
      {R"("say \"hi\"")", "say \"hi\""},
      {R"('\x41\101\0z')", std::string("AA\0z", 4).c_str()},
      {R"('\a\b\f\v\r')", "\a\b\f\v\r"},
      {R"('\u00e9')", "\xC3\xA9"},
      {R"('\U0001F600')", "\xF0\x9F\x98\x80"},
      {R"('\xe9')", "\xC3\xA9"},
      {R"('\N{EM DASH}')", "\\N{EM DASH}"},
      {R"('\q\d')", "\\q\\d"},
      {"'a\\\nb'", "ab"},
      {"'h\xC3\xA9llo'", "h\xC3\xA9llo"},
  };
  for (const Case &c : cases) {
    Token t = single(c.text);
    INFO(c.text);
    CHECK(t.kind == TokenKind::String);
    CHECK(t.text == c.text);
    if (std::string(c.text) == R"('\x41\101\0z')")
      CHECK(t.value == std::string("AA\0z", 4));
    else
      CHECK(t.value == c.value);
    CHECK_FALSE(t.isRaw);
    CHECK_FALSE(t.isBytes);
    CHECK_FALSE(t.isFString);
  }
}

TEST_CASE("string prefixes in any case", "[lexer]") {
  struct Case {
    const char *text;
    bool raw, bytes, fstr;
    const char *value;
  } cases[] = {
      {R"(r'\n')", true, false, false, "\\n"},
      {R"(R"\"")", true, false, false, "\\\""},
      {R"(b'\x00\xff')", false, true, false, "\x00\xff"},
      {R"(B"\u1234")", false, true, false, "\\u1234"},
      {R"(u'x\n')", false, false, false, "x\n"},
      {R"(U'x')", false, false, false, "x"},
      {R"(rb'\d')", true, true, false, "\\d"},
      {R"(Br'\d')", true, true, false, "\\d"},
      {R"(bR'\d')", true, true, false, "\\d"},
      {R"(f'{x}')", false, false, true, "{x}"},
      {R"(F"{x!r}")", false, false, true, "{x!r}"},
      {R"(fr'\d{x}')", true, false, true, "\\d{x}"},
      {R"(Rf'\d{x}')", true, false, true, "\\d{x}"},
      {R"(rF'{x}')", true, false, true, "{x}"},
  };
  for (const Case &c : cases) {
    LexResult r = lex(c.text);
    INFO(c.text);
    REQUIRE(r.errors.empty());
    REQUIRE(r.tokens.size() == 3);
    const Token &t = r.tokens[0];
    CHECK(t.kind == TokenKind::String);
    CHECK(t.text == c.text);
    CHECK(t.isRaw == c.raw);
    CHECK(t.isBytes == c.bytes);
    CHECK(t.isFString == c.fstr);
    if (!c.bytes || c.raw)
      CHECK(t.value == c.value);
  }
  Token b = single(R"(b'\x00\xff')");
  CHECK(b.value == std::string("\x00\xff", 2));
  // Not prefixes: names followed by strings.
  CHECK(kinds(lex("ur'x'\n")) == "Name:ur String:'x' NL EOF");
  CHECK(kinds(lex("bf'x'\n")) == "Name:bf String:'x' NL EOF");
  CHECK_FALSE(isStringPrefix("ub"));
  CHECK(isStringPrefix("Rb"));
}

TEST_CASE("triple-quoted strings span lines", "[lexer]") {
  LexResult r = lex("x = '''a\n'b'\n\"\"c'''\ny = \"\"\"\"q\"\"\"\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= String:'''a\n'b'\n\"\"c''' NL Name:y Op:= "
                    "String:\"\"\"\"q\"\"\" NL EOF");
  CHECK(r.tokens[2].value == "a\n'b'\n\"\"c");
  CHECK(r.tokens[2].loc.line == 1);
  CHECK(r.tokens[2].endLoc.line == 3);
  CHECK(r.tokens[2].endLoc.col == 7);
  CHECK(r.tokens[6].value == "\"q");
  CHECK(r.tokens[4].loc.line == 4);
}

TEST_CASE("f-strings find their end through replacement fields", "[lexer]") {
  struct Case {
    const char *text;
    const char *value;
  } cases[] = {
      {R"(f"{d["k"]}")", R"({d["k"]})"},
      {R"(f'{x:>{width}}')", "{x:>{width}}"},
      {R"(f"{{literal}} {x}")", "{{literal}} {x}"},
      {R"(f"{'}'}")", "{'}'}"},
      {R"(f"{f'{y}'}")", "{f'{y}'}"},
      {R"(f"{x!r:^10}")", "{x!r:^10}"},
      {R"(f"{a[1:2]}")", "{a[1:2]}"},
      {R"(f"{x = }")", "{x = }"},
      {R"(f"{(lambda: 1)()}")", "{(lambda: 1)()}"},
      {"f'''{x}\n{y}'''", "{x}\n{y}"},
  };
  for (const Case &c : cases) {
    Token t = single(c.text);
    INFO(c.text);
    CHECK(t.kind == TokenKind::String);
    CHECK(t.isFString);
    CHECK(t.value == c.value);
  }
}

TEST_CASE("string errors are located at the literal", "[lexer]") {
  Diagnostic d = lexError("x = 'abc\ny = 1\n");
  CHECK(d.message == "unterminated string literal (detected at line 1)");
  CHECK(d.loc.line == 1);
  CHECK(d.loc.col == 5);

  d = lexError("def f():\n    s = \"\"\"doc\n\nx = 1\n");
  CHECK(d.message ==
        "unterminated triple-quoted string literal (detected at line 5)");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.col == 9);

  d = lexError("x = rb'abc");
  CHECK(d.loc.col == 5);
  CHECK(d.message == "unterminated string literal (detected at line 1)");

  d = lexError("x = f'{a'");
  CHECK(d.loc.col == 5);

  d = lexError(R"(x = 'ab\x4')");
  CHECK(d.message == "truncated \\xXX escape");
  CHECK(d.loc.col == 8);

  d = lexError(R"(x = '\u12')");
  CHECK(d.message == "truncated \\uXXXX escape");
  CHECK(d.loc.col == 6);

  d = lexError("x = b'\xC3\xA9'");
  CHECK(d.message == "bytes can only contain ASCII literal characters");
  CHECK(d.loc.col == 7);

  d = lexError("x = 'abc\\");
  CHECK(d.message == "unterminated string literal (detected at line 1)");
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

TEST_CASE("indentation emits INDENT and DEDENT to several levels", "[lexer]") {
  LexResult r = lex("def f():\n"
                    "    if x:\n"
                    "        if y:\n"
                    "            pass\n"
                    "z\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:def Name:f Op:( Op:) Op:: NL IN Name:if Name:x Op:: "
                    "NL IN Name:if Name:y Op:: NL IN Name:pass NL DE DE DE "
                    "Name:z NL EOF");
  // INDENT and DEDENT sit at the first token of their line.
  CHECK(r.tokens[6].loc.line == 2);
  CHECK(r.tokens[6].loc.col == 5);
  CHECK(r.tokens[19].loc.line == 5);
  CHECK(r.tokens[19].loc.col == 1);
}

TEST_CASE("dedent to an intermediate level", "[lexer]") {
  LexResult r = lex("a:\n  b:\n    c\n  d\ne\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:a Op:: NL IN Name:b Op:: NL IN Name:c NL DE Name:d "
                    "NL DE Name:e NL EOF");
}

TEST_CASE("end of file closes open blocks", "[lexer]") {
  LexResult r = lex("def f():\n    return 1");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) ==
        "Name:def Name:f Op:( Op:) Op:: NL IN Name:return Int:1 NL DE EOF");
  CHECK(r.tokens[9].text.empty()); // synthesized NEWLINE
}

TEST_CASE("tabs indent to multiples of eight", "[lexer]") {
  LexResult r = lex("if x:\n\tif y:\n\t\tpass\n\tz\nif w:\n        v\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:if Name:x Op:: NL IN Name:if Name:y Op:: NL IN "
                    "Name:pass NL DE Name:z NL DE Name:if Name:w Op:: NL IN "
                    "Name:v NL DE EOF");
  CHECK(r.tokens[13].text == "z");
  CHECK(r.tokens[13].loc.col == 2); // byte column after one tab
}

TEST_CASE("ambiguous tab and space mix is an error", "[lexer]") {
  Diagnostic d = lexError("if x:\n        a\n\tb\n");
  CHECK(d.message == "inconsistent use of tabs and spaces in indentation");
  CHECK(d.loc.line == 3);
  CHECK(d.loc.col == 2);
}

TEST_CASE("blank and comment-only lines do not affect layout", "[lexer]") {
  LexResult r = lex("if x:\n    a\n\n  # comment\n\t\n    b  # trailing\n"
                    "# last\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:if Name:x Op:: NL IN Name:a NL Name:b NL DE EOF");
}

TEST_CASE("empty and comment-only files", "[lexer]") {
  CHECK(kinds(lex("")) == "EOF");
  CHECK(kinds(lex("\n\n")) == "EOF");
  CHECK(kinds(lex("# only a comment")) == "EOF");
  CHECK(kinds(lex("   \n  # x\n")) == "EOF");
}

TEST_CASE("bad dedent is located at the offending line", "[lexer]") {
  Diagnostic d = lexError("if x:\n    a\n  b\n");
  CHECK(d.message == "unindent does not match any outer indentation level");
  CHECK(d.loc.line == 3);
  CHECK(d.loc.col == 3);
  CHECK(d.sourceLine == "  b");
}

TEST_CASE("implicit line joining inside brackets", "[lexer]") {
  LexResult r = lex("x = (1,\n        2,\n  [3,\n{4: 5}])\ny\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Op:( Int:1 Op:, Int:2 Op:, Op:[ Int:3 Op:, "
                    "Op:{ Int:4 Op:: Int:5 Op:} Op:] Op:) NL Name:y NL EOF");
  CHECK(r.tokens[5].loc.line == 2);
  CHECK(r.tokens[5].loc.col == 9);
}

TEST_CASE("explicit line joining with backslash", "[lexer]") {
  LexResult r = lex("if a and \\\n        b:\n    x = 1 + \\\n2\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:if Name:a Name:and Name:b Op:: NL IN Name:x Op:= "
                    "Int:1 Op:+ Int:2 NL DE EOF");
  CHECK(r.tokens[3].loc.line == 2);

  Diagnostic d = lexError("x = 1 \\ + 2\n");
  CHECK(d.message == "unexpected character after line continuation character");
  CHECK(d.loc.col == 7);
  d = lexError("x = 1 \\");
  CHECK(d.message ==
        "unexpected end of file after line continuation character");
}

TEST_CASE("comments are dropped", "[lexer]") {
  LexResult r = lex("x = 1  # set x # really\n# full line\ny = '#'\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Int:1 NL Name:y Op:= String:'#' NL EOF");
  CHECK(r.tokens[3].loc.col == 24); // NEWLINE is the line end itself
}

TEST_CASE("CRLF line endings", "[lexer]") {
  LexResult r = lex("if x:\r\n    y = '''a\r\nb'''\r\n\r\nz\r\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:if Name:x Op:: NL IN Name:y Op:= "
                    "String:'''a\r\nb''' NL DE Name:z NL EOF");
  CHECK(r.tokens[3].text == "\r\n");
  CHECK(r.tokens[5].loc.line == 2);
  CHECK(r.tokens[5].loc.col == 5);
  CHECK(r.tokens[7].value == "a\nb"); // newlines normalized in values
  CHECK(r.tokens[10].loc.line == 5);
}

TEST_CASE("file without trailing newline", "[lexer]") {
  LexResult r = lex("x = 1");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Int:1 NL EOF");
  CHECK(r.tokens[3].loc.col == 6);
  LexResult s = lex("x = 'a'  # c");
  CHECK(kinds(s) == "Name:x Op:= String:'a' NL EOF");
}

TEST_CASE("UTF-8 BOM is skipped", "[lexer]") {
  LexResult r = lex("\xEF\xBB\xBFx = 1\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) == "Name:x Op:= Int:1 NL EOF");
  CHECK(r.tokens[0].loc.col == 1);
}

TEST_CASE("non-ASCII identifiers and strings", "[lexer]") {
  LexResult r = lex("\xCF\x80 = '\xC3\xA9t\xC3\xA9'  # caf\xC3\xA9\n"
                    "\xE5\x90\x8D\xE5\x89\x8D_1 = \xCF\x80\n");
  REQUIRE(r.errors.empty());
  CHECK(kinds(r) ==
        "Name:\xCF\x80 Op:= String:'\xC3\xA9t\xC3\xA9' NL "
        "Name:\xE5\x90\x8D\xE5\x89\x8D_1 Op:= Name:\xCF\x80 NL EOF");
  CHECK(r.tokens[1].loc.col == 4); // byte columns: pi is two bytes
  CHECK(r.tokens[2].value == "\xC3\xA9t\xC3\xA9");
}

TEST_CASE("invalid characters are located errors", "[lexer]") {
  Diagnostic d = lexError("x = $y\n");
  CHECK(d.message == "invalid character '$' (U+0024)");
  CHECK(d.loc.col == 5);

  d = lexError("x = a \xE2\x86\x92 b\n");
  CHECK(d.message == "invalid character '\xE2\x86\x92' (U+2192)");
  CHECK(d.loc.col == 7);

  d = lexError("x = a\xC2\xA0+ b\n");
  CHECK(d.message == "invalid non-printable character U+00A0");
  CHECK(d.loc.col == 6);

  d = lexError("x = \xFF\n");
  CHECK(d.message == "invalid UTF-8 byte 0xFF");

  d = lexError(std::string("x = 1\ny = \0\n", 12));
  CHECK(d.message == "source code cannot contain null bytes");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.col == 5);

  d = lexError("x = `a`\n");
  CHECK(d.loc.col == 5);
}

TEST_CASE("bracket errors", "[lexer]") {
  Diagnostic d = lexError("x = 1)\n");
  CHECK(d.message == "unmatched ')'");
  CHECK(d.loc.col == 6);

  d = lexError("x = (1]\n");
  CHECK(d.message ==
        "closing parenthesis ']' does not match opening parenthesis '('");
  CHECK(d.loc.col == 7);

  d = lexError("x = [1,\n  2)\n");
  CHECK(d.message == "closing parenthesis ')' does not match opening "
                     "parenthesis '[' on line 1");
  CHECK(d.loc.line == 2);

  d = lexError("def f():\n    foo(1,\n    2\n");
  CHECK(d.message == "'(' was never closed");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.col == 8);

  d = lexError("x = " + std::string(300, '(') + "1" + std::string(300, ')'));
  CHECK(d.message == "too many nested parentheses");
  CHECK(d.loc.col == 5 + Lexer::kMaxBracketDepth);
}

TEST_CASE("a lexical error cuts the stream but keeps it well formed",
          "[lexer]") {
  LexResult r = lex("def f():\n    if x:\n        y = 'oops\n");
  REQUIRE(r.errors.size() == 1);
  CHECK(kinds(r) == "Name:def Name:f Op:( Op:) Op:: NL IN Name:if Name:x Op:: "
                    "NL IN Name:y Op:= NL DE DE EOF");
}

TEST_CASE("too many indentation levels", "[lexer]") {
  std::string text;
  for (int i = 0; i < 120; ++i)
    text += std::string(size_t(i), ' ') + "if x:\n";
  text += std::string(120, ' ') + "pass\n";
  Diagnostic d = lexError(text);
  CHECK(d.message == "too many levels of indentation");
  CHECK(d.loc.line == 102);
}

TEST_CASE("every prefix of a kernel tokenizes into a well-formed stream",
          "[lexer]") {
  const std::string text =
      "import triton.language as tl\n"
      "@triton.jit\n"
      "def k(x_ptr, n, B: tl.constexpr = 4):\n"
      "    \"\"\"Doc \\\"q\\\".\"\"\"\n"
      "    offs = tl.arange(0, B)[:, None] * 0x1_0 + 1.5e-3j  # c\n"
      "    if n > 0:\n"
      "        x = f\"{offs!r:>{n}}\" + r'\\d' \\\n"
      "            + b'\\x00'\n"
      "    return (x,\n"
      "      [1, 2])\n";
  for (size_t n = 0; n <= text.size(); ++n) {
    LexResult r = lex(text.substr(0, n));
    INFO("prefix length " << n);
    REQUIRE(r.errors.size() <= 1);
    REQUIRE(!r.tokens.empty());
    CHECK(r.tokens.back().kind == TokenKind::EndOfFile);
    int depth = 0;
    for (const Token &t : r.tokens) {
      depth += t.kind == TokenKind::Indent;
      depth -= t.kind == TokenKind::Dedent;
      REQUIRE(depth >= 0);
      REQUIRE(t.endOffset <= n);
      REQUIRE(t.offset <= t.endOffset);
    }
    CHECK(depth == 0);
  }
}

//===- Source.cpp - source files, line tables and diagnostic rendering ----===//
//
// Implements Source.h: the in-memory source file with its line table, the
// offset -> line:column mapping every token location comes from, and the
// rendering of a located Diagnostic (header, source line, caret, notes).
//
// Line ends are "\n", "\r\n" and a lone "\r", the same set the Lexer treats as
// newlines, so token locations and displayed lines always agree. A leading
// UTF-8 byte order mark is an encoding marker, not text: it is dropped on
// construction so the first column of the file is column 1.
//
//===----------------------------------------------------------------------===//
#include "frontend/Source.h"

#include <algorithm>

namespace tritium::fe {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0)
    text_.erase(0, 3);
  // A line starts at offset 0 and after every line end; a text ending in a
  // newline therefore has an empty last line, where end-of-file points.
  lineStarts_.push_back(0);
  for (size_t i = 0, e = text_.size(); i < e; ++i) {
    char c = text_[i];
    if (c == '\r' && i + 1 < e && text_[i + 1] == '\n')
      ++i;
    else if (c != '\n' && c != '\r')
      continue;
    lineStarts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = begin;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r')
    ++end;
  return std::string_view(text_).substr(begin, end - begin);
}

SourceLoc SourceFile::locOf(size_t offset) const {
  offset = std::min(offset, text_.size());
  // The last line start that is <= offset.
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  size_t index = size_t(it - lineStarts_.begin()) - 1;
  SourceLoc loc;
  loc.line = uint32_t(index + 1);
  loc.col = uint32_t(offset - lineStarts_[index] + 1);
  loc.file = this;
  return loc;
}

std::string Diagnostic::render() const {
  std::string out = path;
  if (loc.valid())
    out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  out += ": error: " + message + "\n";
  if (loc.valid()) {
    out += sourceLine;
    out += '\n';
    // Copy tabs so the caret lines up with the source line however wide the
    // terminal renders a tab. UTF-8 continuation bytes take no cell of their
    // own, so they are dropped to keep the caret under the intended
    // character after non-ASCII text.
    for (uint32_t i = 0; i + 1 < loc.col; ++i) {
      if (i < sourceLine.size()) {
        unsigned char c = static_cast<unsigned char>(sourceLine[i]);
        if ((c & 0xC0) == 0x80)
          continue;
        out += c == '\t' ? '\t' : ' ';
      } else {
        out += ' ';
      }
    }
    out += "^\n";
  }
  for (const std::string &note : notes)
    out += "note: " + note + "\n";
  return out;
}

Diagnostic makeDiagnostic(const SourceFile &fallback, SourceLoc loc,
                          std::string message) {
  const SourceFile &file = loc.file ? *loc.file : fallback;
  Diagnostic diag;
  diag.path = file.path();
  diag.loc = loc;
  diag.message = std::move(message);
  diag.sourceLine = std::string(file.line(loc.line));
  return diag;
}

} // namespace tritium::fe

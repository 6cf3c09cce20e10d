//===- Source.h - source files, locations and located diagnostics ---------===//
//
// The first piece of the frontend: a kernel file held in memory with its line
// table, 1-based line/column locations, and the error type every frontend
// stage reports through. A diagnostic renders as
//
//   file.py:12:9: error: reason
//       x = tl.exp(y)
//           ^
//
// Errors travel as values (lists of Diagnostic in each stage's result); no
// stage lets an exception cross MLIR frames.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_SOURCE_H
#define TRITIUM_FRONTEND_SOURCE_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tritium::fe {

class SourceFile;

/// A 1-based line and column (columns count bytes), and the file they are
/// in. A kernel may call helpers from other modules, so a location names its
/// own file; `file` is null for locations made up by a later stage (they
/// belong to the file being compiled) and is valid while that file lives.
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  const SourceFile *file = nullptr;
  bool valid() const { return line != 0; }
};

/// Half-open range [begin, end) in the same file.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;
};

/// One source file: its path as the user named it, its text, its line table.
class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  /// Text of a 1-based line without its newline; empty when out of range.
  std::string_view line(uint32_t line) const;
  uint32_t numLines() const { return uint32_t(lineStarts_.size()); }
  /// Location of a byte offset.
  SourceLoc locOf(size_t offset) const;

private:
  std::string path_;
  std::string text_;
  std::vector<size_t> lineStarts_;
};

/// A located error: `path:line:col: error: message`, source line and caret.
struct Diagnostic {
  std::string path;
  SourceLoc loc;
  std::string message;
  std::string sourceLine; // the offending line, for the caret display
  std::vector<std::string> notes;

  /// Full rendering with caret (and notes, one per line).
  std::string render() const;
};

/// Builds a diagnostic at `loc` of `file` (of `loc.file` when it names one).
Diagnostic makeDiagnostic(const SourceFile &file, SourceLoc loc,
                          std::string message);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_SOURCE_H

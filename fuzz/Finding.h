//===- Finding.h - what a fuzz target treats as a bug ------------*- C++ -*-===//
//
// Every input must get a located diagnostic or a result. A crash, a hang or
// an assertion is a bug libFuzzer sees by itself; an answer that is an
// internal error (a verifier failure after a pass, invalid LLVM IR, an
// "internal" message) is one too: the target reports it and aborts, so
// libFuzzer keeps the input.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FUZZ_FINDING_H
#define TRITIUM_FUZZ_FINDING_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tritium::fuzz {

/// Whether `message` (an error the compiler returned) is an internal error
/// rather than a diagnostic at the user's text: one of its lines, past a
/// "file:line:col: error: " prefix, starts with "internal error",
/// "internal:" or "LLVM ERROR", or names a compile stage that passed its
/// time limit. Source lines a diagnostic quotes (those
/// followed by a caret line) are the user's text, whatever they say.
inline bool isInternalError(const std::string &message) {
  std::vector<std::string> lines;
  for (size_t b = 0; b <= message.size();) {
    size_t e = message.find('\n', b);
    if (e == std::string::npos)
      e = message.size();
    lines.push_back(message.substr(b, e - b));
    b = e + 1;
  }
  auto isCaret = [](const std::string &l) {
    return l.find('^') != std::string::npos && l.find_first_not_of(" \t^~") == std::string::npos;
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 < lines.size() && isCaret(lines[i + 1]))
      continue; // a quoted source line
    std::string l = lines[i];
    size_t err = l.find(": error: ");
    if (err != std::string::npos && l.find(' ') > err)
      l = l.substr(err + 9);
    for (const char *marker : {"internal error", "internal:", "LLVM ERROR"})
      if (l.compare(0, std::strlen(marker), marker) == 0)
        return true;
    // A compile stage past its time limit (ir/StageLimit.h): a hang.
    if (l.compare(0, 11, "compiling '") == 0 &&
        l.find("' passed its time limit of ") != std::string::npos)
      return true;
  }
  return false;
}

/// Reports `message` as a finding of `target` and aborts.
[[noreturn]] inline void finding(const char *target, const std::string &message) {
  std::fprintf(stderr, "\n==tritium-fuzz== %s: internal error reached:\n%s\n", target,
               message.c_str());
  std::abort();
}

/// Aborts when `message` is an internal error.
inline void checkAnswer(const char *target, const std::string &message) {
  if (isInternalError(message))
    finding(target, message);
}

} // namespace tritium::fuzz

#endif // TRITIUM_FUZZ_FINDING_H

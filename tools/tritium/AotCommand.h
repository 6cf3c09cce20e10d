//===- AotCommand.h - `tritium aot`: kernels compiled ahead of time -------===//
//
// `tritium aot FILE -k KERNEL -s SIG [-s SIG ...] -g GRID -n NAME
//  [--target cuda:90 --target cuda:80] [-o DIR]` compiles the kernel for each
// signature (Triton's AOT convention) and each target to cubin, and writes
// DIR/NAME.h and DIR/NAME.c: a C launcher
//
//   int NAME(void *stream, <the runtime parameters, in order>);
//
// that embeds every cubin, loads them into the current CUDA context on first
// use, picks the most specialized signature the arguments satisfy (pointers
// and ints divisible by 16 for ':16', ints equal to 1 for ':1'), computes the
// grid from GRID (C expressions over the parameters, constexprs included)
// and launches on `stream`. It needs libcuda only, loaded with dlopen: no
// tritium, no LLVM, no CUDA toolkit where it runs.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TOOLS_TRITIUM_AOTCOMMAND_H
#define TRITIUM_TOOLS_TRITIUM_AOTCOMMAND_H

#include <ostream>
#include <string>
#include <vector>

namespace tritium::aot {

struct AotOptions {
  std::string file, kernel, name, grid, outDir = ".";
  std::vector<std::string> signatures;
  std::vector<std::string> targets; ///< cuda:80, cuda:90 (default cuda:90)
  int numWarps = 4;
  int numStages = 3;
};

/// Runs `tritium aot`; errors go to `err` as `tritium: error: ...` (or the
/// kernel's file:line:col diagnostics). Returns the exit status.
int runAot(const AotOptions &options, std::ostream &err);

} // namespace tritium::aot

#endif

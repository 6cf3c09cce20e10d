//===- FuzzCompile.cpp - kernel source through the compiler ---------------===//
//
// One source for three targets, by TRITIUM_FUZZ_STAGE:
//   parse   the lexer and parser (any text);
//   tile    parsing, IR generation for a signature, the tile pipeline;
//   gpu     all that, then the GPU pipeline to PTX for sm_80 or sm_90
//           (ptxas is not run).
// The input is a Python file. Its first line may be `#sig: ENTRIES`, the
// signature to compile (Triton's AOT spelling, as tritium compile takes
// it); otherwise each parameter gets one, from the input's own bytes: i32,
// a pointer, a float, or for a tl.constexpr a number. The kernel is the one
// a `#kernel: NAME` line names, else the file's first top-level function.
// `#target: 80` (a line) picks sm_80.
//
//===----------------------------------------------------------------------===//
#include "fuzz/Finding.h"

#include "frontend/Parser.h"
#include "ir/StageLimit.h"
#include "runtime/KernelSource.h"

#if TRITIUM_FUZZ_STAGE >= 2
#include "codegen/Pipeline.h"
#endif

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <string>

using namespace tritium;

#if TRITIUM_FUZZ_STAGE == 0
[[maybe_unused]] static const char *kTarget = "parse";
#elif TRITIUM_FUZZ_STAGE == 1
[[maybe_unused]] static const char *kTarget = "tile";
#else
[[maybe_unused]] static const char *kTarget = "gpu";
#endif

namespace {
#if TRITIUM_FUZZ_STAGE >= 1
/// The value of a `#KEY: value` line of `text`, if there is one.
std::string directive(const std::string &text, const std::string &key) {
  std::string tag = "#" + key + ":";
  size_t at = text.rfind("\n" + tag);
  if (text.compare(0, tag.size(), tag) == 0)
    at = 0;
  else if (at == std::string::npos)
    return "";
  else
    at += 1;
  size_t end = text.find('\n', at);
  std::string v = text.substr(at + tag.size(), end == std::string::npos ? end : end - at - tag.size());
  while (!v.empty() && (v.front() == ' '))
    v.erase(0, 1);
  return v;
}

/// A signature entry per parameter, chosen by the bytes of the input.
std::string defaultSignature(const rt::KernelSource &src, const std::string &text) {
  static const char *runtimeKinds[] = {"i32", "*fp32:16", "*fp16", "i64:16", "fp32",
                                       "*bf16:16", "i1", "*i32", "i32:1", "*fp8e5",
                                       "fp16", "u64"};
  static const char *constexprs[] = {"16", "1", "32", "64", "128", "'x'", "True", "None"};
  size_t h = 0;
  for (unsigned char c : text)
    h = h * 131 + c;
  std::string sig;
  for (const rt::KernelParam &p : src.params) {
    const char *e = p.isConstexpr ? constexprs[h % 8] : runtimeKinds[h % 12];
    h = h / 7 + 0x9e3779b9;
    sig += (sig.empty() ? "" : ",") + std::string(e);
  }
  return sig;
}
#endif
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A stage past 12 s is reported with its name (a finding); one that
  // cannot stop meets libFuzzer's own timeout (scripts/fuzz: 20 s, 60 s for
  // gpu).
  static bool limited = (setStageTimeLimit(12), true);
  (void)limited;
  std::string text(reinterpret_cast<const char *>(data), size);
  fe::ParseResult parsed = fe::parseSource("k.py", text);
#if TRITIUM_FUZZ_STAGE >= 1
  // The kernel: the first top-level function.
  std::string kernel = directive(text, "kernel");
  if (kernel.empty() && !parsed.module->functions.empty())
    kernel = parsed.module->functions.front()->name;
  if (kernel.empty())
    return 0;
  rt::KernelSource src;
  if (auto e = rt::loadKernelSource("k.py", &text, kernel, src)) {
    fuzz::checkAnswer(kTarget, e->text);
    return 0;
  }
  for (const rt::KernelParam &p : src.params)
    if (p.isVariadic)
      return 0;
  std::string sig = directive(text, "sig");
  if (sig.empty())
    sig = defaultSignature(src, text);
  mlir::MLIRContext ctx;
  rt::CompiledKernel compiled;
  fe::CompileOptions options;
  if (auto e = rt::compileSpecialization(ctx, src, sig, options, compiled)) {
    fuzz::checkAnswer(kTarget, e->text);
    return 0;
  }
#if TRITIUM_FUZZ_STAGE >= 2
  codegen::CudaCompileOptions copts;
  copts.computeCapability = directive(text, "target") == "80" ? 80 : 90;
  codegen::CudaKernelArtifacts art;
  std::string error;
  if (!codegen::compileForCuda(*compiled.module, kernel, copts, art, error,
                               codegen::CudaStage::PTX))
    fuzz::checkAnswer(kTarget, error);
#endif
#endif
  (void)parsed;
  return 0;
}

//===- KernelSource.h - a kernel's source, parameters and compile -*- C++ -*-===//
//
// The compiler-facing half of launching a kernel, shared by `tritium run` and
// the C++ API (Tritium.h): read and parse the kernel's file, find the `@jit`
// function, list its parameters (constexpr or runtime, default values as
// signature literals), and compile one specialization (Triton's AOT
// signature) through the frontend and the tile pipeline into a module the
// interpreter runs. Errors are values: located diagnostics already rendered
// with file:line:col and a caret, or one-line messages.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_KERNELSOURCE_H
#define TRITIUM_RUNTIME_KERNELSOURCE_H

#include "frontend/IRGen.h"
#include "frontend/Modules.h"
#include "frontend/Parser.h"

#include <optional>
#include <string>
#include <vector>

namespace tritium::rt {

/// One parameter of a kernel, as the launcher binds it.
struct KernelParam {
  std::string name;
  bool isConstexpr = false; // annotated `tl.constexpr`
  bool isVariadic = false;  // *args / **kwargs (cannot be bound)
  /// The default value as a signature literal ("1024", "1e-05", "True",
  /// "'leaky_relu'", "None"), when there is one that can be written so.
  std::optional<std::string> defaultLiteral;
};

/// An error: `rendered` text is one or more located diagnostics, each
/// ending in a newline; otherwise `text` is a one-line message.
struct SourceError {
  std::string text;
  bool rendered = false;
};

/// A parsed file and the kernel found in it.
struct KernelSource {
  std::string file, kernel;
  fe::ParseResult parsed;
  const fe::FunctionDef *fn = nullptr; // owned by parsed.module
  std::vector<KernelParam> params;
  /// Other Python modules the kernel may import (@jit helpers, constexprs).
  fe::ModuleSet modules;

  /// "x_ptr, y_ptr, ..." (every parameter, for messages).
  std::string paramList() const;
};

/// Parses `text` (or, when `text` is null, the contents of `file`) and finds
/// `kernel` in it.
std::optional<SourceError> loadKernelSource(const std::string &file,
                                            const std::string *text,
                                            const std::string &kernel,
                                            KernelSource &out);

/// A parameter default written as a signature literal, when it is one.
std::optional<std::string> literalOf(const fe::Expr *e);

struct CompiledKernel {
  mlir::OwningOpRef<mlir::ModuleOp> module; // after the tile pipeline
  std::vector<std::string> staticPrints;
};

/// Compiles `src.kernel` for `signature` (one entry per parameter, Triton's
/// AOT spelling) and runs the tile pipeline on it. Static prints are kept
/// even when compiling fails.
std::optional<SourceError> compileSpecialization(mlir::MLIRContext &ctx,
                                                 const KernelSource &src,
                                                 const std::string &signature,
                                                 const fe::CompileOptions &options,
                                                 CompiledKernel &out);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_KERNELSOURCE_H

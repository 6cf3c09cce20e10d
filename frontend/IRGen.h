//===- IRGen.h - kernel source to tile IR: the public entry point --------===//
//
// `compileKernel` takes a parsed Python file, the name of a `@jit` kernel and
// a specialization (Triton's AOT signature), and optionally the other Python
// modules it imports (Modules.h), and returns a verified module of tile IR
// whose ops carry the user's file:line:col. Errors come back as
// located diagnostics, never as exceptions or crashes.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_IRGEN_H
#define TRITIUM_FRONTEND_IRGEN_H

#include "frontend/Ast.h"
#include "frontend/Modules.h"
#include "frontend/Source.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
}

namespace tritium::fe {

/// One kernel parameter's specialization, from a signature entry.
struct ParamSpec {
  enum Kind { Runtime, Constexpr, Tuple, Descriptor } kind = Runtime;
  std::string type;        // "*fp32", "i32", "fp32", "*kfp16" (Runtime);
                           // the element type "fp16" (Descriptor)
  int divisibility = 1;    // 16 for ":16"
  bool equalsOne = false;  // ":1": folded as the constant 1
  std::string value;       // Constexpr: the literal as written
  std::vector<ParamSpec> elems; // Tuple: one entry per element
  std::vector<int64_t> block;   // Descriptor: the block shape
  std::string padding = "zero"; // Descriptor: "zero" or "nan"
};

/// Parses Triton's AOT signature ("*fp32:16,i32,1024,...") into one entry
/// per parameter; returns an error message on malformed input. A tuple
/// argument is its elements' entries in parentheses, nested as the tuple
/// is ("(*fp32:16,(i32,4),None)"; "()" is the empty tuple). Its runtime
/// elements become kernel arguments in order, after those before it.
/// A host tensor descriptor is "tensordesc<fp16[64,64]>" (",nan" before
/// the '>' for NaN padding; ":16" after it when every entry of its shape is
/// a multiple of 16): its base pointer, its shape (i64 each) and its
/// strides but the last (i64 each; the last is 1) become arguments, and the
/// kernel sees tl.make_tensor_descriptor of them.
std::optional<std::string> parseSignature(const std::string &sig,
                                          std::vector<ParamSpec> &out);

struct CompileOptions {
  int numWarps = 4;
  int numStages = 3;
  bool debug = false; // keeps device_assert (Triton drops it unless debug)
};

struct CompileResult {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<Diagnostic> errors;
  std::vector<std::string> staticPrints; // tl.static_print output, in order
  bool ok() const { return errors.empty() && module; }
};

/// Emits tile IR for `kernelName` in `module`. `specs` has one entry per
/// kernel parameter (or is empty when the kernel has no parameters).
/// `modules`, when given, holds the other Python modules the kernel's names
/// may resolve through (imported @jit helpers and constexpr globals); ops
/// emitted from a helper carry the location in the helper's own file.
CompileResult compileKernel(mlir::MLIRContext &ctx, const Module &module,
                            const std::string &kernelName,
                            const std::vector<ParamSpec> &specs,
                            const CompileOptions &options = {},
                            const ModuleSet *modules = nullptr);

/// Runs the tile-level pipeline (inline, canonicalize, tile-combine, cse,
/// symbol-dce) on a compiled module; errors are returned as text.
std::optional<std::string> optimizeTileModule(mlir::ModuleOp module);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_IRGEN_H

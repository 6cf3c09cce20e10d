//===- KernelState.h - a Kernel's state, inside the runtime -----*- C++ -*-===//
//
// What a tritium::Kernel holds (runtime/Tritium.h keeps it opaque): its
// parsed source, constexpr values, runtime parameters, and the cache of
// compiled specializations. Shared by Tritium.cpp and WarmupAll.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_KERNELSTATE_H
#define TRITIUM_RUNTIME_KERNELSTATE_H

#include "runtime/Tritium.h"

#include "interpreter/Interpreter.h"
#include "runtime/KernelSource.h"

#include "mlir/IR/MLIRContext.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace rt {
struct CudaCompiled;
struct HipCompiled;
}

namespace detail {
/// One compiled specialization of a kernel.
struct Specialization {
  rt::CompiledKernel compiled;
  std::unique_ptr<interp::Kernel> kernel;
  /// Why the interpreter cannot run it (inline assembly, say) when `kernel`
  /// is null: a GPU launch still can, so this is reported on interpreter
  /// launches only.
  std::string interpError;
  std::shared_ptr<rt::CudaCompiled> gpu; // compiled on the first GPU launch
  unsigned gpuTarget = 0; // the compute capability `gpu` was cross-compiled for
  /// Cross-compiled for an AMD target (compileSignatureForAmd), and for
  /// which; `amdLatest` while that is the latest compile.
  std::shared_ptr<rt::CudaCompiled> amd;
  std::string amdArch;
  bool amdLatest = false;
  /// Compiled for the HIP device and loaded there, on the first HIP launch
  /// or warmup; `hipLatest` while that is what lastCompiled describes.
  std::shared_ptr<rt::HipCompiled> hip;
  bool hipLatest = false;
  std::string signature;
  int numWarps = 4, numStages = 3;
  CompiledInfo info; // filled by Kernel::lastCompiled
  bool infoHasGpu = false, infoReady = false;
};
/// The leaves of `a` that the compiled kernel takes as arguments, depth
/// first through tuples, with their names ("ptrs[1]"): not the constants
/// of tuples, nor ints folded as 1 (KernelState.cpp).
void runtimeLeaves(const Arg &a, const std::string &name,
                   std::vector<std::pair<const Arg *, std::string>> &out);
/// Compiles `sp` for the HIP device and loads it there, once; makes it
/// what lastCompiled describes.
std::optional<Error> ensureHip(Specialization &sp, const std::string &kernel,
                               const LaunchOptions &options);
} // namespace detail

class KernelState {
public:
  std::shared_ptr<mlir::MLIRContext> ctx;
  rt::KernelSource src;
  CompileOptions options;
  /// Per parameter: the constexpr's literal (constexprs only).
  std::vector<std::string> constexprLits;
  /// Indices into src.params of the runtime parameters, in order.
  std::vector<size_t> runtime;
  /// Per runtime parameter: its default as an argument, if it has one.
  std::vector<std::optional<Arg>> defaults;
  /// Per runtime parameter: whether it was compiled as a pointer (known
  /// after the first successful compile).
  std::map<std::string, detail::Specialization> cache;
  /// The specializations of launches whose arguments are all plain
  /// (buffers and scalars, none defaulted), by each argument's class and the
  /// options: a repeated launch finds its specialization without building a
  /// signature. (Entries point into `cache`, which never drops any.)
  std::map<std::vector<uint64_t>, detail::Specialization *> byClass;
  detail::Specialization *last = nullptr; // of the latest launch or warmup
  size_t compiles = 0;
  std::vector<std::string> staticPrints;
  std::string sourceText; // the kernel file's text, for TRITIUM_RECORD

  std::optional<Error> bind(const std::vector<Arg> &args, std::vector<Arg> &bound) const;
  std::string entryFor(const Arg &a) const;
  std::string signatureOf(const std::vector<Arg> &bound,
                          std::optional<size_t> flip = std::nullopt) const;
  Expected<detail::Specialization *> specialize(const std::vector<Arg> &bound,
                                        const LaunchOptions &options);
  /// The specialization `sig` names (cached by it); `bound`, when given,
  /// explains a failure by the arguments' kinds.
  Expected<detail::Specialization *> specializeSignature(const std::string &sig,
                                                 const LaunchOptions &options,
                                                 const std::vector<Arg> *bound);
  std::string diagnoseKinds(const std::vector<Arg> &bound, const LaunchOptions &options);
  /// The byClass key of `args` under `options`, when every argument is a
  /// plain buffer or scalar and every runtime parameter has one; checks
  /// buffers as bind does (an empty key sends the launch the general way).
  std::vector<uint64_t> classKey(const std::vector<Arg> &args,
                                 const LaunchOptions &options) const;
};

} // namespace tritium

#endif // TRITIUM_RUNTIME_KERNELSTATE_H

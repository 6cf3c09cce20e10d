//===- Tritium.cpp - the public C++ host API ------------------------------===//
//
// Compiler parses a kernel's source once (runtime/KernelSource.h); Kernel
// launches it: its KernelState (KernelState.cpp) binds the arguments and
// gives the specialization, compiled once into a cached interpreter kernel
// (and for the GPU on the first GPU launch), which Kernel then runs.
//
//===----------------------------------------------------------------------===//
#include "runtime/Tritium.h"

#include "interpreter/Interpreter.h"
#include "codegen/amd/Amd.h"
#include "runtime/CudaLaunch.h"
#include "runtime/HipLaunch.h"
#include "runtime/KernelState.h"
#include "runtime/KernelSource.h"
#include "runtime/LaunchRecord.h"
#include "runtime/Specialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace tritium;
using tritium::detail::Specialization;

namespace {
/// A default value written as a literal, as a launch argument.
std::optional<Arg> argFromLiteral(const std::string &lit) {
  if (lit == "True" || lit == "False")
    return scalar(lit == "True");
  if (lit.empty())
    return std::nullopt;
  const char *s = lit.c_str();
  char *end = nullptr;
  errno = 0;
  long long i = std::strtoll(s, &end, 10);
  if (*end == '\0' && errno == 0)
    return scalar(int64_t(i));
  errno = 0;
  double d = std::strtod(s, &end);
  if (*end == '\0' && errno == 0)
    return scalar(d);
  return std::nullopt;
}

/// Whether `text` has a ',' outside parentheses and quotes (it would be two
/// signature entries).
bool hasTopLevelComma(const std::string &text) {
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote)
      quote = c == quote ? 0 : quote;
    else if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (c == ',' && depth <= 0)
      return true;
  }
  return false;
}

} // namespace

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Kernel::Kernel(std::unique_ptr<KernelState> state) : state_(std::move(state)) {}
Kernel::Kernel(Kernel &&) noexcept = default;
Kernel &Kernel::operator=(Kernel &&) noexcept = default;
Kernel::~Kernel() = default;

const std::string &Kernel::name() const { return state_->src.kernel; }
size_t Kernel::numCompiles() const { return state_->compiles; }
const std::vector<std::string> &Kernel::staticPrints() const {
  return state_->staticPrints;
}

std::vector<std::string> Kernel::parameters() const {
  std::vector<std::string> names;
  for (size_t i : state_->runtime)
    names.push_back(state_->src.params[i].name);
  return names;
}

std::vector<Kernel::ParamInfo> Kernel::parameterInfo() const {
  std::vector<ParamInfo> info;
  for (const rt::KernelParam &p : state_->src.params)
    info.push_back({p.name, p.isConstexpr, p.defaultLiteral.has_value()});
  return info;
}

Expected<std::string> Kernel::signature(const std::vector<Arg> &args) const {
  std::vector<Arg> bound;
  if (auto err = state_->bind(args, bound))
    return *err;
  return state_->signatureOf(bound);
}

/// The sanitizers are the interpreter's: said once, when a GPU kernel is
/// first compiled with them asked for.
static void noteSanitizersIgnored(const LaunchOptions &options) {
  static bool told = false;
  if (!told && (!options.sanitize.empty() || std::getenv("TRITIUM_SANITIZE"))) {
    told = true;
    std::fprintf(stderr, "tritium: note: sanitizers run on the interpreter; GPU launches "
                         "ignore them (TRITIUM_INTERPRET=1 runs kernels on the "
                         "interpreter)\n");
  }
}

/// Compiles `sp` for the CUDA device once.
static std::optional<Error> ensureGpu(Specialization &sp, const std::string &kernel,
                                      const LaunchOptions &options) {
  if (sp.gpu && rt::cudaLoaded(*sp.gpu)) // loaded, not only cross-compiled
    return std::nullopt;
  noteSanitizersIgnored(options);
  sp.infoReady = false;
  auto compiled = rt::compileForCudaDevice(*sp.compiled.module, kernel,
                                           options.numWarps, options.numStages,
                                           unsigned(options.maxnreg), options.enableFpFusion);
  if (!compiled)
    return compiled.error();
  sp.gpu = *compiled;
  sp.gpuTarget = 0;
  return std::nullopt;
}

std::optional<Error> tritium::detail::ensureHip(Specialization &sp,
                                               const std::string &kernel,
                                               const LaunchOptions &options) {
  if (!sp.hipLatest || sp.amdLatest) {
    sp.hipLatest = true;
    sp.amdLatest = false;
    sp.infoReady = false;
  }
  if (sp.hip)
    return std::nullopt;
  noteSanitizersIgnored(options);
  // maxnreg and enable_fp_fusion are NVIDIA options; the AMD code generator
  // takes warps and stages only.
  auto compiled = rt::compileForHipDevice(*sp.compiled.module, kernel,
                                          unsigned(options.numWarps),
                                          unsigned(options.numStages));
  if (!compiled)
    return compiled.error();
  sp.hip = *compiled;
  return std::nullopt;
}

std::optional<Error> Kernel::compileSignature(const std::string &signature,
                                              const LaunchOptions &options,
                                              unsigned cudaComputeCapability) {
  auto spec = state_->specializeSignature(signature, options, nullptr);
  if (!spec)
    return spec.error();
  Specialization &sp = **spec;
  sp.amdLatest = false;
  sp.hipLatest = false;
  if (cudaComputeCapability && (!sp.gpu || sp.gpuTarget != cudaComputeCapability)) {
    auto compiled = rt::compileForCudaTarget(*sp.compiled.module, state_->src.kernel,
                                             cudaComputeCapability, options.numWarps,
                                             options.numStages, unsigned(options.maxnreg),
                                             options.enableFpFusion);
    if (!compiled)
      return compiled.error();
    sp.gpu = *compiled;
    sp.gpuTarget = cudaComputeCapability;
    sp.infoReady = false;
  }
  return std::nullopt;
}

std::optional<Error> Kernel::compileSignatureForAmd(const std::string &signature,
                                                    const std::string &amdArch,
                                                    const LaunchOptions &options) {
  if (!codegen::isSupportedAmdArch(amdArch))
    return Error{"AMD target '" + amdArch + "' is not supported (gfx90a, gfx942 and gfx950 are)",
                 Error::Argument};
  auto spec = state_->specializeSignature(signature, options, nullptr);
  if (!spec)
    return spec.error();
  Specialization &sp = **spec;
  if (!sp.amd || sp.amdArch != amdArch) {
    auto compiled = rt::compileForAmdTarget(*sp.compiled.module, state_->src.kernel, amdArch,
                                            options.numWarps, options.numStages);
    if (!compiled)
      return compiled.error();
    sp.amd = *compiled;
    sp.amdArch = amdArch;
  }
  sp.amdLatest = true;
  sp.hipLatest = false;
  sp.infoReady = false;
  return std::nullopt;
}

Expected<std::string> Kernel::warmup(const std::vector<Arg> &args,
                                     const LaunchOptions &options) {
  std::vector<Arg> bound;
  if (auto err = state_->bind(args, bound))
    return *err;
  auto spec = state_->specialize(bound, options);
  if (!spec)
    return spec.error();
  if (options.device == Device::Cuda)
    if (auto err = ensureGpu(**spec, state_->src.kernel, options))
      return *err;
  if (options.device == Device::Hip)
    if (auto err = detail::ensureHip(**spec, state_->src.kernel, options))
      return *err;
  return state_->signatureOf(bound);
}

const CompiledInfo *Kernel::lastCompiled() const {
  Specialization *sp = state_->last;
  if (!sp)
    return nullptr;
  if (!sp->infoReady || (sp->gpu && !sp->infoHasGpu)) {
    CompiledInfo &info = sp->info;
    info.name = state_->src.kernel;
    info.signature = sp->signature;
    info.numWarps = sp->numWarps;
    info.numStages = sp->numStages;
    if (sp->compiled.module) {
      std::string text;
      llvm::raw_string_ostream os(text);
      sp->compiled.module->print(os);
      info.stages["ttir"] = std::move(text);
    }
    if (sp->amdLatest && sp->amd) {
      info.stages.erase("ptx");
      info.stages.erase("cubin");
      rt::describeCuda(*sp->amd, info);
      info.gpu = false; // compiled for an AMD GPU, not loaded anywhere
    } else if (sp->hipLatest && sp->hip) {
      info.stages.erase("ptx");
      info.stages.erase("cubin");
      rt::describeHip(*sp->hip, info);
    } else if (sp->gpu) {
      info.stages.erase("amdgcn");
      info.stages.erase("hsaco");
      rt::describeCuda(*sp->gpu, info);
    }
    sp->infoReady = true;
    sp->infoHasGpu = bool(sp->gpu) && !sp->amdLatest && !sp->hipLatest;
  }
  return &sp->info;
}

std::optional<Error> Kernel::launch(const Grid &grid, const std::vector<Arg> &args,
                                    const LaunchOptions &options) {
  if (grid.x < 0 || grid.y < 0 || grid.z < 0)
    return Error{"grid [" + std::to_string(grid.x) + ", " + std::to_string(grid.y) +
                     ", " + std::to_string(grid.z) + "] has a negative size",
                 Error::Argument};
  // A repeated GPU launch of plain arguments: its specialization by the
  // arguments' classes, no signature built, arguments passed as they are.
  std::vector<uint64_t> key;
  if (options.device == Device::Cuda || options.device == Device::Hip)
    key = state_->classKey(args, options);
  if (!key.empty()) {
    auto it = state_->byClass.find(key);
    bool hip = options.device == Device::Hip;
    if (it != state_->byClass.end() &&
        (hip ? it->second->hip && it->second->hipLatest
             : it->second->gpu && rt::cudaLoaded(*it->second->gpu))) {
      Specialization &sp = *(state_->last = it->second);
      if (grid.x == 0 || grid.y == 0 || grid.z == 0)
        return std::nullopt;
      std::vector<const Arg *> leaves;
      leaves.reserve(args.size());
      for (const Arg &a : args)
        if (!(a.kind == Arg::Int && a.specialize && rt::foldsAsOne(a.i, a.isUnsigned)))
          leaves.push_back(&a);
      auto argName = [&](size_t i) {
        return state_->src.params[state_->runtime[size_t(leaves[i] - args.data())]].name;
      };
      if (hip)
        return rt::launchHip(*sp.hip, grid, leaves, argName, options.stream);
      return rt::launchCuda(*sp.gpu, grid, leaves, argName, options.stream);
    }
  }
  std::vector<Arg> bound;
  if (auto err = state_->bind(args, bound))
    return err;
  auto spec = state_->specialize(bound, options);
  if (!spec)
    return spec.error();
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return std::nullopt; // an empty grid runs nothing, as in Triton
  std::vector<std::pair<const Arg *, std::string>> leaves;
  for (size_t k = 0; k < bound.size(); ++k)
    detail::runtimeLeaves(bound[k], state_->src.params[state_->runtime[k]].name, leaves);
  if (options.device == Device::Cuda || options.device == Device::Hip) {
    Specialization &sp = **spec;
    bool cuda = options.device == Device::Cuda;
    if (auto err = cuda ? ensureGpu(sp, state_->src.kernel, options)
                        : detail::ensureHip(sp, state_->src.kernel, options))
      return err;
    if (!key.empty())
      state_->byClass[key] = &sp;
    std::vector<const Arg *> gargs;
    for (auto &[leaf, name] : leaves)
      gargs.push_back(leaf);
    auto nameOf = [&](size_t i) { return leaves[i].second; };
    return cuda ? rt::launchCuda(*sp.gpu, grid, gargs, nameOf, options.stream)
                : rt::launchHip(*sp.hip, grid, gargs, nameOf, options.stream);
  }
  std::vector<interp::Arg> iargs;
  for (auto &[leaf, name] : leaves) {
    const Arg &a = *leaf;
    switch (a.kind) {
    case Arg::Buffer:
      iargs.push_back(interp::Arg::buffer(a.data, a.bytes, name));
      iargs.back().uninitialized = a.uninitialized;
      break;
    case Arg::Int:
    case Arg::Bool:
      iargs.push_back(interp::Arg::integer(a.i));
      break;
    case Arg::Float:
      iargs.push_back(interp::Arg::floating(a.f));
      break;
    default:
      break;
    }
  }
  if (!(*spec)->kernel)
    return Error{(*spec)->interpError, Error::Compile};
  interp::LaunchOptions lopts;
  lopts.grid = {grid.x, grid.y, grid.z};
  lopts.deterministic = options.deterministic;
  lopts.threads = options.threads;
  for (const LaunchOptions::HostBuffer &h : options.reachable)
    lopts.reachable.push_back(
        interp::Arg::buffer(const_cast<void *>(h.data), h.bytes, h.name));
  if (auto err = interp::parseSanitizers(options.sanitize, lopts.sanitize))
    return Error{"sanitize: " + *err, Error::Argument};
  if (auto err = interp::sanitizersFromEnvironment(lopts.sanitize))
    return Error{*err, Error::Argument};
  std::vector<std::string> reports;
  lopts.reports = &reports;
  // TRITIUM_RECORD: the buffers as they were before the launch, kept until
  // it is known whether it failed or was flagged.
  const char *recordRoot = std::getenv("TRITIUM_RECORD");
  std::vector<std::vector<uint8_t>> before;
  if (recordRoot && *recordRoot)
    for (const Arg &a : bound)
      if (a.kind == Arg::Buffer)
        before.emplace_back(static_cast<const uint8_t *>(a.data),
                            static_cast<const uint8_t *>(a.data) + a.bytes);
  auto err = (*spec)->kernel->launch(iargs, lopts, options.printOut);
  if (options.sanitizeOut) {
    for (const std::string &r : reports)
      *options.sanitizeOut += r + "\n";
  } else {
    interp::printReports(reports);
  }
  if (recordRoot && *recordRoot && (err || !reports.empty())) {
    rt::LaunchToRecord l;
    l.kernel = state_->src.kernel;
    l.source = state_->sourceText;
    l.grid = {grid.x, grid.y, grid.z};
    l.numWarps = options.numWarps;
    l.debug = state_->options.debug;
    for (size_t i = 0; i < state_->src.params.size(); ++i)
      if (state_->src.params[i].isConstexpr && !state_->constexprLits[i].empty())
        l.constexprs.emplace_back(state_->src.params[i].name, state_->constexprLits[i]);
    for (size_t k = 0; k < bound.size(); ++k)
      l.args.emplace_back(state_->src.params[state_->runtime[k]].name, &bound[k]);
    l.before = std::move(before);
    auto dir = rt::writeLaunchRecord(recordRoot, l);
    if (dir)
      std::fprintf(stderr, "tritium: recorded the launch of %s in %s (tritium replay %s)\n",
                   l.kernel.c_str(), dir->c_str(), dir->c_str());
    else
      std::fprintf(stderr, "tritium: %s\n", dir.error().message.c_str());
  }
  if (err)
    return Error{err->message, Error::Runtime};
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

struct Compiler::Impl {
  std::shared_ptr<mlir::MLIRContext> ctx = std::make_shared<mlir::MLIRContext>();
  /// Registered modules; each kernel keeps the set it was compiled with.
  fe::ModuleSet modules;

  Expected<Kernel> prepare(const std::string &file, const std::string *text,
                           const std::string &kernel, const Constexprs &constexprs,
                           const CompileOptions &options);
};

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {}
Compiler::~Compiler() = default;
Compiler::Compiler(Compiler &&) noexcept = default;
Compiler &Compiler::operator=(Compiler &&) noexcept = default;

Expected<Kernel> Compiler::Impl::prepare(const std::string &file, const std::string *text,
                                         const std::string &kernel,
                                         const Constexprs &constexprs,
                                         const CompileOptions &options) {
  auto state = std::make_unique<KernelState>();
  state->ctx = ctx;
  state->options = options;
  rt::KernelSource &src = state->src;
  if (auto err = rt::loadKernelSource(file, text, kernel, src))
    return Error{err->text, Error::Compile};
  if (text) {
    state->sourceText = *text;
  } else {
    std::ifstream in(file, std::ios::binary);
    state->sourceText.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  src.modules = modules;
  for (auto &[name, value] : constexprs) {
    auto it = std::find_if(src.params.begin(), src.params.end(),
                           [&](const rt::KernelParam &p) { return p.name == name; });
    if (it == src.params.end())
      return Error{"constexpr '" + name + "': kernel '" + kernel +
                       "' has no parameter '" + name + "' (its parameters: " +
                       src.paramList() + ")",
                   Error::Argument};
    // None for a runtime parameter is compiled in as a constant, as Triton
    // specializes None arguments (`bias=None` and `if bias is not None:`).
    if (!it->isConstexpr && value.text() != "None")
      return Error{"constexpr '" + name + "': '" + name +
                       "' is not a tl.constexpr parameter; pass it to launch()",
                   Error::Argument};
    it->isConstexpr = true;
    if (hasTopLevelComma(value.text()))
      return Error{"constexpr '" + name + "' = " + value.text() +
                       ": values cannot contain ',' outside parentheses and quotes",
                   Error::Argument};
  }
  std::string missing;
  for (size_t i = 0; i < src.params.size(); ++i) {
    const rt::KernelParam &p = src.params[i];
    if (p.isVariadic)
      return Error{"kernel '" + kernel + "' has *args/**kwargs parameters, which "
                   "cannot be bound",
                   Error::Compile};
    state->constexprLits.emplace_back();
    if (p.isConstexpr) {
      auto it = constexprs.find(p.name);
      if (it != constexprs.end())
        state->constexprLits.back() = it->second.text();
      else if (p.defaultLiteral)
        state->constexprLits.back() = *p.defaultLiteral;
      else
        missing += (missing.empty() ? "'" : ", '") + p.name + "'";
      continue;
    }
    state->runtime.push_back(i);
    state->defaults.push_back(p.defaultLiteral ? argFromLiteral(*p.defaultLiteral)
                                               : std::nullopt);
  }
  if (!missing.empty())
    return Error{"kernel '" + kernel + "' needs a value for constexpr " + missing,
                 Error::Argument};
  return Kernel(std::move(state));
}

Expected<Kernel> Compiler::compileFile(const std::string &path, const std::string &kernel,
                                       const Constexprs &constexprs,
                                       const CompileOptions &options) {
  return impl_->prepare(path, nullptr, kernel, constexprs, options);
}

std::optional<Error> Compiler::addModule(const std::string &name,
                                         const std::string &source,
                                         const std::string &fileName) {
  if (auto err = impl_->modules.add(name, source, fileName))
    return Error{"cannot register module: " + *err, Error::Argument};
  return std::nullopt;
}

std::optional<Error> Compiler::addModuleFile(const std::string &name,
                                             const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{"module '" + name + "': cannot open '" + path + "'",
                 Error::Compile};
  std::stringstream ss;
  ss << in.rdbuf();
  return addModule(name, ss.str(), path);
}

Expected<Kernel> Compiler::compileString(const std::string &source,
                                         const std::string &fileName,
                                         const std::string &kernel,
                                         const Constexprs &constexprs,
                                         const CompileOptions &options) {
  return impl_->prepare(fileName, &source, kernel, constexprs, options);
}

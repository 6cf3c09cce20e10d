//===- Tritium.h - the public C++ host API ----------------------*- C++ -*-===//
//
// Compile a Triton kernel from a file or a string and launch it on the CPU
// interpreter with host buffers and scalars, as Triton's launcher does:
//
//   #include "runtime/Tritium.h"
//
//   tritium::Compiler compiler;
//   auto kernel = compiler.compileFile("examples/vector_add.py", "add_kernel",
//                                      {{"BLOCK_SIZE", 1024}});
//   if (!kernel) {
//     std::cerr << kernel.error().message; // file:line:col, line, caret
//     return 1;
//   }
//   std::vector<float> x(n, 1.0f), y(n, 2.0f), out(n);
//   tritium::LaunchOptions opts;
//   opts.numWarps = 4; // accepted; the interpreter ignores it
//   auto err = kernel->launch(tritium::Grid{(n + 1023) / 1024},
//                             {tritium::buffer(x), tritium::buffer(y),
//                              tritium::buffer(out), tritium::scalar(n)},
//                             opts);
//   if (err)
//     std::cerr << err->message; // e.g. an out-of-bounds load, located
//
// Arguments are given positionally, one per runtime (non-constexpr)
// parameter of the kernel; trailing parameters with defaults may be left
// out. Constexpr parameters are fixed when compiling (or take their
// defaults). Each launch specializes the kernel from the actual values
// exactly as Triton does: a pointer is `*fp32:16` when 16-byte aligned, an
// int equal to 1 is folded as a constant, ints are i32/i64 by range (`:16`
// when divisible by 16), floats fp32, bools i1. Every specialization is
// compiled once and cached in its Kernel; later launches with the same key
// (signature, num_warps, num_stages) reuse it.
//
// A kernel may call @jit helpers and read constexpr globals of other Python
// modules; register their sources first with Compiler::addModule:
//
//   compiler.addModuleFile("helpers", "kernels/helpers.py");
//   auto kernel = compiler.compileFile("kernels/main.py", "k");
//
// Errors are values (Expected<T>, std::optional<Error>); nothing throws
// into user code. A Compiler and its Kernels are not thread-safe; a Kernel
// keeps what it needs alive, so it may outlive its Compiler.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_TRITIUM_H
#define TRITIUM_RUNTIME_TRITIUM_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace tritium {

/// An error as text ready to print: compile diagnostics with file:line:col
/// and a caret, argument mistakes naming the parameter, interpreter faults
/// naming the kernel, program id, source line and address.
struct Error {
  std::string message;
  /// What failed: binding the arguments (count, kind, an unknown
  /// constexpr), compiling (syntax and type errors), running the grid
  /// (interpreter faults), or fitting the device (a compiled kernel needs
  /// more shared memory or threads than the GPU gives a block: Triton's
  /// OutOfResources, which autotuning skips).
  enum Kind { Other, Argument, Compile, Runtime, Resources } kind = Other;
};

/// A value or an Error.
template <typename T> class Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Error error) : v_(std::move(error)) {}
  explicit operator bool() const { return v_.index() == 0; }
  T &operator*() { return std::get<0>(v_); }
  const T &operator*() const { return std::get<0>(v_); }
  T *operator->() { return &std::get<0>(v_); }
  const T *operator->() const { return &std::get<0>(v_); }
  const Error &error() const { return std::get<1>(v_); }

private:
  std::variant<T, Error> v_;
};

/// Element types of buffers.
enum class DType {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64,
  // 8-bit floats, one byte per element: e4m3 (NVIDIA, bias 7), e5m2,
  // e4m3 with bias 15, e4m3fnuz (bias 8), e5m2fnuz (bias 16).
  F8E4NV, F8E5, F8E4B15, F8E4B8, F8E5B16
};

/// Triton's spelling ("fp32", "bf16", "i1") and the size of one element.
const char *dtypeName(DType t);
size_t dtypeBytes(DType t);

/// 16-bit floats held as their bits (see toHalf / toBf16).
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
uint16_t toHalf(float f);
float fromHalf(uint16_t bits);
uint16_t toBf16(float f);
float fromBf16(uint16_t bits);

/// The DType of a C++ element type.
template <typename T> struct DTypeOf;
#define TRITIUM_DTYPE_OF(T, D)                                                 \
  template <> struct DTypeOf<T> {                                              \
    static constexpr DType value = DType::D;                                   \
  };
TRITIUM_DTYPE_OF(bool, I1)
TRITIUM_DTYPE_OF(int8_t, I8)
TRITIUM_DTYPE_OF(int16_t, I16)
TRITIUM_DTYPE_OF(int32_t, I32)
TRITIUM_DTYPE_OF(int64_t, I64)
TRITIUM_DTYPE_OF(uint8_t, U8)
TRITIUM_DTYPE_OF(uint16_t, U16)
TRITIUM_DTYPE_OF(uint32_t, U32)
TRITIUM_DTYPE_OF(uint64_t, U64)
TRITIUM_DTYPE_OF(float, F32)
TRITIUM_DTYPE_OF(double, F64)
TRITIUM_DTYPE_OF(Half, F16)
TRITIUM_DTYPE_OF(BFloat16, BF16)
#undef TRITIUM_DTYPE_OF

/// One launch argument: a host buffer (the kernel reads and writes it in
/// place) or a scalar. Build them with buffer() and scalar().
struct Arg {
  /// Tuple: a tuple argument, its elements in `elems` (nested tuples
  /// allowed); Literal: a compile-time element of a tuple (None, a
  /// tl.constexpr), spelled as a signature writes it, in `literal`.
  /// Descriptor: a host tensor descriptor (Triton's TensorDescriptor),
  /// `elems` its base buffer, then its shape and its strides (Int each, in
  /// elements; the last stride 1), with `blockShape` and `padding`.
  enum Kind { Buffer, Int, Float, Bool, Tuple, Literal, Descriptor } kind = Int;
  void *data = nullptr; // Buffer
  size_t bytes = 0;
  DType dtype = DType::F32;
  int64_t i = 0;           // Int (bits), Bool
  bool isUnsigned = false; // Int in [2^63, 2^64)
  double f = 0;            // Float
  /// False for Triton's `do_not_specialize`: no `:16` on ints and pointers,
  /// and an int equal to 1 is passed rather than folded.
  bool specialize = true;
  /// Buffer: garbage until the kernel writes it (torch.empty's output);
  /// the interpreter's "uninit" sanitizer reports reads of bytes nothing
  /// wrote.
  bool uninitialized = false;
  std::vector<Arg> elems; // Tuple, Descriptor
  std::string literal;    // Literal
  std::vector<int64_t> blockShape; // Descriptor
  std::string padding = "zero";    // Descriptor: "zero" or "nan"
};

/// A tuple argument (`kernel(x, (ptr_a, ptr_b), ...)`): the kernel indexes
/// it, unpacks it or loops over it with tl.static_range.
inline Arg tuple(std::vector<Arg> elems) {
  Arg a;
  a.kind = Arg::Tuple;
  a.elems = std::move(elems);
  return a;
}
/// A tensor descriptor over `base` (a buffer argument) with `shape` and
/// `strides` in elements (the last stride must be 1), loaded and stored in
/// blocks of `blockShape`; out-of-bounds lanes read 0 (`padding` "zero")
/// or NaN ("nan").
inline Arg tensorDescriptor(Arg base, const std::vector<int64_t> &shape,
                            const std::vector<int64_t> &strides,
                            std::vector<int64_t> blockShape,
                            std::string padding = "zero") {
  Arg a;
  a.kind = Arg::Descriptor;
  a.elems.push_back(std::move(base));
  for (const auto *v : {&shape, &strides})
    for (int64_t x : *v) {
      Arg i;
      i.kind = Arg::Int;
      i.i = x;
      i.specialize = false;
      a.elems.push_back(i);
    }
  a.blockShape = std::move(blockShape);
  a.padding = std::move(padding);
  return a;
}
/// A compile-time tuple element ("None", "4", "'name'", "tl.float16").
inline Arg literal(std::string text) {
  Arg a;
  a.kind = Arg::Literal;
  a.literal = std::move(text);
  return a;
}

/// `bytes` bytes of host memory at `data` holding elements of `dtype`.
Arg buffer(void *data, size_t bytes, DType dtype);
/// A vector's elements, their dtype from the element type.
template <typename T> Arg buffer(std::vector<T> &v) {
  return buffer(v.data(), v.size() * sizeof(T), DTypeOf<T>::value);
}
/// A vector's elements viewed as `dtype` (e.g. uint16_t bits as F16 or
/// BF16); the launch checks the sizes agree.
template <typename T> Arg buffer(std::vector<T> &v, DType dtype) {
  return buffer(v.data(), v.size() * sizeof(T), dtype);
}

/// A scalar: integers (i32/i64/u64 by value), floats (fp32), bools (i1).
template <typename T, std::enable_if_t<std::is_integral_v<T> &&
                                           !std::is_same_v<T, bool>,
                                       int> = 0>
Arg scalar(T v) {
  Arg a;
  a.kind = Arg::Int;
  a.i = int64_t(v);
  a.isUnsigned = std::is_unsigned_v<T> && uint64_t(v) > uint64_t(INT64_MAX);
  return a;
}
inline Arg scalar(double v) {
  Arg a;
  a.kind = Arg::Float;
  a.f = v;
  return a;
}
inline Arg scalar(float v) { return scalar(double(v)); }
inline Arg scalar(bool v) {
  Arg a;
  a.kind = Arg::Bool;
  a.i = v;
  return a;
}

/// A constexpr parameter's value: an int, a float, a bool, a string
/// (`ACTIVATION="leaky_relu"`), None, or a literal as a signature writes it
/// (`Constexpr::literal("float16")` for tl.float16).
class Constexpr {
public:
  template <typename T, std::enable_if_t<std::is_integral_v<T> &&
                                             !std::is_same_v<T, bool>,
                                         int> = 0>
  Constexpr(T v) : text_(std::to_string(v)) {}
  Constexpr(bool v) : text_(v ? "True" : "False") {}
  Constexpr(double v);
  Constexpr(const char *s) : text_("'" + std::string(s) + "'") {}
  Constexpr(const std::string &s) : text_("'" + s + "'") {}
  static Constexpr none() { return literal("None"); }
  static Constexpr literal(std::string text) {
    Constexpr c(0);
    c.text_ = std::move(text);
    return c;
  }
  const std::string &text() const { return text_; }

private:
  std::string text_;
};
using Constexprs = std::map<std::string, Constexpr>;

/// A 1-3-D launch grid.
struct Grid {
  int64_t x = 1, y = 1, z = 1;
};

/// Where a launch runs: the CPU interpreter (host buffers), the CUDA GPU or
/// the AMD GPU through HIP (buffers hold device pointers in Arg::data).
enum class Device { Interpreter, Cuda, Hip };

/// Whether a CUDA GPU can run kernels; `why` says why not.
bool cudaAvailable(std::string *why = nullptr);

/// Whether an AMD GPU can run kernels through HIP: the HIP runtime
/// (libamdhip64, or TRITIUM_HIP_LIBRARY) loads, it sees a device, and the
/// code generator supports the device's architecture (gfx90a, gfx942,
/// gfx950). `why` says why not ("no HIP runtime: ...", "no AMD GPU: ...").
bool hipAvailable(std::string *why = nullptr);

/// A CUdevice_attribute of the CUDA device kernels launch on
/// (cuDeviceGetAttribute: 16 is the multiprocessor count, 97 the opt-in
/// shared memory per block, ...); nullopt with `why` when there is no GPU
/// or the driver refuses the attribute.
std::optional<int> cudaDeviceAttribute(int attribute,
                                       std::string *why = nullptr);

struct LaunchOptions {
  Device device = Device::Interpreter;
  int numWarps = 4;  // part of the cache key; the interpreter ignores it
  int numStages = 3; // likewise
  /// Register limit per thread on the GPU (0: none), as Triton's maxnreg.
  int maxnreg = 0;
  /// Multiplies and adds may fuse on the GPU (Triton's enable_fp_fusion).
  bool enableFpFusion = true;
  /// Run programs one after another in program-id order (reproducible
  /// prints and races).
  bool deterministic = false;
  int threads = 0; // worker threads for the grid (0: OpenMP's default)
  /// The CUstream (hipStream_t on Device::Hip) a GPU launch goes on (null:
  /// the legacy default stream, HIP's null stream).
  void *stream = nullptr;
  /// device_print output goes here (stdout when null).
  std::string *printOut = nullptr;
  /// Sanitizers for an interpreter launch, comma-separated: "nan" reports
  /// the first op of each program that turns finite operands into a NaN or
  /// an infinity; "uninit" the first read of each program of bytes of an
  /// `uninitialized` buffer that nothing wrote; "race" two programs
  /// touching the same bytes, one with a plain store, that no atomic
  /// release/acquire pair orders (the programs then run in order);
  /// "overflow" the first signed integer +, -, * of each program whose
  /// result does not fit its type. TRITIUM_SANITIZE adds its own. Reports go to
  /// `sanitizeOut` (one per line, program-id order) or to stderr.
  std::string sanitize;
  std::string *sanitizeOut = nullptr;
  /// An interpreter launch: host memory the kernel may reach through
  /// pointers it reads from memory (integers cast with tl.pointer_type, as
  /// 08-grouped-gemm's per-problem tables), beyond its buffer arguments.
  /// An access outside every buffer is an error that names the address.
  struct HostBuffer {
    const void *data = nullptr;
    size_t bytes = 0;
    std::string name; // in reports
  };
  std::vector<HostBuffer> reachable;
};

struct CompileOptions {
  bool debug = false; // keep device_assert (Triton drops it unless debug)
};

class KernelState;
struct WarmupJob;

/// One compiled specialization, as a launch or warmup left it: its stages
/// as text ("ttir": the tile IR after the tile passes; on the GPU also
/// "ttgir": the tile IR with layouts, "llir", "ptx", "cubin" (binary)) and
/// the resources the driver reports.
struct CompiledInfo {
  std::string name;
  std::string signature;
  bool gpu = false;        // compiled for the CUDA or the HIP device
  int numWarps = 4;
  int numStages = 3;
  int sharedBytes = 0;     // shared memory the kernel launches with
  int numRegs = 0;         // registers per thread (GPU)
  int numSpills = 0;       // local-memory words per thread (GPU)
  std::map<std::string, std::string> stages;
};

/// A compiled kernel: its source and constexprs, and a cache of the
/// specializations launched so far.
class Kernel {
public:
  Kernel(Kernel &&) noexcept;
  Kernel &operator=(Kernel &&) noexcept;
  ~Kernel();

  /// Specializes on `args`, compiles on a cache miss, runs the grid. Buffers
  /// are updated in place. Returns the first error, if any.
  std::optional<Error> launch(const Grid &grid, const std::vector<Arg> &args,
                              const LaunchOptions &options = {});
  /// Compiles (or finds cached) the specialization for `args` without
  /// launching; returns its signature.
  Expected<std::string> warmup(const std::vector<Arg> &args,
                               const LaunchOptions &options = {});
  /// The signature `args` specialize to ("*fp32:16,*fp32:16,i32,1024"):
  /// one entry per parameter, constexprs as their values.
  Expected<std::string> signature(const std::vector<Arg> &args) const;
  /// Compiles the specialization `signature` names (one entry per
  /// parameter, as signature() writes it; the constexprs' entries must be
  /// the values the kernel was compiled with) without arguments or a
  /// launch, and, when `cudaComputeCapability` is set (80, 90), its GPU
  /// code for that target with no GPU needed: lastCompiled() then has the
  /// ttgir, llir and ptx stages (and cubin where ptxas is installed).
  std::optional<Error> compileSignature(const std::string &signature,
                                        const LaunchOptions &options = {},
                                        unsigned cudaComputeCapability = 0);
  /// The same for an AMD target (`amdArch`: "gfx90a", "gfx942", "gfx950"):
  /// lastCompiled() then has the ttgir, llir, amdgcn and hsaco stages.
  std::optional<Error> compileSignatureForAmd(const std::string &signature,
                                              const std::string &amdArch,
                                              const LaunchOptions &options = {});

  const std::string &name() const;
  /// The runtime parameters launch() binds, in order.
  std::vector<std::string> parameters() const;
  /// One parameter of the kernel's signature.
  struct ParamInfo {
    std::string name;
    bool isConstexpr = false;
    bool hasDefault = false;
  };
  /// Every parameter in source order, constexprs included.
  std::vector<ParamInfo> parameterInfo() const;
  /// How many specializations were compiled (cache misses).
  size_t numCompiles() const;
  /// Output of tl.static_print from the latest compile.
  const std::vector<std::string> &staticPrints() const;
  /// The specialization the latest launch or warmup used (null before
  /// one); valid while the kernel lives.
  const CompiledInfo *lastCompiled() const;

private:
  friend class Compiler;
  friend std::vector<Expected<std::string>> warmupAll(const std::vector<WarmupJob> &,
                                                      unsigned);
  explicit Kernel(std::unique_ptr<KernelState> state);
  std::unique_ptr<KernelState> state_;
};

/// One specialization for warmupAll: a kernel, the arguments it would be
/// launched with, and the launch options.
struct WarmupJob {
  Kernel *kernel = nullptr;
  std::vector<Arg> args;
  LaunchOptions options;
  /// When set (80, 90): the GPU code for that target, cross-compiled with
  /// no GPU needed, as compileSignature does (`options.device` aside).
  unsigned cudaComputeCapability = 0;
};

/// Kernel::warmup for every job, with the GPU compiles of those not yet
/// compiled (LLVM's optimizations, PTX, ptxas) `threads` at a time (0: one
/// per core); the tile IR of each is made one at a time first, and the
/// modules are loaded on the device one at a time last. Jobs may share a
/// kernel or a specialization. One result per job, in order: its signature
/// or its error. Afterwards each kernel's lastCompiled() is that of its
/// last job.
std::vector<Expected<std::string>> warmupAll(const std::vector<WarmupJob> &jobs,
                                             unsigned threads = 0);

/// Parses kernel sources and hands out Kernels; owns the MLIR context the
/// kernels compile in (shared with them).
class Compiler {
public:
  Compiler();
  ~Compiler();
  Compiler(Compiler &&) noexcept;
  Compiler &operator=(Compiler &&) noexcept;

  /// Reads `path` and prepares `kernel` with `constexprs` (by name; the
  /// others take their defaults). Syntax errors, an unknown kernel or
  /// constexpr, and a missing constexpr value are reported here; type
  /// errors when a specialization is compiled (the first launch or warmup).
  Expected<Kernel> compileFile(const std::string &path, const std::string &kernel,
                               const Constexprs &constexprs = {},
                               const CompileOptions &options = {});
  /// Same, with the source given as text; `fileName` appears in messages.
  Expected<Kernel> compileString(const std::string &source,
                                 const std::string &fileName,
                                 const std::string &kernel,
                                 const Constexprs &constexprs = {},
                                 const CompileOptions &options = {});

  /// Registers the source of Python module `name` ("helpers", "pkg.sub"),
  /// so that kernels compiled afterwards can use its @jit functions and
  /// constexpr globals through `import helpers`, `from pkg.sub import f as
  /// g`, `from . import x` or `from helpers import *`. Names in a helper's
  /// body resolve in its own module; errors and locations name `fileName`.
  /// A module is parsed when a kernel first needs it. Registering a name
  /// again replaces it for kernels compiled afterwards. A file named
  /// `__init__.py` is a package (relative imports resolve against `name`
  /// itself). Registering the kernel's own file (same `fileName`) names the
  /// kernel's module, so helpers may import it and its relative imports
  /// resolve.
  std::optional<Error> addModule(const std::string &name, const std::string &source,
                                 const std::string &fileName);
  /// Same, reading the source from `path` (which appears in messages).
  std::optional<Error> addModuleFile(const std::string &name, const std::string &path);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace tritium

#endif // TRITIUM_RUNTIME_TRITIUM_H

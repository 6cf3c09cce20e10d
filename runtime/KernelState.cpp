//===- KernelState.cpp - binding arguments and specializing a kernel -------===//
//
// KernelState (runtime/KernelState.h): binds positional launch arguments to
// a kernel's runtime parameters (checking tensor descriptors and tuples
// on the way), derives each launch's specialization key and signature from
// the argument values (runtime/Specialize.h), and compiles each new
// specialization once. When a specialization does not compile, flipping
// one argument's kind (pointer <-> scalar) is tried, so that a scalar passed
// for a pointer is reported by the parameter's name.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelState.h"

#include "runtime/Specialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace tritium;
using tritium::detail::Specialization;

namespace {
std::string kindName(const Arg &a);

/// Descriptors in `a` (itself or inside tuples) are well formed: a buffer
/// base, rank 1-5 with as many shape and stride ints, the last stride 1.
std::optional<Error> checkDescriptors(const Arg &a, const std::string &name) {
  if (a.kind == Arg::Tuple) {
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (auto err = checkDescriptors(a.elems[i], name + "[" + std::to_string(i) + "]"))
        return err;
    return std::nullopt;
  }
  if (a.kind != Arg::Descriptor)
    return std::nullopt;
  size_t rank = a.blockShape.size();
  auto bad = [&](const std::string &why) {
    return Error{"argument '" + name + "' (a tensor descriptor): " + why, Error::Argument};
  };
  if (rank < 1 || rank > 5)
    return bad("block_shape has rank " + std::to_string(rank) + "; descriptors have rank 1 to 5");
  if (a.elems.size() != 1 + 2 * rank)
    return bad("needs a base, " + std::to_string(rank) + " shape values and " +
               std::to_string(rank) + " strides, got " + std::to_string(a.elems.size()) +
               " values");
  if (a.elems[0].kind != Arg::Buffer)
    return bad("its base must be a buffer (tensor), got " + kindName(a.elems[0]));
  for (size_t i = 1; i < a.elems.size(); ++i)
    if (a.elems[i].kind != Arg::Int)
      return bad("shape and strides must be ints");
  if (a.elems.back().i != 1)
    return bad("the last stride must be 1, got " + std::to_string(a.elems.back().i));
  // Triton's rule for descriptors (what TMA needs); kernels rely on it.
  if (reinterpret_cast<uintptr_t>(a.elems[0].data) % 16)
    return bad("its base must be 16-byte aligned");
  size_t eb = dtypeBytes(a.elems[0].dtype);
  for (size_t k = 1 + rank; k + 1 < a.elems.size(); ++k)
    if ((a.elems[k].i * int64_t(eb)) % 16)
      return bad("strides but the last must be multiples of 16 bytes, got " +
                 std::to_string(a.elems[k].i) + " elements of " + std::to_string(eb) +
                 " bytes");
  for (int64_t b : a.blockShape)
    if (b <= 0 || (b & (b - 1)))
      return bad("block_shape entries must be powers of two, got " + std::to_string(b));
  if (a.padding != "zero" && a.padding != "nan")
    return bad("padding must be 'zero' or 'nan', got '" + a.padding + "'");
  return std::nullopt;
}

std::string kindName(const Arg &a) {
  switch (a.kind) {
  case Arg::Buffer:
    return "a pointer (buffer)";
  case Arg::Tuple:
    return "a tuple";
  case Arg::Literal:
    return "a constant";
  case Arg::Descriptor:
    return "a tensor descriptor";
  default:
    return "a scalar";
  }
}

} // namespace

void tritium::detail::runtimeLeaves(const Arg &a, const std::string &name,
                                    std::vector<std::pair<const Arg *, std::string>> &out) {
  if (a.kind == Arg::Tuple) {
    for (size_t i = 0; i < a.elems.size(); ++i)
      runtimeLeaves(a.elems[i], name + "[" + std::to_string(i) + "]", out);
    return;
  }
  if (a.kind == Arg::Descriptor) {
    // base, shape, strides but the last (compiled in as 1)
    static const char *parts[] = {".base", ".shape", ".strides"};
    size_t rank = a.blockShape.size();
    for (size_t i = 0; i + 1 < a.elems.size(); ++i) {
      size_t part = i == 0 ? 0 : i <= rank ? 1 : 2;
      std::string label = name + parts[part];
      if (part)
        label += "[" + std::to_string(part == 1 ? i - 1 : i - 1 - rank) + "]";
      out.push_back({&a.elems[i], label});
    }
    return;
  }
  if (a.kind == Arg::Literal ||
      (a.kind == Arg::Int && a.specialize && rt::foldsAsOne(a.i, a.isUnsigned)))
    return;
  out.push_back({&a, name});
}


//===----------------------------------------------------------------------===//
// KernelState
//===----------------------------------------------------------------------===//


std::vector<uint64_t> KernelState::classKey(const std::vector<Arg> &args,
                                            const LaunchOptions &options) const {
  std::vector<uint64_t> key;
  if (args.size() != runtime.size())
    return key;
  key.reserve(args.size() + 1);
  key.push_back(uint64_t(options.numWarps) | uint64_t(options.numStages) << 8 |
                uint64_t(options.maxnreg) << 16 | uint64_t(options.enableFpFusion) << 32 |
                uint64_t(options.device) << 40);
  for (const Arg &a : args) {
    // What signatureOf reads of the argument: kind, dtype, and the classes
    // specializeInt/specializePointer put values in.
    uint64_t c = uint64_t(a.kind) | uint64_t(a.specialize) << 4;
    switch (a.kind) {
    case Arg::Buffer:
      if ((!a.data && a.bytes) || a.bytes % dtypeBytes(a.dtype))
        return {}; // bind names the argument
      c |= uint64_t(a.dtype) << 8 | uint64_t(reinterpret_cast<uintptr_t>(a.data) % 16 == 0) << 5;
      break;
    case Arg::Int:
      c |= uint64_t(rt::intClass(a.i, a.isUnsigned)) << 8 |
           uint64_t(rt::divisibleBy16(a.i)) << 5;
      break;
    case Arg::Float:
    case Arg::Bool:
      break;
    default:
      return {};
    }
    key.push_back(c);
  }
  return key;
}

std::optional<Error> KernelState::bind(const std::vector<Arg> &args,
                                       std::vector<Arg> &bound) const {
  auto takes = [&] {
    std::string list;
    for (size_t i : runtime)
      list += (list.empty() ? "" : ", ") + src.params[i].name;
    return "kernel '" + src.kernel + "' takes " + std::to_string(runtime.size()) +
           " argument" + (runtime.size() == 1 ? "" : "s") + " (" + list + "), got " +
           std::to_string(args.size());
  };
  if (args.size() > runtime.size())
    return Error{takes(), Error::Argument};
  bound.clear();
  std::string missing;
  for (size_t k = 0; k < runtime.size(); ++k) {
    const std::string &name = src.params[runtime[k]].name;
    if (k >= args.size()) {
      if (defaults[k])
        bound.push_back(*defaults[k]);
      else
        missing += (missing.empty() ? "'" : ", '") + name + "'";
      continue;
    }
    const Arg &a = args[k];
    // A pointer where a number was (or the other way round) is another
    // specialization, as in Triton: compiled, and diagnosed if it fails.
    if (a.kind == Arg::Literal)
      return Error{"argument '" + name + "': a constant (" + a.literal +
                       ") is a tuple element, not an argument of its own",
                   Error::Argument};
    if (auto err = checkDescriptors(a, name))
      return err;
    std::vector<std::pair<const Arg *, std::string>> leaves;
    detail::runtimeLeaves(a, name, leaves);
    for (auto &[leaf, leafName] : leaves)
      if (leaf->kind == Arg::Buffer) {
        if (!leaf->data && leaf->bytes)
          return Error{"argument '" + leafName + "' is a null buffer of " +
                           std::to_string(leaf->bytes) + " bytes",
                       Error::Argument};
        if (leaf->bytes % dtypeBytes(leaf->dtype))
          return Error{"argument '" + leafName + "': " + std::to_string(leaf->bytes) +
                           " bytes is not a whole number of " + dtypeName(leaf->dtype) +
                           " elements",
                       Error::Argument};
      }
    bound.push_back(a);
  }
  if (!missing.empty())
    return Error{takes() + "; missing " + missing, Error::Argument};
  return std::nullopt;
}

std::string KernelState::entryFor(const Arg &a) const {
  // do_not_specialize keeps only the type: "i32:16" -> "i32".
  auto typeOnly = [&](std::string entry) {
    return a.specialize ? entry : entry.substr(0, entry.find(':'));
  };
  switch (a.kind) {
  case Arg::Buffer:
    return typeOnly(rt::specializePointer(dtypeName(a.dtype), a.data));
  case Arg::Int:
    return typeOnly(rt::specializeInt(a.i, a.isUnsigned));
  case Arg::Float:
    return rt::specializeFloat();
  case Arg::Bool:
    return rt::specializeBool();
  case Arg::Literal:
    return a.literal;
  case Arg::Descriptor: {
    std::string s = std::string("tensordesc<") + dtypeName(a.elems[0].dtype) + "[";
    for (size_t i = 0; i < a.blockShape.size(); ++i)
      s += (i ? "," : "") + std::to_string(a.blockShape[i]);
    // A shape of multiples of 16 is specialized, as ints are: its blocks'
    // boundaries then never cut a 16-byte run.
    bool by16 = a.specialize;
    for (size_t i = 1; i <= a.blockShape.size() && i < a.elems.size(); ++i)
      by16 &= a.elems[i].i > 0 && a.elems[i].i % 16 == 0;
    return s + "]" + (a.padding == "nan" ? ",nan" : "") + ">" + (by16 ? ":16" : "");
  }
  case Arg::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < a.elems.size(); ++i)
      s += (i ? "," : "") + entryFor(a.elems[i]);
    return s + ")";
  }
  }
  return "";
}

std::string KernelState::signatureOf(const std::vector<Arg> &bound,
                                     std::optional<size_t> flip) const {
  std::string sig;
  size_t k = 0;
  std::string ptrType = "*fp32";
  for (const Arg &a : bound)
    if (a.kind == Arg::Buffer) {
      ptrType = std::string("*") + dtypeName(a.dtype);
      break;
    }
  for (size_t i = 0; i < src.params.size(); ++i) {
    std::string entry;
    if (src.params[i].isConstexpr) {
      entry = constexprLits[i];
    } else {
      const Arg &a = bound[k];
      if (flip && *flip == k && a.kind != Arg::Tuple && a.kind != Arg::Descriptor)
        entry = a.kind == Arg::Buffer ? "i64" : ptrType + ":16";
      else
        entry = entryFor(a);
      ++k;
    }
    sig += (sig.empty() ? "" : ",") + entry;
  }
  return sig;
}

std::string KernelState::diagnoseKinds(const std::vector<Arg> &bound,
                                       const LaunchOptions &options) {
  if (bound.size() > 32)
    return "";
  fe::CompileOptions copts;
  copts.numWarps = options.numWarps;
  copts.numStages = options.numStages;
  copts.debug = this->options.debug;
  for (size_t k = 0; k < bound.size(); ++k) {
    if (bound[k].kind == Arg::Tuple || bound[k].kind == Arg::Descriptor)
      continue;
    rt::CompiledKernel probe;
    if (!rt::compileSpecialization(*ctx, src, signatureOf(bound, k), copts, probe))
      return "argument '" + src.params[runtime[k]].name + "' expects " +
             (bound[k].kind == Arg::Buffer ? "a scalar" : "a pointer (buffer)") +
             ", got " + kindName(bound[k]);
  }
  return "";
}

Expected<Specialization *> KernelState::specialize(const std::vector<Arg> &bound,
                                                   const LaunchOptions &options) {
  return specializeSignature(signatureOf(bound), options, &bound);
}

Expected<Specialization *>
KernelState::specializeSignature(const std::string &sig, const LaunchOptions &options,
                                 const std::vector<Arg> *bound) {
  std::string key = sig + ";num_warps=" + std::to_string(options.numWarps) +
                    ";num_stages=" + std::to_string(options.numStages) +
                    ";maxnreg=" + std::to_string(options.maxnreg) +
                    (options.enableFpFusion ? "" : ";no_fp_fusion");
  auto it = cache.find(key);
  if (it != cache.end())
    return last = &it->second;
  fe::CompileOptions copts;
  copts.numWarps = options.numWarps;
  copts.numStages = options.numStages;
  copts.debug = this->options.debug;
  Specialization spec;
  if (auto err = rt::compileSpecialization(*ctx, src, sig, copts, spec.compiled)) {
    staticPrints = spec.compiled.staticPrints;
    std::string kinds = bound ? diagnoseKinds(*bound, options) : "";
    // The kernel does not compile for these arguments; when it would with
    // one argument of the other kind, that is said first (the compile error
    // follows), and it stays a compile error, as in Triton.
    if (kinds.empty())
      return Error{err->text, Error::Compile};
    return Error{kinds + "\n" + err->text, Error::Compile};
  }
  staticPrints = spec.compiled.staticPrints;
  auto created = interp::Kernel::create(*spec.compiled.module, src.kernel);
  if (auto *e = std::get_if<interp::RunError>(&created))
    spec.interpError = e->message;
  else
    spec.kernel = std::move(std::get<std::unique_ptr<interp::Kernel>>(created));
  ++compiles;
  spec.signature = sig;
  spec.numWarps = options.numWarps;
  spec.numStages = options.numStages;
  return last = &cache.emplace(key, std::move(spec)).first->second;
}

//===- TritiumC.cpp - the C API over the C++ host API ---------------------===//
//
// Implements runtime/capi/tritium.h: opaque handles wrap tritium::Compiler
// and tritium::Kernel, C arguments become tritium::Arg, and every error
// (including a C++ exception, which must not cross the boundary) becomes a
// status plus a thread-local message.
//
//===----------------------------------------------------------------------===//
#include "runtime/capi/tritium.h"

#include "runtime/Tritium.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

struct tritium_compiler {
  tritium::Compiler compiler;
};

struct tritium_kernel {
  explicit tritium_kernel(tritium::Kernel k)
      : kernel(std::move(k)), params(kernel.parameterInfo()) {}
  tritium::Kernel kernel;
  std::vector<tritium::Kernel::ParamInfo> params;
  std::string signature; // of the latest warmup
};

namespace {
thread_local std::string lastError;

tritium_status fail(tritium_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

tritium_status fail(const tritium::Error &e) {
  switch (e.kind) {
  case tritium::Error::Argument:
    return fail(TRITIUM_ERROR_ARGUMENT, e.message);
  case tritium::Error::Compile:
    return fail(TRITIUM_ERROR_COMPILE, e.message);
  case tritium::Error::Runtime:
    return fail(TRITIUM_ERROR_RUNTIME, e.message);
  case tritium::Error::Resources:
    return fail(TRITIUM_ERROR_RESOURCES, e.message);
  case tritium::Error::Other:
    break;
  }
  return fail(TRITIUM_ERROR_INTERNAL, e.message);
}

/// Runs `body`, turning an escaping C++ exception into an internal error.
template <typename F> tritium_status guarded(F body) {
  try {
    lastError.clear();
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TRITIUM_ERROR_INTERNAL, "out of memory");
  } catch (const std::exception &e) {
    return fail(TRITIUM_ERROR_INTERNAL,
                std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(TRITIUM_ERROR_INTERNAL, "internal error");
  }
}

bool toDType(int d, tritium::DType &out) {
  using tritium::DType;
  static const DType table[] = {DType::I1,  DType::I8,  DType::I16,  DType::I32,
                                DType::I64, DType::U8,  DType::U16,  DType::U32,
                                DType::U64, DType::F16, DType::BF16, DType::F32,
                                DType::F64, DType::F8E4NV, DType::F8E5,
                                DType::F8E4B15, DType::F8E4B8, DType::F8E5B16};
  if (d < 0 || d >= int(sizeof(table) / sizeof(table[0])))
    return false;
  out = table[d];
  return true;
}

/// Converts the record at `k` (and, for a tuple, its elements after it)
/// into `a`, advancing `k` past them; `label` names it in messages
/// ("ptrs[1]").
tritium_status convertArg(const tritium_arg *args, size_t nargs, size_t &k,
                          const std::string &label, int depth, tritium::Arg &a) {
  std::string name = "argument '" + label + "'";
  if (k >= nargs)
    return fail(TRITIUM_ERROR_ARGUMENT,
                name + ": a tuple's elements run past the " + std::to_string(nargs) +
                    " records of args");
  const tritium_arg &c = args[k++];
  switch (c.kind) {
  case TRITIUM_ARG_BUFFER: {
    tritium::DType dtype;
    if (!toDType(c.value.buffer.dtype, dtype))
      return fail(TRITIUM_ERROR_ARGUMENT,
                  name + ": unknown dtype " + std::to_string(c.value.buffer.dtype));
    a = tritium::buffer(c.value.buffer.data, c.value.buffer.bytes, dtype);
    break;
  }
  case TRITIUM_ARG_INT:
    a = tritium::scalar(c.value.i);
    a.isUnsigned = (c.flags & TRITIUM_ARG_UNSIGNED) != 0;
    break;
  case TRITIUM_ARG_FLOAT:
    a = tritium::scalar(c.value.f);
    break;
  case TRITIUM_ARG_BOOL:
    a = tritium::scalar(c.value.i != 0);
    break;
  case TRITIUM_ARG_LITERAL:
    if (!c.value.literal)
      return fail(TRITIUM_ERROR_ARGUMENT, name + ": a null literal");
    a = tritium::literal(c.value.literal);
    break;
  case TRITIUM_ARG_TUPLE: {
    if (c.value.i < 0 || size_t(c.value.i) > nargs - k)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  name + ": a tuple of " + std::to_string(c.value.i) +
                      " elements, but only " + std::to_string(nargs - k) +
                      " records follow it");
    if (depth > 64)
      return fail(TRITIUM_ERROR_ARGUMENT, name + ": tuples nested too deeply");
    std::vector<tritium::Arg> elems(size_t(c.value.i));
    for (size_t e = 0; e < elems.size(); ++e)
      if (tritium_status s = convertArg(args, nargs, k,
                                        label + "[" + std::to_string(e) + "]",
                                        depth + 1, elems[e]))
        return s;
    a = tritium::tuple(std::move(elems));
    break;
  }
  case TRITIUM_ARG_TENSORDESC: {
    // "[B0,B1,...]" with an optional ",nan" / ",zero"
    std::string text = c.value.literal ? c.value.literal : "";
    size_t close = text.find(']');
    std::vector<int64_t> block;
    bool ok = !text.empty() && text[0] == '[' && close != std::string::npos;
    if (ok) {
      std::string dims = text.substr(1, close - 1);
      size_t at = 0;
      while (ok && at <= dims.size()) {
        size_t comma = dims.find(',', at);
        std::string d = dims.substr(at, comma == std::string::npos ? std::string::npos
                                                                    : comma - at);
        ok = !d.empty() && d.size() < 10 &&
             d.find_first_not_of("0123456789 ") == std::string::npos &&
             d.find_first_not_of(' ') != std::string::npos;
        if (ok)
          block.push_back(std::stoll(d));
        if (comma == std::string::npos)
          break;
        at = comma + 1;
      }
    }
    std::string padding = "zero";
    if (ok && close + 1 < text.size()) {
      padding = text.substr(close + 1);
      ok = padding == ",nan" || padding == ",zero";
      padding = padding.substr(1);
    }
    if (!ok || block.empty() || block.size() > 5)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  name + ": a tensor descriptor's literal must be its block shape, "
                         "\"[64,64]\" (\",nan\" after it for NaN padding), rank 1 to 5; got \"" +
                      text + "\"");
    size_t n = 1 + 2 * block.size();
    if (n > nargs - k)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  name + ": a rank-" + std::to_string(block.size()) +
                      " tensor descriptor needs " + std::to_string(n) +
                      " records after it (base, shape, strides), only " +
                      std::to_string(nargs - k) + " follow");
    std::vector<tritium::Arg> parts(n);
    for (size_t e = 0; e < n; ++e)
      if (tritium_status s = convertArg(args, nargs, k, label + "[" + std::to_string(e) + "]",
                                        depth + 1, parts[e]))
        return s;
    a.kind = tritium::Arg::Descriptor;
    a.elems = std::move(parts);
    for (size_t e = 1; e < a.elems.size(); ++e)
      a.elems[e].specialize = false;
    a.blockShape = std::move(block);
    a.padding = padding;
    return TRITIUM_OK;
  }
  default:
    return fail(TRITIUM_ERROR_ARGUMENT,
                name + ": unknown argument kind " + std::to_string(c.kind));
  }
  a.specialize = (c.flags & TRITIUM_ARG_NO_SPECIALIZE) == 0;
  a.uninitialized = a.kind == tritium::Arg::Buffer && (c.flags & TRITIUM_ARG_UNINITIALIZED);
  return TRITIUM_OK;
}

/// The C arguments as tritium::Args; an error message on a bad one.
tritium_status convertArgs(const tritium_kernel *kernel,
                           const tritium_arg *args, size_t nargs,
                           std::vector<tritium::Arg> &out) {
  if (nargs && !args)
    return fail(TRITIUM_ERROR_ARGUMENT, "args is null");
  std::vector<std::string> names = kernel->kernel.parameters();
  out.clear();
  for (size_t k = 0; k < nargs;) {
    size_t p = out.size();
    std::string label = p < names.size() ? names[p] : "#" + std::to_string(p);
    tritium::Arg a;
    if (tritium_status s = convertArg(args, nargs, k, label, 0, a))
      return s;
    out.push_back(std::move(a));
  }
  return TRITIUM_OK;
}

tritium::LaunchOptions toOptions(const tritium_launch_options *o) {
  tritium::LaunchOptions opts;
  if (o) {
    opts.numWarps = o->num_warps;
    opts.maxnreg = o->maxnreg;
    opts.enableFpFusion = o->enable_fp_fusion != 0;
    opts.numStages = o->num_stages;
    opts.deterministic = o->deterministic != 0;
    opts.threads = o->threads;
    opts.device = o->device == TRITIUM_DEVICE_CUDA  ? tritium::Device::Cuda
                  : o->device == TRITIUM_DEVICE_HIP ? tritium::Device::Hip
                                                    : tritium::Device::Interpreter;
    opts.stream = o->stream;
    if (o->sanitize)
      opts.sanitize = o->sanitize;
    for (size_t i = 0; o->reachable && i < o->num_reachable; ++i) {
      const tritium_host_buffer &h = o->reachable[i];
      opts.reachable.push_back({h.data, h.bytes,
                                h.name ? h.name : "host memory the kernel reached"});
    }
  }
  return opts;
}

tritium_status checkOptions(const tritium_launch_options *o) {
  if (!o)
    return TRITIUM_OK;
  if (o->num_warps <= 0 || (o->num_warps & (o->num_warps - 1)))
    return fail(TRITIUM_ERROR_ARGUMENT, "num_warps must be a power of 2, got " +
                                            std::to_string(o->num_warps));
  if (o->num_stages < 0)
    return fail(TRITIUM_ERROR_ARGUMENT, "num_stages must be >= 0, got " +
                                            std::to_string(o->num_stages));
  if (o->num_ctas <= 0)
    return fail(TRITIUM_ERROR_ARGUMENT,
                "num_ctas must be >= 1, got " + std::to_string(o->num_ctas));
  if (o->maxnreg < 0)
    return fail(TRITIUM_ERROR_ARGUMENT,
                "maxnreg must be >= 0, got " + std::to_string(o->maxnreg));
  if (o->threads < 0)
    return fail(TRITIUM_ERROR_ARGUMENT,
                "threads must be >= 0, got " + std::to_string(o->threads));
  if (o->device != TRITIUM_DEVICE_INTERPRETER && o->device != TRITIUM_DEVICE_CUDA &&
      o->device != TRITIUM_DEVICE_HIP)
    return fail(TRITIUM_ERROR_ARGUMENT,
                "device must be 0 (interpreter), 1 (cuda) or 2 (hip), got " +
                    std::to_string(o->device));
  return TRITIUM_OK;
}
} // namespace

extern "C" {

const char *tritium_version(void) { return "0.1.0"; }

const char *tritium_last_error(void) { return lastError.c_str(); }

size_t tritium_dtype_size(int dtype) {
  tritium::DType d;
  return toDType(dtype, d) ? tritium::dtypeBytes(d) : 0;
}

tritium_compiler *tritium_compiler_create(void) {
  tritium_compiler *c = nullptr;
  guarded([&] {
    c = new tritium_compiler();
    return TRITIUM_OK;
  });
  return c;
}

void tritium_compiler_destroy(tritium_compiler *compiler) { delete compiler; }

tritium_status tritium_kernel_compile(
    tritium_compiler *compiler, const char *source_text, const char *file_name,
    const char *kernel_name, const tritium_constexpr *constexprs, size_t n,
    const tritium_compile_options *options, tritium_kernel **out) {
  return guarded([&] {
    if (!out)
      return fail(TRITIUM_ERROR_ARGUMENT, "out is null");
    *out = nullptr;
    if (!compiler || !source_text || !file_name || !kernel_name)
      return fail(
          TRITIUM_ERROR_ARGUMENT,
          "compiler, source_text, file_name and kernel_name must not be null");
    if (n && !constexprs)
      return fail(TRITIUM_ERROR_ARGUMENT, "constexprs is null");
    tritium::Constexprs values;
    for (size_t i = 0; i < n; ++i) {
      const tritium_constexpr &c = constexprs[i];
      if (!c.name)
        return fail(TRITIUM_ERROR_ARGUMENT,
                    "constexpr " + std::to_string(i) + " has no name");
      std::string name = c.name;
      bool needsText = c.kind == TRITIUM_CONSTEXPR_STRING ||
                       c.kind == TRITIUM_CONSTEXPR_LITERAL;
      if (needsText && !c.s)
        return fail(TRITIUM_ERROR_ARGUMENT,
                    "constexpr '" + name + "' has no text");
      switch (c.kind) {
      case TRITIUM_CONSTEXPR_INT:
        values.insert_or_assign(name, tritium::Constexpr(c.i));
        break;
      case TRITIUM_CONSTEXPR_FLOAT:
        values.insert_or_assign(name, tritium::Constexpr(c.f));
        break;
      case TRITIUM_CONSTEXPR_BOOL:
        values.insert_or_assign(name, tritium::Constexpr(c.i != 0));
        break;
      case TRITIUM_CONSTEXPR_STRING:
        values.insert_or_assign(name, tritium::Constexpr(std::string(c.s)));
        break;
      case TRITIUM_CONSTEXPR_NONE:
        values.insert_or_assign(name, tritium::Constexpr::none());
        break;
      case TRITIUM_CONSTEXPR_LITERAL:
        values.insert_or_assign(name, tritium::Constexpr::literal(c.s));
        break;
      default:
        return fail(TRITIUM_ERROR_ARGUMENT, "constexpr '" + name +
                                                "': unknown kind " +
                                                std::to_string(c.kind));
      }
    }
    tritium::CompileOptions copts;
    if (options)
      copts.debug = options->debug != 0;
    auto kernel = compiler->compiler.compileString(source_text, file_name,
                                                   kernel_name, values, copts);
    if (!kernel)
      return fail(kernel.error());
    *out = new tritium_kernel(std::move(*kernel));
    return TRITIUM_OK;
  });
}

void tritium_kernel_destroy(tritium_kernel *kernel) { delete kernel; }

tritium_status tritium_compiler_add_module(tritium_compiler *compiler,
                                           const char *module_name,
                                           const char *source_text,
                                           const char *file_name) {
  return guarded([&] {
    if (!compiler || !module_name || !source_text || !file_name)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  "compiler, module_name, source_text and file_name must not "
                  "be null");
    if (auto err = compiler->compiler.addModule(module_name, source_text,
                                                file_name))
      return fail(*err);
    return TRITIUM_OK;
  });
}

const char *tritium_kernel_name(const tritium_kernel *kernel) {
  return kernel ? kernel->kernel.name().c_str() : nullptr;
}

size_t tritium_kernel_num_params(const tritium_kernel *kernel) {
  return kernel ? kernel->params.size() : 0;
}

const char *tritium_kernel_param_name(const tritium_kernel *kernel, size_t i) {
  if (!kernel || i >= kernel->params.size())
    return nullptr;
  return kernel->params[i].name.c_str();
}

int tritium_kernel_param_is_constexpr(const tritium_kernel *kernel, size_t i) {
  if (!kernel || i >= kernel->params.size())
    return -1;
  return kernel->params[i].isConstexpr ? 1 : 0;
}

int tritium_kernel_param_has_default(const tritium_kernel *kernel, size_t i) {
  if (!kernel || i >= kernel->params.size())
    return 0;
  return kernel->params[i].hasDefault ? 1 : 0;
}

size_t tritium_kernel_num_compiles(const tritium_kernel *kernel) {
  return kernel ? kernel->kernel.numCompiles() : 0;
}

tritium_status tritium_kernel_compiled_info(const tritium_kernel *kernel,
                                            tritium_compiled_info *out) {
  if (!kernel || !out)
    return fail(TRITIUM_ERROR_ARGUMENT, "kernel or out is null");
  const tritium::CompiledInfo *info = kernel->kernel.lastCompiled();
  if (!info)
    return fail(TRITIUM_ERROR_ARGUMENT,
                "kernel '" + kernel->kernel.name() +
                    "' has not been launched or warmed up yet");
  out->on_gpu = info->gpu ? 1 : 0;
  out->num_warps = info->numWarps;
  out->num_stages = info->numStages;
  out->shared = info->sharedBytes;
  out->n_regs = info->numRegs;
  out->n_spills = info->numSpills;
  return TRITIUM_OK;
}

const char *tritium_kernel_compiled_stage(const tritium_kernel *kernel,
                                          const char *stage, size_t *size) {
  if (size)
    *size = 0;
  if (!kernel || !stage)
    return nullptr;
  const tritium::CompiledInfo *info = kernel->kernel.lastCompiled();
  if (!info)
    return nullptr;
  auto it = info->stages.find(stage);
  if (it == info->stages.end())
    return nullptr;
  if (size)
    *size = it->second.size();
  return it->second.data();
}

int tritium_cuda_available(void) {
  std::string why;
  if (tritium::cudaAvailable(&why))
    return 1;
  fail(TRITIUM_ERROR_RUNTIME, why);
  return 0;
}

int tritium_hip_available(void) {
  std::string why;
  if (tritium::hipAvailable(&why))
    return 1;
  fail(TRITIUM_ERROR_RUNTIME, why);
  return 0;
}

tritium_status tritium_cuda_device_attribute(int attribute, int *value) {
  if (!value)
    return fail(TRITIUM_ERROR_ARGUMENT, "value is null");
  std::string why;
  std::optional<int> v = tritium::cudaDeviceAttribute(attribute, &why);
  if (!v)
    return fail(TRITIUM_ERROR_RUNTIME, why);
  *value = *v;
  return TRITIUM_OK;
}

tritium_launch_options tritium_launch_options_default(void) {
  tritium_launch_options o;
  o.num_warps = 4;
  o.num_stages = 3;
  o.num_ctas = 1;
  o.maxnreg = 0;
  o.enable_fp_fusion = 1;
  o.deterministic = 0;
  o.threads = 0;
  o.device = TRITIUM_DEVICE_INTERPRETER;
  o.stream = nullptr;
  o.sanitize = nullptr;
  o.reachable = nullptr;
  o.num_reachable = 0;
  return o;
}

tritium_status tritium_kernel_launch(tritium_kernel *kernel,
                                     const int64_t grid[3],
                                     const tritium_arg *args, size_t nargs,
                                     const tritium_launch_options *options) {
  return guarded([&] {
    if (!kernel)
      return fail(TRITIUM_ERROR_ARGUMENT, "kernel is null");
    if (tritium_status s = checkOptions(options))
      return s;
    std::vector<tritium::Arg> converted;
    if (tritium_status s = convertArgs(kernel, args, nargs, converted))
      return s;
    tritium::Grid g;
    if (grid)
      g = tritium::Grid{grid[0], grid[1], grid[2]};
    auto err = kernel->kernel.launch(g, converted, toOptions(options));
    // device_print writes through C++ streams; hand it over before the
    // caller's own output.
    std::cout.flush();
    std::fflush(stdout);
    if (err)
      return fail(*err);
    return TRITIUM_OK;
  });
}

tritium_status tritium_kernel_compile_signature(tritium_kernel *kernel,
                                               const char *signature,
                                               const tritium_launch_options *options,
                                               int cuda_cc) {
  return guarded([&] {
    if (!kernel || !signature)
      return fail(TRITIUM_ERROR_ARGUMENT, !kernel ? "kernel is null" : "signature is null");
    if (tritium_status s = checkOptions(options))
      return s;
    if (cuda_cc != 0 && cuda_cc != 80 && cuda_cc != 90)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  "cuda_cc must be 0 (no GPU code), 80 or 90, got " + std::to_string(cuda_cc));
    if (auto err = kernel->kernel.compileSignature(signature, toOptions(options),
                                                   unsigned(cuda_cc)))
      return fail(*err);
    return TRITIUM_OK;
  });
}

tritium_status tritium_kernel_compile_signature_amd(tritium_kernel *kernel,
                                                   const char *signature,
                                                   const tritium_launch_options *options,
                                                   const char *amd_arch) {
  return guarded([&] {
    if (!kernel || !signature || !amd_arch)
      return fail(TRITIUM_ERROR_ARGUMENT, !kernel      ? "kernel is null"
                                          : !signature ? "signature is null"
                                                       : "amd_arch is null");
    if (tritium_status s = checkOptions(options))
      return s;
    if (auto err = kernel->kernel.compileSignatureForAmd(signature, amd_arch,
                                                         toOptions(options)))
      return fail(*err);
    return TRITIUM_OK;
  });
}

tritium_status tritium_kernel_warmup(tritium_kernel *kernel,
                                     const tritium_arg *args, size_t nargs,
                                     const tritium_launch_options *options,
                                     const char **signature) {
  return guarded([&] {
    if (!kernel)
      return fail(TRITIUM_ERROR_ARGUMENT, "kernel is null");
    if (tritium_status s = checkOptions(options))
      return s;
    std::vector<tritium::Arg> converted;
    if (tritium_status s = convertArgs(kernel, args, nargs, converted))
      return s;
    auto sig = kernel->kernel.warmup(converted, toOptions(options));
    if (!sig)
      return fail(sig.error());
    kernel->signature = *sig;
    if (signature)
      *signature = kernel->signature.c_str();
    return TRITIUM_OK;
  });
}

tritium_status tritium_kernels_warmup(tritium_warmup_job *jobs, size_t n, int threads) {
  return guarded([&] {
    if (!jobs && n)
      return fail(TRITIUM_ERROR_ARGUMENT, "jobs is null");
    if (threads < 0)
      return fail(TRITIUM_ERROR_ARGUMENT,
                  "threads must be 0 (one per core) or more, got " + std::to_string(threads));
    std::vector<tritium::WarmupJob> work;
    std::vector<size_t> index; // job of each entry of `work`
    std::vector<std::string> messages(n);
    auto failed = [&](size_t i, tritium_status st) {
      jobs[i].status = st;
      messages[i] = lastError;
    };
    for (size_t i = 0; i < n; ++i) {
      tritium_warmup_job &j = jobs[i];
      j.status = TRITIUM_OK;
      if (!j.kernel) {
        failed(i, fail(TRITIUM_ERROR_ARGUMENT, "kernel is null"));
        continue;
      }
      if (tritium_status st = checkOptions(j.options)) {
        failed(i, st);
        continue;
      }
      tritium::WarmupJob w;
      w.kernel = &j.kernel->kernel;
      w.options = toOptions(j.options);
      if (tritium_status st = convertArgs(j.kernel, j.args, j.nargs, w.args)) {
        failed(i, st);
        continue;
      }
      work.push_back(std::move(w));
      index.push_back(i);
    }
    auto results = tritium::warmupAll(work, unsigned(threads));
    for (size_t k = 0; k < results.size(); ++k) {
      size_t i = index[k];
      if (results[k])
        jobs[i].kernel->signature = *results[k];
      else
        failed(i, fail(results[k].error()));
    }
    for (size_t i = 0; i < n; ++i)
      if (jobs[i].status != TRITIUM_OK)
        return fail(jobs[i].status, "warmup job " + std::to_string(i) + ": " + messages[i]);
    return TRITIUM_OK;
  });
}

} // extern "C"

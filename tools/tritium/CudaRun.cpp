//===- CudaRun.cpp - tritium run's launches on the CUDA GPU ---------------===//
//
// See CudaRun.h. The compile goes through the C++ host API (runtime/
// Tritium.h), as a program of the user's would: the same specialization,
// cache and launch path.
//
//===----------------------------------------------------------------------===//
#include "CudaRun.h"

#ifdef TRITIUM_HAVE_API
#include "runtime/Tritium.h"
#include "runtime/cuda/CudaDevice.h"
#endif

#include <chrono>

namespace tritium::run {

#ifndef TRITIUM_HAVE_API
std::optional<std::string> launchOnCuda(const LaunchSpec &, const std::string &,
                                        const std::vector<HostValue *> &, LaunchReport &) {
  return std::string("tritium: error: --executors cuda: this build has no GPU runtime\n");
}
#else
namespace {
std::optional<DType> dtypeOf(const ElemType &e) {
  for (int t = int(DType::I1); t <= int(DType::F8E5B16); ++t)
    if (std::string(dtypeName(DType(t))) == e.sig)
      return DType(t);
  return std::nullopt;
}

std::string fail(const std::string &msg) { return "tritium: error: " + msg + "\n"; }
} // namespace

std::optional<std::string> launchOnCuda(const LaunchSpec &spec, const std::string &source,
                                        const std::vector<HostValue *> &runtime,
                                        LaunchReport &report) {
  std::string why;
  if (!cudaAvailable(&why))
    return fail("--executors cuda: no CUDA GPU to run on (" + why + ")");
  cuda::CudaDevice *device = cuda::CudaDevice::get(&why);
  if (!device)
    return fail("--executors cuda: " + why);
  Constexprs constexprs;
  for (const auto &[name, literal] : spec.constexprs)
    constexprs.emplace(name, Constexpr::literal(literal));
  Compiler compiler;
  CompileOptions copts;
  copts.debug = spec.debug;
  auto kernel = compiler.compileString(source, spec.file, spec.kernel, constexprs, copts);
  if (!kernel)
    return kernel.error().message + "\n";

  std::vector<cuda::DeviceBuffer> buffers;
  std::vector<Arg> args;
  buffers.reserve(runtime.size());
  for (HostValue *v : runtime) {
    Arg a;
    switch (v->kind) {
    case HostValue::Buffer: {
      auto t = dtypeOf(*v->elem);
      if (!t)
        return fail("--executors cuda: buffer '" + v->name + "' of " + v->elem->name +
                    " has no GPU element type");
      size_t bytes = v->array.data.size();
      auto buf = device->allocate(std::max<size_t>(bytes, 1));
      if (!buf)
        return fail("--executors cuda: buffer '" + v->name + "': " + buf.error().message);
      if (bytes)
        if (auto e = buf->copyFromHost(v->array.data.data(), bytes))
          return fail("--executors cuda: buffer '" + v->name + "': " + e->message);
      a = buffer(reinterpret_cast<void *>(buf->ptr()), bytes, *t);
      buffers.push_back(std::move(*buf));
      break;
    }
    case HostValue::Int:
      a.kind = Arg::Int;
      a.i = v->i;
      a.isUnsigned = v->isUnsigned;
      break;
    case HostValue::Float:
      a.kind = Arg::Float;
      a.f = v->f;
      break;
    case HostValue::Bool:
      a.kind = Arg::Bool;
      a.i = v->i;
      break;
    }
    args.push_back(std::move(a));
  }
  LaunchOptions lopts;
  lopts.device = Device::Cuda;
  lopts.numWarps = spec.numWarps;
  lopts.printOut = &report.printed;
  auto t0 = std::chrono::steady_clock::now();
  auto err = kernel->launch(Grid{spec.grid[0], spec.grid[1], spec.grid[2]}, args, lopts);
  if (!err)
    err = device->synchronize(spec.kernel);
  report.launchMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  report.launched = true;
  if (err)
    return fail(err->message);
  size_t b = 0;
  for (HostValue *v : runtime)
    if (v->kind == HostValue::Buffer) {
      if (!v->array.data.empty())
        if (auto e = buffers[b].copyToHost(v->array.data.data(), v->array.data.size()))
          return fail("--executors cuda: buffer '" + v->name + "': " + e->message);
      ++b;
    }
  return std::nullopt;
}
#endif

} // namespace tritium::run

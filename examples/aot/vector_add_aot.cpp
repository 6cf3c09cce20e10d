// vector_add_aot: examples/vector_add.py's add_kernel, compiled ahead of time
// by `tritium aot` into add_kernel_aot.h/.c (see CMakeLists.txt), launched
// from C++ with no tritium, LLVM or CUDA toolkit at run time: the launcher
// needs only libcuda, and so does this program (both load it with dlopen).
//
// It adds two vectors twice: with 16-byte-aligned pointers and a length
// divisible by 16 (the launcher's specialized cubin), and with pointers one
// element in and an odd length (its generic cubin), and checks both sums.
// Without an NVIDIA driver or GPU it says so and exits with 77 (skipped).
#include "add_kernel_aot.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace {
// The few driver entry points the program itself needs.
struct Driver {
  int (*init)(unsigned);
  int (*deviceGet)(int *, int);
  int (*primaryCtxRetain)(void **, int);
  int (*ctxSetCurrent)(void *);
  int (*memAlloc)(uint64_t *, size_t);
  int (*memcpyHtoD)(uint64_t, const void *, size_t);
  int (*memcpyDtoH)(void *, uint64_t, size_t);
  int (*memFree)(uint64_t);
  int (*ctxSynchronize)();
};

bool loadDriver(Driver &d) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return false;
  auto sym = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    return fn != nullptr;
  };
  return sym(d.init, "cuInit") && sym(d.deviceGet, "cuDeviceGet") &&
         sym(d.primaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
         sym(d.ctxSetCurrent, "cuCtxSetCurrent") && sym(d.memAlloc, "cuMemAlloc_v2") &&
         sym(d.memcpyHtoD, "cuMemcpyHtoD_v2") && sym(d.memcpyDtoH, "cuMemcpyDtoH_v2") &&
         sym(d.memFree, "cuMemFree_v2") && sym(d.ctxSynchronize, "cuCtxSynchronize");
}

// Adds x and y (n elements, starting `offset` elements into the buffers)
// with the AOT launcher; returns the largest error, or -1 on failure.
double addOnce(Driver &d, int n, int offset) {
  std::vector<float> x(n + offset), y(n + offset), out(n + offset, 0.0f);
  for (int i = 0; i < n + offset; ++i) {
    x[i] = 0.5f * float(i);
    y[i] = float(i % 7) - 3.0f;
  }
  size_t bytes = sizeof(float) * size_t(n + offset);
  uint64_t dx = 0, dy = 0, dout = 0;
  if (d.memAlloc(&dx, bytes) || d.memAlloc(&dy, bytes) || d.memAlloc(&dout, bytes) ||
      d.memcpyHtoD(dx, x.data(), bytes) || d.memcpyHtoD(dy, y.data(), bytes) ||
      d.memcpyHtoD(dout, out.data(), bytes)) {
    std::fprintf(stderr, "vector_add_aot: cannot set up device memory\n");
    return -1;
  }
  uint64_t skip = sizeof(float) * uint64_t(offset);
  int status = add_kernel_aot(nullptr, dx + skip, dy + skip, dout + skip, n);
  if (status) {
    std::fprintf(stderr, "vector_add_aot: %s\n", add_kernel_aot_last_error());
    return -1;
  }
  if (d.ctxSynchronize() || d.memcpyDtoH(out.data(), dout, bytes)) {
    std::fprintf(stderr, "vector_add_aot: the kernel failed\n");
    return -1;
  }
  d.memFree(dx);
  d.memFree(dy);
  d.memFree(dout);
  double worst = 0;
  for (int i = 0; i < offset; ++i)
    worst = std::fmax(worst, std::fabs(out[i])); // untouched before the view
  for (int i = offset; i < n + offset; ++i)
    worst = std::fmax(worst, std::fabs(double(out[i]) - (double(x[i]) + double(y[i]))));
  return worst;
}
} // namespace

int main() {
  Driver d{};
  if (!loadDriver(d)) {
    std::printf("vector_add_aot: no NVIDIA driver (libcuda.so.1): skipped\n");
    return 77;
  }
  int dev = 0;
  void *ctx = nullptr;
  if (d.init(0) || d.deviceGet(&dev, 0) || d.primaryCtxRetain(&ctx, dev) ||
      d.ctxSetCurrent(ctx)) {
    std::printf("vector_add_aot: no usable CUDA device: skipped\n");
    return 77;
  }
  double aligned = addOnce(d, 98432, 0);  // 16-byte aligned, n % 16 == 0
  double shifted = addOnce(d, 98431, 1);  // one element in, odd length
  if (aligned < 0 || shifted < 0)
    return 1;
  std::printf("vector_add_aot: max error %g (specialized), %g (generic)\n", aligned, shifted);
  return aligned == 0 && shifted == 0 ? 0 : 1;
}

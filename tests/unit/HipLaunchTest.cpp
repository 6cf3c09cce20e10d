//===- HipLaunchTest.cpp - TRITIUM_DEVICE_HIP launches against a mock -----===//
//
// The HIP leg of the runtime through the C API (libtritium.so), with the
// mock libamdhip64 (mock_hip/MockHip.cpp) as the HIP runtime: kernels are
// compiled for the mock's gfx942, the mock loads the real hsaco (reading its
// metadata note, as HIP does), and its record of the launch is checked: the
// code object is the kernel's hsaco, the kernel's name, num_warps waves of
// 64 lanes, the kernel's dynamic LDS, the stream, and every parameter's size
// and value. Errors name the kernel and the argument.
//
// The HIP runtime is chosen once per process (TRITIUM_HIP_LIBRARY is read on
// first use), so the cases without a usable HIP (no library, no device, an
// architecture the code generator does not support) each run in a process
// of their own: ctest runs this binary once per tag ([mock], [nohip],
// [nogpu], [arch]). A case whose setup another one already claimed in the
// same process says so and checks nothing.
//
//===----------------------------------------------------------------------===//
#include "runtime/capi/tritium.h"
#include "tests/unit/mock_hip/MockHip.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// The mock's control functions and the HIP calls a test makes itself
/// (device memory, streams), from the very library the runtime loads.
struct Mock {
  void (*reset)(int numDevices) = nullptr;
  int (*lastLaunch)(MockHipLaunch *out) = nullptr;
  void (*stats)(MockHipStats *out) = nullptr;
  void (*failNext)(const char *name, int error) = nullptr;
  int (*lastImage)(const void **data, unsigned long *bytes) = nullptr;
  void (*setArch)(int device, const char *arch) = nullptr;
  int (*hipMalloc)(void **ptr, size_t bytes) = nullptr;
  int (*hipFree)(void *ptr) = nullptr;
  int (*hipSetDevice)(int ordinal) = nullptr;
  int (*hipStreamCreateWithFlags)(void **stream, unsigned flags) = nullptr;
  int (*hipStreamDestroy)(void *stream) = nullptr;

  MockHipLaunch launch() const {
    MockHipLaunch l;
    REQUIRE(lastLaunch(&l));
    return l;
  }
  MockHipStats counters() const {
    MockHipStats s;
    stats(&s);
    return s;
  }
  /// `bytes` of mock device memory on device `device`.
  void *alloc(size_t bytes, int device = 0) const {
    void *p = nullptr;
    REQUIRE(hipSetDevice(device) == 0);
    REQUIRE(hipMalloc(&p, bytes) == 0);
    REQUIRE(hipSetDevice(0) == 0);
    return p;
  }
};

template <typename F> void bind(void *handle, F &slot, const char *name) {
  slot = reinterpret_cast<F>(dlsym(handle, name));
  INFO(name);
  REQUIRE(slot);
}

const Mock &mock() {
  static Mock m;
  static bool loaded = false;
  if (loaded)
    return m;
  // Kept open for the whole process: the runtime's dlopen of the same file
  // returns this handle, so both see one state.
  void *handle = dlopen(TRITIUM_MOCK_HIP, RTLD_NOW | RTLD_LOCAL);
  INFO(TRITIUM_MOCK_HIP << ": " << (handle ? "" : dlerror()));
  REQUIRE(handle);
  bind(handle, m.reset, "mockHipReset");
  bind(handle, m.lastLaunch, "mockHipLastLaunch");
  bind(handle, m.stats, "mockHipStats");
  bind(handle, m.failNext, "mockHipFailNext");
  bind(handle, m.lastImage, "mockHipLastModuleImage");
  bind(handle, m.setArch, "mockHipSetArch");
  bind(handle, m.hipMalloc, "hipMalloc");
  bind(handle, m.hipFree, "hipFree");
  bind(handle, m.hipSetDevice, "hipSetDevice");
  bind(handle, m.hipStreamCreateWithFlags, "hipStreamCreateWithFlags");
  bind(handle, m.hipStreamDestroy, "hipStreamDestroy");
  loaded = true;
  return m;
}

/// Points TRITIUM_HIP_LIBRARY at `library` before the first HIP use of the
/// process, and runs `setup` (the mock's state the runtime must first see);
/// false when another setup already claimed the process.
bool claimProcess(const std::string &setupName, const char *library,
                  const std::function<void()> &setup) {
  static std::string claimed;
  if (claimed.empty()) {
    claimed = setupName;
    setenv("TRITIUM_HIP_LIBRARY", library, 1);
    setup();
    return true;
  }
  if (claimed == setupName)
    return true;
  WARN("this process already uses the HIP setup '"
       << claimed << "'; run this case alone (its tag) to check '" << setupName
       << "'");
  return false;
}

bool useMock() {
  return claimProcess("mock", TRITIUM_MOCK_HIP, [] { mock().reset(2); });
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A kernel of `source` compiled with `constexprs`.
struct Kernel {
  tritium_compiler *c = nullptr;
  tritium_kernel *k = nullptr;
  Kernel(const std::string &source, const char *file, const char *name,
         std::vector<tritium_constexpr> constexprs = {}) {
    c = tritium_compiler_create();
    REQUIRE(c);
    tritium_status st =
        tritium_kernel_compile(c, source.c_str(), file, name, constexprs.data(),
                               constexprs.size(), nullptr, &k);
    INFO(tritium_last_error());
    REQUIRE(st == TRITIUM_OK);
  }
  ~Kernel() {
    tritium_kernel_destroy(k);
    tritium_compiler_destroy(c);
  }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  std::string stage(const char *name) const {
    size_t size = 0;
    const char *text = tritium_kernel_compiled_stage(k, name, &size);
    return text ? std::string(text, size) : std::string();
  }
  tritium_compiled_info info() const {
    tritium_compiled_info i;
    REQUIRE(tritium_kernel_compiled_info(k, &i) == TRITIUM_OK);
    return i;
  }
};

Kernel addKernel() {
  tritium_constexpr block = {"BLOCK_SIZE", TRITIUM_CONSTEXPR_INT, 1024, 0,
                             nullptr};
  return Kernel(readFile(TRITIUM_SOURCE_DIR "/examples/vector_add.py"),
                "vector_add.py", "add_kernel", {block});
}

/// A kernel whose reductions across warps go through LDS, with f32, i32 and
/// i64 scalars.
const char *kColumnSums =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def sums(X, Out, scale, stride, big, N: tl.constexpr):\n"
    "    r = tl.arange(0, N)\n"
    "    x = tl.load(X + r[:, None] * stride + r[None, :])\n"
    "    t = (big > 0).to(tl.float32)\n"
    "    tl.store(Out + r, tl.sum(x, axis=0) * scale + t)\n"
    "    tl.store(Out + N + r, tl.sum(x, axis=1) * scale + t)\n";

tritium_arg bufferArg(void *data, size_t bytes, int dtype = TRITIUM_F32) {
  tritium_arg a = {};
  a.kind = TRITIUM_ARG_BUFFER;
  a.value.buffer.data = data;
  a.value.buffer.bytes = bytes;
  a.value.buffer.dtype = dtype;
  return a;
}

tritium_arg intArg(int64_t v) {
  tritium_arg a = {};
  a.kind = TRITIUM_ARG_INT;
  a.value.i = v;
  return a;
}

tritium_arg floatArg(double v) {
  tritium_arg a = {};
  a.kind = TRITIUM_ARG_FLOAT;
  a.value.f = v;
  return a;
}

tritium_launch_options hipOptions(int numWarps = 4, void *stream = nullptr) {
  tritium_launch_options o = tritium_launch_options_default();
  o.device = TRITIUM_DEVICE_HIP;
  o.num_warps = numWarps;
  o.stream = stream;
  return o;
}

tritium_status launch(const Kernel &k, int64_t gridX,
                      const std::vector<tritium_arg> &args,
                      const tritium_launch_options &o) {
  int64_t grid[3] = {gridX, 1, 1};
  return tritium_kernel_launch(k.k, grid, args.data(), args.size(), &o);
}

/// Whether a failed compile is only the missing linker of hsaco files: the
/// machine cannot make AMD code at all, which is no failure of the HIP leg.
bool noLinker(const std::string &error) {
  if (!contains(error, "ld.lld"))
    return false;
  WARN("skipped: AMD code objects cannot be linked here: " << error);
  return true;
}

template <typename T> T paramValue(const MockHipLaunch &l, int i) {
  INFO("parameter " << i);
  REQUIRE(l.paramSizes[i] == sizeof(T));
  T v;
  std::memcpy(&v, l.params[i], sizeof v);
  return v;
}

void *paramPointer(const MockHipLaunch &l, int i) {
  return paramValue<void *>(l, i);
}

} // namespace

TEST_CASE("hip: add_kernel's hsaco is loaded and launched with its geometry "
          "and parameters",
          "[mock]") {
  if (!useMock())
    return;
  const Mock &m = mock();
  m.reset(2);
  REQUIRE(tritium_hip_available() == 1);

  Kernel k = addKernel();
  const int n = 4000;
  void *x = m.alloc(n * 4), *y = m.alloc(n * 4), *out = m.alloc(n * 4);
  void *stream = nullptr;
  REQUIRE(m.hipStreamCreateWithFlags(&stream, 1) == 0);
  std::vector<tritium_arg> args = {bufferArg(x, n * 4), bufferArg(y, n * 4),
                                   bufferArg(out, n * 4), intArg(n)};
  tritium_status st = launch(k, 4, args, hipOptions(4, stream));
  std::string error = tritium_last_error();
  if (st != TRITIUM_OK && noLinker(error))
    return;
  INFO(error);
  REQUIRE(st == TRITIUM_OK);

  // The module HIP was given is the kernel's hsaco, byte for byte.
  std::string hsaco = k.stage("hsaco");
  REQUIRE(hsaco.size() > 64);
  CHECK(hsaco.compare(0, 4, "\177ELF") == 0);
  CHECK((uint8_t(hsaco[0x12]) | uint8_t(hsaco[0x13]) << 8) == 224); // AMDGPU
  const void *image = nullptr;
  unsigned long imageBytes = 0;
  REQUIRE(m.lastImage(&image, &imageBytes));
  CHECK(std::string(static_cast<const char *>(image), imageBytes) == hsaco);
  CHECK(contains(k.stage("amdgcn"), "amdgcn-amd-amdhsa--gfx942"));
  CHECK(k.stage("ptx").empty());

  tritium_compiled_info info = k.info();
  CHECK(info.on_gpu == 1);
  CHECK(info.num_warps == 4);

  MockHipLaunch l = m.launch();
  CHECK(std::string(l.kernel) == "add_kernel");
  CHECK(l.device == 0);
  CHECK(l.grid[0] == 4);
  CHECK(l.grid[1] == 1);
  CHECK(l.grid[2] == 1);
  CHECK(l.block[0] == 4 * 64); // num_warps waves of 64 lanes
  CHECK(l.block[1] == 1);
  CHECK(l.block[2] == 1);
  CHECK(l.sharedBytes == unsigned(info.shared));
  CHECK(l.stream == stream);
  REQUIRE(l.numParams == 4);
  CHECK(paramPointer(l, 0) == x);
  CHECK(paramPointer(l, 1) == y);
  CHECK(paramPointer(l, 2) == out);
  CHECK(paramValue<int32_t>(l, 3) == n);
  CHECK(m.counters().modulesLoaded == 1);

  SECTION("a repeated launch reuses the loaded module") {
    args[3] = intArg(2000);
    REQUIRE(launch(k, 2, args, hipOptions(4, stream)) == TRITIUM_OK);
    MockHipLaunch again = m.launch();
    CHECK(again.grid[0] == 2);
    CHECK(paramValue<int32_t>(again, 3) == 2000);
    CHECK(m.counters().modulesLoaded == 1);
    CHECK(m.counters().launches == 2);
  }
  SECTION("num_warps sets the block; it is another specialization") {
    REQUIRE(launch(k, 4, args, hipOptions(8)) == TRITIUM_OK);
    MockHipLaunch l8 = m.launch();
    CHECK(l8.block[0] == 8 * 64);
    CHECK(l8.stream == nullptr);
    CHECK(k.info().num_warps == 8);
    CHECK(m.counters().modulesLoaded == 2);
  }
  SECTION("tensors on another device run there, the module loaded there") {
    void *x1 = m.alloc(n * 4, 1), *y1 = m.alloc(n * 4, 1),
         *out1 = m.alloc(n * 4, 1);
    std::vector<tritium_arg> on1 = {bufferArg(x1, n * 4), bufferArg(y1, n * 4),
                                    bufferArg(out1, n * 4), intArg(n)};
    REQUIRE(launch(k, 4, on1, hipOptions()) == TRITIUM_OK);
    CHECK(m.launch().device == 1);
    CHECK(paramPointer(m.launch(), 0) == x1);
    CHECK(m.counters().modulesLoaded == 2);
    // Mixed devices are named by argument.
    on1[1] = bufferArg(y, n * 4);
    CHECK(launch(k, 4, on1, hipOptions()) == TRITIUM_ERROR_ARGUMENT);
    std::string err = tritium_last_error();
    CHECK(contains(err, "arguments 'x_ptr' and 'y_ptr' are on different "
                        "devices (HIP devices 1 and 0)"));
    for (void *p : {x1, y1, out1})
      m.hipFree(p);
  }
  for (void *p : {x, y, out})
    m.hipFree(p);
  m.hipStreamDestroy(stream);
}

TEST_CASE("hip: the kernel's LDS and its scalars of each width reach the "
          "launch",
          "[mock]") {
  if (!useMock())
    return;
  const Mock &m = mock();
  m.reset(2);
  tritium_constexpr nconst = {"N", TRITIUM_CONSTEXPR_INT, 64, 0, nullptr};
  Kernel k(kColumnSums, "sums.py", "sums", {nconst});
  void *x = m.alloc(64 * 64 * 4), *out = m.alloc(2 * 64 * 4);
  const int64_t big = int64_t(1) << 40; // an i64 parameter
  std::vector<tritium_arg> args = {bufferArg(x, 64 * 64 * 4),
                                   bufferArg(out, 2 * 64 * 4), floatArg(0.5),
                                   intArg(64), intArg(big)};
  tritium_status st = launch(k, 1, args, hipOptions());
  std::string error = tritium_last_error();
  if (st != TRITIUM_OK && noLinker(error))
    return;
  INFO(error);
  REQUIRE(st == TRITIUM_OK);
  tritium_compiled_info info = k.info();
  CHECK(info.shared > 0); // the cross-warp reductions' scratch
  MockHipLaunch l = m.launch();
  CHECK(std::string(l.kernel) == "sums");
  CHECK(l.block[0] == 256);
  CHECK(l.sharedBytes == unsigned(info.shared));
  REQUIRE(l.numParams == 5);
  CHECK(paramPointer(l, 0) == x);
  CHECK(paramPointer(l, 1) == out);
  CHECK(paramValue<float>(l, 2) == 0.5f);
  CHECK(paramValue<int32_t>(l, 3) == 64);
  CHECK(paramValue<int64_t>(l, 4) == big);
  m.hipFree(x);
  m.hipFree(out);
}

TEST_CASE("hip: launch errors name the kernel and the argument", "[mock]") {
  if (!useMock())
    return;
  const Mock &m = mock();
  m.reset(2);
  Kernel k = addKernel();
  const int n = 1024;
  void *x = m.alloc(n * 4), *y = m.alloc(n * 4), *out = m.alloc(n * 4);
  std::vector<tritium_arg> args = {bufferArg(x, n * 4), bufferArg(y, n * 4),
                                   bufferArg(out, n * 4), intArg(n)};
  tritium_status st = launch(k, 1, args, hipOptions());
  std::string error = tritium_last_error();
  if (st != TRITIUM_OK && noLinker(error))
    return;
  INFO(error);
  REQUIRE(st == TRITIUM_OK);

  SECTION("host memory") {
    std::vector<float> host(n);
    args[1] = bufferArg(host.data(), n * 4);
    CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_ARGUMENT);
    std::string err = tritium_last_error();
    INFO(err);
    CHECK(contains(err, "kernel 'add_kernel': argument 'y_ptr' (pointer 0x"));
    CHECK(contains(err, "is not memory a HIP device can access"));
  }
  SECTION("HIP's own launch error") {
    m.failNext("hipModuleLaunchKernel", 701);
    CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_RUNTIME);
    CHECK(std::string(tritium_last_error()) ==
          "hipModuleLaunchKernel(add_kernel): hipErrorLaunchOutOfResources: "
          "too many resources requested for launch");
  }
  SECTION("a tensor for a scalar") {
    args[3] = bufferArg(x, n * 4);
    CHECK(launch(k, 1, args, hipOptions()) != TRITIUM_OK);
    CHECK(contains(tritium_last_error(), "n_elements"));
  }
  SECTION("a device option the C API does not know") {
    tritium_launch_options o = hipOptions();
    o.device = 3;
    CHECK(launch(k, 1, args, o) == TRITIUM_ERROR_ARGUMENT);
    CHECK(contains(tritium_last_error(), "2 (hip), got 3"));
  }
  for (void *p : {x, y, out})
    m.hipFree(p);
}

TEST_CASE("hip: warmup compiles and loads for the HIP device", "[mock]") {
  if (!useMock())
    return;
  const Mock &m = mock();
  m.reset(2);
  Kernel k = addKernel();
  void *x = m.alloc(4096);
  std::vector<tritium_arg> args = {bufferArg(x, 4096), bufferArg(x, 4096),
                                   bufferArg(x, 4096), intArg(1024)};
  tritium_launch_options o = hipOptions();
  const char *sig = nullptr;
  tritium_status st =
      tritium_kernel_warmup(k.k, args.data(), args.size(), &o, &sig);
  std::string error = tritium_last_error();
  if (st != TRITIUM_OK && noLinker(error))
    return;
  INFO(error);
  REQUIRE(st == TRITIUM_OK);
  CHECK(std::string(sig) == "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  CHECK(m.counters().modulesLoaded == 1);
  CHECK(m.counters().launches == 0);
  CHECK(k.info().on_gpu == 1);
  CHECK_FALSE(k.stage("hsaco").empty());
  m.hipFree(x);
}

TEST_CASE("hip: without a HIP runtime a HIP launch says so and the "
          "interpreter still runs",
          "[nohip]") {
  const char *missing = "/nonexistent/libamdhip64.so";
  if (!claimProcess("nohip", missing, [] {}))
    return;
  CHECK(tritium_hip_available() == 0);
  std::string why = tritium_last_error();
  CHECK(why.rfind("no HIP runtime: TRITIUM_HIP_LIBRARY=/nonexistent/"
                  "libamdhip64.so: ",
                  0) == 0);

  Kernel k = addKernel();
  std::vector<float> x(100, 1.0f), y(100, 2.0f), out(100);
  std::vector<tritium_arg> args = {bufferArg(x.data(), 400),
                                   bufferArg(y.data(), 400),
                                   bufferArg(out.data(), 400), intArg(100)};
  CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_RUNTIME);
  CHECK(std::string(tritium_last_error()).rfind("no HIP runtime: ", 0) == 0);
  // The same again: the answer is kept, not looked for twice.
  CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_RUNTIME);
  CHECK(std::string(tritium_last_error()).rfind("no HIP runtime: ", 0) == 0);

  tritium_launch_options cpu = tritium_launch_options_default();
  REQUIRE(launch(k, 1, args, cpu) == TRITIUM_OK);
  CHECK(out[0] == 3.0f);
  CHECK(out[99] == 3.0f);
}

TEST_CASE("hip: a HIP runtime without a device says so", "[nogpu]") {
  if (!claimProcess("nogpu", TRITIUM_MOCK_HIP, [] { mock().reset(0); }))
    return;
  CHECK(tritium_hip_available() == 0);
  std::string why = tritium_last_error();
  CHECK(why.rfind("no AMD GPU: ", 0) == 0);
  CHECK(contains(why, "hipErrorNoDevice"));
  Kernel k = addKernel();
  std::vector<float> x(16);
  std::vector<tritium_arg> args = {bufferArg(x.data(), 64),
                                   bufferArg(x.data(), 64),
                                   bufferArg(x.data(), 64), intArg(16)};
  CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_RUNTIME);
  CHECK(std::string(tritium_last_error()).rfind("no AMD GPU: ", 0) == 0);
}

TEST_CASE("hip: an architecture the code generator does not support is named "
          "with its device",
          "[arch]") {
  if (!claimProcess("arch", TRITIUM_MOCK_HIP, [] {
        mock().reset(2);
        mock().setArch(0, "gfx1100");
      }))
    return;
  CHECK(tritium_hip_available() == 0);
  std::string why = tritium_last_error();
  CHECK(why == "HIP device 0 (AMD Instinct MI300X, gfx1100): the code "
               "generator does not support gfx1100 (it compiles for gfx90a, "
               "gfx942 and gfx950)");
  Kernel k = addKernel();
  void *x = mock().alloc(64);
  std::vector<tritium_arg> args = {bufferArg(x, 64), bufferArg(x, 64),
                                   bufferArg(x, 64), intArg(16)};
  CHECK(launch(k, 1, args, hipOptions()) == TRITIUM_ERROR_COMPILE);
  CHECK(std::string(tritium_last_error()) == "kernel 'add_kernel': " + why);
  CHECK(mock().counters().modulesLoaded == 0);
  mock().hipFree(x);
}

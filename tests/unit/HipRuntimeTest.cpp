//===- HipRuntimeTest.cpp - the HIP layer against a mock libamdhip64 ------===//
//
// Loading the HIP runtime with dlopen (absent library, missing symbols,
// TRITIUM_HIP_LIBRARY), and the device layer (runtime/hip) over a mock
// runtime (mock_hip/MockHip.cpp) that simulates two gfx942 GPUs in host
// memory and records what it is asked to do: device discovery and
// architecture (through both device properties layouts), code objects and
// their named errors, launch geometry, LDS and parameter values, buffers,
// pointers, streams, and HIP error codes turned into messages. No GPU is
// needed; the mock's path comes from the build (TRITIUM_MOCK_HIP,
// TRITIUM_MOCK_HIP5 for the ROCm 5 flavour).
//
//===----------------------------------------------------------------------===//
#include "runtime/hip/HipDevice.h"
#include "tests/unit/mock_hip/MockHip.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>

using namespace tritium;
using namespace tritium::hip;

namespace {

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// The mock's control functions, from the very library the layer loads
/// (one file, one handle, one state).
struct Mock {
  void (*reset)(int numDevices) = nullptr;
  int (*lastLaunch)(MockHipLaunch *out) = nullptr;
  void (*stats)(MockHipStats *out) = nullptr;
  void (*failNext)(const char *name, int error) = nullptr;

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
};

const Mock &mock(const char *path = TRITIUM_MOCK_HIP) {
  static std::map<std::string, Mock> mocks;
  auto it = mocks.find(path);
  if (it != mocks.end())
    return it->second;
  // Kept open for the whole process, so the state outlives every driver
  // table a test loads and closes.
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  INFO(path << ": " << (handle ? "" : dlerror()));
  REQUIRE(handle);
  Mock m;
  m.reset = reinterpret_cast<void (*)(int)>(dlsym(handle, "mockHipReset"));
  m.lastLaunch = reinterpret_cast<int (*)(MockHipLaunch *)>(
      dlsym(handle, "mockHipLastLaunch"));
  m.stats =
      reinterpret_cast<void (*)(MockHipStats *)>(dlsym(handle, "mockHipStats"));
  m.failNext = reinterpret_cast<void (*)(const char *, int)>(
      dlsym(handle, "mockHipFailNext"));
  REQUIRE(m.reset);
  REQUIRE(m.lastLaunch);
  REQUIRE(m.stats);
  REQUIRE(m.failNext);
  return mocks.emplace(path, m).first->second;
}

std::unique_ptr<HipDriver> loadDriver(const char *path = TRITIUM_MOCK_HIP) {
  std::string why;
  auto drv = HipDriver::load(path, &why);
  INFO(why);
  REQUIRE(drv);
  return drv;
}

std::unique_ptr<HipDevice> openDevice(const HipDriver &drv, int ordinal) {
  std::string why;
  auto dev = HipDevice::open(drv, ordinal, &why);
  INFO(why);
  REQUIRE(dev);
  return dev;
}

/// A code object for the mock: an ELF64 header for `machine` (AMDGPU: 224)
/// and the mock's text after it. std::string keeps a NUL after the text.
std::string codeObject(const std::string &text, unsigned machine = 224) {
  std::string image(64, '\0');
  image.replace(0, 4, "\177ELF");
  image[4] = 2; // ELFCLASS64
  image[5] = 1; // little endian
  image[0x12] = char(machine & 0xff);
  image[0x13] = char(machine >> 8);
  return image + text;
}

const std::string kKernels = "mock-hsaco gfx942\n"
                             "kernel vector_add params=8,8,8,4 vgprs=12\n"
                             "kernel softmax_kernel params=8,8,4,4 lds=1024 "
                             "vgprs=32 scratch=16\n"
                             "kernel bounded params=8 maxthreads=256\n";

std::unique_ptr<HipKernel> load(HipDevice &dev, const std::string &name) {
  auto k = dev.loadModule(codeObject(kKernels), name);
  INFO((k ? std::string() : k.error().message));
  REQUIRE(k);
  return std::move(*k);
}

HipBuffer alloc(HipDevice &dev, size_t bytes) {
  auto b = dev.allocate(bytes);
  INFO((b ? std::string() : b.error().message));
  REQUIRE(b);
  return std::move(*b);
}

#define REQUIRE_OK(expr)                                                       \
  do {                                                                         \
    auto err_ = (expr);                                                        \
    INFO((err_ ? err_->message : std::string()));                              \
    REQUIRE_FALSE(err_);                                                       \
  } while (0)

template <typename T> T paramValue(const MockHipLaunch &l, int i) {
  REQUIRE(l.paramSizes[i] == sizeof(T));
  T v;
  std::memcpy(&v, l.params[i], sizeof v);
  return v;
}

/// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  std::string saved;
  bool had;
  ScopedEnv(const char *n, const char *value) : name(n) {
    const char *old = std::getenv(n);
    had = old != nullptr;
    saved = old ? old : "";
    ::setenv(n, value, 1);
  }
  ~ScopedEnv() {
    if (had)
      ::setenv(name.c_str(), saved.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Loading the library
//===----------------------------------------------------------------------===//

TEST_CASE("a missing HIP library is a reason and not a crash", "[hip]") {
  std::string why;
  CHECK_FALSE(HipDriver::load("/nonexistent/libamdhip64.so", &why));
  CHECK(contains(why, "/nonexistent/libamdhip64.so"));

  ScopedEnv env("TRITIUM_HIP_LIBRARY", "/nonexistent/libamdhip64.so");
  why.clear();
  CHECK_FALSE(HipDriver::loadDefault(&why));
  CHECK(contains(why, "TRITIUM_HIP_LIBRARY=/nonexistent/libamdhip64.so: "));
}

TEST_CASE("a library without HIP's symbols is refused", "[hip]") {
  std::string why;
  CHECK_FALSE(HipDriver::load("libm.so.6", &why));
  CHECK(why == "libm.so.6 does not export hipInit (not a HIP runtime, or one "
               "too old?)");
}

TEST_CASE("TRITIUM_HIP_LIBRARY names the library to load", "[hip]") {
  ScopedEnv env("TRITIUM_HIP_LIBRARY", TRITIUM_MOCK_HIP);
  std::string why;
  auto drv = HipDriver::loadDefault(&why);
  INFO(why);
  REQUIRE(drv);
  CHECK(drv->path() == TRITIUM_MOCK_HIP);
  CHECK(drv->rocm6Abi());
  CHECK(drv->hipFuncGetAttribute);
  CHECK(drv->hipPointerGetAttributes);
}

TEST_CASE("HIP error codes become 'hipErrorX: text'", "[hip]") {
  auto drv = loadDriver();
  CHECK(drv->describe(hipErrorInvalidValue) ==
        "hipErrorInvalidValue: invalid argument");
  CHECK(drv->errorText("hipModuleGetFunction(k)", hipErrorNotFound) ==
        "hipModuleGetFunction(k): hipErrorNotFound: named symbol not found");
  // HIP names every code it does not know hipErrorUnknown: keep the number.
  CHECK(drv->describe(12345) == "HIP error 12345: unknown error");
  CHECK(drv->describe(hipErrorUnknown) == "hipErrorUnknown: unknown error");
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

TEST_CASE("devices are discovered with their name and architecture", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev0 = openDevice(*drv, 0);
  CHECK(m.counters().initCalls == 1);
  CHECK(dev0->ordinal() == 0);
  CHECK(dev0->name() == "AMD Instinct MI300X");
  CHECK(dev0->arch() == "gfx942");
  CHECK(dev0->archFeatures() == "sramecc+:xnack-");
  CHECK(dev0->numCUs() == 304);
  CHECK(dev0->maxLdsPerBlock() == 65536);
  CHECK(dev0->warpSize() == 64);
  CHECK(dev0->maxThreadsPerBlock() == 1024);
  auto dev1 = openDevice(*drv, 1);
  CHECK(dev1->name() == "AMD Instinct MI300A");
  CHECK(dev1->arch() == "gfx942");
  CHECK(dev1->numCUs() == 228);

  std::string why;
  CHECK_FALSE(HipDevice::open(*drv, 2, &why));
  CHECK(why == "no HIP device 2 (this machine has 2)");
  CHECK_FALSE(HipDevice::open(*drv, -1, &why));
  CHECK(why == "no HIP device -1 (this machine has 2)");

  SECTION("no GPU") {
    m.reset(0);
    CHECK_FALSE(HipDevice::open(*drv, 0, &why));
    CHECK(why == "hipGetDeviceCount: hipErrorNoDevice: no ROCm-capable device "
                 "is detected");
  }
  SECTION("hipInit failing") {
    m.failNext("hipInit", hipErrorNotInitialized);
    CHECK_FALSE(HipDevice::open(*drv, 0, &why));
    CHECK(why == "hipInit: hipErrorNotInitialized: initialization error");
  }
  SECTION("an attribute query failing") {
    m.failNext("hipDeviceGetAttribute", hipErrorInvalidDevice);
    CHECK_FALSE(HipDevice::open(*drv, 0, &why));
    CHECK(why == "hipDeviceGetAttribute(MultiprocessorCount): "
                 "hipErrorInvalidDevice: invalid device ordinal");
  }
  SECTION("the properties query failing") {
    m.failNext("hipGetDevicePropertiesR0600", hipErrorInvalidValue);
    CHECK_FALSE(HipDevice::open(*drv, 0, &why));
    CHECK(why == "hipGetDevicePropertiesR0600: hipErrorInvalidValue: invalid "
                 "argument");
  }
}

TEST_CASE("a ROCm 5 library has the older properties layout and fewer "
          "entry points",
          "[hip]") {
  const Mock &m = mock(TRITIUM_MOCK_HIP5);
  m.reset(2);
  auto drv = loadDriver(TRITIUM_MOCK_HIP5);
  CHECK_FALSE(drv->rocm6Abi());
  CHECK_FALSE(drv->hipFuncGetAttribute);
  CHECK_FALSE(drv->hipPointerGetAttributes);
  CHECK_FALSE(drv->hipMemsetD8);
  auto dev = openDevice(*drv, 1);
  CHECK(dev->name() == "AMD Instinct MI300A");
  CHECK(dev->arch() == "gfx942");
  CHECK(dev->archFeatures() == "sramecc+:xnack-");

  // Without hipFuncGetAttribute the resources are unknown and the device's
  // limits apply.
  auto kernel = load(*dev, "softmax_kernel");
  CHECK(kernel->resources().staticLdsBytes == 0);
  CHECK(kernel->resources().maxThreadsPerBlock == 0);
  HipBuffer buf = alloc(*dev, 64);
  REQUIRE_OK(buf.memset(0x7f)); // through hipMemset
  std::vector<uint8_t> host(64);
  REQUIRE_OK(buf.copyToHost(host));
  CHECK(host[63] == 0x7f);
  std::vector<float> onHost(4);
  CHECK_FALSE(dev->checkDevicePointer(onHost.data(), "x")); // cannot tell
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

TEST_CASE("code objects load and their errors name the kernel", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);

  SECTION("a kernel and its resources") {
    auto kernel = load(*dev, "softmax_kernel");
    CHECK(kernel->name() == "softmax_kernel");
    CHECK(kernel->device() == dev.get());
    const KernelResources &res = kernel->resources();
    CHECK(res.numRegs == 32);
    CHECK(res.scratchBytes == 16);
    CHECK(res.staticLdsBytes == 1024);
    CHECK(res.maxThreadsPerBlock == 1024);
    CHECK(m.counters().liveModules == 1);
    kernel.reset();
    CHECK(m.counters().liveModules == 0);
  }
  SECTION("a kernel the module lacks") {
    auto k = dev->loadModule(codeObject(kKernels), "no_such_kernel");
    REQUIRE_FALSE(k);
    CHECK(k.error().kind == Error::Runtime);
    CHECK(k.error().message ==
          "hipModuleGetFunction(no_such_kernel): hipErrorNotFound: named "
          "symbol not found (the module has no kernel named "
          "'no_such_kernel')");
    CHECK(m.counters().modulesLoaded == 1);
    CHECK(m.counters().liveModules == 0); // unloaded again
  }
  SECTION("a code object for another GPU") {
    auto k = dev->loadModule(
        codeObject("mock-hsaco gfx90a\nkernel softmax_kernel params=8\n"),
        "softmax_kernel");
    REQUIRE_FALSE(k);
    CHECK(k.error().message ==
          "hipModuleLoadData(softmax_kernel): hipErrorNoBinaryForGpu: no "
          "kernel image is available for execution on the device (is the "
          "code object built for gfx942:sramecc+:xnack-?)");
  }
  SECTION("images that are not AMDGPU code objects are refused before HIP") {
    auto empty = dev->loadModule("", "softmax_kernel");
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message ==
          "hipModuleLoadData(softmax_kernel): empty code object");
    auto text = dev->loadModule(".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"",
                                "softmax_kernel");
    REQUIRE_FALSE(text);
    CHECK(text.error().message == "hipModuleLoadData(softmax_kernel): the "
                                  "image is not an ELF code object");
    auto cubin = dev->loadModule(codeObject(kKernels, /*EM_CUDA=*/190),
                                 "softmax_kernel");
    REQUIRE_FALSE(cubin);
    CHECK(contains(cubin.error().message,
                   "an ELF object for machine 190, not AMDGPU (224)"));
    std::string truncated = codeObject(kKernels);
    truncated[0x28] = char(0x40); // section headers at 64 ...
    truncated[0x3a] = 64;         // ... of 64 bytes ...
    truncated[0x3c] = 100;        // ... 100 of them
    auto cut = dev->loadModule(truncated, "softmax_kernel");
    REQUIRE_FALSE(cut);
    CHECK(contains(cut.error().message,
                   "truncated: its ELF header describes 6464 bytes"));
    CHECK(m.counters().modulesLoaded == 0);
  }
  SECTION("HIP's own load error") {
    auto k = dev->loadModule(codeObject("garbage\n"), "softmax_kernel");
    REQUIRE_FALSE(k);
    CHECK(contains(k.error().message,
                   "hipModuleLoadData(softmax_kernel): hipErrorInvalidImage: "
                   "device kernel image is invalid"));
  }
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

TEST_CASE("a launch passes its geometry and LDS size and parameter values",
          "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  auto kernel = load(*dev, "softmax_kernel");
  HipBuffer in = alloc(*dev, 1024), out = alloc(*dev, 1024);
  hipDeviceptr_t pin = in.ptr(), pout = out.ptr();
  int32_t rows = 7;
  float scale = 0.125f;
  void *params[] = {&pin, &pout, &rows, &scale};

  REQUIRE_OK(dev->launch(*kernel, 3, 2, 1, /*numWarps=*/4, /*waveSize=*/64,
                         /*dynamicLdsBytes=*/2048, params));
  MockHipLaunch l = m.launch();
  CHECK(std::string(l.kernel) == "softmax_kernel");
  CHECK(l.device == 0);
  CHECK(l.grid[0] == 3);
  CHECK(l.grid[1] == 2);
  CHECK(l.grid[2] == 1);
  CHECK(l.block[0] == 256); // num_warps * 64
  CHECK(l.block[1] == 1);
  CHECK(l.block[2] == 1);
  CHECK(l.sharedBytes == 2048);
  CHECK(l.stream == nullptr);
  REQUIRE(l.numParams == 4);
  CHECK(paramValue<void *>(l, 0) == pin);
  CHECK(paramValue<void *>(l, 1) == pout);
  CHECK(paramValue<int32_t>(l, 2) == 7);
  CHECK(paramValue<float>(l, 3) == 0.125f);
  REQUIRE_OK(dev->synchronize("softmax_kernel"));

  // Wave32 kernels (RDNA) get 32 threads per warp.
  REQUIRE_OK(dev->launch(*kernel, 1, 1, 1, 4, 32, 0, params));
  CHECK(m.launch().block[0] == 128);
  CHECK(m.launch().sharedBytes == 0);

  // An empty grid launches nothing.
  int launches = m.counters().launches;
  REQUIRE_OK(dev->launch(*kernel, 0, 1, 1, 4, 64, 0, params));
  CHECK(m.counters().launches == launches);
}

TEST_CASE("a launch on another device restores the current one", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev1 = openDevice(*drv, 1);
  auto kernel = load(*dev1, "bounded");
  HipBuffer buf = alloc(*dev1, 16);
  hipDeviceptr_t p = buf.ptr();
  void *params[] = {&p};
  REQUIRE(drv->hipSetDevice(0) == hipSuccess);
  REQUIRE_OK(dev1->launch(*kernel, 1, 1, 1, 2, 64, 0, params));
  CHECK(m.launch().device == 1);
  int current = -1;
  REQUIRE(drv->hipGetDevice(&current) == hipSuccess);
  CHECK(current == 0);
}

TEST_CASE("launches beyond the device's limits are refused", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  auto kernel = load(*dev, "softmax_kernel"); // 1024 bytes of static LDS
  HipBuffer buf = alloc(*dev, 64);
  hipDeviceptr_t p = buf.ptr();
  int32_t rows = 1;
  float scale = 1;
  void *params[] = {&p, &p, &rows, &scale};

  // Exactly the limit, static and dynamic together, is fine.
  REQUIRE_OK(dev->launch(*kernel, 1, 1, 1, 4, 64, 65536 - 1024, params));
  CHECK(m.launch().sharedBytes == 65536 - 1024);
  int launches = m.counters().launches;

  auto lds = dev->launch(*kernel, 1, 1, 1, 4, 64, 65536, params);
  REQUIRE(lds);
  CHECK(lds->kind == Error::Resources);
  CHECK(lds->message == "softmax_kernel: 65536 bytes of dynamic LDS (+1024 "
                        "static) exceed the device's limit of 65536 bytes per "
                        "block (AMD Instinct MI300X, gfx942)");

  auto threads = dev->launch(*kernel, 1, 1, 1, 32, 64, 0, params);
  REQUIRE(threads);
  CHECK(threads->kind == Error::Resources);
  CHECK(threads->message == "softmax_kernel: num_warps=32 gives 2048 threads "
                            "per block (wave size 64); the kernel allows 64 "
                            "to 1024");

  auto bounded = load(*dev, "bounded"); // launch bound 256
  auto overBound = dev->launch(*bounded, 1, 1, 1, 8, 64, 0, params);
  REQUIRE(overBound);
  CHECK(contains(overBound->message,
                 "bounded: num_warps=8 gives 512 threads per block"));
  CHECK(contains(overBound->message, "the kernel allows 64 to 256"));

  auto wave = dev->launch(*kernel, 1, 1, 1, 4, 16, 0, params);
  REQUIRE(wave);
  CHECK(wave->message == "softmax_kernel: wave size 16 is neither 32 nor 64");

  auto items = dev->launch(*kernel, 1u << 24, 1, 1, 4, 64, 0, params);
  REQUIRE(items);
  CHECK(contains(items->message, "a grid of 16777216 blocks of 256 threads"));
  CHECK(m.counters().launches == launches);
}

TEST_CASE("HIP's launch and fault errors are named", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  auto kernel = load(*dev, "vector_add");
  HipBuffer buf = alloc(*dev, 16);
  hipDeviceptr_t p = buf.ptr();
  int32_t n = 4;
  void *params[] = {&p, &p, &p, &n};

  m.failNext("hipModuleLaunchKernel", 701);
  auto err = dev->launch(*kernel, 1, 1, 1, 1, 64, 0, params);
  REQUIRE(err);
  CHECK(err->kind == Error::Runtime);
  CHECK(err->message == "hipModuleLaunchKernel(vector_add): "
                        "hipErrorLaunchOutOfResources: too many resources "
                        "requested for launch");

  // A kernel that runs past its buffer faults; the fault surfaces when the
  // device is synchronized.
  n = 64;
  REQUIRE_OK(dev->launch(*kernel, 1, 1, 1, 1, 64, 0, params));
  auto fault = dev->synchronize("vector_add");
  REQUIRE(fault);
  CHECK(fault->message == "hipDeviceSynchronize(vector_add): "
                          "hipErrorIllegalAddress: an illegal memory access "
                          "was encountered");

  m.failNext("hipMalloc", hipErrorOutOfMemory);
  auto big = dev->allocate(1 << 20);
  REQUIRE_FALSE(big);
  CHECK(big.error().message ==
        "hipMalloc(1048576 bytes): hipErrorOutOfMemory: out of memory");
}

//===----------------------------------------------------------------------===//
// Buffers, pointers and streams
//===----------------------------------------------------------------------===//

TEST_CASE("buffers round trip and a kernel computes with them", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  {
    uint32_t n = 1000; // not a multiple of the block
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = float(i) * 0.5f;
      y[i] = 3.0f - float(i);
    }
    HipBuffer dx = alloc(*dev, n * 4), dy = alloc(*dev, n * 4),
              dout = alloc(*dev, n * 4);
    REQUIRE_OK(dx.copyFromHost(x));
    REQUIRE_OK(dy.copyFromHost(y));
    REQUIRE_OK(dout.memset(0xff));
    auto kernel = load(*dev, "vector_add");
    hipDeviceptr_t px = dx.ptr(), py = dy.ptr(), pout = dout.ptr();
    void *params[] = {&px, &py, &pout, &n};
    REQUIRE_OK(dev->launch(*kernel, (n + 255) / 256, 1, 1, 4, 64, 0, params));
    REQUIRE_OK(dev->synchronize(kernel->name()));
    std::vector<float> out(n);
    REQUIRE_OK(dout.copyToHost(out));
    for (uint32_t i = 0; i < n; ++i)
      REQUIRE(out[i] == x[i] + y[i]);
    CHECK(m.counters().liveAllocations == 3);
  }
  CHECK(m.counters().liveAllocations == 0);

  HipBuffer buf = alloc(*dev, 256);
  CHECK(buf.size() == 256);
  REQUIRE_OK(buf.memset(0x5a)); // through hipMemsetD8
  std::vector<uint8_t> host(256);
  REQUIRE_OK(buf.copyToHost(host));
  for (uint8_t v : host)
    REQUIRE(v == 0x5a);
  std::vector<uint8_t> part = {1, 2, 3, 4};
  REQUIRE_OK(buf.copyFromHost(part.data(), 4, 252));
  REQUIRE_OK(buf.copyToHost(host));
  CHECK(host[251] == 0x5a);
  CHECK(host[252] == 1);
  CHECK(host[255] == 4);
  auto overrun = buf.copyFromHost(part.data(), 4, 253);
  REQUIRE(overrun);
  CHECK(overrun->message == "hipMemcpyHtoD: 4 bytes at offset 253 overrun a "
                            "buffer of 256 bytes");
  auto overread = buf.copyToHost(host.data(), 257);
  REQUIRE(overread);
  CHECK(contains(overread->message, "hipMemcpyDtoH: 257 bytes"));

  // Moving a buffer moves ownership; the empty one frees nothing.
  HipBuffer moved = std::move(buf);
  CHECK(buf.ptr() == nullptr);
  CHECK(moved.size() == 256);
  CHECK(m.counters().liveAllocations == 1);
  moved.reset();
  CHECK(m.counters().liveAllocations == 0);

  auto empty = dev->allocate(0);
  REQUIRE(empty);
  CHECK(empty->ptr() == nullptr);
  REQUIRE_OK(empty->memset(0));
}

TEST_CASE("device pointers are told from host pointers", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  HipBuffer buf = alloc(*dev, 64);
  CHECK_FALSE(dev->checkDevicePointer(buf.ptr(), "x_ptr"));
  CHECK_FALSE(
      dev->checkDevicePointer(static_cast<char *>(buf.ptr()) + 63, "x_ptr"));
  CHECK_FALSE(dev->checkDevicePointer(nullptr, "x_ptr"));
  std::vector<float> host(16);
  auto err = dev->checkDevicePointer(host.data(), "y_ptr");
  REQUIRE(err);
  CHECK(contains(err->message, "y_ptr: pointer 0x"));
  CHECK(contains(err->message, "is not memory a HIP device can access"));

  PointerInfo info;
  REQUIRE(drv->pointerInfo(buf.ptr(), info) == hipSuccess);
  CHECK(info.known);
  CHECK(info.device == 0);
}

TEST_CASE("a stream carries launches and goes with its owner", "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  auto drv = loadDriver();
  auto dev = openDevice(*drv, 0);
  {
    auto stream = dev->createStream();
    REQUIRE(stream);
    CHECK(stream->handle());
    CHECK(m.counters().liveStreams == 1);
    auto kernel = load(*dev, "bounded");
    HipBuffer buf = alloc(*dev, 16);
    hipDeviceptr_t p = buf.ptr();
    void *params[] = {&p};
    REQUIRE_OK(
        dev->launch(*kernel, 2, 1, 1, 1, 64, 0, params, stream->handle()));
    CHECK(m.launch().stream == stream->handle());
    REQUIRE_OK(stream->synchronize());
    HipStream moved = std::move(*stream);
    CHECK(stream->handle() == nullptr);
    CHECK(m.counters().liveStreams == 1);
  }
  CHECK(m.counters().liveStreams == 0);
  HipStream none;
  auto err = none.synchronize();
  REQUIRE(err);
  CHECK(err->message == "hipStreamSynchronize: no stream");
}

//===----------------------------------------------------------------------===//
// The process-wide device
//===----------------------------------------------------------------------===//

// The only test that touches HipDriver::get() and HipDevice::get(), whose
// answers are cached for the process: it chooses the library and default
// device before their first use.
TEST_CASE("the default device comes from TRITIUM_HIP_LIBRARY and "
          "TRITIUM_HIP_DEVICE",
          "[hip]") {
  const Mock &m = mock();
  m.reset(2);
  ScopedEnv library("TRITIUM_HIP_LIBRARY", TRITIUM_MOCK_HIP);
  ScopedEnv ordinal("TRITIUM_HIP_DEVICE", "1");
  std::string why;
  HipDevice *dev = HipDevice::get(&why);
  INFO(why);
  REQUIRE(dev);
  CHECK(dev->ordinal() == 1);
  CHECK(dev->name() == "AMD Instinct MI300A");
  CHECK(HipDevice::get() == dev); // cached
  CHECK(HipDevice::count() == 2);
  HipDevice *dev0 = HipDevice::get(0, &why);
  REQUIRE(dev0);
  CHECK(dev0->name() == "AMD Instinct MI300X");
  CHECK(HipDevice::get(0, &why) == dev0); // opened once
  CHECK_FALSE(HipDevice::get(2, &why));
  CHECK(why == "no HIP device 2 (this machine has 2)");
  REQUIRE(HipDriver::get());
  CHECK(&dev->driver() == HipDriver::get());
}

//===- CudaRuntimeTest.cpp - the CUDA driver layer and ptxas --------------===//
//
// Loading the driver with dlopen (absent library, missing symbols); ptxas
// on hand-written PTX (cubins, the -v report, syntax errors); and, where a
// GPU is present, modules through the driver JIT and from cubins, launches
// checked against host results, named launch errors, the dynamic shared
// memory opt-in, buffers, events and streams. Without a GPU the device
// tests report "skipped: <reason>" instead of failing.
//
//===----------------------------------------------------------------------===//
#include "runtime/cuda/CudaDevice.h"
#include "runtime/cuda/Ptxas.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <numeric>

using namespace tritium;
using namespace tritium::cuda;

namespace {

// Three kernels for sm_80 and later, written by hand so that these tests do
// not depend on code generation:
//   vector_add(x, y, out, n):       out[i] = x[i] + y[i] for i < n
//   smem_reverse(x, out, offset):   reverses each block's slice of x through
//                                   dynamic shared memory at byte `offset`
//                                   (so the end of a large allocation is
//                                   touched)
//   static_smem(out):               out[t] = 3 * (t ^ 1) through 4 KiB of
//                                   static shared memory
const char *const kPtx = R"(
.version 7.0
.target sm_80
.address_size 64

.extern .shared .align 16 .b8 dyn_smem[];
.shared .align 4 .b8 static_tile[4096];

.visible .entry vector_add(
    .param .u64 x_ptr,
    .param .u64 y_ptr,
    .param .u64 out_ptr,
    .param .u32 n
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<11>;

    ld.param.u64 %rd1, [x_ptr];
    ld.param.u64 %rd2, [y_ptr];
    ld.param.u64 %rd3, [out_ptr];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    add.s64 %rd9, %rd5, %rd7;
    add.s64 %rd10, %rd6, %rd7;
    ld.global.f32 %f1, [%rd8];
    ld.global.f32 %f2, [%rd9];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd10], %f3;
DONE:
    ret;
}

.visible .entry smem_reverse(
    .param .u64 x_ptr,
    .param .u64 out_ptr,
    .param .u32 smem_offset
)
{
    .reg .b32 %r<10>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<8>;

    ld.param.u64 %rd1, [x_ptr];
    ld.param.u64 %rd2, [out_ptr];
    ld.param.u32 %r1, [smem_offset];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.u32 %rd5, %r5, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    mov.u32 %r6, dyn_smem;
    add.u32 %r6, %r6, %r1;
    shl.b32 %r7, %r4, 2;
    add.u32 %r8, %r6, %r7;
    st.shared.f32 [%r8], %f1;
    bar.sync 0;
    sub.u32 %r9, %r3, %r4;
    sub.u32 %r9, %r9, 1;
    shl.b32 %r9, %r9, 2;
    add.u32 %r9, %r6, %r9;
    ld.shared.f32 %f2, [%r9];
    add.s64 %rd7, %rd4, %rd5;
    st.global.f32 [%rd7], %f2;
    ret;
}

.visible .entry static_smem(
    .param .u64 out_ptr
)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<5>;

    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, static_tile;
    add.u32 %r3, %r3, %r2;
    mul.lo.u32 %r4, %r1, 3;
    st.shared.u32 [%r3], %r4;
    bar.sync 0;
    xor.b32 %r2, %r2, 4;
    mov.u32 %r3, static_tile;
    add.u32 %r3, %r3, %r2;
    ld.shared.u32 %r5, [%r3];
    ld.param.u64 %rd1, [out_ptr];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r5;
    ret;
}
)";

/// kPtx with a syntax error on its line 40 (a missing comma).
std::string badPtx() {
  std::string ptx = kPtx;
  std::string from = "add.f32 %f3, %f1, %f2;";
  ptx.replace(ptx.find(from), from.size(), "add.f32 %f3, %f1 %f2;");
  return ptx;
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// The device, or null after reporting why the test is skipped.
CudaDevice *deviceOrSkip() {
  std::string why;
  CudaDevice *dev = CudaDevice::get(&why);
  if (!dev)
    WARN("skipped: " << why);
  return dev;
}

std::unique_ptr<CudaKernel> load(CudaDevice &dev, const std::string &image,
                                 bool isPtx, const std::string &name) {
  auto k = dev.loadModule(image, isPtx, name);
  INFO((k ? std::string() : k.error().message));
  REQUIRE(k);
  return std::move(*k);
}

DeviceBuffer alloc(CudaDevice &dev, size_t bytes) {
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

/// Runs vector_add on n elements with 4 warps per block; returns out.
std::vector<float> runVectorAdd(CudaDevice &dev, CudaKernel &kernel,
                                const std::vector<float> &x,
                                const std::vector<float> &y,
                                CUstream stream = nullptr) {
  uint32_t n = uint32_t(x.size());
  DeviceBuffer dx = alloc(dev, n * 4), dy = alloc(dev, n * 4),
               dout = alloc(dev, n * 4);
  REQUIRE_OK(dx.copyFromHost(x));
  REQUIRE_OK(dy.copyFromHost(y));
  REQUIRE_OK(dout.memset(0xff));
  CUdeviceptr px = dx.ptr(), py = dy.ptr(), pout = dout.ptr();
  void *params[] = {&px, &py, &pout, &n};
  REQUIRE_OK(dev.launch(kernel, (n + 127) / 128, 1, 1, 4, 0, params, stream));
  REQUIRE_OK(dev.synchronize(kernel.name()));
  std::vector<float> out(n);
  REQUIRE_OK(dout.copyToHost(out));
  return out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Driver loading (no GPU needed)
//===----------------------------------------------------------------------===//

TEST_CASE("a missing driver library is a reason, not a crash", "[cuda]") {
  std::string why;
  auto drv = CudaDriver::load("/nonexistent/libcuda.so.1", &why);
  CHECK_FALSE(drv);
  CHECK(contains(why, "/nonexistent/libcuda.so.1"));
}

TEST_CASE("a library without the driver's symbols is refused", "[cuda]") {
  std::string why;
  auto drv = CudaDriver::load("libm.so.6", &why);
  CHECK_FALSE(drv);
  CHECK(why == "libm.so.6 does not export cuInit (CUDA driver too old?)");
}

TEST_CASE("the device is there or says why not", "[cuda]") {
  std::string why;
  CudaDevice *dev = CudaDevice::get(&why);
  if (!dev) {
    CHECK_FALSE(why.empty());
    // The same answer every time.
    std::string again;
    CHECK(CudaDevice::get(&again) == nullptr);
    CHECK(again == why);
    WARN("skipped: " << why);
    return;
  }
  CHECK(CudaDevice::get() == dev);
  CHECK_FALSE(dev->name().empty());
  CHECK(dev->computeCapability() >= 50);
  CHECK(dev->numSMs() > 0);
  CHECK(dev->maxSharedPerBlock() == 48 * 1024);
  CHECK(dev->maxSharedPerBlockOptin() >= dev->maxSharedPerBlock());
  CHECK(
      contains(dev->arch(), "sm_" + std::to_string(dev->computeCapability())));
  WARN("device: " << dev->name() << " (" << dev->arch() << ", " << dev->numSMs()
                  << " SMs, " << dev->maxSharedPerBlockOptin()
                  << " bytes opt-in shared)");
}

TEST_CASE("every device by ordinal, and which device a pointer is on", "[cuda]") {
  std::string why;
  CudaDevice *dev = CudaDevice::get(&why);
  if (!dev) {
    CHECK(CudaDevice::count() == 0);
    CHECK(CudaDevice::get(0, &why) == nullptr);
    WARN("skipped: " << why);
    return;
  }
  int n = CudaDevice::count();
  REQUIRE(n >= 1);
  CHECK(CudaDevice::get(dev->ordinal(), &why) == dev);
  CHECK(CudaDevice::get(n, &why) == nullptr);
  CHECK(contains(why, "no CUDA device " + std::to_string(n) + " (this machine has " +
                          std::to_string(n) + ")"));
  CHECK(CudaDevice::get(-1, &why) == nullptr);
  for (int i = 0; i < n; ++i) {
    CudaDevice *d = CudaDevice::get(i, &why);
    INFO(why);
    REQUIRE(d);
    CHECK(d->ordinal() == i);
    CHECK(CudaDevice::get(i, &why) == d); // opened once
    auto buf = d->allocate(256);
    REQUIRE(buf);
    auto where = CudaDevice::deviceOf(buf->ptr(), "x");
    REQUIRE(where);
    CHECK(*where == i);
    auto again = CudaDevice::deviceOf(buf->ptr(), "x"); // remembered
    REQUIRE(again);
    CHECK(*again == i);
  }
  std::vector<float> host(16);
  auto onHost = CudaDevice::deviceOf(CUdeviceptr(uintptr_t(host.data())), "y_ptr");
  REQUIRE_FALSE(onHost);
  CHECK(contains(onHost.error().message, "y_ptr: pointer 0x"));
  if (n < 2)
    WARN("one device: launches across devices run on a machine with two");
}

//===----------------------------------------------------------------------===//
// ptxas (no GPU needed)
//===----------------------------------------------------------------------===//

TEST_CASE("ptxas -v output is parsed", "[ptxas]") {
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas info    : Function properties for k\n"
      "    64 bytes stack frame, 24 bytes spill stores, 32 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 16384 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compile time = 20.939 ms\n";
  PtxasReport r;
  parsePtxasLog(log, r);
  CHECK(r.parsed);
  CHECK(r.registers == 168);
  CHECK(r.spillStoreBytes == 24);
  CHECK(r.spillLoadBytes == 32);
  CHECK(r.stackFrameBytes == 64);
  CHECK(r.sharedBytes == 16384);
}

TEST_CASE("ptxas assembles PTX for sm_80 and sm_90a", "[ptxas]") {
  std::string why;
  if (findPtxas(&why).empty()) {
    WARN("skipped: " << why);
    return;
  }
  auto version = ptxasVersion();
  REQUIRE(version);
  CHECK(contains(*version, "release"));
  for (const char *arch : {"sm_80", "sm_90a"}) {
    PtxasReport report;
    auto cubin = assemble(kPtx, arch, &report);
    INFO(arch << ": " << (cubin ? report.log : cubin.error().message));
    REQUIRE(cubin);
    CHECK(cubin->compare(0, 4, "\177ELF") == 0);
    CHECK(report.parsed);
    CHECK(report.registers > 0);
    CHECK(report.registers <= 255);
    CHECK(report.spillStoreBytes == 0);
    CHECK(report.spillLoadBytes == 0);
    CHECK(report.sharedBytes == 4096); // static_smem's tile
    CHECK(contains(report.log, std::string("for '") + arch + "'"));
  }
}

TEST_CASE("a PTX syntax error returns ptxas's message", "[ptxas]") {
  std::string why;
  if (findPtxas(&why).empty()) {
    WARN("skipped: " << why);
    return;
  }
  PtxasReport report;
  auto cubin = assemble(badPtx(), "sm_80", &report);
  REQUIRE_FALSE(cubin);
  const std::string &msg = cubin.error().message;
  INFO(msg);
  CHECK(contains(msg, "ptxas --gpu-name=sm_80 failed"));
  CHECK(contains(msg, "line 40"));
  CHECK(contains(msg, "syntax error"));
  CHECK_FALSE(report.parsed);

  // An unknown architecture is ptxas's complaint too.
  auto wrongArch = assemble(kPtx, "sm_1");
  REQUIRE_FALSE(wrongArch);
  CHECK(contains(wrongArch.error().message, "sm_1"));
}

TEST_CASE("TRITIUM_PTXAS picks ptxas and is not second-guessed", "[ptxas]") {
  const char *old = std::getenv("TRITIUM_PTXAS");
  std::string saved = old ? old : "";
  ::setenv("TRITIUM_PTXAS", "/nonexistent/ptxas", 1);
  std::string why;
  CHECK(findPtxas(&why).empty());
  CHECK(contains(why, "TRITIUM_PTXAS=/nonexistent/ptxas"));
  CHECK_FALSE(ptxasAvailable());
  auto r = assemble(kPtx, "sm_80");
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "/nonexistent/ptxas"));
  if (old)
    ::setenv("TRITIUM_PTXAS", saved.c_str(), 1);
  else
    ::unsetenv("TRITIUM_PTXAS");
}

//===----------------------------------------------------------------------===//
// On the GPU
//===----------------------------------------------------------------------===//

TEST_CASE("PTX through the driver JIT computes a vector add", "[cuda][gpu]") {
  CudaDevice *dev = deviceOrSkip();
  if (!dev)
    return;
  auto kernel = load(*dev, kPtx, /*isPtx=*/true, "vector_add");
  const KernelResources &res = kernel->resources();
  CHECK(res.numRegs > 0);
  CHECK(res.localBytes == 0);
  CHECK(res.staticSharedBytes == 0);
  CHECK(res.maxThreadsPerBlock >= 128);
  CHECK(res.ptxVersion == 80); // .target sm_80
  CHECK(res.binaryVersion == dev->computeCapability());

  uint32_t n = 1000; // not a multiple of the block
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i) * 0.5f;
    y[i] = 3.0f - float(i);
  }
  std::vector<float> out = runVectorAdd(*dev, *kernel, x, y);
  for (uint32_t i = 0; i < n; ++i)
    REQUIRE(out[i] == x[i] + y[i]);

  auto smem = load(*dev, kPtx, true, "static_smem");
  CHECK(smem->resources().staticSharedBytes == 4096);
  DeviceBuffer dout = alloc(*dev, 1024 * 4);
  CUdeviceptr pout = dout.ptr();
  void *params[] = {&pout};
  REQUIRE_OK(dev->launch(*smem, 1, 1, 1, 32, 0, params));
  REQUIRE_OK(dev->synchronize(smem->name()));
  std::vector<uint32_t> got(1024);
  REQUIRE_OK(dout.copyToHost(got));
  for (uint32_t t = 0; t < 1024; ++t)
    REQUIRE(got[t] == 3 * (t ^ 1));
}

TEST_CASE("a cubin from ptxas loads and runs", "[cuda][gpu]") {
  CudaDevice *dev = deviceOrSkip();
  if (!dev)
    return;
  std::string why;
  if (findPtxas(&why).empty()) {
    WARN("skipped: " << why);
    return;
  }
  PtxasReport report;
  auto cubin = assemble(kPtx, dev->arch(), &report);
  INFO((cubin ? report.log : cubin.error().message));
  REQUIRE(cubin);
  auto kernel = load(*dev, *cubin, /*isPtx=*/false, "vector_add");
  // The driver and ptxas agree on the registers.
  CHECK(kernel->resources().numRegs >= 1);
  CHECK(kernel->jitLog().empty());
  std::vector<float> x(4096, 1.5f), y(4096, 2.25f);
  std::vector<float> out = runVectorAdd(*dev, *kernel, x, y);
  for (float v : out)
    REQUIRE(v == 3.75f);
}

TEST_CASE("load and launch errors are named", "[cuda][gpu]") {
  CudaDevice *dev = deviceOrSkip();
  if (!dev)
    return;

  SECTION("PTX that does not compile carries the JIT log") {
    auto k = dev->loadModule(badPtx(), true, "vector_add");
    REQUIRE_FALSE(k);
    INFO(k.error().message);
    CHECK(contains(k.error().message, "cuModuleLoadDataEx(vector_add): "
                                      "CUDA_ERROR_INVALID_PTX"));
    CHECK(contains(k.error().message, "syntax error"));
  }
  SECTION("a kernel the module lacks") {
    auto k = dev->loadModule(kPtx, true, "no_such_kernel");
    REQUIRE_FALSE(k);
    INFO(k.error().message);
    CHECK(
        contains(k.error().message,
                 "cuModuleGetFunction(no_such_kernel): CUDA_ERROR_NOT_FOUND"));
  }
  SECTION("a cubin that is not one") {
    auto k =
        dev->loadModule(std::string("\177ELF garbage"), false, "vector_add");
    REQUIRE_FALSE(k);
    CHECK(contains(k.error().message, "cuModuleLoadDataEx(vector_add): "));
  }
  SECTION("a grid the driver refuses") {
    auto kernel = load(*dev, kPtx, true, "vector_add");
    DeviceBuffer buf = alloc(*dev, 1024);
    CUdeviceptr p = buf.ptr();
    uint32_t n = 0;
    void *params[] = {&p, &p, &p, &n};
    // gridDim.y is limited to 65535.
    auto err = dev->launch(*kernel, 1, 1u << 20, 1, 4, 0, params);
    REQUIRE(err);
    CHECK(err->message ==
          "cuLaunchKernel(vector_add): CUDA_ERROR_INVALID_VALUE: invalid "
          "argument");
    // The context is still usable afterwards.
    REQUIRE_OK(dev->launch(*kernel, 1, 1, 1, 4, 0, params));
    REQUIRE_OK(dev->synchronize("vector_add"));
  }
  SECTION("too many threads per block") {
    auto kernel = load(*dev, kPtx, true, "vector_add");
    auto err = dev->launch(*kernel, 1, 1, 1, 64, 0, nullptr);
    REQUIRE(err);
    CHECK(contains(err->message, "vector_add: num_warps=64 gives 2048 "
                                 "threads per block"));
  }
  SECTION("an empty grid launches nothing") {
    auto kernel = load(*dev, kPtx, true, "vector_add");
    REQUIRE_OK(dev->launch(*kernel, 0, 1, 1, 4, 0, nullptr));
  }
}

TEST_CASE("dynamic shared memory above 48 KiB is opted in to", "[cuda][gpu]") {
  CudaDevice *dev = deviceOrSkip();
  if (!dev)
    return;
  auto kernel = load(*dev, kPtx, true, "smem_reverse");
  const uint32_t block = 256, blocks = 8, n = block * blocks;
  std::vector<float> x(n);
  std::iota(x.begin(), x.end(), 0.0f);
  DeviceBuffer dx = alloc(*dev, n * 4), dout = alloc(*dev, n * 4);
  REQUIRE_OK(dx.copyFromHost(x));
  CUdeviceptr px = dx.ptr(), pout = dout.ptr();

  size_t optin = size_t(dev->maxSharedPerBlockOptin());
  for (size_t dyn : {size_t(4096), size_t(64 * 1024), optin}) {
    INFO("dynamic shared bytes: " << dyn);
    REQUIRE_OK(dout.memset(0));
    // Use the top of the allocation, which exists only if the launch got
    // all of it.
    uint32_t offset = uint32_t(dyn - block * 4);
    void *params[] = {&px, &pout, &offset};
    REQUIRE_OK(dev->launch(*kernel, blocks, 1, 1, block / 32, dyn, params));
    REQUIRE_OK(dev->synchronize(kernel->name()));
    std::vector<float> out(n);
    REQUIRE_OK(dout.copyToHost(out));
    for (uint32_t b = 0; b < blocks; ++b)
      for (uint32_t t = 0; t < block; ++t)
        REQUIRE(out[b * block + t] == x[b * block + block - 1 - t]);
  }

  uint32_t offset = 0;
  void *params[] = {&px, &pout, &offset};
  auto err = dev->launch(*kernel, 1, 1, 1, 4, optin + 1, params);
  REQUIRE(err);
  INFO(err->message);
  CHECK(contains(err->message, "smem_reverse: " + std::to_string(optin + 1) +
                                   " bytes of dynamic shared memory"));
  CHECK(contains(err->message, "limit of " + std::to_string(optin)));
}

TEST_CASE("buffers, pointers, events and streams", "[cuda][gpu]") {
  CudaDevice *dev = deviceOrSkip();
  if (!dev)
    return;

  DeviceBuffer buf = alloc(*dev, 256);
  CHECK(buf.size() == 256);
  REQUIRE_OK(buf.memset(0x5a));
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
  CHECK(contains(overrun->message, "overrun a buffer of 256 bytes"));

  // Moving a buffer moves ownership; the empty one frees nothing.
  DeviceBuffer moved = std::move(buf);
  CHECK(buf.ptr() == 0);
  CHECK(moved.size() == 256);

  CHECK_FALSE(dev->checkDevicePointer(moved.ptr(), "x"));
  CHECK_FALSE(dev->checkDevicePointer(0, "x"));
  auto hostPtr =
      dev->checkDevicePointer(CUdeviceptr(uintptr_t(host.data())), "x_ptr");
  REQUIRE(hostPtr);
  CHECK(contains(hostPtr->message, "x_ptr: pointer 0x"));

  auto empty = dev->allocate(0);
  REQUIRE(empty);
  CHECK(empty->ptr() == 0);

  auto stream = dev->createStream();
  REQUIRE(stream);
  auto start = dev->createEvent(), end = dev->createEvent();
  REQUIRE(start);
  REQUIRE(end);
  auto kernel = load(*dev, kPtx, true, "vector_add");
  REQUIRE_OK(start->record(stream->handle()));
  std::vector<float> x(1 << 16, 1.0f), y(1 << 16, 2.0f);
  std::vector<float> out = runVectorAdd(*dev, *kernel, x, y, stream->handle());
  REQUIRE_OK(end->record(stream->handle()));
  REQUIRE_OK(stream->synchronize());
  CHECK(out[12345] == 3.0f);
  auto ms = CudaEvent::elapsedMs(*start, *end);
  REQUIRE(ms);
  CHECK(*ms >= 0.0f);
}

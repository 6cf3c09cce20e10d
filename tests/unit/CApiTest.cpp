//===- CApiTest.cpp - the C API (runtime/capi/tritium.h) ------------------===//
//
// libtritium.so through its C header only: registering modules with
// tritium_compiler_add_module, compiling a kernel that imports a helper and a
// constexpr from one, launching it, and the located error of a helper that
// does not compile.
//
//===----------------------------------------------------------------------===//
#include "runtime/capi/tritium.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {
const char *kHelpers = "import triton\n"
                       "import triton.language as tl\n"
                       "BLOCK: tl.constexpr = 32\n"
                       "@triton.jit\n"
                       "def axpb(x, a):\n"
                       "    return x * a + B\n"
                       "B = tl.constexpr(0.5)\n"
                       "@triton.jit\n"
                       "def broken(x):\n"
                       "    return x + tl.arange(0, 3)\n";

const char *kKernel =
    "import triton\n"
    "import triton.language as tl\n"
    "from helpers import axpb as f, BLOCK\n"
    "import helpers\n"
    "@triton.jit\n"
    "def k(X, n):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(X + offs, mask=offs < n)\n"
    "    tl.store(X + offs, f(x, 3.0), mask=offs < n)\n"
    "@triton.jit\n"
    "def bad(X, n):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    tl.store(X + offs, helpers.broken(tl.load(X + offs)))\n";

/// `r` a BUFFER record over `bytes` bytes of `dtype` at `data`.
void setBuffer(tritium_arg &r, void *data, size_t bytes, int dtype) {
  r.kind = TRITIUM_ARG_BUFFER;
  r.value.buffer.data = data;
  r.value.buffer.bytes = bytes;
  r.value.buffer.dtype = dtype;
}

/// `r` an INT record of `v`.
void setInt(tritium_arg &r, int64_t v) {
  r.kind = TRITIUM_ARG_INT;
  r.value.i = v;
}

tritium_status launch(tritium_kernel *k, std::vector<float> &x) {
  tritium_arg args[2] = {};
  setBuffer(args[0], x.data(), x.size() * sizeof(float), TRITIUM_F32);
  setInt(args[1], int64_t(x.size()));
  int64_t grid[3] = {1, 1, 1};
  return tritium_kernel_launch(k, grid, args, 2, nullptr);
}
} // namespace

TEST_CASE("capi: kernels call helpers of registered modules", "[capi]") {
  tritium_compiler *c = tritium_compiler_create();
  REQUIRE(c);
  CHECK(tritium_compiler_add_module(nullptr, "m", "", "m.py") ==
        TRITIUM_ERROR_ARGUMENT);
  CHECK(tritium_compiler_add_module(c, nullptr, "", "m.py") ==
        TRITIUM_ERROR_ARGUMENT);
  CHECK(tritium_compiler_add_module(c, "not-a-name", "", "m.py") ==
        TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error())
            .find("'not-a-name' is not a module name") != std::string::npos);
  REQUIRE(tritium_compiler_add_module(c, "helpers", kHelpers, "helpers.py") ==
          TRITIUM_OK);

  tritium_kernel *k = nullptr;
  REQUIRE(tritium_kernel_compile(c, kKernel, "kernel.py", "k", nullptr, 0,
                                 nullptr, &k) == TRITIUM_OK);
  std::vector<float> x(20);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i);
  INFO(tritium_last_error());
  REQUIRE(launch(k, x) == TRITIUM_OK);
  for (size_t i = 0; i < x.size(); ++i)
    CHECK(x[i] == 3.0f * float(i) + 0.5f);
  tritium_kernel_destroy(k);

  k = nullptr;
  REQUIRE(tritium_kernel_compile(c, kKernel, "kernel.py", "bad", nullptr, 0,
                                 nullptr, &k) == TRITIUM_OK);
  CHECK(launch(k, x) == TRITIUM_ERROR_COMPILE);
  std::string err = tritium_last_error();
  INFO(err);
  CHECK(err.rfind("helpers.py:10:", 0) == 0);
  CHECK(err.find("must be a power of two") != std::string::npos);
  tritium_kernel_destroy(k);
  tritium_compiler_destroy(c);
}

TEST_CASE("capi: tuple arguments are records followed by their elements",
          "[capi]") {
  const char *src = "import triton\n"
                    "import triton.language as tl\n"
                    "@triton.jit\n"
                    "def k(out, pair, nested):\n"
                    "    a, b = pair\n"
                    "    tl.store(out + 0, tl.load(a) + tl.load(b))\n"
                    "    tl.static_assert(nested[1] is None)\n"
                    "    tl.store(out + 1, nested[0] * nested[2][0])\n";
  tritium_compiler *c = tritium_compiler_create();
  tritium_kernel *k = nullptr;
  REQUIRE(tritium_kernel_compile(c, src, "t.py", "k", nullptr, 0, nullptr, &k) ==
          TRITIUM_OK);
  std::vector<int32_t> out(2), a = {40}, b = {2};
  auto buffer = [](tritium_arg &r, std::vector<int32_t> &v) {
    setBuffer(r, v.data(), v.size() * 4, TRITIUM_I32);
  };
  // out, (a, b), (7, None, (6,))
  tritium_arg args[9] = {};
  buffer(args[0], out);
  args[1].kind = TRITIUM_ARG_TUPLE;
  args[1].value.i = 2;
  buffer(args[2], a);
  buffer(args[3], b);
  args[4].kind = TRITIUM_ARG_TUPLE;
  args[4].value.i = 3;
  setInt(args[5], 7);
  args[6].kind = TRITIUM_ARG_LITERAL;
  args[6].value.literal = "None";
  args[7].kind = TRITIUM_ARG_TUPLE;
  args[7].value.i = 1;
  setInt(args[8], 6);
  int64_t grid[3] = {1, 1, 1};
  INFO(tritium_last_error());
  REQUIRE(tritium_kernel_launch(k, grid, args, 9, nullptr) == TRITIUM_OK);
  CHECK(out[0] == 42);
  CHECK(out[1] == 42);
  const char *sig = nullptr;
  REQUIRE(tritium_kernel_warmup(k, args, 9, nullptr, &sig) == TRITIUM_OK);
  CHECK(std::string(sig) == "*i32:16,(*i32:16,*i32:16),(i32,None,(i32))");
  // A tuple whose elements run past the records is an error, named.
  CHECK(tritium_kernel_launch(k, grid, args, 8, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("argument 'nested[2]'") !=
        std::string::npos);
  args[1].value.i = 9;
  CHECK(tritium_kernel_launch(k, grid, args, 9, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("argument 'pair': a tuple of 9 elements") !=
        std::string::npos);
  tritium_kernel_destroy(k);
  tritium_compiler_destroy(c);
}

TEST_CASE("capi: a host tensor descriptor is its block shape, then its base, "
          "shape and strides",
          "[capi]") {
  const char *src = "import triton\n"
                    "import triton.language as tl\n"
                    "@triton.jit\n"
                    "def k(d, out):\n"
                    "    x = d.load([0, 0])\n"
                    "    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]\n"
                    "    tl.store(out + offs, x)\n";
  tritium_compiler *c = tritium_compiler_create();
  tritium_kernel *k = nullptr;
  REQUIRE(tritium_kernel_compile(c, src, "d.py", "k", nullptr, 0, nullptr, &k) ==
          TRITIUM_OK);
  alignas(16) float base[3 * 8];
  for (int i = 0; i < 24; ++i)
    base[i] = float(i);
  std::vector<float> out(32, -1.0f);
  tritium_arg args[7] = {};
  args[0].kind = TRITIUM_ARG_TENSORDESC;
  args[0].value.literal = "[4,8],nan";
  setBuffer(args[1], base, sizeof(base), TRITIUM_F32);
  int64_t ints[4] = {3, 5, 8, 1}; // shape [3, 5], strides [8, 1]
  for (int i = 0; i < 4; ++i)
    setInt(args[2 + i], ints[i]);
  setBuffer(args[6], out.data(), out.size() * sizeof(float), TRITIUM_F32);
  int64_t grid[3] = {1, 1, 1};
  INFO(tritium_last_error());
  REQUIRE(tritium_kernel_launch(k, grid, args, 7, nullptr) == TRITIUM_OK);
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col < 8; ++col) {
      float v = out[r * 8 + col];
      if (r < 3 && col < 5)
        CHECK(v == base[r * 8 + col]);
      else
        CHECK(std::isnan(v));
    }
  // The signature says the padding, and ":16" only for shapes of multiples
  // of 16.
  const char *sig = nullptr;
  REQUIRE(tritium_kernel_warmup(k, args, 7, nullptr, &sig) == TRITIUM_OK);
  CHECK(std::string(sig) == "tensordesc<fp32[4,8],nan>,*fp32:16");
  args[2].value.i = 32, args[3].value.i = 16;
  REQUIRE(tritium_kernel_warmup(k, args, 7, nullptr, &sig) == TRITIUM_OK);
  CHECK(std::string(sig) == "tensordesc<fp32[4,8],nan>:16,*fp32:16");
  args[2].value.i = 3, args[3].value.i = 5;
  // The last stride must be 1; the block shape must be a valid literal.
  args[5].value.i = 2;
  CHECK(tritium_kernel_launch(k, grid, args, 7, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("the last stride must be 1") !=
        std::string::npos);
  args[5].value.i = 1;
  // As in Triton: the base 16-byte aligned, strides but the last multiples
  // of 16 bytes.
  args[4].value.i = 6;
  CHECK(tritium_kernel_launch(k, grid, args, 7, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("multiples of 16 bytes, got 6 elements of 4 bytes") !=
        std::string::npos);
  args[4].value.i = 8;
  setBuffer(args[1], base + 1, sizeof(base) - 4, TRITIUM_F32);
  CHECK(tritium_kernel_launch(k, grid, args, 7, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("16-byte aligned") != std::string::npos);
  setBuffer(args[1], base, sizeof(base), TRITIUM_F32);
  args[0].value.literal = "[4,x]";
  CHECK(tritium_kernel_launch(k, grid, args, 7, nullptr) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("block shape") != std::string::npos);
  tritium_kernel_destroy(k);
  tritium_compiler_destroy(c);
}

TEST_CASE("capi: tritium_kernels_warmup sets each job's status and names the first failure",
          "[capi]") {
  tritium_compiler *c = tritium_compiler_create();
  REQUIRE(tritium_compiler_add_module(c, "helpers", kHelpers, "helpers.py") == TRITIUM_OK);
  tritium_kernel *good = nullptr, *bad = nullptr;
  REQUIRE(tritium_kernel_compile(c, kKernel, "kernel.py", "k", nullptr, 0, nullptr, &good) ==
          TRITIUM_OK);
  REQUIRE(tritium_kernel_compile(c, kKernel, "kernel.py", "bad", nullptr, 0, nullptr, &bad) ==
          TRITIUM_OK);
  std::vector<float> x(20);
  tritium_arg args[2] = {};
  setBuffer(args[0], x.data(), x.size() * sizeof(float), TRITIUM_F32);
  setInt(args[1], int64_t(x.size()));
  tritium_launch_options eight = tritium_launch_options_default();
  eight.num_warps = 8;
  tritium_warmup_job jobs[4] = {{good, args, 2, nullptr, TRITIUM_OK},
                                {good, args, 2, &eight, TRITIUM_OK},
                                {bad, args, 2, nullptr, TRITIUM_OK},
                                {nullptr, args, 2, nullptr, TRITIUM_OK}};
  CHECK(tritium_kernels_warmup(jobs, 4, 0) == TRITIUM_ERROR_COMPILE);
  std::string err = tritium_last_error();
  INFO(err);
  CHECK(err.rfind("warmup job 2: helpers.py:10:", 0) == 0);
  CHECK(jobs[0].status == TRITIUM_OK);
  CHECK(jobs[1].status == TRITIUM_OK);
  CHECK(jobs[2].status == TRITIUM_ERROR_COMPILE);
  CHECK(jobs[3].status == TRITIUM_ERROR_ARGUMENT);
  // Two specializations of `good` (num_warps 4 and 8), compiled once each:
  // the launch after finds them.
  CHECK(tritium_kernel_num_compiles(good) == 2);
  REQUIRE(launch(good, x) == TRITIUM_OK);
  CHECK(tritium_kernel_num_compiles(good) == 2);

  CHECK(tritium_kernels_warmup(jobs, 2, 1) == TRITIUM_OK);
  CHECK(tritium_kernels_warmup(nullptr, 0, 0) == TRITIUM_OK);
  CHECK(tritium_kernels_warmup(nullptr, 1, 0) == TRITIUM_ERROR_ARGUMENT);
  CHECK(tritium_kernels_warmup(jobs, 1, -1) == TRITIUM_ERROR_ARGUMENT);
  CHECK(std::string(tritium_last_error()).find("threads must be") != std::string::npos);
  tritium_kernel_destroy(good);
  tritium_kernel_destroy(bad);
  tritium_compiler_destroy(c);
}

TEST_CASE("capi: pointers read from memory reach the host buffers a launch names",
          "[capi]") {
  // 08-grouped-gemm's form: a table of addresses, each cast to a pointer.
  const char *src = "import triton\n"
                    "import triton.language as tl\n"
                    "@triton.jit\n"
                    "def gather(Ptrs, Out, n):\n"
                    "    g = tl.program_id(0)\n"
                    "    p = tl.load(Ptrs + g).to(tl.pointer_type(tl.float32))\n"
                    "    offs = tl.arange(0, 8)\n"
                    "    x = tl.load(p + offs, mask=offs < n)\n"
                    "    tl.store(Out + g * 8 + offs, x * 2.0, mask=offs < n)\n";
  tritium_compiler *c = tritium_compiler_create();
  tritium_kernel *k = nullptr;
  REQUIRE(tritium_kernel_compile(c, src, "gather.py", "gather", nullptr, 0, nullptr, &k) ==
          TRITIUM_OK);
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8}, b = {10, 20, 30, 40, 50, 60, 70, 80};
  std::vector<uint64_t> table = {uint64_t(reinterpret_cast<uintptr_t>(a.data())),
                                 uint64_t(reinterpret_cast<uintptr_t>(b.data()))};
  std::vector<float> out(16, -1.f);
  tritium_arg args[3] = {};
  setBuffer(args[0], table.data(), table.size() * sizeof(uint64_t), TRITIUM_U64);
  setBuffer(args[1], out.data(), out.size() * sizeof(float), TRITIUM_F32);
  setInt(args[2], 8);
  int64_t grid[3] = {2, 1, 1};

  // Memory the launch was not told of: an error naming the address.
  CHECK(tritium_kernel_launch(k, grid, args, 3, nullptr) == TRITIUM_ERROR_RUNTIME);
  std::string err = tritium_last_error();
  INFO(err);
  CHECK(err.find("gather.py:8") != std::string::npos);

  tritium_host_buffer reach[2] = {{a.data(), a.size() * sizeof(float), "a"},
                                  {b.data(), b.size() * sizeof(float), nullptr}};
  tritium_launch_options o = tritium_launch_options_default();
  o.reachable = reach;
  o.num_reachable = 2;
  REQUIRE(tritium_kernel_launch(k, grid, args, 3, &o) == TRITIUM_OK);
  for (int i = 0; i < 8; ++i) {
    CHECK(out[i] == 2 * a[i]);
    CHECK(out[8 + i] == 2 * b[i]);
  }

  // Past the end of a reachable buffer: named by it.
  setInt(args[2], 9);
  std::vector<float> small(4, 0.f);
  table[1] = uint64_t(reinterpret_cast<uintptr_t>(small.data()));
  reach[1] = {small.data(), small.size() * sizeof(float), "small"};
  CHECK(tritium_kernel_launch(k, grid, args, 3, &o) == TRITIUM_ERROR_RUNTIME);
  err = tritium_last_error();
  INFO(err);
  CHECK(err.find("buffer 'small'") != std::string::npos);
  tritium_kernel_destroy(k);
  tritium_compiler_destroy(c);
}

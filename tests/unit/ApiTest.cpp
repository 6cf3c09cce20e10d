//===- ApiTest.cpp - the public C++ host API (runtime/Tritium.h) ----------===//
//
// Example kernels compiled and launched through tritium::Compiler/Kernel,
// compared with float64 references computed here; the specialization cache;
// argument, compile and runtime errors returned as values.
//
//===----------------------------------------------------------------------===//
#include "runtime/Tritium.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

using namespace tritium;

namespace {
std::string example(const std::string &name) {
  return std::string(TRITIUM_SOURCE_DIR) + "/examples/" + name;
}

std::vector<float> randn(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<float> d;
  std::vector<float> v(n);
  for (float &x : v)
    x = d(g);
  return v;
}

/// ||out - ref|| / ||ref|| in float64.
double relL2(const std::vector<float> &out, const std::vector<double> &ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}

Kernel vectorAdd(Compiler &compiler) {
  auto k = compiler.compileFile(example("vector_add.py"), "add_kernel",
                                {{"BLOCK_SIZE", 1024}});
  INFO((k ? "" : k.error().message));
  REQUIRE(k);
  return std::move(*k);
}

const char *kOutOfBounds = R"(
import triton
import triton.language as tl

@triton.jit
def oob(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x + n)
)";
} // namespace

TEST_CASE("api: vector add matches a float64 reference", "[api]") {
  Compiler compiler;
  Kernel kernel = vectorAdd(compiler);
  CHECK(kernel.parameters() ==
        std::vector<std::string>{"x_ptr", "y_ptr", "output_ptr", "n_elements"});
  int n = 98432 + 7; // a ragged tail exercises the mask
  auto x = randn(n, 1), y = randn(n, 2);
  std::vector<float> out(n, -1.0f);
  LaunchOptions opts;
  opts.numWarps = 8;
  auto err = kernel.launch(Grid{(n + 1023) / 1024},
                           {buffer(x), buffer(y), buffer(out), scalar(n)}, opts);
  INFO((err ? err->message : ""));
  REQUIRE(!err);
  std::vector<double> ref(n);
  for (int i = 0; i < n; ++i)
    ref[i] = double(x[i]) + double(y[i]);
  CHECK(relL2(out, ref) < 1e-7);
}

TEST_CASE("api: softmax matches a float64 reference", "[api]") {
  Compiler compiler;
  auto kernel = compiler.compileFile(example("softmax.py"), "softmax_kernel",
                                     {{"BLOCK_SIZE", 512}, {"num_stages", 2}});
  REQUIRE(kernel);
  const int rows = 37, cols = 300;
  auto x = randn(size_t(rows) * cols, 3);
  std::vector<float> y(x.size());
  auto err = kernel->launch(Grid{8}, {buffer(y), buffer(x), scalar(cols), scalar(cols),
                                      scalar(rows), scalar(cols)});
  INFO((err ? err->message : ""));
  REQUIRE(!err);
  std::vector<double> ref(x.size());
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(x[r * cols + c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(x[r * cols + c]) - mx);
    for (int c = 0; c < cols; ++c)
      ref[r * cols + c] = std::exp(double(x[r * cols + c]) - mx) / sum;
  }
  CHECK(relL2(y, ref) < 1e-6);
}

TEST_CASE("api: specializations are compiled once and cached", "[api]") {
  Compiler compiler;
  Kernel kernel = vectorAdd(compiler);
  int n = 4096;
  std::vector<float> x(n, 1.0f), y(n, 2.0f), out(n);
  std::vector<Arg> args = {buffer(x), buffer(y), buffer(out), scalar(n)};
  auto sig = kernel.signature(args);
  REQUIRE(sig);
  // std::vector's storage is 16-byte aligned on every platform we build on.
  CHECK(*sig == "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  REQUIRE(!kernel.launch(Grid{4}, args));
  REQUIRE(!kernel.launch(Grid{4}, args));
  CHECK(kernel.numCompiles() == 1);
  CHECK(out[n - 1] == 3.0f);

  // n == 1 is folded into the kernel: a new specialization.
  std::vector<Arg> one = {buffer(x), buffer(y), buffer(out), scalar(1)};
  CHECK(*kernel.signature(one) == "*fp32:16,*fp32:16,*fp32:16,i32:1,1024");
  REQUIRE(!kernel.launch(Grid{1}, one));
  CHECK(kernel.numCompiles() == 2);

  // An odd length loses :16; a pointer 4 bytes in is no longer aligned.
  std::vector<Arg> odd = {buffer(x), buffer(y), buffer(out), scalar(n - 1)};
  CHECK(*kernel.signature(odd) == "*fp32:16,*fp32:16,*fp32:16,i32,1024");
  std::vector<Arg> unaligned = {buffer(x.data() + 1, (n - 1) * 4, DType::F32),
                                buffer(y), buffer(out), scalar(n - 1)};
  CHECK(*kernel.signature(unaligned) == "*fp32,*fp32:16,*fp32:16,i32,1024");
  REQUIRE(!kernel.launch(Grid{4}, unaligned));
  CHECK(kernel.numCompiles() == 3);
  CHECK(out[n - 2] == 3.0f);
  // Different launch options are a different key too.
  LaunchOptions eight;
  eight.numWarps = 8;
  REQUIRE(!kernel.launch(Grid{4}, args, eight));
  CHECK(kernel.numCompiles() == 4);
  REQUIRE(!kernel.launch(Grid{4}, args, eight));
  CHECK(kernel.numCompiles() == 4);
}

TEST_CASE("api: int64 and fp16 arguments specialize by value and dtype", "[api]") {
  Compiler compiler;
  Kernel kernel = vectorAdd(compiler);
  std::vector<uint16_t> h(64, toHalf(1.5f));
  std::vector<Half> h2(64, Half{toHalf(2.0f)});
  std::vector<uint16_t> o(64);
  auto sig = kernel.signature({buffer(h, DType::F16), buffer(h2), buffer(o, DType::F16),
                               scalar(int64_t(1) << 40)});
  REQUIRE(sig);
  CHECK(*sig == "*fp16:16,*fp16:16,*fp16:16,i64:16,1024");
  REQUIRE(!kernel.launch(Grid{1}, {buffer(h, DType::F16), buffer(h2),
                                   buffer(o, DType::F16), scalar(64)}));
  CHECK(fromHalf(o[63]) == 3.5f);
}

TEST_CASE("api: argument mistakes name the parameter", "[api]") {
  Compiler compiler;
  Kernel kernel = vectorAdd(compiler);
  std::vector<float> x(1024), y(1024), out(1024);

  auto err = kernel.launch(Grid{1}, {buffer(x), buffer(y), buffer(out)});
  REQUIRE(err);
  CHECK(err->message == "kernel 'add_kernel' takes 4 arguments (x_ptr, y_ptr, "
                        "output_ptr, n_elements), got 3; missing 'n_elements'");
  err = kernel.launch(Grid{1}, {buffer(x), buffer(y), buffer(out), scalar(1), scalar(2)});
  REQUIRE(err);
  CHECK(err->message.find("takes 4 arguments") != std::string::npos);

  // Before anything was compiled, the compiler finds the culprit.
  err = kernel.launch(Grid{1}, {buffer(x), scalar(3), buffer(out), scalar(1024)});
  REQUIRE(err);
  // It stays a compile error, and says so after the culprit.
  CHECK(err->message.rfind("argument 'y_ptr' expects a pointer (buffer), got a scalar\n", 0) ==
        0);
  CHECK(err->message.find("error:") != std::string::npos);
  // After a successful compile, another kind of argument is another
  // specialization: one that does not compile says which argument.
  REQUIRE(!kernel.launch(Grid{1}, {buffer(x), buffer(y), buffer(out), scalar(1024)}));
  err = kernel.launch(Grid{1}, {buffer(x), buffer(y), buffer(out), buffer(x)});
  REQUIRE(err);
  CHECK(err->message.rfind("argument 'n_elements' expects a scalar, got a pointer (buffer)\n",
                           0) == 0);
  err = kernel.launch(Grid{1}, {buffer(x.data(), 6, DType::F32), buffer(y), buffer(out),
                                scalar(1024)});
  REQUIRE(err);
  CHECK(err->message ==
        "argument 'x_ptr': 6 bytes is not a whole number of fp32 elements");
  err = kernel.launch(Grid{-1}, {buffer(x), buffer(y), buffer(out), scalar(1024)});
  REQUIRE(err);
  CHECK(err->message.find("negative") != std::string::npos);

  // Constexprs are checked when compiling.
  auto bad = compiler.compileFile(example("vector_add.py"), "add_kernel",
                                  {{"BLOCK", 1024}});
  REQUIRE(!bad);
  CHECK(bad.error().message.find("has no parameter 'BLOCK'") != std::string::npos);
  bad = compiler.compileFile(example("vector_add.py"), "add_kernel",
                             {{"n_elements", 3}, {"BLOCK_SIZE", 64}});
  REQUIRE(!bad);
  CHECK(bad.error().message.find("'n_elements' is not a tl.constexpr") !=
        std::string::npos);
  bad = compiler.compileFile(example("vector_add.py"), "add_kernel");
  REQUIRE(!bad);
  CHECK(bad.error().message ==
        "kernel 'add_kernel' needs a value for constexpr 'BLOCK_SIZE'");
  bad = compiler.compileFile(example("vector_add.py"), "nope");
  REQUIRE(!bad);
  CHECK(bad.error().message.find("no function named 'nope'") != std::string::npos);
  bad = compiler.compileFile("/nonexistent/k.py", "k");
  REQUIRE(!bad);
  CHECK(bad.error().message == "cannot open '/nonexistent/k.py'");
}

TEST_CASE("api: compile errors come back rendered at file:line:col", "[api]") {
  Compiler compiler;
  const char *src = "import triton.language as tl\n"
                    "@triton.jit\n"
                    "def k(x_ptr, BLOCK: tl.constexpr):\n"
                    "    x = tl.load(x_ptr + tl.arange(0, BLOCK))\n"
                    "    y = tl.exp(x)\n"
                    "    tl.store(x_ptr + tl.arange(0, BLOCK), y)\n";
  auto kernel = compiler.compileString(src, "k.py", "k", {{"BLOCK", 64}});
  REQUIRE(kernel);
  std::vector<Half> x(64);
  auto err = kernel->launch(Grid{1}, {buffer(x)});
  REQUIRE(err);
  CHECK(err->message.find("k.py:5:16: error: tl.exp expects float32 or float64, got "
                          "float16") == 0);
  CHECK(err->message.find("    y = tl.exp(x)\n               ^") != std::string::npos);
  CHECK(kernel->numCompiles() == 0);
  // fp32 compiles.
  std::vector<float> f(64, 0.0f);
  REQUIRE(!kernel->launch(Grid{1}, {buffer(f)}));
  CHECK(f[0] == 1.0f);

  auto syntax = compiler.compileString("@triton.jit\ndef k(x):\n    x = (1 +\n",
                                       "s.py", "k");
  REQUIRE(!syntax);
  CHECK(syntax.error().message.rfind("s.py:", 0) == 0);
  CHECK(syntax.error().message.find("error:") != std::string::npos);
}

TEST_CASE("api: an out-of-bounds access is returned as a value", "[api]") {
  Compiler compiler;
  auto kernel = compiler.compileString(kOutOfBounds, "oob.py", "oob", {{"BLOCK", 64}});
  REQUIRE(kernel);
  std::vector<float> small(16);
  auto err = kernel->launch(Grid{1}, {buffer(small), scalar(2)});
  REQUIRE(err);
  INFO(err->message);
  CHECK(err->message.find("oob.py:8") != std::string::npos);
  std::vector<float> big(64, 1.0f);
  LaunchOptions opts;
  opts.deterministic = true;
  opts.threads = 1;
  REQUIRE(!kernel->launch(Grid{1}, {buffer(big), scalar(2)}, opts));
  CHECK(big[63] == 3.0f);
}

namespace {
/// A fresh directory for the kernel cache, set as TRITIUM_CACHE_DIR while
/// it lives (the previous value restored after).
struct ScratchCache {
  std::string dir, saved;
  bool had = false;
  ScratchCache() {
    std::string tmpl = "/tmp/tritium-api-cache-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    dir = tmpl;
    if (const char *v = std::getenv("TRITIUM_CACHE_DIR")) {
      had = true;
      saved = v;
    }
    ::setenv("TRITIUM_CACHE_DIR", dir.c_str(), 1);
  }
  ~ScratchCache() {
    if (had)
      ::setenv("TRITIUM_CACHE_DIR", saved.c_str(), 1);
    else
      ::unsetenv("TRITIUM_CACHE_DIR");
    std::string cmd = "rm -rf '" + dir + "'";
    (void)std::system(cmd.c_str());
  }
};

struct MatmulConfig {
  int64_t bm, bn, bk;
  int warps, stages;
};
} // namespace

TEST_CASE("api: warmupAll compiles configs on several threads as one thread does",
          "[api]") {
  // Autotuning's case: one kernel, configs differing in constexprs and in
  // launch options, cross-compiled for sm_90 (no GPU needed); two configs
  // share a kernel, one job repeats another, one has a wrong argument.
  const std::vector<MatmulConfig> configs = {
      {128, 128, 64, 8, 3}, {64, 128, 32, 4, 4}, {128, 64, 32, 4, 3}, {64, 64, 64, 4, 2},
      {128, 128, 64, 4, 4}};
  const int64_t M = 512, N = 512, K = 512;
  std::vector<uint16_t> a(M * K), b(K * N), c(M * N);
  auto args = [&] {
    return std::vector<Arg>{buffer(a, DType::F16), buffer(b, DType::F16), buffer(c, DType::F16),
                            scalar(int32_t(M)),    scalar(int32_t(N)),    scalar(int32_t(K)),
                            scalar(int32_t(K)),    scalar(int32_t(1)),    scalar(int32_t(N)),
                            scalar(int32_t(1)),    scalar(int32_t(N)),    scalar(int32_t(1))};
  };
  auto compileAll = [&](Compiler &compiler, std::vector<Kernel> &kernels) {
    for (const MatmulConfig &cfg : configs) {
      auto k = compiler.compileFile(example("matmul.py"), "matmul_kernel",
                                    {{"BLOCK_SIZE_M", cfg.bm},
                                     {"BLOCK_SIZE_N", cfg.bn},
                                     {"BLOCK_SIZE_K", cfg.bk},
                                     {"GROUP_SIZE_M", 8},
                                     {"ACTIVATION", std::string("")}});
      INFO((k ? "" : k.error().message));
      REQUIRE(k);
      kernels.push_back(std::move(*k));
    }
  };
  auto optionsOf = [](const MatmulConfig &cfg) {
    LaunchOptions o;
    o.numWarps = cfg.warps;
    o.numStages = cfg.stages;
    return o;
  };

  // One at a time.
  std::vector<std::string> serial;
  {
    ScratchCache cache;
    Compiler compiler;
    std::vector<Kernel> kernels;
    compileAll(compiler, kernels);
    for (size_t i = 0; i < configs.size(); ++i) {
      auto sig = kernels[i].signature(args());
      REQUIRE(sig);
      auto err = kernels[i].compileSignature(*sig, optionsOf(configs[i]), 90);
      INFO((err ? err->message : ""));
      REQUIRE(!err);
      serial.push_back(kernels[i].lastCompiled()->stages.at("ptx"));
    }
    // Each cache entry records what its compile's stages took.
    size_t entries = 0;
    for (const auto &f : std::filesystem::recursive_directory_iterator(cache.dir)) {
      if (f.path().filename() != "metadata.json")
        continue;
      std::ifstream in(f.path());
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      INFO(text);
      for (const char *stage : {"gpu passes", "lowering", "llvm opt", "nvptx"})
        CHECK(text.find(std::string("\"seconds.") + stage + "\"") != std::string::npos);
      ++entries;
    }
    CHECK(entries == configs.size());
  }

  // All at once, on three threads.
  ScratchCache cache;
  Compiler compiler;
  std::vector<Kernel> kernels;
  compileAll(compiler, kernels);
  std::vector<WarmupJob> jobs;
  for (size_t i = 0; i < configs.size(); ++i)
    jobs.push_back({&kernels[i], args(), optionsOf(configs[i]), 90});
  // Config 0's kernel with config 4's options: a second specialization of
  // one kernel; and config 1 again.
  jobs.push_back({&kernels[0], args(), optionsOf(configs[4]), 90});
  jobs.push_back({&kernels[1], args(), optionsOf(configs[1]), 90});
  std::vector<Arg> tooFew = args();
  tooFew.pop_back();
  jobs.push_back({&kernels[2], tooFew, optionsOf(configs[2]), 90});

  auto results = warmupAll(jobs, 3);
  REQUIRE(results.size() == jobs.size());
  for (size_t i = 0; i + 1 < jobs.size(); ++i) {
    INFO("job " << i << ": " << (results[i] ? "" : results[i].error().message));
    REQUIRE(results[i]);
    CHECK(*results[i] == *jobs[i].kernel->signature(args()));
  }
  CHECK(*results[0] == "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,"
                       "i32:16,i32:1,i32:16,i32:1,128,128,64,8,''");
  REQUIRE(!results.back());
  CHECK(results.back().error().kind == Error::Argument);
  CHECK(results.back().error().message.find("takes 12 arguments") != std::string::npos);

  // Each kernel's latest specialization is its last job's, with the PTX the
  // one-thread compile made.
  CHECK(kernels[0].lastCompiled()->numWarps == configs[4].warps);
  CHECK(kernels[0].lastCompiled()->stages.at("ptx") == serial[4]);
  for (size_t i = 1; i < configs.size(); ++i) {
    INFO("config " << i);
    const CompiledInfo *info = kernels[i].lastCompiled();
    REQUIRE(info);
    CHECK(info->gpu);
    CHECK(info->stages.at("ptx") == serial[i]);
  }
  // Each specialization was compiled once; config 0's kernel has two.
  CHECK(kernels[0].numCompiles() == 2);
  CHECK(kernels[1].numCompiles() == 1);
}

TEST_CASE("api: the NaN/Inf sanitizer reports where a NaN began", "[api]") {
  // A log of 0 (-inf) that becomes NaN two lines later: the report names
  // the log, not the product that made the NaN.
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.log(x)
    z = y * 0.0
    tl.store(out_ptr + offs, z)
)";
  Compiler compiler;
  auto k = compiler.compileString(src, "planted.py", "k", {{"BLOCK", 16}});
  REQUIRE(k);
  std::vector<float> x(16, 2.0f), out(16);
  x[5] = 0.0f;
  std::vector<Arg> args = {buffer(x), buffer(out)};
  LaunchOptions o;
  o.sanitize = "nan";
  std::string reports;
  o.sanitizeOut = &reports;
  REQUIRE(!k->launch(Grid{2}, args, o));
  CHECK(std::isnan(out[5]));
  CHECK(reports == "NaN/Inf sanitizer: kernel k, program (0, 0, 0), planted.py:9: math.log "
                   "made -inf at lane 5 from finite operands: 0\n"
                   "NaN/Inf sanitizer: kernel k, program (1, 0, 0), planted.py:9: math.log "
                   "made -inf at lane 5 from finite operands: 0\n");
  // Off: nothing reported.
  reports.clear();
  o.sanitize.clear();
  REQUIRE(!k->launch(Grid{1}, args, o));
  CHECK(reports.empty());
  o.sanitize = "nan,races";
  auto err = k->launch(Grid{1}, args, o);
  REQUIRE(err);
  CHECK(err->kind == Error::Argument);
  CHECK(err->message == "sanitize: unknown sanitizer 'races' (the interpreter has: nan, uninit, race, overflow)");
}

TEST_CASE("api: the uninit sanitizer reports reads of buffers nothing wrote", "[api]") {
  // A histogram into an output the host never zeroed: each atomic_add
  // reads garbage. Programs run in order, so program 0 is the one that
  // reads each bin first; the later ones read what it wrote.
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def hist(x_ptr, bins_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x_ptr + offs)
    tl.atomic_add(bins_ptr + b, 1)

@triton.jit
def fill(bins_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_xchg(bins_ptr + offs, 0)
)";
  Compiler compiler;
  auto hist = compiler.compileString(src, "hist.py", "hist", {{"BLOCK", 8}});
  auto fill = compiler.compileString(src, "hist.py", "fill", {{"BLOCK", 4}});
  REQUIRE(hist);
  REQUIRE(fill);
  std::vector<int32_t> x = {0, 1, 2, 3, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3}, bins(4, 77);
  Arg binsArg = buffer(bins);
  binsArg.uninitialized = true;
  LaunchOptions o;
  o.sanitize = "uninit";
  o.deterministic = true;
  std::string reports;
  o.sanitizeOut = &reports;
  REQUIRE(!hist->launch(Grid{2}, {buffer(x), binsArg}, o));
  CHECK(reports == "uninitialized-read sanitizer: kernel hist, program (0, 0, 0), hist.py:9: "
                   "atomic lane 0 reads byte 0 of buffer 'bins_ptr' (16 bytes), which nothing "
                   "has written\n");
  // An exchange does not read what it replaces: no report, and what it
  // wrote counts as written within the launch.
  reports.clear();
  REQUIRE(!fill->launch(Grid{1}, {binsArg}, o));
  CHECK(reports.empty());
  // Without the flag (or the sanitizer) the same launch reports nothing.
  reports.clear();
  REQUIRE(!hist->launch(Grid{2}, {buffer(x), buffer(bins)}, o));
  o.sanitize.clear();
  REQUIRE(!hist->launch(Grid{2}, {buffer(x), binsArg}, o));
  CHECK(reports.empty());
}

//===- interp_bench.cpp - time the CPU interpreter on the examples --------===//
//
// Runs the example kernels through the C++ API (runtime/Tritium.h) at the
// sizes of /work/shared/ANCHORS.md, and prints for each the median launch
// time, its bandwidth or FLOP rate, the speedup over Triton's interpreter
// (TRITON_INTERPRET=1, measured on a 16-core host) and whether it meets the
// target for a 2-core development machine. A benchmark, not a test: it
// never asserts a time and exits 0 unless a kernel fails to run.
//
// Usage: tritium-bench [--repeat N] [--threads T] [--only NAME] [--sanitizers]
//
// --sanitizers adds, per kernel, the median launch time under each of the
// interpreter's sanitizers (nan, overflow, race; uninit costs nothing here,
// as no buffer is marked uninitialized) and its ratio to the plain launch.
//
//===----------------------------------------------------------------------===//
#include "runtime/Tritium.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#ifndef TRITIUM_SOURCE_DIR
#define TRITIUM_SOURCE_DIR "."
#endif

using namespace tritium;

namespace {
using Clock = std::chrono::steady_clock;

std::string example(const char *name) {
  return std::string(TRITIUM_SOURCE_DIR) + "/examples/" + name;
}

std::vector<float> randn(size_t n, unsigned seed, float scale = 1.0f) {
  std::mt19937 g(seed);
  std::normal_distribution<float> d(0.0f, scale);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(g);
  return v;
}

struct Case {
  const char *name, *size;
  double work;          // bytes moved or floating-point operations
  bool flops;           // work is FLOPs (else bytes)
  double tritonMs;      // ANCHORS.md, Triton interpreter; < 0: it fails
  double targetMs;      // 2-core target
  int repeat;           // timed launches
  std::function<std::optional<Error>()> setup; // compile; prepare buffers
  std::function<std::optional<Error>()> launch;
};

struct Options {
  int repeat = 0; // 0: each case's own
  int threads = 0;
  std::string only;
  bool sanitizers = false;
};

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc)
      o.repeat = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc)
      o.threads = std::atoi(argv[++i]);
    else if (a == "--only" && i + 1 < argc)
      o.only = argv[++i];
    else if (a == "--sanitizers")
      o.sanitizers = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--repeat N] [--threads T] [--only NAME] [--sanitizers]\n",
                   argv[0]);
      return 2;
    }
  }
  LaunchOptions lopts;
  lopts.threads = o.threads;
  std::string sanitizerReports; // kept out of the table
  lopts.sanitizeOut = &sanitizerReports;
  Compiler compiler;
  std::vector<Case> cases;

  // Vector add, fp32, 2^20 elements, BLOCK 1024.
  const int n = 1 << 20;
  std::vector<float> vx, vy, vout;
  std::optional<Kernel> add;
  cases.push_back({"vector add fp32", "2^20", 3.0 * 4 * n, false, 1055, 10, 20,
                   [&]() -> std::optional<Error> {
                     auto k = compiler.compileFile(example("vector_add.py"), "add_kernel",
                                                   {{"BLOCK_SIZE", 1024}});
                     if (!k)
                       return k.error();
                     add.emplace(std::move(*k));
                     vx = randn(n, 1), vy = randn(n, 2), vout.assign(n, 0);
                     return std::nullopt;
                   },
                   [&] {
                     return add->launch(Grid{n / 1024},
                                        {buffer(vx), buffer(vy), buffer(vout), scalar(n)},
                                        lopts);
                   }});

  // Softmax, fp32, 1024 x 1024: one row per program.
  const int rows = 1024, cols = 1024;
  std::vector<float> sx, sy;
  std::optional<Kernel> softmax;
  cases.push_back({"softmax fp32", "1024x1024", 2.0 * 4 * rows * cols, false, 1891, 20,
                   10,
                   [&]() -> std::optional<Error> {
                     auto k = compiler.compileFile(example("softmax.py"), "softmax_kernel",
                                                   {{"BLOCK_SIZE", 1024}, {"num_stages", 2}});
                     if (!k)
                       return k.error();
                     softmax.emplace(std::move(*k));
                     sx = randn(size_t(rows) * cols, 3), sy.assign(sx.size(), 0);
                     return std::nullopt;
                   },
                   [&] {
                     return softmax->launch(Grid{rows},
                                            {buffer(sy), buffer(sx), scalar(cols),
                                             scalar(cols), scalar(rows), scalar(cols)},
                                            lopts);
                   }});

  // Layer norm forward, fp32, 1024 x 1024.
  std::vector<float> lx, ly, lw, lb, lmean, lrstd;
  std::optional<Kernel> layerNorm;
  cases.push_back({"layer norm fwd fp32", "1024x1024", 2.0 * 4 * rows * cols, false, 3694,
                   20, 10,
                   [&]() -> std::optional<Error> {
                     auto k = compiler.compileFile(example("layer_norm.py"),
                                                   "_layer_norm_fwd_fused",
                                                   {{"BLOCK_SIZE", 1024}});
                     if (!k)
                       return k.error();
                     layerNorm.emplace(std::move(*k));
                     lx = randn(size_t(rows) * cols, 4), ly.assign(lx.size(), 0);
                     lw = randn(cols, 5), lb = randn(cols, 6);
                     lmean.assign(rows, 0), lrstd.assign(rows, 0);
                     return std::nullopt;
                   },
                   [&] {
                     return layerNorm->launch(
                         Grid{rows},
                         {buffer(lx), buffer(ly), buffer(lw), buffer(lb), buffer(lmean),
                          buffer(lrstd), scalar(cols), scalar(cols), scalar(1e-5)},
                         lopts);
                   }});

  // Matmul, fp32 inputs, 512^3, 64x64x32 tiles; the kernel stores fp16.
  const int mm = 512;
  std::vector<float> ma, mb;
  std::vector<uint16_t> mc;
  std::optional<Kernel> matmul;
  cases.push_back({"matmul fp32", "512^3", 2.0 * mm * mm * mm, true, 3687, 40, 10,
                   [&]() -> std::optional<Error> {
                     auto k = compiler.compileFile(
                         example("matmul.py"), "matmul_kernel",
                         {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 32},
                          {"GROUP_SIZE_M", 8}, {"ACTIVATION", ""}});
                     if (!k)
                       return k.error();
                     matmul.emplace(std::move(*k));
                     ma = randn(size_t(mm) * mm, 7), mb = randn(size_t(mm) * mm, 8);
                     mc.assign(size_t(mm) * mm, 0);
                     return std::nullopt;
                   },
                   [&] {
                     return matmul->launch(
                         Grid{(mm / 64) * (mm / 64)},
                         {buffer(ma), buffer(mb), buffer(mc, DType::F16), scalar(mm),
                          scalar(mm), scalar(mm), scalar(mm), scalar(1), scalar(mm),
                          scalar(1), scalar(mm), scalar(1)},
                         lopts);
                   }});

  // Attention forward, B1 H4 L512 D64, non-causal. Q and K are fp32; the
  // kernel casts p to fp16 for `p @ v`, so V is fp16, and it stores fp16.
  const int Z = 1, H = 4, L = 512, D = 64;
  std::vector<float> aq, ak;
  std::vector<uint16_t> av, ao;
  std::optional<Kernel> attention;
  cases.push_back({"attention fwd fp32", "B1 H4 L512 D64", 4.0 * Z * H * L * L * D, true,
                   -1, 100, 5,
                   [&]() -> std::optional<Error> {
                     auto k = compiler.compileFile(
                         example("attention.py"), "_attn_fwd",
                         {{"HEAD_DIM", D}, {"BLOCK_M", 128}, {"BLOCK_N", 64},
                          {"CAUSAL", false}});
                     if (!k)
                       return k.error();
                     attention.emplace(std::move(*k));
                     size_t total = size_t(Z) * H * L * D;
                     aq = randn(total, 9, 0.5f), ak = randn(total, 10, 0.5f);
                     std::vector<float> v = randn(total, 11, 0.5f);
                     av.resize(total), ao.assign(total, 0);
                     for (size_t i = 0; i < total; ++i)
                       av[i] = toHalf(v[i]);
                     return std::nullopt;
                   },
                   [&] {
                     std::vector<Arg> args = {buffer(aq), buffer(ak),
                                              buffer(av, DType::F16), scalar(0.125),
                                              buffer(ao, DType::F16)};
                     for (int t = 0; t < 4; ++t) // q, k, v, o strides
                       for (int s : {H * L * D, L * D, D, 1})
                         args.push_back(scalar(s));
                     for (int s : {Z, H, L})
                       args.push_back(scalar(s));
                     return attention->launch(Grid{L / 128, Z * H}, args, lopts);
                   }});

  unsigned hw = std::thread::hardware_concurrency();
  const char *wait = std::getenv("OMP_WAIT_POLICY");
  std::printf("tritium interpreter benchmark: %u hardware threads, %s threads, "
              "OMP_WAIT_POLICY=%s\n",
              hw, o.threads ? std::to_string(o.threads).c_str() : "OpenMP default",
              wait ? wait : "(unset)");
  std::printf("Triton figures: ANCHORS.md, Triton 3.6 interpreter on a 16-core host "
              "(not this machine); targets are for a 2-core machine.\n\n");
  std::printf("| %-20s | %-15s | %9s | %10s | %13s | %14s | %8s | %7s | %-6s |\n", "kernel",
              "size", "median ms", "compile ms", "rate", "Triton interp", "speedup",
              "target", "");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", std::string(22, '-').c_str(),
              std::string(17, '-').c_str(), std::string(11, '-').c_str(),
              std::string(12, '-').c_str(), std::string(15, '-').c_str(),
              std::string(16, '-').c_str(), std::string(10, '-').c_str(),
              std::string(9, '-').c_str(), std::string(8, '-').c_str());
  int failures = 0;
  for (Case &c : cases) {
    if (!o.only.empty() && std::string(c.name).find(o.only) == std::string::npos)
      continue;
    auto fail = [&](const Error &e) {
      std::printf("| %-20s | %-15s | FAILED: %s\n", c.name, c.size, e.message.c_str());
      ++failures;
    };
    if (auto e = c.setup()) {
      fail(*e);
      continue;
    }
    auto t0 = Clock::now();
    if (auto e = c.launch()) { // warm-up: compiles the specialization
      fail(*e);
      continue;
    }
    double firstMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::vector<double> times;
    int repeat = o.repeat > 0 ? o.repeat : c.repeat;
    bool ok = true;
    for (int r = 0; r < repeat && ok; ++r) {
      auto t = Clock::now();
      if (auto e = c.launch()) {
        fail(*e);
        ok = false;
      }
      times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
    }
    if (!ok)
      continue;
    double ms = medianOf(times);
    double rate = c.work / (ms * 1e-3) / 1e9;
    char rateText[32], triton[32], speedup[32];
    std::snprintf(rateText, sizeof(rateText), "%.2f %s", rate, c.flops ? "GFLOP/s" : "GB/s");
    if (c.tritonMs > 0) {
      std::snprintf(triton, sizeof(triton), "%.0f ms", c.tritonMs);
      std::snprintf(speedup, sizeof(speedup), "%.0fx", c.tritonMs / ms);
    } else {
      std::snprintf(triton, sizeof(triton), "fails");
      std::snprintf(speedup, sizeof(speedup), "n/a");
    }
    char target[16];
    std::snprintf(target, sizeof(target), "<= %.0f", c.targetMs);
    // The first launch includes compiling; subtract one run to estimate it.
    std::printf("| %-20s | %-15s | %9.2f | %10.1f | %13s | %14s | %8s | %7s | %-6s |\n",
                c.name, c.size, ms, std::max(0.0, firstMs - ms), rateText, triton, speedup,
                target, ms <= c.targetMs ? "meets" : "misses");
    if (o.sanitizers) {
      for (const char *san : {"nan", "overflow", "race"}) {
        lopts.sanitize = san;
        sanitizerReports.clear();
        std::vector<double> st;
        for (int r = 0; r < 3 && ok; ++r) {
          auto t = Clock::now();
          if (auto e = c.launch()) {
            fail(*e);
            ok = false;
          }
          st.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
        }
        lopts.sanitize.clear();
        if (!ok)
          break;
        double sms = medianOf(st);
        std::printf("|   %-18s | %-15s | %9.2f | %10s | %13s | %14s | %7.1fx | %7s | %-6s |\n",
                    (std::string("sanitize ") + san).c_str(), c.size, sms, "",
                    sanitizerReports.empty() ? "no reports" : "REPORTS", "", sms / ms, "",
                    "");
      }
    }
  }
  std::printf("\nmedian of N timed launches after one warm-up launch (which compiles); "
              "\"target\" is the 2-core goal in ms, reported, not asserted.\n");
  if (o.sanitizers)
    std::printf("sanitize rows: median of 3 launches under that sanitizer, and its ratio to "
                "the plain launch (race runs the programs on one thread).\n");
  return failures ? 1 : 0;
}

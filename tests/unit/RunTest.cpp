//===- RunTest.cpp - example kernels end to end on the interpreter --------===//
//
// Each example kernel runs through `tritium run`'s library form
// (compileAndLaunch: specialization, frontend, tile pipeline, interpreter)
// on generated inputs, and its outputs are compared with float64 references
// computed here, independently of tritium.
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunCommand.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace tritium;
using namespace tritium::run;

namespace {
std::string example(const std::string &name) {
  return std::string(TRITIUM_SOURCE_DIR) + "/examples/" + name;
}

HostValue arg(const std::string &name, const std::string &text, uint64_t seed = 0) {
  HostValue v;
  auto err = parseHostValue(name, text, seed, v);
  INFO(err.value_or(""));
  REQUIRE(!err);
  return v;
}

double at(const HostValue &v, size_t i) { return loadElement(v.array, *v.elem, i); }

/// Runs with the NaN/Inf and integer-overflow sanitizers and requires
/// success and a clean run (the examples never make a NaN or an infinity
/// from finite values, nor overflow a signed integer); returns the report.
LaunchReport launch(LaunchSpec spec, std::vector<HostValue> &args) {
  LaunchReport report;
  spec.sanitize = "nan,overflow";
  auto err = compileAndLaunch(spec, args, report);
  INFO(err.value_or(""));
  REQUIRE(!err);
  REQUIRE(report.launched);
  for (const std::string &r : report.sanitizerReports)
    FAIL_CHECK(r);
  return report;
}

/// Requires every element of `out` within atol + rtol*|ref| of `ref`.
void requireClose(const HostValue &out, const std::vector<double> &ref, double rtol,
                  double atol) {
  REQUIRE(out.array.numElements() == ref.size());
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    if (!(std::fabs(at(out, i) - ref[i]) <= atol + rtol * std::fabs(ref[i])) && bad++ == 0)
      first = i;
  INFO(out.name << ": " << bad << " bad elements, first at " << first << ": "
                << (ref.empty() ? 0 : at(out, first)) << " vs "
                << (ref.empty() ? 0 : ref[first]));
  CHECK(bad == 0);
}

HostValue &byName(std::vector<HostValue> &args, const std::string &n) {
  for (auto &a : args)
    if (a.name == n)
      return a;
  FAIL("no argument " << n);
  return args[0];
}
} // namespace

TEST_CASE("run: vector_add matches x + y", "[run][e2e]") {
  const int64_t n = 98304 + 37; // a masked tail block
  LaunchSpec spec;
  spec.file = example("vector_add.py");
  spec.kernel = "add_kernel";
  spec.grid = {(n + 1023) / 1024, 1, 1};
  spec.constexprs["BLOCK_SIZE"] = "1024";
  std::vector<HostValue> args = {arg("x_ptr", "randn:f32[98341]"),
                                 arg("y_ptr", "randn:f32[98341]"),
                                 arg("output_ptr", "empty:f32[98341]"),
                                 arg("n_elements", std::to_string(n))};
  LaunchReport r = launch(spec, args);
  CHECK(r.signature == "*fp32:16,*fp32:16,*fp32:16,i32,1024");
  std::vector<double> ref(n);
  for (int64_t i = 0; i < n; ++i)
    ref[i] = float(at(args[0], i) + at(args[1], i));
  requireClose(args[2], ref, 0, 0);
}

TEST_CASE("run: softmax matches a float64 softmax", "[run][e2e]") {
  const int rows = 37, cols = 781;
  LaunchSpec spec;
  spec.file = example("softmax.py");
  spec.kernel = "softmax_kernel";
  spec.grid = {8, 1, 1}; // persistent programs striding over rows
  spec.constexprs = {{"BLOCK_SIZE", "1024"}, {"num_stages", "2"}};
  std::string shape = "[" + std::to_string(rows) + "," + std::to_string(cols) + "]";
  std::vector<HostValue> args = {arg("output_ptr", "empty:f32" + shape),
                                 arg("input_ptr", "randn:f32" + shape),
                                 arg("input_row_stride", std::to_string(cols)),
                                 arg("output_row_stride", std::to_string(cols)),
                                 arg("n_rows", std::to_string(rows)),
                                 arg("n_cols", std::to_string(cols))};
  launch(spec, args);
  std::vector<double> ref(size_t(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, at(args[1], size_t(r) * cols + c));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(at(args[1], size_t(r) * cols + c) - mx);
    for (int c = 0; c < cols; ++c)
      ref[size_t(r) * cols + c] = std::exp(at(args[1], size_t(r) * cols + c) - mx) / sum;
  }
  requireClose(args[0], ref, 1e-5, 1e-7);
}

TEST_CASE("run: matmul (fp16 in, fp32 accumulate, leaky_relu) matches", "[run][e2e]") {
  const int M = 100, N = 72, K = 96;
  for (std::string act : {"''", "leaky_relu"}) {
    LaunchSpec spec;
    spec.file = example("matmul.py");
    spec.kernel = "matmul_kernel";
    spec.constexprs = {{"BLOCK_SIZE_M", "32"}, {"BLOCK_SIZE_N", "32"},
                       {"BLOCK_SIZE_K", "32"}, {"GROUP_SIZE_M", "8"},
                       {"ACTIVATION", act}};
    spec.grid = {((M + 31) / 32) * ((N + 31) / 32), 1, 1};
    std::vector<HostValue> args = {
        arg("a_ptr", "randn:f16[100,96]"), arg("b_ptr", "randn:f16[96,72]"),
        arg("c_ptr", "empty:f16[100,72]"), arg("M", "100"), arg("N", "72"), arg("K", "96"),
        arg("stride_am", "96"), arg("stride_ak", "1"), arg("stride_bk", "72"),
        arg("stride_bn", "1"), arg("stride_cm", "72"), arg("stride_cn", "1")};
    LaunchReport r = launch(spec, args);
    CHECK(r.signature.rfind("*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,", 0) ==
          0);
    std::vector<double> ref(size_t(M) * N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int k = 0; k < K; ++k)
          s += at(args[0], size_t(i) * K + k) * at(args[1], size_t(k) * N + j);
        ref[size_t(i) * N + j] = act == "leaky_relu" && s < 0 ? 0.01 * s : s;
      }
    requireClose(args[2], ref, 2e-3, 2e-3);
  }
}

TEST_CASE("run: layer_norm forward matches", "[run][e2e]") {
  const int rows = 9, n = 1000;
  LaunchSpec spec;
  spec.file = example("layer_norm.py");
  spec.kernel = "_layer_norm_fwd_fused";
  spec.grid = {rows, 1, 1};
  spec.constexprs["BLOCK_SIZE"] = "256"; // several column blocks per row
  std::vector<HostValue> args = {
      arg("X", "randn:f32[9,1000]"), arg("Y", "empty:f32[9,1000]"),
      arg("W", "randn:f32[1000]"),   arg("B", "randn:f32[1000]"),
      arg("Mean", "empty:f32[9]"),   arg("Rstd", "empty:f32[9]"),
      arg("stride", "1000"),         arg("N", "1000"),
      arg("eps", "1e-5")};
  launch(spec, args);
  std::vector<double> y(size_t(rows) * n), mean(rows), rstd(rows);
  for (int r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int c = 0; c < n; ++c)
      m += at(args[0], size_t(r) * n + c);
    m /= n;
    for (int c = 0; c < n; ++c)
      v += std::pow(at(args[0], size_t(r) * n + c) - m, 2);
    v /= n;
    mean[r] = m;
    rstd[r] = 1 / std::sqrt(v + 1e-5);
    for (int c = 0; c < n; ++c)
      y[size_t(r) * n + c] =
          (at(args[0], size_t(r) * n + c) - m) * rstd[r] * at(args[2], c) + at(args[3], c);
  }
  requireClose(byName(args, "Mean"), mean, 1e-5, 1e-6);
  requireClose(byName(args, "Rstd"), rstd, 1e-5, 1e-6);
  requireClose(byName(args, "Y"), y, 1e-4, 1e-5);
}

TEST_CASE("run: dropout keeps x/(1-p) at about 1-p of the elements", "[run][e2e]") {
  const int n = 100000;
  const double p = 0.3;
  LaunchSpec spec;
  spec.file = example("dropout.py");
  spec.kernel = "_seeded_dropout";
  spec.grid = {(n + 1023) / 1024, 1, 1};
  spec.constexprs["BLOCK_SIZE"] = "1024";
  std::vector<HostValue> args = {arg("x_ptr", "rand:f32[100000]"),
                                 arg("output_ptr", "empty:f32[100000]"),
                                 arg("n_elements", "100000"), arg("p", "0.3"),
                                 arg("seed", "123")};
  LaunchReport r = launch(spec, args);
  CHECK(r.signature == "*fp32:16,*fp32:16,i32:16,fp32,i32,1024");
  size_t kept = 0;
  for (int i = 0; i < n; ++i) {
    double x = at(args[0], i), o = at(args[1], i);
    if (o != 0) {
      ++kept;
      REQUIRE(std::fabs(o - x / (1 - float(p))) <= 1e-6 * std::fabs(o));
    }
  }
  CHECK(std::fabs(double(kept) / n - (1 - p)) < 0.01);
  // Same seed, same mask; another seed, another mask.
  std::vector<HostValue> again = args;
  launch(spec, again);
  CHECK(again[1].array.data == args[1].array.data);
  again[4] = arg("seed", "124");
  launch(spec, again);
  CHECK(again[1].array.data != args[1].array.data);
}

TEST_CASE("run: binding errors name the parameter", "[run]") {
  LaunchSpec spec;
  spec.file = example("vector_add.py");
  spec.kernel = "add_kernel";
  spec.dryRun = true;
  std::vector<HostValue> args = {arg("x_ptr", "zeros:f32[4]")};
  LaunchReport report;
  auto err = compileAndLaunch(spec, args, report);
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains("--arg y_ptr=VALUE") &&
                       Catch::Contains("--constexpr BLOCK_SIZE=VALUE"));
  spec.constexprs["BLOCK_SIZE"] = "4";
  args = {arg("x_ptr", "zeros:f32[4]"), arg("y_ptr", "zeros:f32[4]"),
          arg("output_ptr", "zeros:f32[4]"), arg("n_elements", "1"), arg("z", "2")};
  err = compileAndLaunch(spec, args, report);
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains("has no parameter 'z'"));
  args.pop_back();
  REQUIRE(!compileAndLaunch(spec, args, report));
  CHECK(report.signature == "*fp32:16,*fp32:16,*fp32:16,i32:1,4");
}

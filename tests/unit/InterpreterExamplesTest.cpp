//===- InterpreterExamplesTest.cpp - kernels end to end on the interpreter ===//
//
// Python kernels (the examples and small kernels written here) compiled by
// the frontend, optimized by the tile pipeline and run on the interpreter
// against references computed here in float64 or exact integer arithmetic:
// attention forward, layer norm backward (spin locks under contention),
// Philox known answers, tensor descriptors, map_elementwise, determinism.
//
//===----------------------------------------------------------------------===//
#include "InterpreterTestUtil.h"
#include "ir/transforms/Passes.h"

#include <Eigen/Core>
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace tritium::interp;
using namespace tritium::interp::test;

namespace {

LaunchOptions grid(int64_t x, int64_t y = 1, bool det = false) {
  LaunchOptions o;
  o.grid = {x, y, 1};
  o.deterministic = det;
  return o;
}

using half = Eigen::half;

// Philox4x32-10 (Random123), the reference for tl.randint4x.
std::array<uint32_t, 4> philox(uint32_t k0, uint32_t k1,
                               std::array<uint32_t, 4> c) {
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

const std::array<uint32_t, 4> kKat0 = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c,
                                       0x9b00dbd8};
const std::array<uint32_t, 4> kKat1 = {0x408f276d, 0x41c83b0e, 0xa20bc7c6,
                                       0x6d5451fd};

} // namespace

TEST_CASE("attention forward (causal and not) vs float64 softmax(QK^T)V",
          "[interp][e2e]") {
  const int Z = 1, H = 2, L = 128, D = 64;
  std::mt19937 rng(7);
  std::normal_distribution<float> nd;
  size_t n = size_t(Z) * H * L * D;
  std::vector<half> q(n), k(n), v(n);
  for (size_t i = 0; i < n; ++i) {
    q[i] = half(nd(rng));
    k[i] = half(nd(rng));
    v[i] = half(nd(rng));
  }
  double sm = 1.0 / std::sqrt(double(D));
  for (bool causal : {false, true}) {
    Compiled c = compileFile(
        "examples/attention.py", "_attn_fwd",
        std::string("*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,"
                    "i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,"
                    "i32:1,i32,i32,i32,64,64,32,") +
            (causal ? "True" : "False"));
    REQUIRE(c.error == "");
    std::vector<half> o(n), o2(n);
    auto args = [&](std::vector<half> &out) {
      std::vector<Arg> a = {buf(q, "q"), buf(k, "k"), buf(v, "v"),
                            Arg::floating(sm), buf(out, "o")};
      // The last stride of each tensor is specialized to 1 (folded away).
      for (int t = 0; t < 4; ++t)
        for (int64_t s : {int64_t(H) * L * D, int64_t(L) * D, int64_t(D)})
          a.push_back(Arg::integer(s));
      for (int64_t s : {Z, H, L})
        a.push_back(Arg::integer(s));
      return a;
    };
    auto err = c.kernel->launch(args(o), grid(L / 64, Z * H));
    INFO((err ? err->message : ""));
    REQUIRE(!err);
    // Again in program order, with the NaN/Inf sanitizer: the -inf of the
    // running maximum and of the causal mask never comes from finite values.
    LaunchOptions det = grid(L / 64, Z * H, true);
    std::vector<std::string> reports;
    det.sanitize = SanitizeNan;
    det.reports = &reports;
    REQUIRE(!c.kernel->launch(args(o2), det));
    CHECK(std::memcmp(o.data(), o2.data(), n * 2) == 0); // determinism
    INFO((reports.empty() ? "" : reports[0]));
    CHECK(reports.empty());
    double worst = 0;
    for (int h = 0; h < Z * H; ++h)
      for (int i = 0; i < L; ++i) {
        const size_t base = size_t(h) * L * D;
        std::vector<double> s(L);
        double mx = -1e300;
        int hi = causal ? i + 1 : L;
        for (int j = 0; j < hi; ++j) {
          double d = 0;
          for (int t = 0; t < D; ++t)
            d += double(float(q[base + i * D + t])) *
                 double(float(k[base + j * D + t]));
          s[j] = d * sm;
          mx = std::max(mx, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < hi; ++j)
          sum += (s[j] = std::exp(s[j] - mx));
        for (int t = 0; t < D; ++t) {
          double ref = 0;
          for (int j = 0; j < hi; ++j)
            ref += s[j] / sum * double(float(v[base + j * D + t]));
          worst = std::max(worst,
                           std::fabs(double(float(o[base + i * D + t])) - ref));
        }
      }
    INFO("causal " << causal);
    CHECK(worst < 2e-2); // p is rounded to fp16 before p @ v
  }
}

TEST_CASE("layer norm backward: spin-locked dW/dB groups, then dwdb",
          "[interp][e2e]") {
  Compiled dx = compileFile(
      "examples/layer_norm.py", "_layer_norm_bwd_dx_fused",
      "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,"
      "*fp32:16,*i32:16,i32,i32,8,256");
  REQUIRE(dx.error == "");
  Compiled dwdb = compileFile("examples/layer_norm.py", "_layer_norm_bwd_dwdb",
                              "*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,"
                              "8,64");
  REQUIRE(dwdb.error == "");
  const int M = 512, N = 200, G = 8;
  std::mt19937 rng(3);
  std::normal_distribution<float> nd;
  std::vector<half> x(M * N), dy(M * N), w(N), dX(M * N);
  std::vector<float> mean(M), rstd(M), dW(G * N, 0), dB(G * N, 0);
  std::vector<int32_t> lock(2 * G, 0);
  for (auto &e : x)
    e = half(nd(rng));
  for (auto &e : dy)
    e = half(nd(rng));
  for (auto &e : w)
    e = half(1 + 0.1f * nd(rng));
  for (int r = 0; r < M; ++r) {
    double s = 0, s2 = 0;
    for (int j = 0; j < N; ++j)
      s += float(x[r * N + j]);
    double mu = s / N;
    for (int j = 0; j < N; ++j)
      s2 += (float(x[r * N + j]) - mu) * (float(x[r * N + j]) - mu);
    mean[r] = float(mu);
    rstd[r] = float(1 / std::sqrt(s2 / N + 1e-5));
  }
  LaunchOptions par = grid(M);
  par.threads = 8; // more threads than cores: contention on G locks
  REQUIRE(!dx.kernel->launch(
      {buf(dX, "dx"), buf(dy, "dy"), buf(dW, "dw"), buf(dB, "db"),
       buf(x, "x"), buf(w, "w"), buf(mean, "mean"), buf(rstd, "rstd"),
       buf(lock, "lock"), Arg::integer(N), Arg::integer(N)},
      par));
  for (int g = 0; g < G; ++g) {
    CHECK(lock[g] == 0);     // every lock released
    CHECK(lock[G + g] == 1); // every group written
  }
  {
    // Again under the race sanitizer: each group's lock (acquired and
    // released by atomics with acq_rel semantics) orders the programs'
    // read-modify-writes of its dW/dB rows, so nothing is reported.
    std::vector<half> dX2(M * N);
    std::vector<float> dW2(G * N, 0), dB2(G * N, 0);
    std::vector<int32_t> lock2(2 * G, 0);
    LaunchOptions o = grid(M);
    std::vector<std::string> reports;
    o.sanitize = SanitizeRace;
    o.reports = &reports;
    auto args = [&](std::vector<int32_t> &l) {
      return std::vector<Arg>{buf(dX2, "dx"), buf(dy, "dy"),     buf(dW2, "dw"),
                              buf(dB2, "db"), buf(x, "x"),       buf(w, "w"),
                              buf(mean, "mean"), buf(rstd, "rstd"), buf(l, "lock"),
                              Arg::integer(N), Arg::integer(N)};
    };
    REQUIRE(!dx.kernel->launch(args(lock2), o));
    INFO((reports.empty() ? "" : reports[0]));
    CHECK(reports.empty());
    for (int g = 0; g < G; ++g)
      CHECK(lock2[g] == 0);
  }
  std::vector<half> fdw(N), fdb(N);
  REQUIRE(!dwdb.kernel->launch({buf(dW, "dw"), buf(dB, "db"), buf(fdw, "fdw"),
                                buf(fdb, "fdb"), Arg::integer(G),
                                Arg::integer(N)},
                               grid((N + 63) / 64)));
  double worstDx = 0, worstDw = 0, worstDb = 0;
  std::vector<double> rdw(N, 0), rdb(N, 0), adw(N, 0), adb(N, 0);
  for (int r = 0; r < M; ++r) {
    std::vector<double> xh(N), wdy(N);
    double c1 = 0, c2 = 0;
    for (int j = 0; j < N; ++j) {
      xh[j] = (float(x[r * N + j]) - double(mean[r])) * rstd[r];
      wdy[j] = double(float(w[j])) * float(dy[r * N + j]);
      c1 += xh[j] * wdy[j];
      c2 += wdy[j];
    }
    c1 /= N;
    c2 /= N;
    for (int j = 0; j < N; ++j) {
      double ref = (wdy[j] - (xh[j] * c1 + c2)) * rstd[r];
      worstDx = std::max(worstDx, std::fabs(float(dX[r * N + j]) - ref) /
                                      (1 + std::fabs(ref)));
      double g = float(dy[r * N + j]);
      rdw[j] += g * xh[j];
      rdb[j] += g;
      adw[j] += std::fabs(g * xh[j]);
      adb[j] += std::fabs(g);
    }
  }
  for (int j = 0; j < N; ++j) {
    worstDw = std::max(worstDw, std::fabs(float(fdw[j]) - rdw[j]) / adw[j]);
    worstDb = std::max(worstDb, std::fabs(float(fdb[j]) - rdb[j]) / adb[j]);
  }
  CHECK(worstDx < 5e-3);
  CHECK(worstDw < 5e-3);
  CHECK(worstDb < 5e-3);
}

TEST_CASE("Philox4x32-10 known answers and tl.rand on the interpreter",
          "[interp][e2e]") {
  // The reference itself first.
  CHECK(philox(0, 0, {0, 0, 0, 0}) == kKat0);
  CHECK(philox(~0u, ~0u, {~0u, ~0u, ~0u, ~0u}) == kKat1);
  // Scalar tl.philox / philox_impl / randint (tests/frontend/random.py).
  Compiled kat = compileFile("tests/frontend/random.py", "kat32", "*u32");
  REQUIRE(kat.error == "");
  std::vector<uint32_t> out(13, 0);
  REQUIRE(!kat.kernel->launch({buf(out, "out")}, grid(1)));
  for (int i = 0; i < 4; ++i) {
    CHECK(out[i] == kKat0[i]);
    CHECK(out[4 + i] == kKat1[i]);
  }
  CHECK(out[8] == 0xd16cfe09u);
  CHECK(out[11] == 0x24126ea1u);
  CHECK(out[12] == philox(7, 0, {3, 1, 0, 0})[0]);

  // Tensor forms: randint4x(0, 0) is key (0, 0), counter (0, 0, 0, 0);
  // philox(-1, ~0, ~0, ~0, ~0) is the all-ones vector; tl.rand bit for bit.
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def rng(out, u, seed, big, N: tl.constexpr):
    offs = tl.arange(0, N)
    a, b, c, d = tl.randint4x(seed, offs * 0)
    tl.store(out + offs * 8 + 0, a)
    tl.store(out + offs * 8 + 1, b)
    tl.store(out + offs * 8 + 2, c)
    tl.store(out + offs * 8 + 3, d)
    m = tl.full((N,), 0xffffffff, tl.uint32)
    e, f, g, h = tl.philox(big, m, m, m, m)
    tl.store(out + offs * 8 + 4, e)
    tl.store(out + offs * 8 + 5, f)
    tl.store(out + offs * 8 + 6, g)
    tl.store(out + offs * 8 + 7, h)
    pid = tl.program_id(0)
    tl.store(u + pid * N + offs, tl.rand(seed + 1234, pid * N + offs))
)";
  Compiled r = compileSource("rng.py", src, "rng", "*u32,*fp32,i32,i64,256");
  REQUIRE(r.error == "");
  std::vector<uint32_t> o(256 * 8);
  std::vector<float> u(4 * 256, -1);
  REQUIRE(!r.kernel->launch({buf(o, "out"), buf(u, "u"), Arg::integer(0),
                             Arg::integer(-1)},
                            grid(4)));
  int bad = 0;
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 4; ++j)
      bad += o[i * 8 + j] != kKat0[j] || o[i * 8 + 4 + j] != kKat1[j];
  CHECK(bad == 0);
  double sum = 0;
  for (int i = 0; i < 1024; ++i) {
    int32_t x = int32_t(philox(1234, 0, {uint32_t(i), 0, 0, 0})[0]);
    if (x < 0)
      x = -x - 1;
    float ref = float(x) * 4.6566127342e-10f;
    bad += u[i] != ref || !(u[i] >= 0.0f && u[i] < 1.0f);
    sum += u[i];
  }
  CHECK(bad == 0);
  CHECK(std::fabs(sum / 1024 - 0.5) < 0.05);
}

TEST_CASE("tensor descriptors: ragged edges, padding, reduce, gather",
          "[interp][e2e]") {
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def dcopy(src, dst, raw, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(src, [M, N], [stride, 1], [BM, BN], padding_option="nan")
    o = tl.make_tensor_descriptor(dst, [M, N], [stride, 1], [BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = d.load([pm * BM, pn * BN])
    o.store([pm * BM, pn * BN], t + 1)
    o.atomic_add([pm * BM, pn * BN], t)
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    tl.store(raw + rows[:, None] * (tl.num_programs(1) * BN) + cols[None, :], t)

@triton.jit
def drows(X, IDX, O):
    d = tl.make_tensor_descriptor(X, [20, 16], [16, 1], [1, 16])
    rows = tl.load(IDX + tl.arange(0, 8))
    g = d.gather(rows, 0)
    d.scatter(g * 2.0, rows, 0)
    tl.store(O + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :], g)
)";
  Compiled c = compileSource("desc.py", src, "dcopy",
                             "*fp32,*fp32,*fp32,i32,i32,i32,16,16");
  REQUIRE(c.error == "");
  const int M = 37, N = 45, S = 48, GM = 3, GN = 3;
  std::vector<float> in(M * S), out(M * S, -7.0f), raw(GM * 16 * GN * 16);
  for (int i = 0; i < M * S; ++i)
    in[i] = float(i);
  std::vector<Arg> args = {buf(in, "src"), buf(out, "dst"), buf(raw, "raw"),
                           Arg::integer(M), Arg::integer(N), Arg::integer(S)};
  REQUIRE(!c.kernel->launch(args, grid(GM, GN)));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < S; ++j)
      bad += out[i * S + j] != (j < N ? 2 * in[i * S + j] + 1 : -7.0f);
  for (int i = 0; i < GM * 16; ++i)
    for (int j = 0; j < GN * 16; ++j) {
      float r = raw[i * GN * 16 + j];
      bad += (i < M && j < N) ? r != in[i * S + j] : !std::isnan(r);
    }
  CHECK(bad == 0);

  // The descriptor claims more rows than the buffer holds: the first
  // in-bounds lane past the buffer is reported by its coordinates.
  std::vector<float> small(10 * S);
  args[0] = buf(small, "src");
  auto err = c.kernel->launch(args, grid(GM, GN));
  REQUIRE(err);
  CHECK(err->message.find("out-of-bounds descriptor load in kernel dcopy, "
                          "program (0, 0, 0), desc.py:11: lane (10, 0) reads "
                          "address ") == 0);
  CHECK(err->message.find("0 bytes past the end of buffer 'src' (1920 "
                          "bytes)") != std::string::npos);

  Compiled g = compileSource("desc.py", src, "drows", "*fp32,*i32,*fp32");
  REQUIRE(g.error == "");
  std::vector<float> x(20 * 16), o(8 * 16), x0;
  for (int i = 0; i < 20 * 16; ++i)
    x[i] = float(i);
  x0 = x;
  std::vector<int32_t> idx = {3, 19, -1, 20, 0, 7, 12, 5};
  REQUIRE(!g.kernel->launch({buf(x, "x"), buf(idx, "idx"), buf(o, "o")},
                            grid(1)));
  for (int r = 0; r < 8; ++r)
    for (int j = 0; j < 16; ++j) {
      bool in = idx[r] >= 0 && idx[r] < 20;
      bad += o[r * 16 + j] != (in ? x0[idx[r] * 16 + j] : 0.0f);
    }
  for (int i = 0; i < 20; ++i) {
    bool hit = std::find(idx.begin(), idx.end(), i) != idx.end();
    for (int j = 0; j < 16; ++j)
      bad += x[i * 16 + j] != (hit ? 2 : 1) * x0[i * 16 + j];
  }
  CHECK(bad == 0);
}

TEST_CASE("map_elementwise with a branchy scalar function, pack 1 and 2",
          "[interp][e2e]") {
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def branchy(x, flag):
    if flag > 0:
        r = tl.maximum(x, 0.0) * 2.0
    elif flag < 0:
        r = -x
    else:
        r = x + 100.0
    return r

@triton.jit
def swap2(a, b, f, g):
    return b, a

@triton.jit
def mapped(X, F, O, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.map_elementwise(branchy, tl.load(X + offs), tl.load(F + offs))
    tl.store(O + offs, y)
    z = tl.map_elementwise(swap2, tl.load(X + offs), tl.load(F + offs).to(tl.float32), pack=2)
    tl.store(O + N + offs, z)
)";
  Compiled c = compileSource("map.py", src, "mapped", "*fp32,*i32,*fp32,64");
  REQUIRE(c.error == "");
  std::vector<float> x(64), o(128);
  std::vector<int32_t> f(64);
  for (int i = 0; i < 64; ++i) {
    x[i] = float(i % 7) - 3.5f;
    f[i] = i % 3 - 1;
  }
  REQUIRE(!c.kernel->launch({buf(x, "x"), buf(f, "f"), buf(o, "o")}, grid(1)));
  int bad = 0;
  for (int i = 0; i < 64; ++i) {
    float ref = f[i] > 0 ? std::max(x[i], 0.0f) * 2 : f[i] < 0 ? -x[i] : x[i] + 100;
    bad += o[i] != ref;
    // pack 2: lanes (2k, 2k+1) of x and f go in as (x0, x1, f0, f1) and
    // come back as (x1, x0).
    int k = i & ~1;
    bad += o[64 + i] != (i & 1 ? x[k] : x[k + 1]);
  }
  CHECK(bad == 0);
}

TEST_CASE("dot_scaled: e2m1 x e4m3 with e8m0 scales, fp32 accumulate; the "
          "GPU decomposition (upcast to bf16 + dot) computes the same",
          "[interp][e2e]") {
  bool decompose = GENERATE(false, true);
  const char *ir = R"(
func.func @ds(%a: !tile.ptr<i8>, %sa: !tile.ptr<i8>, %b: !tile.ptr<i8>, %sb: !tile.ptr<i8>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %ra = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %qa = tile.splat %a : tensor<512x!tile.ptr<i8>>
  %pa = tile.addptr %qa, %ra : tensor<512x!tile.ptr<i8>>, tensor<512xi32>
  %la = tile.load %pa : tensor<512x!tile.ptr<i8>>
  %ta = tile.reshape %la : tensor<512xi8> -> tensor<16x32xi8>
  %rsa = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %qsa = tile.splat %sa : tensor<32x!tile.ptr<i8>>
  %psa = tile.addptr %qsa, %rsa : tensor<32x!tile.ptr<i8>>, tensor<32xi32>
  %lsa = tile.load %psa : tensor<32x!tile.ptr<i8>>
  %tsa = tile.reshape %lsa : tensor<32xi8> -> tensor<16x2xi8>
  %rb = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %qb = tile.splat %b : tensor<1024x!tile.ptr<i8>>
  %pb = tile.addptr %qb, %rb : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
  %lb = tile.load %pb : tensor<1024x!tile.ptr<i8>>
  %tb = tile.reshape %lb : tensor<1024xi8> -> tensor<64x16xi8>
  %rsb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %qsb = tile.splat %sb : tensor<32x!tile.ptr<i8>>
  %psb = tile.addptr %qsb, %rsb : tensor<32x!tile.ptr<i8>>, tensor<32xi32>
  %lsb = tile.load %psb : tensor<32x!tile.ptr<i8>>
  %tsb = tile.reshape %lsb : tensor<32xi8> -> tensor<16x2xi8>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot_scaled %ta scale %tsa, %tb scale %tsb, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x16xi8>, tensor<16x2xi8> -> tensor<16x16xf32>
  %ro = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %so = tile.splat %o : tensor<256x!tile.ptr<f32>>
  %po = tile.addptr %so, %ro : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %dd = tile.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
  tile.store %po, %dd : tensor<256x!tile.ptr<f32>>
  return
}
)";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(ir, &context());
  REQUIRE(module);
  if (decompose) {
    REQUIRE(mlir::succeeded(mlir::tile::decomposeDotScaled(*module)));
    bool left = false;
    module->walk([&](mlir::tile::DotScaledOp) { left = true; });
    REQUIRE(!left);
  }
  auto created = Kernel::create(*module, "ds");
  if (auto *e = std::get_if<RunError>(&created))
    FAIL(e->message);
  Compiled c;
  c.kernel = std::move(std::get<std::unique_ptr<Kernel>>(created));
  std::mt19937 rng(5);
  std::vector<uint8_t> a(16 * 32), sa(16 * 2), b(64 * 16), sb(16 * 2);
  for (auto &v : a)
    v = uint8_t(rng());
  for (auto &v : b)
    v = uint8_t(rng() & 0xf7); // exponent field < 15: no NaN
  for (auto &v : sa)
    v = uint8_t(120 + rng() % 14);
  for (auto &v : sb)
    v = uint8_t(120 + rng() % 14);
  std::vector<float> o(256);
  REQUIRE(!c.kernel->launch(
      {buf(a, "a"), buf(sa, "sa"), buf(b, "b"), buf(sb, "sb"), buf(o, "o")},
      grid(1)));
  auto fp4 = [](int v) {
    static const double mag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    return v & 8 ? -mag[v & 7] : mag[v & 7];
  };
  auto e4m3 = [](int v) {
    int e = (v >> 3) & 15, m = v & 7;
    double x = e ? std::ldexp(1 + m / 8.0, e - 7) : std::ldexp(m / 8.0, -6);
    return v & 0x80 ? -x : x;
  };
  double worst = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double ref = 0;
      for (int kk = 0; kk < 64; ++kk) {
        int byte = a[i * 32 + kk / 2];
        double x = fp4(kk & 1 ? byte >> 4 : byte & 15) *
                   std::ldexp(1.0, sa[i * 2 + kk / 32] - 127);
        double y = e4m3(b[kk * 16 + j]) *
                   std::ldexp(1.0, sb[j * 2 + kk / 32] - 127);
        ref += x * y;
      }
      worst = std::max(worst, std::fabs(o[i * 16 + j] - ref) /
                                  (1e-30 + std::fabs(ref) + 1e-6));
    }
  CHECK(worst < 1e-5);
}

TEST_CASE("dot_scaled: every format pair gives the same product directly and "
          "through the GPU decomposition",
          "[interp][e2e]") {
  const char *src = R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, sa_ptr, b_ptr, sb_ptr, out_ptr, FA: tl.constexpr, FB: tl.constexpr):
    KA: tl.constexpr = 32 if FA == "e2m1" else 64
    KB: tl.constexpr = 32 if FB == "e2m1" else 64
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * KA + tl.arange(0, KA)[None, :])
    b = tl.load(b_ptr + tl.arange(0, KB)[:, None] * 32 + tl.arange(0, 32)[None, :])
    sa = None
    if FA != "bf16" and FA != "fp16":
        sa = tl.load(sa_ptr + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    sb = None
    if FB != "bf16" and FB != "fp16":
        sb = tl.load(sb_ptr + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, FA, b, sb, FB)
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)
)";
  const char *formats[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};
  for (const char *fa : formats)
    for (const char *fb : formats) {
      auto wide = [](std::string f) { return f == "bf16" || f == "fp16"; };
      if (wide(fa) && wide(fb))
        continue;
      INFO(fa << " x " << fb);
      auto ptr = [&](std::string f) {
        return f == "bf16" ? "*bf16" : f == "fp16" ? "*fp16" : "*u8";
      };
      std::string sig = std::string(ptr(fa)) + ",*u8," + ptr(fb) + ",*u8,*fp32,'" + fa +
                        "','" + fb + "'";
      std::mt19937 rng(11);
      // Finite inputs: the top exponent bit cleared (fp8: bit 6; 16-bit:
      // bit 14) leaves no NaN or Inf encodings.
      auto operand = [&](std::string f) {
        std::vector<uint8_t> v(wide(f) ? 32 * 64 * 2 : f == "e2m1" ? 32 * 32 : 32 * 64);
        for (size_t i = 0; i < v.size(); ++i) {
          v[i] = uint8_t(rng());
          if (!wide(f) && f != "e2m1")
            v[i] &= 0xBF;
          if (wide(f) && (i & 1))
            v[i] &= 0xBF;
        }
        return v;
      };
      std::vector<uint8_t> a = operand(fa), b = operand(fb), sa(64), sb(64);
      for (auto *s : {&sa, &sb})
        for (auto &x : *s)
          x = uint8_t(122 + rng() % 10);
      std::vector<float> direct(32 * 32), split(32 * 32);
      for (bool decompose : {false, true}) {
        Compiled c = compileSource("ds.py", src, "k", sig);
        if (decompose) {
          REQUIRE(mlir::succeeded(mlir::tile::decomposeDotScaled(*c.module)));
          c = prepare(std::move(c.module), "k");
        }
        REQUIRE(c.error == "");
        std::vector<float> &o = decompose ? split : direct;
        REQUIRE(!c.kernel->launch(
            {buf(a, "a"), buf(sa, "sa"), buf(b, "b"), buf(sb, "sb"), buf(o, "o")}, grid(1)));
      }
      float big = 0;
      for (float x : direct)
        big = std::max(big, std::fabs(x));
      int bad = 0;
      for (int i = 0; i < 32 * 32; ++i)
        bad += !(std::fabs(direct[i] - split[i]) <= 1e-5f * big);
      CHECK(big > 0);
      CHECK(bad == 0);
    }
}

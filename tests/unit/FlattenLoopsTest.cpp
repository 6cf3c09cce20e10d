//===- FlattenLoopsTest.cpp - tile-flatten-loops keeps what kernels compute ===//
//
// Kernels with `tl.range(..., flatten=True)` nests run on the interpreter
// before and after the tile-flatten-loops pass: every output buffer must
// come out bit for bit the same (the pass reorders no arithmetic). Also
// which nests are flattened and which keep their form.
//
//===----------------------------------------------------------------------===//
#include "InterpreterTestUtil.h"
#include "ir/transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

#include <Eigen/Core>

#include <catch2/catch.hpp>

#include <cstring>
#include <random>

using namespace tritium::interp;
using namespace tritium::interp::test;

namespace {

const char *kSource = R"PY(
import triton
import triton.language as tl


@triton.jit
def _pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def persistent_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BM + tl.arange(0, BM)
        offs_bn = pid_n * BN + tl.arange(0, BN)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BK + tl.arange(0, BK)
            a = tl.load(a_ptr + offs_am[:, None] * K + offs_k[None, :],
                        mask=offs_k[None, :] < K, other=0.0)
            b = tl.load(b_ptr + offs_k[:, None] * N + offs_bn[None, :],
                        mask=offs_k[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BM + tl.arange(0, BM)
        offs_cn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc,
                 mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def counted(ub, out_ptr):
    k = 1
    for i in tl.range(0, ub, flatten=True):
        for j in tl.range(0, ub):
            tl.store(out_ptr + i * 32 + j, k)
            k += 1


@triton.jit
def scaled_rows(x_ptr, scale_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    # The prologue loads (it runs once per row); the inner loop reads the
    # loaded value in every iteration and the epilogue stores a sum.
    for r in tl.range(tl.program_id(0), rows, tl.num_programs(0), flatten=True):
        s = tl.load(scale_ptr + r)
        total = tl.zeros((BLOCK,), dtype=tl.float32)
        for c in range(0, cols, BLOCK):
            offs = c + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + r * cols + offs, mask=offs < cols, other=0.0)
            total += x * s
        tl.store(out_ptr + r, tl.sum(total) + s)


@triton.jit
def dependent(ub, out_ptr):
    k = 0
    for i in tl.range(0, ub, flatten=True):
        for j in tl.range(i * 2, i * 3 + 1):
            tl.store(out_ptr + k, i * 100 + j)
            k += 1
)PY";

mlir::OwningOpRef<mlir::ModuleOp> build(const std::string &kernel, const std::string &sig) {
  auto parsed = tritium::fe::parseSource("flatten.py", kSource);
  REQUIRE(parsed.module);
  std::vector<tritium::fe::ParamSpec> specs;
  REQUIRE(!tritium::fe::parseSignature(sig, specs));
  auto r = tritium::fe::compileKernel(context(), *parsed.module, kernel, specs);
  REQUIRE(r.ok());
  REQUIRE(!tritium::fe::optimizeTileModule(*r.module));
  return std::move(r.module);
}

/// Loops directly in the kernel's body (outside any loop).
int topLevelLoops(mlir::ModuleOp m) {
  int n = 0;
  m.walk([&](mlir::scf::ForOp f) {
    if (!f->getParentOfType<mlir::scf::ForOp>())
      ++n;
  });
  return n;
}

int nestedLoops(mlir::ModuleOp m) {
  int n = 0;
  m.walk([&](mlir::scf::ForOp f) {
    if (f->getParentOfType<mlir::scf::ForOp>())
      ++n;
  });
  return n;
}

/// Runs `kernel` as compiled and flattened with the same inputs; returns
/// the flattened module's loop counts through `flat`.
template <class Setup>
void sameResults(const std::string &kernel, const std::string &sig, LaunchOptions opts,
                 Setup setup, mlir::OwningOpRef<mlir::ModuleOp> *flat = nullptr) {
  mlir::OwningOpRef<mlir::ModuleOp> plain = build(kernel, sig);
  mlir::OwningOpRef<mlir::ModuleOp> fused = plain->clone();
  mlir::tile::flattenLoops(*fused);
  REQUIRE(mlir::succeeded(mlir::verify(*fused)));
  if (flat)
    *flat = fused->clone();
  std::vector<std::vector<unsigned char>> outA, outB;
  for (auto *out : {&outA, &outB}) {
    Compiled c = prepare(out == &outA ? std::move(plain) : std::move(fused), kernel);
    REQUIRE(c.error == "");
    std::vector<Arg> args;
    setup(args, *out);
    auto err = c.kernel->launch(args, opts);
    INFO((err ? err->message : std::string()));
    REQUIRE(!err);
  }
  REQUIRE(outA.size() == outB.size());
  for (size_t i = 0; i < outA.size(); ++i)
    CHECK(outA[i] == outB[i]);
}

LaunchOptions grid(int64_t x) {
  LaunchOptions o;
  o.grid = {x, 1, 1};
  return o;
}

} // namespace

TEST_CASE("flattened persistent matmul computes what the nest does", "[flatten]") {
  const int M = 40, N = 72, BM = 16, BN = 32, BK = 16, SMS = 3;
  for (int K : {70, 16, 0}) {
    INFO("K = " << K);
    std::mt19937 rng(K);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<Eigen::half> a(size_t(M) * std::max(K, 1)), b(size_t(std::max(K, 1)) * N);
    for (auto &x : a)
      x = Eigen::half(u(rng));
    for (auto &x : b)
      x = Eigen::half(u(rng));
    std::string sig = "*fp16,*fp16,*fp32,i32,i32,i32," + std::to_string(BM) + "," +
                      std::to_string(BN) + "," + std::to_string(BK) + ",2," +
                      std::to_string(SMS);
    mlir::OwningOpRef<mlir::ModuleOp> flat;
    sameResults(
        "persistent_matmul", sig, grid(SMS),
        [&](std::vector<Arg> &args, std::vector<std::vector<unsigned char>> &out) {
          out.assign(1, std::vector<unsigned char>(size_t(M) * N * 4, 0xCD));
          args = {buf(a, "a"), buf(b, "b"), Arg::buffer(out[0].data(), out[0].size(), "c"),
                  Arg::integer(M), Arg::integer(N), Arg::integer(K)};
        },
        &flat);
    // One loop over every (tile, k) pair, and the outer loop alone for an
    // empty k range; no loop inside another.
    CHECK(topLevelLoops(*flat) == 2);
    CHECK(nestedLoops(*flat) == 0);
  }
}

TEST_CASE("flattened nests keep values carried through both loops", "[flatten]") {
  for (int ub : {10, 1, 0}) {
    INFO("ub = " << ub);
    sameResults("counted", "i32,*i32", grid(1),
                [&](std::vector<Arg> &args, std::vector<std::vector<unsigned char>> &out) {
                  out.assign(1, std::vector<unsigned char>(32 * 32 * 4, 0));
                  args = {Arg::integer(ub), Arg::buffer(out[0].data(), out[0].size(), "out")};
                });
  }
}

TEST_CASE("a prologue with loads runs once per outer iteration", "[flatten]") {
  const int rows = 7, cols = 100;
  std::vector<float> x(size_t(rows) * cols), scale(rows);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 13) * 0.25f;
  for (int r = 0; r < rows; ++r)
    scale[r] = float(r + 1);
  for (int colsNow : {cols, 0}) {
    INFO("cols = " << colsNow);
    mlir::OwningOpRef<mlir::ModuleOp> flat;
    sameResults(
        "scaled_rows", "*fp32,*fp32,*fp32,i32,i32,32", grid(3),
        [&](std::vector<Arg> &args, std::vector<std::vector<unsigned char>> &out) {
          out.assign(1, std::vector<unsigned char>(rows * 4, 0));
          args = {buf(x, "x"), buf(scale, "scale"),
                  Arg::buffer(out[0].data(), out[0].size(), "out"), Arg::integer(rows),
                  Arg::integer(colsNow)};
        },
        &flat);
    CHECK(nestedLoops(*flat) == 0);
    // The load of the scale sits under an scf.if in the fused loop.
    bool loadUnderIf = false;
    flat->walk([&](mlir::tile::LoadOp l) {
      if (l->getParentOfType<mlir::scf::IfOp>() && l->getParentOfType<mlir::scf::ForOp>() &&
          l.getType().isF32())
        loadUnderIf = true;
    });
    CHECK(loadUnderIf);
  }
}

TEST_CASE("a nest whose inner bounds depend on the outer loop stays a nest", "[flatten]") {
  mlir::OwningOpRef<mlir::ModuleOp> flat;
  sameResults("dependent", "i32,*i32", grid(1),
              [&](std::vector<Arg> &args, std::vector<std::vector<unsigned char>> &out) {
                out.assign(1, std::vector<unsigned char>(64 * 4, 0));
                args = {Arg::integer(6), Arg::buffer(out[0].data(), out[0].size(), "out")};
              },
              &flat);
  CHECK(nestedLoops(*flat) == 1);
  bool marked = false;
  flat->walk([&](mlir::scf::ForOp f) { marked |= f->hasAttr("tile.flatten"); });
  CHECK(!marked);
}

"""``triton.testing``: do_bench, assert_close, Benchmark and perf_report;
and the launch-overhead benchmark script."""

import os
import subprocess
import sys
import time

import numpy as np
import pytest

import triton
import triton.language as tl
import triton.testing
from triton.testing import assert_close, do_bench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def test_do_bench_returns_positive_ms():
    x = np.arange(1024, dtype=np.float32)
    y = np.empty_like(x)
    ms = do_bench(lambda: copy_kernel[(4,)](x, y, 1024, BLOCK=256),
                  warmup=1, rep=5)
    assert isinstance(ms, float) and ms > 0
    np.testing.assert_array_equal(x, y)


def test_do_bench_measures_wall_clock():
    ms = do_bench(lambda: time.sleep(0.002), warmup=1, rep=10)
    assert 1.5 < ms < 50


def test_do_bench_quantiles_and_modes():
    calls = []

    def fn():
        calls.append(1)

    q = do_bench(fn, warmup=1, rep=2, quantiles=[0.2, 0.5, 0.8])
    assert isinstance(q, list) and len(q) == 3
    assert 0 < q[0] <= q[1] <= q[2]
    assert isinstance(do_bench(fn, warmup=1, rep=2, quantiles=[0.5]), float)
    times = do_bench(fn, warmup=1, rep=2, return_mode="all")
    assert isinstance(times, list) and len(times) >= 1
    for mode in ("min", "max", "median", "mean"):
        assert do_bench(fn, warmup=1, rep=2, return_mode=mode) > 0
    assert len(calls) > 10
    with pytest.raises(ValueError):
        do_bench(fn, return_mode="p99")


def test_do_bench_clears_grads():
    class P:
        grad = 1

    p = P()
    do_bench(lambda: None, warmup=1, rep=1, grad_to_none=[p])
    assert p.grad is None


def test_assert_close_passes_and_fails_with_message():
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    assert_close(a, a + 1e-3)  # default atol 1e-2
    assert_close(a, a * (1 + 1e-3), atol=0, rtol=1e-2)
    assert_close(np.array([np.nan, 1.0]), np.array([np.nan, 1.0]))
    with pytest.raises(AssertionError, match="my message"):
        assert_close(a, a + 1.0, err_msg="my message")
    with pytest.raises(AssertionError, match="Mismatch"):
        assert_close(a, a + 1.0)
    with pytest.raises(AssertionError, match="is not close to"):
        assert_close(np.float32(1.0), np.float32(2.0), err_msg="scalar")
    assert_close(a, a + 0.5, atol=lambda dtype: 1.0)


def test_assert_close_on_torch_like():
    class FakeTensor:
        def __init__(self, a):
            self.a = a

        def cpu(self):
            return self

        def numpy(self):
            return self.a

    a = np.ones(4, dtype=np.float32)
    assert_close(FakeTensor(a), FakeTensor(a))
    with pytest.raises(AssertionError):
        assert_close(FakeTensor(a), FakeTensor(a * 3))


def make_report(save_path=None):
    bench = triton.testing.Benchmark(
        x_names=["size"], x_vals=[256, 1024], line_arg="provider",
        line_vals=["triton", "numpy"], line_names=["Triton", "NumPy"],
        styles=[("blue", "-"), ("green", "-")], ylabel="ms",
        plot_name="copy-performance", args={"scale": 2}, x_log=True)
    seen = []

    @triton.testing.perf_report(bench)
    def benchmark(size, provider, scale):
        seen.append((size, provider, scale))
        x = np.arange(size, dtype=np.float32)
        y = np.empty_like(x)
        if provider == "triton":
            fn = lambda: copy_kernel[(triton.cdiv(size, 256),)](  # noqa
                x, y, size, BLOCK=256)
        else:
            fn = lambda: np.copyto(y, x)  # noqa: E731
        ms, lo, hi = do_bench(fn, warmup=1, rep=2, quantiles=[0.5, 0.2, 0.8])
        return ms, lo, hi

    return benchmark, seen


def test_perf_report_prints_a_table(capsys):
    benchmark, seen = make_report()
    benchmark.run(print_data=True)
    assert sorted(seen) == sorted((s, p, 2) for s in (256, 1024)
                                  for p in ("triton", "numpy"))
    out = capsys.readouterr().out
    assert "copy-performance:" in out
    header = out.splitlines()[1].split()
    assert header == ["size", "Triton", "NumPy"]
    assert len(out.strip().splitlines()) == 4


def test_perf_report_saves_csv(tmp_path, capsys):
    benchmark, _ = make_report()
    benchmark.run(show_plots=False, print_data=False,
                  save_path=str(tmp_path))
    assert capsys.readouterr().out == ""
    lines = (tmp_path / "copy-performance.csv").read_text().splitlines()
    assert lines[0] == "size,Triton,NumPy" and len(lines) == 3


def test_perf_report_scalar_results_and_tuple_x_vals(capsys):
    bench = triton.testing.Benchmark(
        x_names=["M", "N"], x_vals=[(1, 2), (3, 4)], line_arg="op",
        line_vals=["add", "mul"], line_names=["add", "mul"],
        plot_name="ops", args={})

    @triton.testing.perf_report([bench])
    def ops(M, N, op):
        return float(M + N if op == "add" else M * N)

    ops.run(print_data=True)
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == [["0", "1", "2", "3", "2"], ["1", "3", "4", "7", "12"]]


def test_launch_overhead_benchmark_prints_numbers():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "compat")]
        + [p for p in [env.get("PYTHONPATH")] if p])
    script = os.path.join(ROOT, "bench", "python_launch.py")
    result = subprocess.run([sys.executable, script, "--number", "50",
                             "--repeat", "3"], env=env, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "us/launch" in result.stdout

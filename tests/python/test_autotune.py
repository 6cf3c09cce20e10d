"""Autotuning: picks the fastest config, caches per key, resets and
restores arguments, prunes, counts failing configs as inf, stacks with
heuristics; plus the interpreter environment variables."""

import os
import subprocess
import sys

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.testing import do_bench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
N = 1 << 17
FAST = dict(warmup=1, rep=5)


def quick_bench(fn, quantiles):
    return do_bench(fn, quantiles=quantiles, **FAST)


class CountingBench:
    """A do_bench that records how often it runs; `check` runs after each
    benchmarked call."""

    def __init__(self, check=None):
        self.calls = 0
        self.check = check

    def __call__(self, kernel_call, quantiles):
        self.calls += 1
        kernel_call()
        if self.check:
            self.check()
        return [1.0 * self.calls] * len(quantiles)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 4096)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def accumulate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def increment_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0,
             mask=mask)


@triton.jit
def even_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,
                    EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))
    else:
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)


def grid(meta):
    return (triton.cdiv(meta["n"], meta["BLOCK"]),)


def data(n=N, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    return x, y, np.zeros_like(x)


def test_config_kwargs_and_str():
    c = triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2)
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1,
                              "num_stages": 2}
    assert str(c) == ("BLOCK: 64, num_warps: 8, num_ctas: 1, "
                      "num_stages: 2, maxnreg: None")
    assert triton.Config({}, maxnreg=128).all_kwargs()["maxnreg"] == 128


def test_picks_the_config_it_measured_fastest():
    # Real wall-clock measurements (their order depends on the machine's
    # load, so only the choice given the measurements is asserted).
    slow, fast = triton.Config({"BLOCK": 1}), triton.Config({"BLOCK": 1024})
    kernel = triton.autotune([slow, fast], key=["n"], **FAST)(add_kernel)
    x, y, out = data()
    kernel[grid](x, y, out, N)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    timings = kernel.configs_timings
    assert set(timings) == {slow, fast}
    assert all(0 < t[0] < float("inf") for t in timings.values()), timings
    assert kernel.best_config is min(timings, key=lambda c: timings[c][0])
    assert kernel.bench_time > 0


def test_close_configs_are_timed_again_in_reverse_order():
    # First pass: A 1.00, B 1.03 (within 5% of A), C 2.00. Second pass, in
    # reverse order (B then A): B 1.00, A 1.20. By the mean of its two
    # timings B wins (1.015 against 1.10); C is not timed again.
    order = []
    first = {"A": 1.00, "B": 1.03, "C": 2.00}
    second = {"A": 1.20, "B": 1.00}

    def hook(name):
        return lambda nargs: order.append(name)

    configs = [triton.Config({"BLOCK": b}, pre_hook=hook(n))
               for n, b in (("A", 128), ("B", 256), ("C", 512))]

    def bench(kernel_call, quantiles):
        kernel_call()
        name = order[-1]
        t = (first if order.count(name) == 1 else second)[name]
        return [t] * len(quantiles)

    kernel = triton.autotune(configs, key=["n"], do_bench=bench)(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert order[:5] == ["A", "B", "C", "B", "A"]
    assert kernel.best_config is configs[1]
    timings = kernel.configs_timings
    assert timings[configs[0]][0] == pytest.approx(1.10)
    assert timings[configs[1]][0] == pytest.approx(1.015)
    assert timings[configs[2]][0] == 2.00
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_caches_per_key_and_dtype():
    bench = CountingBench()
    configs = [triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})]
    kernel = triton.autotune(configs, key=["n"], do_bench=bench)(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert bench.calls == 2
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    kernel[grid](x, y, out, 1000)  # same key: no re-tuning
    assert bench.calls == 2
    x2, y2, out2 = data(500)
    kernel[grid](x2, y2, out2, 500)  # a new key value re-tunes
    assert bench.calls == 4
    np.testing.assert_allclose(out2, x2 + y2, rtol=1e-6)
    x3, y3, out3 = data(1000, dtype=np.float64)
    kernel[grid](x3, y3, out3, 1000)  # new dtypes re-tune
    assert bench.calls == 6
    np.testing.assert_allclose(out3, x3 + y3, rtol=1e-12)
    assert sorted(kernel.cache) == sorted([
        (1000, "float32", "float32", "float32"),
        (500, "float32", "float32", "float32"),
        (1000, "float64", "float64", "float64")])
    # The key argument given by keyword is the same key: no re-tuning.
    kernel[grid](x, y, out, n=1000)
    kernel[grid](x_ptr=x, y_ptr=y, out_ptr=out, n=1000)
    assert bench.calls == 6
    assert kernel.best_config is kernel.cache[
        (1000, "float32", "float32", "float32")]


def test_reset_to_zero():
    n = 1000
    x, _, out = data(n)
    out[:] = 5.0

    def check():  # each trial starts from zero: out holds one sum
        np.testing.assert_array_equal(out, x)
        out[:] = 7.0  # garbage the next trial must not see

    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    kernel = triton.autotune(configs, key=["n"], reset_to_zero=["out_ptr"],
                             do_bench=CountingBench(check))(
                                 accumulate_kernel)
    kernel[grid](x, out, n)
    # zeroed after tuning too, so the real launch adds x exactly once
    np.testing.assert_array_equal(out, x)
    kernel[grid](x, out, n)  # cached: no reset on later launches
    np.testing.assert_array_equal(out, 2 * x)


def test_restore_value():
    n = 1000
    x0 = np.arange(n, dtype=np.float32)
    x = x0.copy()

    def check():  # restored after every trial
        np.testing.assert_array_equal(x, x0)

    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128}),
               triton.Config({"BLOCK": 256})]
    bench = CountingBench(check)
    kernel = triton.autotune(configs, key=["n"], restore_value=["x_ptr"],
                             do_bench=bench)(increment_kernel)
    kernel[grid](x, n)
    assert bench.calls == 3
    np.testing.assert_array_equal(x, x0 + 1)  # only the real launch counts


def test_restore_value_with_real_benchmark():
    x0 = np.arange(N, dtype=np.float32)
    x = x0.copy()
    configs = [triton.Config({"BLOCK": 256}), triton.Config({"BLOCK": 512})]
    kernel = triton.autotune(configs, key=["n"], restore_value=["x_ptr"],
                             **FAST)(increment_kernel)
    kernel[grid](x, N)
    np.testing.assert_array_equal(x, x0 + 1)


def test_prune_by_perf_model_top_k():
    seen = []

    def perf_model(x_ptr, y_ptr, out_ptr, n, BLOCK, **options):
        seen.append(BLOCK)
        return 1.0 / BLOCK  # bigger blocks are predicted faster

    configs = [triton.Config({"BLOCK": b}) for b in (32, 64, 128, 256)]
    bench = CountingBench()
    kernel = triton.autotune(
        configs, key=["n"], do_bench=bench,
        prune_configs_by={"perf_model": perf_model, "top_k": 2})(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert sorted(seen) == [32, 64, 128, 256]
    assert bench.calls == 2  # only the top 2 were benchmarked
    assert sorted(c.kwargs["BLOCK"] for c in kernel.configs_timings) == [
        128, 256]
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_prune_top_k_fraction_and_early_prune():
    configs = [triton.Config({"BLOCK": b}) for b in (32, 64, 128, 256)]

    def early(configs, nargs, **kwargs):
        assert nargs["n"] == 1000
        return [c for c in configs if c.kwargs["BLOCK"] != 256]

    kernel = triton.autotune(
        configs, key=["n"], do_bench=CountingBench(),
        prune_configs_by={"perf_model": lambda **kw: kw["BLOCK"],
                          "top_k": 0.5, "early_config_prune": early})(
                              add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert sorted(c.kwargs["BLOCK"] for c in kernel.configs_timings) == [
        32, 64]


def test_failing_config_counts_as_inf():
    bad = triton.Config({"BLOCK": 8192})  # violates static_assert
    good = triton.Config({"BLOCK": 256})
    kernel = triton.autotune([bad, good], key=["n"], **FAST)(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert kernel.best_config is good
    assert kernel.configs_timings[bad] == [float("inf")] * 3
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_stacked_over_heuristics():
    configs = [triton.Config({"BLOCK": 1}), triton.Config({"BLOCK": 1024})]
    seen = []

    def bench(kernel_call, quantiles=None):
        # Runs the trial, then ranks it by the BLOCK its grid saw (a wall
        # clock would make the choice depend on the machine's load).
        kernel_call()
        t = 10.0 if seen[-1][0] == 1 else 1.0
        return [t, t, t] if quantiles else t

    kernel = triton.autotune(configs, key=["n"], do_bench=bench)(
        triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0})(
            even_add_kernel))

    def grid_seen(meta):
        seen.append((meta["BLOCK"], meta["EVEN"]))
        return (triton.cdiv(meta["n"], meta["BLOCK"]),)

    for n in (N, N - 3):
        x, y, out = data(n)
        kernel[grid_seen](x, y, out, n)
        np.testing.assert_allclose(out, x + y, rtol=1e-6)
        assert kernel.best_config.kwargs["BLOCK"] == 1024
        assert seen[-1] == (1024, n % 1024 == 0)
    assert (1, True) in seen  # the trials saw their own config


def test_heuristics_over_autotune():
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    kernel = triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0
                                if "BLOCK" in a else False})(
        triton.autotune(configs, key=["n"], do_bench=CountingBench())(
            even_add_kernel))
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_conflicting_meta_parameter():
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    kernel = triton.autotune(configs, key=["n"], do_bench=CountingBench())(
        add_kernel)
    x, y, out = data(100)
    with pytest.raises(ValueError, match="Conflicting meta-parameters"):
        kernel[grid](x, y, out, 100, BLOCK=64)


def test_single_config_runs_without_tuning():
    bench = CountingBench()
    only = triton.Config({"BLOCK": 128}, num_warps=2)
    kernel = triton.autotune([only], key=["n"], do_bench=bench)(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    assert bench.calls == 0 and kernel.best_config is only
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_hooks_and_config_pre_hook():
    calls = []

    def config_hook(args):
        calls.append(("cfg", args["BLOCK"]))

    configs = [triton.Config({"BLOCK": 64}, pre_hook=config_hook),
               triton.Config({"BLOCK": 128})]
    kernel = triton.autotune(
        configs, key=["n"], do_bench=CountingBench(),
        pre_hook=lambda a, reset_only=False: calls.append(("pre",
                                                           reset_only)),
        post_hook=lambda a, exception: calls.append(("post", exception)))(
            add_kernel)
    x, y, out = data(100)
    kernel[grid](x, y, out, 100)
    assert calls[:5] == [("cfg", 64), ("pre", False), ("post", None),
                         ("pre", False), ("post", None)]
    assert ("pre", True) in calls
    # A cached launch still runs the chosen config's pre_hook.
    kernel.cache[(100, "float32", "float32", "float32")] = configs[0]
    calls.clear()
    kernel[grid](x, y, out, 100)
    assert calls == [("cfg", 64)]
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_print_autotuning(monkeypatch, capsys):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    kernel = triton.autotune(configs, key=["n"], do_bench=CountingBench())(
        add_kernel)
    x, y, out = data(100)
    kernel[grid](x, y, out, 100)
    text = capsys.readouterr().out
    assert "Triton autotuning for function add_kernel" in text
    assert "best config selected: BLOCK: 64" in text
    kernel[grid](x, y, out, 100)  # cached: nothing printed
    assert "best config" not in capsys.readouterr().out


def test_cache_results_on_disk(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    first = CountingBench()
    k1 = triton.autotune(configs, key=["n"], do_bench=first,
                         cache_results=True)(add_kernel)
    x, y, out = data(100)
    k1[grid](x, y, out, 100)
    assert first.calls == 2
    assert list((tmp_path / "autotune").iterdir())
    second = CountingBench()
    k2 = triton.autotune(configs, key=["n"], do_bench=second,
                         cache_results=True)(add_kernel)
    out[:] = 0
    k2[grid](x, y, out, 100)
    assert second.calls == 0
    assert k2.best_config.kwargs == k1.best_config.kwargs
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_cache_results_on_disk_name_the_device_and_compiler(monkeypatch,
                                                            tmp_path):
    # A choice made by another compiler build (or on another device) is
    # not reused: the entry's name covers both.
    from tritium import autotuner
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    x, y, out = data(100)

    def tune():
        bench = CountingBench()
        k = triton.autotune(configs, key=["n"], do_bench=bench,
                            cache_results=True)(add_kernel)
        k[grid](x, y, out, 100)
        return bench.calls

    assert autotuner._device_of({"x": x}) == "interpreter"
    assert tune() == 2
    assert tune() == 0
    from tritium import _capi
    real = autotuner._compiler_identity()
    assert real.startswith(_capi.version() + ";")
    monkeypatch.setattr(autotuner, "_compiler_identity",
                        lambda: real + ";rebuilt")
    assert tune() == 2
    monkeypatch.setattr(autotuner, "_device_of", lambda nargs: "other GPU")
    assert tune() == 2
    assert len(list((tmp_path / "autotune").iterdir())) == 3


@pytest.mark.parametrize("var", ["TRITIUM_INTERPRET", "TRITON_INTERPRET"])
def test_interpret_variables_change_nothing(var, tmp_path):
    code = ("import numpy as np, triton, triton.language as tl\n"
            "@triton.jit\n"
            "def k(x_ptr, BLOCK: tl.constexpr):\n"
            "    o = tl.arange(0, BLOCK)\n"
            "    tl.store(x_ptr + o, tl.load(x_ptr + o) * 2)\n"
            "x = np.arange(16, dtype=np.float32)\n"
            "k[(1,)](x, BLOCK=16)\n"
            "assert (x == 2 * np.arange(16)).all()\n"
            "print('ok')\n")
    script = tmp_path / "interpret_env_check.py"
    script.write_text(code)
    env = dict(os.environ, **{var: "1"})
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "compat")]
        + [p for p in [env.get("PYTHONPATH")] if p])
    result = subprocess.run([sys.executable, str(script)], env=env,
                            capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def _compiles(kernel_fn):
    """Specializations compiled so far by a @jit kernel, over its constexpr
    sets."""
    return sum(k.num_compiles for k in kernel_fn._kernels.values())


def test_configs_are_compiled_together_before_the_benchmarks():
    compiled_before_bench = []

    def bench(kernel_call, quantiles):
        compiled_before_bench.append(_compiles(add_kernel))
        kernel_call()
        return [1.0] * len(quantiles)

    add_kernel._kernels.clear()
    configs = [triton.Config({"BLOCK": b}, num_warps=w)
               for b, w in ((128, 4), (256, 4), (256, 8))]
    kernel = triton.autotune(configs, key=["n"], do_bench=bench)(add_kernel)
    x, y, out = data(3000)
    kernel[grid](x, y, out, 3000)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    assert kernel.precompiled == 3
    # Every config was compiled before the first benchmark ran, and the
    # benchmarks' launches compiled nothing more.
    # (All three time the same, so all three are timed a second time.)
    assert compiled_before_bench == [3] * 6
    assert _compiles(add_kernel) == 3


def test_configs_compiled_together_through_heuristics():
    configs = [triton.Config({"BLOCK": 1}), triton.Config({"BLOCK": 1024})]
    kernel = triton.autotune(configs, key=["n"], **FAST)(
        triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0})(
            even_add_kernel))
    x, y, out = data(4096)
    kernel[grid](x, y, out, 4096)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    assert kernel.precompiled == 2


def test_a_config_failing_when_compiled_together_fails_in_its_benchmark():
    bad = triton.Config({"BLOCK": 8192})  # violates static_assert
    configs = [triton.Config({"BLOCK": 128}), bad, triton.Config({"BLOCK": 256})]
    kernel = triton.autotune(configs, key=["n"], **FAST)(add_kernel)
    x, y, out = data(1000)
    kernel[grid](x, y, out, 1000)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    assert kernel.precompiled == 2
    assert kernel.configs_timings[bad] == [float("inf")] * 3


@pytest.mark.parametrize("value", ["x", "-1"])
def test_compile_threads_variable_is_checked(monkeypatch, value):
    monkeypatch.setenv("TRITIUM_COMPILE_THREADS", value)
    configs = [triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})]
    kernel = triton.autotune(configs, key=["n"], **FAST)(add_kernel)
    x, y, out = data(1000)
    with pytest.raises(ValueError, match="TRITIUM_COMPILE_THREADS"):
        kernel[grid](x, y, out, 1000)

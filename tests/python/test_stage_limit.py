"""The time limit on each compile stage (TRITIUM_COMPILE_TIME_LIMIT,
`tritium compile --time-limit`): a stage past it fails the compile with an
error naming the kernel and the stage; ptxas past it is killed; a stage
that does not stop by itself ends the process (exit status 124) with that
message; a setting that is not a number of seconds is an error. No GPU is
needed: the targets are cross-compiled."""

import os
import stat
import subprocess
import sys
import textwrap
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRITIUM_BIN") or os.path.join(ROOT, "build", "bin", "tritium")
needs_binary = pytest.mark.skipif(not os.path.exists(BINARY),
                                  reason="no tritium binary (set TRITIUM_BIN)")

KERNEL = '''import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)


@triton.jit
def unrolled(x_ptr, N: tl.constexpr, M: tl.constexpr):
    acc = tl.load(x_ptr)
    for i in tl.static_range(N):
        for j in tl.static_range(M):
            acc = acc * 3 + i
    tl.store(x_ptr, acc)
'''
ADD = ["-k", "add", "-s", "*fp32:16,*fp32:16,i32,1024"]


@pytest.fixture
def kernel_file(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL)
    return str(path)


@pytest.fixture
def stuck_ptxas(tmp_path):
    """A ptxas that never finishes."""
    path = tmp_path / "ptxas"
    path.write_text("#!/bin/sh\nsleep 600\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def compile_cli(args, env=None, timeout=60):
    full = dict(os.environ)
    full.update(env or {})
    start = time.monotonic()
    p = subprocess.run([BINARY, "compile"] + args, capture_output=True, text=True,
                       env=full, timeout=timeout)
    return p, time.monotonic() - start


@needs_binary
def test_no_limit_and_a_generous_one_compile(kernel_file):
    for extra in (["--time-limit", "0"], ["--time-limit", "600"], []):
        p, _ = compile_cli([kernel_file] + ADD + ["--target", "cuda:90", "--emit", "ptx"] +
                           extra)
        assert p.returncode == 0, p.stderr
        assert ".entry add" in p.stdout


@needs_binary
def test_stuck_ptxas_is_killed_at_the_limit(kernel_file, stuck_ptxas):
    p, seconds = compile_cli([kernel_file] + ADD + ["--target", "cuda:90", "--emit", "cubin",
                                                    "--time-limit", "0.5", "-o", os.devnull],
                             env={"TRITIUM_PTXAS": stuck_ptxas})
    assert p.returncode == 1
    assert ("error: compiling 'add': stage 'ptxas' passed its time limit of 0.5 s "
            "(TRITIUM_COMPILE_TIME_LIMIT; 0 for no limit)") in p.stderr
    assert seconds < 30


@needs_binary
def test_environment_sets_the_limit(kernel_file, stuck_ptxas):
    p, _ = compile_cli([kernel_file] + ADD + ["--target", "cuda:80", "--emit", "cubin",
                                              "-o", os.devnull],
                       env={"TRITIUM_PTXAS": stuck_ptxas, "TRITIUM_COMPILE_TIME_LIMIT": "0.25"})
    assert p.returncode == 1
    assert "stage 'ptxas' passed its time limit of 0.25 s" in p.stderr


@needs_binary
def test_stage_that_does_not_stop_ends_the_process(kernel_file):
    # IR generation of 4096 x 256 unrolled iterations takes seconds and
    # cannot be interrupted: at twice the limit (at least 1 s past it) the
    # process ends with the stage named.
    p, seconds = compile_cli([kernel_file, "-k", "unrolled", "-s", "*fp32,4096,256",
                              "--emit", "tile", "--time-limit", "0.1", "-o", os.devnull])
    assert p.returncode == 124, p.stderr
    assert ("tritium: error: compiling 'unrolled': stage 'ir generation' passed its time "
            "limit of 0.1 s") in p.stderr
    assert "the stage did not stop at the limit, so the process ends" in p.stderr
    assert seconds < 30


@needs_binary
@pytest.mark.parametrize("value", ["abc", "-1", "nan", "1s"])
def test_bad_setting_is_an_error(kernel_file, value):
    p, _ = compile_cli([kernel_file] + ADD + ["--emit", "tile"],
                       env={"TRITIUM_COMPILE_TIME_LIMIT": value})
    assert p.returncode == 1
    assert ("tritium: error: TRITIUM_COMPILE_TIME_LIMIT='%s' is not a number of seconds "
            "(0 for no limit)" % value) in p.stderr


@needs_binary
def test_bad_option_is_an_error(kernel_file):
    p, _ = compile_cli([kernel_file] + ADD + ["--time-limit", "-3"])
    assert p.returncode != 0
    assert "--time-limit" in p.stderr


def test_python_compile_reports_the_stage(kernel_file, stuck_ptxas):
    # Through the triton package: the compile error names the stage.
    script = textwrap.dedent('''
        import sys, importlib.util
        spec = importlib.util.spec_from_file_location("k", sys.argv[1])
        k = importlib.util.module_from_spec(spec); spec.loader.exec_module(k)
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        src = ASTSource(k.add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32",
                                "BLOCK": "constexpr"}, constexprs={"BLOCK": 1024})
        try:
            triton.compile(src, target=GPUTarget("cuda", 90, 32))
        except Exception as e:
            print(type(e).__name__, e)
    ''')
    env = dict(os.environ)
    env.update({"TRITIUM_PTXAS": stuck_ptxas, "TRITIUM_COMPILE_TIME_LIMIT": "0.5",
                "TRITIUM_CACHE_DIR": os.path.join(os.path.dirname(kernel_file), "cache")})
    p = subprocess.run([sys.executable, "-c", script, kernel_file], capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "stage 'ptxas' passed its time limit of 0.5 s" in p.stdout, p.stdout + p.stderr

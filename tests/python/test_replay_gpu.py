"""`tritium run/replay --executors interp,cuda`: a launch rerun on the
interpreter and on the GPU from the same inputs, every buffer compared with
--check's tolerances (skipped without a CUDA GPU or the tritium binary)."""

import os
import subprocess

import pytest

from tritium import _capi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRITIUM_BIN") or os.path.join(ROOT, "build", "bin", "tritium")

if not os.path.exists(BINARY):
    pytest.skip("no tritium binary (set TRITIUM_BIN)", allow_module_level=True)
if _capi.lib().tritium_cuda_available() != 1:
    pytest.skip("no CUDA GPU: launches on both executors run on the GPU machine",
                allow_module_level=True)

KERNEL = '''import triton
import triton.language as tl


@triton.jit
def softish(x_ptr, out_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.exp(x) / (1.0 + tl.exp(x))
    tl.store(out_ptr + offs, y, mask=offs < n)
    tl.store(idx_ptr + offs, offs * 3, mask=offs < n)
'''
LAUNCH = ["-k", "softish", "-g", "4", "--arg", "x_ptr=randn:f32[1000]",
          "--arg", "out_ptr=empty:f32[1000]", "--arg", "idx_ptr=zeros:i32[1000]",
          "--arg", "n=1000", "-c", "BLOCK=256"]


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True)


def test_a_recorded_launch_replays_on_both_executors(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    rec = tmp_path / "rec"
    p = run("run", str(src), *LAUNCH, "--record", str(rec))
    assert p.returncode == 0, p.stderr
    p = run("replay", str(rec), "--executors", "interp,cuda")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "executor interp\n" in p.stdout and "executor cuda\n" in p.stdout
    assert "compare out_ptr, cuda vs interp: PASS (1000 elements" in p.stdout
    assert "compare idx_ptr, cuda vs interp: PASS (1000 elements, rel_l2 0" in p.stdout
    # The GPU alone.
    p = run("replay", str(rec), "--executors", "cuda")
    assert p.returncode == 0, p.stderr
    assert "kernel softish grid [4, 1, 1]" in p.stdout
    # The GPU's exp is not the interpreter's to the last bit: with no
    # tolerance at all the comparison says where they differ.
    p = run("replay", str(rec), "--executors", "interp,cuda", "--rtol", "0", "--atol", "0")
    assert p.returncode == 1
    assert "compare out_ptr, cuda vs interp: FAIL" in p.stdout
    assert "compare idx_ptr, cuda vs interp: PASS" in p.stdout


def test_a_failed_run_is_not_compared(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    # A bound past the buffers: the interpreter names the out-of-bounds
    # store, and a run that failed is compared with nothing.
    p = run("run", str(src), *[a.replace("n=1000", "n=4000") for a in LAUNCH],
            "--executors", "interp,cuda")
    assert p.returncode == 1
    assert "out-of-bounds" in p.stderr
    assert "compare" not in p.stdout


FP8 = '''import triton
import triton.language as tl


@triton.jit
def fp8_arith(x_ptr, y_ptr, out_ptr, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float8e5)
    y = tl.load(y_ptr + offs).to(tl.float8e5)
    z = tl.where(x > y, x * y, tl.maximum(x - y, y / x))
    tl.store(out_ptr + offs, z * s)
'''


def test_fp8_arithmetic_agrees_with_the_interpreter(tmp_path):
    # fp8 arithmetic computes in fp32 on the GPU, rounded back once: the
    # interpreter's values, bit for bit (fp8 buffers compare exactly).
    src = tmp_path / "k.py"
    src.write_text(FP8)
    p = run("run", str(src), "-k", "fp8_arith", "-g", "1", "--arg", "x_ptr=randn:f32[1024]",
            "--arg", "y_ptr=randn:f32[1024]", "--arg", "out_ptr=zeros:fp8e5[1024]",
            "--arg", "s=1.5", "-c", "BLOCK=1024", "--executors", "interp,cuda")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "compare out_ptr, cuda vs interp: PASS (1024 elements" in p.stdout

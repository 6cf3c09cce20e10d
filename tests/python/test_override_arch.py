"""TRITON_OVERRIDE_ARCH ("sm80", as Triton reads it) compiles launches for
another architecture than the device's (sm_80's mma.sync and cp.async path
on a Hopper GPU, which runs it from the PTX): the results match, the code
is sm_80's, and an architecture the device cannot run, or not one at all,
is an error that says so (skipped without a CUDA GPU)."""

import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU: launches for an older target run on the GPU machine",
                allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = textwrap.dedent("""
    import torch, triton, triton.language as tl

    @triton.jit
    def mm(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm, pn = tl.program_id(0), tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, K, BK):
            a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(C + rm[:, None] * N + rn[None, :], acc)

    torch.manual_seed(0)
    a = torch.randn(256, 256, device="cuda", dtype=torch.float16)
    b = torch.randn(256, 256, device="cuda", dtype=torch.float16)
    c = torch.empty(256, 256, device="cuda", dtype=torch.float32)
    k = mm[(2, 2)](a, b, c, 256, 256, 256, BM=128, BN=128, BK=32, num_warps=4)
    ref = a.float() @ b.float()
    print("maxdiff", (c - ref).abs().max().item())
    ptx = k.asm["ptx"]
    print("target", [l.split()[1] for l in ptx.splitlines() if l.startswith(".target")][0])
    print("wgmma" if "wgmma" in ptx else "no-wgmma", "mma.sync" if "mma.sync" in ptx else "-")
""")


def run(target, tmp_path):
    env = dict(os.environ, TRITON_OVERRIDE_ARCH=target,
               TRITIUM_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python", "compat"),
                                           os.path.join(ROOT, "python")]))
    script = tmp_path / "override_arch_mm.py"  # kernels compile from their file
    script.write_text(SCRIPT)
    return subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=300)


def test_sm80_code_runs_on_a_newer_gpu(tmp_path):
    p = run("sm80", tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = dict(l.split(None, 1) for l in p.stdout.splitlines())
    assert float(lines["maxdiff"]) < 0.05
    assert lines["target"] == "sm_80"
    assert lines["no-wgmma"].strip() == "mma.sync"


@pytest.mark.parametrize("target, words", [
    ("sm75", "is not a CUDA architecture tritium compiles for"),
    ("gfx942", "is not a CUDA architecture tritium compiles for"),
])
def test_bad_target_is_an_error(tmp_path, target, words):
    p = run(target, tmp_path)
    assert p.returncode != 0
    assert "TRITON_OVERRIDE_ARCH='%s'" % target in p.stderr and words in p.stderr, p.stderr[-2000:]


def test_newer_target_than_the_device_is_an_error(tmp_path):
    major, minor = torch.cuda.get_device_capability()
    if major * 10 + minor >= 90:
        pytest.skip("the device runs every target tritium compiles for")
    p = run("sm90", tmp_path)
    assert p.returncode != 0 and "which cannot run code for sm_90" in p.stderr, p.stderr[-2000:]

"""The differential kernel fuzzer (fuzz/difftest.py): its random kernels
agree with their numpy references on the interpreter (and with the
interpreter on the GPU, where there is one), and a wrong result is a
finding that keeps the kernel."""

import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for p in (ROOT, os.path.join(ROOT, "fuzz")):
    if p not in sys.path:
        sys.path.insert(0, p)

import difftest  # noqa: E402
from conformance.executors import EXECUTORS  # noqa: E402


def test_interpreter_agrees(tmp_path, capsys):
    assert difftest.main(["--kernels", "300", "--seed", "4242",
                          "--executors", "interp", "--findings", str(tmp_path)]) == 0
    assert "300 kernels on interp, 0 findings" in capsys.readouterr().out


def test_kernels_cover_the_language():
    """Across seeds the generator writes 1-D and 2-D kernels with loops,
    branches, reductions, products, casts and every input dtype."""
    text = "".join(difftest.Gen(s).build().source() for s in range(300))
    for piece in ("tl.arange(0, BLOCK)", "rm[:, None] < M", "for it in range(ITERS)",
                  "if flag > 0", "tl.sum(", "tl.max(", "tl.dot(", ".to(tl.float16)",
                  ".to(tl.int32)", "tl.where(", "tl.exp(", " // ", " % ", " >> ",
                  "other=-3", "other=0.0"):
        assert piece in text, piece


class _Skewed:
    """The interpreter, with every float output nudged by 1e-3 relative."""
    name = "interp"

    def __init__(self):
        self.inner = EXECUTORS["interp"]()

    def to_device(self, v):
        return self.inner.to_device(v)

    def to_host(self, v):
        v = self.inner.to_host(v)
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            return (v * (1 + 1e-3)).astype(v.dtype)
        return v

    def synchronize(self):
        pass


def test_wrong_results_are_findings(tmp_path):
    found = [difftest.run_case(seed, [_Skewed()], str(tmp_path)) for seed in range(40)]
    hits = [f for f in found if f]
    assert hits, "a 1e-3 relative error went unnoticed in 40 kernels"
    source, why = hits[0]
    assert "@triton.jit" in source and "interp vs reference" in why


def test_findings_are_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(difftest, "available", lambda names: ([_Skewed()], []))
    assert difftest.main(["--kernels", "40", "--seed", "0", "--findings", str(tmp_path)]) == 1
    kept = sorted(p for p in os.listdir(tmp_path) if p.startswith("finding_"))
    assert kept
    text = (tmp_path / kept[0]).read_text()
    assert text.startswith("import triton") and "# difftest seed" in text
    assert "disagrees" in capsys.readouterr().out


def test_gpu_compiles(tmp_path, capsys):
    """Each kernel through the GPU pipeline for both architectures (to PTX,
    and to a cubin where ptxas is installed), with or without a GPU."""
    assert difftest.main(["--kernels", "40", "--seed", "31337", "--compile", "sm80,sm90",
                          "--findings", str(tmp_path)]) == 0
    assert "compiled for sm80, compiled for sm90, 0 findings" in capsys.readouterr().out


def test_bad_executor():
    with pytest.raises(SystemExit):
        difftest.main(["--executors", "tpu"])
    with pytest.raises(SystemExit):
        difftest.main(["--compile", "sm70"])


def test_gpu_agrees(tmp_path, capsys):
    why = EXECUTORS["cuda"]().unavailable()
    if why:
        pytest.skip("GPU check: " + why)
    assert difftest.main(["--kernels", "300", "--seed", "777",
                          "--executors", "interp,cuda", "--findings", str(tmp_path)]) == 0
    assert "300 kernels on interp,cuda, 0 findings" in capsys.readouterr().out

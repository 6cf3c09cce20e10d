"""Every conformance kernel compiles for sm_80 and sm_90 through ptxas with
no GPU, as its cases specialize it (``python -m conformance.cuda_compile``):
the GPU machine runs sm_90 only, so this is where sm_80's code meets ptxas
(a bf16 atomic add once produced PTX that ptxas rejects there)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from conformance.cuda_compile import find_ptxas  # noqa: E402


@pytest.mark.skipif(find_ptxas() is None,
                    reason="no ptxas (TRITIUM_PTXAS, PATH or /usr/local/cuda/bin)")
def test_conformance_corpus_compiles_for_cuda(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"),
                                         os.path.join(ROOT, "python", "compat"), ROOT,
                                         env.get("PYTHONPATH", "")])
    env["TRITIUM_CACHE_DIR"] = str(tmp_path / "cache")
    p = subprocess.run([sys.executable, "-m", "conformance.cuda_compile"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    for cc in (80, 90):
        line = next(l for l in lines if l.startswith("sm_%d:" % cc))
        assert int(line.split()[1]) >= 680, line

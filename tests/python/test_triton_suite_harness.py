"""The harness that runs Triton's own tests (tests/triton_suite): per-case
outcomes, a case that kills its process recorded as crashed and the rest
of the file still run, failure classes, and the side-by-side comparison;
checked on a small made-up suite."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "tests", "triton_suite", "run.py")

SUITE_TEST = '''
import os
import pytest


def test_passes():
    assert 1 + 1 == 2


@pytest.mark.parametrize("x", [1, 2])
def test_fails(x):
    assert x == 1, "x is %d" % x


def test_crashes():
    os.abort()


def test_after_the_crash():
    pass


def test_skipped():
    pytest.skip("not here")
'''

CONFTEST = '''
import pytest


def pytest_addoption(parser):
    parser.addoption("--device", action="store", default="cuda")
'''


def _outcomes(path):
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            out[r["id"]] = r["outcome"]
    return out


def test_harness_records_each_case_and_survives_a_crash(tmp_path):
    lang = tmp_path / "suite" / "language"
    lang.mkdir(parents=True)
    (lang / "test_made_up.py").write_text(SUITE_TEST)
    (lang / "conftest.py").write_text(CONFTEST)
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, RUN, "--impl", "tritium", "--device", "cpu",
         "--suite", str(tmp_path / "suite"), "--out", str(out),
         "test_made_up.py"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = _outcomes(out / "tritium.jsonl")
    final = {}
    for case, outcome in got.items():
        final[case] = outcome
    assert final["test_made_up.py::test_passes"] == "passed"
    assert final["test_made_up.py::test_fails[1]"] == "passed"
    assert final["test_made_up.py::test_fails[2]"] == "failed"
    assert final["test_made_up.py::test_after_the_crash"] == "passed"
    assert final["test_made_up.py::test_skipped"] == "skipped"
    # The crash left only its "started" line.
    lines = [json.loads(l) for l in open(out / "tritium.jsonl")]
    crash = [l for l in lines if l["id"] == "test_made_up.py::test_crashes"]
    assert [l["outcome"] for l in crash] == ["started"]
    assert "| test_made_up.py | 3 | 1 | 0 | 1 | 1 | 0 |" in proc.stdout
    assert "AssertionError: x is #" in proc.stdout

    # Side by side with itself: every passing case passes.
    cmp = subprocess.run([sys.executable, RUN, "--compare",
                          str(out / "tritium.jsonl"),
                          str(out / "tritium.jsonl")],
                         capture_output=True, text=True, timeout=60)
    assert "B passes 3 of the 3 cases A passes (100.0%)" in cmp.stdout

"""The conformance harness (conformance/): the comparison rules (NaN/Inf
positions, relative norm error, ULP distance, worst index), the number
formats, deterministic inputs, and end to end: a planted bug is caught with
a replay command, reports are written, an unavailable executor is skipped
unless required."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from conformance import compare, formats, harness  # noqa: E402
from conformance.manifest import Bf16  # noqa: E402

PLANTED = os.path.join("conformance", "planted", "vector_add_off_by_one.py")


def run_harness(*args, cwd=ROOT):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "compat"),
         ROOT, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "conformance.harness",
                           *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)


# -- compare rules -----------------------------------------------------------

def test_nan_same_positions_pass():
    ref = np.array([1.0, np.nan, 3.0])
    out = np.array([1.0, np.nan, 3.0], np.float32)
    assert compare.compare(out, ref, "fp32").ok


def test_nan_where_reference_is_finite_fails():
    ref = np.array([1.0, 2.0, 3.0])
    out = np.array([1.0, np.nan, 3.0], np.float32)
    r = compare.compare(out, ref, "fp32")
    assert not r.ok
    assert r.metrics["worst_index"] == [1]
    assert "NaN/Inf" in r.message


def test_missing_nan_fails():
    ref = np.array([np.nan, 2.0])
    out = np.array([0.0, 2.0], np.float32)
    assert not compare.compare(out, ref, "fp32").ok


def test_inf_sign_must_match():
    ref = np.array([np.inf, -np.inf])
    assert compare.compare(np.array([np.inf, -np.inf]), ref, "fp64").ok
    assert not compare.compare(np.array([np.inf, np.inf]), ref, "fp64").ok


def test_relative_norm_error_and_worst_index():
    ref = np.ones((3, 4))
    out = ref.copy()
    out[2, 1] += 1e-3
    out[0, 0] -= 1e-4
    r = compare.compare(out, ref, "fp64", compare.Tol(rtol=1e-2))
    assert r.ok
    assert r.metrics["worst_index"] == [2, 1]
    expected = np.sqrt(1e-6 + 1e-8) / np.sqrt(12)
    assert abs(r.metrics["rel_err"] - expected) < 1e-12
    assert not compare.compare(out, ref, "fp64", compare.Tol(rtol=1e-5)).ok


def test_zero_reference_uses_absolute_norm():
    r = compare.compare(np.array([0.0, 1e-3]), np.zeros(2), "fp64",
                        compare.Tol(rtol=1e-2))
    assert r.ok and abs(r.metrics["rel_err"] - 1e-3) < 1e-15


def test_ulp_distance_fp32():
    one = np.float32(1.0)
    up2 = np.nextafter(np.nextafter(one, np.float32(2)), np.float32(2))
    r = compare.compare(np.array([up2], np.float32), np.array([1.0]), "fp32",
                        compare.Tol(rtol=1.0, ulp=1))
    assert not r.ok and r.metrics["ulp"] == 2.0
    assert compare.compare(np.array([up2], np.float32), np.array([1.0]),
                           "fp32", compare.Tol(rtol=1.0, ulp=2)).ok


def test_ulp_distance_across_zero_and_formats():
    tiny = np.float32(1e-45)  # the smallest fp32 subnormal
    d = formats.ordered(np.array([tiny]), "fp32") - formats.ordered(
        np.array([-tiny]), "fp32")
    assert d[0] == 2
    assert (formats.ordered(np.array([0.0]), "fp64")
            == formats.ordered(np.array([-0.0]), "fp64")).all()
    b = formats.ordered(np.array([1.0, 1.0078125]), "bf16")
    assert b[1] - b[0] == 1


def test_exact_float_compares_against_rounded_reference():
    # 0.1 is not an fp16 value; an fp16 output equal to fp16(0.1) is exact.
    out = np.array([0.1], np.float16).astype(np.float64)
    assert compare.compare(out, np.array([0.1]), "fp16", compare.EXACT).ok
    off = np.nextafter(np.float16(0.1), np.float16(1)).astype(np.float64)
    assert not compare.compare(np.array([off]), np.array([0.1]), "fp16",
                               compare.EXACT).ok


def test_integers_exact():
    ref = np.array([[1, 2], [3, 4]], np.int64)
    out = np.array([[1, 2], [3, 5]], np.int32)
    r = compare.compare(out, ref, "int32")
    assert not r.ok
    assert r.metrics["mismatches"] == 1 and r.metrics["worst_index"] == [1, 1]
    assert compare.compare(ref.astype(np.int8), ref, "int8").ok
    big = np.array([2**64 - 1], np.uint64)
    assert compare.compare(big, big.copy(), "uint64").ok


def test_unordered_compare():
    assert compare.compare(np.array([3, 1, 2]), np.array([1, 2, 3]), "int32",
                           unordered=True).ok


def test_tolerance_grows_with_accumulation_length():
    assert compare.tol("fp32", 10000).rtol > compare.tol("fp32", 1).rtol
    assert compare.tol("int8").exact


# -- formats -----------------------------------------------------------------

def test_bf16_round_to_nearest_even():
    # 1 + 2^-8 is halfway between bf16 1.0 and 1.0078125: ties to even (1.0)
    assert formats.round_to(np.array([1 + 2**-8]), "bf16")[0] == 1.0
    assert formats.round_to(np.array([1 + 3 * 2**-8]), "bf16")[0] == \
        1.015625
    b = Bf16.from_float([1.5, -2.0])
    assert list(b.float()) == [1.5, -2.0]


@pytest.mark.parametrize("fmt", ["fp8e5", "fp8e4nv", "fp8e4b8", "fp8e5b16"])
def test_fp8_codes_round_trip(fmt):
    codes = np.arange(256, dtype=np.uint8)
    vals = formats.decode(codes, fmt)
    ok = ~np.isnan(vals)
    again = formats.decode(formats.encode(vals[ok], fmt), fmt)
    assert np.array_equal(again, vals[ok])


def test_fp8_e4m3_limits():
    assert formats.max_finite("fp8e4nv") == 448.0
    assert formats.max_finite("fp8e5") == 57344.0


# -- inputs ------------------------------------------------------------------

def test_same_seed_same_inputs():
    ms, errors = harness.select(["example_vector_add"])
    assert not errors and len(ms) == 1
    m = ms[0]
    p = harness.Namespace(m.case_params(5))
    a = m.make(p, harness.case_rng(42, m.name, 5))
    b = m.make(p, harness.case_rng(42, m.name, 5))
    c = m.make(p, harness.case_rng(43, m.name, 5))
    assert np.array_equal(a["x"], b["x"])
    assert not np.array_equal(a["x"], c["x"])


def test_case_index_determines_shape():
    m = harness.select(["example_vector_add"])[0][0]
    assert m.case_params(3) == m.case_params(3)
    assert m.case_params(0)["n"] == 1


# -- end to end --------------------------------------------------------------

def test_planted_bug_is_caught_with_replay(tmp_path):
    r = run_harness(PLANTED, "--executors", "interp", "--report-dir",
                    str(tmp_path))
    assert r.returncode != 0, r.stdout
    replay = [line.split("replay: ", 1)[1] for line in r.stdout.splitlines()
              if "replay: " in line]
    assert replay, r.stdout
    assert replay[0].startswith("tritium check " + PLANTED + " --case ")
    assert " --seed 1234" in replay[0]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["failures"] >= 1
    assert "## Failures" in (tmp_path / "report.md").read_text()
    # The replay command reruns just that case, with the same verdict.
    args = replay[0].split()[2:]
    again = run_harness(*args, "--executors", "interp", "--report-dir",
                        str(tmp_path / "again"))
    assert again.returncode != 0
    assert "1 kernels, 1 cases, 1 failures" in again.stdout


def test_clean_kernel_passes_and_writes_reports(tmp_path):
    r = run_harness("example_vector_add", "where", "--executors", "interp",
                    "--report-dir", str(tmp_path))
    assert r.returncode == 0, r.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["failures"] == 0
    assert {row["kernel"] for row in report["table"]} == {
        "example_vector_add", "where"}
    md = (tmp_path / "report.md").read_text()
    assert "| example_vector_add | interp |" in md


def test_same_seed_same_verdict(tmp_path):
    verdicts = []
    for i in range(2):
        d = tmp_path / str(i)
        run_harness("float_arith", "--seed", "99", "--cases", "12",
                    "--executors", "interp", "--report-dir", str(d))
        rep = json.loads((d / "report.json").read_text())
        verdicts.append([(c["case"], c["status"], c["params"])
                         for k in rep["kernels"] for c in k["cases"]])
    assert verdicts[0] == verdicts[1]


def test_unavailable_executor_is_skipped_unless_required(tmp_path):
    try:
        import torch  # noqa: F401
        if torch.cuda.is_available():
            pytest.skip("a CUDA device is present")
    except ImportError:
        pass
    r = run_harness("where", "--executors", "interp,cuda", "--report-dir",
                    str(tmp_path))
    assert r.returncode == 0, r.stdout
    assert "cuda: skipped:" in r.stdout
    r = run_harness("where", "--executors", "interp", "--require", "cuda",
                    "--report-dir", str(tmp_path))
    assert r.returncode != 0


def test_unknown_kernel_is_an_error(tmp_path):
    r = run_harness("no_such_kernel", "--report-dir", str(tmp_path))
    assert r.returncode != 0
    assert "no corpus kernel matches" in r.stdout


def test_isolated_crash_is_a_failed_case(tmp_path):
    crash = os.path.join("conformance", "planted", "crash.py")
    r = run_harness(crash, "--executors", "interp", "--report-dir",
                    str(tmp_path))
    assert r.returncode == 1, r.stdout
    assert "the run crashed (killed by signal 11)" in r.stdout
    assert "replay: tritium check " + crash + " --case 0" in r.stdout


def test_timeout_names_the_case(tmp_path):
    r = run_harness("example_matmul", "--timeout", "0.0001", "--executors",
                    "interp", "--report-dir", str(tmp_path))
    assert r.returncode == 124
    assert "TIMEOUT example_matmul [interp] case 0" in r.stdout
    assert "replay: tritium check example_matmul --case 0" in r.stdout


def test_corpus_runs_race_free_under_the_race_sanitizer(tmp_path):
    # Every conformance kernel (atomics kernels included) on the interpreter
    # with the race sanitizer on: no program pair is reported.
    env_before = os.environ.get("TRITIUM_SANITIZE")
    os.environ["TRITIUM_SANITIZE"] = "race"
    try:
        p = run_harness("--executors", "interp", "--report-dir", str(tmp_path))
    finally:
        if env_before is None:
            del os.environ["TRITIUM_SANITIZE"]
        else:
            os.environ["TRITIUM_SANITIZE"] = env_before
    assert p.returncode == 0, p.stdout[-3000:]
    assert "0 failures" in p.stdout
    assert "race sanitizer" not in p.stdout

"""The interpreter's sanitizers from Python: TRITIUM_SANITIZE=nan|uninit|race
applies to every interpreter launch, the launch option sanitize= to one;
reports go to stderr with the program id and the kernel's line, and
tritium.uninitialized marks a buffer."""

import os
import subprocess

import numpy as np
import pytest

import triton
import triton.language as tl
import tritium
from tritium.errors import LaunchOptionError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def line_of(snippet):
    """The line of this file where `snippet` first appears."""
    with open(__file__) as f:
        for n, line in enumerate(f, 1):
            if snippet in line:
                return n
    raise AssertionError(snippet)

@triton.jit
def accumulate(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(out_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, acc + 1.0, mask=offs < n)


@triton.jit
def log_then_scale(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = tl.log(tl.load(x_ptr + offs))
    tl.store(out_ptr + offs, y * 0.0)


@triton.jit
def racy_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)
    tl.store(out_ptr + offs, tl.load(out_ptr + offs) + x)


def test_uninitialized_buffer_read_is_reported(monkeypatch, capfd):
    monkeypatch.setenv("TRITIUM_SANITIZE", "uninit")
    out = np.zeros(8, np.float32)
    accumulate[(1,)](tritium.uninitialized(out), 8, BLOCK=8)
    err = capfd.readouterr().err
    assert ("uninitialized-read sanitizer: kernel accumulate, program (0, 0, 0), "
            "%s:%d: load lane 0 reads byte 0 of buffer 'out_ptr' (32 bytes), "
            "which nothing has written" % (__file__, line_of("acc = tl.load(out_ptr"))) in err
    np.testing.assert_array_equal(out, np.ones(8, np.float32))
    # Not marked, or masked off where it is: nothing to report.
    accumulate[(1,)](out, 8, BLOCK=8)
    accumulate[(1,)](tritium.uninitialized(out), 0, BLOCK=8)
    assert "sanitizer" not in capfd.readouterr().err


def test_uninitialized_takes_buffers_only():
    with pytest.raises(TypeError, match="argument 'n': uninitialized.. takes a tensor"):
        accumulate[(1,)](np.zeros(8, np.float32), tritium.uninitialized(8), BLOCK=8)


def test_nan_origin_is_reported(monkeypatch, capfd):
    monkeypatch.setenv("TRITIUM_SANITIZE", "nan")
    x = np.ones(4, np.float32)
    x[2] = 0
    out = np.zeros(4, np.float32)
    log_then_scale[(1,)](x, out, BLOCK=4)
    assert np.isnan(out[2])
    err = capfd.readouterr().err
    assert "math.log made -inf at lane 2 from finite operands: 0" in err
    assert err.count("sanitizer") == 1  # not the NaN the product made


def test_race_is_reported_with_both_programs(monkeypatch, capfd):
    monkeypatch.setenv("TRITIUM_SANITIZE", "race")
    x = np.ones(8, np.float32)
    out = np.zeros(4, np.float32)
    racy_sum[(2,)](x, out, BLOCK=4)
    err = capfd.readouterr().err
    assert ("race sanitizer: kernel racy_sum: program (1, 0, 0) reads byte 0 of "
            "buffer 'out_ptr' (16 bytes) at %s:%d (tile.load, lane 0); program "
            "(0, 0, 0) wrote it at %s:%d (tile.store, lane 0)"
            % (__file__, line_of("+ x)"), __file__, line_of("+ x)"))) in err


def test_sanitize_launch_option(capfd):
    x = np.ones(8, np.float32)
    out = np.zeros(4, np.float32)
    racy_sum[(2,)](x, out, BLOCK=4)  # no sanitizer asked for
    assert "sanitizer" not in capfd.readouterr().err
    for value in ("race", "nan, race", ["race"], ("overflow", "race"), True):
        out[:] = 0
        racy_sum[(2,)](x, out, BLOCK=4, sanitize=value)
        err = capfd.readouterr().err
        assert "race sanitizer: kernel racy_sum: program (1, 0, 0) reads byte 0" in err, value
    # Off again: the option is the launch's, not the kernel's.
    racy_sum[(2,)](x, out, BLOCK=4, sanitize=None)
    racy_sum[(2,)](x, out, BLOCK=4)
    assert "sanitizer" not in capfd.readouterr().err
    # Through the general path too (a keyword that is not a parameter).
    racy_sum.run(x, out, BLOCK=4, grid=(2,), sanitize="race")
    assert "race sanitizer" in capfd.readouterr().err


@pytest.mark.parametrize("value", ["leaks", "nan,leaks", ["nan", 3], 7])
def test_sanitize_launch_option_is_checked(value):
    with pytest.raises(LaunchOptionError, match="sanitize=.*expected sanitizer names"):
        accumulate[(1,)](np.zeros(8, np.float32), 8, BLOCK=8, sanitize=value)


def test_unknown_sanitizer_is_an_error(monkeypatch):
    monkeypatch.setenv("TRITIUM_SANITIZE", "nan,leaks")
    with pytest.raises(Exception, match="unknown sanitizer 'leaks'"):
        accumulate[(1,)](np.zeros(8, np.float32), 8, BLOCK=8)


@triton.jit
def shifted_copy(x_ptr, out_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs + SHIFT, mask=offs < n)  # the mask forgets SHIFT
    tl.store(out_ptr + offs, x, mask=offs < n)


def test_record_saves_a_failing_launch_for_replay(monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("TRITIUM_RECORD", str(tmp_path))
    x = np.arange(16, dtype=np.float32)
    out = np.zeros(16, np.float32)
    shifted_copy[(2,)](x, out, 16, SHIFT=0, BLOCK=8)  # fine: nothing recorded
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(Exception, match="out-of-bounds load in kernel shifted_copy, "
                                        r"program \(1, 0, 0\)"):
        shifted_copy[(2,)](x, out, 16, SHIFT=2, BLOCK=8)
    rec = tmp_path / "shifted_copy-1"
    assert "recorded the launch of shifted_copy in %s" % rec in capfd.readouterr().err
    args = (rec / "launch.args").read_text().splitlines()
    assert args == ["kernel shifted_copy", "grid 2,1,1", "num-warps 4",
                    "constexpr SHIFT=2", "constexpr BLOCK=8",
                    "arg-file x_ptr=x_ptr.npy:f32", "arg-file out_ptr=out_ptr.npy:f32",
                    "arg n=16"]
    np.testing.assert_array_equal(np.load(rec / "x_ptr.npy"), x)
    # The buffers as they were before the launch.
    np.testing.assert_array_equal(np.load(rec / "out_ptr.npy"), x[:16])
    binary = os.environ.get("TRITIUM_BIN") or os.path.join(ROOT, "build", "bin", "tritium")
    if not os.path.exists(binary):
        pytest.skip("no tritium binary to replay with (set TRITIUM_BIN)")
    p = subprocess.run([binary, "replay", str(rec)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "out-of-bounds load in kernel shifted_copy, program (1, 0, 0)" in p.stderr

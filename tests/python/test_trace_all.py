"""`tritium run --trace-all OUT.npz [--pid X,Y,Z]`: every value one program
computes, in the order its ops ran, keyed "file:line:col op" (" #k" on a
loop's later runs), in an .npz numpy reads."""

import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRITIUM_BIN") or os.path.join(ROOT, "build", "bin", "tritium")

KERNEL = '''import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(2):
        acc += x * (i + 1)
    tl.store(out_ptr + offs, acc.to(tl.float16), mask=offs < n)
'''


@pytest.mark.skipif(not os.path.exists(BINARY), reason="no tritium binary (set TRITIUM_BIN)")
def test_trace_all_writes_every_value_of_one_program(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    out = tmp_path / "all.npz"
    p = subprocess.run([BINARY, "run", str(src), "-k", "k", "-g", "2", "--trace-all", str(out),
                        "--pid", "1", "--arg", "x_ptr=ones:f32[12]",
                        "--arg", "out_ptr=zeros:f16[16]", "--arg", "n=12",
                        "--constexpr", "BLOCK=8"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "values of program (1, 0, 0) in %s" % out in p.stdout
    values = np.load(out)
    keys = list(values.files)
    assert keys[0] == "k.py:7:12 tile.get_program_id"
    assert values[keys[0]] == 1
    load = values["k.py:8:9 tile.load"]
    assert load.dtype == np.float32
    np.testing.assert_array_equal(load, [1, 1, 1, 1, 0, 0, 0, 0])
    # The loop's update, once per iteration, in order.
    np.testing.assert_array_equal(values["k.py:11:9 arith.addf"], [1, 1, 1, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(values["k.py:11:9 arith.addf #1"], [3, 3, 3, 3, 0, 0, 0, 0])
    assert values["k.py:8:41 arith.cmpi"].dtype == np.bool_
    assert values["k.py:12:30 arith.truncf"].dtype == np.float16
    assert keys.index("k.py:11:9 arith.addf") < keys.index("k.py:11:9 arith.addf #1")

"""Globals a kernel reads are fixed at its first compile: changing one
afterwards is an error at the next launch, as in Triton."""

import numpy as np
import pytest

import triton
import triton.language as tl

SCALE = tl.constexpr(3)
OFFSET = tl.constexpr(1)


@triton.jit
def scaled_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(o_ptr + offs, x * SCALE + OFFSET, mask=m)


def test_changed_global_is_reported():
    global OFFSET
    x = np.arange(10, dtype=np.float32)
    o = np.zeros_like(x)
    scaled_kernel[(1,)](x, o, 10, BLOCK=16)
    np.testing.assert_allclose(o, 3 * x + 1)
    OFFSET = tl.constexpr(2)
    try:
        with pytest.raises(RuntimeError, match="'OFFSET'.*changed.*was 1, now 2"):
            scaled_kernel[(1,)](x, o, 10, BLOCK=16)
        with pytest.raises(RuntimeError, match="'OFFSET'"):
            scaled_kernel.run(x, o, 10, BLOCK=16, grid=(1,))
    finally:
        OFFSET = tl.constexpr(1)
    scaled_kernel[(1,)](x, o, 10, BLOCK=16)  # back to the compiled value


@triton.jit
def f16_exp_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.exp(tl.load(x_ptr + offs).to(tl.float16)))


def test_compile_error_traceback_shows_the_users_code():
    import traceback
    with pytest.raises(triton.CompilationError) as info:
        f16_exp_kernel[(1,)](np.zeros(16, dtype=np.float32), BLOCK=16)
    import os
    import tritium
    package = os.path.dirname(os.path.abspath(tritium.__file__)) + os.sep
    frames = traceback.extract_tb(info.value.__traceback__)
    inside = [f for f in frames if os.path.abspath(f.filename).startswith(package)]
    assert len(inside) <= 1, frames  # the launcher's own line at most
    assert "test_globals.py:" in str(info.value) and "tl.exp" in str(info.value)

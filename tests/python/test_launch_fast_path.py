"""The cached-launch fast path agrees with the general path: argument
kinds, defaults and keywords, grids, options and specialization."""

import importlib

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.jit
def axpy_kernel(x_ptr, y_ptr, n, alpha, flag, BLOCK: tl.constexpr = 16):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    r = x * alpha + y
    if flag:
        r = r + 1.0
    tl.store(y_ptr + offs, r, mask=mask)


def test_layout_check_enables_the_fast_path():
    jit_module = importlib.import_module("tritium.jit")
    assert jit_module._FAST_LAYOUT
    assert axpy_kernel._binder is not None


@pytest.mark.parametrize("alpha", [2.0, np.float32(2.0), np.float64(2.0),
                                   2, np.int64(2)])
def test_scalar_kinds(alpha):
    x = np.arange(40, dtype=np.float32)
    y = np.ones(40, dtype=np.float32)
    axpy_kernel[(3,)](x, y, 40, alpha, False)
    np.testing.assert_allclose(y, 2 * x + 1)


def test_keywords_defaults_bool_and_options():
    x = np.arange(40, dtype=np.float32)
    y = np.zeros(40, dtype=np.float32)
    axpy_kernel[(1,)](y_ptr=y, x_ptr=x, alpha=1.0, n=40, flag=True,
                      BLOCK=64, num_warps=2, num_stages=1)
    np.testing.assert_allclose(y, x + 1)
    y[:] = 0
    axpy_kernel[(3,)](x, y, 40, 1.0, np.bool_(False))  # default BLOCK=16
    np.testing.assert_allclose(y, x)


def test_non_contiguous_and_other_dtypes():
    base = np.arange(80, dtype=np.float64)
    x = base[::2]  # a strided view: the general extent computation
    y = np.zeros(40, dtype=np.float64)
    # the kernel reads the pointer contiguously: base[0:40], in the extent
    axpy_kernel[(3,)](x, y, 40, 1.0, False)
    np.testing.assert_allclose(y, base[:40])
    with pytest.raises(Exception, match="x_ptr|out of bounds"):
        axpy_kernel[(3,)](base[70:], y, 40, 1.0, False)


def test_grid_cache_keeps_validating():
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, dtype=np.float32)
    axpy_kernel[(1,)](x, y, 16, 1.0, False)
    axpy_kernel[[1]](x, y, 16, 1.0, False)  # a list grid works too
    for bad in [(1.0,), (True,), (1, 1.0)]:
        with pytest.raises(ValueError, match="grid"):
            axpy_kernel[bad](x, y, 16, 1.0, False)


def test_errors_through_the_fast_path():
    x = np.arange(16, dtype=np.float32)
    with pytest.raises(TypeError, match="missing"):
        axpy_kernel[(1,)](x, x, 16)
    with pytest.raises(KeyError, match="nope"):
        axpy_kernel[(1,)](x, x, 16, 1.0, False, nope=1)
    with pytest.raises(TypeError, match="y_ptr"):
        axpy_kernel[(1,)](x, "y", 16, 1.0, False)
    with pytest.raises(OverflowError, match="64 bits"):
        axpy_kernel[(1,)](x, x, 2**65, 1.0, False)
    with pytest.raises(TypeError, match="launch options"):
        axpy_kernel[(1,)](x, x, 16, 1.0, False, num_warps="four")


def test_specialization_still_tracked():
    k = triton.jit(axpy_kernel.fn)
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    for _ in range(3):
        k[(4,)](x, y, 64, 1.0, False)
    assert sum(c.num_compiles for c in k._kernels.values()) == 1
    k[(4,)](x, y, 63, 1.0, False)  # 63 % 16 != 0: a new specialization
    k[(4,)](x, y, 64, 1.0, False, BLOCK=32)  # a new constexpr value
    assert len(k._kernels) == 2
    assert sum(c.num_compiles for c in k._kernels.values()) == 3
    k[(4,)](x, y, 64, 1.0, False, BLOCK=tl.constexpr(32))  # same kernel
    assert len(k._kernels) == 2

"""@triton.constexpr_function: Python functions kernels call with
compile-time values, run by the compiler (loops included), and callable
from the host as usual; runtime arguments are located errors."""

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.constexpr_function
def block_for(n):
    b = 16
    while b < n:
        b *= 2
    return b


@triton.constexpr_function
def ordered(a, b):
    return (a, b) if a > b else (b, a)


@triton.constexpr_function
def total(n):
    s = 0
    for i in range(n):
        s += i
    return s


@triton.jit
def fill(out_ptr, N: tl.constexpr):
    B: tl.constexpr = block_for(N)
    hi, lo = ordered(3, N)
    offs = tl.arange(0, B)
    tl.store(out_ptr + offs, offs * 0 + hi * 100 + lo + total(4), mask=offs < N)


def test_kernels_call_constexpr_functions():
    out = np.zeros(40, np.int32)
    fill[(1,)](out, 37)
    assert out[:37].tolist() == [3700 + 3 + 6] * 37
    assert out[37:].tolist() == [0, 0, 0]


def test_the_host_calls_them_as_python():
    assert block_for(37) == 64 and ordered(1, 2) == (2, 1) and total(4) == 6


def test_runtime_arguments_are_refused():
    @triton.jit
    def bad(out_ptr, x):
        tl.store(out_ptr, block_for(x))

    with pytest.raises(triton.CompilationError) as info:
        bad[(1,)](np.zeros(1, np.int32), 5)
    assert "constexpr_function 'block_for' needs compile-time arguments; 'n' is int32" \
        in info.value.error_message
    assert "test_constexpr_function.py:" in str(info.value)

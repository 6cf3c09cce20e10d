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


@triton.jit
def types_of_values(out_ptr, LIT: tl.constexpr, EXPECTED: tl.constexpr):
    kept: tl.constexpr = LIT
    tl.static_assert(kept.type == tl.constexpr_type(LIT))
    tl.static_assert(isinstance(LIT.type, tl.constexpr_type))
    tl.static_assert(not isinstance(LIT.type, tl.dtype))
    # A plain assignment makes a number a tensor in Triton: its type is the
    # tensor's dtype.
    lifted = LIT
    tl.static_assert(lifted.type == EXPECTED)
    tl.store(out_ptr, lifted)


@pytest.mark.parametrize("lit, expected", [(10, tl.int32), (2**40, tl.int64),
                                           (2.5, tl.float32)])
def test_types_of_compile_time_values(lit, expected):
    out = np.zeros(1, np.float64)
    types_of_values[(1,)](out, lit, expected)
    assert out[0] == lit
    assert tl.constexpr_type(3) == tl.constexpr_type(3) != tl.constexpr_type(4)

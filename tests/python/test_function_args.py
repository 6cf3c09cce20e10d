"""@jit functions given as tl.constexpr arguments (an activation picked by
the caller): beside the kernel, from another module, or defined inside a
function; each function is its own specialization."""

import numpy as np
import pytest

import triton
import triton.language as tl

from test_early_return import helper_returns_early


@triton.jit
def plus_one(x):
    return x + 1


@triton.jit
def apply(out_ptr, FN: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, FN(tl.load(out_ptr + offs)))


def run(fn, values):
    out = np.array(values, np.int32)
    apply[(1,)](out, fn, len(values))
    return out.tolist()


def test_function_beside_the_kernel():
    assert run(plus_one, [1, 2, 3, 4]) == [2, 3, 4, 5]


@triton.jit
def apply_scalar(out_ptr, FN: tl.constexpr):
    tl.store(out_ptr, FN(tl.load(out_ptr)))


@pytest.mark.parametrize("v", [2, 5])
def test_function_from_another_module(v):
    out = np.array([v], np.int32)
    apply_scalar[(1,)](out, helper_returns_early)
    assert out[0] == (v * 2 if v > 3 else v + 1)


def test_function_defined_inside_a_function():
    scale = 3

    @triton.jit
    def times_scale(x):
        return x * scale

    assert run(times_scale, [1, 2, 3, 4]) == [3, 6, 9, 12]
    # Another function is another specialization.
    assert run(plus_one, [1, 2, 3, 4]) == [2, 3, 4, 5]


def test_a_non_function_name_is_refused():
    @triton.jit
    def bad(out_ptr, FN: tl.constexpr):
        tl.store(out_ptr, FN(1))

    with pytest.raises(triton.CompilationError, match="'FN'|FN"):
        bad[(1,)](np.zeros(1, np.int32), "plus_one")

"""Returns under runtime conditions, nested in constexpr and runtime ifs and
in @jit helpers: the code after them runs exactly on the paths that do not
return; and conditional expressions run only the side they pick."""

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.jit
def nested_in_constexpr_if(flag_ptr, out_ptr, MODE: tl.constexpr):
    if MODE == 1:
        if tl.load(flag_ptr):
            tl.store(out_ptr, 10)
            return
    else:
        tl.store(out_ptr + 1, 5)
    tl.store(out_ptr, 1)


@triton.jit
def nested_runtime_ifs(flag_ptr, out_ptr):
    a = tl.load(flag_ptr)
    b = tl.load(flag_ptr + 1)
    x = 0
    if a > 0:
        if b > 0:
            tl.store(out_ptr, 100)
            return
        x = 7
    tl.store(out_ptr, x + 1)


@triton.jit
def helper_returns_early(v):
    if v > 3:
        return v * 2
    return v + 1


@triton.jit
def after_helper_call(flag_ptr, out_ptr):
    v = helper_returns_early(tl.load(flag_ptr))
    tl.store(out_ptr, v)
    tl.store(out_ptr + 1, 9)


@triton.jit
def deep_chain(flag_ptr, out_ptr, K: tl.constexpr):
    a = tl.load(flag_ptr)
    b = tl.load(flag_ptr + 1)
    acc = 0
    if K > 0:
        if a == 1:
            return
        acc += 1
        if K > 1:
            if b == 1:
                tl.store(out_ptr, acc + 50)
                return
            acc += 10
    tl.store(out_ptr, acc + 1000)


@triton.jit
def ternary_side_effects(flag_ptr, out_ptr):
    c = tl.load(flag_ptr)
    tl.store(out_ptr, 1) if c > 0 else tl.store(out_ptr + 1, 2)
    v = tl.load(out_ptr + 2) if c > 0 else 3
    tl.store(out_ptr + 3, v)


def run(kernel, flags, n_out=4, **kw):
    f = np.array(flags, np.int32)
    out = np.zeros(n_out, np.int32)
    kernel[(1,)](f, out, **kw)
    return out.tolist()


@pytest.mark.parametrize("flag", [0, 1])
def test_return_inside_constexpr_if(flag):
    assert run(nested_in_constexpr_if, [flag], MODE=1)[:2] == ([10, 0] if flag else [1, 0])
    assert run(nested_in_constexpr_if, [flag], MODE=0)[:2] == [1, 5]


@pytest.mark.parametrize("a, b", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_return_inside_nested_runtime_ifs(a, b):
    expected = 100 if (a > 0 and b > 0) else (8 if a > 0 else 1)
    assert run(nested_runtime_ifs, [a, b])[0] == expected


@pytest.mark.parametrize("v", [2, 5])
def test_helper_return_does_not_end_the_caller(v):
    assert run(after_helper_call, [v])[:2] == [v * 2 if v > 3 else v + 1, 9]


@pytest.mark.parametrize("K", [0, 1, 2])
@pytest.mark.parametrize("a, b", [(0, 0), (0, 1), (1, 0)])
def test_returns_through_several_levels(K, a, b):
    if K == 0:
        expected = 1000
    elif a == 1:
        expected = 0
    elif K == 1:
        expected = 1001
    else:
        expected = 51 if b == 1 else 1011
    assert run(deep_chain, [a, b], K=K)[0] == expected


@pytest.mark.parametrize("c", [0, 1])
def test_conditional_expression_runs_one_side(c):
    f = np.array([c], np.int32)
    out = np.array([0, 0, 6, 0], np.int32)
    ternary_side_effects[(1,)](f, out)
    assert out.tolist() == ([1, 0, 6, 6] if c else [0, 2, 6, 3])

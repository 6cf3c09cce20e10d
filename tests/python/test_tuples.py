"""Tuples in kernels: tuple arguments (nested, with None and tl.constexpr
elements, namedtuples and other tuple subclasses), constexpr tuples,
tuples built in the kernel (displays, comprehensions, tl.tuple), their
operators, and the errors for what cannot be passed."""

import collections

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.jit
def _sum_all(ptrs):
    acc = tl.load(ptrs[0])
    for i in tl.static_range(1, len(ptrs)):
        acc += tl.load(ptrs[i])
    return acc


@triton.jit
def tuple_args_kernel(out, ptrs, scalars, nested, K: tl.constexpr):
    tl.store(out + 0, _sum_all(ptrs))
    a, b = scalars
    tl.store(out + 1, a * b)
    tl.static_assert(nested[1] is None)
    tl.static_assert(nested[2][1] == 5)
    tl.store(out + 2, tl.load(nested[0]) + nested[2][0] + nested[2][1] + K[0] * K[1])
    incremented = tl.tuple([x + 1 for x in scalars])
    tl.store(out + 3, incremented[0] + incremented[1])


def test_tuple_arguments_nested_with_constants():
    out = np.zeros(4, np.int32)
    xs = [np.array([v], np.int32) for v in (1, 10, 100)]
    tuple_args_kernel[(1,)](out, tuple(xs), (6, 7),
                            (xs[0], None, (1000, tl.constexpr(5))), (2, 3))
    assert out.tolist() == [111, 42, 1 + 1000 + 5 + 6, 7 + 8]
    # Another length and other values reuse nothing stale.
    tuple_args_kernel[(1,)](out, (xs[2],), (2, 1),
                            (xs[1], None, (3, tl.constexpr(5))), (1, 1))
    assert out.tolist() == [100, 2, 10 + 3 + 5 + 1, 3 + 2]


def test_tuple_specialization_is_in_the_signature():
    out = np.zeros(4, np.int32)
    xs = tuple(np.array([v], np.int32) for v in (1, 2))
    k = tuple_args_kernel.warmup(out, xs, (16, 1),
                                 (xs[0], None, (3, tl.constexpr(5))), (2, 3),
                                 grid=(1,))
    sig = k.metadata.signature
    assert "(*i32:16,*i32:16),(i32:16,i32:1),(*i32:16,None,(i32,5))" in sig, sig


Pair = collections.namedtuple("Pair", ["ptr", "n"])


@triton.jit
def namedtuple_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x[0] + offs, mask=offs < x[1], other=0.0)
    tl.store(out + offs, v * 2, mask=offs < x[1])


def test_namedtuples_and_tuple_subclasses_pass_as_tuples():
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    namedtuple_kernel[(1,)](Pair(x, 5), out, 8)
    assert out.tolist() == [0, 2, 4, 6, 8, 0, 0, 0]


@triton.jit
def strides_kernel(X, shape: tl.constexpr, strides, m_n):
    offs = (tl.arange(0, shape[0])[:, None] * strides[0] +
            tl.arange(0, shape[1])[None, :] * strides[1])
    data = tl.load(X + offs)
    for i in tl.range(0, m_n[1]):
        data = m_n[0] * data
    tl.store(X + offs, data)


def test_shape_and_strides_tuples():
    x = np.arange(64, dtype=np.int64).reshape(8, 8)
    expected = 8 * x
    strides_kernel[(1,)](x, x.shape, tuple(s // 8 for s in x.strides), (2, 3))
    np.testing.assert_array_equal(x, expected)


@triton.jit
def tuple_ops_kernel(out):
    t = (0, 1) + (2, 3)
    for i in tl.static_range(4):
        tl.store(out + i, t[i])
    tl.store(out + 4, (1, 2) == (1, 2))
    tl.store(out + 5, (1, 2) == (1, 3))
    tl.store(out + 6, (1, 2) < (1, 3))
    tl.store(out + 7, len((5,) * 3))
    tl.static_assert(((3, 4) or (5, 6)) == (3, 4))
    tl.static_assert(((3, 4) and ()) == ())
    tl.static_assert((() and tl.program_id(0)) == ())
    squares = [i * i for i in range(4) if i != 2]
    tl.store(out + 8, squares[0] + squares[1] + squares[2])
    pairs = [a * b for a, b in ((1, 2), (3, 4))]
    tl.store(out + 9, pairs[0] + pairs[1])


def test_tuple_operators_and_comprehensions():
    out = np.zeros(10, np.int32)
    tuple_ops_kernel[(1,)](out)
    assert out.tolist() == [0, 1, 2, 3, 1, 0, 1, 3, 0 + 1 + 9, 2 + 12]


@triton.jit
def _double(x):
    return x * 2


@triton.jit
def takes_tuple(out, fns):
    tl.store(out, 1)


def test_a_function_inside_a_tuple_is_a_named_error():
    out = np.zeros(1, np.int32)
    with pytest.raises(TypeError, match=r"argument 'fns\[1\]': a @jit function"):
        takes_tuple[(1,)](out, (1, _double))


@triton.jit
def comprehension_over_tensor(out):
    t = [x for x in tl.arange(0, 4)]
    tl.store(out, t[0])


def test_a_comprehension_over_a_tensor_is_a_located_error():
    out = np.zeros(4, np.int32)
    with pytest.raises(triton.CompilationError) as info:
        comprehension_over_tensor[(1,)](out)
    msg = str(info.value)
    assert "iterates over a tuple" in msg
    line = comprehension_over_tensor.fn.__code__.co_firstlineno + 2
    assert "test_tuples.py:%d:" % line in msg

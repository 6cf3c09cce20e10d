"""Kernels wherever Python allows them: inside functions, methods, loops,
under decorator factories, written by exec(), with new texts through
_unsafe_update_src; free names resolved as Python resolves them."""

import functools
import inspect
import textwrap

import numpy as np
import pytest

import triton
import triton.language as tl

SCALE = tl.constexpr(3)
PLAIN = 7


@triton.jit
def top_helper(x):
    return x * 2


def _run(kernel, n=64, **kw):
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    kernel[(1,)](x, out, n, BLOCK=n, **kw)
    return x, out


def test_kernel_inside_a_function_reads_closure_values():
    factor = 5
    dtype = tl.float32
    shift = (1, 2)

    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(X + offs, mask=offs < n).to(dtype)
        tl.store(Out + offs, x * factor + shift[1], mask=offs < n)

    x, out = _run(kernel)
    np.testing.assert_allclose(out, x * 5 + 2)


def test_nested_helpers_and_module_globals():
    @triton.jit
    def inner(x):
        return x + SCALE

    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(X + offs)
        tl.store(Out + offs, top_helper(inner(x)))

    x, out = _run(kernel)
    np.testing.assert_allclose(out, (x + 3) * 2)


def test_each_nested_function_keeps_its_own_scope():
    def make(k):
        @triton.jit
        def combine(a, b):
            return a + b * k
        return combine

    c2, c3 = make(2), make(3)

    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(X + offs)
        tl.store(Out + offs, c2(x, 1.0) + c3(x, 1.0))

    x, out = _run(kernel)
    np.testing.assert_allclose(out, (x + 2) + (x + 3))


def test_kernels_made_in_a_loop_see_their_iteration():
    results = []
    for k in (1, 4):
        @triton.jit
        def kernel(X, Out, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(Out + offs, tl.load(X + offs) + k)
        results.append(_run(kernel))
    np.testing.assert_allclose(results[0][1], results[0][0] + 1)
    np.testing.assert_allclose(results[1][1], results[1][0] + 4)


class Ops:
    @staticmethod
    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Out + offs, -tl.load(X + offs))


def test_kernel_in_a_class_body():
    x, out = _run(Ops.kernel)
    np.testing.assert_allclose(out, -x)


def _factory(**options):
    def decorate(fn):
        return functools.wraps(fn)(triton.jit(**options)(fn))
    return decorate


def test_kernel_under_a_decorator_factory():
    @_factory(do_not_specialize=["n"])
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Out + offs, tl.load(X + offs) * 2, mask=offs < n)

    x, out = _run(kernel)
    np.testing.assert_allclose(out, x * 2)


def test_kernel_written_by_exec():
    src = textwrap.dedent("""
        @triton.jit
        def kernel(X, Out, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(Out + offs, tl.load(X + offs) + 10)
    """)
    namespace = {}
    exec(src, globals(), namespace)  # noqa: S102 - the case under test
    x, out = _run(namespace["kernel"])
    np.testing.assert_allclose(out, x + 10)


def test_unsafe_update_src_as_triton_tests_patch_kernels():
    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(X + offs)
        tl.store(Out + offs, GENERATE_TEST_HERE)  # noqa: F821

    assert kernel.src.startswith("def kernel(X, Out, n, BLOCK")
    patched = triton.JITFunction(kernel.fn)
    patched._unsafe_update_src(patched.src.replace("GENERATE_TEST_HERE",
                                                   "x * x"))
    x, out = _run(patched)
    np.testing.assert_allclose(out, x * x)


def test_errors_name_the_users_file_line_and_column():
    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Out + offs, tl.exp(tl.load(X + offs).to(tl.float16)))

    line = inspect.getsourcelines(kernel.fn)[1] + 3
    with pytest.raises(triton.CompilationError) as e:
        _run(kernel)
    text = str(e.value)
    assert "%s:%d:" % (__file__, line) in text
    assert "tl.exp expects float32 or float64, got float16" in text
    # The caret sits under the call in the file's own line.
    src_line = inspect.getsourcelines(kernel.fn)[0][3].rstrip("\n")
    assert src_line in text


def test_a_closure_value_kernels_cannot_use_is_a_located_error():
    table = [1, 2, 3]

    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Out + offs, tl.load(X + offs) + table)

    line = inspect.getsourcelines(kernel.fn)[1] + 3
    with pytest.raises(triton.CompilationError) as e:
        _run(kernel)
    text = str(e.value)
    assert "%s:%d:50: error: 'table' is a list in the enclosing scope" % (
        __file__, line) in text


def test_a_plain_module_global_is_refused_as_in_triton():
    @triton.jit
    def kernel(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Out + offs, tl.load(X + offs) + PLAIN)

    with pytest.raises(triton.CompilationError) as e:
        _run(kernel)
    assert "cannot read global variable 'PLAIN'" in str(e.value)


def test_exec_of_texts_that_differ_only_inside_the_kernel():
    template = textwrap.dedent("""
        @triton.jit
        def kernel(X, Out, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(Out + offs, tl.load(X + offs) + ADD)
    """)
    kernels = []
    for add in ("1", "2", "3"):
        namespace = {}
        exec(template.replace("ADD", add), globals(),  # noqa: S102
             namespace)
        kernels.append(namespace["kernel"])
    for add, kernel in zip((1, 2, 3), kernels):
        x, out = _run(kernel)
        np.testing.assert_allclose(out, x + add)

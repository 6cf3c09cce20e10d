"""The launcher's C fast path (tritium_launch.abi3.so): repeated launches
run there and agree with the Python launcher; everything it does not take
(first launches, new constexprs, unusual arguments, errors) still goes
through Python with the same results and the same messages."""

import os

import numpy as np
import pytest

import triton
import triton.language as tl
from tritium import _capi, errors


def _module():
    module = _capi.launch_module()
    if module is None:
        path = os.path.join(os.path.dirname(_capi._lib_path),
                            _capi.LAUNCH_MODULE)
        assert not os.path.isfile(path) or \
            os.environ.get("TRITIUM_C_LAUNCHER") == "0", \
            "%s is there but does not load" % path
        pytest.skip("no tritium_launch extension beside %s" % _capi._lib_path)
    return module


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, alpha, flag, BLOCK: tl.constexpr = 16):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = tl.load(x_ptr + offs, mask=mask) * alpha
    if flag:
        r = r + 1
    tl.store(y_ptr + offs, r, mask=mask)


def fresh():
    """A kernel object of its own, so the counters start at zero."""
    return triton.jit(scale_kernel.fn)


def test_repeated_launches_run_in_c():
    _module()
    k = fresh()
    x = np.arange(100, dtype=np.float32)
    for i in range(5):
        y = np.zeros_like(x)
        k[(7,)](x, y, 100, float(i), i % 2 == 1)
        np.testing.assert_array_equal(y, x * i + (i % 2))
    assert k._c.slow_launches == 1  # the first launch compiles, in Python
    assert k._c.fast_launches == 4


def test_keywords_defaults_grid_functions_and_options():
    _module()
    k = fresh()
    x = np.arange(100, dtype=np.float64)
    grid = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)  # noqa: E731
    for _ in range(3):
        y = np.zeros_like(x)
        k[grid](y_ptr=y, x_ptr=x, alpha=2.0, n=100, flag=False, BLOCK=32,
                num_warps=2)
        np.testing.assert_array_equal(y, 2 * x)
    assert (k._c.slow_launches, k._c.fast_launches) == (1, 2)
    # Other launch keywords, another constexpr: each new combination goes
    # through Python once, then stays in C. The last needs nothing new (the
    # default BLOCK was compiled, options without keywords were packed).
    for kw, slow in (({"num_warps": 8}, 1), ({"BLOCK": 64}, 1), ({}, 0)):
        before = k._c.slow_launches
        for _ in range(2):
            y = np.zeros_like(x)
            k[grid](x, y, 100, 3.0, True, **kw)
            np.testing.assert_array_equal(y, 3 * x + 1)
        assert k._c.slow_launches == before + slow, kw
    # run(..., grid=) is the autotuner's way in.
    y = np.zeros_like(x)
    k.run(x, y, 100, 1.0, False, grid=(7,))
    np.testing.assert_array_equal(y, x)


def test_integer_classes_specialize_as_in_python():
    _module()
    k = fresh()
    x = np.arange(64, dtype=np.int32)
    for n in (64, 64, 63, 63, 1, 1):  # %16, plain, ==1: three signatures
        y = np.zeros_like(x)
        k[(4,)](x, y, n, 2, False)
        expect = np.where(np.arange(64) < n, 2 * x, 0)
        np.testing.assert_array_equal(y, expect)
    assert sum(c.num_compiles for c in k._kernels.values()) == 3


def test_arguments_it_leaves_to_python():
    _module()
    k = fresh()
    base = np.arange(80, dtype=np.float32)
    y = np.zeros(40, dtype=np.float32)
    k[(3,)](base[:40], y, 40, 1.0, False)
    k[(3,)](base[:40], y, 40, 1.0, False)
    fast = k._c.fast_launches
    # A strided view, a numpy scalar, a huge unsigned int: Python packs them.
    k[(3,)](base[::2], y, 40, 1.0, False)
    np.testing.assert_array_equal(y, base[:40])
    k[(3,)](base[:40], y, 40, np.float32(2.0), False)
    np.testing.assert_array_equal(y, 2 * base[:40])
    assert k._c.fast_launches == fast


def test_errors_keep_their_names_after_warm_up():
    _module()
    k = fresh()
    x = np.arange(16, dtype=np.float32)
    y = np.zeros_like(x)
    for _ in range(2):
        k[(1,)](x, y, 16, 1.0, False)
    assert k._c.fast_launches == 1
    with pytest.raises(TypeError, match="missing"):
        k[(1,)](x, y, 16)
    with pytest.raises(TypeError, match="multiple values"):
        k[(1,)](x, y, 16, 1.0, False, x_ptr=x)
    with pytest.raises(KeyError, match="nope"):
        k[(1,)](x, y, 16, 1.0, False, nope=1)
    with pytest.raises(ValueError, match="grid"):
        k[(-1,)](x, y, 16, 1.0, False)
    with pytest.raises(ZeroDivisionError):
        k[lambda meta: (1 // 0,)](x, y, 16, 1.0, False)
    # A failing launch raises the C library's error, with the program and
    # the argument, and releases the lock: the next launch runs.
    slow = k._c.slow_launches
    with pytest.raises(errors.InterpreterError,
                       match=r"out-of-bounds load .*program \(1, 0, 0\).*'x_ptr'"):
        k[(2,)](x, y, 32, 1.0, False)
    assert k._c.slow_launches == slow  # raised from the C path
    assert _capi.lock.acquire(blocking=False)
    _capi.lock.release()
    k[(1,)](x, y, 16, 4.0, False)
    np.testing.assert_array_equal(y, 4 * x)


def test_changed_globals_are_still_checked():
    _module()
    import types
    module = types.ModuleType("c_launcher_globals")
    source = ("import triton\nimport triton.language as tl\n"
              "SCALE = tl.constexpr(2)\n"
              "@triton.jit\n"
              "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
              "    offs = tl.arange(0, BLOCK)\n"
              "    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * SCALE,"
              " mask=offs < n)\n")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "_c_launcher_globals_tmp.py")
    with open(path, "w") as f:
        f.write(source)
    try:
        module.__file__ = path
        exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102
        x = np.ones(16, dtype=np.float32)
        for _ in range(3):
            module.k[(1,)](x, 16, BLOCK=16)
        np.testing.assert_array_equal(x, 8)
        module.SCALE = tl.constexpr(3)
        with pytest.raises(RuntimeError, match="SCALE"):
            module.k[(1,)](x, 16, BLOCK=16)
    finally:
        os.remove(path)


def test_time_launches_checks_its_arguments():
    module = _module()
    with pytest.raises(ValueError, match="time_launches"):
        module.time_launches(1, b"x", b"", b"", 1)


@triton.jit
def through_table(table, out, BLOCK: tl.constexpr):
    # The destination is an address read from memory.
    dst = tl.load(table).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, offs.to(tl.float32) * 2.0)


def test_kernels_that_read_pointers_leave_host_launches_to_python():
    # Interpreted launches of a kernel that casts integers to pointers hand
    # the interpreter the memory it may reach: the Python path does that,
    # so the C path passes them on (its GPU launches stay in C).
    _module()
    k = triton.jit(through_table.fn)
    out = np.zeros(16, dtype=np.float32)
    table = np.array([out.ctypes.data], dtype=np.uint64)  # into an argument
    for _ in range(3):
        out[:] = 0
        k[(1,)](table, out, BLOCK=16)
        np.testing.assert_array_equal(out, np.arange(16) * 2.0)
    assert k._c.host_slow
    assert k._c.fast_launches == 0
    assert k._c.slow_launches == 3
    assert not fresh()._c_launcher().host_slow

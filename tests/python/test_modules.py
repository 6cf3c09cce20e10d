"""@jit helpers and constexpr globals imported from other Python modules:
the modules are written to a temporary folder on sys.path, imported, and
their kernels launched on numpy arrays."""

import importlib
import sys
import textwrap
import uuid

import numpy as np
import pytest

import triton


@pytest.fixture
def mods(tmp_path, monkeypatch):
    """Writes modules under tmp_path, with __P__ in names replaced by a
    prefix unique to the test (so sys.modules and the compiler's registry
    never mix tests), and imports them."""
    prefix = "tm%s_" % uuid.uuid4().hex[:8]
    monkeypatch.syspath_prepend(str(tmp_path))

    class Mods:
        root = tmp_path

        @staticmethod
        def name(base):
            return prefix + base

        @staticmethod
        def write(relpath, text):
            relpath = relpath.replace("__P__", prefix)
            text = textwrap.dedent(text).replace("__P__", prefix)
            path = tmp_path / relpath
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            return path

        @staticmethod
        def load(base):
            importlib.invalidate_caches()
            return importlib.import_module(prefix + base)

    yield Mods
    for name in list(sys.modules):
        if name.startswith(prefix):
            del sys.modules[name]


HELPERS = """\
    import triton
    import triton.language as tl

    BLOCK: tl.constexpr = 16
    SCALE = tl.constexpr(2.0)


    @triton.jit
    def add_one(x):
        return x + OFFSET  # OFFSET is this module's global


    OFFSET = tl.constexpr(1)
    """


def run16(kernel):
    x = np.arange(16, dtype=np.float32)
    out = np.full(16, -1.0, dtype=np.float32)
    kernel[(1,)](x, out, 16)
    return x, out


def test_from_import_alias_and_module_attributes(mods):
    mods.write("__P__helpers.py", HELPERS)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        import __P__helpers
        from __P__helpers import add_one as inc, BLOCK
        from __P__helpers import add_one


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, BLOCK)
            m = offs < n
            x = tl.load(X + offs, mask=m)
            y = inc(x) * __P__helpers.SCALE + __P__helpers.add_one(x) + add_one(x)
            tl.store(O + offs, y, mask=m)
        """)
    kern = mods.load("kern")
    x, out = run16(kern.k)
    np.testing.assert_allclose(out, (x + 1) * 2 + (x + 1) + (x + 1))


def test_module_alias_of_a_package_submodule(mods):
    mods.write("__P__pkg/__init__.py", "")
    mods.write("__P__pkg/sub.py", """\
        import triton
        import triton.language as tl

        CONST = tl.constexpr(5)


        @triton.jit
        def fn(x):
            return x * CONST
        """)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        from __P__pkg import sub as S
        import __P__pkg.sub


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, S.fn(x) + S.CONST + __P__pkg.sub.fn(x),
                     mask=offs < n)
        """)
    x, out = run16(mods.load("kern").k)
    np.testing.assert_allclose(out, 10 * x + 5)


def test_transitive_helpers_read_their_own_modules(mods):
    # b's K is 10; a's K is 1000 and must not leak into b's helper.
    mods.write("__P__b.py", """\
        import triton
        import triton.language as tl

        K: tl.constexpr = 10


        @triton.jit
        def addk(x):
            return x + K
        """)
    mods.write("__P__a.py", """\
        import triton
        import triton.language as tl
        from __P__b import addk

        K: tl.constexpr = 1000


        @triton.jit
        def via_b(x):
            return addk(x) + K
        """)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        from __P__a import via_b


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, via_b(x), mask=offs < n)
        """)
    x, out = run16(mods.load("kern").k)
    np.testing.assert_allclose(out, x + 1010)


def test_relative_imports_in_a_package(mods):
    mods.write("__P__pkg/__init__.py", """\
        from .ops import neg as negate
        """)
    mods.write("__P__pkg/consts.py", """\
        import triton.language as tl
        N: tl.constexpr = 5
        """)
    mods.write("__P__pkg/ops.py", """\
        import triton
        from . import consts


        @triton.jit
        def neg(x):
            return -x + consts.N
        """)
    mods.write("__P__pkg/kern.py", """\
        import triton
        import triton.language as tl
        from . import ops
        from .consts import N
        from . import negate


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, ops.neg(x) + N + negate(x), mask=offs < n)
        """)
    x, out = run16(mods.load("pkg.kern").k)
    np.testing.assert_allclose(out, -2 * x + 15)


def test_helper_imports_the_kernels_module_back(mods):
    mods.write("__P__back.py", """\
        import triton
        import __P__kern


        @triton.jit
        def h(x):
            return x * __P__kern.FACTOR
        """)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        import __P__back

        FACTOR = tl.constexpr(3)


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, __P__back.h(x), mask=offs < n)
        """)
    x, out = run16(mods.load("kern").k)
    np.testing.assert_allclose(out, 3 * x)


def test_compile_error_in_a_helper_names_its_file_and_line(mods):
    path = mods.write("__P__bad.py", """\
        import triton
        import triton.language as tl


        @triton.jit
        def wrong(x):
            return x + tl.arange(0, 3)
        """)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        import __P__bad


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, __P__bad.wrong(x), mask=offs < n)


        @triton.jit
        def missing(X, O, n):
            offs = tl.arange(0, 16)
            tl.store(O + offs, __P__bad.nothing(tl.load(X + offs)))
        """)
    kern = mods.load("kern")
    with pytest.raises(triton.CompilationError) as info:
        run16(kern.k)
    message = str(info.value)
    assert "%s:7:" % path in message, message
    assert "return x + tl.arange(0, 3)" in message
    with pytest.raises(triton.CompilationError,
                       match="module '%s' has no jit function or constexpr "
                             "named 'nothing'" % mods.name("bad")):
        run16(kern.missing)


def test_changed_global_of_another_module_is_reported(mods):
    mods.write("__P__helpers.py", HELPERS)
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        import __P__helpers


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            x = tl.load(X + offs, mask=offs < n)
            tl.store(O + offs, __P__helpers.add_one(x) * __P__helpers.SCALE,
                     mask=offs < n)
        """)
    helpers = mods.load("helpers")
    kern = mods.load("kern")
    x, out = run16(kern.k)
    np.testing.assert_allclose(out, (x + 1) * 2)
    # Read through an attribute of the module.
    helpers.SCALE = triton.language.constexpr(3.0)
    with pytest.raises(RuntimeError,
                       match="'%s.SCALE'.*changed.*was 2.0, now 3.0"
                       % mods.name("helpers")):
        run16(kern.k)
    helpers.SCALE = triton.language.constexpr(2.0)
    # Read by the helper in its own module.
    helpers.OFFSET = triton.language.constexpr(5)
    with pytest.raises(RuntimeError,
                       match="'%s.OFFSET'.*changed" % mods.name("helpers")):
        run16(kern.k)
    helpers.OFFSET = triton.language.constexpr(1)
    run16(kern.k)


def test_unregistered_module_cannot_be_called(mods):
    # A module without a source file (built in memory) is not registered.
    import types
    fake = types.ModuleType(mods.name("fake"))
    sys.modules[fake.__name__] = fake
    mods.write("__P__kern.py", """\
        import triton
        import triton.language as tl
        from __P__fake import f


        @triton.jit
        def k(X, O, n):
            offs = tl.arange(0, 16)
            tl.store(O + offs, f(tl.load(X + offs)))
        """)
    fake.f = None
    with pytest.raises(triton.CompilationError,
                       match="imported from a module whose source"):
        run16(mods.load("kern").k)


def test_import_scan_names_every_form():
    """The import scan (text, no parse) finds what ast would: aliases,
    dotted names, relative imports against the package, parenthesized and
    continued lists, imports inside functions and after a semicolon."""
    from tritium._modules import _imported_names
    text = textwrap.dedent("""\
        import a.b.c as d, e
        from . import x, y as z
        from ..pkg.mod import (p,
           q as r, *)
        from k import *
        x = 1; import semi
        def f():
            from inner import g  # a comment
        from cont \\
          import h
        """)
    assert _imported_names(text, "top.sub") == [
        "a", "a.b", "a.b.c", "e", "top.sub", "top.sub.x", "top.sub.y",
        "top.pkg.mod", "top.pkg.mod.p", "top.pkg.mod.q", "k", "semi",
        "inner", "inner.g", "cont", "cont.h"]
    # Beyond the top-level package, or relative with no package: nothing.
    assert _imported_names("from ... import x\n", "top.sub") == []
    assert _imported_names("from . import x\n", "") == []


@pytest.mark.parametrize("source, name", [
    ("@jit\ndef k(a,\n      b):\n    x = 1\n    # kept\n  # dropped\n\n# dropped\ny = 2\n", "k"),
    ("@autotune(\n    configs=[],\n)\n@jit\ndef k(\n    a,\n):\n    return a\n\n\ndef other():\n    pass\n", "k"),
    ('def k():\n    s = """\nnot the end\n"""\n    return s\nz = 1\n', "k"),
    ("def k():\n    v = (1 +\n2)\n    return v\n", "k"),
])
def test_source_block_matches_inspect(source, name):
    """A top-level function's lines, found without the tokenizer, are
    inspect.getblock's (a cut inside a string or brackets falls back to
    it)."""
    import inspect
    from tritium._source import _top_level_block
    lines = source.splitlines(True)
    assert _top_level_block(lines, 0) in (None, inspect.getblock(lines))
    fast = _top_level_block(lines, 0)
    if "not the end" not in source and "(1 +" not in source:
        assert fast == inspect.getblock(lines)

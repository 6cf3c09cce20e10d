"""Where a @jit function's text comes from, for JITFunction.

The file and lines of the function (``_source.origin``), the text
``_unsafe_update_src`` gives instead, and the ``_source.Made`` text of a
function the frontend cannot find by name in its file (nested, exec'd or
given a new text), with the modules its nested helpers import; and the
constexpr record that names a @jit function passed as an argument.
"""

import re
import sys

from . import _capi, _modules, _source


class SourceText:
    """The source side of JITFunction: reads ``fn``, ``_origin``, ``_src``,
    ``_kernels`` and ``_fast_kernels``, which JITFunction sets."""

    @property
    def origin(self):
        """Where the function's source is (_source.Origin)."""
        if self._origin is None:
            self._origin = _source.origin(self.fn)
        return self._origin

    @property
    def file(self):
        return self.origin.path

    @property
    def src(self):
        """The function's text from its ``def`` line on, dedented (as
        Triton's ``JITFunction.src``)."""
        if self._src is None:
            return _source.dedented_def(self.origin.lines)
        return self._src

    def _unsafe_update_src(self, new_src):
        """Compiles the kernel from `new_src` (a dedented text from the
        ``def`` line on, as ``src`` gives) from now on; lines that keep
        their place keep their locations in the file."""
        self._src = new_src
        self._kernels.clear()
        self._fast_kernels.clear()
        # jit.py: whether the source casts to pointers, and the C launcher
        # made knowing it, are made again.
        self.__dict__.pop("_reads_ptrs", None)
        if "_c" in self.__dict__:
            self._c = None

    def _lines(self):
        """(source lines with indentation, first line number): the file's,
        or those of the text given by _unsafe_update_src, placed where the
        function's ``def`` line is in the file."""
        o = self.origin
        if self._src is None:
            return o.lines, o.first
        pad = o.lines[0][:len(o.lines[0]) - len(o.lines[0].lstrip(" \t"))]
        def_at = o.first
        for i, line in enumerate(o.lines):
            if re.match(r"\s*(async\s+)?def\s", line):
                def_at = o.first + i
                break
        lines = [(pad + line if line.strip() else line)
                 for line in self._src.splitlines(True)]
        return lines, def_at

    def _made_text(self, counter):
        """The _source.Made text of a function the frontend cannot find by
        name in its file (nested, exec'd or given a new text); None for a
        top-level function, which compiles from its file."""
        if self._src is None and self.origin.top_level:
            return None
        lines, first = self._lines()
        return _source.make(self, lines, first, self.origin.path, counter)

    def _made_for_import(self, counter):
        """As _made_text, with a module name of its own for helpers."""
        made = self._made_text(counter)
        if made is not None:
            counter[0] += 1
            made.name = "_tritium_local_%d" % counter[0]
        return made

    def _register_made(self, made):
        """Registers the modules of nested helpers `made` imports (call
        with ``_capi.lock`` held)."""
        for helper in made.helpers:
            self._register_made(helper)
            _modules.add(helper.name, helper.path, helper.text)
        _modules.register_modules(made.modules)

    def _function_constexpr(self, name, fn, functions):
        """The constexpr record naming the @jit function `fn` given for
        parameter `name` ("@jit:module.fn"); appends what the compiler must
        be told of its module to `functions`."""
        c = _capi.Constexpr()
        c.name = name.encode()
        c.kind = _capi.CONSTEXPR_LITERAL
        # Module names of its own, apart from those the kernel's own nested
        # helpers take (numbered from 1).
        made = fn._made_for_import([1000000 * (len(functions) + 1)])
        if made is not None:  # defined inside a function: a module of its own
            functions.append(("made", made))
            ref = "%s.%s" % (made.name, fn.fn.__name__)
        elif fn.fn.__module__ == self.fn.__module__:
            ref = fn.fn.__name__  # beside the kernel
        else:
            module = sys.modules.get(fn.fn.__module__)
            if module is None:
                raise TypeError("constexpr '%s': the module of @jit function '%s' "
                                "is not imported" % (name, fn.__name__))
            functions.append(("module", module))
            ref = "%s.%s" % (fn.fn.__module__, fn.fn.__name__)
        c.s = ("@jit:" + ref).encode()
        return c

"""The Python modules a kernel's code may reach, registered with the C
compiler before the kernel compiles.

tritium's frontend reads kernels from source, so a kernel that calls
``@jit`` helpers or reads ``tl.constexpr`` globals of other modules needs
those modules' sources too. Starting from the kernel's own module, this
follows every module named by an import statement (``import helpers``,
``from pkg import sub as S``, ``from .helpers import f``, resolved against
the importing module's package) and every module or ``@jit`` function held
by a module global, and registers each one's source under its ``__name__``
(``tritium_compiler_add_module``). The C++ side parses a module only when a
name resolves into it, so registering modules a kernel does not use costs
little. Modules of the standard library and installed packages are skipped
unless they define ``@jit`` functions or constexpr globals; triton and
tritium themselves are never registered (the frontend knows them).
"""

import os
import re
import sys
import sysconfig
import tokenize
import types

from . import _capi
from ._args import _is_constexpr_annotation
from .language import core

_BUILTIN_PACKAGES = ("triton", "tritium")

# (file, mtime, size) -> (source text, names of the modules it imports).
_source_cache = {}
# module name -> (file, text) as last registered with the C compiler.
_registered = {}


def _library_roots():
    paths = sysconfig.get_paths()
    stdlib = {os.path.normcase(os.path.abspath(paths[k]))
              for k in ("stdlib", "platstdlib") if paths.get(k)}
    installed = {os.path.normcase(os.path.abspath(paths[k]))
                 for k in ("purelib", "platlib") if paths.get(k)}
    installed.update(os.path.normcase(os.path.abspath(p)) for p in sys.path
                     if p and os.path.basename(p) in ("site-packages",
                                                      "dist-packages"))
    return tuple(stdlib), tuple(installed)


_STDLIB, _INSTALLED = _library_roots()


def _under(path, roots):
    return any(path == r or path.startswith(r + os.sep) for r in roots)


def _source_file(module):
    f = getattr(module, "__file__", None)
    if not isinstance(f, str) or not f.endswith(".py"):
        return None
    f = os.path.abspath(f)
    return f if os.path.isfile(f) else None


def _defines_kernel_names(module):
    """Whether a module holds @jit functions or constexpr globals."""
    from .jit import JITFunction
    namespace = vars(module)
    for value in list(namespace.values()):
        if isinstance(value, (JITFunction, core.constexpr)):
            return True
    annotations = namespace.get("__annotations__")
    if isinstance(annotations, dict):
        return any(_is_constexpr_annotation(a) for a in annotations.values())
    return False


def _eligible(module):
    """The module's source file when it should be registered, else None."""
    name = getattr(module, "__name__", None)
    if not isinstance(name, str) or \
            name.split(".")[0] in _BUILTIN_PACKAGES:
        return None
    path = _source_file(module)
    if path is None:
        return None
    norm = os.path.normcase(path)
    library = _under(norm, _INSTALLED) or _under(norm, _STDLIB)
    if library and not _defines_kernel_names(module):
        return None
    return path


def _package_of(name, path):
    if os.path.basename(path) == "__init__.py":
        return name
    return name.rpartition(".")[0]


# An import statement at the start of a line or after a semicolon:
# ``from <dots><module> import <names or (names)>`` or ``import <names>``.
# Scanning the text is about twenty times faster than parsing the module
# (a large kernel file takes 20 ms through ast); an import-like line
# inside a string only adds a module name, which costs a lookup.
_IMPORT_RE = re.compile(
    r"(?:^|;)[ \t]*(?:from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*"
    r"(\([^)]*\)|[^\n;#]*)|import[ \t]+([^\n;#]*))", re.MULTILINE)


def _imported_names(text, package):
    """Absolute names of the modules (and possible submodules) that the
    import statements of a module's text name."""
    out = []
    for dots, module, names, plain in _IMPORT_RE.findall(text.replace("\\\n", " ")):
        if plain:
            for item in plain.split(","):
                parts = item.split()
                if not parts:
                    continue
                path = parts[0].split(".")
                # `import a.b.c` binds `a`; a.b and a.b.c are reached
                # through attributes.
                out.extend(".".join(path[:i + 1]) for i in range(len(path)))
            continue
        level = len(dots)
        if level:
            base = package.split(".") if package else []
            if level - 1 > len(base) or not package:
                continue  # beyond the top-level package
            base = base[:len(base) - (level - 1)]
            if module:
                base += module.split(".")
            base = ".".join(base)
        else:
            base = module
        if not base:
            continue
        out.append(base)
        for item in names.strip().strip("()").split(","):
            parts = item.split()
            if parts and parts[0] != "*" and parts[0].isidentifier():
                out.append(base + "." + parts[0])
    return out


def _read(path, name):
    """(source text, imported module names) of a module file, cached while
    the file is unchanged."""
    try:
        st = os.stat(path)
    except OSError:
        return None, []
    key = (path, st.st_mtime_ns, st.st_size, name)
    hit = _source_cache.get(key)
    if hit is not None:
        return hit
    try:
        with tokenize.open(path) as f:
            text = f.read()
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None, []
    imports = _imported_names(text, _package_of(name, path))
    if len(_source_cache) > 512:
        _source_cache.clear()
    _source_cache[key] = (text, imports)
    return text, imports


def collect(fn, kernel_file, kernel_text):
    """{module name: (file, source text)} for the kernel function `fn`
    (defined in `kernel_file`, whose text is `kernel_text`) and every module
    it may reach."""
    # The kernel's own module: registered under its name with the kernel's
    # file, so helpers may import it and its relative imports resolve.
    kernel_globals = fn.__globals__
    return collect_from(kernel_globals.get("__name__"), kernel_file,
                        kernel_text, kernel_globals)


def collect_from(kernel_name, kernel_file, kernel_text, kernel_globals):
    """As collect, from a module's name, file, text and namespace."""
    from .jit import JITFunction
    found = {}
    pending = []

    def visit_module(module):
        name = getattr(module, "__name__", None)
        if not isinstance(name, str) or name in found:
            return
        path = _eligible(module)
        if path is None:
            return
        text, imports = _read(path, name)
        if text is None:
            return
        found[name] = (path, text)
        pending.append((name, vars(module), imports))

    if isinstance(kernel_name, str) and \
            kernel_name.split(".")[0] not in _BUILTIN_PACKAGES:
        _, imports = _read(kernel_file, kernel_name)
        found[kernel_name] = (kernel_file, kernel_text)
        pending.append((kernel_name, kernel_globals, imports))
    else:
        pending.append(("", kernel_globals, []))

    while pending:
        _, namespace, imports = pending.pop()
        for imported in imports:
            module = sys.modules.get(imported)
            if isinstance(module, types.ModuleType):
                visit_module(module)
        for value in list(namespace.values()):
            if isinstance(value, types.ModuleType):
                visit_module(value)
            elif isinstance(value, JITFunction):
                module = sys.modules.get(value.fn.__module__)
                if isinstance(module, types.ModuleType):
                    visit_module(module)
    return found


def add(name, path, text):
    """Registers module `name` (`text`, read from `path`) with the
    process-wide C compiler unless it is registered so already (call with
    ``_capi.lock`` held)."""
    if _registered.get(name) == (path, text):
        return
    status = _capi.lib().tritium_compiler_add_module(
        _capi.compiler(), name.encode(), text.encode(), path.encode())
    if not status:  # a name the C side rejects cannot be imported anyway
        _registered[name] = (path, text)


def register(fn, kernel_file, kernel_text):
    """Registers the modules `collect` finds (call with ``_capi.lock``
    held)."""
    for name, (path, text) in collect(fn, kernel_file, kernel_text).items():
        add(name, path, text)


def register_modules(modules):
    """Registers module objects (and every module they reach) that a
    nested kernel's bindings import (call with ``_capi.lock`` held)."""
    for module in modules:
        name = getattr(module, "__name__", None)
        path = _eligible(module)
        if not isinstance(name, str) or path is None:
            continue
        text, _ = _read(path, name)
        if text is None:
            continue
        for n, (p, t) in collect_from(name, path, text,
                                      vars(module)).items():
            add(n, p, t)

"""Where a kernel's source comes from, wherever Python allows a ``@jit``
function to be defined.

tritium's frontend reads kernels from source text. A function defined at
the top level of a file is found there by name. Any other one (inside
another function, a method, a loop, under a decorator factory, written by
``exec`` from a string, or given a new text by ``_unsafe_update_src``) is
compiled from a text made for it here:

- its own lines, at their line numbers and with their indentation, so
  every location the frontend reports is the one in the user's file (the
  frontend takes an indented first line as the module's column); its
  decorators are replaced by one ``@jit`` on the line above ``def``;
- after its last line, one binding per free name, resolved as Python
  resolves it at the time of the launch (closure cells, then the
  function's globals): modules become imports, ``@jit`` functions imports
  of their own modules (a nested one gets a made-up module of its own, so
  each function keeps its own scope), constexpr-like values (ints, floats,
  bools, strings, None, dtypes, tuples of these) constexpr globals; a name
  bound to anything else is an error located at its first use.

Sources of functions made by ``exec``/``compile`` from a string are kept
by an audit hook (the ``compile`` event), since ``linecache`` has none.
"""

import ast
import builtins
import collections
import inspect
import linecache
import math
import os
import re
import sys
import textwrap
import threading
import types

from .errors import CompilationError
from .language import core

# Aliases the made-up texts use; no user code spells them.
_TRITON = "_tritium_triton_"
_TL = "_tritium_tl_"

# Recent (filename, text) pairs compiled from strings ("<string>", ...).
_compiled = collections.deque(maxlen=256)
_hook_lock = threading.Lock()
_hook_installed = False


_lookup = threading.local()


def _audit(event, args):
    if event != "compile" or getattr(_lookup, "active", False):
        return
    try:
        source, filename = args[0], args[1]
    except (IndexError, TypeError):
        return
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError:
            return
    if not isinstance(source, str) or "def" not in source:
        return
    if not isinstance(filename, str):
        filename = str(filename)
    if filename.startswith("<") or not os.path.isfile(filename):
        _compiled.append((filename, source))


def install_hook():
    """Starts keeping the sources of code compiled from strings."""
    global _hook_installed
    with _hook_lock:
        if not _hook_installed:
            sys.addaudithook(_audit)
            _hook_installed = True


def _same_code(a, b):
    """Whether code objects `a` and `b` were compiled from the same text."""
    def key(c):
        return (c.co_name, c.co_firstlineno, c.co_code, c.co_names,
                c.co_varnames, tuple(k for k in c.co_consts
                                     if not isinstance(k, types.CodeType)))
    return key(a) == key(b)


def _defines(text, filename, code):
    """Whether compiling `text` makes a function whose code is `code`."""
    _lookup.active = True
    try:
        top = compile(text, filename, "exec", dont_inherit=True)
    except Exception:  # noqa: BLE001 - not Python: not this one
        return False
    finally:
        _lookup.active = False
    pending = [top]
    while pending:
        c = pending.pop()
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                if k.co_name == code.co_name and _same_code(k, code):
                    return True
                pending.append(k)
    return False


def _string_source(fn):
    """The text an exec'd function came from, or None: the latest one
    compiled under the function's file name that makes the function's very
    code (several texts may define a function of the same name at the
    same line, as patched test kernels do)."""
    code = fn.__code__
    for filename, text in reversed(_compiled):
        if filename == code.co_filename and _defines(text, filename, code):
            return text
    return None


def _top_level_block(all_lines, start):
    """The lines of the top-level function whose decorators or ``def``
    begin at 0-based line `start`, found without the tokenizer (which costs
    milliseconds per compile): the lines up to the next code line at column 0,
    when they parse as one function (a cut inside a string, brackets or a
    continuation does not), less those past its last statement other than
    comments indented as deep as its body.
    None when the function is not at the top level or the cut fails."""
    if start >= len(all_lines) or all_lines[start][:1] in (" ", "\t", ""):
        return None
    i = start
    # Decorators, with their arguments over several lines.
    while i < len(all_lines) and not all_lines[i].startswith(("def ", "async def ")):
        if all_lines[i][:1] not in ("@", " ", "\t", "\n", "\r", "#", ")", "]", "}"):
            return None
        i += 1
    end = i + 1
    while end < len(all_lines):
        line = all_lines[end]
        if line[:1] not in (" ", "\t", "\n", "\r", "\f", "#", ")", "") and line.strip():
            break
        end += 1
    try:
        tree = ast.parse("".join(all_lines[start:end]))
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) != 1 or not isinstance(
            tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    fn = tree.body[0]
    # The last statement's line, then, as inspect.getblock does, comment
    # lines indented at least as deep as the body.
    last = start + fn.end_lineno
    for k in range(last, end):
        text = all_lines[k]
        stripped = text.lstrip()
        if stripped.startswith("#") and len(text) - len(stripped) >= fn.body[0].col_offset:
            last = k + 1
    return all_lines[start:last]


class Origin:
    """A function's source: `path` (for messages and locations), the whole
    `text` it was read from (the file, or an exec'd string), its `lines`
    (with indentation) starting at 1-based line `first`, and `top_level`
    when the frontend can find it by name in `text`."""

    def __init__(self, path, text, lines, first, top_level):
        self.path, self.text = path, text
        self.lines, self.first = lines, first
        self.top_level = top_level


def origin(fn):
    """The Origin of function `fn`; raises CompilationError when Python
    has no source for it."""
    code = fn.__code__
    path = code.co_filename
    text = None
    if os.path.isfile(path):
        path = os.path.abspath(path)
        text = "".join(linecache.getlines(path)) or None
        if text is None:
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                text = None
    if text is None:
        text = "".join(linecache.getlines(code.co_filename)) or None
    if text is None:
        text = _string_source(fn)
    if text is None:
        raise CompilationError(
            "%s: cannot find the source of the kernel (defined in %s); "
            "tritium compiles kernels from their source, so a kernel made "
            "by exec() needs its text to be compiled in the same process "
            "after tritium was imported, or registered with linecache"
            % (fn.__qualname__, code.co_filename))
    all_lines = text.splitlines(True)
    lines = _top_level_block(all_lines, code.co_firstlineno - 1)
    if lines is None:
        try:
            lines = inspect.getblock(all_lines[code.co_firstlineno - 1:])
        except Exception:  # noqa: BLE001 - tokenizer errors: take the rest
            lines = all_lines[code.co_firstlineno - 1:]
    if not lines:
        raise CompilationError("%s: its source (%s:%d) is empty"
                               % (fn.__qualname__, path, code.co_firstlineno))
    # The frontend finds a function by name at the top level of its own
    # module's file; the file's names are then the function's globals.
    module_file = fn.__globals__.get("__file__")
    own_file = isinstance(module_file, str) and \
        os.path.abspath(module_file) == path
    top = (own_file and "<locals>" not in fn.__qualname__
           and "." not in fn.__qualname__ and not lines[0][:1].isspace())
    return Origin(path, text, lines, code.co_firstlineno, top)


def dedented_def(lines):
    """Triton's ``JITFunction.src``: the function's text, dedented, from
    its ``def`` line on (decorators dropped)."""
    src = textwrap.dedent("".join(lines))
    m = re.search(r"^(async\s+)?def\s+\w+\s*\(", src, re.MULTILINE)
    return src[m.start():] if m else src


# --------------------------------------------------------------------------
# Free names


class _Names(ast.NodeVisitor):
    """The names a function body reads but never binds, with the location
    of each one's first read (1-based line and 0-based column)."""

    def __init__(self):
        self.bound = set()
        self.reads = {}

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.reads.setdefault(node.id, (node.lineno, node.col_offset))
        else:
            self.bound.add(node.id)

    def visit_arg(self, node):
        self.bound.add(node.arg)
        if node.annotation is not None:
            self.visit(node.annotation)


def free_names(fndef):
    """{name: (line, col)} of the free names of an ast.FunctionDef: its
    body, its parameters' annotations and defaults."""
    v = _Names()
    for d in fndef.args.defaults + [d for d in fndef.args.kw_defaults if d]:
        v.visit(d)
    v.visit(fndef.args)
    if fndef.returns is not None:
        v.visit(fndef.returns)
    for stmt in fndef.body:
        v.visit(stmt)
    return {n: at for n, at in v.reads.items() if n not in v.bound}


# --------------------------------------------------------------------------
# Bindings

_MISSING = object()

def _module_name(module):
    """The name the frontend knows a module by."""
    name = getattr(module, "__name__", "")
    if name == "tritium" or name.startswith("tritium."):
        return "triton" + name[len("tritium"):]
    return name


class _Unusable(Exception):
    def __init__(self, what):
        super().__init__(what)
        self.what = what


def _literal(value, depth=0):
    """Python source for a constexpr-like value, or raises _Unusable."""
    if isinstance(value, core.constexpr):
        value = value.value
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, core.dtype):
        if isinstance(value, (core.pointer_type, core.block_type)):
            raise _Unusable("the type %s" % value)
        return "%s.%s" % (_TL, value._tl_name)
    if isinstance(value, tuple) and depth < 8:
        items = [_literal(v, depth + 1) for v in value]
        return "(%s)" % "".join(i + ", " for i in items)
    raise _Unusable("a %s" % type(value).__name__)


class Made:
    """A made-up text for a nested function: `text` (compiled as `path`),
    the `modules` its bindings import that must be registered (module
    objects), and `helpers` (Made) it imports under `name`."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.modules = []
        self.helpers = []
        self.name = None


def _location_error(path, lines, first, at, message):
    line, col = at
    number = first + line - 1
    text = lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""
    return CompilationError("%s:%d:%d: error: %s\n%s\n%s^" % (
        path, number, col + 1, message, text, " " * col))


def make(jit_fn, lines, first, path, counter):
    """The Made text of the @jit function `jit_fn`, whose source `lines`
    start at line `first` of `path`. `counter` numbers the modules of
    nested helpers (a list of one int)."""
    from .jit import JITFunction
    fn = jit_fn.fn
    block = "".join(lines)
    indent = len(lines[0]) - len(lines[0].lstrip(" \t"))
    pad = lines[0][:indent]
    try:
        tree = ast.parse(textwrap.dedent(block))
    except SyntaxError:
        tree = None
    fndef = None
    if tree is not None:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fndef = node
                break
    out = ["\n"] * (first - 1)
    if fndef is None:
        # The frontend reports the syntax error, located.
        out.extend(lines)
        return Made(path, "".join(out))
    def_line = fndef.lineno  # relative to `lines`, 1-based
    body = list(lines)
    for i in range(def_line - 1):
        body[i] = "\n"
    if def_line >= 2:
        body[def_line - 2] = "%s@%s.jit\n" % (pad, _TRITON)
        out.extend(body)
    else:
        # No line above the def (an undecorated def on line 1): the text
        # starts one line later than the file's.
        out = ["\n"] * max(first - 2, 0)
        out.append("%s@%s.jit\n" % (pad, _TRITON))
        out.extend(body)
    if not out[-1].endswith("\n"):
        out[-1] += "\n"
    made = Made(path, None)
    binds = ["import triton as %s" % _TRITON,
             "import triton.language as %s" % _TL]
    closure = {}
    if fn.__closure__:
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:
                pass  # an empty cell: unbound
    globals_ = fn.__globals__
    annotations = globals_.get("__annotations__", {})
    if not isinstance(annotations, dict):
        annotations = {}
    from ._args import _is_constexpr_annotation
    for name, at in free_names(fndef).items():
        if name == fndef.name:
            continue
        local = name in closure
        value = closure[name] if local else globals_.get(name, _MISSING)
        if value is _MISSING:
            continue  # a builtin, or undefined: the frontend says which
        try:
            if isinstance(value, types.ModuleType):
                module = _module_name(value)
                binds.append("import %s as %s" % (module, name))
                made.modules.append(value)
            elif isinstance(value, JITFunction):
                helper = value._made_for_import(counter)
                if helper is None:
                    module = sys.modules.get(value.fn.__module__)
                    binds.append("from %s import %s as %s" % (
                        value.fn.__module__, value.fn.__name__, name))
                    if isinstance(module, types.ModuleType):
                        made.modules.append(module)
                else:
                    binds.append("from %s import %s as %s" % (
                        helper.name, value.fn.__name__, name))
                    made.helpers.append(helper)
            elif callable(value) and getattr(
                    value, "__triton_constexpr_function__", False):
                binds.append("from %s import %s as %s" % (
                    value.__module__, value.__name__, name))
                module = sys.modules.get(value.__module__)
                if isinstance(module, types.ModuleType):
                    made.modules.append(module)
            elif isinstance(value, core.Placeholder):
                qual = value.__qualname__
                module, _, attr = qual.rpartition(".")
                binds.append("from %s import %s as %s" % (module, attr,
                                                          name))
            elif isinstance(value, type) and value is core.constexpr:
                binds.append("%s = %s.constexpr" % (name, _TL))
            elif isinstance(value, type) and value is core.constexpr_type:
                binds.append("%s = %s.constexpr_type" % (name, _TL))
            elif value is builtins.__dict__.get(name, _MISSING):
                continue
            elif local or isinstance(value, core.constexpr) or \
                    _is_constexpr_annotation(annotations.get(name)):
                binds.append("%s = %s.constexpr(%s)" % (
                    name, _TL, _literal(value)))
            else:
                # A plain module global: the frontend refuses to read it
                # unless it is declared constexpr, as Triton does.
                binds.append("%s = %s" % (name, _literal(value)))
        except _Unusable as e:
            where = "the enclosing scope" if local else "module globals"
            raise _location_error(
                path, lines, first, (at[0], at[1] + indent),
                "'%s' is %s in %s, which a @jit function cannot use "
                "(kernels read ints, floats, bools, strings, None, dtypes, "
                "tuples of these, @jit functions and modules)"
                % (name, e.what, where)) from None
    out.extend(pad + b + "\n" for b in binds)
    made.text = "".join(out)
    return made

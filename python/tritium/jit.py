"""``@jit`` and launching: ``kernel[grid](*args, **kwargs)``.

A JITFunction records the function's source file and name; tritium's C++
frontend parses the whole file and finds the kernel by name. The sources of
the modules the kernel imports are registered with the compiler first
(_modules.py), so @jit helpers and constexpr globals may live in other
files. Launching binds the arguments like a Python call, splits off the
launch options, compiles the kernel once per set of constexpr values (cached
here) and hands the runtime arguments (packed by _args.py) to the C API,
which specializes each launch as Triton does (cached in C++) and runs it on
the CPU interpreter, or on the GPU when the tensors are CUDA tensors and a
GPU is usable (the AMD GPU through HIP for a ROCm build of torch).
"""

import ctypes
import functools
import inspect
import itertools
import keyword
import os
import re
import types

from . import _capi, _modules
from ._jit_source import SourceText
from ._args import (_FAST_LAYOUT, _MISSING, _PACKERS, _PACK_GRID, _PLAIN_TYPES,
                    _cache_key, _check_grid, _constexpr_value, _fill_arg,
                    _is_constexpr_annotation, _launch_state, _packer,
                    _pack_tensordesc, _pack_tuple, _tuple_getter, _with_device,
                    _with_reachable, _current_stream)
from .compiled import CompiledKernel
from .tensor_descriptor import TensorDescriptor
from .errors import (CompilationError, CompileReason, InterpretedCompilationError,
                     InterpreterError, LaunchOptionError, OutOfResources,
                     UnknownArgumentError)
from .language import core

# The profiler's launch recorder (profiler._Recorder) while a profiling
# session is active, else None: the only cost of profiling support on a
# launch when no session is active is reading this name.
_PROFILER = None

# Launch keyword arguments (Triton's backend options) and their defaults.
LAUNCH_OPTIONS = {"num_warps": 4, "num_stages": 3, "num_ctas": 1,
                  "maxnreg": None, "enable_fp_fusion": None}
# The interpreter's sanitizers (``sanitize=`` at launch).
SANITIZERS = ("race", "uninit", "nan", "overflow")
# The C strings of ``sanitize=``, one per set of sanitizers: packed launch
# options point at them, so they live as long as the module.
_SANITIZE_TEXT = {}


def _sanitize_text(value):
    """The C string for ``sanitize=`` (None: no sanitizer): a string
    "race,nan", an iterable of names, or True for all of them."""
    if value is None or value is False:
        return None
    if value is True:
        names = SANITIZERS
    elif isinstance(value, str):
        names = [n.strip() for n in value.split(",") if n.strip()]
    else:
        try:
            names = [n.strip() if isinstance(n, str) else n for n in value]
        except TypeError:
            names = None
    if names is None or any(not isinstance(n, str) or n not in SANITIZERS for n in names):
        raise LaunchOptionError(
            "sanitize=%r: expected sanitizer names (%s) as a string such as "
            "\"race,nan\", a list of them, or True for all" % (value, ", ".join(SANITIZERS)))
    text = ",".join(n for n in SANITIZERS if n in names).encode()
    return _SANITIZE_TEXT.setdefault(text, text) if text else None


# Accepted and ignored: they have no meaning on the interpreter.
IGNORED_OPTIONS = ("launch_cooperative_grid",
                   "launch_pdl", "stream", "sanitize_overflow",
                   "extern_libs", "ir_override", "ptx_options", "arch")

# numpy typestr (without byte order) / torch dtype name -> tritium dtype.
class _Kernel:
    """A compiled kernel (one set of constexpr values): a C handle."""

    def __init__(self, handle):
        self._lib = _capi.lib()
        self.handle = handle
        n = self._lib.tritium_kernel_num_params(handle)
        self.params = [
            (self._lib.tritium_kernel_param_name(handle, i).decode(),
             self._lib.tritium_kernel_param_is_constexpr(handle, i) == 1)
            for i in range(n)]

    def __del__(self):
        handle, self.handle = getattr(self, "handle", None), None
        if handle:
            self._lib.tritium_kernel_destroy(handle)

    @property
    def num_compiles(self):
        return self._lib.tritium_kernel_num_compiles(self.handle)


def _fp_fusion(value):
    """Whether multiplies and adds may fuse on the GPU: the launch's
    ``enable_fp_fusion``, else TRITON_DEFAULT_FP_FUSION (on by default), as
    in Triton."""
    if value is None:
        return os.environ.get("TRITON_DEFAULT_FP_FUSION", "1") not in ("0", "", "false",
                                                                      "False")
    return bool(value)


def _interpret_forced():
    return any(os.environ.get(v, "0") not in ("", "0")
               for v in ("TRITIUM_INTERPRET", "TRITON_INTERPRET"))


def _raise_status(status, message):
    if status == _capi.ERROR_COMPILE:
        # As in Triton, the reason alone is the error's cause; under
        # TRITON_INTERPRET=1 the error is also an InterpreterError, as
        # Triton's interpreter raises.
        cls = InterpretedCompilationError if _interpret_forced() else CompilationError
        reason = None
        for line in message.split("\n"):
            if ": error: " in line:
                reason = line.split(": error: ", 1)[1]
                break
        if reason:
            raise cls(message) from CompileReason(reason)
        raise cls(message)
    if status == _capi.ERROR_RUNTIME:
        raise InterpreterError(message)
    if status == _capi.ERROR_RESOURCES:
        raise OutOfResources(name="shared memory" if "shared memory" in message
                             else "threads", message=message)
    if status == _capi.ERROR_ARGUMENT:
        raise TypeError(message)
    raise RuntimeError(message)


class KernelInterface:
    """``kernel[grid](*args, **kwargs)`` calls ``run(..., grid=grid)``."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid,
                                                warmup=False, **kwargs)


def _casts_to_pointers(fn, seen):
    """Whether the @jit function `fn` or a @jit function it names (through
    its module's globals, transitively) mentions tl.pointer_type."""
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    try:
        src = fn.src
    except Exception:  # noqa: BLE001 - no source: no casts seen
        return False
    if "pointer_type" in src:
        return True
    scope = getattr(getattr(fn, "fn", None), "__globals__", {})
    for name in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", src):
        other = scope.get(name)
        if isinstance(other, JITFunction) and other is not fn and \
                _casts_to_pointers(other, seen):
            return True
    return False


class JITFunction(KernelInterface, SourceText):
    """A ``@jit`` kernel (or helper): its source location and signature, and
    the kernels compiled for it, one per set of constexpr values."""

    def __init__(self, fn, debug=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, noinline=None,
                 version=None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self._repr = repr
        self.debug = bool(debug) or os.environ.get("TRITON_DEBUG") == "1"
        self.noinline = noinline  # helpers only; the frontend inlines all
        # fn(grid, kernel, args) -> {"name": ..., "flops16": ..., ...}: what
        # the profiler (hook="triton") names and counts a launch by.
        self.launch_metadata = launch_metadata
        self._origin = None  # _source.Origin, read on first use
        self._src = None  # a text given by _unsafe_update_src
        self.signature = inspect.signature(fn)
        self.params = list(self.signature.parameters.values())
        self.arg_names = [p.name for p in self.params]
        self.constexprs = [i for i, p in enumerate(self.params)
                           if _is_constexpr_annotation(p.annotation)]
        self.do_not_specialize = self._indices(do_not_specialize)
        if do_not_specialize_on_alignment:
            raise NotImplementedError(
                "%s: do_not_specialize_on_alignment is not supported yet; "
                "do_not_specialize turns off both ==1 and %%16" % fn.__name__)
        self._kernels = {}
        self._watched = None  # (entries, values) of the globals read at compile
        functools.update_wrapper(self, fn)
        self._init_fast_path()

    def _snapshot_globals(self):
        """Remembers the plain values (ints, floats, bools, strings,
        tl.constexpr) of the module globals the kernel names, as they were
        when it was first compiled: its own globals, those of the @jit
        helpers it reaches (in their own modules) and module attributes
        such as ``helpers.SCALE``."""
        entries = []
        seen = set()

        def plain(v):
            if isinstance(v, core.constexpr):
                v = v.value
            return isinstance(v, (bool, int, float, str))

        def watch_module(module, names, depth):
            if module.__name__.split(".")[0] in ("triton", "tritium"):
                return
            namespace = vars(module)
            for a in names:
                v = namespace.get(a, _MISSING)
                if isinstance(v, JITFunction):
                    visit(v)
                elif isinstance(v, types.ModuleType):
                    if depth < 4:
                        watch_module(v, names, depth + 1)
                elif plain(v):
                    entries.append(("%s.%s" % (module.__name__, a),
                                    namespace, a))

        def visit(jf):
            if id(jf) in seen:
                return
            seen.add(id(jf))
            g = jf.fn.__globals__
            own = g is self.fn.__globals__
            names = jf.fn.__code__.co_names
            for n in names:
                v = g.get(n, _MISSING)
                if isinstance(v, JITFunction):
                    visit(v)
                elif isinstance(v, types.ModuleType):
                    watch_module(v, names, 1)
                elif plain(v):
                    entries.append((n if own else "%s.%s" % (
                        g.get("__name__", "?"), n), g, n))

        visit(self)
        unique = {}
        for label, namespace, n in entries:
            unique.setdefault((id(namespace), n), (label, namespace, n))
        entries = tuple(unique.values())
        self._watched = (entries, tuple(self._global_values(entries)))

    @staticmethod
    def _global_values(entries):
        out = []
        for _, namespace, n in entries:
            v = namespace.get(n, _MISSING)
            out.append(v.value if isinstance(v, core.constexpr) else v)
        return out

    def _check_globals(self):
        """As Triton: a global the kernel read may not change afterwards."""
        entries, old = self._watched
        if not entries:
            return
        new = self._global_values(entries)
        for (label, _, _), a, b in zip(entries, old, new):
            if a is not b and a != b:
                raise RuntimeError(
                    "global variable '%s' used by kernel '%s' has changed since "
                    "the kernel was compiled (it was %r, now %r); kernels read "
                    "globals once" % (label, self.__name__, a, b))

    def _init_fast_path(self):
        """Precomputes what a cached launch needs: a generated binder (a
        function with the kernel's own signature, so binding is one Python
        call), getters for the constexpr and runtime values, the runtime
        parameters' names and flags, and caches of compiled kernels, packed
        options and packed grids. Kernels the binder cannot express (a
        parameter that is also a launch option, ``*args``, keyword-only
        parameters) launch through the general path."""
        self._fast_kernels = {}
        self._fast_options = {}
        self._fast_grids = {}
        runtime = [i for i in range(len(self.params))
                   if i not in self.constexprs]
        self._runtime = [(self.arg_names[i],
                          _capi.ARG_NO_SPECIALIZE
                          if i in self.do_not_specialize else 0)
                         for i in runtime]
        self._get_constexprs = _tuple_getter(sorted(self.constexprs))
        self._get_runtime = _tuple_getter(runtime)
        self._binder = self._make_binder() if _FAST_LAYOUT else None
        self._c = None  # the C launcher (tritium_launch); False: none

    def _c_launcher(self):
        """The C fast path of this kernel's launches (made on first use):
        it binds, finds the kernel and the packed options in dictionaries
        that ``_launch`` fills, packs ints, floats, bools, CUDA tensors and
        host arrays, and hands every other launch to ``_launch``."""
        if self._c is None:
            self._c = False
            module = _capi.launch_module() if self._binder else None
            if module is not None:
                def raise_status(status):
                    _raise_status(status, _capi.last_error())

                empty = inspect.Parameter.empty
                constexprs = set(self.constexprs)
                self._c = module.Launcher(
                    tuple(self.arg_names),
                    tuple(p.default for p in self.params), empty,
                    tuple(sorted(constexprs)),
                    tuple((i, flags) for i, (_, flags) in zip(
                        [i for i in range(len(self.params))
                         if i not in constexprs], self._runtime)),
                    self._launch_named, CompiledKernel, self.__name__,
                    raise_status, _capi.lock, self.debug)
                # Interpreted launches of a kernel that reads pointers
                # from memory tell the interpreter of the memory they may
                # reach (_launch), which the C path does not.
                self._c.host_slow = self._reads_pointers()
        return self._c

    def _make_binder(self):
        names = self.arg_names
        if any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
               for p in self.params) or any(
                   n in LAUNCH_OPTIONS or n.startswith("_tritium_")
                   or keyword.iskeyword(n) for n in names):
            return None
        namespace = {}
        params = []
        for i, p in enumerate(self.params):
            if p.default is inspect.Parameter.empty:
                params.append(p.name)
            else:
                namespace["_tritium_d%d" % i] = p.default
                params.append("%s=_tritium_d%d" % (p.name, i))
        params.append("**_tritium_kw")
        source = ("def _tritium_bind(%s):\n    return (%s%s), _tritium_kw\n"
                  % (", ".join(params), ", ".join(names),
                     "," if len(names) == 1 else ""))
        exec(source, namespace)  # noqa: S102 - our own generated code
        return namespace["_tritium_bind"]

    def _indices(self, names):
        out = set()
        for n in names or ():
            if isinstance(n, int):
                out.add(n)
            elif n in self.arg_names:
                out.add(self.arg_names.index(n))
            else:
                raise ValueError("do_not_specialize: '%s' is not a parameter "
                                 "of %s" % (n, self.__name__))
        return out

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "%s is a @triton.jit kernel: launch it as %s[grid](...)"
            % (self.__name__, self.__name__))

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.__name__)

    # -- binding ----------------------------------------------------------

    def bind(self, args, kwargs):
        """The bound arguments (defaults applied, in parameter order) and
        the launch options."""
        options = dict(LAUNCH_OPTIONS, debug=self.debug)
        params = {}
        for key, value in kwargs.items():
            if key in self.arg_names:
                params[key] = value
                if key in LAUNCH_OPTIONS:  # e.g. softmax's num_stages
                    options[key] = core._unwrap(value)
            elif key in LAUNCH_OPTIONS:
                options[key] = core._unwrap(value)
            elif key in IGNORED_OPTIONS:
                pass
            elif key == "debug":
                options["debug"] = bool(value)
            elif key == "sanitize":
                options["sanitize"] = value
            else:
                raise UnknownArgumentError(
                    "%s got an unknown keyword argument '%s' (its "
                    "parameters: %s)" % (self.__name__, key,
                                         ", ".join(self.arg_names)))
        try:
            bound = self.signature.bind(*args, **params)
        except TypeError as e:
            raise TypeError("%s: %s" % (self.__name__, e)) from None
        bound.apply_defaults()
        return dict(bound.arguments), options

    # -- compiling --------------------------------------------------------

    def compile(self, bound, debug=False):
        """The kernel for the constexpr values in `bound`; `debug` keeps
        device_assert."""
        # Runtime parameters given None are compiled in as constants, as
        # Triton specializes None arguments.
        nones = tuple(i for i in range(len(self.params))
                      if i not in self.constexprs
                      and bound[self.arg_names[i]] is None)
        key = tuple(_cache_key(bound[self.arg_names[i]])
                    for i in self.constexprs) + (bool(debug), nones)
        try:
            return self._kernels[key]
        except (KeyError, TypeError):
            pass
        values = []
        functions = []  # @jit functions given as constexprs: their modules
        for i in self.constexprs:
            p = self.params[i]
            value = bound[p.name]
            if isinstance(core._unwrap(value), JITFunction):
                values.append(self._function_constexpr(p.name, core._unwrap(value),
                                                       functions))
                continue
            try:
                values.append(_constexpr_value(p.name, value))
            except TypeError:
                if p.default is not inspect.Parameter.empty and \
                        value is p.default:
                    continue  # the frontend reads the default itself
                raise
        for i in nones:
            values.append(_constexpr_value(self.arg_names[i], None))
        if self._watched is None:
            self._snapshot_globals()
        lib = _capi.lib()
        array = (_capi.Constexpr * max(len(values), 1))(*values)
        options = _capi.CompileOptions(int(bool(debug)))
        handle = ctypes.c_void_p()
        origin = self.origin
        made = self._made_text([0])
        source = origin.text if made is None else made.text
        with _capi.lock:
            # Modules the kernel imports (its @jit helpers and constexpr
            # globals may live there) go to the compiler first.
            _modules.register(self.fn, origin.path, origin.text)
            if made is not None:
                self._register_made(made)
            for kind, what in functions:
                if kind == "made":
                    self._register_made(what)
                    _modules.add(what.name, what.path, what.text)
                else:
                    _modules.register_modules([what])
            status = lib.tritium_kernel_compile(
                _capi.compiler(), source.encode(),
                origin.path.encode(), self.fn.__name__.encode(), array,
                len(values), ctypes.byref(options), ctypes.byref(handle))
            message = _capi.last_error() if status else ""
        if status:
            _raise_status(status, message)
        kernel = _Kernel(handle.value)
        names = [n for n, _ in kernel.params]
        if names != self.arg_names or \
                [c for _, c in kernel.params] != [
                    i in self.constexprs or i in nones
                    for i in range(len(names))]:
            raise CompilationError(
                "%s: the frontend reads parameters %s, Python has %s"
                % (self.__name__, kernel.params, self.arg_names))
        try:
            self._kernels[key] = kernel
        except TypeError:
            pass  # unhashable constexpr: compile every time
        return kernel

    # -- launching ----------------------------------------------------------

    def _args(self, bound):
        runtime = [i for i in range(len(self.params))
                   if i not in self.constexprs
                   and bound[self.arg_names[i]] is not None]
        records = []
        for i in runtime:
            name = self.arg_names[i]
            value = core._unwrap(bound[name])
            if isinstance(value, (tuple, TensorDescriptor)):
                # Its record and its elements' records, depth first.
                packer = _pack_tuple if isinstance(value, tuple) else _pack_tensordesc
                records.append(packer(name, value, _capi.ARG_NO_SPECIALIZE
                                      if i in self.do_not_specialize else 0))
                continue
            arg = _capi.Arg()
            _fill_arg(arg, name, value, i in self.do_not_specialize)
            records.append(bytes(arg))
        data = b"".join(records)
        n = len(data) // ctypes.sizeof(_capi.Arg)
        array = (_capi.Arg * max(n, 1)).from_buffer_copy(
            data or bytes(ctypes.sizeof(_capi.Arg)))
        return array, n

    @staticmethod
    def _options(options):
        o = _capi.LaunchOptions()
        try:
            o.num_warps = int(options["num_warps"])
            o.num_stages = int(options["num_stages"])
            o.num_ctas = int(options["num_ctas"])
            o.maxnreg = int(options["maxnreg"] or 0)
            o.enable_fp_fusion = int(_fp_fusion(options.get("enable_fp_fusion")))
        except (TypeError, ValueError) as e:
            raise TypeError("launch options must be ints: %s" % e) from None
        o.sanitize = _sanitize_text(options.get("sanitize"))
        if o.num_warps < 1 or o.num_warps & (o.num_warps - 1) or o.num_warps > 32:
            raise LaunchOptionError("num_warps must be a power of 2 between 1 and 32, "
                                    "got %d" % o.num_warps)
        return o

    def __getitem__(self, grid):
        c = self._c if self._c is not None else self._c_launcher()
        if c:
            return c.bind(grid)

        def launcher(*args, **kwargs):
            try:
                return self._launch(grid, args, kwargs)
            except CompilationError as e:
                # As _launch_named: the user's frame, then this line only.
                raise e.with_traceback(None) from e.__cause__
        return launcher

    def _launch_named(self, grid, args, kwargs):
        try:
            return self._launch(grid, args, kwargs)
        except CompilationError as e:
            # The diagnostic names the user's file:line:col; the frames
            # of the launcher below this one add nothing to it.
            raise e.with_traceback(None) from e.__cause__

    def _launch_options(self, extra):
        """(packed launch options, debug) for the non-parameter keywords
        `extra` of a launch; raises as ``bind`` does on unknown ones."""
        num_warps, num_stages, num_ctas, maxnreg, fusion = 4, 3, 1, None, None
        sanitize = None
        debug = self.debug
        for key, value in extra.items():
            if key == "num_warps":
                num_warps = core._unwrap(value)
            elif key == "num_stages":
                num_stages = core._unwrap(value)
            elif key == "num_ctas":
                num_ctas = core._unwrap(value)
            elif key == "maxnreg":
                maxnreg = core._unwrap(value)
            elif key == "enable_fp_fusion":
                fusion = core._unwrap(value)
            elif key == "debug":
                debug = bool(value)
            elif key == "sanitize":
                sanitize = _sanitize_text(value)
            elif key not in IGNORED_OPTIONS:
                raise UnknownArgumentError(
                    "%s got an unknown keyword argument '%s' (its "
                    "parameters: %s)" % (self.__name__, key,
                                         ", ".join(self.arg_names)))
        key = (num_warps, num_stages, num_ctas, maxnreg, fusion, sanitize)
        try:
            return self._fast_options[key], debug
        except (KeyError, TypeError):
            pass
        o = self._options({"num_warps": num_warps, "num_stages": num_stages,
                           "num_ctas": num_ctas, "maxnreg": maxnreg,
                           "enable_fp_fusion": fusion})
        o.sanitize = sanitize
        packed = bytes(o)
        try:
            if len(self._fast_options) < 64:
                self._fast_options[key] = packed
        except TypeError:
            pass
        return packed, debug

    def _launch(self, grid, args, kwargs):
        """``kernel[grid](*args, **kwargs)``: the fast path for a cached
        kernel; anything unusual goes through ``run``'s general path."""
        binder = self._binder
        if binder is None:
            return self._run(args, kwargs, grid, False)
        try:
            values, extra = binder(*args, **kwargs)
        except TypeError:
            return self._run(args, kwargs, grid, False)  # raises, named
        c = self._c
        if extra:
            options, debug = self._launch_options(extra)
            if c and len(c.extra) < 64:
                try:  # the key the C launcher looks this launch up by
                    c.extra[tuple(itertools.chain.from_iterable(
                        extra.items()))] = (options, debug)
                except TypeError:
                    pass
        else:
            try:
                options, debug = self._fast_options[None], self.debug
            except KeyError:
                options, debug = self._launch_options({})
                self._fast_options[None] = options
            if c:
                c.options = options
        for v in self._get_runtime(values):
            if v is None:  # compiled in as a constant: the general path
                return self._run(args, kwargs, grid, False)
        cvalues = self._get_constexprs(values)
        ckey = (tuple(map(type, cvalues)), cvalues, debug)
        cached = False
        try:
            kernel = self._fast_kernels[ckey]
            cached = True
        except KeyError:
            kernel = self.compile(dict(zip(self.arg_names, values)), debug)
            if all(t in _PLAIN_TYPES or isinstance(v, core.dtype)
                   for t, v in zip(ckey[0], cvalues)):
                self._fast_kernels[ckey] = kernel
                cached = True
        except TypeError:  # an unhashable constexpr
            kernel = self.compile(dict(zip(self.arg_names, values)), debug)
        if self._watched[0]:
            self._check_globals()
        elif c and cached:
            # The key the C launcher finds this kernel by.
            c.kernels[cvalues + ckey[0] + (debug,)] = kernel
        packers = _PACKERS
        packed = []
        state = _launch_state
        state.reset()
        for value, (name, flags) in zip(self._get_runtime(values),
                                        self._runtime):
            packer = packers.get(type(value)) or _packer(type(value))
            packed.append(packer(name, value, flags))
        if state.device == "cuda" or state.device == "hip":
            options = _with_device(options, state.launch_device(),
                                   state.index)
        reachable = None
        if not state.use_gpu() and self._reads_pointers():
            options, reachable = _with_reachable(options)
        if callable(grid):
            grid = grid(dict(zip(self.arg_names, values)))
        cgrid = None
        if type(grid) is tuple:
            cgrid = self._fast_grids.get(grid)
            if cgrid is not None:
                for d in grid:
                    if type(d) is not int:
                        cgrid = None
                        break
        if cgrid is None:
            dims = _check_grid(grid)
            cgrid = _PACK_GRID(*dims)
            if type(grid) is tuple and all(type(d) is int for d in grid) \
                    and len(self._fast_grids) < 256:
                self._fast_grids[grid] = cgrid
        launch = _capi.launch_raw()
        profiler = _PROFILER
        if profiler is not None:
            record = profiler.begin(self, kernel, grid,
                                    dict(zip(self.arg_names, values)),
                                    state.use_gpu())
        with _capi.lock:
            data = b"".join(packed)
            status = launch(kernel.handle, cgrid, data, len(data) >> 5,
                            options)
            del reachable  # the buffers' table, alive through the launch
            if status:
                state.copies = []
                _raise_status(status, _capi.last_error())
        if state.copies:
            state.finish()
        if profiler is not None:
            profiler.end(record)
        return CompiledKernel(kernel, self.__name__)

    def run(self, *args, grid=None, warmup=False, **kwargs):
        """Binds, compiles when needed and launches on `grid` (a tuple, or
        a callable on the bound arguments); with `warmup`, compiles the
        specialization without launching and returns its signature."""
        if not warmup and grid is not None:
            c = self._c if self._c is not None else self._c_launcher()
            if c:
                return c(grid, args, kwargs)
            return self._launch(grid, args, kwargs)
        return self._run(args, kwargs, grid, warmup)

    def _reads_pointers(self):
        """Whether the kernel's source casts integers to pointers
        (tl.pointer_type, as 08-grouped-gemm's tables of per-problem
        pointers): its interpreted launches then tell the interpreter of
        every live CPU torch tensor, memory it may reach beyond its
        arguments."""
        reads = self.__dict__.get("_reads_ptrs")
        if reads is None:
            reads = _casts_to_pointers(self, set())
            self._reads_ptrs = reads
        return reads

    def _run(self, args, kwargs, grid, warmup):
        """The general path of ``run``."""
        bound, options = self.bind(args, kwargs)
        kernel = self.compile(bound, options["debug"])
        self._check_globals()
        state = _launch_state
        state.reset()
        array, nargs = self._args(bound)
        opts = self._options(options)
        if state.use_gpu():
            opts.device = state.launch_device()
            opts.stream = _current_stream(state.index) or None
        lib = _capi.lib()
        if warmup:
            sig = ctypes.c_char_p()
            with _capi.lock:
                status = lib.tritium_kernel_warmup(
                    kernel.handle, array, nargs, ctypes.byref(opts),
                    ctypes.byref(sig))
                message = _capi.last_error() if status else ""
            if status:
                _raise_status(status, message)
            launch = {k: v for k, v in kwargs.items()
                      if k not in self.arg_names}
            signature = sig.value.decode()
            name = self.__name__
            if self._repr is not None:
                name = self._repr(_Specialization(self, bound, signature))
            return CompiledKernel(kernel, name, signature, fn=self,
                                  launch_options=launch)
        if grid is None:
            raise ValueError("%s: no grid; launch as %s[grid](...)"
                             % (self.__name__, self.__name__))
        if callable(grid):
            grid = grid(dict(bound))
        dims = _check_grid(grid)
        cgrid = (ctypes.c_int64 * 3)(*dims)
        reachable = None
        if not state.use_gpu() and self._reads_pointers():
            packed, reachable = _with_reachable(bytes(opts))
            opts = _capi.LaunchOptions.from_buffer_copy(packed)
        profiler = _PROFILER
        if profiler is not None:
            record = profiler.begin(self, kernel, grid, dict(bound),
                                    state.use_gpu())
        with _capi.lock:
            status = lib.tritium_kernel_launch(kernel.handle, cgrid, array,
                                               nargs, ctypes.byref(opts))
            del reachable  # the buffers' table, alive through the launch
            message = _capi.last_error() if status else ""
        if status:
            state.copies = []
            _raise_status(status, message)
        if state.copies:
            state.finish()
        if profiler is not None:
            profiler.end(record)
        return CompiledKernel(kernel, self.__name__)

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles the specialization `args` select without launching
        (for the GPU too when the tensors are CUDA tensors); returns its
        CompiledKernel, whose ``metadata.signature`` is the specialization
        ("*fp32:16,*fp32:16,i32,1024"). ``arch="sm80"`` (or
        TRITON_OVERRIDE_ARCH) compiles it for that CUDA architecture
        instead, with or without a GPU."""
        arch = kwargs.pop("arch", None) or os.environ.get("TRITON_OVERRIDE_ARCH") or None
        compiled = self.run(*args, grid=grid, warmup=True, **kwargs)
        if arch is None:
            return compiled
        from .compiler import warmup_for_arch
        return warmup_for_arch(self, compiled, arch, kwargs)


def _split_entries(signature):
    """The top-level entries of a signature string (tuples, descriptors and
    quoted strings kept whole)."""
    out, cur, depth, quote = [], "", 0, None
    for ch in signature:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return out


class _Specialization:
    """What ``jit(repr=...)`` is given: ``signature`` (parameter name ->
    type, "constexpr" for compile-time ones) and ``constants`` (parameter
    name -> value, for constexprs and the ints folded as 1)."""

    def __init__(self, fn, bound, signature):
        self.signature, self.constants = {}, {}
        for i, (name, entry) in enumerate(zip(fn.arg_names,
                                               _split_entries(signature))):
            if i in fn.constexprs:
                self.signature[name] = "constexpr"
                self.constants[name] = core._unwrap(bound[name])
            elif entry == "None":
                self.signature[name] = "constexpr"
                self.constants[name] = None
            else:
                ty, _, attr = entry.partition(":")
                self.signature[name] = ty
                if attr == "1":
                    self.constants[name] = 1
        self.name = fn.__name__


def jit(fn=None, *, version=None, repr=None, launch_metadata=None,
        do_not_specialize=None, do_not_specialize_on_alignment=None,
        debug=None, noinline=None):
    """Marks a Triton kernel (or helper): ``@jit`` or ``@jit(debug=True)``."""

    def decorator(f):
        return JITFunction(f, debug=debug,
                           do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=(
                               do_not_specialize_on_alignment),
                           noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata)

    return decorator(fn) if fn is not None else decorator

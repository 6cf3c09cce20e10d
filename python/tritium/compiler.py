"""Compiling without launching, as Triton's ``triton.compile`` does:
``compile(ASTSource(fn, signature, constexprs, attrs), target, options)``
returns a CompiledKernel with the stages for `target` (``GPUTarget("cuda",
90, 32)`` cross-compiles PTX, ``GPUTarget("hip", "gfx942", 64)`` AMDGCN and
an hsaco, with no GPU on the machine; no target is the current one: the GPU
when one is usable, else the interpreter).""" 

import ctypes

from . import _capi
from ._args import _constexpr_literal
from .compiled import CompiledKernel
from .language import core


class ASTSource:
    """A kernel and the specialization to compile: ``signature`` maps
    parameter names to types ("*fp32", "i32", "fp16", "constexpr", nested
    tuples of these), ``constexprs`` gives the compile-time values (keyed by
    name or by ``(index,)``), ``attrs`` the hints per ``(index,)``
    (``[["tt.divisibility", 16]]``)."""

    def __init__(self, fn, signature, constexprs=None, attrs=None):
        if not hasattr(fn, "arg_names"):
            raise TypeError("ASTSource: fn must be a @triton.jit function, got %s"
                            % type(fn).__name__)
        self.fn = fn
        self.name = fn.__name__
        self.signature = dict(signature)
        self.constants = {}
        for k, v in (constexprs or {}).items():
            if isinstance(k, str):
                if k not in fn.arg_names:
                    raise KeyError("ASTSource: '%s' has no parameter '%s'"
                                   % (fn.__name__, k))
                k = (fn.arg_names.index(k),)
            self.constants[tuple(k)] = v
        self.attrs = dict(attrs or {})
        for name in self.signature:
            if name not in fn.arg_names:
                raise KeyError("ASTSource: '%s' has no parameter '%s' (its "
                               "parameters: %s)" % (fn.__name__, name,
                                                    ", ".join(fn.arg_names)))

    def _entry(self, index, name):
        """One signature entry of tritium's spelling, and the constexpr
        value (or None for runtime entries)."""
        if (index,) in self.constants:
            value = core._unwrap(self.constants[(index,)])
            return _constexpr_literal(name, value), True, value
        ty = self.signature.get(name)
        param = self.fn.params[index]
        if ty is None or ty == "constexpr":
            if param.default is not param.empty:
                value = core._unwrap(param.default)
                return _constexpr_literal(name, value), True, value
            raise ValueError("ASTSource: parameter '%s' of '%s' needs %s" % (
                name, self.name, "a value in constexprs" if ty == "constexpr"
                else "a type in signature"))
        if index in self.fn.constexprs:
            raise ValueError("ASTSource: '%s' is tl.constexpr; give its value "
                             "in constexprs, not the type '%s'" % (name, ty))
        hints = self.attrs.get((index,), [])
        divisible = any(h[0] == "tt.divisibility" and h[1] == 16 for h in hints)
        return _type_entry(ty, divisible), False, None

    def signature_text(self):
        entries, values = [], {}
        for i, name in enumerate(self.fn.arg_names):
            text, is_const, value = self._entry(i, name)
            entries.append(text)
            if is_const:
                values[name] = value
        return ",".join(entries), values


def _type_entry(ty, divisible):
    if isinstance(ty, (tuple, list)):
        return "(%s)" % ",".join(_type_entry(t, False) for t in ty)
    ty = str(ty).strip()
    return ty + (":16" if divisible and (ty.startswith("*") or ty[0] in "iu")
                 else "")


def _cuda_cc(target):
    """0 for the interpreter, 80/90 for CUDA targets, "gfx942" (the arch)
    for AMD ones; None: the current."""
    if target is None:
        if not _capi.cuda_available()[0]:
            return 0
        return 90 if _capi.cuda_compute_capability() >= 90 else 80
    backend = getattr(target, "backend", None)
    arch = getattr(target, "arch", None)
    if backend == "cpu":
        return 0
    if backend == "hip":
        if arch not in ("gfx90a", "gfx942", "gfx950"):
            raise ValueError("compile: AMD arch %r is not supported (gfx90a, gfx942 "
                             "and gfx950 are)" % (arch,))
        if getattr(target, "warp_size", 64) != 64:
            raise ValueError("compile: AMD targets are compiled for waves of 64 lanes, "
                             "got warp_size %r" % (target.warp_size,))
        return arch
    if backend != "cuda":
        raise NotImplementedError(
            "compile: target backend '%s' is not supported (tritium compiles "
            "for cuda and hip targets and the interpreter)" % backend)
    if isinstance(arch, str):
        arch = int("".join(ch for ch in arch if ch.isdigit()) or 0)
    if arch not in (80, 86, 89, 90):
        raise ValueError("compile: CUDA arch %r is not supported (80, 86, 89 "
                         "and 90 are)" % (getattr(target, "arch", None),))
    return 90 if arch >= 90 else 80


def compile(src, target=None, options=None):
    """Compiles `src` (an ASTSource) for `target` without launching it."""
    if not isinstance(src, ASTSource):
        raise TypeError("compile takes an ASTSource, got %s"
                        % type(src).__name__)
    options = dict(options or {})
    fn = src.fn
    signature, constexprs = src.signature_text()
    bound = {name: constexprs.get(name, 0) for name in fn.arg_names}
    for name, value in constexprs.items():
        bound[name] = value
    kernel = fn.compile(bound, bool(options.get("debug", fn.debug)))
    opts = fn._options({"num_warps": options.get("num_warps", 4),
                        "num_stages": options.get("num_stages", 3),
                        "num_ctas": options.get("num_ctas", 1),
                        "maxnreg": options.get("maxnreg"),
                        "enable_fp_fusion": options.get("enable_fp_fusion")})
    return _compile_signature(fn, kernel, signature, opts, _cuda_cc(target), options)


def _compile_signature(fn, kernel, signature, opts, cc, options):
    """The CompiledKernel of `kernel` (one set of constexprs of `fn`) for
    `signature`, compiled for compute capability `cc` (0: the
    interpreter)."""
    lib = _capi.lib()
    with _capi.lock:
        if isinstance(cc, str):  # an AMD target
            status = lib.tritium_kernel_compile_signature_amd(
                kernel.handle, signature.encode(), ctypes.byref(opts), cc.encode())
        else:
            status = lib.tritium_kernel_compile_signature(
                kernel.handle, signature.encode(), ctypes.byref(opts), cc)
        message = _capi.last_error() if status else ""
        if not status:
            compiled = CompiledKernel(kernel, fn.__name__, signature, fn=fn,
                                      launch_options={k: v for k, v in options.items()
                                                      if k in ("num_warps", "num_stages")})
            # Read under the lock that the compile held: a later compile of
            # the kernel (another config, from another thread) becomes its
            # latest.
            compiled.asm
            compiled.metadata
    if status:
        from .jit import _raise_status
        _raise_status(status, message)
    return compiled


def warmup_for_arch(fn, compiled, arch, options):
    """`compiled` (a warmup's CompiledKernel) compiled again for the CUDA
    architecture `arch` ("sm80", "sm_90a", "90", 80), as
    ``kernel.warmup(..., arch=...)`` asks."""
    digits = "".join(ch for ch in str(arch) if ch.isdigit())
    cc = int(digits) if digits else 0
    if cc not in (80, 86, 87, 89, 90):
        raise ValueError("warmup: arch %r is not supported (tritium compiles for "
                         "sm80, sm86, sm87, sm89 and sm90)" % (arch,))
    opts = fn._options({"num_warps": options.get("num_warps", 4),
                        "num_stages": options.get("num_stages", 3),
                        "num_ctas": options.get("num_ctas", 1),
                        "maxnreg": options.get("maxnreg"),
                        "enable_fp_fusion": options.get("enable_fp_fusion")})
    return _compile_signature(fn, compiled._kernel, compiled.metadata.signature, opts,
                              90 if cc >= 90 else 80, options)

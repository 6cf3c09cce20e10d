"""What a launch or ``warmup`` returns: the compiled specialization, as
Triton's ``CompiledKernel``: ``asm`` (its stages as text: ``ttir`` is the
tile IR after the tile passes; after a GPU launch also ``ttgir`` (the tile
IR with layouts), ``llir``, ``ptx`` and ``cubin`` bytes; for an AMD target
``amdgcn`` and ``hsaco`` bytes instead of the last two), ``metadata``
(name, signature, num_warps, num_stages, shared), ``n_regs`` and
``n_spills``.

It is read from the C library when first used, and describes the
specialization the kernel ran most recently at that time (launches that
follow with other argument types or constexprs move it on)."""

import ctypes

from . import _capi

_STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin", "amdgcn", "hsaco")


class _Asm(dict):
    """``asm[stage]``; a stage that was not made is a KeyError naming the
    stages there are."""

    def __missing__(self, stage):
        raise KeyError("no stage %r for this kernel (it has: %s)"
                       % (stage, ", ".join(self) or "none"))


class KernelMetadata:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __getitem__(self, key):
        return self.__dict__[key]

    def __repr__(self):
        return "KernelMetadata(%s)" % ", ".join(
            "%s=%r" % kv for kv in sorted(self.__dict__.items()))


class CompiledKernel:
    """A compiled specialization of a kernel (see the module's text).

    The C launcher makes the instances its launches return without calling
    ``__init__``: it sets ``_kernel`` and ``_name``, and the class's defaults
    below stand for the rest."""

    _signature = None
    _fn = None  # the JITFunction, for launches through this object
    _launch_options = {}  # never mutated: launches copy it
    _info = None
    _asm = None

    def __init__(self, kernel, name, signature=None, fn=None,
                 launch_options=None):
        self._kernel = kernel  # jit._Kernel: keeps the C handle alive
        self._name = name
        self._signature = signature
        self._fn = fn
        self._launch_options = dict(launch_options or {})

    def _read(self):
        if self._info is None:
            info = _capi.CompiledInfo()
            lib = _capi.lib()
            with _capi.lock:
                status = lib.tritium_kernel_compiled_info(
                    self._kernel.handle, ctypes.byref(info))
                message = _capi.last_error() if status else ""
            if status:
                raise RuntimeError(message)
            self._info = info
        return self._info

    def __getitem__(self, grid):
        """``compiled[grid](*args)``: launches the kernel with every
        argument (constexprs included, as for the JITFunction) and the
        launch options it was compiled with."""
        if self._fn is None:
            raise TypeError("this CompiledKernel was returned by a launch; "
                            "launch the kernel itself")

        def launcher(*args, **kwargs):
            options = dict(self._launch_options)
            options.update(kwargs)
            return self._fn[grid](*args, **options)
        return launcher

    def _init_handles(self):
        """Loads the kernel (done by the first launch or warmup already)."""
        self._read()

    @property
    def asm(self):
        if self._asm is None:
            self._read()
            lib = _capi.lib()
            asm = _Asm()
            with _capi.lock:
                for stage in _STAGES:
                    size = ctypes.c_size_t()
                    ptr = lib.tritium_kernel_compiled_stage(
                        self._kernel.handle, stage.encode(),
                        ctypes.byref(size))
                    if ptr:
                        data = ctypes.string_at(ptr, size.value)
                        asm[stage] = data if stage in ("cubin", "hsaco") else \
                            data.decode("utf-8", "replace")
            self._asm = asm
        return self._asm

    @property
    def metadata(self):
        info = self._read()
        return KernelMetadata(name=self._name, signature=self._signature,
                              num_warps=info.num_warps,
                              num_stages=info.num_stages,
                              num_ctas=1, shared=info.shared,
                              target="cuda" if info.on_gpu else "cpu")

    @property
    def n_regs(self):
        return self._read().n_regs

    @property
    def n_spills(self):
        return self._read().n_spills

    @property
    def name(self):
        return self._name

    def __repr__(self):
        return "CompiledKernel(%s)" % self._name

"""ctypes bindings of the C API (runtime/capi/tritium.h) in libtritium.so.

The library is found through the environment variable TRITIUM_LIBRARY (the
file, or the folder holding it), else in the build tree
(``<repo>/build/lib``, relative to this package), else next to the package.
It is loaded on first use, so ``import tritium`` works without it.
"""

import ctypes
import importlib.util
import os
import threading

LIBRARY_NAME = "libtritium.so"
# The launcher's fast path (python/launch/tritium_launch.c), a CPython
# extension of the stable ABI built beside the library.
LAUNCH_MODULE = "tritium_launch.abi3.so"

OK = 0
ERROR_ARGUMENT = 1
ERROR_COMPILE = 2
ERROR_RUNTIME = 3
ERROR_INTERNAL = 4
ERROR_RESOURCES = 5

# tritium_dtype
BOOL, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64 = range(13)
F8E4NV, F8E5, F8E4B15, F8E4B8, F8E5B16 = range(13, 18)

# tritium_constexpr_kind
CONSTEXPR_INT, CONSTEXPR_FLOAT, CONSTEXPR_BOOL = 0, 1, 2
CONSTEXPR_STRING, CONSTEXPR_NONE, CONSTEXPR_LITERAL = 3, 4, 5

# tritium_arg_kind and flags
ARG_BUFFER, ARG_INT, ARG_FLOAT, ARG_BOOL = 0, 1, 2, 3
ARG_TUPLE, ARG_LITERAL, ARG_TENSORDESC = 4, 5, 6
ARG_UNSIGNED = 1
ARG_NO_SPECIALIZE = 2
ARG_UNINITIALIZED = 4


class Constexpr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int),
                ("i", ctypes.c_int64), ("f", ctypes.c_double),
                ("s", ctypes.c_char_p)]


class CompileOptions(ctypes.Structure):
    _fields_ = [("debug", ctypes.c_int)]


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("bytes", ctypes.c_size_t),
                ("dtype", ctypes.c_int)]


class _Value(ctypes.Union):
    _fields_ = [("buffer", _Buffer), ("i", ctypes.c_int64),
                ("f", ctypes.c_double), ("literal", ctypes.c_void_p)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("flags", ctypes.c_uint),
                ("value", _Value)]


class WarmupJob(ctypes.Structure):
    """tritium_warmup_job: one specialization for tritium_kernels_warmup."""
    _fields_ = [("kernel", ctypes.c_void_p), ("args", ctypes.POINTER(Arg)),
                ("nargs", ctypes.c_size_t),
                ("options", ctypes.c_void_p),  # tritium_launch_options *
                ("status", ctypes.c_int)]


class CompiledInfo(ctypes.Structure):
    _fields_ = [("on_gpu", ctypes.c_int), ("num_warps", ctypes.c_int),
                ("num_stages", ctypes.c_int), ("shared", ctypes.c_int),
                ("n_regs", ctypes.c_int), ("n_spills", ctypes.c_int)]


class HostBuffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("bytes", ctypes.c_size_t),
                ("name", ctypes.c_char_p)]


class LaunchOptions(ctypes.Structure):
    _fields_ = [("num_warps", ctypes.c_int), ("num_stages", ctypes.c_int),
                ("num_ctas", ctypes.c_int), ("maxnreg", ctypes.c_int),
                ("deterministic", ctypes.c_int), ("threads", ctypes.c_int),
                ("device", ctypes.c_int), ("stream", ctypes.c_void_p),
                ("enable_fp_fusion", ctypes.c_int), ("sanitize", ctypes.c_char_p),
                ("reachable", ctypes.POINTER(HostBuffer)),
                ("num_reachable", ctypes.c_size_t)]


DEVICE_INTERPRETER = 0
DEVICE_CUDA = 1
DEVICE_HIP = 2  # AMD GPUs through HIP (torch's ROCm builds)


# A Compiler and its kernels are not thread-safe: every call that compiles
# or launches holds this lock.
lock = threading.RLock()

_lib = None
_lib_path = None
_compiler = None
_launch_raw = None
_launch_module = None  # the extension; False when there is none


def candidates():
    """The paths tried for libtritium.so, in order."""
    paths = []
    env = os.environ.get("TRITIUM_LIBRARY")
    if env:
        paths.append(os.path.join(env, LIBRARY_NAME)
                     if os.path.isdir(env) else env)
    here = os.path.dirname(os.path.abspath(__file__))
    paths.append(os.path.normpath(
        os.path.join(here, "..", "..", "build", "lib", LIBRARY_NAME)))
    paths.append(os.path.join(here, LIBRARY_NAME))
    paths.append(os.path.join(os.path.dirname(here), LIBRARY_NAME))
    return paths


def _declare(lib):
    c = ctypes
    sigs = {
        "tritium_version": (c.c_char_p, []),
        "tritium_last_error": (c.c_char_p, []),
        "tritium_dtype_size": (c.c_size_t, [c.c_int]),
        "tritium_compiler_create": (c.c_void_p, []),
        "tritium_compiler_destroy": (None, [c.c_void_p]),
        "tritium_kernel_compile": (
            c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p,
                      c.POINTER(Constexpr), c.c_size_t,
                      c.POINTER(CompileOptions), c.POINTER(c.c_void_p)]),
        "tritium_kernel_destroy": (None, [c.c_void_p]),
        "tritium_compiler_add_module": (
            c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p]),
        "tritium_kernel_name": (c.c_char_p, [c.c_void_p]),
        "tritium_kernel_num_params": (c.c_size_t, [c.c_void_p]),
        "tritium_kernel_param_name": (c.c_char_p, [c.c_void_p, c.c_size_t]),
        "tritium_kernel_param_is_constexpr": (c.c_int,
                                              [c.c_void_p, c.c_size_t]),
        "tritium_kernel_param_has_default": (c.c_int,
                                             [c.c_void_p, c.c_size_t]),
        "tritium_kernel_num_compiles": (c.c_size_t, [c.c_void_p]),
        "tritium_kernel_launch": (
            c.c_int, [c.c_void_p, c.POINTER(c.c_int64), c.POINTER(Arg),
                      c.c_size_t, c.POINTER(LaunchOptions)]),
        "tritium_cuda_available": (c.c_int, []),
        "tritium_hip_available": (c.c_int, []),
        "tritium_cuda_device_attribute": (c.c_int, [c.c_int,
                                                   c.POINTER(c.c_int)]),
        "tritium_kernel_compiled_info": (
            c.c_int, [c.c_void_p, c.POINTER(CompiledInfo)]),
        "tritium_kernel_compiled_stage": (
            c.c_void_p, [c.c_void_p, c.c_char_p, c.POINTER(c.c_size_t)]),
        "tritium_kernel_compile_signature": (
            c.c_int, [c.c_void_p, c.c_char_p, c.POINTER(LaunchOptions),
                      c.c_int]),
        "tritium_kernel_compile_signature_amd": (
            c.c_int, [c.c_void_p, c.c_char_p, c.POINTER(LaunchOptions),
                      c.c_char_p]),
        "tritium_kernel_warmup": (
            c.c_int, [c.c_void_p, c.POINTER(Arg), c.c_size_t,
                      c.POINTER(LaunchOptions), c.POINTER(c.c_char_p)]),
        "tritium_kernels_warmup": (
            c.c_int, [c.POINTER(WarmupJob), c.c_size_t, c.c_int]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


_cuda = None
_hip = None


def cuda_device_attribute(number):
    """cuDeviceGetAttribute(number) of the launch device; RuntimeError
    without one."""
    value = ctypes.c_int()
    if lib().tritium_cuda_device_attribute(number, ctypes.byref(value)):
        raise RuntimeError("cuDeviceGetAttribute(%d): %s" % (number, last_error()))
    return value.value


def cuda_compute_capability():
    """The launch device's compute capability, 90 for sm_90."""
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
    return cuda_device_attribute(75) * 10 + cuda_device_attribute(76)


def cuda_available():
    """(True, "") when kernels can run on a CUDA GPU, else (False, why).
    TRITIUM_INTERPRET=1 or TRITON_INTERPRET=1 force the interpreter."""
    global _cuda
    if _cuda is None:
        forced = [v for v in ("TRITIUM_INTERPRET", "TRITON_INTERPRET")
                  if os.environ.get(v, "0") not in ("", "0")]
        if forced:
            _cuda = (False, "%s=1 forces the interpreter" % forced[0])
        else:
            with lock:
                ok = lib().tritium_cuda_available()
                _cuda = (bool(ok), "" if ok else last_error())
    return _cuda


def hip_available():
    """(True, "") when kernels can run on an AMD GPU through HIP, else
    (False, why): no HIP runtime, no device, or an architecture tritium does
    not compile for. TRITIUM_INTERPRET=1 or TRITON_INTERPRET=1 force the
    interpreter."""
    global _hip
    if _hip is None:
        forced = [v for v in ("TRITIUM_INTERPRET", "TRITON_INTERPRET")
                  if os.environ.get(v, "0") not in ("", "0")]
        if forced:
            _hip = (False, "%s=1 forces the interpreter" % forced[0])
        else:
            with lock:
                ok = lib().tritium_hip_available()
                _hip = (bool(ok), "" if ok else last_error())
    return _hip


def lib():
    """The loaded library (loading it on first use)."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with lock:
        if _lib is None:
            tried = candidates()
            for path in tried:
                if os.path.isfile(path):
                    loaded = ctypes.CDLL(path)
                    _declare(loaded)
                    _lib, _lib_path = loaded, path
                    break
            else:
                raise ImportError(
                    "tritium: cannot find " + LIBRARY_NAME + " (tried "
                    + ", ".join(tried) + "); build it (bash scripts/setup) "
                    "or set TRITIUM_LIBRARY to its path")
    return _lib


def launch_raw():
    """``tritium_kernel_launch`` declared to take the grid, the arguments
    and the options as packed bytes (``struct`` layouts of ``int64_t[3]``,
    ``tritium_arg[n]`` and ``tritium_launch_options``): the launcher's fast
    path, which skips building ctypes structures on every launch."""
    global _launch_raw
    if _launch_raw is None:
        loaded = lib()
        fn = loaded._FuncPtr(("tritium_kernel_launch", loaded))
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                       ctypes.c_size_t, ctypes.c_char_p]
        _launch_raw = fn
    return _launch_raw


def launch_module():
    """The C fast path of launches (tritium_launch.abi3.so, next to the
    loaded library), configured with the library's launch function; None
    when it is not there, cannot load (a Python before 3.11) or
    TRITIUM_C_LAUNCHER=0 turns it off."""
    global _launch_module
    if _launch_module is None:
        _launch_module = _load_launch_module() or False
    return _launch_module or None


def _load_launch_module():
    if os.environ.get("TRITIUM_C_LAUNCHER", "1") in ("0", ""):
        return None
    loaded = lib()
    path = os.path.join(os.path.dirname(_lib_path), LAUNCH_MODULE)
    if not os.path.isfile(path):
        return None
    try:
        spec = importlib.util.spec_from_file_location("tritium_launch", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    module.configure(ctypes.cast(loaded.tritium_kernel_launch,
                                 ctypes.c_void_p).value)
    return module


def compiler():
    """The process-wide compiler handle."""
    global _compiler
    with lock:
        if _compiler is None:
            handle = lib().tritium_compiler_create()
            if not handle:
                raise RuntimeError("tritium: cannot create a compiler: "
                                   + last_error())
            _compiler = handle
    return _compiler


def last_error():
    return lib().tritium_last_error().decode("utf-8", "replace")


def version():
    return lib().tritium_version().decode()

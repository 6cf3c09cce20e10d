"""Launch arguments: Python values (ints, floats, bools, numpy arrays, torch
tensors on the CPU or a CUDA device, duck-typed arrays) packed into the C
API's ``tritium_arg`` records, with Triton's rules for what specializes.
The launcher (jit.py) uses these on every launch, so the common types have
packers that build the record bytes directly.

A ROCm build of torch (``torch.version.hip`` set) names its AMD GPUs
``cuda`` too: its tensors launch on the HIP device (``DEVICE_HIP``) when one
is usable, always through the general path here (the C launcher packs CUDA
launches only).
"""

import ctypes
import gc
import operator
import struct
import sys
import threading

from . import _capi
from .language import core
from .tensor_descriptor import TensorDescriptor

_TYPESTR = {"b1": _capi.BOOL, "i1": _capi.I8, "i2": _capi.I16,
            "i4": _capi.I32, "i8": _capi.I64, "u1": _capi.U8,
            "u2": _capi.U16, "u4": _capi.U32, "u8": _capi.U64,
            "f2": _capi.F16, "f4": _capi.F32, "f8": _capi.F64}
_TORCH = {"bool": _capi.BOOL, "int8": _capi.I8, "int16": _capi.I16,
          "int32": _capi.I32, "int64": _capi.I64, "uint8": _capi.U8,
          "uint16": _capi.U16, "uint32": _capi.U32, "uint64": _capi.U64,
          "float16": _capi.F16, "bfloat16": _capi.BF16,
          "float32": _capi.F32, "float64": _capi.F64,
          "float8_e4m3fn": _capi.F8E4NV, "float8_e5m2": _capi.F8E5,
          "float8_e4m3fnuz": _capi.F8E4B8, "float8_e5m2fnuz": _capi.F8E5B16}
# tl dtypes (TensorWrapper, reinterpret) -> tritium dtype.
_TL = {"int1": _capi.BOOL, "int8": _capi.I8, "int16": _capi.I16,
       "int32": _capi.I32, "int64": _capi.I64, "uint8": _capi.U8,
       "uint16": _capi.U16, "uint32": _capi.U32, "uint64": _capi.U64,
       "fp16": _capi.F16, "bf16": _capi.BF16, "fp32": _capi.F32,
       "fp64": _capi.F64, "fp8e4nv": _capi.F8E4NV, "fp8e5": _capi.F8E5,
       "fp8e4b15": _capi.F8E4B15, "fp8e4b8": _capi.F8E4B8,
       "fp8e5b16": _capi.F8E5B16}
_ITEMSIZE = {_capi.BOOL: 1, _capi.I8: 1, _capi.I16: 2, _capi.I32: 4,
             _capi.I64: 8, _capi.U8: 1, _capi.U16: 2, _capi.U32: 4,
             _capi.U64: 8, _capi.F16: 2, _capi.BF16: 2, _capi.F32: 4,
             _capi.F64: 8, _capi.F8E4NV: 1, _capi.F8E5: 1, _capi.F8E4B15: 1,
             _capi.F8E4B8: 1, _capi.F8E5B16: 1}


# -- the fast launch path ----------------------------------------------------
#
# A cached launch packs its grid, arguments and options with `struct` into
# bytes laid out as the C structs (checked against the ctypes declarations
# below) and makes one ctypes call; per-type packers, packed options and
# packed grids are cached.

_PACK_BUFFER = struct.Struct("=iIQQi4x").pack   # kind, flags, data, bytes, dt
_PACK_INT = struct.Struct("=iIq16x").pack       # kind, flags, i
_PACK_FLOAT = struct.Struct("=iId16x").pack     # kind, flags, f
_PACK_TEXT = struct.Struct("=iIQ16x").pack      # kind, flags, const char *
_PACK_GRID = struct.Struct("=3q").pack
_I64_MIN, _I64_END = -2**63, 2**63


def _layout_matches():
    arg, buf = _capi.Arg, _capi._Buffer
    return (ctypes.sizeof(arg) == 32 and arg.value.offset == 8
            and buf.bytes.offset == 8 and buf.dtype.offset == 16
            and ctypes.sizeof(_capi.LaunchOptions) == 72)


_FAST_LAYOUT = _layout_matches()
_MISSING = object()


def _pack_generic(name, value, flags):
    arg = _capi.Arg()
    _fill_arg(arg, name, value, flags & _capi.ARG_NO_SPECIALIZE)
    return bytes(arg)


def _pack_int(name, value, flags):
    if _I64_MIN <= value < _I64_END:
        return _PACK_INT(_capi.ARG_INT, flags, value)
    return _pack_generic(name, value, flags)


def _pack_float(name, value, flags):
    return _PACK_FLOAT(_capi.ARG_FLOAT, flags, value)


def _pack_bool(name, value, flags):
    return _PACK_INT(_capi.ARG_BOOL, flags, 1 if value else 0)


def _ndarray_packer(np):
    """A packer for numpy arrays that reads the data pointer from the array
    object (``PyArrayObject.data`` follows the object header), when a
    self-check confirms that layout; else None."""
    read = ctypes.c_void_p.from_address
    offset = object.__basicsize__
    try:
        probe = np.arange(8, dtype=np.int64)
        for a in (probe, probe[3:]):
            if read(id(a) + offset).value != a.__array_interface__["data"][0]:
                return None
    except Exception:  # noqa: BLE001 - any surprise disables the fast path
        return None
    dtypes = {}
    for typestr, dt in _TYPESTR.items():
        try:
            dtypes[np.dtype("=" + typestr)] = dt
        except TypeError:
            pass
    buffer_kind = _capi.ARG_BUFFER
    fast = _capi.launch_module()
    if fast is not None:
        fast.set_host_array(np.ndarray)

    def pack(name, value, flags):
        dt = dtypes.get(value.dtype)
        if dt is None or not value.flags.c_contiguous:
            return _pack_generic(name, value, flags)
        return _PACK_BUFFER(buffer_kind, flags,
                            read(id(value) + offset).value or 0,
                            value.nbytes, dt)

    return pack


def _torch_packer(torch):
    """A packer for torch tensors: a contiguous CUDA tensor of a known dtype
    that joins a GPU launch packs straight from its data pointer; anything
    else (host tensors, strided views, the first tensor when no GPU is
    usable, mixed devices, every tensor of a ROCm build) takes the general
    path and its checks."""
    dtypes = {}
    for name, dt in _TORCH.items():
        t = getattr(torch, name, None)
        if isinstance(t, torch.dtype):
            dtypes[t] = dt
    buffer_kind = _capi.ARG_BUFFER
    state = _launch_state
    _fast_torch(torch, dtypes)
    # The code below is the CUDA launch's; a ROCm build's tensors go to HIP
    # (or the interpreter) by _buffer's rules.
    rocm = _is_rocm(torch)

    def pack(name, value, flags):
        dt = dtypes.get(value.dtype)
        if dt is None or not value.is_cuda or rocm:
            return _pack_generic(name, value, flags)
        if value.is_contiguous():
            nbytes = value.numel() * value.element_size()
        else:  # a view (a transpose, a slice): the bytes it spans
            size = value.element_size()
            last = 0
            for d, st in zip(value.shape, value.stride()):
                if d == 0:
                    last = -1
                    break
                if st < 0:
                    return _pack_generic(name, value, flags)
                last += (d - 1) * st
            nbytes = 0 if last < 0 else (last + 1) * size
        if state.device != "cuda" or state.copies:
            if state.device is not None or state.copies or \
                    not _capi.cuda_available()[0]:
                return _pack_generic(name, value, flags)
            state.note(name, "cuda", value.get_device())
        elif value.get_device() != state.index:
            return _pack_generic(name, value, flags)  # names both devices
        return _PACK_BUFFER(buffer_kind, flags, value.data_ptr(), nbytes, dt)

    return pack


def _fast_torch(torch, dtypes):
    """Lets the C launcher pack CUDA tensors of `dtypes` itself and read
    torch's current stream as ``_current_stream`` does, when a GPU is
    usable and this torch has the functions it reads the stream with. Not
    for a ROCm build: the C launcher sends every tensor launch it packs to
    the CUDA device, so ROCm tensors must reach the Python path (and HIP)."""
    fast = _capi.launch_module()
    c = getattr(torch, "_C", None)
    stream = getattr(c, "_cuda_getCurrentRawStream", None)
    device = getattr(c, "_cuda_getDevice", None)
    if fast is None or stream is None or device is None or \
            _is_rocm(torch) or not _capi.cuda_available()[0]:
        return
    fast.set_torch(torch.Tensor, dict(dtypes), stream, device)


def _is_rocm(torch):
    """Whether `torch` (a module, or None) is a ROCm build, whose "cuda"
    tensors live on AMD GPUs."""
    return getattr(getattr(torch, "version", None), "hip", None) is not None


# Whether the note that ROCm tensors run on the interpreter was written.
_HIP_NOTED = False


def _note_no_hip(why):
    """Says once per process that ROCm tensors run on the interpreter, and
    why no AMD GPU is usable."""
    global _HIP_NOTED
    if not _HIP_NOTED:
        _HIP_NOTED = True
        sys.stderr.write("tritium: note: no AMD GPU is usable through HIP (%s); "
                         "kernels on ROCm tensors run on the interpreter, the "
                         "tensors copied to the host and back\n" % why)


# Literal records point at these NUL-terminated texts, kept for the life
# of the process (a few: None, and the constexprs written into tuples).
_LITERAL_TEXTS = {}


def _literal_address(text):
    buf = _LITERAL_TEXTS.get(text)
    if buf is None:
        buf = ctypes.create_string_buffer(text.encode())
        if len(_LITERAL_TEXTS) < 4096:
            _LITERAL_TEXTS[text] = buf
        else:  # never freed either: a pathological number of literals
            _LITERAL_TEXTS.setdefault(("overflow", id(buf)), buf)
    return ctypes.addressof(buf)


def _tuple_literal(name, value):
    """The signature spelling of a compile-time tuple element, or None when
    `value` is a runtime value."""
    if value is None or isinstance(value, (core.constexpr, str, core.dtype)):
        return _constexpr_literal(name, value)
    return None


def _pack_tuple(name, value, flags):
    """A tuple argument: its TUPLE record, then its elements' records depth
    first (constants as LITERAL records)."""
    out = [_PACK_INT(_capi.ARG_TUPLE, 0, len(value))]
    for i, v in enumerate(value):
        label = "%s[%d]" % (name, i)
        if type(v) is tuple or isinstance(v, tuple):
            out.append(_pack_tuple(label, v, flags))
            continue
        lit = _tuple_literal(label, v)
        if lit is not None:
            out.append(_PACK_TEXT(_capi.ARG_LITERAL, 0, _literal_address(lit)))
            continue
        if callable(getattr(v, "run", None)) and hasattr(v, "fn"):
            raise TypeError("argument '%s': a @jit function inside a tuple "
                            "cannot be passed to a kernel yet" % label)
        out.append(_packer(type(v))(label, v, flags))
    return b"".join(out)


def _pack_tensordesc(name, desc, flags):
    """A host tensor descriptor: its TENSORDESC record (the block shape and
    padding as text), then its base, shape and strides."""
    text = "[%s]%s" % (",".join(str(b) for b in desc.block_shape),
                       ",nan" if desc.padding == "nan" else "")
    out = [_PACK_TEXT(_capi.ARG_TENSORDESC, 0, _literal_address(text)),
           _packer(type(desc.base))(name + ".base", desc.base, flags)]
    for v in list(desc.shape) + list(desc.strides):
        out.append(_pack_int(name, v, flags | _capi.ARG_NO_SPECIALIZE))
    return b"".join(out)


_PACKERS = {int: _pack_int, float: _pack_float, bool: _pack_bool,
            tuple: _pack_tuple, TensorDescriptor: _pack_tensordesc}


def _packer(tp):
    """The packer for arguments of type `tp` (found once per type)."""
    packer = _PACKERS.get(tp)
    if packer is None:
        packer = _pack_generic
        if isinstance(tp, type) and issubclass(tp, tuple):
            packer = _pack_tuple  # namedtuples, torch.Size
        np = sys.modules.get("numpy")
        if np is not None and isinstance(tp, type) and issubclass(
                tp, np.ndarray):
            packer = _ndarray_packer(np) or _pack_generic
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(tp, type) and issubclass(
                tp, torch.Tensor):
            packer = _torch_packer(torch)
        _PACKERS[tp] = packer
    return packer


def _tuple_getter(indices):
    """A function returning ``tuple(values[i] for i in indices)``."""
    if not indices:
        return lambda values: ()
    if len(indices) == 1:
        i = indices[0]
        return lambda values: (values[i],)
    return operator.itemgetter(*indices)


# Constexpr value types whose (type, value) pairs identify a compile.
_PLAIN_TYPES = (int, float, bool, str, type(None))


def _is_constexpr_annotation(annotation):
    if annotation is core.constexpr:
        return True
    # Triton's own tl.constexpr, when a kernel written for Triton is
    # wrapped with tritium.jit in the same process.
    if isinstance(annotation, type) and annotation.__name__ == "constexpr":
        return True
    return (isinstance(annotation, str)
            and annotation.strip().split(".")[-1] == "constexpr")


def _extent(shape, strides, itemsize):
    """Bytes from the first element to the end of the farthest one."""
    if any(d == 0 for d in shape):
        return 0
    if strides is None:
        n = 1
        for d in shape:
            n *= d
        return n * itemsize
    last = sum((d - 1) * s for d, s in zip(shape, strides) if s > 0)
    span = last + itemsize
    return -(-span // itemsize) * itemsize


class _LaunchState(threading.local):
    """Where the tensors of the launch being packed live. CUDA tensors run
    on the GPU when one is usable (ROCm tensors, device "hip", on the AMD
    GPU through HIP); otherwise each is copied to the host, the interpreter
    runs, and the results are copied back."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.device = None  # None, "cpu", "cuda" or "hip" (a ROCm tensor)
        self.index = None  # the CUDA device's ordinal
        self.first = None
        self.copies = []

    def note(self, name, device, index=None):
        if self.device is None:
            self.device, self.index, self.first = device, index, name
        elif self.device != device or self.index != index:
            raise ValueError(
                "argument '%s' is on %s but argument '%s' is on %s; pass all "
                "tensors on one device" % (name, _where(device, index),
                                            self.first,
                                            _where(self.device, self.index)))

    def cuda_tensor(self, name, value):
        self.note(name, "cuda", _cuda_index(value))
        ok, why = _capi.cuda_available()
        if ok:
            return value
        return self._to_host(name, value, "no CUDA GPU is usable (%s)" % why)

    def hip_tensor(self, name, value):
        """A "cuda" tensor of a ROCm build of torch: the HIP device runs it
        when one is usable, else the interpreter on a host copy."""
        self.note(name, "hip", _cuda_index(value))
        ok, why = _capi.hip_available()
        if ok:
            return value
        host = self._to_host(name, value,
                             "no AMD GPU is usable through HIP (%s)" % why)
        _note_no_hip(why)
        return host

    def _to_host(self, name, value, why):
        """A host copy of the GPU tensor `value` for the interpreter, copied
        back by finish()."""
        if not all(hasattr(value, a) for a in ("detach", "copy_")):
            raise TypeError(
                "argument '%s': a cuda tensor, but %s and it cannot be copied "
                "to the host" % (name, why))
        host = value.detach().cpu()
        self.copies.append((value, host))
        return host

    def finish(self):
        """Copies interpreted results back to their CUDA tensors."""
        copies, self.copies = self.copies, []
        for dev, host in copies:
            dev.copy_(host)

    def use_gpu(self):
        return (self.device == "cuda" or self.device == "hip") and \
            not self.copies

    def launch_device(self):
        """The tritium_device the launch goes to: the GPU its tensors are on
        when it is usable, else the interpreter."""
        if not self.use_gpu():
            return _capi.DEVICE_INTERPRETER
        return _capi.DEVICE_HIP if self.device == "hip" else _capi.DEVICE_CUDA


_launch_state = _LaunchState()


def _where(device, index):
    """'cpu', 'cuda:1' (a ROCm tensor's device too: torch names it so)."""
    if device == "hip":
        device = "cuda"
    return device if index is None else "%s:%d" % (device, index)


def _cuda_index(value):
    """The ordinal of the CUDA device a tensor is on."""
    get = getattr(value, "get_device", None)
    if get is not None:
        return get()
    return getattr(getattr(value, "device", None), "index", None) or 0


def _current_stream(index=None):
    """torch's current CUDA stream on device `index` (default: torch's
    current device), a CUstream as an int (a hipStream_t on a ROCm build),
    or 0."""
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    try:
        # What torch.cuda.current_stream().cuda_stream reads, without
        # making a Stream object (as Triton's launcher does).
        c = torch._C
        return c._cuda_getCurrentRawStream(
            c._cuda_getDevice() if index is None else index)
    except Exception:  # noqa: BLE001 - an older torch: the public way
        pass
    try:
        return torch.cuda.current_stream(index).cuda_stream
    except Exception:  # noqa: BLE001 - no usable torch.cuda: the default
        return 0


_DEVICE_OPTIONS = {}


def _with_device(options, device, index=None):
    """Packed launch options with the `device` field set; a GPU launch goes
    on torch's current stream of the tensors' device `index`. (Cached per
    options, device and stream.)"""
    stream = _current_stream(index) \
        if device in (_capi.DEVICE_CUDA, _capi.DEVICE_HIP) else 0
    key = (options, device, stream)
    out = _DEVICE_OPTIONS.get(key)
    if out is None:
        o = _capi.LaunchOptions.from_buffer_copy(options)
        o.device = device
        o.stream = stream or None
        out = bytes(o)
        if len(_DEVICE_OPTIONS) < 1024:
            _DEVICE_OPTIONS[key] = out
    return out


def _host_tensors():
    """(data pointer, bytes, name) of the storage of every live CPU torch
    tensor: the memory an interpreted kernel may reach through pointers it
    reads from memory (08-grouped-gemm's tables), beyond its arguments."""
    torch = sys.modules.get("torch")
    if torch is None:
        return []
    found = {}
    tensor = torch.Tensor
    for obj in gc.get_objects():
        # type(), not isinstance: no object's __class__ is asked (some of
        # torch's deprecated aliases warn when it is).
        if not issubclass(type(obj), tensor):
            continue
        try:
            if obj.device.type != "cpu":
                continue
            storage = obj.untyped_storage()
            ptr, nbytes = storage.data_ptr(), storage.nbytes()
        except Exception:  # noqa: BLE001 - not a plain strided tensor
            continue
        if ptr and nbytes and found.get(ptr, (0, ""))[0] < nbytes:
            found[ptr] = (nbytes, "a %s tensor of shape %s (not an argument)"
                          % (str(obj.dtype).replace("torch.", ""),
                             list(obj.shape)))
    return [(p, n, name) for p, (n, name) in found.items()]


def _with_reachable(options):
    """Packed launch options that hand the interpreter every live CPU torch
    tensor as memory the kernel may reach; returns (options, the table they
    point to, which must stay alive until the launch returns; it keeps its
    names alive itself)."""
    found = _host_tensors()
    array = (_capi.HostBuffer * max(len(found), 1))()
    for i, (ptr, nbytes, name) in enumerate(found):
        array[i].data, array[i].bytes, array[i].name = ptr, nbytes, name.encode()
    o = _capi.LaunchOptions.from_buffer_copy(options)
    o.reachable = ctypes.cast(array, ctypes.POINTER(_capi.HostBuffer))
    o.num_reachable = len(found)
    return bytes(o), array


def _buffer(name, value):
    """(data pointer, bytes, dtype) of an array-like, or None."""
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        tl_dtype = value.dtype if isinstance(value.dtype, core.dtype) \
            else None
        if tl_dtype is not None and hasattr(value, "base"):
            # A TensorWrapper: the base tensor's memory as another dtype.
            dt = _TL.get(tl_dtype.name)
            if dt is None:
                raise TypeError("argument '%s': cannot pass a tensor of %s"
                                % (name, tl_dtype))
            ptr, nbytes, _ = _buffer(name, value.base)
            return ptr, nbytes, dt
        device = getattr(value, "device", None)
        device_type = getattr(device, "type", device)
        if device_type is not None and str(device_type) != "cpu":
            if str(device_type) != "cuda":
                raise TypeError(
                    "argument '%s': a tensor on device '%s'; tritium runs "
                    "kernels on CUDA GPUs, AMD GPUs (a ROCm build of torch) "
                    "and the CPU interpreter" % (name, device_type))
            if _is_rocm(sys.modules.get("torch")):
                value = _launch_state.hip_tensor(name, value)
            else:
                value = _launch_state.cuda_tensor(name, value)
        else:
            _launch_state.note(name, "cpu")
        dname = str(value.dtype).rsplit(".", 1)[-1]
        dt = _TORCH.get(dname)
        if dt is None:
            raise TypeError("argument '%s': unsupported tensor dtype %s"
                            % (name, value.dtype))
        itemsize = value.element_size()
        shape = tuple(value.shape)
        strides = (tuple(value.stride()) if hasattr(value, "stride")
                   else None)
        if strides is None:
            nbytes = value.numel() * itemsize
        else:
            nbytes = _extent(shape, tuple(s * itemsize for s in strides),
                             itemsize)
        return value.data_ptr(), nbytes, dt
    if hasattr(value, "__cuda_array_interface__") and not hasattr(
            value, "__array_interface__"):
        raise TypeError(
            "argument '%s': a GPU array; tritium runs kernels on the CPU "
            "interpreter, so pass host arrays" % name)
    iface = getattr(value, "__array_interface__", None)
    if iface is None:
        return None
    typestr = iface["typestr"]
    np_dtype = getattr(value, "dtype", None)
    if getattr(np_dtype, "name", None) == "bfloat16":  # ml_dtypes
        dt = _capi.BF16
    elif typestr[0] == ">" and typestr[1:] not in ("b1", "i1", "u1"):
        raise TypeError("argument '%s': big-endian arrays (%s) are not "
                        "supported" % (name, typestr))
    else:
        dt = _TYPESTR.get(typestr[1:])
    if dt is None:
        raise TypeError("argument '%s': unsupported array dtype %s"
                        % (name, np_dtype if np_dtype is not None
                           else typestr))
    data = iface["data"]
    if isinstance(data, tuple):
        ptr = data[0]
    else:
        raise TypeError("argument '%s': the array does not expose a data "
                        "pointer" % name)
    itemsize = _ITEMSIZE[dt]
    return ptr or 0, _extent(tuple(iface["shape"]), iface.get("strides"),
                             itemsize), dt


class Uninitialized:
    """A tensor or array passed to a kernel whose contents are garbage until
    the kernel writes them (what ``torch.empty`` returns): with
    ``TRITIUM_SANITIZE=uninit`` the interpreter reports the first read of
    each program of bytes nothing wrote. Made by ``tritium.uninitialized``."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def uninitialized(value):
    """Marks `value` (a tensor or array argument) as uninitialized for one
    launch: ``kernel[grid](x, tritium.uninitialized(out), n)``."""
    return Uninitialized(value)


def _fill_arg(arg, name, value, no_specialize):
    """Converts one runtime argument into a C tritium_arg."""
    value = core._unwrap(value)
    if isinstance(value, Uninitialized):
        _fill_arg(arg, name, value.value, no_specialize)
        if arg.kind != _capi.ARG_BUFFER:
            raise TypeError("argument '%s': uninitialized() takes a tensor or array, got %s"
                            % (name, type(value.value).__name__))
        arg.flags |= _capi.ARG_UNINITIALIZED
        return
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.generic):
        value = value.item()  # a numpy scalar is a scalar, not a buffer
    arg.flags = _capi.ARG_NO_SPECIALIZE if no_specialize else 0
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        arg.kind = _capi.ARG_BOOL
        arg.value.i = int(bool(value))
        return
    buf = _buffer(name, value)
    if buf is not None:
        arg.kind = _capi.ARG_BUFFER
        arg.value.buffer.data, arg.value.buffer.bytes, \
            arg.value.buffer.dtype = buf
        return
    if isinstance(value, int) or (hasattr(value, "__index__")
                                  and not isinstance(value, float)):
        v = value.__index__()
        arg.kind = _capi.ARG_INT
        if -2**63 <= v < 2**63:
            arg.value.i = v
        elif 2**63 <= v < 2**64:
            arg.value.i = v - 2**64
            arg.flags |= _capi.ARG_UNSIGNED
        else:
            raise OverflowError("argument '%s': %d does not fit in 64 bits"
                             % (name, v))
        return
    if isinstance(value, float) or hasattr(value, "__float__"):
        arg.kind = _capi.ARG_FLOAT
        arg.value.f = float(value)
        return
    raise TypeError(
        "argument '%s': cannot pass %s to a kernel (expected an array or "
        "tensor, int, float or bool)" % (name, type(value).__name__))


def _constexpr_literal(name, value):
    """The signature spelling of a compile-time value (tuples nest in
    parentheses), or raises TypeError."""
    value = core._unwrap(value)
    if isinstance(value, tuple):
        return "(%s)" % ",".join(_constexpr_literal("%s[%d]" % (name, i), v)
                                 for i, v in enumerate(value))
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        if not -2**63 <= value < 2**64:
            raise OverflowError("constexpr '%s': %d does not fit in 64 bits"
                                % (name, value))
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if "'" in value:
            raise TypeError("constexpr '%s': strings inside tuples cannot "
                            "contain a quote" % name)
        return "'%s'" % value
    if isinstance(value, core.dtype) and not isinstance(
            value, (core.pointer_type, core.block_type)):
        return value._tl_name
    raise TypeError("constexpr '%s': cannot pass %s as a compile-time "
                    "value (expected int, float, bool, str, None, a tl dtype "
                    "or a tuple of these)" % (name, type(value).__name__))


def _constexpr_value(name, value):
    """A C tritium_constexpr for `value`, or raises TypeError."""
    value = core._unwrap(value)
    c = _capi.Constexpr()
    c.name = name.encode()
    if isinstance(value, tuple):
        c.kind, c.s = _capi.CONSTEXPR_LITERAL, _constexpr_literal(
            name, value).encode()
    elif value is None:
        c.kind = _capi.CONSTEXPR_NONE
    elif isinstance(value, bool):
        c.kind, c.i = _capi.CONSTEXPR_BOOL, int(value)
    elif isinstance(value, int):
        if -2**63 <= value < 2**63:
            c.kind, c.i = _capi.CONSTEXPR_INT, value
        elif 0 <= value < 2**64:
            c.kind, c.s = _capi.CONSTEXPR_LITERAL, str(value).encode()
        else:
            raise OverflowError("constexpr '%s': %d does not fit in 64 bits"
                             % (name, value))
    elif isinstance(value, float):
        c.kind, c.f = _capi.CONSTEXPR_FLOAT, value
    elif isinstance(value, str):
        c.kind, c.s = _capi.CONSTEXPR_STRING, value.encode()
    elif isinstance(value, core.dtype) and not isinstance(
            value, (core.pointer_type, core.block_type)):
        c.kind, c.s = _capi.CONSTEXPR_LITERAL, value._tl_name.encode()
    else:
        raise TypeError("constexpr '%s': cannot pass %s as a compile-time "
                        "value (expected int, float, bool, str, None or a "
                        "tl dtype)" % (name, type(value).__name__))
    return c


def _cache_key(value):
    value = core._unwrap(value)
    return (type(value).__name__, str(value) if isinstance(
        value, core.dtype) else value)


def _check_grid(grid):
    if isinstance(grid, (list, tuple)) and 1 <= len(grid) <= 3:
        dims = []
        for d in grid:
            d = core._unwrap(d)
            if isinstance(d, bool) or not hasattr(d, "__index__"):
                break
            dims.append(d.__index__())
        else:
            if all(d >= 0 for d in dims):
                return tuple(dims) + (1,) * (3 - len(dims))
    raise ValueError("grid must be 1 to 3 non-negative ints (or a callable "
                     "returning them), got %r" % (grid,))

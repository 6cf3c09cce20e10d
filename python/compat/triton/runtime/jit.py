"""``triton.runtime.jit``: ``jit``/``JITFunction`` (tritium's), and the
host-side helpers Triton's tests and users import from here:
``TensorWrapper``/``reinterpret`` (a tensor's memory seen as another
dtype, e.g. uint32 or fp8 data held in an int tensor) and
``type_canonicalisation_dict`` (type names to signature names)."""

from tritium.jit import JITFunction, KernelInterface, jit
from tritium.language import core as _core

# Type names (Triton's, torch's and numpy's spellings) -> signature names.
type_canonicalisation_dict = {
    "bool": "i1", "int1": "i1",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint1": "u1", "uint8": "u8", "uint16": "u16", "uint32": "u32",
    "uint64": "u64",
    "float8": "fp8", "float8e5": "fp8e5", "float8_e5m2": "fp8e5",
    "float8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv",
    "float8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8",
    "float8e5b16": "fp8e5b16", "float8_e5m2fnuz": "fp8e5b16",
    "float8e4b15": "fp8e4b15",
    "half": "fp16", "float16": "fp16", "bfloat16": "bf16",
    "float": "fp32", "float32": "fp32", "double": "fp64",
    "float64": "fp64",
}
for _v in list(type_canonicalisation_dict.values()):
    type_canonicalisation_dict[_v] = _v


class TensorWrapper:
    """`base` (a torch tensor or array) whose memory kernels read as
    `dtype` (a tl dtype of the same element size)."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = getattr(base, "data", None)
        self.device = getattr(base, "device", "cpu")
        self.shape = tuple(base.shape)

    def data_ptr(self):
        if hasattr(self.base, "data_ptr"):
            return self.base.data_ptr()
        return self.base.__array_interface__["data"][0]  # a numpy array

    def stride(self, *args):
        return self.base.stride(*args)

    def numel(self):
        if hasattr(self.base, "numel"):
            return self.base.numel()
        n = 1
        for d in self.shape:
            n *= d
        return n

    def element_size(self):
        return self.base.itemsize if not hasattr(self.base, "element_size") \
            else self.base.element_size()

    def dim(self):
        return len(self.shape)

    @property
    def is_cuda(self):
        return bool(getattr(self.base, "is_cuda", False))

    def __str__(self):
        return "TensorWrapper[%s](%s)" % (self.dtype, self.base)

    def __repr__(self):
        return str(self)

    def copy_(self, other):
        self.base.copy_(other.base if isinstance(other, TensorWrapper)
                        else other)
        return self

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)


def reinterpret(tensor, dtype):
    """`tensor`'s memory as `dtype`: a TensorWrapper, or the base tensor
    itself when `dtype` is its own type."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr") or hasattr(tensor, "__array_interface__"):
        if not isinstance(dtype, _core.dtype):
            raise TypeError("reinterpret: dtype must be a tl dtype, got %r"
                            % (dtype,))
        return TensorWrapper(tensor, dtype)
    raise TypeError("reinterpret: cannot reinterpret a %s"
                    % type(tensor).__name__)


class MockTensor:
    """A stand-in for a tensor argument of a given dtype (Triton uses it to
    compile without data); ``data_ptr()`` is 0."""

    def __init__(self, dtype, shape=None):
        self.dtype = dtype
        self.shape = [1] if shape is None else shape

    @staticmethod
    def data_ptr():
        return 0

    def stride(self):
        return (1,)


__all__ = ["JITFunction", "KernelInterface", "MockTensor", "TensorWrapper",
           "jit", "reinterpret", "type_canonicalisation_dict"]

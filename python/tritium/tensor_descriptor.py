"""Host tensor descriptors: ``TensorDescriptor(base, shape, strides,
block_shape, padding="zero")`` as Triton's ``triton.tools.tensor_descriptor``
has it. Passed to a kernel, it is a tensor descriptor there (``desc.load``,
``desc.store``, ...), built from its base, shape and strides; its block shape
and padding are part of the specialization. The base is a torch tensor or a
numpy array (or anything with ``data_ptr`` / ``__array_interface__``)."""

from dataclasses import dataclass
from typing import Any, List


def _base_info(base):
    """(data pointer, element bytes, is floating point) of a tensor-like."""
    if type(base).__name__ == "TensorWrapper":
        return base.data_ptr(), base.base.element_size(), base.dtype.is_floating()
    if hasattr(base, "data_ptr") and hasattr(base, "element_size"):
        return (base.data_ptr(), base.element_size(),
                bool(getattr(base.dtype, "is_floating_point", False)))
    iface = getattr(base, "__array_interface__", None)
    if iface is not None:
        dtype = getattr(base, "dtype", None)
        return (iface["data"][0], base.itemsize,
                getattr(dtype, "kind", "") == "f")
    raise TypeError("TensorDescriptor: base must be a tensor or an array, got %s"
                    % type(base).__name__)


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        self.shape = [int(s) for s in self.shape]
        self.strides = [int(s) for s in self.strides]
        self.block_shape = [int(b) for b in self.block_shape]
        rank = len(self.shape)

        def bad(why):
            raise ValueError("TensorDescriptor: %s" % why)
        if not 1 <= rank <= 5:
            bad("rank must be 1 to 5, got %d" % rank)
        if len(self.strides) != rank or len(self.block_shape) != rank:
            bad("shape, strides and block_shape must have one entry per "
                "dimension, got %d, %d and %d" % (rank, len(self.strides),
                                                 len(self.block_shape)))
        ptr, elem_bytes, is_float = _base_info(self.base)
        if ptr % 16:
            bad("base must be 16-byte aligned (its address is %#x)" % ptr)
        for b in self.block_shape:
            if b <= 0 or b & (b - 1):
                bad("block_shape entries must be powers of two, got %s"
                    % self.block_shape)
        for s in self.strides[:-1]:
            if (s * elem_bytes) % 16:
                bad("strides but the last must be multiples of 16 bytes, got "
                    "%s (elements of %d bytes)" % (self.strides, elem_bytes))
        if any(d <= 0 for d in self.shape):
            bad("shape must be positive, got %s" % self.shape)
        if self.strides[-1] != 1:
            bad("the last dimension must be contiguous (stride 1), got strides "
                "%s" % self.strides)
        if self.padding not in ("zero", "nan"):
            bad("padding must be 'zero' or 'nan', got %r" % (self.padding,))
        if self.padding == "nan" and not is_float:
            bad("padding 'nan' needs a floating-point base")

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        if hasattr(tensor, "stride") and callable(tensor.stride):
            strides = tensor.stride()
        else:  # numpy: byte strides
            strides = [s // tensor.itemsize for s in tensor.strides]
        return TensorDescriptor(tensor, list(tensor.shape), list(strides),
                                block_shape, padding)

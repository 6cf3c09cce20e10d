"""``triton.tools.tensor_descriptor``: host tensor descriptors as kernel
arguments (tritium.tensor_descriptor)."""

from tritium.tensor_descriptor import TensorDescriptor

__all__ = ["TensorDescriptor"]

"""Executors: where a corpus kernel runs.

``interp`` launches on numpy arrays (tritium's CPU interpreter); ``cuda``
converts the inputs to torch CUDA tensors and launches the same kernel
object, which the tritium package routes to the GPU backend. Each executor
moves host arrays (numpy, ``Bf16`` codes) to its own arrays and back.
"""

import numpy as np

from .manifest import Bf16


class HostBf16Tensor:
    """A CPU tensor of bf16 over a uint16 numpy array, duck-typed as torch's
    (data_ptr, dtype, element_size, numel, shape, stride, device), so the
    launcher passes it as a bf16 buffer."""

    class _Device:
        type = "cpu"

    dtype = "torch.bfloat16"
    device = _Device()

    def __init__(self, bits):
        self.bits = bits
        self.shape = bits.shape

    def data_ptr(self):
        return self.bits.__array_interface__["data"][0]

    def element_size(self):
        return 2

    def numel(self):
        return self.bits.size

    def stride(self):
        return tuple(s // 2 for s in self.bits.strides)


class Interp:
    name = "interp"

    def unavailable(self):
        return None

    def to_device(self, value):
        if isinstance(value, (list, tuple)):
            return [self.to_device(v) for v in value]
        if isinstance(value, Bf16):
            return HostBf16Tensor(value.bits.copy())
        if isinstance(value, np.ndarray):
            return np.ascontiguousarray(value.copy())
        return value

    def to_host(self, value):
        if isinstance(value, HostBf16Tensor):
            return Bf16(value.bits)
        return value

    def synchronize(self):
        pass


class Cuda:
    name = "cuda"

    def __init__(self):
        self._torch = None

    def unavailable(self):
        try:
            import torch
        except ImportError:
            return "torch is not installed"
        try:
            if not torch.cuda.is_available():
                return "no CUDA device"
        except Exception as e:  # noqa: BLE001 - a broken driver is a reason
            return "CUDA unavailable: %s" % e
        # tritium copies CUDA tensors to the host and interprets when it
        # cannot use the GPU itself: that would test the interpreter twice.
        try:
            from tritium import _capi
            check = getattr(_capi, "cuda_available", None)
            if check is None:
                return "this tritium has no CUDA backend"
            ok, why = check()
            if not ok:
                return "tritium cannot use the GPU: %s" % why
        except Exception as e:  # noqa: BLE001 - reported as the reason
            return "tritium cannot use the GPU: %s" % e
        self._torch = torch
        return None

    def to_device(self, value):
        torch = self._torch
        if isinstance(value, (list, tuple)):
            return [self.to_device(v) for v in value]
        if isinstance(value, Bf16):
            return torch.from_numpy(value.bits.view(np.int16).copy()).view(
                torch.bfloat16).cuda()
        if isinstance(value, np.ndarray):
            return torch.from_numpy(np.ascontiguousarray(value.copy())).cuda()
        return value

    def to_host(self, value):
        torch = self._torch
        if isinstance(value, torch.Tensor):
            if value.dtype == torch.bfloat16:
                return Bf16(value.view(torch.int16).cpu().numpy().view(
                    np.uint16))
            return value.cpu().numpy()
        return value

    def synchronize(self):
        self._torch.cuda.synchronize()


EXECUTORS = {"interp": Interp, "cuda": Cuda}

"""``triton.runtime.driver``: ``driver.active``, the device kernels launch
on, as Triton's tutorials and tests query it.

With a usable CUDA GPU (libcuda through tritium's C library) that is the
GPU: its target (``GPUTarget("cuda", 90, 32)`` on an H100), torch's current
device and stream, and the driver's device attributes. Without one it is
tritium's CPU interpreter: ``GPUTarget("cpu", 0, 1)``, torch's CPU device,
and properties that describe the host (one "multiprocessor" per core).
"""

import os

from tritium import _capi

from ..backends.compiler import GPUTarget

# CUdevice_attribute numbers (cuda.h).
_ATTRS = {
    "max_shared_mem": 97,        # MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    "max_num_regs": 12,          # MAX_REGISTERS_PER_BLOCK
    "multiprocessor_count": 16,  # MULTIPROCESSOR_COUNT
    "warpSize": 10,              # WARP_SIZE
    "sm_clock_rate": 13,         # CLOCK_RATE (kHz)
    "mem_clock_rate": 36,        # MEMORY_CLOCK_RATE (kHz)
    "mem_bus_width": 37,         # GLOBAL_MEMORY_BUS_WIDTH (bits)
}


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


class _Utils:
    """``driver.active.utils``."""

    def get_device_properties(self, device=0):
        """{max_shared_mem, max_num_regs, multiprocessor_count, warpSize,
        sm_clock_rate, mem_clock_rate, mem_bus_width} of the device."""
        if _capi.cuda_available()[0]:
            return {k: _capi.cuda_device_attribute(n) for k, n in _ATTRS.items()}
        # The interpreter: one program per core at a time, no register or
        # shared-memory limits worth the name.
        return {"max_shared_mem": 1 << 30, "max_num_regs": 65536,
                "multiprocessor_count": os.cpu_count() or 1,
                "warpSize": 32, "sm_clock_rate": 0, "mem_clock_rate": 0,
                "mem_bus_width": 0}


class ActiveDriver:
    """``triton.runtime.driver.active``."""

    def __init__(self):
        self.utils = _Utils()

    @staticmethod
    def is_active():
        return True

    @staticmethod
    def _gpu():
        return _capi.cuda_available()[0]

    def get_current_target(self):
        if self._gpu():
            return GPUTarget("cuda", _capi.cuda_compute_capability(), 32)
        return GPUTarget("cpu", 0, 1)

    def get_active_torch_device(self):
        torch = _torch()
        if torch is None:
            return "cuda" if self._gpu() else "cpu"
        if self._gpu() and torch.cuda.is_available():
            return torch.device("cuda", torch.cuda.current_device())
        return torch.device("cpu")

    def get_device_interface(self):
        torch = _torch()
        if torch is None:
            raise RuntimeError("the device interface is torch.cuda, and "
                               "torch is not installed")
        return torch.cuda

    def get_current_device(self):
        torch = _torch()
        if torch is not None and torch.cuda.is_available():
            return torch.cuda.current_device()
        return 0

    def set_current_device(self, device):
        torch = _torch()
        if torch is not None and torch.cuda.is_available():
            torch.cuda.set_device(device)

    def get_current_stream(self, device=None):
        torch = _torch()
        if torch is not None and torch.cuda.is_available():
            return torch.cuda.current_stream(device).cuda_stream
        return 0

    def get_benchmarker(self):
        from tritium.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        """A 256 MB buffer that benchmarks overwrite to flush the L2."""
        torch = _torch()
        if torch is None:
            import numpy
            return numpy.empty(256 * 1024 * 1024 // 4, dtype=numpy.int32)
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int,
                           device=self.get_active_torch_device())

    @staticmethod
    def clear_cache(cache):
        if hasattr(cache, "zero_"):
            cache.zero_()
        else:
            cache.fill(0)


class _DriverConfig:
    """``triton.runtime.driver``: ``active`` and ``default``."""

    def __init__(self):
        self._active = None

    @property
    def active(self):
        if self._active is None:
            self._active = ActiveDriver()
        return self._active

    @property
    def default(self):
        return self.active

    def set_active(self, driver):
        self._active = driver

    def reset_active(self):
        self._active = None


driver = _DriverConfig()

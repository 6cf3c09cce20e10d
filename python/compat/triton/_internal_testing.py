"""``triton._internal_testing``: the helpers Triton's own test suite
imports (dtype lists, target predicates, random inputs, conversions
between numpy arrays and device tensors), so that suite runs unmodified
against tritium. Targets come from ``triton.runtime.driver.active``: the
GPU when one is usable, else tritium's CPU interpreter (backend "cpu");
``TRITON_INTERPRET=1`` means the interpreter, as in Triton."""

import os
import re

import numpy as np
import pytest
from numpy.random import RandomState

import triton
import triton.language as tl
from triton import knobs
from triton.runtime.jit import (TensorWrapper, reinterpret,
                                type_canonicalisation_dict)

try:
    import torch
except ImportError:  # the helpers that need tensors say so
    torch = None

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + \
    ["bfloat16"]
tma_dtypes = sorted(set(dtypes_with_bfloat16) -
                    {"int64", "uint64", "float64"})


def is_interpreter():
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def get_current_target():
    if is_interpreter():
        return None
    return triton.runtime.driver.active.get_current_target()


def _backend(name):
    target = get_current_target()
    return target is not None and target.backend == name


def is_cuda():
    return _backend("cuda")


def is_tileir():
    return _backend("tileir")


def is_hip():
    return _backend("hip")


def is_xpu():
    return _backend("xpu")


def _cc_major():
    target = get_current_target()
    if target is None or target.backend != "cuda":
        return -1
    return int(target.arch) // 10


def is_ampere_or_newer():
    return _cc_major() >= 8


def is_blackwell():
    return _cc_major() == 10


def is_hopper_or_newer():
    return _cc_major() >= 9


def is_hopper():
    return _cc_major() == 9


def is_sm12x():
    return _cc_major() == 12


def _hip_arch(*archs):
    target = get_current_target()
    return target is not None and target.backend == "hip" and \
        target.arch in archs


def is_hip_cdna2():
    return _hip_arch("gfx90a")


def is_hip_cdna3():
    return _hip_arch("gfx942")


def is_hip_cdna4():
    return _hip_arch("gfx950")


def is_hip_rdna3():
    return _hip_arch("gfx1100", "gfx1101", "gfx1102", "gfx1103")


def is_hip_rdna4():
    return _hip_arch("gfx1200", "gfx1201")


def is_hip_gfx1250():
    return _hip_arch("gfx1250")


def is_hip_cdna():
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def get_hip_lds_size():
    return 163840 if is_hip_cdna4() else 65536


def get_arch():
    target = get_current_target()
    return "" if target is None else str(target.arch)


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random test data of `dtype_str` (never 0 for integers, so division
    tests divide); seed 17 unless `rs` is given."""
    if isinstance(shape, int):
        shape = (shape,)
    if rs is None:
        rs = RandomState(seed=17)
    if dtype_str in int_dtypes + uint_dtypes:
        info = np.iinfo(getattr(np, dtype_str))
        low = info.min if low is None else max(low, info.min)
        high = info.max if high is None else min(high, info.max)
        x = rs.randint(low, high, shape, dtype=getattr(np, dtype_str))
        x[x == 0] = 1
        return x
    if dtype_str and "float8" in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        bits = rs.normal(0, 1, shape).astype("float32").view("uint32")
        return (bits & np.uint32(0xffff0000)).view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError("unknown dtype %s" % dtype_str)


def _need_torch(what):
    if torch is None:
        raise RuntimeError("%s needs torch" % what)


def to_triton(x, device, dst_type=None):
    """A device tensor holding numpy array `x` (as `dst_type` when given:
    unsigned and fp8 data travel as reinterpreted signed tensors)."""
    _need_torch("to_triton")
    t = x.dtype.name
    if t in uint_dtypes:
        signed = x.astype(getattr(np, t[1:]))
        return reinterpret(torch.tensor(signed, device=device),
                           getattr(tl, t))
    if dst_type and "float8" in dst_type:
        return reinterpret(torch.tensor(x, device=device),
                           getattr(tl, dst_type))
    if t == "float32" and dst_type == "bfloat16":
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device)


def str_to_triton_dtype(x):
    return tl.str_to_ty(type_canonicalisation_dict[x], None)


def torch_dtype_name(dtype):
    if isinstance(dtype, tl.dtype):
        return dtype.name
    if torch is not None and isinstance(dtype, torch.dtype):
        return re.match(r"^torch\.(\w+)$", str(dtype)).group(1)
    raise TypeError("not a triton or torch dtype: %s" % type(dtype))


def to_numpy(x):
    if isinstance(x, TensorWrapper):
        return x.base.cpu().numpy().astype(
            getattr(np, torch_dtype_name(x.dtype)))
    if torch is not None and isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    raise ValueError("not a triton-compatible tensor: %r" % (x,))


def supports_tma(byval_only=False):
    if is_interpreter():
        return True
    if not is_cuda():
        return False
    version = tuple(int(v) for v in knobs.nvidia.ptxas.version.split("."))
    return _cc_major() >= 9 and version >= ((12, 0) if byval_only
                                            else (12, 3))


def supports_ws():
    if is_interpreter():
        return True
    return is_cuda() and _cc_major() >= 9


def tma_skip_msg(byval_only=False):
    if byval_only:
        return ("Requires __grid_constant__ TMA support (NVIDIA Hopper or "
                "higher, CUDA 12.0 or higher)")
    return ("Requires advanced TMA support (NVIDIA Hopper or higher, CUDA "
            "12.3 or higher)")


requires_tma = pytest.mark.skipif(not supports_tma(),
                                  reason=tma_skip_msg())


def default_alloc_fn(size, align, _):
    _need_torch("default_alloc_fn")
    return torch.empty(size, dtype=torch.int8, device="cuda")


def unwrap_tensor(t):
    return t.base if isinstance(t, TensorWrapper) else t


def _fresh_knobs_impl(skipped_attr=None):
    """(fresh, reset): `fresh()` gives every knob set its defaults (and
    hides their variables), `reset()` puts everything back."""
    skipped_attr = set(skipped_attr or ())
    monkeypatch = pytest.MonkeyPatch()
    knobs_map = {name: knobset for name, knobset in vars(knobs).items()
                 if isinstance(knobset, knobs.base_knobs)
                 and name not in skipped_attr}
    to_unset = []
    prev_propagate = knobs.propagate_env

    def fresh_function():
        for name, knobset in knobs_map.items():
            setattr(knobs, name, knobset.copy().reset())
            for knob in knobset.knob_descriptors.values():
                if knob.key in os.environ:
                    monkeypatch.delenv(knob.key, raising=False)
                else:
                    to_unset.append(knob.key)
        knobs.propagate_env = True
        return knobs

    def reset_function():
        for name, knobset in knobs_map.items():
            setattr(knobs, name, knobset)
        monkeypatch.undo()
        for key in to_unset:
            os.environ.pop(key, None)
        knobs.propagate_env = prev_propagate

    return fresh_function, reset_function

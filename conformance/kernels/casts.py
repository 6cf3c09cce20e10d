"""Casts: every pair of (bool, int8-int64, uint8-uint64, fp16, bf16, fp32,
fp64) with values in the defined range of the target, fp8 formats both
ways (through uint8 codes and a bitcast), round-toward-zero downcasts and
bitcasts between same-width types."""

import itertools

import numpy as np

import triton
import triton.language as tl

from conformance import compare, formats, refs
from conformance.manifest import Bf16, Manifest, Out, cdiv, empty, f64, \
    rand, sizes

BLOCK = 64


@triton.jit
def cast_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def fp8_down_kernel(x_ptr, out_ptr, n, FMT: tl.constexpr,
                    BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if FMT == "fp8e5":
        y = x.to(tl.float8e5)
    elif FMT == "fp8e4nv":
        y = x.to(tl.float8e4nv)
    elif FMT == "fp8e4b8":
        y = x.to(tl.float8e4b8)
    elif FMT == "fp8e5b16":
        y = x.to(tl.float8e5b16)
    else:
        y = x.to(tl.float8e4b15)
    tl.store(out_ptr + offs, y.to(tl.uint8, bitcast=True), mask=mask)


@triton.jit
def fp8_up_kernel(x_ptr, out_ptr, n, FMT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    codes = tl.load(x_ptr + offs, mask=mask)
    if FMT == "fp8e5":
        x = codes.to(tl.float8e5, bitcast=True)
    elif FMT == "fp8e4nv":
        x = codes.to(tl.float8e4nv, bitcast=True)
    elif FMT == "fp8e4b8":
        x = codes.to(tl.float8e4b8, bitcast=True)
    elif FMT == "fp8e5b16":
        x = codes.to(tl.float8e5b16, bitcast=True)
    else:
        x = codes.to(tl.float8e4b15, bitcast=True)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rtz_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.cast(x, out_ptr.dtype.element_ty, fp_downcast_rounding="rtz")
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def bitcast_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty, bitcast=True),
             mask=mask)


# -- host side ---------------------------------------------------------------

TYPES = list(formats.ALL)
PAIRS = [(s, d) for s, d in itertools.product(TYPES, TYPES) if s != d]
FLOAT_RANGE = {"fp16": 6e4, "bf16": 1e30, "fp32": 1e30, "fp64": 1e300}


def _int_range(dtype):
    info = np.iinfo(formats.STORAGE[dtype])
    return int(info.min), int(info.max)


def _source(rng, n, src, dst):
    """Values of `src` inside the defined domain of the cast to `dst`."""
    if src == "bool":
        return rand(rng, n, "bool")
    if src in formats.INTS:
        lo, hi = _int_range(src)
        if dst in formats.FLOATS:
            # exactly representable in float64, and finite in fp16
            lim = 60000 if dst == "fp16" else 2**52
            lo, hi = max(lo, -lim), min(hi, lim)
        vals = rng.integers(lo, hi, size=n, endpoint=True, dtype=np.int64) \
            if hi < 2**63 else rng.integers(0, 2**64, size=n,
                                            dtype=np.uint64)
        x = vals.astype(formats.STORAGE[src])
        x[::5] = 0
        return x
    # floats
    if dst in formats.INTS:
        lo, hi = _int_range(dst)
        lim = FLOAT_RANGE[src]
        lo, hi = max(lo, -lim), min(hi, lim)
        # stay below the largest value that rounds within range
        lo, hi = lo * 0.99, hi * 0.99
        x = rng.uniform(lo, hi, size=n)
        mag = np.exp(rng.uniform(-3, np.log(max(hi, 1.0)), size=n))
        x = np.where(rng.random(n) < 0.5, x, np.clip(
            np.copysign(mag, rng.uniform(-1, 1, n)), lo, hi))
    elif dst == "bool":
        x = rng.uniform(-2, 2, size=n)
    else:
        lim = min(FLOAT_RANGE[src], 1e5)
        x = np.copysign(np.exp(rng.uniform(np.log(1e-9), np.log(lim), n)),
                        rng.uniform(-1, 1, n))
    x[::5] = 0.0
    if src == "bf16":
        return Bf16.from_float(x)
    return formats.round_to(x, src).astype(formats.STORAGE[src])


def _cast_make(p, rng):
    src, dst = p.pair
    return dict(x=_source(rng, p.n, src, dst), out=empty(p.n, dst))


def _cast_run(a, p):
    cast_kernel[(cdiv(p.n, BLOCK),)](a.x, a.out, p.n, BLOCK=BLOCK)


def _cast_ref(a, p):
    src, dst = p.pair
    if src in formats.INTS or src == "bool":
        x = np.asarray(a.x).astype(object)
    else:
        x = f64(a.x)
    if dst == "bool":
        return {"out": np.asarray(x != 0, dtype=bool)}
    if dst in formats.INTS:
        if src in formats.FLOATS:
            x = np.trunc(x).astype(object)
        return {"out": refs.wrap(np.vectorize(int, otypes=[object])(x)
                                 if x.size else x, formats.STORAGE[dst])}
    return {"out": formats.round_to(np.asarray(x, dtype=np.float64), dst)}


FP8 = ["fp8e5", "fp8e4nv", "fp8e4b8", "fp8e5b16", "fp8e4b15"]


def _fp8_down_make(p, rng):
    top = min(formats.max_finite(p.fmt), 1e4)
    if p.fmt == "fp8e4b15":
        top = 1.7
    x = np.copysign(np.exp(rng.uniform(np.log(top / 2**14), np.log(top),
                                       p.n)), rng.uniform(-1, 1, p.n))
    x[::7] = 0.0
    return dict(x=formats.round_to(x, p.src).astype(
        formats.STORAGE[p.src]) if p.src != "bf16" else Bf16.from_float(x),
        out=empty(p.n, p.fmt))


def _fp8_down_run(a, p):
    fp8_down_kernel[(cdiv(p.n, BLOCK),)](
        a.x, a.out, p.n, FMT=p.fmt, BLOCK=BLOCK)


def _fp8_down_ref(a, p):
    # Triton converts to fp8e4b15 with a rounding bias (ties away from
    # zero); the other formats round to nearest even.
    ties = "away" if p.fmt == "fp8e4b15" else "even"
    return {"out": formats.round_to(f64(a.x), p.fmt, ties)}


def _fp8_up_make(p, rng):
    codes = np.arange(p.n) % 256
    codes = rng.permutation(codes).astype(np.uint8)
    table = formats.table(p.fmt)
    codes = np.where(np.isnan(table[codes]), 0, codes).astype(np.uint8)
    return dict(x=codes, out=empty(p.n, p.dst))


def _fp8_up_run(a, p):
    fp8_up_kernel[(cdiv(p.n, BLOCK),)](
        a.x, a.out, p.n, FMT=p.fmt, BLOCK=BLOCK)


def _fp8_up_ref(a, p):
    return {"out": formats.decode(a.x, p.fmt)}


def _rtz_make(p, rng):
    x = np.copysign(np.exp(rng.uniform(np.log(1e-6), np.log(6e4), p.n)),
                    rng.uniform(-1, 1, p.n)).astype(np.float32)
    return dict(x=x, out=empty(p.n, p.dst))


def _rtz_run(a, p):
    rtz_kernel[(cdiv(p.n, BLOCK),)](a.x, a.out, p.n, BLOCK=BLOCK)


def _rtz_ref(a, p):
    x = a.x
    if p.dst == "bf16":
        bits = (x.view(np.uint32) >> 16).astype(np.uint16)
        return {"out": formats.decode(bits, "bf16")}
    r = x.astype(np.float16)
    over = np.abs(r.astype(np.float64)) > np.abs(x.astype(np.float64))
    r = np.where(over, np.nextafter(r, np.float16(0)), r)
    return {"out": r.astype(np.float64)}


BITCASTS = [("fp32", "int32"), ("int32", "fp32"), ("fp16", "int16"),
            ("uint16", "fp16"), ("fp64", "int64"), ("uint64", "fp64"),
            ("int8", "uint8"), ("uint32", "int32"), ("bf16", "uint16"),
            ("int16", "bf16"), ("fp32", "uint32")]


def _bitcast_make(p, rng):
    src, dst = p.pair
    raw = rng.integers(0, 2**63, size=p.n, dtype=np.uint64)
    width = np.dtype(formats.STORAGE[src]).itemsize * 8
    u = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    bits = raw.astype(u)
    if src in formats.FLOATS:
        # finite values only: NaN payloads are not preserved by loads
        val = rand(rng, p.n, src, -1e3, 1e3)
        x = val
    else:
        x = bits.view(formats.STORAGE[src])
    return dict(x=x, out=empty(p.n, dst))


def _bitcast_run(a, p):
    bitcast_kernel[(cdiv(p.n, BLOCK),)](a.x, a.out, p.n, BLOCK=BLOCK)


def _bitcast_ref(a, p):
    src, dst = p.pair
    raw = a.x.bits if isinstance(a.x, Bf16) else a.x
    out = raw.view(formats.STORAGE[dst])
    if dst == "bf16":
        return {"out": formats.decode(out, "bf16")}
    return {"out": out}


MANIFESTS = [
    Manifest("cast_all_pairs", cast_kernel, _cast_make, _cast_run, _cast_ref,
             {"out": Out(tol=compare.Tol(exact=True))},
             params=dict(pair=PAIRS, n=sizes(BLOCK, large=300))),
    Manifest("cast_fp8_down", fp8_down_kernel, _fp8_down_make,
             _fp8_down_run, _fp8_down_ref,
             {"out": Out(fmt=lambda p: p.fmt, tol=compare.Tol(exact=True))},
             params=dict(fmt=FP8, src=["fp32", "fp16", "bf16", "fp64"],
                         n=sizes(BLOCK, large=1000))),
    Manifest("cast_fp8_up", fp8_up_kernel, _fp8_up_make, _fp8_up_run,
             _fp8_up_ref, {"out": Out(tol=compare.Tol(exact=True))},
             params=dict(fmt=FP8, dst=["fp32", "fp16", "bf16", "fp64"],
                         n=[256, 300, 1, 64, 255])),
    Manifest("cast_rtz", rtz_kernel, _rtz_make, _rtz_run, _rtz_ref,
             {"out": Out(tol=compare.Tol(exact=True))},
             params=dict(dst=["fp16", "bf16"], n=sizes(BLOCK))),
    Manifest("bitcast", bitcast_kernel, _bitcast_make, _bitcast_run,
             _bitcast_ref, {"out": Out(tol=compare.Tol(exact=True))},
             params=dict(pair=BITCASTS, n=sizes(BLOCK, large=333))),
]

"""Scans (cumsum and cumprod along each axis, reversed, a custom tuple
combine), sort (ascending, descending, every width), flip, topk, histogram
with a mask and gather."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare, formats, refs
from conformance.manifest import Manifest, Out, empty, f64, next_pow2, rand


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, M, N, AXIS: tl.constexpr,
                  REVERSE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=REVERSE),
             mask=mask)


@triton.jit
def cumprod_kernel(x_ptr, out_ptr, N, BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + row * N + rn, mask=rn < N, other=1.0)
    tl.store(out_ptr + row * N + rn, tl.cumprod(x, axis=0), mask=rn < N)


@triton.jit
def _linrec(a1, b1, a2, b2):
    # (h -> a1 h + b1) followed by (h -> a2 h + b2)
    return a1 * a2, a2 * b1 + b2


@triton.jit
def linrec_kernel(a_ptr, b_ptr, out_ptr, N, BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    mask = rn < N
    a = tl.load(a_ptr + row * N + rn, mask=mask, other=1.0)
    b = tl.load(b_ptr + row * N + rn, mask=mask, other=0.0)
    _, h = tl.associative_scan((a, b), 0, _linrec)
    tl.store(out_ptr + row * N + rn, h, mask=mask)


@triton.jit
def sort_kernel(x_ptr, out_ptr, N: tl.constexpr, DESC: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + rn)
    tl.store(out_ptr + row * N + rn, tl.sort(x, descending=DESC))


@triton.jit
def flip_kernel(x_ptr, a_ptr, b_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(a_ptr + offs, tl.flip(x, 1))
    tl.store(b_ptr + offs, tl.flip(x, 0))


@triton.jit
def topk_kernel(x_ptr, out_ptr, N: tl.constexpr, K: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(out_ptr + row * K + tl.arange(0, K), tl.topk(x, K))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr,
                     BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, BINS, mask=mask)
    tl.store(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr,
                  N: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx, AXIS))


# -- host side ---------------------------------------------------------------

SHAPES = [(1, 1), (3, 7), (16, 16), (17, 33), (8, 100), (64, 5)]


def _cs_make(p, rng):
    m, n = p.shape
    wide = {"int8": "int32", "uint8": "uint32", "int16": "int32"}.get(
        p.dtype, p.dtype)
    return dict(x=rand(rng, (m, n), p.dtype), out=empty((m, n), wide))


def _cs_run(a, p):
    m, n = p.shape
    cumsum_kernel[(1,)](a.x, a.out, m, n, AXIS=p.axis, REVERSE=p.reverse,
                        BM=next_pow2(m), BN=next_pow2(n))


def _cs_ref(a, p):
    if p.dtype in formats.INTS:
        x = a.x.astype(object)
    else:
        x = f64(a.x)
    if p.reverse:
        x = np.flip(x, p.axis)
    r = np.cumsum(x, axis=p.axis)
    if p.reverse:
        r = np.flip(r, p.axis)
    if p.dtype in formats.INTS:
        return {"out": refs.wrap(r, a.out.dtype)}
    s = np.cumsum(np.abs(x), axis=p.axis)
    if p.reverse:
        s = np.flip(s, p.axis)
    return {"out": r, "out:scale": s}


def _cs_tol(p):
    if p.dtype in formats.INTS:
        return None
    return compare.tol(p.dtype, p.shape[p.axis])


def _csl_run(a, p):
    m, n = p.shape
    cumsum_kernel[(1,)](a.x, a.out, m, n, AXIS=p.axis, REVERSE=p.reverse,
                        BM=next_pow2(m), BN=next_pow2(n), num_warps=p.warps)


def _lrl_run(a, p):
    m, n = p.shape
    linrec_kernel[(m,)](a.a, a.b, a.out, n, BN=next_pow2(n), num_warps=p.warps)


def _cp_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), "fp32", 0.9, 1.1),
                out=empty((m, n), "fp32"))


def _cp_run(a, p):
    m, n = p.shape
    cumprod_kernel[(m,)](a.x, a.out, n, BN=next_pow2(n))


def _cp_ref(a, p):
    return {"out": np.cumprod(f64(a.x), axis=1)}


def _lr_make(p, rng):
    m, n = p.shape
    return dict(a=rand(rng, (m, n), "fp32", -1, 1),
                b=rand(rng, (m, n), "fp32"), out=empty((m, n), "fp32"))


def _lr_run(a, p):
    m, n = p.shape
    linrec_kernel[(m,)](a.a, a.b, a.out, n, BN=next_pow2(n))


def _lr_ref(a, p):
    A, B = f64(a.a), f64(a.b)
    h = np.zeros(A.shape[0])
    out = np.empty_like(A)
    for t in range(A.shape[1]):
        h = A[:, t] * h + B[:, t]
        out[:, t] = h
    return {"out": out}


def _sort_make(p, rng):
    m, n = p.shape
    x = rand(rng, (m, n), p.dtype)
    return dict(x=x, out=empty((m, n), p.dtype))


def _sort_run(a, p):
    m, n = p.shape
    sort_kernel[(m,)](a.x, a.out, N=n, DESC=p.desc)


def _sort_ref(a, p):
    x = f64(a.x) if p.dtype not in formats.INTS else a.x
    r = np.sort(x, axis=1)
    return {"out": np.flip(r, 1) if p.desc else r}


def _flip_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), p.dtype), a=empty((m, n), p.dtype),
                b=empty((m, n), p.dtype))


def _flip_run(a, p):
    m, n = p.shape
    flip_kernel[(1,)](a.x, a.a, a.b, M=m, N=n)


def _flip_ref(a, p):
    x = f64(a.x) if p.dtype not in formats.INTS else a.x
    return {"a": np.flip(x, 1), "b": np.flip(x, 0)}


def _topk_make(p, rng):
    m, n, k = p.mnk
    return dict(x=rand(rng, (m, n), p.dtype), out=empty((m, k), p.dtype))


def _topk_run(a, p):
    m, n, k = p.mnk
    topk_kernel[(m,)](a.x, a.out, N=n, K=k)


def _topk_ref(a, p):
    k = p.mnk[2]
    x = f64(a.x) if p.dtype not in formats.INTS else a.x
    return {"out": np.flip(np.sort(x, axis=1), 1)[:, :k]}


def _hist_make(p, rng):
    return dict(x=rng.integers(0, p.bins, size=p.n).astype(np.int32),
                out=empty(p.bins, "int32"))


def _hist_run(a, p):
    histogram_kernel[(1,)](a.x, a.out, p.n, BLOCK=next_pow2(max(p.n, 1)),
                           BINS=p.bins)


def _hist_ref(a, p):
    return {"out": np.bincount(a.x, minlength=p.bins)}


def _g_make(p, rng):
    m, n = p.shape
    lim = m if p.axis == 0 else n
    return dict(src=rand(rng, (m, n), p.dtype),
                idx=rng.integers(0, lim, size=(m, n)).astype(np.int32),
                out=empty((m, n), p.dtype))


def _g_run(a, p):
    m, n = p.shape
    gather_kernel[(1,)](a.src, a.idx, a.out, M=m, N=n, AXIS=p.axis)


def _g_ref(a, p):
    src = f64(a.src) if p.dtype not in formats.INTS else a.src
    return {"out": np.take_along_axis(src, a.idx.astype(np.int64),
                                      axis=p.axis)}


POW2 = [(1, 2), (4, 16), (2, 128), (8, 32), (3, 64), (1, 1024)]

MANIFESTS = [
    Manifest("cumsum_axis", cumsum_kernel, _cs_make, _cs_run, _cs_ref,
             {"out": Out(tol=_cs_tol)},
             params=dict(shape=SHAPES, axis=[0, 1], reverse=[False, False,
                                                             True],
                         dtype=["fp32", "int32", "int8", "fp16", "fp64",
                                "uint8", "int64"])),
    Manifest("cumprod", cumprod_kernel, _cp_make, _cp_run, _cp_ref,
             {"out": Out(tol=compare.tol("fp32", 100))},
             params=dict(shape=SHAPES)),
    Manifest("scan_custom_tuple", linrec_kernel, _lr_make, _lr_run, _lr_ref,
             {"out": Out(tol=compare.tol("fp32", 100))},
             params=dict(shape=SHAPES)),
    # Long axes: spread over lanes and warps and repeated in registers,
    # forward and reversed, on 1 to 8 warps; linrec's combine does not
    # commute.
    Manifest("scan_long", cumsum_kernel, _cs_make, _csl_run, _cs_ref,
             {"out": Out(tol=_cs_tol)},
             params=dict(shape=[(1, 4096), (1, 3000), (1024, 2), (16, 256),
                                (128, 64), (3, 1500), (1, 8192)],
                         axis=[1, 1, 0, 1, 0, 1, 1],
                         reverse=[False, True, False, True, True, False, True],
                         dtype=["fp32", "int32", "fp32", "int64", "fp16",
                                "fp64", "int32"],
                         warps=[4, 8, 1, 2, 4, 8, 4])),
    Manifest("scan_long_tuple", linrec_kernel, _lr_make, _lrl_run, _lr_ref,
             {"out": Out(tol=compare.tol("fp32", 100))},
             params=dict(shape=[(2, 4096), (1, 1000), (3, 2048), (1, 300)],
                         warps=[4, 8, 1, 2])),
    Manifest("sort", sort_kernel, _sort_make, _sort_run, _sort_ref,
             {"out": None},
             params=dict(shape=POW2, desc=[False, True, True],
                         dtype=["fp32", "int32", "uint8", "fp16", "int64",
                                "uint32", "bf16", "int8", "fp64"])),
    # Long rows of 16-bit and fp32 floats: the GPU sorts them across lanes
    # and warps by their total-order keys alone.
    Manifest("sort_long", sort_kernel, _sort_make, _sort_run, _sort_ref,
             {"out": None},
             params=dict(shape=[(2, 256), (1, 512), (3, 128), (1, 2048)],
                         desc=[False, True, True, False, True],
                         dtype=["fp16", "bf16", "fp32", "bf16", "fp16",
                                "fp32"])),
    Manifest("flip", flip_kernel, _flip_make, _flip_run, _flip_ref,
             {"a": None, "b": None},
             params=dict(shape=[(1, 2), (4, 16), (2, 128), (8, 32), (4, 64),
                                (1, 1024)],
                         dtype=["fp32", "int16", "fp16",
                                            "uint64", "bf16"])),
    Manifest("topk", topk_kernel, _topk_make, _topk_run, _topk_ref,
             {"out": None},
             params=dict(mnk=[(1, 16, 4), (4, 64, 8), (2, 128, 1),
                              (3, 32, 32)],
                         dtype=["fp32", "int32", "fp16"])),
    Manifest("histogram", histogram_kernel, _hist_make, _hist_run,
             _hist_ref, {"out": None},
             params=dict(n=[1, 7, 128, 129, 1000, 4096],
                         bins=[16, 128, 4, 1024])),
    Manifest("gather", gather_kernel, _g_make, _g_run, _g_ref, {"out": None},
             params=dict(shape=[(4, 16), (16, 4), (1, 8), (32, 32), (8, 1)],
                         axis=[0, 1], dtype=["fp32", "int32", "fp16"])),
]

"""Reductions over each axis of 2D and 3D tiles (sum, max, min, xor_sum,
reduce_or, keep_dims, the sum of narrow ints in int32), argmax/argmin and
max/min with indices under ties (tie_break_left), custom combine functions
(scalar and tuple) and NaN/Inf in float reductions."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare, formats, refs
from conformance.manifest import Manifest, Out, empty, f64, next_pow2, rand


@triton.jit
def reduce2d_kernel(x_ptr, out_ptr, M, N, OP: tl.constexpr,
                    AXIS: tl.constexpr, PAD: tl.constexpr, BM: tl.constexpr,
                    BN: tl.constexpr):
    # PAD: the identity of OP in the input's dtype, for masked-off lanes.
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=PAD)
    if OP == "max":
        r = tl.max(x, axis=AXIS)
    elif OP == "min":
        r = tl.min(x, axis=AXIS)
    else:
        r = tl.sum(x, axis=AXIS)
    if AXIS == 0:
        tl.store(out_ptr + rn, r, mask=rn < N)
    else:
        tl.store(out_ptr + rm, r, mask=rm < M)


@triton.jit
def reduce_all_kernel(x_ptr, sum_ptr, max_ptr, n, BLOCK: tl.constexpr):
    # axis=None reduces everything; keep_dims keeps a [1] result.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    s = tl.sum(x)
    m = tl.max(tl.where(offs < n, x, -float("inf")), axis=0,
               keep_dims=True)
    tl.store(sum_ptr, s)
    tl.store(max_ptr + tl.arange(0, 1), m)


@triton.jit
def int_reduce_kernel(x_ptr, sum_ptr, xor_ptr, or_ptr, max_ptr, N,
                      BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    mask = rn < N
    x = tl.load(x_ptr + row * N + rn, mask=mask, other=0)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    tl.store(xor_ptr + row, tl.xor_sum(x, axis=0))
    tl.store(or_ptr + row, tl.reduce_or(x, axis=0))
    tl.store(max_ptr + row, tl.max(tl.where(mask, x, tl.min(x, axis=0)),
                                   axis=0))


@triton.jit
def argmax_kernel(x_ptr, amax_ptr, amin_ptr, vmax_ptr, imax_ptr, N,
                  BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    mask = rn < N
    x = tl.load(x_ptr + row * N + rn, mask=mask, other=-100)
    y = tl.load(x_ptr + row * N + rn, mask=mask, other=100)
    tl.store(amax_ptr + row, tl.argmax(x, axis=0))
    tl.store(amin_ptr + row, tl.argmin(y, axis=0, tie_break_left=True))
    v, i = tl.max(x, axis=0, return_indices=True,
                  return_indices_tie_break_left=True)
    tl.store(vmax_ptr + row, v)
    tl.store(imax_ptr + row, i)


@triton.jit
def _prod_combine(a, b):
    return a * b


@triton.jit
def _absmax_combine(a_val, a_idx, b_val, b_idx):
    # Largest |value|, the smaller index on ties.
    a_abs = tl.abs(a_val)
    b_abs = tl.abs(b_val)
    pick_a = (a_abs > b_abs) | ((a_abs == b_abs) & (a_idx < b_idx))
    return tl.where(pick_a, a_val, b_val), tl.where(pick_a, a_idx, b_idx)


@triton.jit
def custom_reduce_kernel(x_ptr, prod_ptr, val_ptr, idx_ptr, N,
                         BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    mask = rn < N
    x = tl.load(x_ptr + row * N + rn, mask=mask, other=1.0)
    tl.store(prod_ptr + row, tl.reduce(x, 0, _prod_combine))
    v, i = tl.reduce((tl.where(mask, x, 0.0), rn), 0, _absmax_combine)
    tl.store(val_ptr + row, v)
    tl.store(idx_ptr + row, i)


@triton.jit
def reduce3d_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr,
                    C: tl.constexpr, AXIS: tl.constexpr):
    ra = tl.arange(0, A)[:, None, None]
    rb = tl.arange(0, B)[None, :, None]
    rc = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + ra * B * C + rb * C + rc)
    r = tl.sum(x, axis=AXIS, keep_dims=True)
    if AXIS == 0:
        tl.store(out_ptr + rb * C + rc, r)
    elif AXIS == 1:
        tl.store(out_ptr + ra * C + rc, r)
    else:
        tl.store(out_ptr + ra * B + rb, r)


@triton.jit
def colreduce_kernel(x_ptr, sum_ptr, val_ptr, idx_ptr, M, N,
                     BM: tl.constexpr, BN: tl.constexpr):
    # Down the columns of a tile whose rows span the warps: partials of
    # every warp meet in shared memory, one column per thread or several.
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0)
    tl.store(sum_ptr + rn, tl.sum(x, axis=0), mask=rn < N)
    rows = tl.broadcast_to(rm[:, None], (BM, BN))
    v, i = tl.reduce((x, rows), 0, _absmax_combine)
    tl.store(val_ptr + rn, v, mask=rn < N)
    tl.store(idx_ptr + rn, i, mask=rn < N)


# -- host side ---------------------------------------------------------------

SHAPES = [(1, 1), (3, 7), (16, 16), (17, 33), (64, 100), (5, 128), (128, 2)]


def _r2_make(p, rng):
    m, n = p.shape
    lo = 0 if p.dtype.startswith("u") else None
    x = rand(rng, (m, n), p.dtype, lo, 100 if p.dtype in formats.INTS
             else None)
    out = empty(n if p.axis == 0 else m,
                "int32" if p.dtype in ("int8", "int16") and p.op == "sum"
                else "uint32" if p.dtype in ("uint8", "uint16") and
                p.op == "sum" else p.dtype)
    return dict(x=x, out=out)


def _r2_run(a, p):
    m, n = p.shape
    if p.op == "sum":
        pad = 0
    elif p.dtype in formats.INTS:
        info = np.iinfo(formats.STORAGE[p.dtype])
        pad = int(info.min if p.op == "max" else info.max)
    else:
        pad = float("-inf") if p.op == "max" else float("inf")
    reduce2d_kernel[(1,)](a.x, a.out, m, n, OP=p.op, AXIS=p.axis, PAD=pad,
                          BM=next_pow2(m), BN=next_pow2(n))


def _r2_ref(a, p):
    x = f64(a.x) if p.dtype not in formats.INTS else a.x.astype(np.int64)
    with np.errstate(invalid="ignore"):
        if p.op == "max":
            r = np.fmax.reduce(x, axis=p.axis) if x.dtype.kind == "f" \
                else x.max(axis=p.axis)
        elif p.op == "min":
            r = np.fmin.reduce(x, axis=p.axis) if x.dtype.kind == "f" \
                else x.min(axis=p.axis)
        else:
            r = x.sum(axis=p.axis)
    if p.dtype in formats.INTS:
        return {"out": refs.wrap(r.astype(object), a.out.dtype)}
    if p.op == "sum":
        return {"out": r, "out:scale": np.abs(x).sum(axis=p.axis)}
    return {"out": r}


def _r2_tol(p):
    if p.dtype in formats.INTS or p.op != "sum":
        return None
    k = p.shape[p.axis]
    fmt = "fp32" if p.dtype in ("fp16", "bf16") else p.dtype
    # fp16/bf16 sums accumulate in their own type unless promoted
    return compare.tol(p.dtype if p.dtype in ("fp16", "bf16") else fmt, k)


def _ra_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"), s=empty(1, "fp32"),
                m=empty(1, "fp32"))


def _ra_run(a, p):
    reduce_all_kernel[(1,)](a.x, a.s, a.m, p.n, BLOCK=next_pow2(p.n))


def _ra_ref(a, p):
    x = f64(a.x)
    return {"s": np.array([x.sum()]), "s:scale": np.array([np.abs(x).sum()]),
            "m": np.array([np.fmax.reduce(x) if x.size else -np.inf])}


def _ir_make(p, rng):
    m, n = p.shape
    st = formats.STORAGE[p.dtype]
    wide = "int32" if p.dtype in ("int8", "int16") else (
        "uint32" if p.dtype in ("uint8", "uint16") else p.dtype)
    return dict(x=rand(rng, (m, n), p.dtype), s=empty(m, wide),
                xo=empty(m, p.dtype), o=empty(m, p.dtype),
                mx=empty(m, p.dtype))


def _ir_run(a, p):
    m, n = p.shape
    int_reduce_kernel[(m,)](a.x, a.s, a.xo, a.o, a.mx, n, BN=next_pow2(n))


def _ir_ref(a, p):
    x = a.x.astype(object)
    xo = np.bitwise_xor.reduce(a.x, axis=1)
    o = np.bitwise_or.reduce(a.x, axis=1)
    return {"s": refs.wrap(x.sum(axis=1), a.s.dtype), "xo": xo, "o": o,
            "mx": a.x.max(axis=1)}


def _am_make(p, rng):
    m, n = p.shape
    # few distinct values: many ties
    x = rng.integers(-3, 4, size=(m, n)).astype(formats.STORAGE[p.dtype]) \
        if p.dtype != "bf16" else None
    return dict(x=x, amax=empty(m, "int32"), amin=empty(m, "int32"),
                vmax=empty(m, p.dtype), imax=empty(m, "int32"))


def _am_run(a, p):
    m, n = p.shape
    argmax_kernel[(m,)](a.x, a.amax, a.amin, a.vmax, a.imax, n,
                        BN=next_pow2(n))


def _am_ref(a, p):
    x = a.x.astype(np.float64)
    # numpy's argmax/argmin return the first occurrence (tie -> left)
    return {"amax": np.argmax(x, axis=1), "amin": np.argmin(x, axis=1),
            "vmax": x.max(axis=1), "imax": np.argmax(x, axis=1)}


def _cu_make(p, rng):
    m, n = p.shape
    x = rng.uniform(0.8, 1.25, size=(m, n))
    # ties in |x| between a value and its negation
    x = np.where(rng.random((m, n)) < 0.5, x, -x)
    x = np.round(x * 8) / 8
    return dict(x=x.astype(np.float32), prod=empty(m, "fp32"),
                val=empty(m, "fp32"), idx=empty(m, "int32"))


def _cu_run(a, p):
    m, n = p.shape
    custom_reduce_kernel[(m,)](a.x, a.prod, a.val, a.idx, n,
                               BN=next_pow2(n))


def _cu_ref(a, p):
    x = f64(a.x)
    ab = np.abs(x)
    idx = np.argmax(ab, axis=1)
    return {"prod": np.prod(x, axis=1),
            "val": x[np.arange(x.shape[0]), idx], "idx": idx}


def _r3_make(p, rng):
    A, B, C = p.dims
    return dict(x=rand(rng, (A, B, C), "fp32"),
                out=empty([d if i != p.axis else 1
                           for i, d in enumerate(p.dims)], "fp32"))


def _r3_run(a, p):
    A, B, C = p.dims
    reduce3d_kernel[(1,)](a.x, a.out, A=A, B=B, C=C, AXIS=p.axis)


def _r3_ref(a, p):
    x = f64(a.x)
    return {"out": x.sum(axis=p.axis, keepdims=True),
            "out:scale": np.abs(x).sum(axis=p.axis, keepdims=True)}


def _cr_make(p, rng):
    m, n = p.shape
    x = rand(rng, (m, n), p.dtype, None, 100 if p.dtype in formats.INTS
             else None)
    wide = "int32" if p.dtype in formats.INTS else p.dtype
    return dict(x=x, s=empty(n, wide), v=empty(n, p.dtype),
                i=empty(n, "int32"))


def _cr_run(a, p):
    m, n = p.shape
    colreduce_kernel[(1,)](a.x, a.s, a.v, a.i, m, n, BM=next_pow2(m),
                           BN=next_pow2(n), num_warps=p.warps)


def _cr_ref(a, p):
    x = a.x.astype(np.float64) if p.dtype not in formats.INTS \
        else a.x.astype(np.int64)
    # largest |x| per column, the first row on ties
    idx = np.argmax(np.abs(x), axis=0)
    out = {"v": a.x[idx, np.arange(x.shape[1])], "i": idx}
    if p.dtype in formats.INTS:
        out["s"] = refs.wrap(x.sum(axis=0).astype(object), a.s.dtype)
    else:
        out["s"] = x.sum(axis=0)
        out["s:scale"] = np.abs(x).sum(axis=0)
    return out


def _cr_tol(p):
    if p.dtype in formats.INTS:
        return None
    return compare.tol(p.dtype, p.shape[0])


MANIFESTS = [
    Manifest("reduce_sum_axis", reduce2d_kernel, _r2_make, _r2_run, _r2_ref,
             {"out": Out(tol=_r2_tol)},
             params=dict(shape=SHAPES, axis=[0, 1],
                         dtype=["fp32", "int32", "fp16", "fp64", "int8",
                                "bf16", "uint16", "int64", "uint32"],
                         op=["sum"]),
             specials=["x"]),
    Manifest("reduce_max_axis", reduce2d_kernel, _r2_make, _r2_run, _r2_ref,
             {"out": None},
             params=dict(shape=SHAPES, axis=[1, 0],
                         dtype=["fp32", "int16", "fp16", "uint8", "fp64",
                                "bf16", "int64", "uint64"],
                         op=["max"]),
             specials=["x"]),
    Manifest("reduce_min_axis", reduce2d_kernel, _r2_make, _r2_run, _r2_ref,
             {"out": None},
             params=dict(shape=SHAPES, axis=[0, 1],
                         dtype=["fp32", "int8", "bf16", "uint32", "fp64",
                                "fp16", "int32"],
                         op=["min"]),
             specials=["x"]),
    Manifest("reduce_all_keepdims", reduce_all_kernel, _ra_make, _ra_run,
             _ra_ref, {"s": Out(tol=compare.tol("fp32", 1024)), "m": None},
             params=dict(n=[1, 2, 7, 128, 1000]), specials=["x"]),
    Manifest("reduce_int_xor_or", int_reduce_kernel, _ir_make, _ir_run,
             _ir_ref, {"s": None, "xo": None, "o": None, "mx": None},
             params=dict(shape=SHAPES, dtype=list(formats.INTS))),
    Manifest("argmax_ties", argmax_kernel, _am_make, _am_run, _am_ref,
             {"amax": None, "amin": None, "vmax": None, "imax": None},
             params=dict(shape=SHAPES, dtype=["fp32", "int32", "fp16",
                                              "int8", "fp64", "int16"])),
    Manifest("reduce_custom_combine", custom_reduce_kernel, _cu_make,
             _cu_run, _cu_ref,
             {"prod": Out(tol=compare.tol("fp32", 128)), "val": None,
              "idx": None},
             params=dict(shape=SHAPES)),
    Manifest("reduce_3d_axes", reduce3d_kernel, _r3_make, _r3_run, _r3_ref,
             {"out": Out(tol=compare.tol("fp32", 16))},
             params=dict(dims=[(2, 4, 8), (8, 2, 4), (4, 8, 2), (1, 16, 1)],
                         axis=[0, 1, 2])),
    Manifest("reduce_columns_across_warps", colreduce_kernel, _cr_make,
             _cr_run, _cr_ref, {"s": Out(tol=_cr_tol), "v": None, "i": None},
             params=dict(shape=[(256, 16), (200, 64), (64, 128), (32, 512),
                                (5, 1000), (512, 8)],
                         dtype=["fp32", "fp16", "int32", "fp64"],
                         warps=[4, 8])),
]

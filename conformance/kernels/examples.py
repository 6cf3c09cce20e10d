"""The six examples (examples/*.py), their kernels compiled from the example
files as written: vector add, persistent softmax, grouped matmul (+ leaky
relu epilogue), layer norm forward and backward (spin lock), seeded dropout
and fused attention (causal and not)."""

import numpy as np

from conformance import compare, refs
from conformance.examples import load
from conformance.manifest import Manifest, Out, cdiv, empty, f64, \
    next_pow2, rand, sizes

vector_add = load("vector_add")
softmax = load("softmax")
matmul = load("matmul")
layer_norm = load("layer_norm")
dropout = load("dropout")
attention = load("attention")


# -- vector add --------------------------------------------------------------

def _add_make(p, rng):
    return dict(x=rand(rng, p.n, p.dtype), y=rand(rng, p.n, p.dtype),
                out=empty(p.n, p.dtype))


def _add_run(a, p):
    vector_add.add_kernel[lambda meta: (cdiv(p.n, meta["BLOCK_SIZE"]),)](
        a.x, a.y, a.out, p.n, BLOCK_SIZE=p.block)


def _add_ref(a, p):
    return {"out": f64(a.x) + f64(a.y)}


# -- softmax -----------------------------------------------------------------

def _softmax_make(p, rng):
    rows, cols = p.shape
    return dict(x=rand(rng, (rows, cols), "fp32", -6, 6),
                y=empty((rows, cols), "fp32"))


def _softmax_run(a, p):
    rows, cols = p.shape
    softmax.softmax_kernel[(min(p.programs, rows), 1, 1)](
        a.y, a.x, cols, cols, rows, cols, BLOCK_SIZE=next_pow2(cols),
        num_stages=2)


def _softmax_ref(a, p):
    x = f64(a.x)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return {"y": e / e.sum(axis=1, keepdims=True)}


# -- matmul ------------------------------------------------------------------

def _mm_make(p, rng):
    m, n, k = p.mnk
    return dict(a=rand(rng, (m, k), "fp16", -1, 1),
                b=rand(rng, (k, n), "fp16", -1, 1),
                c=empty((m, n), "fp16"))


def _mm_run(a, p):
    m, n, k = p.mnk
    bm, bn, bk = p.blocks
    grid = (cdiv(m, bm) * cdiv(n, bn),)
    matmul.matmul_kernel[grid](a.a, a.b, a.c, m, n, k, k, 1, n, 1, n, 1,
                               BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                               BLOCK_SIZE_K=bk, GROUP_SIZE_M=p.group,
                               ACTIVATION=p.act)


def _mm_ref(a, p):
    c = f64(a.a) @ f64(a.b)
    if p.act == "leaky_relu":
        c = np.where(c >= 0, c, 0.01 * c)
    return {"c": c}


# -- layer norm --------------------------------------------------------------

def _ln_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), "fp32", -3, 3),
                w=rand(rng, n, "fp32", 0.5, 1.5), b=rand(rng, n, "fp32"),
                y=empty((m, n), "fp32"), mean=empty(m, "fp32"),
                rstd=empty(m, "fp32"))


def _ln_run(a, p):
    m, n = p.shape
    layer_norm._layer_norm_fwd_fused[(m,)](a.x, a.y, a.w, a.b, a.mean,
                                           a.rstd, n, n, 1e-5,
                                           BLOCK_SIZE=p.block)


def _ln_ref(a, p):
    x = f64(a.x)
    mean = x.mean(axis=1)
    var = ((x - mean[:, None]) ** 2).mean(axis=1)
    rstd = 1 / np.sqrt(var + 1e-5)
    y = (x - mean[:, None]) * rstd[:, None] * f64(a.w) + f64(a.b)
    return {"y": y, "mean": mean, "rstd": rstd,
            "mean:scale": np.abs(x).mean(axis=1)}


def _lnb_make(p, rng):
    m, n = p.shape
    x = rand(rng, (m, n), "fp32", -3, 3)
    mean = x.astype(np.float64).mean(axis=1)
    rstd = 1 / np.sqrt(((x - mean[:, None]) ** 2).mean(axis=1) + 1e-5)
    g = p.group
    return dict(x=x, dy=rand(rng, (m, n), "fp32"),
                w=rand(rng, n, "fp32", 0.5, 1.5),
                mean=mean.astype(np.float32), rstd=rstd.astype(np.float32),
                locks=np.zeros(2 * g, np.int32),
                dw_part=np.zeros((g, n), np.float32),
                db_part=np.zeros((g, n), np.float32),
                dx=empty((m, n), "fp32"), dw=empty(n, "fp32"),
                db=empty(n, "fp32"))


def _lnb_run(a, p):
    m, n = p.shape
    layer_norm._layer_norm_bwd_dx_fused[(m,)](
        a.dx, a.dy, a.dw_part, a.db_part, a.x, a.w, a.mean, a.rstd, a.locks,
        n, n, GROUP_SIZE_M=p.group, BLOCK_SIZE_N=next_pow2(n))
    layer_norm._layer_norm_bwd_dwdb[(cdiv(n, 128),)](
        a.dw_part, a.db_part, a.dw, a.db, min(p.group, m), n,
        BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)


def _lnb_ref(a, p):
    x, dy, w = f64(a.x), f64(a.dy), f64(a.w)
    mean, rstd = f64(a.mean)[:, None], f64(a.rstd)[:, None]
    n = x.shape[1]
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).sum(axis=1, keepdims=True) / n
    c2 = wdy.sum(axis=1, keepdims=True) / n
    # dx is a difference of terms of about |w dy| rstd that cancel exactly
    # for one column (N = 1): its error is relative to the terms (with fused
    # multiply-adds the GPU rounds them differently from the interpreter).
    return {"dx": (wdy - (xhat * c1 + c2)) * rstd,
            "dx:scale": (np.abs(wdy) + np.abs(xhat * c1) + np.abs(c2)) * rstd,
            "dw": (dy * xhat).sum(axis=0), "db": dy.sum(axis=0),
            "dw:scale": np.abs(dy * xhat).sum(axis=0),
            "db:scale": np.abs(dy).sum(axis=0)}


# -- dropout -----------------------------------------------------------------

def _do_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"), out=empty(p.n, "fp32"),
                seed=int(rng.integers(0, 2**31 - 1)))


def _do_run(a, p):
    dropout._seeded_dropout[(cdiv(p.n, 1024),)](a.x, a.out, p.n, p.p, a.seed,
                                                BLOCK_SIZE=1024)


def _do_ref(a, p):
    r = refs.rand(a.seed, np.arange(p.n))
    keep = r > np.float32(p.p)
    scale = np.float32(1) - np.float32(p.p)
    return {"out": np.where(keep, (a.x / scale).astype(np.float64), 0.0)}


# -- attention ---------------------------------------------------------------

def _at_make(p, rng):
    z, h, l, d = p.shape
    return dict(q=rand(rng, (z, h, l, d), "fp16", -1, 1),
                k=rand(rng, (z, h, l, d), "fp16", -1, 1),
                v=rand(rng, (z, h, l, d), "fp16", -1, 1),
                o=empty((z, h, l, d), "fp16"))


def _at_run(a, p):
    z, h, l, d = p.shape
    st = (h * l * d, l * d, d, 1)
    bm, bn = p.blocks
    attention._attn_fwd[(cdiv(l, bm), z * h, 1)](
        a.q, a.k, a.v, 0.5, a.o, *st, *st, *st, *st, z, h, l,
        HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=p.causal)


def _at_ref(a, p):
    q, k, v = f64(a.q), f64(a.k), f64(a.v)
    s = 0.5 * q @ np.swapaxes(k, -1, -2)
    if p.causal:
        l = q.shape[2]
        s = np.where(np.tril(np.ones((l, l), bool)), s, -np.inf)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return {"o": (s / s.sum(axis=-1, keepdims=True)) @ v}


MANIFESTS = [
    Manifest("example_vector_add", vector_add.add_kernel, _add_make,
             _add_run, _add_ref, {"out": None},
             params=dict(n=sizes(1024, large=98432 + 7, empty=True),
                         dtype=["fp32", "fp16", "fp64", "bf16"],
                         block=[1024, 256, 128]),
             specials=["x", "y"]),
    Manifest("example_softmax", softmax.softmax_kernel, _softmax_make,
             _softmax_run, _softmax_ref,
             {"y": Out(tol=compare.tol("fp32", 64))},
             params=dict(shape=[(1, 1), (7, 781), (64, 128), (33, 127),
                                (5, 1000), (130, 17)],
                         programs=[4, 16, 1, 200]),
             specials=["x"]),
    Manifest("example_matmul", matmul.matmul_kernel, _mm_make, _mm_run,
             _mm_ref, {"c": Out(tol=compare.tol("fp16", scale=2))},
             params=dict(mnk=[(1, 1, 1), (64, 64, 64), (127, 65, 33),
                              (200, 96, 100), (16, 300, 7), (129, 129, 257)],
                         blocks=[(64, 64, 32), (32, 64, 16), (128, 128, 32)],
                         group=[8, 1, 3], act=["", "leaky_relu"])),
    Manifest("example_layer_norm_fwd", layer_norm._layer_norm_fwd_fused,
             _ln_make, _ln_run, _ln_ref,
             {"y": Out(tol=compare.tol("fp32", 32)),
              "mean": Out(tol=compare.tol("fp32", 1024)),
              "rstd": Out(tol=compare.tol("fp32", 1024))},
             params=dict(shape=[(1, 1), (3, 1000), (17, 128), (8, 129),
                                (2, 4099)],
                         block=[128, 256, 1024, 64])),
    Manifest("example_layer_norm_bwd",
             [layer_norm._layer_norm_bwd_dx_fused,
              layer_norm._layer_norm_bwd_dwdb],
             _lnb_make, _lnb_run, _lnb_ref,
             {"dx": Out(tol=compare.tol("fp32", 256)),
              "dw": Out(tol=compare.tol("fp32", 512)),
              "db": Out(tol=compare.tol("fp32", 512))},
             params=dict(shape=[(1, 1), (64, 100), (300, 129), (37, 256),
                                (500, 33)],
                         group=[4, 16, 1, 7])),
    Manifest("example_dropout", dropout._seeded_dropout, _do_make, _do_run,
             _do_ref, {"out": None},
             params=dict(n=sizes(1024, large=65537, empty=True),
                         p=[0.5, 0.1, 0.9, 0.0])),
    Manifest("example_attention", attention._attn_fwd, _at_make, _at_run,
             _at_ref, {"o": Out(tol=compare.tol("fp16", scale=3))},
             params=dict(shape=[(1, 1, 32, 16), (2, 3, 64, 32),
                                (1, 2, 96, 64), (1, 1, 128, 16)],
                         blocks=[(32, 16), (32, 32), (16, 16)],
                         causal=[False, True])),
]

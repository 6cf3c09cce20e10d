"""The key and value gradients of attention, written the way a fused
attention backward computes them: each program holds a block of keys and
values, and its loop walks the query blocks, loading a transposed query
tile, the rows' log-sum-exp (base 2) and their output-gradient dot products
as vectors, and summing four products per step. Sequence lengths that are
not a multiple of the blocks mask every load; the causal variant starts at
the diagonal."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand


@triton.jit
def attn_bwd_dkdv_kernel(q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr,
                         dk_ptr, dv_ptr, L, stride_h, stride_l,
                         D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                         CAUSAL: tl.constexpr):
    start_n = tl.program_id(0) * BN
    head = tl.program_id(1)
    base = head * stride_h
    offs_n = start_n + tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    key_ok = offs_n[:, None] < L
    kv_offs = base + offs_n[:, None] * stride_l + offs_d[None, :]
    k = tl.load(k_ptr + kv_offs, mask=key_ok, other=0.0)
    v = tl.load(v_ptr + kv_offs, mask=key_ok, other=0.0)
    dk = tl.zeros((BN, D), dtype=tl.float32)
    dv = tl.zeros((BN, D), dtype=tl.float32)
    lo = 0
    if CAUSAL:
        lo = start_n // BM * BM
    for start_m in range(lo, L, BM):
        offs_m = start_m + tl.arange(0, BM)
        row_ok = offs_m < L
        # Q^T through its strides: rows of Q become columns.
        qT = tl.load(q_ptr + base + offs_m[None, :] * stride_l + offs_d[:, None],
                     mask=row_ok[None, :], other=0.0)
        lse = tl.load(lse_ptr + head * L + offs_m, mask=row_ok, other=0.0)
        pT = tl.math.exp2(tl.dot(k, qT) - lse[None, :])
        keep = row_ok[None, :]
        if CAUSAL:
            keep = keep & (offs_m[None, :] >= offs_n[:, None])
        pT = tl.where(keep, pT, 0.0)
        do = tl.load(do_ptr + base + offs_m[:, None] * stride_l + offs_d[None, :],
                     mask=row_ok[:, None], other=0.0)
        dv += tl.dot(pT.to(tl.float16), do)
        delta = tl.load(delta_ptr + head * L + offs_m, mask=row_ok, other=0.0)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk += tl.dot(dsT.to(tl.float16), tl.trans(qT))
    tl.store(dk_ptr + kv_offs, dk.to(tl.float16), mask=key_ok)
    tl.store(dv_ptr + kv_offs, dv.to(tl.float16), mask=key_ok)


def _probabilities(q, k, causal):
    """P = 2^(S - lse) with S = Q K^T (base-2 scores) and the row's lse,
    in float64."""
    s = q @ np.swapaxes(k, -1, -2)
    if causal:
        l = q.shape[1]
        s = np.where(np.tril(np.ones((l, l), bool)), s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    lse = top[..., 0] + np.log2(np.exp2(s - top).sum(axis=-1))
    return s, lse


def _make(p, rng):
    h, l, d = p.shape
    # Scores of a few units: softmax rows neither flat nor one-hot.
    q = rand(rng, (h, l, d), "fp16", -1, 1)
    k = rand(rng, (h, l, d), "fp16", -1, 1)
    v = rand(rng, (h, l, d), "fp16", -1, 1)
    do = rand(rng, (h, l, d), "fp16", -1, 1)
    s, lse = _probabilities(f64(q), f64(k), p.causal)
    pr = np.exp2(s - lse[..., None])
    o = pr @ f64(v)
    delta = (o * f64(do)).sum(axis=-1)
    return dict(q=q, k=k, v=v, do=do, lse=lse.astype(np.float32),
                delta=delta.astype(np.float32),
                dk=empty((h, l, d), "fp16"), dv=empty((h, l, d), "fp16"))


def _run(a, p):
    h, l, d = p.shape
    bm, bn = p.blocks
    attn_bwd_dkdv_kernel[(cdiv(l, bn), h)](
        a.q, a.k, a.v, a.do, a.lse, a.delta, a.dk, a.dv, l, l * d, d,
        D=d, BM=bm, BN=bn, CAUSAL=p.causal, num_stages=p.stages)


def _ref(a, p):
    q, k, v, do = f64(a.q), f64(a.k), f64(a.v), f64(a.do)
    s, _ = _probabilities(q, k, p.causal)
    pr = np.exp2(s - f64(a.lse)[..., None])
    dp = do @ np.swapaxes(v, -1, -2)
    ds = pr * (dp - f64(a.delta)[..., None])
    pT, dsT = np.swapaxes(pr, -1, -2), np.swapaxes(ds, -1, -2)
    # Rounding errors scale with the terms' magnitudes (dS sums terms of
    # both signs).
    return {"dv": pT @ do, "dv:scale": pT @ np.abs(do),
            "dk": dsT @ q, "dk:scale": np.abs(dsT) @ np.abs(q)}


MANIFESTS = [
    Manifest("attention_bwd_dkdv", attn_bwd_dkdv_kernel, _make, _run, _ref,
             {"dk": Out(tol=compare.tol("fp16", scale=4)),
              "dv": Out(tol=compare.tol("fp16", scale=4))},
             params=dict(shape=[(1, 64, 16), (2, 100, 32), (1, 128, 64),
                                (2, 200, 64), (1, 96, 128), (1, 257, 64),
                                (2, 33, 32), (1, 160, 128), (1, 5, 16),
                                (1, 300, 32), (2, 64, 64), (1, 129, 128)],
                         blocks=[(32, 128), (16, 64), (32, 32)],
                         causal=[False, True],
                         stages=[3, 5, 2, 4])),
]

"""Broadcasting, shape manipulation (expand_dims, broadcast_to, reshape,
trans/permute, join/split/interleave, cat, ravel, squeeze), creation (full,
zeros, zeros_like, arange) and masked 2D memory access at both boundaries:
`other` padding, indirect (gathered) loads, scattered stores, scalar
loads and stores."""

import numpy as np

import triton
import triton.language as tl

from conformance import formats
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand


@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M, N, stride_om,
                 BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm, mask=rm < M, other=0)
    y = tl.load(y_ptr + rn, mask=rn < N, other=0)
    z = x[:, None] * 2 + y[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], z, mask=mask)


@triton.jit
def broadcast_kernel(x_ptr, y_ptr, a_ptr, b_ptr, N, BN: tl.constexpr):
    # tl.expand_dims, tl.broadcast_to and tl.broadcast on a column of 4
    # values and a row of BN values.
    rn = tl.arange(0, BN)
    r4 = tl.arange(0, 4)
    x = tl.load(x_ptr + r4)
    y = tl.load(y_ptr + rn, mask=rn < N, other=0.0)
    col = tl.expand_dims(x, 1)
    row = tl.expand_dims(y, 0)
    a = tl.broadcast_to(col, (4, BN)) + tl.broadcast_to(row, 4, BN)
    c2, r2 = tl.broadcast(col, row)
    b = c2 * r2
    offs = r4[:, None] * N + rn[None, :]
    mask = rn[None, :] < N
    tl.store(a_ptr + offs, a, mask=mask)
    tl.store(b_ptr + offs, b, mask=mask)


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr,
                     BN: tl.constexpr, HOW: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    if HOW == "trans":
        t = tl.trans(x)
    elif HOW == "T":
        t = x.T
    else:
        t = tl.permute(x, (1, 0))
    tmask = (rn[:, None] < N) & (rm[None, :] < M)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], t, mask=tmask)


@triton.jit
def reshape3d_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr,
                     C: tl.constexpr):
    # [A*B*C] -> [A, B, C] -> permute (2, 0, 1) -> [C, A, B] -> ravel.
    offs = tl.arange(0, A * B * C)
    x = tl.load(x_ptr + offs)
    x3 = tl.reshape(x, (A, B, C))
    p = tl.permute(x3, 2, 0, 1)
    tl.store(out_ptr + offs, tl.ravel(p))


@triton.jit
def join_split_kernel(a_ptr, b_ptr, j_ptr, i_ptr, s_ptr, n,
                      BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    j = tl.join(a, b)                        # [BLOCK, 2]
    two = tl.arange(0, 2)
    tl.store(j_ptr + offs[:, None] * 2 + two[None, :], j,
             mask=mask[:, None])
    i = tl.interleave(a, b)                  # [2 * BLOCK]
    ioffs = tl.program_id(0) * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(i_ptr + ioffs, i, mask=ioffs < 2 * n)
    lo, hi = tl.split(j)
    tl.store(s_ptr + offs, hi - lo, mask=mask)


@triton.jit
def cat_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.cat(a, b, can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), c)


@triton.jit
def creation_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    a = tl.full((BLOCK,), 3, tl.int32)
    z = tl.zeros((BLOCK,), dtype=tl.int32)
    zl = tl.zeros_like(x)
    r = tl.arange(16, 16 + BLOCK)
    sq = tl.reshape(tl.expand_dims(r, 0), (BLOCK,))
    u = tl.squeeze(tl.unsqueeze(sq, 1), 1)
    y = x + zl + a + z + u - 16 + pid
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def padded_kernel(x_ptr, out_ptr, M, N, stride_xm, BM: tl.constexpr,
                  BN: tl.constexpr):
    # Loads a tile partly outside the matrix with `other` and stores the
    # whole tile, padding included, into a padded output.
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :], mask=mask,
                other=-7.5)
    width = tl.num_programs(1) * BN
    tl.store(out_ptr + rm[:, None] * width + rn[None, :], x)


@triton.jit
def gather_scatter_kernel(x_ptr, idx_ptr, perm_ptr, out_ptr, n,
                          BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    v = tl.load(x_ptr + idx, mask=mask & (idx >= 0), other=0.0)
    dst = tl.load(perm_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + dst, v, mask=mask)


@triton.jit
def scalar_mem_kernel(x_ptr, out_ptr, n):
    # Scalar loads and stores through pointers offset by program id.
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    w = tl.load(x_ptr + (n - 1 - pid))
    tl.store(out_ptr + pid, v * 10 + w)


# -- host side ---------------------------------------------------------------

SHAPES2 = [(1, 1), (7, 5), (16, 32), (17, 33), (64, 3), (100, 129)]


def _outer_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, m, p.dtype, 0 if p.dtype[0] == "u" else None),
                y=rand(rng, n, p.dtype, 0 if p.dtype[0] == "u" else None),
                out=empty((m, n), p.dtype))


def _outer_run(a, p):
    m, n = p.shape
    outer_kernel[(cdiv(m, 16), cdiv(n, 32))](a.x, a.y, a.out, m, n, n,
                                             BM=16, BN=32)


def _outer_ref(a, p):
    if p.dtype in formats.INTS:
        x = a.x.astype(object)
        y = a.y.astype(object)
        from conformance.refs import wrap
        return {"out": wrap(x[:, None] * 2 + y[None, :], a.x.dtype)}
    return {"out": f64(a.x)[:, None] * 2 + f64(a.y)[None, :]}


def _bc_make(p, rng):
    return dict(x=rand(rng, 4, "fp32"), y=rand(rng, p.n, "fp32"),
                a=empty((4, p.n), "fp32"), b=empty((4, p.n), "fp32"))


def _bc_run(a, p):
    broadcast_kernel[(1,)](a.x, a.y, a.a, a.b, p.n,
                           BN=max(16, 1 << (p.n - 1).bit_length()))


def _bc_ref(a, p):
    x, y = f64(a.x)[:, None], f64(a.y)[None, :]
    return {"a": x + y, "b": x * y}


def _tr_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), p.dtype), out=empty((n, m), p.dtype))


def _tr_run(a, p):
    m, n = p.shape
    transpose_kernel[(cdiv(m, 16), cdiv(n, 32))](a.x, a.out, m, n, BM=16,
                                                 BN=32, HOW=p.how)


def _tr_ref(a, p):
    if p.dtype in formats.INTS:
        return {"out": a.x.T}
    return {"out": f64(a.x).T}


def _tr64_run(a, p):
    # 64 x 64 tiles: with M and N multiples of 16 the transposed store runs
    # 16 bytes along its rows and a 16-bit tile goes through shared memory
    # as ldmatrix.trans reads it; other shapes take the plain staging.
    m, n = p.shape
    transpose_kernel[(cdiv(m, 64), cdiv(n, 64))](a.x, a.out, m, n, BM=64,
                                                 BN=64, HOW=p.how)


def _r3_make(p, rng):
    a, b, c = p.dims
    return dict(x=rand(rng, a * b * c, "int32"),
                out=empty(a * b * c, "int32"))


def _r3_run(a, p):
    A, B, C = p.dims
    reshape3d_kernel[(1,)](a.x, a.out, A=A, B=B, C=C)


def _r3_ref(a, p):
    A, B, C = p.dims
    return {"out": a.x.reshape(A, B, C).transpose(2, 0, 1).reshape(-1)}


def _js_make(p, rng):
    return dict(a=rand(rng, p.n, p.dtype), b=rand(rng, p.n, p.dtype),
                j=empty((p.n, 2), p.dtype), i=empty(2 * p.n, p.dtype),
                s=empty(p.n, p.dtype))


def _js_run(a, p):
    join_split_kernel[(cdiv(p.n, 64),)](a.a, a.b, a.j, a.i, a.s, p.n,
                                        BLOCK=64)


def _js_ref(a, p):
    x, y = f64(a.a), f64(a.b)
    if p.dtype in formats.INTS:
        from conformance.refs import wrap
        s = wrap(a.b.astype(object) - a.a.astype(object), a.a.dtype)
    else:
        s = y - x
    return {"j": np.stack([x, y], axis=1),
            "i": np.stack([x, y], axis=1).reshape(-1), "s": s}


def _cat_make(p, rng):
    return dict(a=rand(rng, p.block, "fp32"), b=rand(rng, p.block, "fp32"),
                out=empty(2 * p.block, "fp32"))


def _cat_run(a, p):
    cat_kernel[(1,)](a.a, a.b, a.out, BLOCK=p.block)


def _cat_ref(a, p):
    return {"out": np.concatenate([f64(a.a), f64(a.b)])}


def _cr_make(p, rng):
    return dict(x=rand(rng, p.n, "int32"), out=empty(p.n, "int32"))


def _cr_run(a, p):
    creation_kernel[(cdiv(p.n, 32),)](a.x, a.out, p.n, BLOCK=32)


def _cr_ref(a, p):
    i = np.arange(p.n)
    return {"out": a.x.astype(np.int64) + 3 + (i % 32) + i // 32}


def _pad_make(p, rng):
    m, n = p.shape
    gm, gn = cdiv(m, 16), cdiv(n, 16)
    return dict(x=rand(rng, (m, n), "fp32"),
                out=empty((gm * 16, gn * 16), "fp32"))


def _pad_run(a, p):
    m, n = p.shape
    padded_kernel[(cdiv(m, 16), cdiv(n, 16))](a.x, a.out, m, n, n,
                                              BM=16, BN=16)


def _pad_ref(a, p):
    m, n = p.shape
    out = np.full(a.out.shape, -7.5)
    out[:m, :n] = f64(a.x)
    return {"out": out}


def _gs_make(p, rng):
    n = p.n
    idx = rng.integers(-3, max(n, 1), size=n).astype(np.int32)
    return dict(x=rand(rng, max(n, 1), "fp32"), idx=idx,
                perm=rng.permutation(n).astype(np.int64),
                out=empty(n, "fp32"))


def _gs_run(a, p):
    gather_scatter_kernel[(cdiv(p.n, 32),)](a.x, a.idx, a.perm, a.out, p.n,
                                            BLOCK=32)


def _gs_ref(a, p):
    v = np.where(a.idx >= 0, f64(a.x)[np.maximum(a.idx, 0)], 0.0)
    out = np.empty(p.n)
    out[a.perm] = v
    return {"out": out}


def _sm_make(p, rng):
    return dict(x=rand(rng, p.n, "int64"), out=empty(p.n, "int64"))


def _sm_run(a, p):
    scalar_mem_kernel[(p.n,)](a.x, a.out, p.n)


def _sm_ref(a, p):
    return {"out": a.x * 10 + a.x[::-1]}


MANIFESTS = [
    Manifest("broadcast_outer", outer_kernel, _outer_make, _outer_run,
             _outer_ref, {"out": None},
             params=dict(shape=SHAPES2, dtype=["fp32", "int8", "fp16",
                                               "uint16", "bf16", "int64",
                                               "fp64"]),
             specials=["x", "y"]),
    Manifest("broadcast_to", broadcast_kernel, _bc_make, _bc_run, _bc_ref,
             {"a": None, "b": None}, params=dict(n=[1, 5, 16, 17, 100])),
    Manifest("transpose", transpose_kernel, _tr_make, _tr_run, _tr_ref,
             {"out": None},
             params=dict(shape=SHAPES2, dtype=["fp32", "int16", "bf16",
                                               "uint8", "fp64"],
                         how=["trans", "T", "permute"])),
    Manifest("transpose_64", transpose_kernel, _tr_make, _tr64_run, _tr_ref,
             {"out": None},
             params=dict(shape=[(64, 64), (128, 192), (96, 64), (256, 128),
                                (50, 70), (64, 160)],
                         dtype=["fp16", "bf16", "int16", "uint16", "fp16",
                                "fp32"],
                         how=["trans", "T", "permute"])),
    Manifest("reshape_permute_3d", reshape3d_kernel, _r3_make, _r3_run,
             _r3_ref, {"out": None},
             params=dict(dims=[(2, 4, 8), (1, 16, 2), (8, 1, 4), (4, 4, 4)])),
    Manifest("join_split_interleave", join_split_kernel, _js_make, _js_run,
             _js_ref, {"j": None, "i": None, "s": None},
             params=dict(n=[1, 7, 63, 64, 65, 200], dtype=["fp32", "int32",
                                                           "fp16", "int8"])),
    Manifest("cat", cat_kernel, _cat_make, _cat_run, _cat_ref,
             {"out": Out(unordered=True)},
             params=dict(block=[1, 2, 16, 128])),
    Manifest("creation_ops", creation_kernel, _cr_make, _cr_run, _cr_ref,
             {"out": None}, params=dict(n=[1, 31, 32, 33, 100, 0])),
    Manifest("masked_other_2d", padded_kernel, _pad_make, _pad_run,
             _pad_ref, {"out": None},
             params=dict(shape=SHAPES2 + [(16, 1), (1, 17)])),
    Manifest("indirect_gather_scatter", gather_scatter_kernel, _gs_make,
             _gs_run, _gs_ref, {"out": None},
             params=dict(n=[1, 31, 32, 33, 257, 0])),
    Manifest("scalar_load_store", scalar_mem_kernel, _sm_make, _sm_run,
             _sm_ref, {"out": None}, params=dict(n=[1, 2, 17, 64])),
]

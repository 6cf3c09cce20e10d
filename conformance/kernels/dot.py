"""tl.dot over operand dtypes (fp32 with each input_precision, fp16, bf16,
int8, fp64, fp8 pairs), out_dtype, the acc argument, K loops with
runtime bounds and masked edges, batched 3D dot, and dot on transposed
operands."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare, formats
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, ACC: tl.constexpr,
               PREC: tl.constexpr, FP8: tl.constexpr, OUT16: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        if FP8 == "e5m2":
            a = a.to(tl.float8e5, bitcast=True)
            b = b.to(tl.float8e5, bitcast=True)
        elif FP8 == "e4m3":
            a = a.to(tl.float8e4nv, bitcast=True)
            b = b.to(tl.float8e4nv, bitcast=True)
        elif FP8 == "e4m3_e5m2":
            a = a.to(tl.float8e4nv, bitcast=True)
            b = b.to(tl.float8e5, bitcast=True)
        if OUT16:
            acc += tl.dot(a, b, out_dtype=tl.float16)
        else:
            acc = tl.dot(a, b, acc, input_precision=PREC)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :],
             acc.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def batched_dot_kernel(a_ptr, b_ptr, c_ptr, BATCH: tl.constexpr,
                       M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                       FP8: tl.constexpr = False, TRANS_B: tl.constexpr = False):
    rb = tl.arange(0, BATCH)[:, None, None]
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb * M * K + rm[None, :, None] * K + rk[None, None, :])
    if TRANS_B:  # B stored [BATCH, N, K]
        b = tl.load(b_ptr + rb * K * N + rn[None, :, None] * K + rk[None, None, :])
        b = tl.permute(b, (0, 2, 1))
    else:
        b = tl.load(b_ptr + rb * K * N + rk[None, :, None] * N + rn[None, None, :])
    if FP8:  # e4m3 bytes
        a = a.to(tl.float8e4nv, bitcast=True)
        b = b.to(tl.float8e4nv, bitcast=True)
    c = tl.dot(a, b)
    tl.store(c_ptr + rb * M * N + rm[None, :, None] * N + rn[None, None, :], c)


@triton.jit
def batched_dot_loop_kernel(a_ptr, b_ptr, c_ptr, s_ptr, BATCH: tl.constexpr,
                            M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr,
                            K: tl.constexpr):
    # A batched accumulator carried over K in steps of BK, then stored and
    # summed along its rows.
    rb = tl.arange(0, BATCH)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, BK)
    acc = tl.zeros((BATCH, M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rb * M * K + rm * K + k0 + rk[None, None, :])
        b = tl.load(b_ptr + rb * K * N + (k0 + rk[None, :, None]) * N + rn)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rb * M * N + rm * N + rn, acc)
    s = tl.sum(acc, axis=2)
    tl.store(s_ptr + tl.arange(0, BATCH)[:, None] * M + tl.arange(0, M)[None, :], s)


@triton.jit
def dot_loop_prec_kernel(a_ptr, b_ptr, c_ptr, K, sbk, sbn, PREC: tl.constexpr,
                         M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    # A product accumulated over a K with a masked tail, B row- or
    # column-major (sbk, sbn), at a given input precision: full-precision
    # fp32 runs on the FMA units, reading the pipeliner's slots in place.
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ks = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=ks[None, :] < K, other=0.0)
        b = tl.load(b_ptr + ks[:, None] * sbk + rn[None, :] * sbn, mask=ks[:, None] < K,
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_trans_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                     K: tl.constexpr):
    # C = A^T @ B^T with A stored [K, M] and B stored [N, K].
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    at = tl.load(a_ptr + rk[:, None] * M + rm[None, :])
    bt = tl.load(b_ptr + rn[:, None] * K + rk[None, :])
    c = tl.dot(tl.trans(at), bt.T, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


# -- host side ---------------------------------------------------------------

MNK = [(16, 16, 16), (1, 1, 1), (33, 17, 40), (64, 48, 100), (7, 70, 129),
       (100, 31, 16), (128, 64, 257)]

# variant -> (operand dtype, accumulator, input_precision, fp8, out16, c)
VARIANTS = {
    "fp32_ieee": ("fp32", tl.float32, "ieee", "", False, "fp32"),
    "fp32_tf32": ("fp32", tl.float32, "tf32", "", False, "fp32"),
    "fp32_default": ("fp32", tl.float32, None, "", False, "fp32"),
    "fp32_tf32x3": ("fp32", tl.float32, "tf32x3", "", False, "fp32"),
    "fp32_bf16x3": ("fp32", tl.float32, "bf16x3", "", False, "fp32"),
    "fp16": ("fp16", tl.float32, None, "", False, "fp32"),
    "fp16_out16": ("fp16", tl.float16, None, "", True, "fp16"),
    "fp16_to_fp16": ("fp16", tl.float32, None, "", False, "fp16"),
    "bf16": ("bf16", tl.float32, None, "", False, "fp32"),
    "bf16_to_bf16": ("bf16", tl.float32, None, "", False, "bf16"),
    "int8": ("int8", tl.int32, None, "", False, "int32"),
    "fp64": ("fp64", tl.float64, None, "", False, "fp64"),
    "fp8e5": ("fp8e5", tl.float32, None, "e5m2", False, "fp32"),
    "fp8e4nv": ("fp8e4nv", tl.float32, None, "e4m3", False, "fp32"),
    "fp8_mixed": ("fp8e4nv", tl.float32, None, "e4m3_e5m2", False, "fp32"),
}


def _dot_make(p, rng):
    m, n, k = p.mnk
    src, _, _, fp8, _, cdt = VARIANTS[p.v]
    if fp8:
        fa = "fp8e4nv" if fp8 in ("e4m3", "e4m3_e5m2") else "fp8e5"
        fb = "fp8e5" if fp8 in ("e5m2", "e4m3_e5m2") else "fp8e4nv"
        a = rand(rng, (m, k), fa, -2, 2)
        b = rand(rng, (k, n), fb, -2, 2)
    elif src == "int8":
        a = rand(rng, (m, k), "int8")
        b = rand(rng, (k, n), "int8")
    else:
        a = rand(rng, (m, k), src, -1, 1)
        b = rand(rng, (k, n), src, -1, 1)
    return dict(a=a, b=b, c=empty((m, n), cdt))


def _dot_run(a, p):
    m, n, k = p.mnk
    _, acc, prec, fp8, out16, _ = VARIANTS[p.v]
    bm, bn, bk = p.blocks
    if (fp8 or VARIANTS[p.v][0] == "int8") and bk < 32:
        bk = 32  # the minimum K of 8-bit dots
    dot_kernel[(cdiv(m, bm), cdiv(n, bn))](
        a.a, a.b, a.c, m, n, k, ACC=acc, PREC=prec, FP8=fp8, OUT16=out16,
        BM=bm, BN=bn, BK=bk)


def _operand(x, fmt):
    if fmt in formats.FP8:
        return formats.decode(x, fmt)
    if fmt in formats.INTS:
        return x.astype(np.int64)
    return f64(x)


def _dot_ref(a, p):
    src, _, _, fp8, _, cdt = VARIANTS[p.v]
    fa = fb = src
    if fp8:
        fa = "fp8e4nv" if fp8 in ("e4m3", "e4m3_e5m2") else "fp8e5"
        fb = "fp8e5" if fp8 in ("e5m2", "e4m3_e5m2") else "fp8e4nv"
    A, B = _operand(a.a, fa), _operand(a.b, fb)
    c = A @ B
    if cdt == "int32":
        c = c.astype(np.int64).astype(np.int32)  # wraps as int32 does
        return {"c": c}
    # rounding errors scale with |A| |B|, not with |A B|
    return {"c": c, "c:scale": np.abs(A) @ np.abs(B)}


def _dot_tol(p):
    k = p.mnk[2]
    src, _, prec, fp8, out16, cdt = VARIANTS[p.v]
    if cdt == "int32":
        return compare.EXACT
    if cdt == "fp64":
        return compare.tol("fp64", k)
    if src == "fp32" and prec in (None, "tf32"):
        return compare.tf32(k)
    if out16:
        return compare.tol("fp16", k)
    if cdt in ("fp16", "bf16"):
        return compare.tol(cdt, scale=2)
    if src == "fp32" and prec == "bf16x3":
        return compare.tol("fp32", k, scale=30)
    if src == "fp32":
        return compare.tol("fp32", k, scale=4)
    if fp8:
        # Products of fp8 values are exact; sm_90's tensor cores (wgmma, as
        # Triton uses them there by default) sum them with fewer bits than
        # fp32 while they accumulate.
        return compare.tol("fp32", k, scale=16)
    return compare.tol("fp32", k)


def _bd_dims(p):
    bt, m, n, k = p.bd[0]
    if p.bd[1] in ("int8", "fp8e4nv"):
        k = max(k, 32)  # the minimum K of 8-bit dots
    return bt, m, n, k


def _bd_make(p, rng):
    bt, m, n, k = _bd_dims(p)
    dtype = p.bd[1]
    if dtype == "int8":
        return dict(a=rand(rng, (bt, m, k), "int8"),
                    b=rand(rng, (bt, n, k) if p.trans_b else (bt, k, n), "int8"),
                    c=empty((bt, m, n), "int32"))
    lo = -2 if dtype == "fp8e4nv" else -1
    return dict(a=rand(rng, (bt, m, k), dtype, lo, -lo),
                b=rand(rng, (bt, n, k) if p.trans_b else (bt, k, n), dtype, lo, -lo),
                c=empty((bt, m, n), "fp64" if dtype == "fp64" else "fp32"))


def _bd_run(a, p):
    bt, m, n, k = _bd_dims(p)
    batched_dot_kernel[(1,)](a.a, a.b, a.c, BATCH=bt, M=m, N=n, K=k,
                             FP8=p.bd[1] == "fp8e4nv", TRANS_B=p.trans_b,
                             num_warps=p.warps)


def _bd_ref(a, p):
    A, B = _operand(a.a, p.bd[1]), _operand(a.b, p.bd[1])
    if p.trans_b:
        B = B.transpose(0, 2, 1)
    if p.bd[1] == "int8":
        return {"c": np.matmul(A, B).astype(np.int32)}
    return {"c": np.matmul(A, B), "c:scale": np.matmul(np.abs(A), np.abs(B))}


def _bd_tol(p):
    k = _bd_dims(p)[3]
    if p.bd[1] == "fp64":
        return compare.tol("fp64", k)
    return compare.tf32(k) if p.bd[1] == "fp32" else compare.tol("fp32", k)


def _bl_make(p, rng):
    bt, m, n, bk, k = p.bl[0]
    return dict(a=rand(rng, (bt, m, k), p.bl[1], -1, 1),
                b=rand(rng, (bt, k, n), p.bl[1], -1, 1),
                c=empty((bt, m, n), "fp32"), s=empty((bt, m), "fp32"))


def _bl_run(a, p):
    bt, m, n, bk, k = p.bl[0]
    batched_dot_loop_kernel[(1,)](a.a, a.b, a.c, a.s, BATCH=bt, M=m, N=n, BK=bk, K=k,
                                  num_warps=p.warps)


def _bl_ref(a, p):
    A, B = f64(a.a), f64(a.b)
    c, cs = np.matmul(A, B), np.matmul(np.abs(A), np.abs(B))
    return {"c": c, "c:scale": cs, "s": c.sum(axis=2), "s:scale": cs.sum(axis=2)}


def _bl_tol(p):
    k = p.bl[0][4]
    return compare.tf32(k) if p.bl[1] == "fp32" else compare.tol("fp32", k)


def _bl_tol_sum(p):
    k = p.bl[0][4] * p.bl[0][2]
    return compare.tf32(k) if p.bl[1] == "fp32" else compare.tol("fp32", k)


def _dt_make(p, rng):
    m, n, k = p.mnk
    return dict(a=rand(rng, (k, m), "fp32"), b=rand(rng, (n, k), "fp32"),
                c=empty((m, n), "fp32"))


def _dt_run(a, p):
    m, n, k = p.mnk
    dot_trans_kernel[(1,)](a.a, a.b, a.c, M=m, N=n, K=k)


def _dt_ref(a, p):
    A, B = f64(a.a).T, f64(a.b).T
    return {"c": A @ B, "c:scale": np.abs(A) @ np.abs(B)}


def _dp_make(p, rng):
    m, n, bk, k, dt, prec, bt = p.case
    b = rand(rng, (n, k) if bt else (k, n), dt, -1, 1)
    return dict(a=rand(rng, (m, k), dt, -1, 1), b=b, c=empty((m, n), "fp32"))


def _dp_run(a, p):
    m, n, bk, k, dt, prec, bt = p.case
    sbk, sbn = (1, k) if bt else (n, 1)
    dot_loop_prec_kernel[(1,)](a.a, a.b, a.c, k, sbk, sbn, PREC=prec, M=m, N=n, BK=bk,
                               num_warps=p.warps, num_stages=3)


def _dp_ref(a, p):
    A = f64(a.a)
    B = f64(a.b).T if p.case[6] else f64(a.b)
    return {"c": A @ B, "c:scale": np.abs(A) @ np.abs(B)}


def _dp_tol(p):
    k, prec = p.case[3], p.case[5]
    return compare.tf32(k) if prec == "tf32" else compare.tol("fp32", k)


# (batch, M, N, K): warps over the batch, over (M, N) too, batch entries
# repeating in registers, more warps than tiles.
BATCHED = [(2, 16, 16, 16), (4, 32, 16, 64), (1, 16, 64, 32), (8, 16, 32, 16),
           (4, 64, 64, 64), (2, 64, 32, 128)]

BLOCKS = [(16, 16, 16), (32, 32, 32), (64, 32, 16), (16, 64, 64)]


def _dot_manifest(name, variants, xfail=None):
    return Manifest(name, dot_kernel, _dot_make, _dot_run, _dot_ref,
                    {"c": Out(tol=_dot_tol)},
                    params=dict(mnk=MNK, v=variants, blocks=BLOCKS),
                    xfail=xfail)


MANIFESTS = [
    _dot_manifest("dot_fp32_precisions", ["fp32_ieee", "fp32_tf32",
                                          "fp32_default", "fp32_tf32x3",
                                          "fp32_bf16x3"]),
    _dot_manifest("dot_fp16", ["fp16", "fp16_out16", "fp16_to_fp16"]),
    _dot_manifest("dot_bf16", ["bf16", "bf16_to_bf16"]),
    _dot_manifest("dot_int8", ["int8"]),
    _dot_manifest("dot_fp64", ["fp64"]),
    _dot_manifest("dot_fp8", ["fp8e5", "fp8e4nv", "fp8_mixed"]),
    Manifest("dot_batched_3d", batched_dot_kernel, _bd_make, _bd_run, _bd_ref,
             {"c": Out(tol=_bd_tol)},
             # every shape with every operand type; 4 and 8 warps in turn,
             # B permuted from [BATCH, N, K] in 2 cases of 5 (lists of
             # coprime lengths: every type meets both)
             # (fp64's largest shape is left out: its operands alone are
             # 256 KiB, past the shared memory tritium stages them in.)
             params=dict(bd=[(d, t) for d in BATCHED for t in
                             ["fp32", "fp16", "bf16", "int8", "fp8e4nv", "fp64"]
                             if not (t == "fp64" and d == (4, 64, 64, 64))],
                         warps=[4, 8],
                         trans_b=[False, False, True, False, True])),
    Manifest("dot_batched_loop", batched_dot_loop_kernel, _bl_make, _bl_run, _bl_ref,
             {"c": Out(tol=_bl_tol), "s": Out(tol=_bl_tol_sum)},
             params=dict(bl=[(d, t) for d in [(4, 32, 32, 32, 128), (2, 64, 16, 16, 64),
                                              (8, 16, 64, 32, 96)]
                             for t in ["fp16", "bf16", "fp32"]], warps=[4, 8])),
    Manifest("dot_loop_precisions", dot_loop_prec_kernel, _dp_make, _dp_run, _dp_ref,
             {"c": Out(tol=_dp_tol)},
             params=dict(case=[(64, 64, 16, 200, "fp32", "ieee", False),
                               (32, 64, 32, 96, "fp32", "ieee", True),
                               (32, 32, 16, 64, "fp32", "ieee", True),
                               (16, 16, 16, 48, "bf16", "ieee", True),
                               (64, 64, 16, 128, "fp32", "tf32", False)],
                         warps=[4, 8])),
    Manifest("dot_transposed", dot_trans_kernel, _dt_make, _dt_run, _dt_ref,
             {"c": Out(tol=lambda p: compare.tol("fp32", p.mnk[2],
                                                 scale=4))},
             params=dict(mnk=[(16, 16, 16), (32, 64, 16), (64, 16, 128)])),
]

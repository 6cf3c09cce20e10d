"""Matmuls with B row-major whose N (and so B's row stride) is not a
multiple of 16, timed on one side: fp32 (tf32 products) or int8 (into
int32), each of 03's configs, against torch.

The kernel masks N (``rn < N``) rather than wrapping it (03's ``% N``), so
the pointers are provably contiguous along N though their runs of 4 are
neither whole nor 16-byte aligned: the copy that stores B transposed for
wgmma (which reads tf32 and int8 operands K-major only) cannot move 16 or 4
bytes at a time along N.

Run each side in its own process (GPU needed):
    PYTHONPATH=python:python/compat python3 bench/matmul_unaligned_n.py tritium
    python3 bench/matmul_unaligned_n.py triton
Environment: DT (fp32 or int8, default fp32), NS (the N values, default
"8192,8200"); M = K = 8192.
"""
import os
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def mm_masked(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
        a_ptrs += BK
        b_ptrs += BK * sbk
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


which = sys.argv[1] if len(sys.argv) > 1 else "side"
DT = os.environ.get("DT", "fp32")
# (BM, BN, BK, stages, warps): 03's configs that fit.
CONFIGS = [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
           (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (128, 256, 128, 3, 8),
           (256, 128, 128, 3, 8), (256, 64, 128, 4, 4), (128, 128, 128, 4, 4),
           (128, 64, 64, 4, 4), (64, 128, 64, 4, 4), (128, 32, 64, 4, 4)]
M = K = 8192
torch.manual_seed(0)
for N in [int(x) for x in os.environ.get("NS", "8192,8200").split(",")]:
    if DT == "int8":
        a = torch.randint(-8, 8, (M, K), device="cuda", dtype=torch.int8)
        b = torch.randint(-8, 8, (K, N), device="cuda", dtype=torch.int8)
        c = torch.empty((M, N), device="cuda", dtype=torch.int32)
    else:
        a = torch.randn((M, K), device="cuda")
        b = torch.randn((K, N), device="cuda")
        c = torch.empty((M, N), device="cuda")
    ref = a.double() @ b.double()
    unit = "TOP/s" if DT == "int8" else "TFLOP/s"
    for bm, bn, bk, st, w in CONFIGS:
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))

        def f():
            mm_masked[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                            BM=bm, BN=bn, BK=bk, num_stages=st, num_warps=w)
        try:
            c.zero_()
            f()
            torch.cuda.synchronize()
            err = ((c.double() - ref).norm() / ref.norm()).item()
            ms = triton.testing.do_bench(f, warmup=10, rep=50)
            print("%s %s N=%d %s: %.1f %s (rel err %.1e)" % (
                which, DT, N, (bm, bn, bk, st, w), 2 * M * N * K / ms * 1e-9, unit, err),
                flush=True)
        except Exception as e:  # out of resources and the like
            print("%s %s N=%d %s: %s" % (which, DT, N, (bm, bn, bk, st, w),
                                         str(e).splitlines()[0][:100]), flush=True)

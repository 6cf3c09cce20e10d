"""tritium against the installed Triton on one GPU, in one process.

The same kernels (the examples' source, read by both), the same inputs and
the same ``triton.testing.do_bench`` measure both; the table gives each
median, the achieved bandwidth or TFLOP/s, and the ratio tritium / Triton
(higher is better), plus the largest relative difference of the outputs.

Run on a machine with an NVIDIA GPU, torch and Triton, with tritium's own
package (not the compatibility one) on the path:
    PYTHONPATH=python:examples python3 bench/gpu_bench.py [--quick]
"""

import argparse
import sys

import torch
import triton
from triton.testing import do_bench

import tritium

import attention
import layer_norm
import matmul
import softmax
import vector_add


def both(kernel):
    """(Triton's kernel, tritium's kernel) from one @triton.jit function."""
    return kernel, tritium.jit(kernel.fn)


def reldiff(a, b):
    a, b = a.double(), b.double()
    return ((a - b).norm() / b.norm().clamp_min(1e-30)).item()


ROWS = []


def measure(name, launch_triton, launch_tritium, out_triton, out_tritium,
            work, unit, rep):
    launch_triton()
    launch_tritium()
    torch.cuda.synchronize()
    diff = reldiff(out_tritium(), out_triton())
    t_tri = do_bench(launch_triton, rep=rep)
    t_us = do_bench(launch_tritium, rep=rep)
    scale = 1e12 if unit == "TFLOP/s" else 1e12  # TB/s and TFLOP/s
    ROWS.append((name, t_tri, t_us, work / (t_tri * 1e-3) / scale,
                 work / (t_us * 1e-3) / scale, unit, t_tri / t_us, diff))
    print("%-34s triton %.4f ms  tritium %.4f ms  ratio %.3f  diff %.1e"
          % (name, t_tri, t_us, t_tri / t_us, diff), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    args = ap.parse_args()
    q = args.quick
    torch.manual_seed(0)

    # vector add fp32, BLOCK 1024.
    n = 2 ** (24 if q else 28)
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    o1, o2 = torch.empty_like(x), torch.empty_like(x)
    kt, ku = both(vector_add.add_kernel)
    grid = (triton.cdiv(n, 1024),)
    measure("vector add fp32 n=2^%d" % (24 if q else 28),
            lambda: kt[grid](x, y, o1, n, BLOCK_SIZE=1024),
            lambda: ku[grid](x, y, o2, n, BLOCK_SIZE=1024),
            lambda: o1, lambda: o2, 3 * 4 * n, "TB/s", 100)
    del x, y, o1, o2

    # softmax fp32, one row per program.
    M, N = (4096, 4096) if q else (16384, 4096)
    x = torch.randn(M, N, device="cuda")
    o1, o2 = torch.empty_like(x), torch.empty_like(x)
    kt, ku = both(softmax.softmax_kernel)
    block = triton.next_power_of_2(N)
    measure("softmax fp32 %dx%d" % (M, N),
            lambda: kt[(M,)](o1, x, x.stride(0), o1.stride(0), M, N,
                             BLOCK_SIZE=block, num_stages=1, num_warps=8),
            lambda: ku[(M,)](o2, x, x.stride(0), o2.stride(0), M, N,
                             BLOCK_SIZE=block, num_stages=1, num_warps=8),
            lambda: o1, lambda: o2, 2 * 4 * M * N, "TB/s", 100)
    del x, o1, o2

    # layer norm forward fp16.
    M, N = (4096, 8192) if q else (8192, 8192)
    x = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.rand(N, device="cuda", dtype=torch.float16)
    b = torch.rand(N, device="cuda", dtype=torch.float16)
    y1, y2 = torch.empty_like(x), torch.empty_like(x)
    mean = torch.empty(M, device="cuda")
    rstd = torch.empty(M, device="cuda")
    kt, ku = both(layer_norm._layer_norm_fwd_fused)
    block = min(65536 // 2, triton.next_power_of_2(N))
    warps = min(max(block // 256, 1), 8)
    measure("layer norm fwd fp16 %dx%d" % (M, N),
            lambda: kt[(M,)](x, y1, w, b, mean, rstd, x.stride(0), N, 1e-5,
                             BLOCK_SIZE=block, num_warps=warps),
            lambda: ku[(M,)](x, y2, w, b, mean, rstd, x.stride(0), N, 1e-5,
                             BLOCK_SIZE=block, num_warps=warps),
            lambda: y1, lambda: y2, 2 * 2 * M * N, "TB/s", 100)
    del x, y1, y2

    # matmul fp16 -> fp16, one configuration for both.
    S = 2048 if q else 4096
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    bm = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c1, c2 = torch.empty_like(a), torch.empty_like(a)
    kt, ku = both(matmul.matmul_kernel)
    BM, BN, BK = 128, 128, 64
    grid = (triton.cdiv(S, BM) * triton.cdiv(S, BN),)

    def mm(k, c):
        return lambda: k[grid](a, bm, c, S, S, S, a.stride(0), a.stride(1),
                               bm.stride(0), bm.stride(1), c.stride(0),
                               c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN,
                               BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, ACTIVATION="",
                               num_warps=8, num_stages=3)
    measure("matmul fp16 %d^3 (128x128x64, 8 warps)" % S, mm(kt, c1), mm(ku, c2),
            lambda: c1, lambda: c2, 2 * S ** 3, "TFLOP/s", 200)
    del a, bm, c1, c2

    # attention forward fp16, non-causal.
    B, H, L, D = (1, 8, 1024, 64) if q else (4, 32, 4096, 128)
    qq, kk, vv = (torch.randn(B, H, L, D, device="cuda", dtype=torch.float16)
                  .normal_(0, 0.5) for _ in range(3))
    o1, o2 = torch.empty_like(qq), torch.empty_like(qq)
    kt, ku = both(attention._attn_fwd)
    BM, BN = 128, 64
    grid = (triton.cdiv(L, BM), B * H, 1)
    warps = 4 if D <= 64 else 8

    def attn(k, o):
        return lambda: k[grid](
            qq, kk, vv, D ** -0.5, o, *qq.stride(), *kk.stride(), *vv.stride(),
            *o.stride(), B, H, L, HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN,
            CAUSAL=False, num_warps=warps, num_stages=3)
    measure("attention fwd fp16 B%d H%d L%d D%d" % (B, H, L, D), attn(kt, o1),
            attn(ku, o2), lambda: o1, lambda: o2, 4 * B * H * L * L * D,
            "TFLOP/s", 200)

    print()
    print("| kernel | Triton ms | tritium ms | Triton | tritium | unit | "
          "tritium/Triton | rel. diff |")
    print("|---|---|---|---|---|---|---|---|")
    for r in ROWS:
        print("| %s | %.4f | %.4f | %.2f | %.2f | %s | %.3f | %.1e |" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Matmul fp16 4096^3 over launch configurations, tritium against the
installed Triton on one GPU, in one process: the examples' matmul kernel,
the same inputs and ``triton.testing.do_bench`` for both. Each row is one
(tile, num_warps, num_stages, maxnreg) choice; the ratio is tritium /
Triton (higher is better).

    PYTHONPATH=python:examples python3 bench/gpu_matmul_sweep.py
"""

import torch
import triton
from triton.testing import do_bench

import tritium

import matmul

CONFIGS = [  # BM, BN, BK, warps, stages, maxnreg
    (128, 128, 64, 8, 3, None),
    (128, 128, 64, 8, 3, 128),
    (128, 128, 64, 8, 4, None),
    (128, 128, 32, 4, 4, None),
    (128, 256, 64, 8, 3, None),
    (64, 128, 64, 4, 4, None),
]


def main():
    torch.manual_seed(0)
    S = 4096
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    b = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c1, c2 = torch.empty_like(a), torch.empty_like(a)
    kt, ku = matmul.matmul_kernel, tritium.jit(matmul.matmul_kernel.fn)
    print("| BMxBNxBK | warps | stages | maxnreg | Triton TFLOP/s | tritium TFLOP/s | ratio |")
    print("|---|---|---|---|---|---|---|")
    for bm, bn, bk, warps, stages, reg in CONFIGS:
        grid = (triton.cdiv(S, bm) * triton.cdiv(S, bn),)
        opts = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                    GROUP_SIZE_M=8, ACTIVATION="", num_warps=warps,
                    num_stages=stages)
        if reg:
            opts["maxnreg"] = reg

        def run(k, c):
            return lambda: k[grid](a, b, c, S, S, S, a.stride(0), a.stride(1),
                                   b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), **opts)
        try:
            run(kt, c1)()
            run(ku, c2)()
            torch.cuda.synchronize()
            diff = ((c1.double() - c2.double()).norm() / c1.double().norm()).item()
            tt = do_bench(run(kt, c1), rep=200)
            tu = do_bench(run(ku, c2), rep=200)
        except Exception as e:  # a configuration one side cannot run
            print("| %dx%dx%d | %d | %d | %s | error: %s |" %
                  (bm, bn, bk, warps, stages, reg, str(e).splitlines()[0][:80]))
            continue
        f = 2 * S ** 3 / 1e12
        print("| %dx%dx%d | %d | %d | %s | %.1f | %.1f | %.3f | diff %.1e" %
              (bm, bn, bk, warps, stages, reg, f / (tt * 1e-3), f / (tu * 1e-3),
               tt / tu, diff), flush=True)


if __name__ == "__main__":
    main()

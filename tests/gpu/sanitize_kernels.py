"""The Hopper code paths, one short launch each, for compute-sanitizer
(memcheck, racecheck, synccheck; scripts/gpu-check runs it under all
three): wgmma matmuls fed by cp.async rings (03's pointer kernel at 8 and 4
warps), by TMA through block pointers and through in-kernel tensor
descriptors (and with K = 0, a loop that does not run), fp32 (tf32) and int8
matmuls with B K-major and row-major, 09's persistent matmul with fewer programs than tiles (so
each program's loop runs several tiles), 06's attention forward (D64 and
D128, causal and not, K pre-transposed and through tl.trans,
warp-specialized and not) and 05's layer norm. Every result is checked
against torch; exits 1 on a mismatch. The kernels are bench/bench_kernels'
(Triton's tutorials'), compiled by tritium.

Run: PYTHONPATH=python:python/compat python3 tests/gpu/sanitize_kernels.py
"""

import os
import sys

import torch

import triton

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "bench"))
import bench_kernels as K  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Inputs", "codegen"))
from block_matmul import mm_loop  # noqa: E402  (products accumulating in C's dtype)

cdiv = triton.cdiv
failures = []
# --cpu: on the interpreter, with CPU tensors (checks this script without a GPU).
DEV = "cpu" if "--cpu" in sys.argv else "cuda"


def check(name, got, want, tol):
    err = (got.double() - want.double()).abs().max().item()
    scale = want.double().abs().max().item() or 1.0
    ok = err <= tol * scale
    print("%-58s max error %.2e (scale %.2e) %s" % (name, err, scale,
                                                   "ok" if ok else "MISMATCH"))
    if not ok:
        failures.append(name)


def matmuls():
    torch.manual_seed(0)
    S, KD = 384, 512
    a = torch.randn((S, KD), device=DEV, dtype=torch.float16)
    bT = torch.randn((S, KD), device=DEV, dtype=torch.float16)
    b = bT.T
    want = a.float() @ b.float()
    for bm, bn, bk, w, s in [(128, 256, 64, 8, 3), (128, 128, 64, 4, 4)]:
        meta = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                    GROUP_SIZE_M=8, num_warps=w, num_stages=s)
        tiles = cdiv(S, bm) * cdiv(S, bn)
        for kern, name in [(K.matmul_kernel, "ptr"), (K.matmul_kernel_block_ptr, "blockptr")]:
            c = torch.empty((S, S), device=DEV, dtype=torch.float16)
            kern[(tiles,)](a, b, c, S, S, KD, a.stride(0), a.stride(1), b.stride(0),
                           b.stride(1), c.stride(0), c.stride(1), **meta)
            check("matmul %s %dx%dx%d w%d s%d" % (name, bm, bn, bk, w, s), c, want, 1e-2)
        # K = 0: the k loop does not run (its skip path waits for the
        # wgmma groups, then writes the accumulator's zeros).
        c = torch.full((S, S), 7.0, device=DEV, dtype=torch.float16)
        K.matmul_kernel[(tiles,)](a, b, c, S, S, 0, a.stride(0), a.stride(1), b.stride(0),
                                  b.stride(1), c.stride(0), c.stride(1), **meta)
        check("matmul ptr %dx%dx%d w%d s%d, K = 0" % (bm, bn, bk, w, s), c,
              torch.zeros_like(want), 1e-2)
        c = torch.empty((S, S), device=DEV, dtype=torch.float16)
        K.matmul_kernel_descriptor[(tiles,)](a, bT, c, S, S, KD, **meta)
        check("matmul desc %dx%dx%d w%d s%d" % (bm, bn, bk, w, s), c, want, 1e-2)
        # Fewer programs than tiles: each program's tile loop runs again.
        c = torch.empty((S, S), device=DEV, dtype=torch.float16)
        K.matmul_kernel_persistent[(2,)](a, b, c, S, S, KD, a.stride(0), a.stride(1),
                                         b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                         NUM_SMS=2, **meta)
        check("matmul persistent %dx%dx%d w%d s%d, 2 programs" % (bm, bn, bk, w, s),
              c, want, 1e-2)


def k_major_only_matmuls():
    # fp32 (tf32) and int8 products, read K-major only by wgmma: B K-major
    # (16-byte copies) and row-major (through registers in 4 x 4 blocks,
    # transposed there).
    torch.manual_seed(2)
    S, KD = 384, 512
    for dt in (torch.float32, torch.int8):
        if dt == torch.float32:
            a = torch.randn((S, KD), device=DEV)
            bT = torch.randn((S, KD), device=DEV)
        else:
            a = torch.randint(-8, 8, (S, KD), device=DEV, dtype=dt)
            bT = torch.randint(-8, 8, (S, KD), device=DEV, dtype=dt)
        for b, lay in ((bT.T, "K-major B"), (bT.T.contiguous(), "row-major B")):
            want = a.double() @ b.double()
            for bm, bn, bk, w, s in [(128, 128, 32, 4, 4), (128, 256, 64, 8, 3)]:
                c = torch.empty((S, S), device=DEV,
                                dtype=torch.float32 if dt == torch.float32 else torch.int32)
                mm_loop[(cdiv(S, bm), cdiv(S, bn))](
                    a, b, c, S, S, KD, a.stride(0), b.stride(0), b.stride(1), c.stride(0),
                    BM=bm, BN=bn, BK=bk, num_warps=w, num_stages=s)
                check("matmul %s %s %dx%dx%d w%d s%d" % (str(dt)[6:], lay, bm, bn, bk, w, s),
                      c, want, 5e-3 if dt == torch.float32 else 0.0)


def attention():
    torch.manual_seed(1)
    Z, H, N = 1, 2, 384
    for D in (64, 128):
        q, k, v = (torch.empty((Z, H, N, D), device=DEV, dtype=torch.float16)
                   .normal_(0.0, 0.5) for _ in range(3))
        sm_scale = D ** -0.5
        for causal in (False, True):
            s = (q.double() @ k.double().transpose(-1, -2)) * sm_scale
            if causal:
                s = s.masked_fill(~torch.ones((N, N), dtype=torch.bool,
                                              device=DEV).tril(), float("-inf"))
            want = torch.softmax(s, dim=-1) @ v.double()
            for kT in (True, False):
                for ws in ((False, True) if not causal else (False,)):
                    o = torch.empty_like(q)
                    M = torch.empty((Z, H, N), device=DEV, dtype=torch.float32)
                    k_arg = k.transpose(-1, -2).contiguous() if kT else k
                    K.attn_fwd[(cdiv(N, 128), Z * H, 1)](
                        sm_scale, M, Z, H, q, k_arg, v, o, N_CTX=N, HEAD_DIM=D,
                        BLOCK_M=128, BLOCK_N=64, STAGE=3 if causal else 1,
                        K_TRANSPOSED=kT, warp_specialize=ws, num_warps=4, num_stages=3)
                    check("attention D%d %s %s%s" % (D, "causal" if causal else "full",
                                                     "K-kT" if kT else "K-trans",
                                                     " warp-specialized" if ws else ""),
                          o, want, 1e-2)


def layer_norm():
    torch.manual_seed(2)
    M, N = 64, 4096
    x = torch.randn((M, N), device=DEV, dtype=torch.float16)
    w = torch.rand((N,), device=DEV, dtype=torch.float16)
    b = torch.rand((N,), device=DEV, dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty((M,), device=DEV, dtype=torch.float32)
    rstd = torch.empty((M,), device=DEV, dtype=torch.float32)
    BLOCK, warps = K.layer_norm_launch(N, x.element_size())
    K.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                           BLOCK_SIZE=BLOCK, num_warps=warps)
    check("layer norm fp16 %dx%d" % (M, N), y,
          torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5), 1e-2)


def main():
    if DEV == "cuda" and not torch.cuda.is_available():
        print("no CUDA GPU")
        return 2
    matmuls()
    k_major_only_matmuls()
    attention()
    layer_norm()
    if DEV == "cuda":
        torch.cuda.synchronize()
    print("%d mismatches" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

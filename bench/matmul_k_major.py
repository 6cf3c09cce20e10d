"""Matmuls whose products wgmma reads K-major only: fp32 (at tf32, tl.dot's
default precision) and int8 (into int32), with B row-major (``a @ b`` as
03 writes it, B contiguous along N) and with B K-major (the transpose of a
row-major [N, K] matrix), timed on one side.

03's grouped pointer kernel, its accumulator fp32 or int32; each side picks
its best of 03's config list (its fp8 configs included) for every row
(triton.testing.do_bench, median; each config's time is printed), checks
it against torch, then times the rows' best configs in alternating rounds.

Run each side in its own process, the same script (GPU needed):
    PYTHONPATH=python:python/compat python3 bench/matmul_k_major.py tritium
    python3 bench/matmul_k_major.py triton
Environment: SIZE (default 8192), ROUNDS (3), ONLY (a substring of the rows
to run).
"""
import os
import statistics
import sys

import torch
import triton
import triton.language as tl

which = sys.argv[1] if len(sys.argv) > 1 else "side"


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, sbn, scm,
       BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
       GROUP_SIZE_M: tl.constexpr, INT: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    group = GROUP_SIZE_M * num_pid_n
    first_m = (pid // group) * GROUP_SIZE_M
    gm = min(num_pid_m - first_m, GROUP_SIZE_M)
    pid_m = first_m + (pid % group) % gm
    pid_n = (pid % group) // gm
    rm = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32 if INT else tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_SIZE_K, other=0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_SIZE_K, other=0)
        acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K * sbk
    cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :], acc,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


CONFIGS = [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
           (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
           (128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4),
           (64, 256, 128, 4, 4), (128, 128, 128, 4, 4), (128, 64, 64, 4, 4),
           (64, 128, 64, 4, 4), (128, 32, 64, 4, 4)]

S = int(os.environ.get("SIZE", "8192"))
only = os.environ.get("ONLY", "")
torch.manual_seed(0)
rows = {}
for dt in ("fp32", "int8"):
    if dt == "fp32":
        a = torch.randn((S, S), device="cuda")
        bt = torch.randn((S, S), device="cuda")
    else:
        a = torch.randint(-8, 8, (S, S), device="cuda", dtype=torch.int8)
        bt = torch.randint(-8, 8, (S, S), device="cuda", dtype=torch.int8)
    for lay in ("rowB", "kmajorB"):
        name = "%s %s" % (dt, lay)
        if only and only not in name:
            continue
        b = bt.T if lay == "kmajorB" else bt  # [K, N]
        c = torch.empty((S, S), device="cuda", dtype=torch.float32 if dt == "fp32" else torch.int32)
        rows[name] = (dt, a, b, c)


def launcher(a, b, c, dt, cfg):
    bm, bn, bk, st, w = cfg
    grid = (triton.cdiv(S, bm) * triton.cdiv(S, bn),)
    return lambda: mm[grid](a, b, c, S, S, S, a.stride(0), b.stride(0), b.stride(1), c.stride(0),
                            BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                            INT=dt == "int8", num_stages=st, num_warps=w)


best = {}
for name, (dt, a, b, c) in rows.items():
    if dt == "fp32":
        ref = (a.double() @ b.double())
    else:
        ref = (a.double() @ b.double())
    tried = []
    for cfg in CONFIGS:
        f = launcher(a, b, c, dt, cfg)
        try:
            c.zero_(); f(); torch.cuda.synchronize()
            err = ((c.double() - ref).norm() / ref.norm()).item()
            if err > (2e-3 if dt == "fp32" else 0.0):
                print("%s %s %s: wrong (rel err %.2e)" % (which, name, cfg, err), flush=True)
                continue
            ms = triton.testing.do_bench(f, warmup=10, rep=40)
            tried.append((ms, cfg, err))
            print("%s %s %s: %.4f ms %.1f" % (which, name, cfg, ms, 2 * S ** 3 / ms * 1e-9),
                  flush=True)
        except Exception as e:  # out of resources and the like
            print("%s %s %s: %s" % (which, name, cfg, str(e).splitlines()[0][:120]), flush=True)
    if tried:
        ms, cfg, err = min(tried)
        best[name] = (launcher(a, b, c, dt, cfg), cfg, err)
times = {n: [] for n in best}
for r in range(int(os.environ.get("ROUNDS", "3"))):
    for n in best:
        times[n].append(triton.testing.do_bench(best[n][0], warmup=25, rep=100))
for n in rows:
    if n not in best:
        print("%s %d %-14s no config ran" % (which, S, n), flush=True)
        continue
    ms = statistics.median(times[n])
    unit = "TFLOP/s" if n.startswith("fp32") else "TOP/s"
    print("%s %d %-14s %.4f ms %7.1f %s  config %s  rel err %.1e" % (
        which, S, n, ms, 2 * S ** 3 / ms * 1e-9, unit, best[n][1], best[n][2]), flush=True)

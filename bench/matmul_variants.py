"""One matmul written eighteen ways (and accumulated in fp16), timed on one side.

Loads through pointers, block pointers or tensor descriptors, times stores
through each, as a plain kernel (one tile per program, grouped order) and
as a flattened persistent loop: fp16, B row-major, 128x256x64, 8 warps;
and the plain pointer kernel with its products accumulated in fp16
(``out_dtype=tl.float16``).
Each variant's result is checked against torch, then all are timed in
alternating rounds (triton.testing.do_bench, median). Kernels written a
way the compiler handles worse than the others stand out.

Run each side in its own process, the same script (GPU needed):
    PYTHONPATH=python:python/compat python3 bench/matmul_variants.py tritium
    python3 bench/matmul_variants.py triton
Environment: SIZE (default 8192), ROUNDS (5), PSTAGES (persistent stages, 3).
"""
import os
import statistics
import sys

import torch
import triton
import triton.language as tl

which = sys.argv[1] if len(sys.argv) > 1 else "side"
try:
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
except Exception as e:
    print("no set_allocator:", e)


@triton.jit
def _tile(a_ptr, b_ptr, M, N, K, sam, sbk, pid_m, pid_n, a_desc, b_desc,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, LOAD: tl.constexpr,
          ACC16: tl.constexpr):
    # ACC16: the products accumulate in fp16 (out_dtype).
    acc = tl.zeros((BM, BN), dtype=tl.float16 if ACC16 else tl.float32)
    if LOAD == 0:
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
        b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :]
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
            b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
            a_ptrs += BK
            b_ptrs += BK * sbk
    elif LOAD == 1:
        a_bp = tl.make_block_ptr(a_ptr, (M, K), (sam, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
        b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
            b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
            acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
            a_bp = tl.advance(a_bp, (0, BK))
            b_bp = tl.advance(b_bp, (BK, 0))
    else:
        for k in range(0, tl.cdiv(K, BK)):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([k * BK, pid_n * BN])
            acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
    return acc


@triton.jit
def _store(c_ptr, M, N, scm, pid_m, pid_n, c_desc, c, BM: tl.constexpr, BN: tl.constexpr, STORE: tl.constexpr):
    if STORE == 0:
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))
    elif STORE == 1:
        c_bp = tl.make_block_ptr(c_ptr, (M, N), (scm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
        tl.store(c_bp, c, boundary_check=(0, 1))
    else:
        c_desc.store([pid_m * BM, pid_n * BN], c)


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
       LOAD: tl.constexpr, STORE: tl.constexpr, ACC16: tl.constexpr = False):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    gm = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % gm
    pid_n = (pid % group) // gm
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [sam, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [sbk, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [scm, 1], [BM, BN])
    acc = _tile(a_ptr, b_ptr, M, N, K, sam, sbk, pid_m, pid_n, a_desc, b_desc, BM, BN, BK, LOAD,
                ACC16)
    _store(c_ptr, M, N, scm, pid_m, pid_n, c_desc, acc.to(tl.float16), BM, BN, STORE)


@triton.jit
def mm_pers(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
            LOAD: tl.constexpr, STORE: tl.constexpr, NUM_SMS: tl.constexpr):
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = GROUP_M * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [sam, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [sbk, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [scm, 1], [BM, BN])
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        first_m = (tile // group) * GROUP_M
        gm = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + (tile % group) % gm
        pid_n = (tile % group) // gm
        acc = _tile(a_ptr, b_ptr, M, N, K, sam, sbk, pid_m, pid_n, a_desc, b_desc, BM, BN, BK,
                    LOAD, False)
        _store(c_ptr, M, N, scm, pid_m, pid_n, c_desc, acc.to(tl.float16), BM, BN, STORE)


NSM = torch.cuda.get_device_properties(0).multi_processor_count
S = int(os.environ.get("SIZE", "8192"))
torch.manual_seed(0)
a = torch.randn((S, S), device="cuda", dtype=torch.float16)
b = torch.randn((S, S), device="cuda", dtype=torch.float16)
ref = (a.float() @ b.float()).half()
c = torch.empty((S, S), device="cuda", dtype=torch.float16)
T = triton.cdiv(S, 128) * triton.cdiv(S, 256)
names = "ptr blk desc".split()
fns = {}
for pers in (0, 1):
    for L in range(3):
        for St in range(3):
            name = "%s %s>%s" % ("pers" if pers else "tile", names[L], names[St])
            if pers:
                fns[name] = (lambda L=L, St=St: mm_pers[(min(NSM, T),)](a, b, c, S, S, S, S, S, S, BM=128, BN=256, BK=64, GROUP_M=8, LOAD=L, STORE=St, NUM_SMS=NSM, num_warps=8, num_stages=int(os.environ.get("PSTAGES", "3"))))
            else:
                fns[name] = (lambda L=L, St=St: mm[(T,)](a, b, c, S, S, S, S, S, S, BM=128, BN=256, BK=64, GROUP_M=8, LOAD=L, STORE=St, num_warps=8, num_stages=3))
# Pointer loads and stores, the products accumulated in fp16.
fns["tile ptr>ptr f16acc"] = lambda: mm[(T,)](a, b, c, S, S, S, S, S, S, BM=128, BN=256, BK=64, GROUP_M=8, LOAD=0, STORE=0, ACC16=True, num_warps=8, num_stages=3)
ok = {}
for n, f in fns.items():
    try:
        c.zero_(); f(); torch.cuda.synchronize()
        ok[n] = (c.float() - ref.float()).abs().max().item()
    except Exception as e:
        ok[n] = "ERR " + str(e).splitlines()[0][:160]
times = {n: [] for n in fns if not isinstance(ok[n], str)}
for r in range(int(os.environ.get("ROUNDS", "5"))):
    for n in times:
        times[n].append(triton.testing.do_bench(fns[n], warmup=25, rep=100))
for n in fns:
    if n in times:
        ms = statistics.median(times[n])
        print("%s %d %-16s %.4f ms %7.1f TFLOP/s  maxerr %s" % (which, S, n, ms, 2*S**3/ms*1e-9, ok[n]), flush=True)
    else:
        print("%s %d %-16s %s" % (which, S, n, ok[n]), flush=True)

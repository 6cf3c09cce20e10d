"""tl.range(..., flatten=True): a persistent matmul's tile loop and k loop
compiled as one loop. On sm_90 the wgmma group stays in flight across
tiles (the accumulator restarts by the instruction's predicate) and the
epilogue waits for it; on a GPU, results against torch at shapes with
partial tiles, a k range that is not a multiple of the block, and none."""

import re

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

try:
    import torch
except ImportError:
    torch = None


@triton.jit
def _tile_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def persistent_matmul(a_ptr, b_ptr, c_ptr, M, N, K,
                      stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    offs_k_for_mask = tl.arange(0, BK)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BM + tl.arange(0, BM)
        offs_bn = pid_n * BN + tl.arange(0, BN)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BM), BM)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BN), BN)
        accumulator = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BK + tl.arange(0, BK)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BK, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BK, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _tile_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BM + tl.arange(0, BM)
        offs_cn = pid_n * BN + tl.arange(0, BN)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, accumulator.to(c_ptr.dtype.element_ty), mask=c_mask)


@triton.jit
def persistent_matmul_shared_offsets(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk,
                                     stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                                     BK: tl.constexpr, NUM_SMS: tl.constexpr):
    # Each tile's row and column offsets are computed once and serve the
    # loads and the store: the flattened loop carries them from a tile's
    # first iteration to its epilogue.
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * num_pid_n
    rk = tl.arange(0, BK)
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True):
        rm = (tile // num_pid_n) * BM + tl.arange(0, BM)
        rn = (tile % num_pid_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptr + rm[:, None] * stride_am + (k * BK + rk)[None, :],
                        mask=(rm[:, None] < M) & ((k * BK + rk)[None, :] < K), other=0.0)
            b = tl.load(b_ptr + (k * BK + rk)[:, None] * stride_bk + rn[None, :],
                        mask=((k * BK + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
             "K": "i32", "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32",
             "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr",
             "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
             "GROUP_SIZE_M": "constexpr", "NUM_SMS": "constexpr"}


def persistent_ptx(cc):
    constexprs = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": 128, "BN": 128,
                  "BK": 64, "GROUP_SIZE_M": 8, "NUM_SMS": 132}
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 6, 8, 10)}
    k = triton.compile(ASTSource(persistent_matmul, SIGNATURE, constexprs=constexprs,
                                 attrs=attrs),
                       target=GPUTarget("cuda", cc, 32),
                       options={"num_warps": 8, "num_stages": 3})
    return k.asm["ptx"]


def test_flattened_loop_keeps_wgmma_in_flight_across_tiles():
    ptx = persistent_ptx(90)
    # One wait leaving a group in flight (the k step), and full waits in
    # the epilogue, after the loop and on the path that skips it (before
    # that path writes the accumulator's zeros).
    assert ptx.count("wgmma.wait_group.sync.aligned 1;") == 1
    assert ptx.count("wgmma.wait_group.sync.aligned 0;") == 3
    # The first k step's accumulate predicate is a register (0 in a tile's
    # first iteration), the others the constant 1.
    preds = re.findall(r"setp\.ne\.b32 p, (%r\d+|\d+), 0;", ptx)
    assert preds and any(p.startswith("%r") for p in preds)
    # Copies into three slots, one commit per iteration of the one loop.
    assert ptx.count("cp.async.wait_group 1;") == 1


def test_flattened_loop_on_sm80():
    ptx = persistent_ptx(80)
    assert "mma.sync.aligned.m16n8k16" in ptx
    assert "wgmma" not in ptx


def test_carried_offsets_keep_the_epilogue_vectorized():
    # The offsets a tile's first iteration computes are carried in slots
    # that start with a placeholder; the axis analysis gives it the identity
    # of its join, so the store still knows its rows contiguous and aligned:
    # 16-byte stores of the block after the conversion, not one 2-byte
    # store per element.
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
           "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "NUM_SMS": "constexpr"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(9)}
    k = triton.compile(ASTSource(persistent_matmul_shared_offsets, sig,
                                 constexprs={"BM": 128, "BN": 256, "BK": 64, "NUM_SMS": 132},
                                 attrs=attrs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 8, "num_stages": 3})
    ptx = k.asm["ptx"]
    stores = re.findall(r"st\.global(?:\.[a-z0-9]+)*", ptx)
    assert stores and all(".v4" in s for s in stores), sorted(set(stores))
    assert ptx.count("cp.async.cg.shared.global") >= 12


needs_gpu = pytest.mark.skipif(torch is None or not torch.cuda.is_available(),
                               reason="needs a CUDA GPU and torch")


@needs_gpu
@pytest.mark.parametrize("M, N, K", [(512, 384, 1024), (300, 200, 136), (256, 256, 0),
                                     (130, 520, 64)])
@pytest.mark.parametrize("BM, BN, BK, warps, stages", [(128, 128, 64, 8, 3),
                                                       (128, 256, 64, 8, 3),
                                                       (64, 64, 32, 4, 4)])
def test_persistent_matmul_on_the_gpu(M, N, K, BM, BN, BK, warps, stages):
    torch.manual_seed(0)
    a = torch.randn((M, K), dtype=torch.float16, device="cuda")
    b = torch.randn((K, N), dtype=torch.float16, device="cuda")
    c = torch.full((M, N), float("nan"), dtype=torch.float16, device="cuda")
    sms = 5  # fewer programs than tiles: each runs several
    persistent_matmul[(sms,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                              b.stride(1), c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK,
                              GROUP_SIZE_M=8, NUM_SMS=sms, num_warps=warps,
                              num_stages=stages)
    ref = (a.double() @ b.double()).cpu().numpy()
    np.testing.assert_allclose(c.double().cpu().numpy(), ref, rtol=1e-2, atol=5e-2)


@triton.jit
def _counted(ub, out_ptr):
    k = 1
    for i in tl.range(0, ub, flatten=True):
        for j in tl.range(0, ub):
            tl.store(out_ptr + i * 32 + j, k)
            k += 1


@needs_gpu
@pytest.mark.parametrize("ub", [0, 1, 10])
def test_counter_through_both_loops_on_the_gpu(ub):
    out = torch.zeros(32 * 32, dtype=torch.int32, device="cuda")
    _counted[(1,)](ub, out)
    ref = np.zeros(32 * 32, np.int32)
    k = 1
    for i in range(ub):
        for j in range(ub):
            ref[i * 32 + j] = k
            k += 1
    np.testing.assert_array_equal(out.cpu().numpy(), ref)


def test_epilogue_conversion_moves_in_parts():
    # The 128x256 fp16 tile's move from the wgmma accumulator to the
    # store layout goes through 32 KB of shared memory twice (its rows 8
    # apart are the same registers before and after; each row padded by 16
    # bytes against bank conflicts), not 64 KB once: four 48 KB pipeline
    # slots still fit beside it.
    constexprs = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": 128, "BN": 256,
                  "BK": 64, "GROUP_SIZE_M": 8, "NUM_SMS": 132}
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 6, 8, 10)}
    for stages in (3, 4):
        k = triton.compile(ASTSource(persistent_matmul, SIGNATURE, constexprs=constexprs,
                                     attrs=attrs),
                           target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": 8, "num_stages": stages})
        assert k.metadata.shared == stages * 48 * 1024 + 64 * (256 + 8) * 2


@needs_gpu
@pytest.mark.parametrize("M, N, K", [(512, 768, 320), (300, 520, 136)])
def test_persistent_matmul_with_carried_offsets_on_the_gpu(M, N, K):
    torch.manual_seed(1)
    a = torch.randn((M, K), dtype=torch.float16, device="cuda")
    b = torch.randn((K, N), dtype=torch.float16, device="cuda")
    c = torch.full((M, N), float("nan"), dtype=torch.float16, device="cuda")
    sms = 3
    persistent_matmul_shared_offsets[(sms,)](a, b, c, M, N, K, a.stride(0), b.stride(0),
                                             c.stride(0), BM=128, BN=256, BK=64, NUM_SMS=sms,
                                             num_warps=8, num_stages=3)
    ref = (a.double() @ b.double()).cpu().numpy()
    np.testing.assert_allclose(c.double().cpu().numpy(), ref, rtol=1e-2, atol=5e-2)

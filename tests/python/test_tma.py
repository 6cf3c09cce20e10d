"""Tensor-descriptor loads feeding products are copied by TMA on sm_90: the
kernel makes each descriptor's tensor map in global scratch memory, one
thread issues the copies into swizzled slots, mbarriers say when a slot has
landed. Cross-compiled (no GPU needed): which instructions appear. With a
CUDA GPU of compute capability 9.0: products over descriptors (made in the
kernel and passed from the host; shapes that are not multiples of the
block, so TMA fills the outside with zeros; several stages, warps and
block shapes; fp16, bf16 and fp8) and attention match torch."""

import os
import re
import sys

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Inputs", "codegen"))
from attention_desc import attn  # noqa: E402

torch = None
try:
    import torch
except ImportError:
    pass

needs_hopper = pytest.mark.skipif(
    torch is None or not torch.cuda.is_available()
    or torch.cuda.get_device_capability()[0] != 9,
    reason="needs a CUDA GPU of compute capability 9.0 and torch")


@triton.jit
def desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, B_KMAJOR: tl.constexpr):
    """c = a @ b, a [M, K]; b [K, N], or [N, K] when B_KMAJOR."""
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    if B_KMAJOR:
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * BK])
        if B_KMAJOR:
            b = b_desc.load([pid_n * BN, k * BK]).T
        else:
            b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)


@triton.jit
def host_desc_matmul(a_desc, b_desc, c_ptr, M, N, K,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([k * BK, pid_n * BN]), acc)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)


def ptx_of(BM, BN, BK, warps, stages, kmajor=False):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
           "B_KMAJOR": "constexpr"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(6)}
    k = triton.compile(
        ASTSource(desc_matmul, sig, constexprs={"BM": BM, "BN": BN, "BK": BK, "B_KMAJOR": kmajor},
                  attrs=attrs),
        target=GPUTarget("cuda", 90, 32), options={"num_warps": warps, "num_stages": stages})
    return k.asm["ptx"]


@pytest.mark.parametrize("BM,BN,BK,warps", [(128, 256, 64, 8), (64, 64, 32, 4), (128, 128, 128, 4)])
def test_descriptor_products_copy_by_tma(BM, BN, BK, warps):
    ptx = ptx_of(BM, BN, BK, warps, 3)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile" in ptx
    assert "mbarrier.try_wait.parity.shared::cta.b64" in ptx
    assert "tensormap.replace.tile.global_address" in ptx
    assert "cp.async.cg" not in ptx  # nothing left to per-thread copies
    # The box is one column block of the swizzled slot: A's rows of BK
    # fp16 values in blocks of 128 bytes (the whole row when narrower), by
    # BM rows.
    boxes = re.findall(r"box_dim\.shared::cta\.b1024\.b32 \[%rd\d+\], (\d), (\d+);", ptx)
    assert ("0", str(min(BK, 64))) in boxes and ("1", str(BM)) in boxes


def test_sm80_keeps_per_thread_copies():
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
           "B_KMAJOR": "constexpr"}
    k = triton.compile(
        ASTSource(desc_matmul, sig, constexprs={"BM": 64, "BN": 64, "BK": 32, "B_KMAJOR": False},
                  attrs={(i,): [["tt.divisibility", 16]] for i in range(6)}),
        target=GPUTarget("cuda", 80, 32), options={"num_warps": 4, "num_stages": 3})
    assert "cp.async.bulk" not in k.asm["ptx"] and "cp.async.cg" in k.asm["ptx"]


def _operands(M, N, K, dtype, kmajor, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(M, K, generator=g)
    b = torch.randn(N, K, generator=g) if kmajor else torch.randn(K, N, generator=g)
    return a.to(dtype).cuda(), b.to(dtype).cuda()


def _alloc(size, align, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


@needs_hopper
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float8_e4m3fn", "float32"])
@pytest.mark.parametrize("BM,BN,BK,warps,stages,kmajor", [
    (128, 256, 64, 8, 3, False), (64, 64, 32, 4, 2, False), (128, 128, 128, 4, 4, True),
    (64, 128, 64, 4, 3, True), (128, 64, 64, 8, 2, False)])
def test_descriptor_products_match_torch(dtype, BM, BN, BK, warps, stages, kmajor):
    if dtype == "float8_e4m3fn" and not kmajor:
        pytest.skip("fp8 products take B K-major (as Triton's tutorials store it)")
    triton.set_allocator(_alloc)
    # Shapes off the block grid: TMA fills what lies outside with zeros.
    M, N, K = 3 * BM - 24, 2 * BN + 8, 5 * BK + 16
    dt = getattr(torch, dtype)
    a, b = _operands(M, N, K, dt, kmajor)
    c = torch.empty(M, N, dtype=torch.float32, device="cuda")
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    desc_matmul[grid](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, B_KMAJOR=kmajor,
                      num_warps=warps, num_stages=stages)
    ref = a.float() @ (b.float().T if kmajor else b.float())
    tol = 0.1 if dtype.startswith("float8") else 2e-2
    torch.testing.assert_close(c, ref, atol=tol * K ** 0.5, rtol=tol)


@needs_hopper
@pytest.mark.parametrize("M,N,K", [(256, 256, 256), (200, 136, 72)])
def test_host_descriptor_products_match_torch(M, N, K):
    from triton.tools.tensor_descriptor import TensorDescriptor
    BM, BN, BK = 128, 128, 64
    a, b = _operands(M, N, K, torch.float16, False, seed=2)
    c = torch.empty(M, N, dtype=torch.float32, device="cuda")
    ad = TensorDescriptor.from_tensor(a, [BM, BK])
    bd = TensorDescriptor.from_tensor(b, [BK, BN])
    host_desc_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](ad, bd, c, M, N, K, BM=BM,
                                                               BN=BN, BK=BK, num_warps=8,
                                                               num_stages=3)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2 * K ** 0.5, rtol=2e-2)


@needs_hopper
@pytest.mark.parametrize("D,BM,BN,warps,stages", [(64, 64, 64, 4, 3), (128, 128, 64, 4, 2),
                                                  (128, 64, 32, 4, 3), (64, 128, 128, 8, 2)])
@pytest.mark.parametrize("k_t", [True, False])
def test_attention_over_descriptors_matches_torch(D, BM, BN, warps, stages, k_t):
    triton.set_allocator(_alloc)
    H, N_CTX = 3, 512
    g = torch.Generator().manual_seed(7)
    q, k, v = (torch.randn(4, H, N_CTX, D, generator=g).half().cuda() for _ in range(3))
    o = torch.empty_like(q)
    kk = k.transpose(2, 3).contiguous() if k_t else k
    sm_scale = 0.5
    attn[(N_CTX // BM, 4 * H)](q, kk, v, o, H, N_CTX, sm_scale * 1.44269504, D=D, BM=BM, BN=BN,
                               K_T=k_t, num_warps=warps, num_stages=stages)
    ref = torch.softmax((q.float() @ k.float().transpose(2, 3)) * sm_scale, -1) @ v.float()
    torch.testing.assert_close(o.float(), ref, atol=2e-2, rtol=2e-2)


@needs_hopper
@pytest.mark.parametrize("M,N,K,programs,stages", [(1024, 1024, 512, 2, 4), (520, 776, 200, 3, 3)])
def test_persistent_pointer_copies_descriptor_stores_match_torch(M, N, K, programs, stages):
    # Pointer tiles (cp.async) into a flattened tile loop whose epilogue
    # stores through a descriptor (TMA): each program writes its staging
    # area again for every tile while the previous tile's store may still
    # read it, so a missing wait shows as wrong tiles.
    from block_matmul import mm_persistent_desc_store
    triton.set_allocator(_alloc)
    a, b = _operands(M, N, K, torch.float16, False, seed=3)
    c = torch.full((M, N), 7.0, dtype=torch.float16, device="cuda")
    mm_persistent_desc_store[(programs,)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                          BM=128, BN=256, BK=64, NUM_SMS=programs,
                                          num_warps=8, num_stages=stages)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=2e-2 * K ** 0.5, rtol=2e-2)


@needs_hopper
@pytest.mark.parametrize("K", [0, 40, 512])
def test_product_loops_that_may_not_run_match_torch(K):
    # The k loop of these products is skipped when K is 0: that path waits
    # for all wgmma groups before it writes the accumulator's zeros, and
    # joins the loop's path at its full wait (a descriptor made at the
    # kernel's start with pointer copies; descriptor loads).
    from block_matmul import mm_early_desc_store
    triton.set_allocator(_alloc)
    M, N = 272, 520
    a, b = _operands(M, N, max(K, 64), torch.float16, False, seed=5)
    ref = a[:, :K].float() @ b[:K].float()
    tol = dict(atol=2e-2 * max(K, 1) ** 0.5, rtol=2e-2)
    c = torch.full((M, N), 7.0, dtype=torch.float16, device="cuda")
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 256),)
    mm_early_desc_store[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                              BM=128, BN=256, BK=64, GROUP_M=8, num_warps=8, num_stages=3)
    torch.testing.assert_close(c.float(), ref, **tol)
    if K:  # (a descriptor's shape has no empty dimension)
        a, b = a[:, :K].contiguous(), b[:K].contiguous()
        c2 = torch.full((M, N), 7.0, dtype=torch.float32, device="cuda")
        desc_matmul[(triton.cdiv(M, 128), triton.cdiv(N, 128))](
            a, b, c2, M, N, K, BM=128, BN=128, BK=64, B_KMAJOR=False, num_warps=4, num_stages=3)
        torch.testing.assert_close(c2, ref, **tol)

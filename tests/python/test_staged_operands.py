"""Operands a product cannot read where they lie (computed in registers, or
loaded outside pipelined loops) are written into shared memory by a
tgpu.local_alloc before the product: swizzled for wgmma (with the async
proxy fence) and for mma.sync (read with ldmatrix). Cross-compiled for
cuda:80 and cuda:90 without a GPU; with one, the products run and match a
reference, in and out of loops, with 1 to 8 warps."""

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

needs_gpu = pytest.mark.skipif(torch is None or not torch.cuda.is_available(),
                               reason="needs a CUDA GPU and torch")


@triton.jit
def scaled_loop(a_ptr, b_ptr, c_ptr, KT, M: tl.constexpr, N: tl.constexpr,
                BK: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k in range(0, KT, BK):
        a = tl.load(a_ptr + rm[:, None] * KT + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot((a * 0.5).to(tl.float16), tl.abs(b), acc)
        acc = acc * 0.75
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def chained(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr,
            D: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * D + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
    s = tl.dot(q, tl.trans(k))
    p = tl.exp(s - tl.max(s, 1)[:, None]).to(tl.float16)
    o = tl.dot(p, v)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)


def compiled(fn, cc, warps):
    if fn is scaled_loop:
        sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "KT": "i32",
               "M": "constexpr", "N": "constexpr", "BK": "constexpr"}
        cons = {"M": 64, "N": 64, "BK": 32}
    else:
        sig = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32",
               "M": "constexpr", "N": "constexpr", "D": "constexpr"}
        cons = {"M": 64, "N": 64, "D": 64}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(4) if "ptr" in list(sig)[i]}
    return triton.compile(ASTSource(fn, sig, constexprs=cons, attrs=attrs),
                          target=GPUTarget("cuda", cc, 32),
                          options={"num_warps": warps, "num_stages": 3})


def test_computed_operands_staged_for_wgmma():
    k = compiled(scaled_loop, 90, 4)
    ir = k.asm["ttgir"]
    # Both operands of the loop's product, A then B on a 1024-byte boundary.
    assert ir.count("tgpu.local_alloc") == 2
    assert "{offset = 0 : i64}" in ir and "{offset = 4096 : i64}" in ir
    ptx = k.asm["ptx"]
    assert "wgmma.mma_async" in ptx
    # One fence for the two tiles, before the group.
    assert ptx.count("fence.proxy.async.shared::cta") == 1
    assert ptx.index("fence.proxy.async") < ptx.index("wgmma.fence")


def test_computed_operands_staged_for_mma_sync():
    k = compiled(scaled_loop, 80, 4)
    assert k.asm["ttgir"].count("tgpu.local_alloc") == 2
    ptx = k.asm["ptx"]
    assert "ldmatrix" in ptx and "mma.sync" in ptx
    assert "fence.proxy.async" not in ptx


@pytest.mark.parametrize("cc", [80, 90])
def test_chained_product_keeps_p_in_registers(cc):
    ir = compiled(chained, cc, 4).asm["ttgir"]
    # Q, K^T and V are staged (loaded outside any loop); P stays in the
    # registers the first product left it in.
    assert ir.count("tgpu.local_alloc") == 3
    second = [line for line in ir.splitlines()
              if "tgpu.wgmma " in line or "tile.dot " in line][1]
    a_type = second.split(" : ")[1].split(",")[0]
    assert "#shared" not in a_type, second


@needs_gpu
@pytest.mark.parametrize("warps", [1, 2, 4, 8])
def test_staged_products_on_the_gpu(warps):
    rs = np.random.RandomState(5)
    M = N = D = 64
    KT, BK = 256, 32
    a = (rs.randn(M, KT)).astype(np.float16)
    b = (rs.randn(KT, N)).astype(np.float16)
    c = torch.empty((M, N), dtype=torch.float32, device="cuda")
    scaled_loop[(1,)](torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), c, KT, M=M, N=N,
                      BK=BK, num_warps=warps, num_stages=3)
    ref = np.zeros((M, N))
    for k in range(0, KT, BK):
        ah = (a[:, k:k + BK].astype(np.float32) * 0.5).astype(np.float16).astype(np.float64)
        ref = (ref + ah @ np.abs(b[k:k + BK].astype(np.float64))) * 0.75
    np.testing.assert_allclose(c.cpu().numpy(), ref, rtol=1e-2, atol=1e-2)

    q, kk, v = (rs.randn(M, D).astype(np.float16) for _ in range(3))
    o = torch.empty((M, D), dtype=torch.float32, device="cuda")
    chained[(1,)](*(torch.from_numpy(x).cuda() for x in (q, kk, v)), o, M=M, N=N, D=D,
                  num_warps=warps)
    s = q.astype(np.float64) @ kk.astype(np.float64).T
    p = np.exp(s - s.max(1, keepdims=True)).astype(np.float16).astype(np.float64)
    np.testing.assert_allclose(o.cpu().numpy(), p @ v.astype(np.float64), rtol=2e-2, atol=2e-2)

"""Warp-specialized loops on the GPU (sm_90): tl.range(..., warp_specialize=True)
over TMA-copied operands, split into consumer warps and a producer warpgroup,
for a plain k loop and for a persistent tile loop (flattened first), and for
attention; checked against torch at sizes with partial tiles, several stage
counts and warp counts (4 warps are split, 8 are not). Skipped without a CUDA GPU of compute capability 9.0."""

import importlib.util
import os

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] != 9:
    pytest.skip("no sm_90 GPU: warp specialization runs on the GPU machine",
                allow_module_level=True)

import triton  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "warp_specialize", os.path.join(_HERE, "..", "codegen", "warp-specialize.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)


def _alloc(size, align, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


@pytest.mark.parametrize("persistent", [False, True])
# (Descriptor strides are whole 16 bytes, as Triton requires: N = 264, K = 200.)
@pytest.mark.parametrize("M,N,K", [(128, 128, 64), (300, 264, 200), (1024, 768, 1024)])
@pytest.mark.parametrize("num_warps,num_stages", [(4, 3), (8, 3), (8, 4), (4, 2)])
def test_warp_specialized_matmul(persistent, M, N, K, num_warps, num_stages):
    triton.set_allocator(_alloc)
    torch.manual_seed(0)
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    BM, BN, BK = 128, 128, 64
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    if persistent:
        sms = 7  # fewer programs than tiles: each program loops over several
        k = _mod.mm_ws_persistent[(min(sms, tiles),)](
            a, b, c, M, N, K, BM, BN, BK, sms, num_warps=num_warps, num_stages=num_stages)
    else:
        k = _mod.mm_ws[(tiles,)](a, b, c, M, N, K, BM, BN, BK,
                                 num_warps=num_warps, num_stages=num_stages)
    torch.testing.assert_close(c, (a.float() @ b.float().T).half(), atol=0.05, rtol=0.02)
    ptx = k.asm["ptx"]
    if num_warps == 4:
        # Two consumer warpgroups share the 128-row tiles; a producer
        # warpgroup joins them.
        assert "setmaxnreg.inc" in ptx and "mbarrier.arrive.shared" in ptx
        assert k.metadata.num_warps == 12
    else:  # as Triton: other warp counts are not split
        assert "setmaxnreg" not in ptx and k.metadata.num_warps == num_warps


_bspec = importlib.util.spec_from_file_location(
    "bench_kernels", os.path.join(_HERE, "..", "..", "bench", "bench_kernels.py"))
_bench = importlib.util.module_from_spec(_bspec)
_bspec.loader.exec_module(_bench)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim,block_n,num_warps", [(64, 64, 4), (128, 128, 8), (128, 64, 4)])
@pytest.mark.parametrize("k_transposed", [False, True])
@pytest.mark.parametrize("num_stages", [3, 2])
def test_warp_specialized_attention(causal, head_dim, block_n, num_warps, k_transposed,
                                    num_stages):
    """The attention loop (K and V copied by TMA) split into producer and
    consumers, against the same kernel unsplit and a float32 reference."""
    triton.set_allocator(_alloc)
    torch.manual_seed(0)
    Z, H, N, BM = 1, 2, 512, 128
    q, k, v = (torch.randn((Z, H, N, head_dim), device="cuda", dtype=torch.float16)
               for _ in range(3))
    kk = k.transpose(2, 3).contiguous() if k_transposed else k
    scale = 0.5
    outs = []
    for ws in (True, False):
        o = torch.full_like(q, float("nan"))
        m = torch.empty((Z * H * N,), device="cuda", dtype=torch.float32)
        kern = _bench.attn_fwd[(N // BM, Z * H)](
            scale, m, Z, H, q, kk, v, o, N, head_dim, BM, block_n, 3 if causal else 1,
            k_transposed, ws, num_warps=num_warps, num_stages=num_stages)
        outs.append(o)
        if ws:
            # Split where the program has 4 warps (8 consumer warps and a
            # producer warpgroup), as Triton does; not at 8.
            assert ("setmaxnreg.inc" in kern.asm["ptx"]) == (num_warps == 4)
    s = (q.float() @ k.float().transpose(2, 3)) * scale
    if causal:
        s = s.masked_fill(torch.ones(N, N, device="cuda").tril() == 0, float("-inf"))
    ref = torch.softmax(s, dim=-1) @ v.float()
    torch.testing.assert_close(outs[0].float(), ref, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(outs[0], outs[1], atol=2e-3, rtol=0)

"""08-grouped-gemm on the GPU: per-group pointers loaded from device memory,
16-byte alignment stated by `tl.multiple_of` statements on the loop-carried
pointers (results dropped), a persistent tile loop over the groups. Checked
against torch (skipped without a CUDA GPU and torch)."""

import importlib.util
import os

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU: the grouped GEMM runs on the GPU machine",
                allow_module_level=True)

import triton  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "grouped_gemm", os.path.join(_HERE, "..", "codegen", "grouped-gemm.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
kernel = _mod.grouped_matmul_kernel


def test_grouped_gemm_matches_torch():
    sizes = [(256, 256, 128), (512, 384, 256), (128, 640, 64), (384, 128, 512)]
    a_s, b_s, c_s = [], [], []
    for m, n, k in sizes:
        a_s.append(torch.randn((m, k), device="cuda", dtype=torch.float16))
        b_s.append(torch.randn((k, n), device="cuda", dtype=torch.float16))
        c_s.append(torch.empty((m, n), device="cuda", dtype=torch.float16))
    dev = lambda xs, dt: torch.tensor(xs, device="cuda", dtype=dt)  # noqa: E731
    a_ptrs = dev([a.data_ptr() for a in a_s], torch.uint64)
    b_ptrs = dev([b.data_ptr() for b in b_s], torch.uint64)
    c_ptrs = dev([c.data_ptr() for c in c_s], torch.uint64)
    gemm_sizes = dev([x for s in sizes for x in s], torch.int32)
    lds = dev([x for a, b, c in zip(a_s, b_s, c_s)
               for x in (a.stride(0), b.stride(0), c.stride(0))], torch.int32)
    num_sm = torch.cuda.get_device_properties(0).multi_processor_count
    kernel[(num_sm,)](a_ptrs, b_ptrs, c_ptrs, gemm_sizes, lds, len(sizes),
                      NUM_SM=num_sm, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                      BLOCK_SIZE_K=32, num_warps=4, num_stages=3)
    for a, b, c in zip(a_s, b_s, c_s):
        torch.testing.assert_close(c, (a.float() @ b.float()).half(),
                                   atol=1e-1, rtol=1e-2)

"""Kernels that read their pointers from memory (integers cast with
tl.pointer_type, 08-grouped-gemm's tables of per-problem pointers) on the
interpreter: the launch hands it every live CPU torch tensor as memory the
kernel may reach, so 08's kernel runs on CPU tensors as it does on the GPU,
and a pointer into no tensor is an error naming the line and the address.
(Skipped without torch.)"""

import importlib.util
import os

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "grouped_gemm_kernel", os.path.join(_HERE, "..", "codegen",
                                        "grouped-gemm.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
grouped = _mod.grouped_matmul_kernel


@triton.jit
def scaled_rows(ptrs, out, n, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    src = tl.load(ptrs + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs, mask=offs < n)
    tl.store(out + g * BLOCK + offs, x * 2.0, mask=offs < n)


def _table(tensors):
    return torch.tensor([t.data_ptr() for t in tensors], dtype=torch.int64)


def test_grouped_gemm_on_the_interpreter():
    torch.manual_seed(0)
    sizes = [(64, 32, 32), (32, 64, 64), (96, 32, 32)]
    a_s = [torch.randn((m, k), dtype=torch.float16) for m, _, k in sizes]
    b_s = [torch.randn((k, n), dtype=torch.float16) for _, n, k in sizes]
    c_s = [torch.zeros((m, n), dtype=torch.float16) for m, n, _ in sizes]
    gemm_sizes = torch.tensor([x for s in sizes for x in s], dtype=torch.int32)
    lds = torch.tensor([x for a, b, c in zip(a_s, b_s, c_s)
                        for x in (a.stride(0), b.stride(0), c.stride(0))],
                       dtype=torch.int32)
    grouped[(4,)](_table(a_s), _table(b_s), _table(c_s), gemm_sizes, lds,
                  len(sizes), NUM_SM=4, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32,
                  BLOCK_SIZE_K=32)
    for a, b, c in zip(a_s, b_s, c_s):
        torch.testing.assert_close(c, (a.float() @ b.float()).half(),
                                   atol=1e-1, rtol=1e-2)


def test_a_view_reaches_its_whole_storage():
    base = torch.arange(64, dtype=torch.float32)
    rows = [base[8:16], base[40:48]]  # views: the storage is what is reached
    out = torch.empty(16, dtype=torch.float32)
    scaled_rows[(2,)](_table(rows), out, 8, BLOCK=8)
    torch.testing.assert_close(out, torch.cat(rows) * 2)


def test_a_pointer_into_no_tensor_names_the_line():
    good = torch.ones(8, dtype=torch.float32)
    out = torch.empty(16, dtype=torch.float32)
    table = torch.tensor([good.data_ptr(), 64], dtype=torch.int64)
    with pytest.raises(Exception) as info:
        scaled_rows[(2,)](table, out, 8, BLOCK=8)
    text = str(info.value)
    assert "test_pointer_tables.py:32" in text, text
    assert "0x40" in text, text


def test_past_the_end_of_a_reached_tensor_names_it():
    short = torch.ones(4, dtype=torch.float32)
    out = torch.empty(8, dtype=torch.float32)
    with pytest.raises(Exception) as info:
        scaled_rows[(1,)](_table([short]), out, 8, BLOCK=8)
    text = str(info.value)
    assert "float32 tensor of shape [4] (not an argument)" in text, text

"""The Python host API on numpy arrays: examples against numpy references,
grids, constexprs, heuristics, specialization, and every launch error."""

import importlib.util
import os
import textwrap

import numpy as np
import pytest

import triton
import triton.language as tl
import tritium

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements,
               BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride,
                   output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step,
                            num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


@triton.jit
def oob_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x + n)


@triton.jit
def assert_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "x must be positive")


@triton.jit(do_not_specialize=["n"])
def scale_kernel(x_ptr, n, factor, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor,
             mask=mask)


@triton.heuristics({"BLOCK_SIZE": lambda args: triton.next_power_of_2(
    args["n_elements"])})
@triton.jit
def add_heuristic_kernel(x_ptr, y_ptr, output_ptr, n_elements,
                         BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- examples ---------------------------------------------------------------

def test_vector_add_grid_lambda():
    n = 98432 + 7
    x, y = rand(n, seed=1), rand(n, seed=2)
    out = np.full(n, -1.0, dtype=np.float32)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    np.testing.assert_allclose(out, x + y, rtol=1e-6, atol=0)


def test_vector_add_grid_tuple_and_positional_constexpr():
    n = 1000
    x, y = rand(n, seed=3), rand(n, seed=4)
    out = np.zeros_like(x)
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, 256)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_vector_add_other_dtypes():
    n = 300
    for dtype in (np.int32, np.int64, np.float64, np.float16):
        x = (np.arange(n) % 50).astype(dtype)
        y = (np.arange(n) % 7).astype(dtype)
        out = np.zeros_like(x)
        add_kernel[(3,)](x, y, out, n, BLOCK_SIZE=128)
        np.testing.assert_array_equal(out, x + y)


def test_softmax():
    x = rand(183, 781, seed=5)
    y = np.empty_like(x)
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    softmax_kernel[(16, 1, 1)](
        y, x, x.strides[0] // x.itemsize, y.strides[0] // y.itemsize,
        n_rows, n_cols, BLOCK_SIZE=block, num_stages=2, num_warps=8)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)


def test_strided_view_extent():
    # A column slice: the buffer spans from the first to the last element.
    base = rand(64, 128, seed=6)
    view = base[:, 64:]
    out = np.empty((64, 64), dtype=np.float32)
    softmax_kernel[(8,)](out, view, 128, 64, 64, 64, BLOCK_SIZE=64,
                         num_stages=1)
    e = np.exp(view - view.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True),
                               rtol=1e-5, atol=1e-6)


# -- caching and specialization ---------------------------------------------

def test_caches_per_constexpr_and_specialization():
    k = triton.jit(add_kernel.fn)
    x, y = rand(64), rand(64)
    out = np.zeros_like(x)
    for _ in range(3):
        k[(1,)](x, y, out, 64, BLOCK_SIZE=64)
    k[(2,)](x, y, out, 64, BLOCK_SIZE=32)
    assert len(k._kernels) == 2
    assert sum(c.num_compiles for c in k._kernels.values()) == 2
    k[(1,)](x, y, out, 63, BLOCK_SIZE=64)  # 63 % 16 != 0: a new signature
    assert sum(c.num_compiles for c in k._kernels.values()) == 3


def test_warmup_signature_and_do_not_specialize():
    x, y = rand(64), rand(64)
    out = np.zeros_like(x)
    k = add_kernel.warmup(x, y, out, 64, BLOCK_SIZE=64, grid=(1,))
    assert k.metadata.signature == "*fp32:16,*fp32:16,*fp32:16,i32:16,64"
    assert scale_kernel.warmup(x, 64, 2.0).metadata.signature == \
        "*fp32:16,i32,fp32,64"
    # The compiled specialization, as Triton's CompiledKernel.
    assert k.metadata.num_warps == 4 and k.metadata.name == "add_kernel"
    assert "tile.load" in k.asm["ttir"]
    with pytest.raises(KeyError, match="no stage 'ptx'"):
        k.asm["ptx"]
    h = add_kernel[(1,)](x, y, out, 64, BLOCK_SIZE=64, num_warps=2)
    assert h.metadata.num_warps == 2 and "tile.store" in h.asm["ttir"]
    z = np.ones(1, dtype=np.float32)
    scale_kernel[(1,)](z, 1, 3.0)  # n == 1 is passed, not folded
    assert z[0] == 3.0


def test_metadata_from_c_api():
    x, y = rand(16), rand(16)
    out = np.zeros_like(x)
    add_kernel[(1,)](x, y, out, 16, BLOCK_SIZE=16)
    kernel = next(iter(add_kernel._kernels.values()))
    assert kernel.params == [("x_ptr", False), ("y_ptr", False),
                             ("output_ptr", False), ("n_elements", False),
                             ("BLOCK_SIZE", True)]


def test_heuristics():
    n = 200
    x, y = rand(n, seed=7), rand(n, seed=8)
    out = np.zeros_like(x)
    add_heuristic_kernel[(1,)](x, y, out, n)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_constexpr_values_and_helpers():
    c = tl.constexpr(8)
    assert c == 8 and c + 1 == 9 and triton.cdiv(17, c) == 3
    assert triton.next_power_of_2(781) == 1024
    assert triton.next_power_of_2(1) == 1
    # Triton's spellings: str() is the type's name, repr() the tl attribute.
    assert str(tl.float16) == "fp16" and repr(tl.float16) == \
        "triton.language.float16"
    with pytest.raises(RuntimeError, match="inside a @triton.jit kernel"):
        tl.load(None)
    from triton.language.extra import libdevice
    assert libdevice.tanh is not None


# -- errors -----------------------------------------------------------------

def test_compile_error_is_located(tmp_path):
    path = tmp_path / "bad_kernel.py"
    path.write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl


        @triton.jit
        def bad(x_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            y = tl.load(x_ptr + offs) + undefined_name
            tl.store(x_ptr + offs, y)
        """))
    module = load_module(str(path), "bad_kernel")
    x = np.zeros(16, dtype=np.float32)
    with pytest.raises(triton.CompilationError) as info:
        module.bad[(1,)](x, BLOCK=16)
    message = str(info.value)
    assert "%s:8:" % path in message
    assert "undefined_name" in message and "^" in message


def test_wrong_argument_kinds_name_the_argument():
    x = rand(16)
    out = np.zeros_like(x)
    with pytest.raises(TypeError, match="y_ptr"):
        add_kernel[(1,)](x, [1.0] * 16, out, 16, BLOCK_SIZE=16)
    # A number where the kernel loads through a pointer compiles to an
    # error (as in Triton), led by the argument.
    with pytest.raises(triton.CompilationError,
                       match="argument 'y_ptr' expects a pointer"):
        add_kernel[(1,)](x, 2.5, out, 16, BLOCK_SIZE=16)
    with pytest.raises(TypeError, match="y_ptr"):
        add_kernel[(1,)](x, np.zeros(16, dtype=np.complex64), out, 16,
                         BLOCK_SIZE=16)
    with pytest.raises(TypeError, match="n_elements"):
        add_kernel[(1,)](x, x, out, BLOCK_SIZE=16)


def test_unknown_keyword():
    x = rand(16)
    with pytest.raises(KeyError, match="BLOCK"):
        add_kernel[(1,)](x, x, x, 16, BLOCK=16)
    with pytest.raises(TypeError, match="BLOCK"):
        add_kernel[(1,)](x, x, x, 16, BLOCK=16)


@pytest.mark.parametrize("grid", [(), (1, 1, 1, 1), (-1,), (1.5,), ("a",)])
def test_bad_grid(grid):
    x = rand(16)
    with pytest.raises(ValueError, match="grid"):
        add_kernel[grid](x, x, x, 16, BLOCK_SIZE=16)


def test_out_of_bounds_raises_interpreter_error():
    x = np.zeros(8, dtype=np.float32)
    with pytest.raises(tritium.InterpreterError) as info:
        oob_kernel[(1,)](x, 3, BLOCK=16)
    assert isinstance(info.value, RuntimeError)
    assert "x_ptr" in str(info.value) or "out of bounds" in str(info.value)


def test_debug_keeps_device_assert():
    x = np.zeros(16, dtype=np.float32)
    assert_kernel[(1,)](x, BLOCK=16)  # dropped without debug, as in Triton
    with pytest.raises(tritium.InterpreterError, match="x must be positive"):
        assert_kernel[(1,)](x, BLOCK=16, debug=True)
    checked = triton.jit(debug=True)(assert_kernel.fn)
    with pytest.raises(tritium.InterpreterError):
        checked[(1,)](x, BLOCK=16)


def test_do_not_specialize_on_alignment_is_refused():
    with pytest.raises(NotImplementedError):
        triton.jit(do_not_specialize_on_alignment=["n"])(scale_kernel.fn)


def test_calling_a_kernel_directly_fails():
    with pytest.raises(RuntimeError, match=r"add_kernel\[grid\]"):
        add_kernel(1, 2)


# -- torch ------------------------------------------------------------------

def test_torch_tensors():
    torch = pytest.importorskip(
        "torch", reason="torch is not installed: torch tests skipped")
    n = 500
    x, y = torch.rand(n), torch.rand(n)
    out = torch.empty_like(x)
    add_kernel[lambda m: (triton.cdiv(n, m["BLOCK_SIZE"]),)](
        x, y, out, n, BLOCK_SIZE=128)
    assert torch.allclose(out, x + y)


def test_torch_example_main():
    pytest.importorskip("torch", reason="torch is not installed: torch "
                        "tests skipped")
    module = load_module(os.path.join(ROOT, "examples", "vector_add.py"),
                         "example_vector_add")
    assert isinstance(module.add_kernel, triton.JITFunction)


class FakeTensor:
    """Duck-typed like a CPU torch tensor (data_ptr, dtype, element_size,
    numel, shape, stride, device) over a numpy array."""

    class _Device:
        def __init__(self, type_):
            self.type = type_

    def __init__(self, array, dtype_name, device="cpu"):
        self.array = array
        self.dtype = "torch." + dtype_name
        self.shape = array.shape
        self.device = self._Device(device)

    def data_ptr(self):
        return self.array.__array_interface__["data"][0]

    def element_size(self):
        return self.array.itemsize

    def numel(self):
        return self.array.size

    def stride(self):
        return tuple(s // self.array.itemsize for s in self.array.strides)


def test_duck_typed_tensors():
    n = 100
    x, y = rand(n, seed=9), rand(n, seed=10)
    out = np.zeros_like(x)
    add_kernel[(1,)](FakeTensor(x, "float32"), FakeTensor(y, "float32"),
                     FakeTensor(out, "float32"), n, BLOCK_SIZE=128)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)
    bits = np.zeros(n, dtype=np.uint16)
    sig = add_kernel.warmup(FakeTensor(bits, "bfloat16"),
                            FakeTensor(bits, "bfloat16"),
                            FakeTensor(bits, "bfloat16"), n, BLOCK_SIZE=128)
    assert sig.metadata.signature.startswith("*bf16")
    with pytest.raises(TypeError, match="x_ptr.*cuda"):
        add_kernel[(1,)](FakeTensor(x, "float32", "cuda"), y, out, n,
                         BLOCK_SIZE=128)
    with pytest.raises(TypeError, match="y_ptr.*complex64"):
        add_kernel[(1,)](x, FakeTensor(y, "complex64"), out, n,
                         BLOCK_SIZE=128)

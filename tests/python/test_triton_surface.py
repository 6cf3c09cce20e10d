"""Triton's public surface beyond @jit: triton.runtime (driver.active,
errors, jit helpers), triton.knobs, tl.dtype, triton._internal_testing,
and tensors reinterpreted as other dtypes (fp8, unsigned) as arguments."""

import os

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.runtime.jit import TensorWrapper, reinterpret


@triton.jit
def widen_kernel(X, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.store(Out + offs, x.to(tl.float32), mask=offs < n)


def test_driver_on_the_interpreter():
    d = triton.runtime.driver.active
    target = d.get_current_target()
    props = d.utils.get_device_properties(d.get_current_device())
    if target.backend == "cuda":
        assert target.arch >= 70 and target.warp_size == 32
    else:
        assert target == triton.GPUTarget("cpu", 0, 1)
        assert props["multiprocessor_count"] == (os.cpu_count() or 1)
    assert set(props) >= {"max_shared_mem", "max_num_regs",
                          "multiprocessor_count", "warpSize",
                          "sm_clock_rate", "mem_clock_rate", "mem_bus_width"}
    assert d.get_benchmarker() is triton.testing.do_bench


def test_errors_module():
    from triton.runtime.errors import (InterpreterError, OutOfResources,
                                       PTXASError)
    assert issubclass(InterpreterError, triton.TritonError)
    assert issubclass(PTXASError, triton.TritonError)
    assert OutOfResources is triton.OutOfResources


def test_dtype_api():
    assert tl.dtype("int8") == tl.int8
    assert tl.dtype("float16") == tl.float16 and tl.float16.name == "fp16"
    assert tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES == [
        "int8", "int16", "int32", "int64", "int1", "uint8", "uint16",
        "uint32", "uint64"]
    assert [tl.dtype(n) for n in tl.dtype.STANDARD_FP_TYPES] == [
        tl.float16, tl.bfloat16, tl.float32, tl.float64]
    assert tl.float32.fp_mantissa_width == 23 and \
        tl.bfloat16.exponent_bias == 127
    assert tl.float8e4nv.is_fp8() and tl.float8e4nv.is_fp8e4nv()
    assert tl.uint16.is_int_unsigned() and tl.uint16.int_bitwidth == 16
    assert tl.int8.get_int_max_value() == 127
    assert tl.str_to_ty("*fp32", None).element_ty == tl.float32
    assert tl.str_to_ty("*kbf16", None).is_const()
    with pytest.raises(ValueError, match="unknown Triton dtype 'int7'"):
        tl.dtype("int7")


def test_knobs_scope_and_environment(monkeypatch):
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)
    monkeypatch.delenv("TRITIUM_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_DEBUG", "1")
    assert triton.knobs.runtime.debug is True
    with triton.knobs.cache.scope():
        triton.knobs.cache.dir = "/tmp/tritium-knob-test"
        assert os.environ["TRITIUM_CACHE_DIR"] == "/tmp/tritium-knob-test"
        assert triton.knobs.cache.dir == "/tmp/tritium-knob-test"
    assert "TRITIUM_CACHE_DIR" not in os.environ
    assert "dir" in triton.knobs.cache.knob_descriptors


def test_internal_testing_helpers():
    from triton._internal_testing import (is_cuda, is_interpreter,
                                          numpy_random, str_to_triton_dtype)
    x = numpy_random((4, 4), "int16")
    assert x.dtype == np.int16 and (x != 0).all()
    assert str_to_triton_dtype("bfloat16") == tl.bfloat16
    assert is_interpreter() == (os.environ.get("TRITON_INTERPRET") == "1")
    assert isinstance(is_cuda(), bool)


def test_fp8_data_through_reinterpret():
    bits = np.array([0x3C, 0x40, 0xBC, 0x00], dtype=np.uint8)  # e5m2
    out = np.zeros(4, dtype=np.float32)
    arg = reinterpret(bits, tl.float8e5)
    assert isinstance(arg, TensorWrapper)
    widen_kernel[(1,)](arg, out, 4, BLOCK=4)
    np.testing.assert_array_equal(out, [1.0, 2.0, -1.0, 0.0])


def test_unsigned_data_through_reinterpret():
    x = np.array([-1, 1, -2, 0], dtype=np.int32)
    out = np.zeros(4, dtype=np.float32)
    widen_kernel[(1,)](reinterpret(x, tl.uint32), out, 4, BLOCK=4)
    np.testing.assert_array_equal(out, x.view(np.uint32).astype(np.float32))


def test_int_arguments_past_64_bits_overflow():
    out = np.zeros(4, dtype=np.float32)
    with pytest.raises(OverflowError, match="argument 'n'"):
        widen_kernel[(1,)](np.zeros(4, np.float32), out, 2 ** 64, BLOCK=4)


def test_decorators():
    @triton.constexpr_function
    def f(x):
        return x * 2
    assert f(3) == 6
    assert triton.must_use_result(f) is f
    triton.set_allocator(lambda size, align, stream: None)
    with pytest.raises(TypeError, match="callable"):
        triton.set_allocator(3)


def test_compile_errors_carry_their_reason_as_cause():
    @triton.jit
    def kernel(X, BLOCK: tl.constexpr):
        tl.store(X + tl.arange(0, BLOCK), 1.0)

    with pytest.raises(triton.CompilationError) as e:
        kernel[(1,)](np.zeros(4, np.float32), BLOCK=3)
    assert "error:" in str(e.value)
    assert str(e.value.__cause__) == \
        "arange's range must be a power of two, got 3 - 0 = 3"


def test_extra_cuda_launch_values_and_dependent_launch_points():
    from triton.language.extra import cuda

    @triton.jit
    def kernel(Out):
        cuda.gdc_wait()
        tl.store(Out + tl.arange(0, 2),
                 tl.where(tl.arange(0, 2) == 0, tl.extra.cuda.num_threads(),
                          cuda.num_warps()))
        tl.extra.cuda.gdc_launch_dependents()

    out = np.zeros(2, dtype=np.int32)
    kernel[(1,)](out, num_warps=8)
    np.testing.assert_array_equal(out, [256, 8])


def test_a_warmed_up_kernel_launches_itself():
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, dtype=np.float32)
    k = widen_kernel.warmup(x, out, 8, BLOCK=8, num_warps=2, grid=(1,))
    k[(1,)](x, out, 8, 8)
    np.testing.assert_array_equal(out, x)
    assert k.metadata.num_warps == 2


def test_do_bench_cudagraph_times_host_work_without_a_gpu():
    t = triton.testing.do_bench_cudagraph(lambda: sum(range(1000)), rep=5,
                                          quantiles=[0.5, 0.2])
    assert len(t) == 2 and t[0] >= t[1] > 0


@triton.jit
def maybe_bias_kernel(X, Bias, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    if Bias is not None:
        x += tl.load(Bias + offs, mask=offs < n)
    tl.store(Out + offs, x, mask=offs < n)


def test_none_arguments_are_compiled_in_as_constants():
    x = np.arange(8, dtype=np.float32)
    b = np.full(8, 10, dtype=np.float32)
    out = np.zeros(8, dtype=np.float32)
    maybe_bias_kernel[(1,)](x, None, out, 8, BLOCK=8)
    np.testing.assert_array_equal(out, x)
    maybe_bias_kernel[(1,)](x, b, out, 8, BLOCK=8)
    np.testing.assert_array_equal(out, x + 10)
    maybe_bias_kernel[(1,)](x, None, out, 8, BLOCK=8)
    np.testing.assert_array_equal(out, x)
    sig = maybe_bias_kernel.warmup(x, None, out, 8, BLOCK=8)
    assert sig.metadata.signature == "*fp32:16,None,*fp32:16,i32,8"


def _name_of(specialization):
    ty = specialization.signature["value"]
    ones = "_".join(k for k, v in specialization.constants.items() if v == 1)
    return "k_%s_%s_%s" % (ty, ones, specialization.constants["BLOCK"])


@triton.jit(repr=_name_of)
def named_kernel(value, flag, X, BLOCK: tl.constexpr):
    pass


def test_jit_repr_names_the_specialization():
    x = np.zeros(4, np.float32)
    assert named_kernel.warmup(-1, 1, x, 4, grid=(1,)).name == "k_i32_flag_4"
    assert named_kernel.warmup(2**40, 1, x, 8, grid=(1,)).name == "k_i64_flag_8"
    assert named_kernel.warmup(2**63, 3, x, 8, grid=(1,)).name == "k_u64__8"


@triton.jit
def const_kernel(src: tl.const, dst, other: tl.const, pick, MODE: tl.constexpr):
    offs = tl.arange(0, 8)
    v = tl.load(src + offs)
    if MODE == 0:
        tl.store(dst + offs, v)           # fine: dst is not const
    elif MODE == 1:
        tl.store(other + offs, v)         # a tl.const parameter
    elif MODE == 2:
        if pick:                          # const in one branch: refused
            target = other
        else:
            target = dst
        tl.store(target + offs, v)
    else:
        tl.store(tl.where(pick > 0, dst, other) + offs, v)


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_stores_through_tl_const_pointers_are_refused(mode):
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    const_kernel[(1,)](x, out, x, 0, 0)
    np.testing.assert_array_equal(out, x)
    with pytest.raises(triton.CompilationError) as info:
        const_kernel[(1,)](x, out, x, 0, mode)
    expected = {1: "Cannot store to a constant pointer",
                2: "Mismatched type for target between then block "
                   "(const_pointer<float32>) and else block (pointer<float32>)",
                3: "Cannot store to a constant pointer"}[mode]
    assert info.value.error_message.startswith(expected)
    assert "test_triton_surface.py:" in str(info.value)


def test_vendor_blas_of_the_tutorials():
    """triton._C.libtriton's cuBLAS / hipBLASLt handles (09-persistent-matmul
    times its kernels against them): C = A @ B^T, D = alpha A B^T + beta C,
    and Triton's checks on the arguments."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from triton._C.libtriton import amd, nvidia
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    blas = nvidia.cublas.CublasLt(torch.empty(1 << 20, dtype=torch.uint8, device=dev))
    assert isinstance(amd.hipblas.HipblasLt(torch.empty(16, device=dev)), object)
    torch.manual_seed(0)
    a = torch.randn(64, 32, device=dev)
    b = torch.randn(48, 32, device=dev)
    c = torch.empty(64, 48, device=dev)
    blas.matmul(a, b, c)
    torch.testing.assert_close(c, a @ b.T, rtol=2e-3, atol=2e-3)
    if dev == "cuda":
        a16, b16 = a.half(), b.half()
        c16 = torch.zeros(64, 48, device=dev, dtype=torch.float16)
        d16 = torch.empty_like(c16)
        blas.gemm(a16, b16, c16 + 1, d16, 2.0, 0.5)
        torch.testing.assert_close(d16.float(), 2 * (a16.float() @ b16.float().T) + 0.5,
                                   rtol=1e-2, atol=1e-2)
        if torch.cuda.get_device_capability()[0] >= 9:
            a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
            c8 = torch.empty(64, 48, device=dev, dtype=torch.float8_e4m3fn)
            blas.matmul(a8, b8, c8)
            # (within one e4m3 step: the product rounds through fp16 first)
            ref = (a8.float() @ b8.float().T).to(torch.float8_e4m3fn).float()
            torch.testing.assert_close(c8.float(), ref, rtol=0.13, atol=0.02)
    with pytest.raises(RuntimeError, match="B needs to be transposed"):
        blas.matmul(a, b.T.contiguous(), c)
    with pytest.raises(RuntimeError, match="Data types do not match"):
        blas.matmul(a, b.double(), c)
    with pytest.raises(TypeError, match="workspace"):
        nvidia.cublas.CublasLt(1024)

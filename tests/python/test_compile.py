"""triton.compile(ASTSource(...)) without a launch: for the interpreter and
cross-compiled for CUDA targets (no GPU needed for the PTX), with
constexprs by name or index, divisibility hints, and its errors."""

import pytest

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha, mask=m)


def source(**kw):
    args = dict(fn=scale_kernel,
                signature={"x_ptr": "*fp16", "out_ptr": "*fp16", "n": "i32",
                           "alpha": "fp32", "BLOCK": "constexpr"},
                constexprs={"BLOCK": 256},
                attrs={(0,): [["tt.divisibility", 16]],
                       (1,): [["tt.divisibility", 16]],
                       (2,): [["tt.divisibility", 16]]})
    args.update(kw)
    return ASTSource(**args)


@pytest.mark.parametrize("cc", [80, 90])
def test_cross_compiles_ptx_for_cuda_targets(cc):
    k = triton.compile(source(), target=GPUTarget("cuda", cc, 32),
                       options={"num_warps": 1})
    assert k.metadata.signature == "*fp16:16,*fp16:16,i32:16,fp32,256"
    assert k.metadata.num_warps == 1
    assert k.metadata.target == "cuda"
    ptx = k.asm["ptx"]
    assert ".target sm_%d" % cc in ptx
    assert ".entry scale_kernel(" in ptx
    # n % 16 == 0 keeps the masks aligned: 8 halves per access.
    assert "ld.global.v4.b32" in ptx
    assert "tile.make_range" in k.asm["ttir"] or "make_range" in k.asm["ttir"]
    assert k.asm["ttgir"] and k.asm["llir"]


def test_interpreter_target_and_constexpr_by_index():
    k = triton.compile(source(constexprs={(4,): 128}), target=GPUTarget("cpu", 0, 1))
    assert k.metadata.signature.endswith(",128")
    assert "ttir" in k.asm


def test_configs_compiled_from_threads_keep_their_own_code():
    # One kernel, several warp counts, compiled together (as a parallel
    # autotuner's compile phase or a sweep with a thread pool does): each
    # result's PTX and metadata are its own config's, not the last compile's.
    from concurrent.futures import ThreadPoolExecutor
    warps = [1, 2, 4, 8] * 4

    def one(w):
        k = triton.compile(source(), target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": w})
        return w, k.metadata.num_warps, k.asm["ptx"]

    with ThreadPoolExecutor(4) as ex:
        for w, meta_warps, ptx in ex.map(one, warps):
            assert meta_warps == w
            assert ".reqntid %d" % (32 * w) in ptx or ".maxntid %d" % (32 * w) in ptx


@triton.jit
def broken_kernel(x_ptr):
    y = undefined_name + 1  # noqa: F821
    tl.store(x_ptr, y)


def test_errors():
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(ASTSource(fn=broken_kernel, signature={"x_ptr": "*fp32"}))
    line = broken_kernel.fn.__code__.co_firstlineno + 2
    assert "test_compile.py:%d:" % line in str(info.value)
    with pytest.raises(KeyError, match="no parameter 'nope'"):
        source(signature={"nope": "i32"})
    with pytest.raises(ValueError, match="'BLOCK' .* needs a value in constexprs"):
        triton.compile(source(constexprs={}))
    with pytest.raises(ValueError, match="'alpha' of 'scale_kernel' needs a type"):
        triton.compile(source(signature={"x_ptr": "*fp16", "out_ptr": "*fp16",
                                         "n": "i32", "BLOCK": "constexpr"}))
    with pytest.raises(NotImplementedError, match="backend 'xpu'"):
        triton.compile(source(), target=GPUTarget("xpu", "pvc", 16))


@pytest.mark.parametrize("arch", ["sm80", "sm90"])
def test_warmup_for_another_arch(arch, monkeypatch):
    import numpy as np
    import re
    x = np.zeros(256, np.float16)
    h = scale_kernel.warmup(x, x, 256, 2.0, BLOCK=256, arch=arch, grid=(1,))
    assert re.search(r'tile.target = "cuda:(\d+)"', h.asm["ttgir"]).group(1) == arch[2:]
    assert ".target sm_%s" % arch[2:] in h.asm["ptx"]
    monkeypatch.setenv("TRITON_OVERRIDE_ARCH", arch)
    h = scale_kernel.warmup(x, x, 256, 2.0, BLOCK=256, grid=(1,))
    assert ".target sm_%s" % arch[2:] in h.asm["ptx"]
    with pytest.raises(ValueError, match="arch 'sm70' is not supported"):
        scale_kernel.warmup(x, x, 256, 2.0, BLOCK=256, arch="sm70", grid=(1,))


@triton.jit
def axpb_kernel(x_ptr, out_ptr, a, b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * a + b)


def test_fp_fusion_option(monkeypatch):
    """Multiplies and adds fuse by default, as in Triton; enable_fp_fusion=False
    (or TRITON_DEFAULT_FP_FUSION=0) rounds each of them."""
    src = ASTSource(fn=axpb_kernel,
                    signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "a": "fp32",
                               "b": "fp32", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": 128})
    target = GPUTarget("cuda", 90, 32)
    fused = triton.compile(src, target=target, options={"num_warps": 1}).asm["ptx"]
    assert "fma.rn.f32" in fused and "mul.rn.f32" not in fused
    plain = triton.compile(src, target=target,
                           options={"num_warps": 1, "enable_fp_fusion": False}).asm["ptx"]
    assert "fma.rn.f32" not in plain
    assert "mul.rn.f32" in plain and "add.rn.f32" in plain
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")
    env = triton.compile(src, target=target, options={"num_warps": 1}).asm["ptx"]
    assert "fma.rn.f32" not in env

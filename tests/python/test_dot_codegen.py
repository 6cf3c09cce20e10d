"""Which instructions a product compiles to (cross-compiled for cuda:80 and
cuda:90, no GPU needed): tensor cores (mma.sync on sm_80, wgmma on sm_90
where a warpgroup's m64 tiles fit) for fp16 products accumulating in fp16, for int8
products, for tf32 with more warps than m16n8 tiles; operands of a product
outside loops loaded with vectorized global loads; 64-bit elements stored
as v2.b64. With a CUDA GPU the same products run and match a reference."""

import re

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def dot_kernel(X, Y, Z, stride_zm, stride_zn, M: tl.constexpr, N: tl.constexpr,
               K: tl.constexpr, PRECISION: tl.constexpr, OUT: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(X + m[:, None] * K + k[None, :])
    y = tl.load(Y + k[:, None] * N + n[None, :])
    z = tl.dot(x, y, input_precision=PRECISION, out_dtype=OUT)
    tl.store(Z + m[:, None] * stride_zm + n[None, :] * stride_zn, z)


SIG = {"fp16": "*fp16", "fp32": "*fp32", "fp64": "*fp64", "i8": "*i8", "i32": "*i32"}
TL = {"fp16": tl.float16, "fp32": tl.float32, "fp64": tl.float64, "i32": tl.int32}


def ptx_of(M, N, K, warps, a, out, precision="ieee", column_major_out=False, cc=90,
           asm="ptx"):
    signature = {"X": SIG[a], "Y": SIG[a], "Z": SIG[out], "stride_zm": "i32",
                 "stride_zn": "i32", "M": "constexpr", "N": "constexpr",
                 "K": "constexpr", "PRECISION": "constexpr", "OUT": "constexpr"}
    constexprs = {"M": M, "N": N, "K": K, "PRECISION": precision, "OUT": TL[out]}
    # The unit stride is specialized, as a launch does.
    unit = "stride_zm" if column_major_out else "stride_zn"
    signature[unit] = "constexpr"
    constexprs[unit] = 1
    other = "stride_zn" if column_major_out else "stride_zm"
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]],
             (2,): [["tt.divisibility", 16]],
             (list(signature).index(other),): [["tt.divisibility", 16]]}
    k = triton.compile(ASTSource(dot_kernel, signature, constexprs=constexprs, attrs=attrs),
                       target=GPUTarget("cuda", cc, 32), options={"num_warps": warps})
    return k.asm[asm]


def mma_of(ptx):
    return sorted(set(re.findall(r"mma\.sync\.aligned\.[\w.]+", ptx)))


def wgmma_of(ptx):
    return sorted(set(re.findall(r"wgmma\.mma_async\.sync\.aligned\.[\w.]+", ptx)))


def test_fp16_accumulator_on_tensor_cores():
    ptx = ptx_of(128, 128, 64, 4, "fp16", "fp16", cc=80)
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"]
    ptx = ptx_of(128, 128, 64, 4, "fp16", "fp16")
    assert wgmma_of(ptx) == ["wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16"]
    assert mma_of(ptx) == []


@pytest.mark.parametrize("M,N,warps,instr,count", [
    (128, 256, 8, "m64n256k16", 4),  # two warpgroups along M
    (64, 256, 8, "m64n128k16", 4),   # two along N, 128 columns each
    (256, 64, 4, "m64n64k16", 16),   # one warpgroup, four m64 steps
])
def test_warpgroups_on_sm90(M, N, warps, instr, count):
    ptx = ptx_of(M, N, 64, warps, "fp16", "fp32")
    assert wgmma_of(ptx) == ["wgmma.mma_async.sync.aligned.%s.f32.f16.f16" % instr]
    assert len(re.findall(r"wgmma\.mma_async", ptx)) == count
    for op in ("wgmma.fence", "wgmma.commit_group", "wgmma.wait_group",
               "fence.proxy.async"):  # operands staged before the product
        assert op in ptx


@pytest.mark.parametrize("M,N,warps,steps,outputs", [
    (128, 256, 8, 4, 128),  # one part of 128 registers, four k steps
    (256, 64, 4, 16, 128),  # four m64 parts of 32 registers, four k steps each
])
def test_wgmma_group_is_one_asm_statement(M, N, warps, steps, outputs):
    # The fence, every step and the commit of a group are one asm statement
    # whose outputs are the accumulator's registers: the IR extracts each
    # register once per group, not once per step.
    llir = ptx_of(M, N, 64, warps, "fp16", "fp32", asm="llir")
    groups = [line for line in llir.splitlines() if "wgmma.mma_async" in line]
    assert len(groups) == 1
    g = groups[0]
    assert g.count("wgmma.mma_async") == steps
    assert g.count("wgmma.fence.sync.aligned") == 1
    assert g.count("wgmma.commit_group.sync.aligned") == 1
    assert g.index("wgmma.fence") < g.index("wgmma.mma_async") < g.index("wgmma.commit_group")
    assert re.search(r"call \{ (float, ){%d}float \} asm" % (outputs - 1), g)
    # Every step writes registers of the statement's outputs only.
    regs = {int(r) for r in re.findall(r"\$(\d+)", " ".join(
        re.findall(r"wgmma\.mma_async[^{]*\{([^}]*)\}", g)))}
    assert regs == set(range(outputs))


@pytest.mark.parametrize("M, N, warps, parts_in_turn", [
    (128, 128, 4, False),  # 128 accumulator registers per thread
    (128, 256, 4, True),   # 256: more than fit beside the operands
])
def test_wgmma_step_order(M, N, warps, parts_in_turn):
    # Two m64 parts of the accumulator, four k16 steps each. Normally
    # consecutive instructions write different parts (k outermost); an
    # accumulator too large for the registers takes each part's k steps in
    # turn, so that one part at a time is being written.
    ptx = ptx_of(M, N, 64, warps, "fp16", "fp32")
    firsts = re.findall(r"wgmma\.mma_async\S* \{(%\w+),", ptx)
    assert len(firsts) == 8 and len(set(firsts)) == 2
    if parts_in_turn:
        assert firsts == [firsts[0]] * 4 + [firsts[4]] * 4
    else:
        assert firsts == [firsts[0], firsts[1]] * 4


def test_small_tiles_stay_on_mma_sync_on_sm90():
    # 32 rows do not fill a warpgroup's m64.
    ptx = ptx_of(32, 64, 32, 4, "fp16", "fp32")
    assert wgmma_of(ptx) == []
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"]


def test_int8_on_tensor_cores():
    ptx = ptx_of(64, 64, 64, 4, "i8", "i32", cc=80)
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"]
    ptx = ptx_of(64, 64, 64, 4, "i8", "i32")
    assert wgmma_of(ptx) == ["wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8"]


def test_more_warps_than_tiles_stay_on_tensor_cores():
    # 32x32 has 8 m16n8 tiles: half of the 16 warps hold replicas.
    ptx = ptx_of(32, 32, 128, 16, "fp32", "fp32", precision="tf32")
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"]


@pytest.mark.parametrize("precision", ["bf16x3", "bf16x6"])
def test_fp32_in_bf16_parts_on_tensor_cores(precision):
    ptx = ptx_of(64, 64, 32, 4, "fp32", "fp32", precision=precision, cc=80)
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"]
    # Three products of two parts, or six of three.
    calls = len(re.findall(r"mma\.sync\.aligned", ptx))
    tiles = (64 // 16) * (64 // 8) * (32 // 16) // 4  # per warp
    assert calls == tiles * (3 if precision == "bf16x3" else 6)
    # On sm_90: one m64n64k16 per k step of each product.
    ptx = ptx_of(64, 64, 32, 4, "fp32", "fp32", precision=precision)
    assert wgmma_of(ptx) == ["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"]
    calls = len(re.findall(r"wgmma\.mma_async", ptx))
    assert calls == (32 // 16) * (3 if precision == "bf16x3" else 6)


def test_product_outside_loops_loads_vectorized():
    ptx = ptx_of(128, 128, 64, 4, "fp16", "fp32")
    assert "ld.global.v4" in ptx and "cp.async" not in ptx
    assert "st.global.v4" in ptx


def test_fp64_moves_as_b64_pairs():
    # fp64 products run on DMMA (m16n8k16 on sm_90), operands and results
    # move two doubles at a time.
    ptx = ptx_of(64, 64, 64, 4, "fp64", "fp64", column_major_out=True)
    assert "ld.global.v2.b64" in ptx and "st.global.v2.b64" in ptx
    assert mma_of(ptx) == ["mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64"]
    assert "fma.rn.f64" not in ptx


torch = None
try:
    import torch
except ImportError:
    pass

needs_gpu = pytest.mark.skipif(torch is None or not torch.cuda.is_available(),
                               reason="needs a CUDA GPU and torch")


@needs_gpu
@pytest.mark.parametrize("M, N, warps", [(16, 16, 4), (16, 16, 8), (32, 16, 8)])
def test_small_products_with_replica_warps_on_the_gpu(M, N, warps):
    x, w, b, ref = _small_dot_args(M, N, np)
    out = torch.zeros((M, N), dtype=torch.float32, device="cuda")
    small_dot_epilogue[(1,)](torch.from_numpy(x).cuda(), torch.from_numpy(w).cuda(),
                             torch.from_numpy(b).cuda(), out, M=M, N=N, num_warps=warps)
    np.testing.assert_allclose(out.cpu().numpy(), ref, rtol=1e-2, atol=1e-2)


@needs_gpu
@pytest.mark.parametrize("M, N, K, warps, a, out, precision", [
    (128, 128, 64, 4, "fp16", "fp16", "ieee"),
    (64, 128, 128, 2, "fp16", "fp16", "ieee"),
    (64, 64, 64, 4, "i8", "i32", "ieee"),
    (128, 256, 32, 8, "i8", "i32", "ieee"),
    (32, 32, 128, 16, "fp32", "fp32", "tf32"),
    (64, 64, 64, 4, "fp32", "fp32", "bf16x3"),
    (64, 64, 64, 4, "fp32", "fp32", "bf16x6"),
    (16, 16, 32, 8, "fp16", "fp32", "ieee"),
])
def test_products_on_the_gpu(M, N, K, warps, a, out, precision):
    rs = np.random.RandomState(17)
    if a == "i8":
        x = rs.randint(-128, 128, (M, K)).astype(np.int8)
        y = rs.randint(-128, 128, (K, N)).astype(np.int8)
        ref = x.astype(np.int64) @ y.astype(np.int64)
    else:
        dt = {"fp16": np.float16, "fp32": np.float32}[a]
        x = (rs.randn(M, K) * 0.1).astype(dt)
        y = (rs.randn(K, N) * 0.1).astype(dt)
        if precision == "tf32":  # exact in tf32
            x = (x.view(np.uint32) & np.uint32(0xffffe000)).view(np.float32)
            y = (y.view(np.uint32) & np.uint32(0xffffe000)).view(np.float32)
        ref = x.astype(np.float64) @ y.astype(np.float64)
    odt = {"fp16": torch.float16, "fp32": torch.float32, "i32": torch.int32}[out]
    z = torch.zeros((M, N), dtype=odt, device="cuda")
    dot_kernel[(1,)](torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda(), z, N, 1,
                     M=M, N=N, K=K, PRECISION=precision, OUT=TL[out], num_warps=warps)
    got = z.cpu().numpy()
    if a == "i8":
        np.testing.assert_array_equal(got, ref)
    elif precision in ("bf16x3", "bf16x6"):
        # Two or three bf16 parts: far closer than bf16 alone (~4e-3).
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-2, atol=1e-2)


@triton.jit
def small_dot_epilogue(x_ptr, w_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    w = tl.load(w_ptr + rn[:, None] * N + rn[None, :])
    b = tl.load(b_ptr + rm[:, None] * N + rn[None, :])
    acc = tl.dot(x, w) * 0.5 + b
    acc = acc - tl.max(acc, axis=1)[:, None]
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc)


def _small_dot_args(M, N, lib):
    rs = np.random.RandomState(3)
    x = (rs.randn(M, N) * 0.5).astype(np.float16)
    w = (rs.randn(N, N) * 0.5).astype(np.float16)
    b = rs.randn(M, N).astype(np.float32)
    acc = (x.astype(np.float64) @ w.astype(np.float64)) * 0.5 + b
    ref = acc - acc.max(axis=1, keepdims=True)
    return x, w, b, ref


# More warps than the product's m16n8 steps: the accumulator's layout has
# replica warps, and the code after the product (elementwise, a reduction)
# works in that layout too. The GPU passes must leave IR that verifies
# (each value typed with the layout it is lowered in).
@pytest.mark.parametrize("M, N, warps", [(16, 16, 4), (16, 16, 8), (32, 16, 8)])
@pytest.mark.parametrize("arch", ["sm80", "sm90"])
def test_small_products_with_replica_warps_compile(M, N, warps, arch):
    x, w, b, _ = _small_dot_args(M, N, np)
    out = np.zeros((M, N), np.float32)
    k = small_dot_epilogue.warmup(x, w, b, out, M=M, N=N, grid=(1,), num_warps=warps,
                                  arch=arch)
    assert "mma.sync" in k.asm["ptx"]


@triton.jit
def attention_grads(q_ptr, k_ptr, v_ptr, do_ptr, dq_ptr, dk_ptr, dv_ptr, n_ctx,
                    BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr, D: tl.constexpr):
    n = tl.arange(0, BLOCK_N)
    m = tl.arange(0, BLOCK_M)
    d = tl.arange(0, D)
    k = tl.load(k_ptr + n[:, None] * D + d[None, :])
    v = tl.load(v_ptr + n[:, None] * D + d[None, :])
    dk = tl.zeros((BLOCK_N, D), tl.float32)
    dv = tl.zeros((BLOCK_N, D), tl.float32)
    for start in range(0, n_ctx, BLOCK_M):
        qT = tl.load(q_ptr + (start + m)[None, :] * D + d[:, None])
        do = tl.load(do_ptr + (start + m)[:, None] * D + d[None, :])
        pT = tl.math.exp2(tl.dot(k, qT))
        dv += tl.dot(pT.to(tl.float16), do)
        dpT = tl.dot(v, tl.trans(do))
        dk += tl.dot((pT * dpT).to(tl.float16), tl.trans(qT))
    tl.store(dk_ptr + n[:, None] * D + d[None, :], dk)
    tl.store(dv_ptr + n[:, None] * D + d[None, :], dv)
    q = tl.load(q_ptr + n[:, None] * D + d[None, :])
    do = tl.load(do_ptr + n[:, None] * D + d[None, :])
    dq = tl.zeros((BLOCK_N, D), tl.float32)
    for start in range(0, n_ctx, BLOCK_M):
        kT = tl.load(k_ptr + (start + m)[None, :] * D + d[:, None])
        vT = tl.load(v_ptr + (start + m)[None, :] * D + d[:, None])
        p = tl.math.exp2(tl.dot(q, kT))
        dp = tl.dot(do, vT)
        dq += tl.dot((p * dp).to(tl.float16), tl.trans(kT))
    tl.store(dq_ptr + n[:, None] * D + d[None, :], dq)


def test_pipelining_gives_way_when_shared_memory_runs_out():
    # Five stages of slots for both loops plus the products' staging would
    # need about 256 KB; the compile takes fewer stages and fits in 227 KB.
    signature = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "do_ptr": "*fp16",
                 "dq_ptr": "*fp32", "dk_ptr": "*fp32", "dv_ptr": "*fp32", "n_ctx": "i32",
                 "BLOCK_N": "constexpr", "BLOCK_M": "constexpr", "D": "constexpr"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(8)}
    k = triton.compile(ASTSource(attention_grads, signature,
                                 constexprs={"BLOCK_N": 128, "BLOCK_M": 32, "D": 128},
                                 attrs=attrs),
                       target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": 4, "num_stages": 5})
    assert 0 < k.metadata.shared <= 232448
    assert "cp.async" in k.asm["ptx"]


@pytest.mark.parametrize("a, b", [("fp8e4nv", "fp8e4nv"), ("fp8e5", "fp8e5"),
                                  ("fp8e4nv", "fp8e5")])
def test_fp8_on_tensor_cores(a, b):
    signature = {"X": "*" + a, "Y": "*" + b, "Z": "*fp32", "stride_zm": "i32",
                 "stride_zn": "constexpr", "M": "constexpr", "N": "constexpr",
                 "K": "constexpr", "PRECISION": "constexpr", "OUT": "constexpr"}
    constexprs = {"M": 64, "N": 64, "K": 64, "PRECISION": "ieee", "OUT": tl.float32,
                  "stride_zn": 1}
    names = {"fp8e4nv": "e4m3", "fp8e5": "e5m2"}
    # sm_90: wgmma k32, B stored [N, K] by the product (fp8 operands are
    # read K-major only).
    k = triton.compile(ASTSource(dot_kernel, signature, constexprs=constexprs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    assert wgmma_of(k.asm["ptx"]) == [
        "wgmma.mma_async.sync.aligned.m64n64k32.f32.%s.%s" % (names[a], names[b])]
    # 32 rows do not fill a warpgroup: mma.sync m16n8k32.
    small = dict(constexprs, M=32, N=32, K=32)
    k = triton.compile(ASTSource(dot_kernel, signature, constexprs=small),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    assert mma_of(k.asm["ptx"]) == [
        "mma.sync.aligned.m16n8k32.row.col.f32.%s.%s.f32" % (names[a], names[b])]
    # sm_80 has no fp8 tensor-core products.
    k80 = triton.compile(ASTSource(dot_kernel, signature, constexprs=constexprs),
                         target=GPUTarget("cuda", 80, 32), options={"num_warps": 4})
    assert not mma_of(k80.asm["ptx"])


@needs_gpu
@pytest.mark.parametrize("a, b", [("float8_e4m3fn", "float8_e4m3fn"),
                                  ("float8_e5m2", "float8_e5m2"),
                                  ("float8_e4m3fn", "float8_e5m2")])
@pytest.mark.parametrize("M, N, K, warps", [(64, 64, 64, 4), (128, 128, 128, 8),
                                            (16, 16, 32, 4)])
def test_fp8_products_on_the_gpu(a, b, M, N, K, warps):
    g = torch.Generator().manual_seed(5)
    x = torch.randn(M, K, generator=g).to(getattr(torch, a))
    y = torch.randn(K, N, generator=g).to(getattr(torch, b))
    ref = x.double() @ y.double()
    z = torch.zeros((M, N), dtype=torch.float32, device="cuda")
    dot_kernel[(1,)](x.cuda(), y.cuda(), z, N, 1, M=M, N=N, K=K, PRECISION="ieee",
                     OUT=tl.float32, num_warps=warps)
    assert_fp8_product_close(z, x, y, ref)


def assert_fp8_product_close(z, x, y, ref):
    """Products of fp8 values are exact in fp32. mma.sync sums them in
    fp32; sm_90's wgmma, as Triton uses it there by default, keeps fewer
    bits while it accumulates: the error stays within a small fraction of
    the sum of the products' magnitudes."""
    bound = 2e-3 * (x.double().abs() @ y.double().abs()) + 1e-3
    err = (z.cpu().double() - ref).abs()
    assert bool((err <= bound).all()), float((err / bound).max())


@triton.jit
def looped_matmul(A, B, C, M, N, K, sam, sak, sbk, sbn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] + k < K), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] + k < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def looped_ptx(a_rows, b_rows, cc, stages=3):
    """PTX of looped_matmul with A (B) row-major or column-major (the unit
    stride specialized, as a launch does)."""
    sig = {"A": "*fp16", "B": "*fp16", "C": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    consts = {"BM": 128, "BN": 128, "BK": 64}
    unit = ["sak" if a_rows else "sam", "sbn" if b_rows else "sbk"]
    for u in unit:
        sig[u] = "constexpr"
        consts[u] = 1
    attrs = {(list(sig).index(n),): [["tt.divisibility", 16]]
             for n in ["A", "B", "C", "M", "N", "K", "sam", "sak", "sbk", "sbn"]
             if sig[n] != "constexpr"}
    k = triton.compile(ASTSource(looped_matmul, sig, constexprs=consts, attrs=attrs),
                       target=GPUTarget("cuda", cc, 32),
                       options={"num_warps": 8, "num_stages": stages})
    return k.asm["ptx"]


@pytest.mark.parametrize("a_rows, b_rows, trans", [
    (True, True, "0, 1"),    # A K-major, B N-major: B read transposed
    (True, False, "0, 0"),   # B contiguous along K: its slots hold it as [N, K]
    (False, True, "1, 1"),   # A contiguous along M: slots hold [K, M]
    (False, False, "1, 0"),
])
def test_column_major_operands_copy_16_bytes_on_sm90(a_rows, b_rows, trans):
    # Whichever axis is contiguous in memory, the tiles move in 16-byte
    # copies and land in the form wgmma reads.
    ptx = looped_ptx(a_rows, b_rows, 90)
    assert "ld.global.b16" not in ptx and "ld.global.u16" not in ptx
    assert re.search(r"cp\.async\.cg\.shared\.global \[[^]]*\], \[[^]]*\], 16", ptx)
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16 .*p, 1, 1, "
                     + trans + ";", ptx)


@pytest.mark.parametrize("a_rows", [True, False])
@pytest.mark.parametrize("b_rows", [True, False])
def test_column_major_operands_on_sm80(a_rows, b_rows):
    # mma.sync reads a tile stored as it is needed with plain ldmatrix and
    # one stored transposed (B as [N, K] needs none, A as [K, M] does) with
    # ldmatrix.trans; every copy moves 16 bytes.
    ptx = looped_ptx(a_rows, b_rows, 80)
    assert "ld.global.b16" not in ptx
    assert re.search(r"cp\.async\.cg\.shared\.global \[[^]]*\], \[[^]]*\], 16", ptx)
    trans = ptx.count("ldmatrix.sync.aligned.m8n8.x4.trans")
    plain = ptx.count("ldmatrix.sync.aligned.m8n8.x4.shared")
    assert (trans > 0) == (not a_rows or b_rows)
    assert (plain > 0) == (a_rows or not b_rows)


@pytest.mark.parametrize("cc", [80, 90])
@pytest.mark.parametrize("a_rows", [True, False])
@pytest.mark.parametrize("b_rows", [True, False])
def test_unpipelined_loop_loads_16_bytes(a_rows, b_rows, cc):
    # Without pipelining the loop carries a_ptrs/b_ptrs in the layout their
    # loads run widest in, whichever axis is contiguous in memory: 16 bytes
    # per thread, never one element at a time.
    ptx = looped_ptx(a_rows, b_rows, cc, stages=1)
    assert "cp.async" not in ptx
    assert "ld.global.b16" not in ptx and "ld.global.u16" not in ptx
    assert "ld.global.v4.b32" in ptx


@needs_gpu
@pytest.mark.parametrize("a_rows", [True, False])
@pytest.mark.parametrize("b_rows", [True, False])
@pytest.mark.parametrize("M, N, K, BM, BN, BK, warps, stages", [
    (256, 256, 256, 128, 128, 64, 8, 3), (130, 72, 100, 64, 64, 32, 4, 3),
    (64, 128, 96, 64, 128, 32, 8, 3), (48, 40, 64, 16, 32, 16, 4, 3),
    (256, 256, 256, 128, 128, 64, 8, 1), (130, 72, 100, 64, 64, 32, 4, 1)])
def test_operand_layouts_on_the_gpu(a_rows, b_rows, M, N, K, BM, BN, BK, warps, stages):
    g = torch.Generator().manual_seed(3)
    a = (torch.randn(M, K, generator=g) * 0.1).half()
    b = (torch.randn(K, N, generator=g) * 0.1).half()
    ref = a.double() @ b.double()
    a_dev = a.cuda() if a_rows else a.t().contiguous().cuda().t()
    b_dev = b.cuda() if b_rows else b.t().contiguous().cuda().t()
    c = torch.empty(M, N, dtype=torch.float32, device="cuda")
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    looped_matmul[grid](a_dev, b_dev, c, M, N, K, a_dev.stride(0), a_dev.stride(1),
                        b_dev.stride(0), b_dev.stride(1), BM=BM, BN=BN, BK=BK,
                        num_warps=warps, num_stages=stages)
    torch.testing.assert_close(c.cpu().double(), ref, rtol=1e-3, atol=1e-3)


@needs_gpu
@pytest.mark.parametrize("a_rows", [True, False])
@pytest.mark.parametrize("b_rows", [True, False])
def test_fp8_operand_layouts_on_the_gpu(a_rows, b_rows):
    # fp8 products read both operands K-major: B contiguous along K is copied
    # as it lies, the other forms go through the slow paths; all agree.
    M, N, K = 256, 256, 256
    g = torch.Generator().manual_seed(9)
    a = torch.randn(M, K, generator=g).to(torch.float8_e4m3fn)
    b = torch.randn(K, N, generator=g).to(torch.float8_e4m3fn)
    ref = a.double() @ b.double()
    a_dev = a.cuda() if a_rows else a.t().contiguous().cuda().t()
    b_dev = b.cuda() if b_rows else b.t().contiguous().cuda().t()
    c = torch.empty(M, N, dtype=torch.float32, device="cuda")
    looped_matmul[(2, 2)](a_dev, b_dev, c, M, N, K, a_dev.stride(0), a_dev.stride(1),
                          b_dev.stride(0), b_dev.stride(1), BM=128, BN=128, BK=64,
                          num_warps=8, num_stages=3)
    assert_fp8_product_close(c, a, b, ref)


@needs_gpu
@pytest.mark.parametrize("BM, BN, BK, warps, stages", [(128, 256, 64, 8, 3), (64, 64, 32, 4, 3)])
@pytest.mark.parametrize("K", [0, 40, 320])
def test_fp16_accumulated_loops_on_the_gpu(BM, BN, BK, warps, stages, K):
    # A k loop whose products accumulate in fp16: on sm_90 the accumulator
    # crosses the back edge, the waits and the path that skips the loop
    # (K = 0) as pairs of halves in 32-bit registers.
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Inputs", "codegen"))
    from block_matmul import mm_loop
    M, N = 200, 328
    rs = np.random.RandomState(5)
    a = torch.from_numpy((rs.randn(M, max(K, 8)) * 0.1).astype(np.float16)).cuda()
    b = torch.from_numpy((rs.randn(max(K, 8), N) * 0.1).astype(np.float16)).cuda()
    ref = a[:, :K].double() @ b[:K].double()
    c = torch.full((M, N), 7.0, dtype=torch.float16, device="cuda")
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    mm_loop[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), b.stride(1), c.stride(0),
                  BM=BM, BN=BN, BK=BK, num_warps=warps, num_stages=stages)
    torch.testing.assert_close(c.double(), ref, atol=1e-2, rtol=1e-2)


@triton.jit
def dot_kt_kernel(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Y holds B^T row-major ([N, K]): B runs along K in memory.
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(X + m[:, None] * K + k[None, :])
    y = tl.load(Y + k[:, None] + n[None, :] * K)
    tl.store(Z + m[:, None] * N + n[None, :], tl.dot(x, y, out_dtype=Z.dtype.element_ty))


K_MAJOR_ONLY = {  # operand, result, K, wgmma (sm_90), mma.sync (sm_80)
    "fp32": ("fp32", 32, "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32",
             "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
    "i8": ("i32", 64, "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8",
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
}


@pytest.mark.parametrize("a", ["fp32", "i8"])
def test_k_major_only_products_on_wgmma(a):
    # fp32 operands at the default precision (tf32) and int8 ones: wgmma,
    # which reads both operands K-major only, whichever way B runs in
    # memory (K-major, or row-major and stored transposed); mma.sync on
    # sm_80; ieee stays off the tensor cores.
    out, K, wgmma, mma = K_MAJOR_ONLY[a]
    signature = {"X": SIG[a], "Y": SIG[a], "Z": SIG[out], "M": "constexpr", "N": "constexpr",
                 "K": "constexpr"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}

    def kt_ptx(cc):
        k = triton.compile(ASTSource(dot_kt_kernel, signature,
                                     constexprs={"M": 128, "N": 128, "K": K}, attrs=attrs),
                           target=GPUTarget("cuda", cc, 32), options={"num_warps": 4})
        return k.asm["ptx"]
    precision = "tf32" if a == "fp32" else "ieee"
    for ptx in (kt_ptx(90), ptx_of(128, 128, K, 4, a, out, precision=precision)):
        assert wgmma_of(ptx) == [wgmma]
        assert mma_of(ptx) == []
    assert mma_of(kt_ptx(80)) == [mma]
    assert mma_of(ptx_of(128, 128, K, 4, a, out, precision=precision, cc=80)) == [mma]
    if a == "fp32":
        assert wgmma_of(ptx_of(128, 128, 32, 4, "fp32", "fp32", precision="ieee")) == []


@needs_gpu
@pytest.mark.parametrize("BM, BN, BK, warps, stages", [(128, 256, 64, 8, 3), (128, 128, 32, 4, 4),
                                                       (64, 64, 32, 4, 3)])
@pytest.mark.parametrize("K", [0, 40, 320])
@pytest.mark.parametrize("N", [328, 384])
@pytest.mark.parametrize("b_k_major", [False, True])
@pytest.mark.parametrize("dtype", ["fp32", "int8", "fp8"])
def test_k_major_only_loops_on_the_gpu(BM, BN, BK, warps, stages, K, N, b_k_major, dtype):
    # fp32 tiles (products at tf32), int8 tiles (into int32) and fp8 e4m3
    # tiles (into fp32), B row-major or K-major (the transpose of an [N, K]
    # matrix): wgmma on sm_90, both operands K-major in shared memory. A
    # row-major B is copied transposed: 8-bit tiles in 4 x 4 blocks
    # transposed in registers, loaded 4 bytes a row where N is a multiple
    # of 16 (384), else a byte at a time (328); fp32 tiles in such blocks
    # past 32 elements a thread where N is (128x256x64 on 8 warps), else
    # one 4-byte cp.async an element.
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Inputs", "codegen"))
    from block_matmul import mm_loop
    M = 200
    rs = np.random.RandomState(7)
    if dtype == "fp32":
        a = torch.from_numpy(rs.randn(M, max(K, 8)).astype(np.float32)).cuda()
        b = torch.from_numpy(rs.randn(max(K, 8), N).astype(np.float32)).cuda()
        c = torch.full((M, N), 7.0, dtype=torch.float32, device="cuda")
    elif dtype == "fp8":
        BK = max(BK, 32)
        a = torch.from_numpy(rs.randn(M, max(K, 8)).astype(np.float32)).cuda()
        b = torch.from_numpy(rs.randn(max(K, 8), N).astype(np.float32)).cuda()
        a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        c = torch.full((M, N), 7.0, dtype=torch.float32, device="cuda")
    else:
        BK = max(BK, 32)
        a = torch.from_numpy(rs.randint(-128, 128, (M, max(K, 8))).astype(np.int8)).cuda()
        b = torch.from_numpy(rs.randint(-128, 128, (max(K, 8), N)).astype(np.int8)).cuda()
        c = torch.full((M, N), 7, dtype=torch.int32, device="cuda")
    if b_k_major:
        b = b.T.contiguous().T
        assert b.stride(0) == 1
    ref = a[:, :K].double() @ b[:K].double()
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    mm_loop[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), b.stride(1), c.stride(0),
                  BM=BM, BN=BN, BK=BK, num_warps=warps, num_stages=stages)
    if dtype == "int8":
        assert torch.equal(c.double(), ref)
        return
    # tf32 keeps 10 bits of mantissa: about 1e-3 of each product's size.
    torch.testing.assert_close(c.double(), ref, atol=5e-3 * max(K, 1) ** 0.5, rtol=5e-3)

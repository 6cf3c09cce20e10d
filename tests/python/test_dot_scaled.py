"""tl.dot_scaled: every operand format against a float64 reference built
from the bytes here, on the interpreter (numpy arrays) and, when a CUDA GPU
is present, on it (where it is upcast to bf16/fp16 and run on tensor cores);
and the located errors for bad operands, formats and scales."""

import itertools

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.jit
def scaled_dot_kernel(a_ptr, sa_ptr, b_ptr, sb_ptr, out_ptr,
                      M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                      FA: tl.constexpr, FB: tl.constexpr):
    KA: tl.constexpr = K // 2 if FA == "e2m1" else K
    KB: tl.constexpr = K // 2 if FB == "e2m1" else K
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * KA + tl.arange(0, KA)[None, :])
    b = tl.load(b_ptr + tl.arange(0, KB)[:, None] * N + tl.arange(0, N)[None, :])
    G: tl.constexpr = K // 32
    sa = sa_ptr
    if sa_ptr is not None:
        sa = tl.load(sa_ptr + tl.arange(0, M)[:, None] * G + tl.arange(0, G)[None, :])
    sb = sb_ptr
    if sb_ptr is not None:
        sb = tl.load(sb_ptr + tl.arange(0, N)[:, None] * G + tl.arange(0, G)[None, :])
    acc = tl.full((M, N), 1.0, tl.float32)
    c = tl.dot_scaled(a, sa, FA, b, sb, FB, acc=acc)
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def decode(bits, fmt):
    """float64 values of the stored operand (e2m1: two per byte along the
    last axis of `bits` for lhs; the caller arranges K)."""
    if fmt == "e2m1":
        mag = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])
        lo, hi = bits & 15, bits >> 4
        v = [np.where(n & 8, -mag[n & 7], mag[n & 7]) for n in (lo, hi)]
        return v
    if fmt in ("bf16", "fp16"):
        if fmt == "fp16":
            return bits.view(np.float16).astype(np.float64)
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    e_bits, m_bits, bias = (4, 3, 7) if fmt == "e4m3" else (5, 2, 15)
    b = bits.astype(np.int64)
    sign = np.where(b & 0x80, -1.0, 1.0)
    e = (b >> m_bits) & ((1 << e_bits) - 1)
    m = b & ((1 << m_bits) - 1)
    val = np.where(e == 0, np.ldexp(m / (1 << m_bits), 1 - bias),
                   np.ldexp(1 + m / (1 << m_bits), e - bias))
    return sign * val


def make_operand(rng, fmt, rows, cols, k_axis, small=False):
    """Stored bits and the float64 [rows, cols] logical operand (K along
    `k_axis`; e2m1 packs two values per byte along it)."""
    if fmt == "e2m1":
        shape = (rows, cols // 2) if k_axis == 1 else (rows // 2, cols)
        bits = rng.integers(0, 256, shape, dtype=np.uint8)
        lo, hi = decode(bits, fmt)
        vals = np.empty((rows, cols))
        if k_axis == 1:
            vals[:, 0::2], vals[:, 1::2] = lo, hi
        else:
            vals[0::2, :], vals[1::2, :] = lo, hi
        return bits, vals
    if fmt in ("bf16", "fp16"):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        if fmt == "fp16":
            bits = x.astype(np.float16).view(np.uint16)
        else:
            bits = (x.view(np.uint32) >> 16).astype(np.uint16)
        return bits, decode(bits, fmt)
    bits = rng.integers(0, 256, (rows, cols), dtype=np.uint8)
    # No NaN or Inf encodings (e4m3: 0x7f/0xff; e5m2: exponent all ones).
    if fmt == "e4m3":
        bits = np.where(bits & 0x7F == 0x7F, bits & 0xF0, bits).astype(np.uint8)
    else:
        bits = np.where(bits & 0x7C == 0x7C, bits & 0x83, bits).astype(np.uint8)
    if small and fmt == "e5m2":
        bits = bits & 0xBF  # below 2: scaled, still inside fp16
    return bits, decode(bits, fmt)


FORMATS = ["e2m1", "e4m3", "e5m2", "bf16", "fp16"]
PAIRS = [(a, b) for a, b in itertools.product(FORMATS, FORMATS)
         if not (a in ("bf16", "fp16") and b in ("bf16", "fp16"))]


def case(fa, fb, seed=0, M=32, N=32, K=64):
    rng = np.random.default_rng(seed)
    # With fp16 as the compute type (either format fp16), scaled values
    # must stay inside fp16's range, as on the GPU.
    small = "fp16" in (fa, fb)
    a, va = make_operand(rng, fa, M, K, 1, small)
    b, vb = make_operand(rng, fb, K, N, 0, small)
    scaled = lambda f: f not in ("bf16", "fp16")
    # Exponents near 127 keep products inside fp16 when fp16 is the
    # compute type; 0 (2^-127) and 255 (NaN) are covered separately.
    lo, hi = (124, 131) if "fp16" in (fa, fb) else (110, 140)
    sa = rng.integers(lo, hi + 1, (M, K // 32), dtype=np.uint8) if scaled(fa) else None
    sb = rng.integers(lo, hi + 1, (N, K // 32), dtype=np.uint8) if scaled(fb) else None
    if sa is not None:
        va = va * np.ldexp(1.0, np.repeat(sa.astype(np.int64) - 127, 32, axis=1))
    if sb is not None:
        vb = vb * np.ldexp(1.0, np.repeat(sb.astype(np.int64) - 127, 32, axis=1).T)
    ref = va @ vb + 1.0
    # fp32 accumulation errs relative to the sum of the products' magnitudes.
    scale = np.abs(va) @ np.abs(vb) + 1.0
    return (a, sa, b, sb), (ref, scale)


def check(out, ref):
    ref, scale = ref
    err = np.abs(out.astype(np.float64) - ref)
    assert np.all(err <= 1e-5 * scale), float((err / scale).max())


@pytest.mark.parametrize("fa,fb", PAIRS)
def test_formats_on_the_interpreter(fa, fb):
    (a, sa, b, sb), ref = case(fa, fb)
    out = np.zeros(ref[0].shape, np.float32)
    scaled_dot_kernel[(1,)](a, sa, b, sb, out, 32, 32, 64, fa, fb)
    check(out, ref)


def test_values_are_rounded_to_the_compute_type():
    # e5m2's 57344 times 2^4 overflows fp16, the compute type with an fp16
    # operand: inf on every executor, as Triton's emulation defines it.
    M = N = 32
    K = 64
    a = np.full((M, K), 0x7B, np.uint8)  # e5m2 57344
    sa = np.full((M, K // 32), 131, np.uint8)
    b = np.full((K, N), 0x3C00, np.uint16)  # fp16 1.0
    out = np.zeros((M, N), np.float32)
    scaled_dot_kernel[(1,)](a, sa, b, None, out, M, N, K, "e5m2", "fp16")
    assert np.isinf(out).all()


def test_zero_and_nan_scales():
    (a, sa, b, sb), ref = case("e4m3", "e2m1", seed=3)
    sa[0, 0] = 255       # NaN: row 0 of the product is NaN
    sa[1, :] = 0         # 2^-127: row 1 is the accumulator (plus ~0)
    out = np.zeros(ref[0].shape, np.float32)
    scaled_dot_kernel[(1,)](a, sa, b, sb, out, 32, 32, 64, "e4m3", "e2m1")
    assert np.isnan(out[0]).all()
    assert np.allclose(out[1], 1.0, atol=1e-6)
    check(out[2:], (ref[0][2:], ref[1][2:]))


torch = None
try:
    import torch
except ImportError:
    pass
needs_gpu = pytest.mark.skipif(torch is None or not torch.cuda.is_available(),
                               reason="no CUDA GPU: the GPU lowering of "
                               "dot_scaled runs on the GPU")


@needs_gpu
@pytest.mark.parametrize("fa,fb", PAIRS)
def test_formats_on_the_gpu(fa, fb):
    (a, sa, b, sb), ref = case(fa, fb)
    dev = lambda x: None if x is None else torch.from_numpy(x).cuda()
    out = torch.zeros(ref[0].shape, dtype=torch.float32, device="cuda")
    k = scaled_dot_kernel[(1,)](dev(a), dev(sa), dev(b), dev(sb), out, 32, 32, 64, fa, fb)
    check(out.cpu().numpy(), ref)
    ptx = k.asm["ptx"]
    assert "mma.sync.aligned.m16n8k16" in ptx or "wgmma" in ptx


@triton.jit
def bad_dot_scaled(a_ptr, s_ptr, b_ptr, out_ptr, CASE: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = tl.load(s_ptr + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    if CASE == 0:
        c = tl.dot_scaled(a, s, "e3m3", b, None, "e4m3")
    elif CASE == 1:
        c = tl.dot_scaled(a, s, "e2m1", b, None, "bf16")
    elif CASE == 2:
        c = tl.dot_scaled(a, s.reshape(64), "e2m1", b, None, "e4m3")
    elif CASE == 3:
        c = tl.dot_scaled(a, s, "e4m3", b, None, "e4m3")
    else:
        c = tl.dot_scaled(a, s, "e2m1", b, s, "e4m3", rhs_k_pack=False)
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@pytest.mark.parametrize("case,words", [
    (0, "lhs_format must be one of e2m1, e4m3, e5m2, bf16 or fp16; got 'e3m3'"),
    (1, "rhs in format bf16 must be bfloat16 or its bits as uint16, got uint8"),
    (2, "lhs_scale must have shape [32, K // 32] = [32, 2]"),
    (3, "lhs and rhs pack different K"),
    (4, "rhs_k_pack=False"),
])
def test_bad_operands_are_located_errors(case, words):
    a = np.zeros((32, 32), np.uint8)
    s = np.zeros((32, 2), np.uint8)
    b = np.zeros((64, 32), np.uint8)
    out = np.zeros((32, 32), np.float32)
    with pytest.raises(triton.CompilationError) as info:
        bad_dot_scaled[(1,)](a, s, b, out, case)
    message = str(info.value)
    assert words in message
    # Located at the call of that case, in this file.
    lines = open(__file__).read().splitlines()
    first = lines.index("def bad_dot_scaled(a_ptr, s_ptr, b_ptr, out_ptr, CASE: tl.constexpr):")
    calls = [i + 1 for i in range(first, len(lines)) if "c = tl.dot_scaled(" in lines[i]]
    assert "test_dot_scaled.py:%d:" % calls[case] in message

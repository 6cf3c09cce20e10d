"""tl.inline_asm_elementwise on the GPU, with pack 1, 2, 4 and 8: each asm
statement takes `pack` consecutive (row-major) elements of every argument,
narrow ones packed into 32-bit registers (4 x u8 or 2 x f16 in one b32,
element 0 in the low bits), and returns `pack` elements of each result the
same way. Every case is compared exactly with torch on the host.

Run with the compatibility package on the path (``import triton`` is
tritium) on a machine with an NVIDIA GPU and torch:
    PYTHONPATH=python:python/compat python tests/gpu/check_inline_asm.py
Prints one line per case and exits non-zero when any case fails; without a
usable CUDA device it prints why and exits 0 (the interpreter cannot run
inline PTX). tests/codegen/inline-asm.py compiles these kernels to PTX.
"""

import sys

import triton
import triton.language as tl


# 4 x u8 (one b32) -> 4 x f16 (two b32): y[4i+j] = float(x[4i+j]).
@triton.jit
def u8_to_f16_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.inline_asm_elementwise(
        "{ .reg .b8 b<4>; .reg .b16 h<4>; mov.b32 {b0, b1, b2, b3}, $2; cvt.rn.f16.u8 h0, b0; cvt.rn.f16.u8 h1, b1; cvt.rn.f16.u8 h2, b2; cvt.rn.f16.u8 h3, b3; mov.b32 $0, {h0, h1}; mov.b32 $1, {h2, h3}; }",
        "=r,=r,r", [x], dtype=tl.float16, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y, mask=mask)


# f32, pack 2, two arguments: outputs $0 $1, a's pair $2 $3, b's pair $4 $5.
#   out[2i] = a[2i+1] - b[2i],  out[2i+1] = a[2i] - b[2i+1]
@triton.jit
def sub_pairs_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    out = tl.inline_asm_elementwise("sub.f32 $0, $3, $4; sub.f32 $1, $2, $5;",
                                    "=f,=f,f,f,f,f", [a, b], dtype=tl.float32,
                                    is_pure=True, pack=2)
    tl.store(out_ptr + offs, out)


# Two f16 results, pack 2 (each pair in one b32):
#   c = a with the halves of each pair swapped,  d = a + b
@triton.jit
def f16_pairs_kernel(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c, d = tl.inline_asm_elementwise(
        "prmt.b32 $0, $2, 0, 0x1032; add.rn.f16x2 $1, $2, $3;", "=r,=r,r,r",
        [a, b], dtype=(tl.float16, tl.float16), is_pure=True, pack=2)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


# Mixed widths, pack 4: four u8 in one b32 ($4) and four i32 ($5..$8):
#   out[4i+j] = x[4i+j] * s[4i+j]  (i32)
@triton.jit
def byte_scale_kernel(x_ptr, s_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.load(s_ptr + offs)
    out = tl.inline_asm_elementwise(
        "{ .reg .b32 t; bfe.u32 t, $4, 0, 8; mul.lo.s32 $0, t, $5; bfe.u32 t, $4, 8, 8; mul.lo.s32 $1, t, $6; bfe.u32 t, $4, 16, 8; mul.lo.s32 $2, t, $7; bfe.u32 t, $4, 24, 8; mul.lo.s32 $3, t, $8; }",
        "=r,=r,=r,=r,r,r,r,r,r", [x, s], dtype=tl.int32, is_pure=True, pack=4)
    tl.store(out_ptr + offs, out)


# u8, pack 8 (more than a thread holds by default): two b32 in, two out,
# swapped:  out[8i+j] = x[8i + (j+4) % 8]
@triton.jit
def swap_words_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    out = tl.inline_asm_elementwise("mov.b32 $0, $3; mov.b32 $1, $2;",
                                    "=r,=r,r,r", [x], dtype=tl.uint8,
                                    is_pure=True, pack=8)
    tl.store(out_ptr + offs, out)


# A 2-D tile, f32, pack 4, each run reversed:
#   out.flat[4i+j] = x.flat[4i+3-j]  (row-major runs; with COLS < 4 a run
#   covers several rows)
@triton.jit
def reverse_runs_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    offs = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + offs)
    out = tl.inline_asm_elementwise(
        "mov.b32 $0, $7; mov.b32 $1, $6; mov.b32 $2, $5; mov.b32 $3, $4;",
        "=f,=f,=f,=f,f,f,f,f", [x], dtype=tl.float32, is_pure=True, pack=4)
    tl.store(out_ptr + offs, out)


# pack 1: an i32 in "r" and an f16 in "h".
@triton.jit
def pack1_kernel(x_ptr, h_ptr, out_ptr, hout_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    g = tl.inline_asm_elementwise("neg.f16 $0, $1;", "=h,h", [h],
                                  dtype=tl.float16, is_pure=True, pack=1)
    tl.store(out_ptr + offs, y)
    tl.store(hout_ptr + offs, g)


RESULTS = []


def report(name, got, want):
    got, want = got.cpu(), want.cpu()
    ok = got.shape == want.shape and bool((got == want).all())
    bad = "" if ok else "  (%d of %d differ)" % (int((got != want).sum()), want.numel())
    RESULTS.append(ok)
    print("%-28s %s%s" % (name, "ok" if ok else "FAIL", bad), flush=True)


def run_case(name, fn):
    try:
        fn()
    except Exception as e:  # a compile or launch error fails the case
        RESULTS.append(False)
        print("%-28s FAIL  %s: %s" % (name, type(e).__name__, e), flush=True)


def main():
    try:
        import torch
    except ImportError:
        print("skipped: torch is not installed")
        return 0
    if not torch.cuda.is_available():
        print("skipped: no CUDA device (inline PTX runs only on an NVIDIA GPU)")
        return 0
    from tritium import _capi
    ok, why = _capi.cuda_available()
    if not ok:
        print("skipped: tritium cannot use the CUDA device (%s)" % why)
        return 0
    torch.manual_seed(0)
    dev = "cuda"

    def u8_to_f16():
        n = 1000  # not a multiple of the block: masked lanes too
        x = torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev)
        y = torch.empty(n, dtype=torch.float16, device=dev)
        u8_to_f16_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
        report("u8->f16 pack=4", y, x.to(torch.float16))

    def sub_pairs():
        n = 2048
        a = torch.randn(n, device=dev)
        b = torch.randn(n, device=dev)
        out = torch.empty_like(a)
        sub_pairs_kernel[(n // 512,)](a, b, out, BLOCK=512)
        ap = a.view(-1, 2).flip(1).reshape(-1)  # a[2i+1], a[2i]
        report("f32 pack=2 two args", out, ap - b)

    def f16_pairs():
        n = 1024
        a = torch.randn(n, dtype=torch.float16, device=dev)
        b = torch.randn(n, dtype=torch.float16, device=dev)
        c, d = torch.empty_like(a), torch.empty_like(a)
        f16_pairs_kernel[(n // 128,)](a, b, c, d, BLOCK=128)
        report("f16 pack=2 outputs[0]", c, a.view(-1, 2).flip(1).reshape(-1))
        report("f16 pack=2 outputs[1]", d, a + b)

    def byte_scale():
        n = 4096
        x = torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev)
        s = torch.randint(-1000, 1000, (n,), dtype=torch.int32, device=dev)
        out = torch.empty_like(s)
        byte_scale_kernel[(n // 1024,)](x, s, out, BLOCK=1024)
        report("u8*i32 pack=4 mixed", out, x.to(torch.int32) * s)

    def swap_words():
        n = 2048
        x = torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev)
        out = torch.empty_like(x)
        swap_words_kernel[(n // 256,)](x, out, BLOCK=256)
        want = x.view(-1, 2, 4).flip(1).reshape(-1)
        report("u8 pack=8", out, want)

    def reverse_runs(rows, cols):
        x = torch.randn(rows, cols, device=dev)
        out = torch.empty_like(x)
        reverse_runs_kernel[(1,)](x, out, ROWS=rows, COLS=cols)
        want = x.reshape(-1, 4).flip(1).reshape(rows, cols)
        report("f32 pack=4 [%dx%d]" % (rows, cols), out, want)

    def pack1():
        n = 512
        x = torch.randint(-2 ** 20, 2 ** 20, (n,), dtype=torch.int32, device=dev)
        h = torch.randn(n, dtype=torch.float16, device=dev)
        y, g = torch.empty_like(x), torch.empty_like(h)
        pack1_kernel[(n // 128,)](x, h, y, g, BLOCK=128)
        report("i32 pack=1", y, x * 8)
        report("f16 pack=1 (h)", g, -h)

    run_case("u8->f16 pack=4", u8_to_f16)
    run_case("f32 pack=2 two args", sub_pairs)
    run_case("f16 pack=2 two outputs", f16_pairs)
    run_case("u8*i32 pack=4 mixed", byte_scale)
    run_case("u8 pack=8", swap_words)
    run_case("f32 pack=4 [16x64]", lambda: reverse_runs(16, 64))
    run_case("f32 pack=4 [64x2]", lambda: reverse_runs(64, 2))
    run_case("pack=1", pack1)

    failed = RESULTS.count(False)
    print("\n%d passed, %d failed" % (len(RESULTS) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

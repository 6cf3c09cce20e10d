# Small kernels for the layout-assignment tests (assign-layouts.py): a tile
# loaded column-major and stored row-major, a product accumulated in a loop,
# a row reduction broadcast back.
import triton
import triton.language as tl


@triton.jit
def transpose_copy(X, Y, stride, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(X + offs_m[:, None] + offs_n[None, :] * stride)
    tl.store(Y + offs_m[:, None] * stride + offs_n[None, :], x * 2.0)


@triton.jit
def dot_loop(A, B, C, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + offs_m[:, None] * K + (k + offs_k)[None, :])
        b = tl.load(B + (k + offs_k)[:, None] * BN + offs_n[None, :])
        acc += tl.dot(a, b)
    tl.store(C + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def center_rows(X, Y, N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(X + row * N + offs[None, :] + tl.arange(0, 4)[:, None] * 0)
    mean = tl.sum(x, axis=1) / N
    tl.store(Y + row * N + offs[None, :] + tl.arange(0, 4)[:, None] * 0, x - mean[:, None])

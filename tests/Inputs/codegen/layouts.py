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


@triton.jit
def masked_scores(Q, K, V, O, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # Attention's diagonal block: the scores masked through tl.where with a
    # mask compared from ranges, then P feeding the second product.
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :])
    acc = tl.zeros((BM, D), dtype=tl.float32)
    for start_n in range(0, N, BN):
        k = tl.load(K + (start_n + offs_n)[None, :] * D + offs_d[:, None])
        qk = tl.dot(q, k)
        mask = offs_m[:, None] >= (start_n + offs_n[None, :])
        qk = tl.where(mask, qk, -1.0e6)
        p = tl.math.exp2(qk - tl.max(qk, 1)[:, None])
        v = tl.load(V + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        acc += tl.dot(p.to(tl.float16), v)
    tl.store(O + offs_m[:, None] * D + offs_d[None, :], acc)


@triton.jit
def bias_epilogue(A, B, Bias, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A matmul tile plus a bias row: the bias is loaded where the
    # accumulator's threads need it.
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(A + offs_m[:, None] * BK + offs_k[None, :])
    b = tl.load(B + offs_k[:, None] * BN + offs_n[None, :])
    acc = tl.dot(a, b)
    bias = tl.load(Bias + offs_n)
    acc = acc + bias[None, :]
    tl.store(C + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def load_store_broadcast(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    # x is read, then overwritten, then broadcast: the broadcast must use
    # what was read, so the load is not issued again after the store.
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    x = tl.load(X + m)
    tl.store(X + m, tl.zeros([BM], dtype=tl.float32))
    tl.store(Y + m[:, None] * BN + n[None, :], x[:, None] + n[None, :].to(tl.float32))


@triton.jit
def rows_in_loop(A, B, M, C, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A column of row maxima loaded before the loop and subtracted from
    # every product in it (attention's backward does this with its
    # log-sum-exp rows).
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(A + offs_m[:, None] * BK + offs_k[None, :])
    m = tl.load(M + offs_m)[:, None]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(K):
        b = tl.load(B + k * BK * BN + offs_k[:, None] * BN + offs_n[None, :])
        acc += tl.exp2(tl.dot(a, b) - m)
    tl.store(C + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def bias_mod_epilogue(A, B, Bias, C, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The bias row at columns wrapped with `% N` (03's style): the
    # remainders are not recomputed per register of the accumulator's
    # rows; the row moves to them instead.
    offs_m = tl.arange(0, BM)
    offs_n = (tl.program_id(0) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a = tl.load(A + offs_m[:, None] * BK + offs_k[None, :])
    b = tl.load(B + offs_k[:, None] * BN + offs_n[None, :])
    acc = tl.dot(a, b)
    bias = tl.load(Bias + offs_n)
    acc = acc + bias[None, :]
    tl.store(C + offs_m[:, None] * BN + tl.arange(0, BN)[None, :], acc)

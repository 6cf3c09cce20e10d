import triton
import triton.language as tl


@triton.jit
def aliased(A, B, S, C, n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A running scale per K block, read in the loop and rescaled in place.
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, n, BK):
        a = tl.load(A + rm[:, None] * n + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        s = tl.load(S + k + rk)
        acc += tl.dot((a * s[None, :]).to(tl.float16), b)
        tl.store(S + k + BK + rk, s * 0.5)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)

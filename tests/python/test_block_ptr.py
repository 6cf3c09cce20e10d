"""Block pointers (tl.make_block_ptr / tl.advance) carried through loops and
branches, on numpy arrays against numpy references."""

import numpy as np

import triton
import triton.language as tl


@triton.jit
def matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm,
                     scn, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pid_m * BM, 0),
                             (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN),
                             (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (scm, scn),
                             (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))


@triton.jit
def shifted_copy(x_ptr, y_ptr, n, shift, BLOCK: tl.constexpr):
    src = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (BLOCK,), (0,))
    if shift > 0:
        src = tl.advance(src, (shift,))
    v = tl.load(src, boundary_check=(0,), padding_option="zero")
    dst = tl.make_block_ptr(y_ptr, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.store(dst, v, boundary_check=(0,))


def test_block_pointers_advance_across_loop_iterations():
    rng = np.random.default_rng(0)
    M, N, K = 100, 70, 45
    a = rng.standard_normal((M, K), dtype=np.float32)
    b = rng.standard_normal((K, N), dtype=np.float32)
    c = np.zeros((M, N), np.float32)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    matmul_block_ptr[grid](a, b, c, M, N, K, K, 1, N, 1, N, 1, BM=32, BN=32,
                           BK=16)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(c - ref).max() < 1e-4


def test_block_pointer_advanced_in_one_branch():
    x = np.arange(64, dtype=np.float32)
    for shift, want in ((0, x), (5, np.concatenate([x[5:], np.zeros(5)]))):
        y = np.full(64, -1.0, np.float32)
        shifted_copy[(1,)](x, y, 64, shift, BLOCK=64)
        np.testing.assert_array_equal(y, want.astype(np.float32))

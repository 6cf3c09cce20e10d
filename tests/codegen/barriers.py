# Barriers before writes to the staging area (layout conversions through
# shared memory, values broadcast from one thread) are emitted only where
# some thread may have accessed the area since the last barrier on some
# path: never at the kernel's start, always between two conversions.
# RUN: tritium compile %s --kernel two_moves --signature "*fp32:16,*fp32:16,*fp32:16,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=MOVES
# MOVES-LABEL: .entry two_moves
# MOVES-NOT: bar.sync
# MOVES: st.shared
# MOVES: bar.sync
# MOVES: ld.shared
# MOVES: bar.sync
# MOVES-NEXT: st.shared
# MOVES: bar.sync
# MOVES: ld.shared
#
# A flattened persistent matmul: the loop's barrier after each wgmma wait
# already separates the previous tile's epilogue reads from this tile's
# writes, so the epilogue writes the accumulator right after its wait.
# RUN: tritium compile %s --kernel persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64,132" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=EPI
# EPI: wgmma.wait_group.sync.aligned 1;
# EPI-NEXT: // end inline asm
# EPI-NEXT: bar.sync
# EPI: wgmma.wait_group.sync.aligned 0;
# EPI-NOT: bar.sync
# EPI: stmatrix
import triton
import triton.language as tl


@triton.jit
def two_moves(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + r[None, :])
    tl.store(y_ptr + r[:, None] * N + r[None, :], tl.trans(x))
    tl.store(z_ptr + r[:, None] * N + r[None, :], tl.trans(x + 1))


@triton.jit
def persistent(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(pid, num_tiles, NUM_SMS, flatten=True):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

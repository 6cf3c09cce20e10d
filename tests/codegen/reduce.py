# Reductions across warps go through shared memory, one row of partials
# per warp along the axis, each value at a position made of the bits of
# the thread that tell the results apart (lanes lowest): for one register
# the lanes of a warp store to consecutive words.
#
# Column sums of a tile whose rows span the 4 warps (128 columns, one lane
# each, 4 registers): every column's total is wanted by the 4 warps, so
# each thread combines one column's 4 partials and stores its total, and
# after a second barrier every thread reads the totals of its 4 columns
# (8 loads, where reading the 4 partials of each of its columns would take
# 16).
# RUN: tritium compile %s --kernel colsum --signature "*fp32:16,*fp32:16,64,128" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=COLS
# COLS-LABEL: .entry colsum
# COLS-COUNT-4: st.shared.b32
# COLS-NEXT: bar.sync
# COLS-COUNT-4: ld.shared.b32
# COLS: st.shared.b32
# COLS-NEXT: bar.sync
# COLS-COUNT-4: ld.shared.b32
# COLS: ret;
#
# A total over the whole tile: one partial per warp, which every thread
# reads (one vector load), no second round.
# RUN: tritium compile %s --kernel total --signature "*fp32:16,*fp32:16,64,128" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=TOTAL
# TOTAL-LABEL: .entry total
# TOTAL: st.shared.b32
# TOTAL-NEXT: bar.sync
# TOTAL-NEXT: ld.shared.v4.b32
# TOTAL-NOT: bar.sync
# TOTAL: ret;
#
# A long combine (Welford's mean and variance, with a division) over 8
# warps: each warp's 3 partials are read by 8 lanes of one warp, combined
# by 3 rounds of shuffles (3 values each), and the row-0 lane stores the
# total: a chain of 3 combines where reading every row would make it 7.
# RUN: tritium compile %s --kernel welford --signature "*fp32:16,*fp32:16,*fp32:16,4096" --target cuda:90 --num-warps 8 --emit ptx | FileCheck %s --check-prefix=TREE
# TREE-LABEL: .entry welford
# TREE-COUNT-3: st.shared.b32
# TREE-NEXT: bar.sync
# TREE-COUNT-3: ld.shared.b32
# TREE-COUNT-3: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
# TREE: div.full.f32
# TREE-COUNT-3: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
# TREE: div.full.f32
# TREE-COUNT-3: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# TREE: div.full.f32
# TREE: @%p{{[0-9]+}} bra
# TREE-COUNT-3: st.shared.b32
# TREE: bar.sync
# TREE-COUNT-3: ld.shared.b32
# TREE: ret;
import triton
import triton.language as tl


@triton.jit
def colsum(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(out_ptr + rn, tl.sum(x, axis=0))


@triton.jit
def total(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(out_ptr, tl.sum(tl.sum(x, axis=1), axis=0))


@triton.jit
def _welford(m1, v1, c1, m2, v2, c2):
    c = c1 + c2
    d = m2 - m1
    frac = tl.where(c == 0, 0.0, c2 / tl.where(c == 0, 1.0, c))
    return m1 + d * frac, v1 + v2 + d * d * c1 * frac, c


@triton.jit
def welford(x_ptr, mean_ptr, var_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    m, m2, c = tl.reduce((x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32)), 0, _welford)
    tl.store(mean_ptr, m)
    tl.store(var_ptr, m2 / c)

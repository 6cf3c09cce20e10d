# Scans run in the source's layout when its axis goes registers, lanes,
# warps, registers from the lowest bit up: prefixes within each thread,
# butterfly shuffles of the threads' totals over the lane bits, the warps'
# totals through shared memory, then the register chunks in order. A
# 1-D cumsum of 1024 elements on 4 warps (4 per thread, two chunks) stays
# in its blocked layout and never holds the whole axis in one thread.
# RUN: tritium compile %s --kernel cumsum1d --signature "*fp32:16,*fp32:16,1024,0" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=LAYOUT
# LAYOUT: #blocked = #tgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# LAYOUT: tile.scan
# LAYOUT: tensor<1024xf32, #blocked>
# LAYOUT-NOT: tgpu.convert_layout
#
# RUN: tritium compile %s --kernel cumsum1d --signature "*fp32:16,*fp32:16,1024,0" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PTX
# PTX-LABEL: .entry cumsum1d
# PTX: add.f32
# PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# PTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
# PTX: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
# PTX: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
# PTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# PTX: bar.sync
# PTX: st.shared
# PTX: bar.sync
# PTX: ld.shared.v4.b32
# PTX-NOT: bar.sync
# PTX: st.global.v4.b32
#
# Reversed, along the rows of a 2-D tile whose columns spread over lanes:
# the same shuffles, and no shared memory when no warp spans the axis.
# RUN: tritium compile %s --kernel cumsum2d --signature "*fp32:16,*fp32:16,8,128,1" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=ROWS
# ROWS-LABEL: .entry cumsum2d
# ROWS: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# ROWS: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# ROWS-NOT: bar.sync
# ROWS-NOT: st.shared
# ROWS: st.global
#
# A combine that does not commute (a linear recurrence) on AMD's 64-lane
# waves: the lanes' totals move by cross-lane permutes, not LDS stores.
# RUN: tritium compile %s --kernel linrec --signature "*fp32:16,*fp32:16,*fp32:16,64" --target hip:gfx942 --num-warps 1 --emit amdgcn | FileCheck %s --check-prefix=AMD
# AMD-LABEL: linrec:
# AMD: ds_bpermute_b32
# AMD-NOT: ds_write
# AMD: global_store
import triton
import triton.language as tl


@triton.jit
def cumsum1d(x_ptr, y_ptr, N: tl.constexpr, REV: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(y_ptr + r, tl.cumsum(tl.load(x_ptr + r), 0, reverse=REV))


@triton.jit
def cumsum2d(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, REV: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 1, reverse=REV))


@triton.jit
def _step(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def linrec(a_ptr, b_ptr, h_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    _, h = tl.associative_scan((tl.load(a_ptr + r), tl.load(b_ptr + r)), 0, _step)
    tl.store(h_ptr + r, h)

# Vector widths of global accesses: 16 bytes per thread for 8- and 16-bit
# tiles (the default layouts are made for the narrowest such access), and
# along the first dimension when memory runs down the columns (the access
# takes a layout with that dimension fastest).
import triton
import triton.language as tl


# Row-major fp16: eight halves per thread, one v4.b32 each way.
# RUN: tritium compile %s --kernel copy_tile --signature "*fp16:16,*fp16:16,i32:16,1,i32:16,1,64,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=ROWS
# ROWS-LABEL: .entry copy_tile(
# ROWS: ld.global.v4.b32
# ROWS: st.global.v4.b32
# ROWS-NOT: ld.global.b16

# Column-major source (stride 1 down a column): still 16-byte loads.
# RUN: tritium compile %s --kernel copy_tile --signature "*fp16:16,*fp16:16,1,i32:16,i32:16,1,64,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=COLS
# COLS-LABEL: .entry copy_tile(
# COLS: ld.global.v4.b32
# COLS-NOT: ld.global.b16
# COLS: st.global.v4.b32

# int8, both ways: sixteen bytes per thread.
# RUN: tritium compile %s --kernel copy_tile --signature "*u8:16,*u8:16,1,i32:16,1,i32:16,64,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=BYTES
# BYTES-LABEL: .entry copy_tile(
# BYTES: ld.global.v4.b32
# BYTES-NOT: ld.global.b8
# BYTES: st.global.v4.b32
# BYTES-NOT: st.global.b8
@triton.jit
def copy_tile(X, Y, sxm, sxn, sym, syn, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    x = tl.load(X + m[:, None] * sxm + n[None, :] * sxn)
    tl.store(Y + m[:, None] * sym + n[None, :] * syn, x)


# A masked load with `other`: the destination registers start out holding
# `other` (1.5 as two halves per word) and one predicated v4 load overwrites
# them; no select per element follows.
# RUN: tritium compile %s --kernel masked_copy --signature "*fp16:16,*fp16:16,i32:16,1024" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=OTHER
# OTHER-LABEL: .entry masked_copy(
# OTHER: mov.b32 %r[[W:[0-9]+]], 1040203264;
# OTHER: @%p[[P:[0-9]+]] ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r[[W]]}, [%rd{{[0-9]+}}];
# OTHER-NOT: selp
# OTHER: @%p[[P]] st.global.v4.b32
@triton.jit
def masked_copy(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=1.5)
    tl.store(Y + offs, x, mask=offs < n)


# A mask that is constant in runs (offsets from a multiple of BLOCK against
# a bound divisible by 16) is compared once per run of four elements, for
# the load, the where and the store alike: two compares for the two runs
# each thread holds.
# RUN: tritium compile %s --kernel masked_where --signature "*fp32:16,*fp32:16,i32:16,1024" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=RUNS
# RUNS-LABEL: .entry masked_where(
# RUNS-COUNT-2: setp.lt.s32
# RUNS-NOT: setp.lt.s32
# RUNS: ret;
@triton.jit
def masked_where(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.)
    tl.store(Y + offs, tl.where(offs < n, x * x, 1.0), mask=offs < n)


# Wider stores in a kernel of narrower elements: the fresh layouts hold 16
# fp8 per thread, 32 bytes as fp16; the store takes 8 halves per thread with
# the lanes next to each other, so each v4 store covers 512 contiguous bytes
# per warp (not every other 16 bytes of 32-byte runs).
# RUN: tritium compile %s --kernel widen --signature "*fp8e4nv:16,*fp16:16,32,256" --target cuda:90 --num-warps 4 --emit tile-gpu | FileCheck %s --check-prefix=WIDEN
# WIDEN-DAG: #[[NARROW:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 16]
# WIDEN-DAG: #[[WIDE:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32]
# WIDEN: tile.load {{.*}} : tensor<32x256x!tile.ptr<f8E4M3FN>, #[[NARROW]]>
# WIDEN: tile.store {{.*}} : tensor<32x256x!tile.ptr<f16>, #[[WIDE]]>
@triton.jit
def widen(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(Y + offs, tl.load(X + offs).to(tl.float16))


# Pointer tiles carried by a loop (advanced each iteration, as tutorial
# matmuls advance a_ptrs/b_ptrs) whose memory runs down the columns: the
# loop carries them in the layout their accesses run widest in, so the
# loads in the loop are 16 bytes per thread too (without pipelining, and
# on AMD), and the store through a carried tile as well.
# RUN: tritium compile %s --kernel carried_cols --signature "*fp16:16,*fp16:16,i32:16,i32:16,i32,64,64" --target cuda:80 --num-stages 1 --emit ptx | FileCheck %s --check-prefix=CARRIED
# CARRIED-LABEL: .entry carried_cols(
# CARRIED-NOT: ld.global.b16
# CARRIED: ld.global.v4.b32
# CARRIED-NOT: ld.global.b16
# CARRIED: st.global.v4.b32
# CARRIED-NOT: st.global.b16
# RUN: tritium compile %s --kernel carried_cols --signature "*fp16:16,*fp16:16,i32:16,i32:16,i32,64,64" --target hip:gfx942 --num-stages 1 --emit amdgcn | FileCheck %s --check-prefix=CARRIED-AMD
# CARRIED-AMD-NOT: global_load_ushort
# CARRIED-AMD: global_load_dwordx4
# CARRIED-AMD-NOT: global_load_ushort
# CARRIED-AMD-NOT: global_store_short
# RUN: tritium compile %s --kernel carried_cols --signature "*fp16:16,*fp16:16,i32:16,i32:16,i32,64,64" --target cuda:90 --num-stages 1 --emit tile-gpu | FileCheck %s --check-prefix=CARRIED-GPU
# CARRIED-GPU: #[[LAY:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [8, 1]{{.*}}order = [0, 1]}>
# CARRIED-GPU: scf.for {{.*}} -> (tensor<64x64x!tile.ptr<f16>, #[[LAY]]>, tensor<64x64x!tile.ptr<f16>, #[[LAY]]>)
@triton.jit
def carried_cols(X, Y, sx, sy, steps, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    xp = X + m[:, None] + n[None, :] * sx
    yp = Y + m[:, None] + n[None, :] * sy
    for i in range(steps):
        x = tl.load(xp)
        tl.store(yp, x * 2.0)
        xp += BM
        yp += BM


# Rotary embedding: the column range is shared with the 1-D loads of the
# cos/sin rows (one element a thread), and the second half of each head is
# reached by adding D // 2 to the pointers. Both halves still load and
# store 16 bytes a thread: pointers laid out narrower than memory allows
# are recomputed in a layout as wide as it allows. The cos and sin rows,
# each read by both halves, are loaded once each where the products need
# them (8 floats a thread, two v4 loads): no round trip through shared
# memory.
# RUN: tritium compile %s --kernel rope --signature "*fp16:16,*fp32:16,*fp32:16,*fp16:16,i32:16,i32:16,128,32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=ROPE
# ROPE-LABEL: .entry rope(
# ROPE-NOT: st.shared
# ROPE-COUNT-8: ld.global.v4.b32
# ROPE-NOT: ld.global
# ROPE-NOT: st.shared
# ROPE-COUNT-4: st.global.v4.b32
# ROPE-NOT: st.global
@triton.jit
def rope(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, D: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0)
    pos = t % S
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, D // 2)
    base = x_ptr + t * H * D + h[:, None] * D + d[None, :]
    x1 = tl.load(base).to(tl.float32)
    x2 = tl.load(base + D // 2).to(tl.float32)
    c = tl.load(cos_ptr + pos * (D // 2) + d)[None, :]
    s = tl.load(sin_ptr + pos * (D // 2) + d)[None, :]
    o = out_ptr + t * H * D + h[:, None] * D + d[None, :]
    tl.store(o, (x1 * c - x2 * s).to(tl.float16))
    tl.store(o + D // 2, (x2 * c + x1 * s).to(tl.float16))


# A 16-bit tile transposed with tl.trans and stored along its rows: the
# tile goes through shared memory column by column (one st.shared.v4 per
# run of 8 the load gave each thread) and comes back with ldmatrix.trans
# as the store wants it (8 consecutive elements a thread, 4 lanes across
# 32 columns): no access of one element at a time on either side. Before
# sm_90 too (ldmatrix is sm_75's).
# RUN: tritium compile %s --kernel transpose --signature "*fp16:16,*fp16:16,i32:16,i32:16,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=TRANS
# RUN: tritium compile %s --kernel transpose --signature "*bf16:16,*bf16:16,i32:16,i32:16,64" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=TRANS
# TRANS-LABEL: .entry transpose(
# TRANS-COUNT-4: ld.global.v4.b32
# TRANS-COUNT-4: st.shared.v4.b32
# TRANS: bar.sync
# TRANS-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# TRANS-COUNT-4: st.global.v4.b32
# TRANS-NOT: st.shared.b16
# TRANS-NOT: ld.shared
# The store's layout: 8 columns a thread, lanes 4 across and 8 down.
# RUN: tritium compile %s --kernel transpose --signature "*fp16:16,*fp16:16,i32:16,i32:16,64" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=TRANSL
# TRANSL: #[[T:linear[0-9]*]] = #tgpu.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 32], [32, 0]], lane = {{\[\[}}0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}8, 0], [16, 0]]}>
# TRANSL: tile.store {{.*}} : tensor<64x64x!tile.ptr<f16>, #[[T]]>
# Rows of unknown length (no 16-byte runs to store): the plain staging.
# RUN: tritium compile %s --kernel transpose --signature "*fp16:16,*fp16:16,i32,i32,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=TRANSU
# TRANSU-NOT: ldmatrix
@triton.jit
def transpose(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
    rm = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rn = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))


# Two transpositions in a row: the second one's staging writes wait at a
# barrier for the first one's ldmatrix reads.
# RUN: tritium compile %s --kernel transpose_twice --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=TWICE
# TWICE-LABEL: .entry transpose_twice(
# TWICE: st.shared.v4.b32
# TWICE: bar.sync
# TWICE: ldmatrix.sync.aligned.m8n8.x4.trans
# TWICE: bar.sync
# TWICE: st.shared.v4.b32
# TWICE: bar.sync
# TWICE: ldmatrix.sync.aligned.m8n8.x4.trans
@triton.jit
def transpose_twice(x_ptr, y_ptr, z_ptr, M, N, BLOCK: tl.constexpr):
    rm = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rn = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))
    tl.store(z_ptr + rn[:, None] * M + rm[None, :], tl.trans(x * 2))

# 08-grouped-gemm's kernel: pointers loaded from memory, made 16-aligned by
# `tl.multiple_of(a_ptrs, [16, 16])` statements (results dropped) on the
# loop-carried pointers. The hints hold for the pointers themselves, so the
# loads become 16-byte cp.async copies into the pipeline's slots feeding
# wgmma (scalar 2-byte loads otherwise).
# RUN: tritium compile %s --kernel grouped_matmul_kernel --signature "*u64:16,*u64:16,*u64:16,*i32:16,*i32:16,i32,132,128,128,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s
# CHECK-LABEL: .entry grouped_matmul_kernel(
# CHECK-NOT: ld.global.b16
# CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16
# CHECK: wgmma.mma_async
# CHECK-NOT: ld.global.b16

# C's pointer and leading dimension come from memory too, so its stores are
# one element each: the accumulator moves (through shared memory) to one
# element a thread with the lanes of a warp on consecutive columns, so that
# each store instruction writes 64 contiguous bytes (lanes 16 bytes apart,
# eight elements a thread, otherwise).
# RUN: tritium compile %s --kernel grouped_matmul_kernel --signature "*u64:16,*u64:16,*u64:16,*i32:16,*i32:16,i32,132,128,128,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=STORE
# STORE-DAG: #[[ST:linear[0-9]*]] = #tgpu.linear<{register = {{.*}}, lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp
# STORE-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 3
# STORE: %[[C:.*]] = tgpu.convert_layout %{{.*}} : tensor<128x128xf16, #[[MMA]]> -> tensor<128x128xf16, #[[ST]]>
# STORE: tile.store %{{.*}}, %[[C]] : tensor<128x128x!tile.ptr<f16>, #[[ST]]>
import triton
import triton.language as tl


@triton.jit
def grouped_matmul_kernel(
    group_a_ptrs, group_b_ptrs, group_c_ptrs,
    group_gemm_sizes, g_lds, group_size,
    NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_k = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :]
            tl.store(c_ptrs, c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles

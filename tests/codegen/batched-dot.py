# Batched (3-D) products on tensor cores, as Triton runs them: warps over
# the batch first (up to one an entry), the rest over (M, N); each warp
# computes its entries one after the other as 2-D mma.sync products, the
# operands staged flattened ([batch * rows, cols], swizzled) and read with
# ldmatrix. Batch entries past the warps repeat in registers.
#
# 4 x 64x64x64 fp16 on 4 warps: a warp an entry, 4 m16 x 8 n8 tiles x 4
# k-steps = 128 products, no FMA fallback.
# RUN: tritium compile %s --kernel bmm --signature "*fp16:16,*fp16:16,*fp32:16,4,64,64,64" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=LAYOUT
# LAYOUT: #mma = #tgpu.mma<{version = 2, warpsPerCTA = [4, 1, 1]}>
# LAYOUT: tile.dot {{.*}} : tensor<4x64x64xf16, #shared> * tensor<4x64x64xf16, #shared> -> tensor<4x64x64xf32, #mma>
# RUN: tritium compile %s --kernel bmm --signature "*fp16:16,*fp16:16,*fp32:16,4,64,64,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=F16
# RUN: tritium compile %s --kernel bmm --signature "*fp16:16,*fp16:16,*fp32:16,4,64,64,64" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=F16
# F16-LABEL: .entry bmm(
# F16-NOT: fma.rn
# F16: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# F16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# F16-COUNT-128: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# F16-NOT: mma.sync
# F16-NOT: fma.rn
# F16: ret;
#
# 8 entries on 4 warps: two an warp, in registers; 16x32x16: 4 products each.
# RUN: tritium compile %s --kernel bmm --signature "*bf16:16,*bf16:16,*fp32:16,8,16,32,16" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=REPEAT
# REPEAT: #mma = #tgpu.mma<{version = 2, warpsPerCTA = [4, 1, 1]}>
# RUN: tritium compile %s --kernel bmm --signature "*bf16:16,*bf16:16,*fp32:16,8,16,32,16" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=REPEATPTX
# REPEATPTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# REPEATPTX-NOT: mma.sync
#
# Fewer entries than warps: 2 entries on 8 warps, 4 warps over each
# 64x32 tile (all along M).
# RUN: tritium compile %s --kernel bmm --signature "*i8:16,*i8:16,*i32:16,2,64,32,128" --num-warps 8 --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=SPLIT
# SPLIT: #mma = #tgpu.mma<{version = 2, warpsPerCTA = [2, 4, 1]}>
# int8: m16n8k32, 1 m16 x 4 n8 tiles x 4 k-steps a warp.
# RUN: tritium compile %s --kernel bmm --signature "*i8:16,*i8:16,*i32:16,2,64,32,128" --num-warps 8 --target cuda:90 --emit ptx | FileCheck %s --check-prefix=I8
# I8-COUNT-16: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
# I8-NOT: mma.sync
#
# fp32 operands at tf32 precision (tl.dot's default): m16n8k8.
# RUN: tritium compile %s --kernel bmm --signature "*fp32:16,*fp32:16,*fp32:16,4,32,16,64" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=TF32
# TF32-NOT: fma.rn
# TF32-COUNT-32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# TF32-NOT: mma.sync
#
# A batched accumulator carried through a loop keeps its layout; its
# operands are copied ahead into the pipeliner's slots (flattened, as
# staged tiles are) and read there in place; a row sum of it reduces in its
# slice.
# RUN: tritium compile %s --kernel bmm_loop --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,4,32,32,32,128" --target cuda:90 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=LOOP
# LOOP: tgpu.async_copy {{.*}} {buffer = 0 : i64, numSlots = 3 : i64} : tensor<4x32x32x!tile.ptr<f16>
# LOOP: tgpu.async_copy {{.*}} {buffer = 1 : i64, numSlots = 3 : i64} : tensor<4x32x32x!tile.ptr<f16>
# LOOP: scf.for {{.*}} -> (tensor<4x32x32xf32, #mma>
# LOOP: tgpu.shared_load {{.*}} {buffer = 0 : i64} : tensor<4x32x32xf16, #shared>
# LOOP: tgpu.shared_load {{.*}} {buffer = 1 : i64} : tensor<4x32x32xf16, #shared>
# LOOP: tile.dot {{.*}} : tensor<4x32x32xf16, #shared> * tensor<4x32x32xf16, #shared> -> tensor<4x32x32xf32, #mma>
# LOOP: tile.reduce
# LOOP: } : (tensor<4x32x32xf32, #mma>) -> tensor<4x32xf32,
import triton
import triton.language as tl


@triton.jit
def bmm(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
        K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb * M * K + rm * K + rk[None, None, :])
    b = tl.load(b_ptr + rb * K * N + rk[None, :, None] * N + rn)
    tl.store(c_ptr + rb * M * N + rm * N + rn, tl.dot(a, b))


@triton.jit
def bmm_loop(a_ptr, b_ptr, c_ptr, s_ptr, B: tl.constexpr, M: tl.constexpr,
             N: tl.constexpr, BK: tl.constexpr, K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, BK)
    acc = tl.zeros((B, M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rb * M * K + rm * K + k0 + rk[None, None, :])
        b = tl.load(b_ptr + rb * K * N + (k0 + rk[None, :, None]) * N + rn)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rb * M * N + rm * N + rn, acc)
    tl.store(s_ptr + tl.arange(0, B)[:, None] * M + tl.arange(0, M)[None, :],
             tl.sum(acc, axis=2))

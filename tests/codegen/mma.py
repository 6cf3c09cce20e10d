# Products on tensor cores: fp32 operands with tf32 precision use
# mma.sync.m16n8k8 on operands rounded to tf32 (one product per tile), tf32x3
# three products of big and small parts, ieee stays on the FMA units.
# A 32x32x16 tile on 4 warps: each warp owns 16x16 (two m16n8 tiles), two
# k-steps of 8: 4 products.

# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,\"tf32\",32,32,16" --target cuda:80 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=TF32
# TF32-COUNT-4: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# TF32-NOT: mma.sync

# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,\"tf32x3\",32,32,16" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=TF32X3
# TF32X3-COUNT-12: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# TF32X3-NOT: mma.sync

# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,\"ieee\",32,32,16" --target cuda:80 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=IEEE
# IEEE-NOT: mma.sync
# IEEE: fma.rn.f32

# fp16 operands: m16n8k16, A and B read with ldmatrix (B transposed).
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,\"ieee\",32,32,16" --target cuda:80 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=FP16
# FP16: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# FP16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# FP16-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

# fp64 on DMMA: m16n8k16 on sm_90 (64x64x32 on 2x2 warps: 2 m16 x 4 n8
# tiles x 2 k-steps a warp), each m16n8k4 step as two m8n8k4 on sm_80.
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp64:16,*fp64:16,*fp64:16,\"ieee\",64,64,32" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=F64
# F64-NOT: fma.rn.f64
# F64-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64
# F64-NOT: mma.sync
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp64:16,*fp64:16,*fp64:16,\"ieee\",64,64,32" --target cuda:80 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=F64SM80
# F64SM80-NOT: fma.rn.f64
# F64SM80-COUNT-128: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
# F64SM80-NOT: mma.sync

# In a loop, fp64 operands are copied ahead into the pipeliner's slots (16
# bytes a lane, lanes side by side: whole sectors each cp.async), rows
# padded to 4 mod 16 doubles, and read there in place. The next stage's
# copies are issued after the products, once their fragments are read.
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_loop_kernel --signature "*fp64:16,*fp64:16,*fp64:16,i32:16,64,64,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=F64LOOP
# F64LOOP-DAG: #[[A:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
# F64LOOP-DAG: #[[B:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
# F64LOOP-DAG: #[[S:shared[0-9]*]] = #tgpu.shared<{swizzle = 0, pad = 4, transposed = false}>
# F64LOOP: tgpu.async_copy {{.*}} : tensor<64x32x!tile.ptr<f64>, #[[A]]>
# F64LOOP: tgpu.async_copy {{.*}} : tensor<32x64x!tile.ptr<f64>, #[[B]]>
# F64LOOP: tgpu.shared_load {{.*}} : tensor<64x32xf64, #[[S]]>
# F64LOOP: tgpu.shared_load {{.*}} : tensor<32x64xf64, #[[S]]>
# F64LOOP: tile.dot
# F64LOOP: tgpu.async_copy
# F64LOOP: tgpu.async_copy
# F64LOOP-NEXT: tgpu.async_commit
# F64LOOP: scf.yield
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_loop_kernel --signature "*fp64:16,*fp64:16,*fp64:16,i32:16,64,64,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=F64LOOPPTX
# F64LOOPPTX-NOT: ld.global
# F64LOOPPTX: cp.async.cg.shared.global
# F64LOOPPTX: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64

# Before sm_80 every product is on the FMA units.
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,\"tf32\",32,32,16" --target cuda:75 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=SM75
# SM75-NOT: mma.sync

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

# Before sm_80 every product is on the FMA units.
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,\"tf32\",32,32,16" --target cuda:75 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=SM75
# SM75-NOT: mma.sync

# The order of a wgmma group's instructions. By default k is outermost:
# consecutive instructions write different parts of the accumulator (a
# matmul's 128x128 tile on one warpgroup: two m64 parts, alternating).
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,64,8,\"\"" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=MM
# MM: wgmma.fence.sync.aligned;
# MM-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[A:[0-9]+]],
# MM-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[B:[0-9]+]],
# MM-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[A]],
# MM-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[B]],
#
# Attention with 128x128 blocks on one warpgroup: Q K^T's 128 registers per
# thread sit beside the P V sum's 128, carried to the next iteration, and
# P V's beside P's 64 in registers. Each part then takes all its k steps
# before the next starts (interleaved, ptxas spilled three times as much).
# RUN: tritium compile %S/../Inputs/codegen/attention_desc.py --kernel attn --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32:16,fp32,128,128,128,False" --target cuda:90 --num-warps 4 --num-stages 2 --emit ptx | FileCheck %s --check-prefix=ATTN
# ATTN: wgmma.fence.sync.aligned;
# ATTN-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[S0:[0-9]+]],
# ATTN-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[S0]],
# ATTN-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[S1:[0-9]+]],
# ATTN-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[S1]],
# ATTN-NEXT: wgmma.commit_group.sync.aligned;
# ATTN: wgmma.fence.sync.aligned;
# ATTN-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[O0:[0-9]+]], {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
# ATTN-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[O0]],
# ATTN-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[O1:[0-9]+]],
# ATTN-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r[[O1]],
# ATTN-NEXT: wgmma.commit_group.sync.aligned;

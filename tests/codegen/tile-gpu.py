# The tile-gpu stage is tgpu IR after layout assignment and conversion
# removal: every tensor value's type carries the layout the code generator
# emits it in, tiles that tensor cores read in place carry a #tgpu.shared
# encoding, and the moves between layouts that remain are
# tgpu.convert_layout ops. The stage parses back through tile-opt.

# Matmul on sm_90: a wgmma accumulator over 8 warps (2 warpgroups along M),
# both operands read in place from 128-byte swizzled cp.async slots, the
# product's group left in flight across one iteration.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,64,8,leaky_relu" --target cuda:90 --num-warps 8 --num-stages 3 --emit tile-gpu | tile-opt | FileCheck %s --check-prefix=SM90
# SM90-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 3, warpsPerCTA = [8, 1]}>
# SM90-DAG: #[[SH:shared[0-9]*]] = #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>
# SM90-DAG: #[[ST:linear[0-9]*]] = #tgpu.linear<{register = {{.*}}, lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp
# SM90-LABEL: func.func @matmul_kernel
# SM90: tgpu.async_copy {{.*}}buffer = 0
# SM90: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #[[MMA]]>
# SM90: scf.for {{.*}}iter_args(%[[ACC:.*]] = %[[ZERO]]
# SM90: %[[A:.*]] = tgpu.shared_load slot %{{.*}} {buffer = 0 : i64} : tensor<128x64xf16, #[[SH]]>
# SM90: %[[B:.*]] = tgpu.shared_load slot %{{.*}} {buffer = 1 : i64} : tensor<64x128xf16, #[[SH]]>
# SM90: %[[G:.*]] = tgpu.wgmma %[[A]], %[[B]], %[[ACC]] : tensor<128x64xf16, #[[SH]]>, tensor<64x128xf16, #[[SH]]> -> tensor<128x128xf32, #[[MMA]]>
# SM90-NEXT: tgpu.wgmma_wait %[[G]] {pending = 1 : i64} : tensor<128x128xf32, #[[MMA]]>
# The epilogue's one move: the product's result into the store's layout
# (pointers and masks are computed there, not moved). N is not known to be
# a multiple of 16, so the mask allows one element per access: one element
# a thread, the lanes of a warp on 32 consecutive columns (#ST above).
# SM90: %[[OUT:.*]] = tgpu.convert_layout %{{.*}} : tensor<128x128xf16, #[[MMA]]> -> tensor<128x128xf16, #[[ST]]>
# SM90: tile.store %{{.*}}, %[[OUT]], %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[ST]]>
# SM90-NOT: tgpu.convert_layout

# The same on sm_80: an mma.sync accumulator, warps 4 x 2.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,64,8,leaky_relu" --target cuda:80 --num-warps 8 --num-stages 3 --emit tile-gpu | tile-opt | FileCheck %s --check-prefix=SM80
# SM80-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 2, warpsPerCTA = [4, 2]}>
# SM80-LABEL: func.func @matmul_kernel
# SM80: tile.dot {{.*}} -> tensor<128x128xf32, #[[MMA]]>

# Tensor descriptors on sm_90: TMA copies into the slots, one mbarrier ring.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_desc --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit tile-gpu | tile-opt | FileCheck %s --check-prefix=TMA
# TMA-LABEL: func.func @mm_desc
# TMA: tgpu.mbarrier_init {barrier = [[RING:[0-9]+]] : i64, count = 2 : i64, numSlots = 3 : i64}
# TMA: tgpu.tma_copy {{.*}}barrier = [[RING]] : i64, buffer = 0 : i64
# TMA: scf.for
# TMA: tgpu.mbarrier_wait slot %{{.*}} phase %{{.*}} {barrier = [[RING]] : i64}
# TMA: tgpu.shared_load {{.*}} : tensor<128x64xf16, #shared>
# TMA: tgpu.wgmma {{.*}} -> tensor<128x256xf32, #mma>

# Attention's row maxima reduce the scores where the product left them, in
# the mma.sync accumulator, into its slice.
# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --target cuda:80 --num-stages 1 --emit tile-gpu | tile-opt | FileCheck %s --check-prefix=ATTN
# ATTN: #[[ROWS:slice[0-9]*]] = #tgpu.slice<{dim = 1, parent = #mma}>
# ATTN-LABEL: func.func @_attn_fwd
# ATTN: tile.reduce({{.*}}) axis = 1
# ATTN: } : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #[[ROWS]]>

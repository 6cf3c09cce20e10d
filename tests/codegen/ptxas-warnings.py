# ptxas's performance warnings reach `tritium compile --report`, and the
# kernels below have none.
#
# Pointer copies with a descriptor made at the kernel's start: LLVM's PRE
# splits the edge that skips the k loop, and the accumulator's zeros were
# written on that edge, between the loop and its full wait. ptxas then
# serialized every wgmma (C7515; 17% at 8192^3). That path now waits for
# all groups before it writes them.
# REQUIRES: ptxas
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_early_desc_store --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,256,64,8" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-EARLY
# CHECK-EARLY: kernel mm_early_desc_store (sm_90a)
# CHECK-EARLY-NOT: warning

# 03's matmul at its largest config.
# RUN: tritium compile %S/../../bench/bench_kernels.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,1,i32:16,i32:16,1,128,256,64,8" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# CHECK-CLEAN: kernel matmul_kernel (sm_90a)
# CHECK-CLEAN-NOT: warning

# The causal attention backward of the conformance corpus (four products a
# step, two accumulators carried): the same C7515 before.
# RUN: tritium compile %S/../../conformance/kernels/attention_bwd.py --kernel attn_bwd_dkdv_kernel --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,64,32,128,True" --target cuda:90 --num-warps 4 --num-stages 4 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-BWD
# CHECK-BWD: kernel attn_bwd_dkdv_kernel (sm_90a)
# CHECK-BWD-NOT: warning

# Products accumulated in fp16: the accumulator's halves were unpacked from
# the 32-bit registers the products wrote before their wait (for the phi
# that carries them and for the wait's own 16-bit operands), and ptxas
# serialized every wgmma (C7514). They now cross the back edge and the wait
# as the 32-bit pairs.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-F16ACC
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,64,64,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-F16ACC
# CHECK-F16ACC: kernel mm_loop (sm_90a)
# CHECK-F16ACC-NOT: warning

# fp32 tiles (tf32 products): wgmma with k8 steps, both operands K-major
# in shared memory, copied asynchronously; no spills (on mma.sync with
# loads through registers, 255 registers and 908 bytes of spills). B
# K-major in memory (sbk 1) moves in 16-byte copies; B row-major (sbn 1)
# goes through registers in 4 x 4 blocks: 16-byte loads along N, 16-byte
# stores down K (not a 4-byte copy per element).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-TF32
# (B row-major at 128x256x64 on 8 warps spills 56 bytes; 128x128x32 on 4
# warps none.)
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-TF32
# CHECK-TF32: kernel mm_loop (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores
# CHECK-TF32-NOT: warning
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TF32PTX
# CHECK-TF32PTX-NOT: cp.async.ca
# CHECK-TF32PTX: cp.async.cg.shared.global [{{.*}}], 16
# CHECK-TF32PTX-NOT: cp.async.ca
# CHECK-TF32PTX: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
# CHECK-TF32PTX-NOT: ld.global
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TF32ROW
# CHECK-TF32ROW-NOT: cp.async.ca
# CHECK-TF32ROW: ld.global.v4.b32
# CHECK-TF32ROW: st.shared.v4.b32
# CHECK-TF32ROW: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
# CHECK-TF32ROW-NOT: cp.async.ca
# A tile of at most 32 elements a thread (128x128x32 on 4 warps) is copied
# one 4-byte cp.async an element instead, which the pipeline overlaps with
# the products (the register blocks' loads are synchronous).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=CHECK-TF32SMALL
# CHECK-TF32SMALL: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, {{.*}};
# CHECK-TF32SMALL-NOT: ld.global
# CHECK-TF32SMALL: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
# With M and N not known to be multiples of 16 (N's mask breaks the runs
# of 4 along N), or B's row stride not known to be (the rows' starts are
# not 16-byte aligned), row-major B is copied one 4-byte cp.async an
# element, the lanes of a warp 4 rows by 8 consecutive columns (whole
# sectors read), not a lane a row.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-TF32MASK
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32,i32:16,i32:16,i32,1,i32,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-TF32MASK
# CHECK-TF32MASK: #[[ROWS:[a-z]+[0-9]*]] = #tgpu.linear<{register = {{.*}}, lane = {{\[\[}}0, 1], [0, 2], [0, 4], [1, 0], [2, 0]],
# CHECK-TF32MASK: tgpu.async_copy {{.*}} : tensor<32x128x!tile.ptr<f32>, #[[ROWS]]>
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-TF32
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32,i32:16,i32:16,i32,1,i32,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-TF32
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=CHECK-TF32MASKPTX
# CHECK-TF32MASKPTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, {{.*}};
# CHECK-TF32MASKPTX-NOT: ld.global
# CHECK-TF32MASKPTX: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32

# int8 tiles into int32: wgmma s8 (k32 steps, no scale operands). B
# K-major is copied asynchronously; row-major B goes through registers in
# 4 x 4 blocks: 4-byte loads along N, the bytes transposed (prmt), 4-byte
# stores down K (not a load and a store per byte).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,i32:16,128,256,128" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-S8
# CHECK-S8: kernel mm_loop (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores
# CHECK-S8-NOT: warning
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,i32:16,128,256,128" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-S8PTX
# CHECK-S8PTX: cp.async.cg.shared.global [{{.*}}], 16
# CHECK-S8PTX: wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 {{.*}}, p;
# CHECK-S8PTX-NOT: ld.global
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-S8ROW
# CHECK-S8ROW: kernel mm_loop (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores
# CHECK-S8ROW-NOT: warning
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,128,128,32" --target cuda:90 --num-warps 4 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=CHECK-S8ROWPTX
# CHECK-S8ROWPTX-NOT: ld.global.b8
# CHECK-S8ROWPTX: ld.global.b32
# CHECK-S8ROWPTX: prmt.b32
# CHECK-S8ROWPTX: st.shared.b32
# CHECK-S8ROWPTX: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
# CHECK-S8ROWPTX-NOT: ld.global.b8
# CHECK-S8ROWPTX-NOT: st.shared.b8
# With N and B's row stride not known to be multiples of 16 (the runs of 4
# along N neither whole nor aligned), the same blocks are loaded a byte at
# a time and still stored 4 bytes down K: no spills at 128x128x64 (28
# bytes, and a byte stored at a time, before).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32,i32:16,i32:16,i32,1,i32,128,128,64" --target cuda:90 --num-warps 4 --num-stages 4 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-S8ROW
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_loop --signature "*i8:16,*i8:16,*i32:16,i32:16,i32,i32:16,i32:16,i32,1,i32,128,128,64" --target cuda:90 --num-warps 4 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=CHECK-S8MASKPTX
# CHECK-S8MASKPTX-NOT: st.shared.b8
# CHECK-S8MASKPTX: ld.global.b8
# CHECK-S8MASKPTX: st.shared.b32
# CHECK-S8MASKPTX: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
# CHECK-S8MASKPTX-NOT: st.shared.b8

# Loops: loads feeding tensor cores copied asynchronously into shared-memory
# slots (num_stages of them), other loads issued one iteration early
# (num_stages >= 2), float predicates, and volatile scalars read by one
# thread for all.

# fp16 products: cp.async into 3 slots, two iterations ahead. On sm_90 the
# products are wgmma groups left in flight (the wait says the previous
# iteration's group is done), so the copies come after them (they overwrite
# the slots that group read); their pointers are computed before, while the
# group is issued. The loop waits for the last group after it.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,\"\"" --target cuda:90 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-ASYNC
# CHECK-ASYNC-LABEL: func.func @matmul_kernel
# CHECK-ASYNC: tgpu.async_copy {{.*}} {buffer = 0 : i64, numSlots = 3 : i64}
# CHECK-ASYNC: tgpu.async_copy {{.*}} {buffer = 1 : i64, numSlots = 3 : i64}
# CHECK-ASYNC-NEXT: tgpu.async_commit
# CHECK-ASYNC: tgpu.async_copy
# CHECK-ASYNC: tgpu.async_copy
# CHECK-ASYNC-NEXT: tgpu.async_commit
# The loop carries the pointer tiles the copies read (two iterations on),
# each advanced by one addptr; a_ptrs and b_ptrs themselves, read by
# nothing else, stay as they are.
# CHECK-ASYNC: %[[LOOP:.*]]:7 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = {{.*}}, %[[PA0:[^ ]*]] = {{.*}}, %[[PB0:[^ ]*]] = {{.*}}, %[[R:.*]] = %c0_i32{{.*}}, %[[W:.*]] = %c2_i32{{.*}}, %[[PA:[^ ]*]] = {{.*}}, %[[PB:[^ ]*]] = {{.*}})
# CHECK-ASYNC-NEXT: tgpu.async_wait {pending = 1 : i64}
# CHECK-ASYNC-NEXT: %[[A:.*]] = tgpu.shared_load slot %[[R]] {buffer = 0 : i64
# CHECK-ASYNC-NEXT: %[[B:.*]] = tgpu.shared_load slot %[[R]] {buffer = 1 : i64
# CHECK-ASYNC: %[[NA:.*]] = tile.addptr %[[PA]],
# CHECK-ASYNC: %[[NB:.*]] = tile.addptr %[[PB]],
# CHECK-ASYNC: %[[G:.*]] = tgpu.wgmma %[[A]], %[[B]], %[[ACC]]
# CHECK-ASYNC-NEXT: %[[D:.*]] = tgpu.wgmma_wait %[[G]] {pending = 1 : i64}
# CHECK-ASYNC-NEXT: tile.barrier
# CHECK-ASYNC: tgpu.async_copy %[[PA]], {{.*}} slot %[[W]] {buffer = 0
# CHECK-ASYNC: tgpu.async_copy %[[PB]], {{.*}} slot %[[W]] {buffer = 1
# CHECK-ASYNC-NEXT: tgpu.async_commit
# CHECK-ASYNC: scf.yield %[[D]], %[[PA0]], %[[PB0]], {{.*}}, {{.*}}, %[[NA]], %[[NB]] :
# CHECK-ASYNC-NEXT: }
# CHECK-ASYNC-NEXT: tgpu.wgmma_wait %[[LOOP]]#0 {pending = 0 : i64}
# CHECK-ASYNC-NEXT: tgpu.async_wait {pending = 0 : i64}

# On sm_80 the copies also go after the product: mma.sync has read its
# fragments from the slots by then, and the barrier at the top of the
# next iteration is what the refilled slot waits for. No barrier is
# needed before them (every warp is past the previous iteration's reads).
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,\"\"" --target cuda:80 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-ASYNC80
# CHECK-ASYNC80: scf.for {{.*}} iter_args({{.*}}, %[[R:.*]] = %c0_i32{{.*}}, %[[W:.*]] = %c2_i32{{.*}})
# CHECK-ASYNC80-NEXT: tgpu.async_wait {pending = 1 : i64}
# CHECK-ASYNC80-NEXT: %[[A:.*]] = tgpu.shared_load slot %[[R]] {buffer = 0 : i64
# CHECK-ASYNC80-NEXT: %[[B:.*]] = tgpu.shared_load slot %[[R]] {buffer = 1 : i64
# CHECK-ASYNC80: tile.dot %[[A]], %[[B]]
# CHECK-ASYNC80-NOT: tile.barrier
# CHECK-ASYNC80: tgpu.async_copy {{.*}} slot %[[W]] {buffer = 0
# CHECK-ASYNC80: tgpu.async_copy {{.*}} slot %[[W]] {buffer = 1
# CHECK-ASYNC80-NEXT: tgpu.async_commit
# CHECK-ASYNC80: scf.yield

# FMA products (fp32 at full precision) on sm_80+ also read their operands
# in place from the slots: rows unswizzled (a thread's run along a row is
# one vector load), padded by 16 bytes; no staging stores in the loop.
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_loop_ieee_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,64,64,16" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-FMA
# CHECK-FMA: #[[S:shared[0-9]*]] = #tgpu.shared<{swizzle = 0, pad = 4, transposed = false}>
# CHECK-FMA: scf.for
# CHECK-FMA: %[[A:.*]] = tgpu.shared_load {{.*}} : tensor<64x16xf32, #[[S]]>
# CHECK-FMA: %[[B:.*]] = tgpu.shared_load {{.*}} : tensor<16x64xf32, #[[S]]>
# CHECK-FMA: tile.dot %[[A]], %[[B]]
# CHECK-FMA: tgpu.async_copy
# Blocks of tensor descriptors that FMA products read are copied by
# cp.async into such rows too, not by TMA (whose boxes have no padding).
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_desc_ieee_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,64,64,16" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-FMADESC
# CHECK-FMADESC: #[[S:shared[0-9]*]] = #tgpu.shared<{swizzle = 0, pad = 4, transposed = false}>
# CHECK-FMADESC-NOT: tgpu.tma_copy
# CHECK-FMADESC: tgpu.async_copy
# CHECK-FMADESC: tgpu.shared_load {{.*}} : tensor<64x16xf32, #[[S]]>
# CHECK-FMADESC-NOT: tgpu.tma_copy
# RUN: tritium compile %S/../Inputs/codegen/dots.py --kernel dot_loop_ieee_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,64,64,16" --target cuda:80 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-FMAPTX
# CHECK-FMAPTX: cp.async.wait_group 1;
# CHECK-FMAPTX: bar.sync 0;
# CHECK-FMAPTX-NOT: st.shared
# CHECK-FMAPTX: ld.shared.v4.b32
# CHECK-FMAPTX: fma.rn.f32
# CHECK-FMAPTX-NOT: st.shared
# CHECK-FMAPTX: cp.async.cg.shared.global
# CHECK-FMAPTX: cp.async.commit_group;

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,\"\"" --target cuda:80 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-CPASYNC
# 16-byte copies (the default layouts are made for the 16-bit tiles the
# copies move), bypassing L1.
# CHECK-CPASYNC: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
# CHECK-CPASYNC: cp.async.commit_group;
# CHECK-CPASYNC: cp.async.wait_group 1;
# CHECK-CPASYNC: bar.sync 0;
# CHECK-CPASYNC: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-CPASYNC: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# CHECK-CPASYNC: cp.async.wait_group 0;

# sm_90: each iteration waits for its slots, issues its wgmma group (A
# K-major, B N-major: transposed), waits for the previous group, and only
# then copies into the slot that group read; the last group is waited for
# after the loop.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,256,64,8,\"\"" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-WGMMA
# CHECK-WGMMA: cp.async.commit_group;
# CHECK-WGMMA: cp.async.wait_group 1;
# CHECK-WGMMA: bar.sync 0;
# CHECK-WGMMA: wgmma.fence.sync.aligned;
# CHECK-WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, {{[pq]}}, 1, 1, 0, 1;
# CHECK-WGMMA: wgmma.commit_group.sync.aligned;
# CHECK-WGMMA: wgmma.wait_group.sync.aligned 1;
# CHECK-WGMMA: bar.sync 0;
# CHECK-WGMMA: cp.async.cg.shared.global
# CHECK-WGMMA: cp.async.commit_group;
# CHECK-WGMMA: wgmma.wait_group.sync.aligned 0;
# CHECK-WGMMA: cp.async.wait_group 0;

# fp32 products (FMA units): the next iteration's tiles are loaded into
# registers during this one.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,32,32,16,8,\"\"" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-PIPE
# CHECK-PIPE-LABEL: func.func @matmul_kernel
# CHECK-PIPE: %[[A0:.*]] = tile.load
# CHECK-PIPE: %[[B0:.*]] = tile.load
# CHECK-PIPE: scf.for {{.*}} iter_args({{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
# CHECK-PIPE: %[[AN:.*]] = tile.load
# CHECK-PIPE: %[[BN:.*]] = tile.load
# CHECK-PIPE: tile.dot %[[A]], %[[B]]
# CHECK-PIPE: scf.yield {{.*}}, %[[AN]], %[[BN]]

# Not pipelined: the product stages its operands from registers into an
# area the next iteration's product rewrites, so it waits for its group at
# once.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,\"\"" --target cuda:90 --num-stages 1 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-NOPIPE
# CHECK-NOPIPE-LABEL: func.func @matmul_kernel
# CHECK-NOPIPE: scf.for
# CHECK-NOPIPE: tile.load
# CHECK-NOPIPE: tile.load
# CHECK-NOPIPE: tgpu.wgmma
# CHECK-NOPIPE-NEXT: tgpu.wgmma_wait {{.*}} {pending = 0 : i64}

# `!=` is unordered-not-equal (true for NaN), `<` ordered.
# RUN: tritium compile %S/../Inputs/codegen/compare.py --kernel ne_kernel --signature "*fp32:16,*fp32:16,*i32:16,128" --target cuda:80 --emit llir | FileCheck %s --check-prefix=CHECK-CMP
# CHECK-CMP-LABEL: define ptx_kernel void @ne_kernel
# CHECK-CMP: fcmp une float
# CHECK-CMP: fcmp olt float

# A volatile scalar is read by thread 0 and shared through shared memory,
# so the loop condition is the same in every thread.
# RUN: tritium compile %S/../Inputs/codegen/compare.py --kernel volatile_flag_kernel --signature "*i32:16,*i32:16" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-VOL
# CHECK-VOL-LABEL: .entry volatile_flag_kernel(
# CHECK-VOL: ld.volatile.global.b32
# CHECK-VOL: st.shared.b32
# CHECK-VOL: bar.sync 0;
# CHECK-VOL: ld.shared.b32

# Parameters may alias (one buffer passed twice): a load after a store is
# issued again, never merged with the one before the store.
# RUN: tritium compile %S/../Inputs/codegen/compare.py --kernel reload_kernel --signature "*fp32:16,*fp32:16,i32,128" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-ALIAS
# RUN: tritium compile %S/../Inputs/codegen/compare.py --kernel reload_kernel --signature "*fp32:16,*fp32:16,i32,128" --target cuda:90 --emit llir | FileCheck %s --check-prefix=CHECK-NOALIAS
# CHECK-ALIAS-LABEL: .entry reload_kernel(
# CHECK-ALIAS: ld.global.b32
# CHECK-ALIAS: st.global.b32
# CHECK-ALIAS: ld.global.b32
# CHECK-ALIAS: st.global.b32
# CHECK-NOALIAS-LABEL: define ptx_kernel void @reload_kernel(
# CHECK-NOALIAS-NOT: noalias
# CHECK-NOALIAS: ret void

# maxnreg caps the registers per thread (PTX .maxnreg), as Triton's option.
# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --target cuda:90 --maxnreg 64 --emit ptx | FileCheck %s --check-prefix=CHECK-MAXNREG
# CHECK-MAXNREG-LABEL: .entry softmax_kernel(
# CHECK-MAXNREG: .maxntid 128
# CHECK-MAXNREG: .maxnreg 64

# Block pointers moved by tl.advance (loop-carried offsets advanced by a
# constant) feed the same pipeline: 16-byte copies into the slots, wgmma
# groups in flight.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_bp --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-BP
# CHECK-BP: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
# CHECK-BP: cp.async.commit_group;
# CHECK-BP: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
# CHECK-BP: wgmma.wait_group.sync.aligned 1;
# CHECK-BP: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
# CHECK-BP: wgmma.wait_group.sync.aligned 0;

# Tensor-descriptor loads (made in the kernel, or passed from the host with
# any shape) are copied by TMA on sm_90: each descriptor's tensor map is
# made once in global scratch memory (the kernel's last parameter), one
# thread issues a slot's copies (one per 64-column block of the 128-byte
# swizzle) after an arrive expecting their bytes, and readers wait on the
# slot's mbarrier for the phase the loop carries.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_desc --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TMA
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_host_desc --signature "tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,256]>:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TMA
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_host_desc --signature "tensordesc<fp16[128,64]>,tensordesc<fp16[64,256]>,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TMA
# CHECK-TMA-NOT: cp.async.cg
# CHECK-TMA: .param .u64 .ptr .global .align 1 {{.*}}_param_{{[0-9]+}}
# CHECK-TMA-NEXT: )
# CHECK-TMA: tensormap.replace.tile.global_address.shared::cta.b1024.b64
# CHECK-TMA: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{.*}}], 0, 64;
# CHECK-TMA: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{.*}}], 3;
# CHECK-TMA: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
# CHECK-TMA: fence.proxy.tensormap::generic.acquire.gpu
# CHECK-TMA: mbarrier.init.shared::cta.b64
# CHECK-TMA: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], {{.*}};
# CHECK-TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
# CHECK-TMA: mbarrier.try_wait.parity.shared::cta.b64
# CHECK-TMA: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
# CHECK-TMA: wgmma.wait_group.sync.aligned 1;
# CHECK-TMA: mbarrier.arrive.expect_tx.shared::cta.b64
# CHECK-TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
# CHECK-TMA: wgmma.wait_group.sync.aligned 0;
# CHECK-TMA-NOT: cp.async.cg
# mm_desc stores its tile through a descriptor: with TMA, the accumulator
# written to the swizzled tile with stmatrix, no global store.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_desc --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TMAEPI
# CHECK-TMAEPI: wgmma.wait_group.sync.aligned 0;
# CHECK-TMAEPI-NOT: st.global
# CHECK-TMAEPI: stmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-TMAEPI-NOT: st.shared
# CHECK-TMAEPI: fence.proxy.async.shared::cta;
# CHECK-TMAEPI: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# CHECK-TMAEPI-NOT: st.global
# The store comes after the loop: no iteration waits for TMA store reads
# (the only waits before it are those of the tensor maps' creation).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_desc --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-TMANOWAIT
# CHECK-TMANOWAIT: tensormap.cp_fenceproxy
# CHECK-TMANOWAIT: mbarrier.init
# CHECK-TMANOWAIT-NOT: cp.async.bulk.wait_group.read
# CHECK-TMANOWAIT: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# CHECK-TMANOWAIT: cp.async.bulk.wait_group.read 0;
# CHECK-TMANOWAIT-NOT: cp.async.bulk.wait_group.read
# A flattened persistent loop copying through pointers (cp.async) and
# storing each tile through a descriptor (TMA): thread 0 waits for the
# store's reads of the staging area only in the epilogue, before the next
# tile's block is written there, not at the loop's slot barriers (the wait
# also drains its cp.async groups, which ran the ring one stage deep).
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_persistent_desc_store --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,256,64,132" --target cuda:90 --num-warps 8 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=CHECK-PERSWAIT
# CHECK-PERSWAIT: cp.async.wait_group 1;
# CHECK-PERSWAIT-NOT: cp.async.bulk.wait_group.read
# CHECK-PERSWAIT: wgmma.mma_async
# CHECK-PERSWAIT-NOT: cp.async.bulk.wait_group.read
# CHECK-PERSWAIT: wgmma.wait_group.sync.aligned 1;
# CHECK-PERSWAIT-NOT: cp.async.bulk.wait_group.read
# CHECK-PERSWAIT: cp.async.commit_group;
# CHECK-PERSWAIT-NOT: cp.async.bulk.wait_group.read
# CHECK-PERSWAIT: wgmma.wait_group.sync.aligned 0;
# CHECK-PERSWAIT: cp.async.bulk.wait_group.read 0;
# CHECK-PERSWAIT-NOT: cp.async.wait_group
# CHECK-PERSWAIT: stmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-PERSWAIT: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# At the tile level: the ring starts before the prologue's copies, each
# copy exists only for iterations below the bound, and the phase parity
# flips each time the read slot wraps.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_desc --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,256,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-TMAIR
# CHECK-TMAIR: tgpu.mbarrier_init {barrier = [[RING:[0-9]+]] : i64, count = 2 : i64, numSlots = 3 : i64}
# CHECK-TMAIR: tgpu.tma_copy %{{.*}}[%{{.*}}, %{{.*}}] slot %{{.*}} if %{{.*}} {barrier = [[RING]] : i64, buffer = {{[0-9]+}} : i64, numSlots = 3 : i64}
# CHECK-TMAIR: scf.for {{.*}} iter_args({{.*}}, %[[R:[a-z0-9_]+]] = %c0_i32{{[_0-9]*}}, %[[W:[a-z0-9_]+]] = %c2_i32{{[_0-9]*}}, %[[PH:[a-z0-9_]+]] = %c0_i32
# CHECK-TMAIR-NEXT: tgpu.mbarrier_wait slot %[[R]] phase %[[PH]] {barrier = [[RING]] : i64}
# CHECK-TMAIR: arith.cmpi eq, %{{.*}}, %c3_i32
# CHECK-TMAIR: arith.xori %[[PH]], %{{.*}} : i32
# CHECK-TMAIR: tgpu.tma_copy %{{.*}} slot %[[W]] if %{{.*}}

# Attention over descriptors: Q copied into shared memory once, K (stored
# transposed or put through tl.trans) and V through the pipeline's TMA
# copies, P handed to the second product in registers; no operand is
# staged by the products (no proxy fence after the first copy) and no load
# goes element-wise.
# RUN: tritium compile %S/../Inputs/codegen/attention_desc.py --kernel attn --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32:16,fp32,64,128,64,True" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-ATTN
# RUN: tritium compile %S/../Inputs/codegen/attention_desc.py --kernel attn --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32:16,fp32,64,128,64,False" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-ATTN
# CHECK-ATTN-NOT: ld.global.b16
# CHECK-ATTN: fence.proxy.async.shared::cta;
# CHECK-ATTN-NOT: fence.proxy.async
# CHECK-ATTN: cp.async.bulk.tensor.2d
# CHECK-ATTN-NOT: fence.proxy.async
# CHECK-ATTN: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, {{[01]}};
# CHECK-ATTN: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
# CHECK-ATTN-NOT: ld.global.b16
# CHECK-ATTN-NOT: fence.proxy.async

# P V, whose only reader is the next iteration (it rescales the sum, then
# adds to it), stays in flight across the back edge: the next iteration's
# Q K^T is issued while it runs, and the next iteration waits for it before
# reading the sum. The copies that refill its slots come after a barrier,
# after that wait; the loop waits for the last one after it.
# RUN: tritium compile %S/../Inputs/codegen/attention_desc.py --kernel attn --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32:16,fp32,64,128,64,False" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-DEFER
# CHECK-DEFER: %[[LOOP:.*]]:6 = scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %[[ACC:[^ ]*]] = 
# CHECK-DEFER: %[[QK:.*]] = tgpu.wgmma
# CHECK-DEFER-NEXT: tgpu.wgmma_wait %[[QK]] {pending = 0 : i64}
# CHECK-DEFER: %[[DONE:.*]] = tgpu.wgmma_wait %[[ACC]] {pending = 0 : i64}
# CHECK-DEFER-NEXT: %[[SCALED:.*]] = arith.mulf %[[DONE]],
# CHECK-DEFER: %[[PV:.*]] = tgpu.wgmma %{{.*}}, %{{.*}}, %[[SCALED]]
# CHECK-DEFER-NEXT: tile.barrier
# CHECK-DEFER-NEXT: tgpu.tma_copy
# CHECK-DEFER: scf.yield %{{.*}}, %[[PV]],
# CHECK-DEFER: tgpu.wgmma_wait %[[LOOP]]#1 {pending = 0 : i64}
# The same with pointer tiles through cp.async (and a second loop, whose
# sum starts from the first's, waited for).
# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-DEFERCP
# CHECK-DEFERCP: %[[L1:.*]]:9 = scf.for
# CHECK-DEFERCP: tgpu.wgmma_wait %arg{{[0-9]+}} {pending = 0 : i64}
# CHECK-DEFERCP: %[[PV1:.*]] = tgpu.wgmma
# CHECK-DEFERCP-NEXT: tile.barrier
# CHECK-DEFERCP-NEXT: tgpu.async_copy
# CHECK-DEFERCP: scf.yield %{{.*}}, %[[PV1]],
# CHECK-DEFERCP: %[[W1:.*]] = tgpu.wgmma_wait %[[L1]]#1 {pending = 0 : i64}
# CHECK-DEFERCP: scf.for {{.*}} iter_args(%{{.*}} = %[[L1]]#0, %{{.*}} = %[[W1]],

# Vectors whose values reach the products through other ops (an attention
# backward's row statistics, subtracted from the scores) are copied with the
# operand tiles, into slots of their own, and read into registers right
# where they are used, in the layout their users hold them in (no round trip
# through the staging area, no global load left in the loop).
# RUN: tritium compile %S/../../conformance/kernels/attention_bwd.py --kernel attn_bwd_dkdv_kernel --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,64,32,128,False" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-SIDE
# CHECK-SIDE: tgpu.async_copy {{.*}} {buffer = 4 : i64, numSlots = 3 : i64} : tensor<32x!tile.ptr<f32>
# CHECK-SIDE: tgpu.async_copy {{.*}} {buffer = 5 : i64, numSlots = 3 : i64} : tensor<32x!tile.ptr<f32>
# CHECK-SIDE: scf.for {{.*}} iter_args({{.*}}, %[[R:.*]] = %c0_i32{{.*}}, %[[W:.*]] = %c2_i32{{.*}})
# CHECK-SIDE-NOT: tile.load
# CHECK-SIDE: %[[S:.*]] = tgpu.wgmma_wait
# CHECK-SIDE-NEXT: %[[LSE:.*]] = tgpu.shared_load slot %[[R]] {buffer = 4 : i64} : tensor<32xf32, #[[SL:.*]]>
# CHECK-SIDE-NEXT: %[[E:.*]] = tile.expand_dims %[[LSE]] {axis = 0 : i32} : tensor<32xf32, #[[SL]]>
# CHECK-SIDE-NEXT: %[[B:.*]] = tile.broadcast %[[E]] {{.*}} -> tensor<128x32xf32, #mma>
# CHECK-SIDE-NEXT: arith.subf %[[S]], %[[B]]
# CHECK-SIDE-NOT: tile.load
# CHECK-SIDE: tgpu.shared_load slot %[[R]] {buffer = 5 : i64} : tensor<32xf32, #[[SL]]>
# CHECK-SIDE-NOT: tile.load
# CHECK-SIDE-NOT: convert_layout
# CHECK-SIDE: tgpu.async_copy {{.*}} slot %[[W]] {buffer = 4
# CHECK-SIDE-NEXT: tgpu.async_copy {{.*}} slot %[[W]] {buffer = 5
# CHECK-SIDE-NEXT: tgpu.async_commit
# CHECK-SIDE: scf.yield
#
# In PTX: 4-byte copies for the vectors, read back two elements a load.
# RUN: tritium compile %S/../../conformance/kernels/attention_bwd.py --kernel attn_bwd_dkdv_kernel --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,64,32,128,True" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-SIDEPTX
# CHECK-SIDEPTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, {{.*}};
# CHECK-SIDEPTX-NOT: ld.global
# CHECK-SIDEPTX: wgmma.wait_group
# CHECK-SIDEPTX: ld.shared.v2.b32
# CHECK-SIDEPTX: ex2.approx
#
# The K and V tiles (loaded before the loop) are read by every iteration's
# products: one base descriptor each is computed before the loop, and each
# k step's descriptor is added to it inside the group, so the loop does not
# carry one 64-bit descriptor per step (ptxas spills those at D=128).
# RUN: tritium compile %S/../../conformance/kernels/attention_bwd.py --kernel attn_bwd_dkdv_kernel --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,64,32,128,False" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-DESCSTEP
# CHECK-DESCSTEP: or.b64 %rd[[K:[0-9]+]], %rd{{[0-9]+}}, 4611686293305294848;
# CHECK-DESCSTEP: $L__BB0_{{[0-9]+}}:
# CHECK-DESCSTEP: or.b64 %rd[[Q:[0-9]+]], %rd{{[0-9]+}}, 4611686293305294848;
# CHECK-DESCSTEP: add.s64 d0, %rd[[K]], 512;
# CHECK-DESCSTEP-NEXT: add.s64 d1, %rd[[K]], 2;
# CHECK-DESCSTEP-NEXT: add.s64 d2, %rd[[Q]], 2;
# CHECK-DESCSTEP: wgmma.fence.sync.aligned;
# CHECK-DESCSTEP-NEXT: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{.*}}}, %rd[[K]], %rd[[Q]], p, 1, 1, 0, 0;
# CHECK-DESCSTEP-NEXT: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{.*}}}, d0, %rd[[Q]], p, 1, 1, 0, 0;
# CHECK-DESCSTEP-NEXT: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{.*}}}, d1, d2, q, 1, 1, 0, 0;
#
# Where a store in the loop may write what the vector reads, it stays a
# load in the loop.
# RUN: tritium compile %S/../Inputs/codegen/side_loads.py --kernel aliased --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,64,64,32" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-SIDEALIAS
# CHECK-SIDEALIAS: scf.for
# CHECK-SIDEALIAS: tile.load {{.*}} : tensor<32x!tile.ptr<f32>
# CHECK-SIDEALIAS: tile.store

# A loop whose accumulator is in flight at its end: the path that skips it
# waits for all groups before the accumulator's zeros are written, then
# joins the loop's path at its full wait (laid out last, as the unlikely
# path). Without that wait, LLVM's PRE split the edge and the zeros sat
# between the loop and the wait, and ptxas serialized every wgmma.
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_early_desc_store --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,256,64,8" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=CHECK-SKIP
# CHECK-SKIP: wgmma.mma_async
# CHECK-SKIP: wgmma.wait_group.sync.aligned 1;
# CHECK-SKIP-NOT: 0f00000000
# CHECK-SKIP: $L__BB0_[[JOIN:[0-9]+]]:
# CHECK-SKIP-NEXT: // begin inline asm
# CHECK-SKIP-NEXT: wgmma.wait_group.sync.aligned 0;
# CHECK-SKIP: ret;
# CHECK-SKIP-NEXT: $L__BB0_{{[0-9]+}}:
# CHECK-SKIP-NEXT: // begin inline asm
# CHECK-SKIP-NEXT: wgmma.wait_group.sync.aligned 0;
# CHECK-SKIP-NEXT: // end inline asm
# CHECK-SKIP-NOT: wgmma
# CHECK-SKIP: mov.b32 %r{{[0-9]+}}, 0f00000000;
# CHECK-SKIP: bra.uni $L__BB0_[[JOIN]];

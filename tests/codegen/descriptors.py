# Tensor descriptors on the GPU without TMA: predicated global accesses per
# element (or per run of consecutive elements when a runtime check passes),
# padding for out-of-bounds lanes, atomic reductions, row gathers and
# scatters. On sm_90 block stores whose block has a swizzled shared layout
# go through TMA instead.
import triton
import triton.language as tl


# A block load at negative and partial offsets with NaN padding (f16 NaN is
# 0x7e00 = 32256), and a store: runs of four halves move as one 64-bit
# access when in bounds and aligned, element by element otherwise.
# RUN: tritium compile %s --kernel desc_copy --signature "*fp16:16,*fp16:16,i32,i32,i32" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-COPY
# CHECK-COPY-LABEL: .entry desc_copy(
# CHECK-COPY: @%p{{[0-9]+}} ld.global.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
# CHECK-COPY: @%p{{[0-9]+}} ld.global.b16 %rs{{[0-9]+}}, [%rd{{[0-9]+}}];
# CHECK-COPY: selp.b16 {{.*}}, 32256, %p{{[0-9]+}};
# CHECK-COPY: @%p{{[0-9]+}} st.global.b64 [%rd{{[0-9]+}}], %rd{{[0-9]+}};
# CHECK-COPY: @%p{{[0-9]+}} st.global.b16 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
#
# On sm_90 the store writes the block into shared memory in the 64-byte
# swizzle of its tensor map (made in the kernel, with the alignment check),
# fences it for the async proxy, and one thread copies it out (TMA leaves
# out the elements outside the tensor, the negative columns included) and
# waits until the copy has read it; no global store is left.
# RUN: tritium compile %s --kernel desc_copy --signature "*fp16:16,*fp16:16,i32,i32,i32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-TMASTORE
# CHECK-TMASTORE-LABEL: .entry desc_copy(
# CHECK-TMASTORE: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{.*}}], 2;
# CHECK-TMASTORE-NOT: st.global
# CHECK-TMASTORE: st.shared
# CHECK-TMASTORE: fence.proxy.async.shared::cta;
# CHECK-TMASTORE: bar.sync
# CHECK-TMASTORE: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
# CHECK-TMASTORE: cp.async.bulk.commit_group;
# CHECK-TMASTORE-NOT: bar.sync
# CHECK-TMASTORE: cp.async.bulk.wait_group.read 0;
# CHECK-TMASTORE-NOT: st.global
# CHECK-TMASTORE: ret;
#
# In a loop the copy's reads of shared memory are waited for at the next
# barrier, before the next block is written there: the copy overlaps the
# next iteration's loads.
# RUN: tritium compile %s --kernel desc_store_loop --signature "*fp16:16,*fp16:16,i32,i32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-TMALOOP
# CHECK-TMALOOP-LABEL: .entry desc_store_loop(
# CHECK-TMALOOP: ld.global
# CHECK-TMALOOP: cp.async.bulk.wait_group.read 0;
# CHECK-TMALOOP: bar.sync
# CHECK-TMALOOP: st.shared
# CHECK-TMALOOP: fence.proxy.async.shared::cta;
# CHECK-TMALOOP: bar.sync
# CHECK-TMALOOP: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# CHECK-TMALOOP: cp.async.bulk.commit_group;
# CHECK-TMALOOP-NOT: bar.sync
# CHECK-TMALOOP: cp.async.bulk.wait_group.read 0;
# CHECK-TMALOOP-NEXT: // end inline asm
# CHECK-TMALOOP-NEXT: $L__BB
# CHECK-TMALOOP-NEXT: ret;
#
# A block of 16-byte rows has no swizzled layout: its store stays global.
# RUN: tritium compile %s --kernel desc_narrow --signature "*fp32:16,*fp32:16,i32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-NARROW
# CHECK-NARROW-LABEL: .entry desc_narrow(
# CHECK-NARROW-NOT: cp.async.bulk
# CHECK-NARROW: st.global
@triton.jit
def desc_copy(src, dst, M, N, stride):
    d = tl.make_tensor_descriptor(src, [M, N], [stride, 1], [64, 32],
                                  padding_option="nan")
    o = tl.make_tensor_descriptor(dst, [M, N], [stride, 1], [64, 32])
    pm = tl.program_id(0)
    t = d.load([pm * 64 - 3, 5])
    o.store([pm * 64, -2], t)


@triton.jit
def desc_store_loop(src, dst, M, n):
    d = tl.make_tensor_descriptor(src, [M, 64], [64, 1], [32, 64])
    o = tl.make_tensor_descriptor(dst, [M, 64], [64, 1], [32, 64])
    for i in range(n):
        o.store([i * 32, 0], d.load([i * 32, 0]) * 2)


@triton.jit
def desc_narrow(src, dst, M):
    d = tl.make_tensor_descriptor(src, [M, 4], [4, 1], [16, 4])
    o = tl.make_tensor_descriptor(dst, [M, 4], [4, 1], [16, 4])
    o.store([tl.program_id(0) * 16, 0], d.load([tl.program_id(0) * 16, 0]) + 1)


# A descriptor made before a loop and loaded from inside it; two floats per
# thread move as one 64-bit access.
# RUN: tritium compile %s --kernel desc_loop --signature "*fp32:16,*fp32:16,i32,i32" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-LOOP
# CHECK-LOOP-LABEL: .entry desc_loop(
# CHECK-LOOP: @%p{{[0-9]+}} ld.global.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
# CHECK-LOOP: @%p{{[0-9]+}} ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
# CHECK-LOOP: bra
# CHECK-LOOP: @%p{{[0-9]+}} st.global.b64
@triton.jit
def desc_loop(a, out, M, n):
    d = tl.make_tensor_descriptor(a, [M, 16], [16, 1], [16, 16])
    o = tl.make_tensor_descriptor(out, [M, 16], [16, 1], [16, 16])
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for i in range(n):
        acc += d.load([i * 16, 0])
    o.store([0, 0], acc)


# Reductions: 32/64-bit integers and f16 adds are PTX `red` (min/max of
# unsigned elements unsigned); f16 min/max (and bf16 adds before sm_90)
# update their 32-bit word with a compare-and-swap loop. The element types
# are Triton's for TMA reductions: int8 adds are errors.
# RUN: tritium compile %s --kernel desc_reduce --signature "*i32:16,*u32:16,*u64:16,*fp16:16,*bf16:16,i32" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-RED80
# CHECK-RED80-LABEL: .entry desc_reduce(
# CHECK-RED80: red.global.min.s32
# CHECK-RED80: red.global.max.s32
# CHECK-RED80: red.global.and.b32
# CHECK-RED80: red.global.or.b32
# CHECK-RED80: red.global.xor.b32
# CHECK-RED80: red.global.min.u32
# CHECK-RED80: red.global.max.u32
# CHECK-RED80: red.global.add.u64
# CHECK-RED80: red.global.add.noftz.f16
# CHECK-RED80: atom{{.*}}.global.cas.b32
# CHECK-RED80: atom{{.*}}.global.cas.b32
# CHECK-RED80-NOT: red.global.add.noftz.bf16
# RUN: tritium compile %s --kernel desc_reduce --signature "*i32:16,*u32:16,*u64:16,*fp16:16,*bf16:16,i32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-RED90
# CHECK-RED90-LABEL: .entry desc_reduce(
# CHECK-RED90: atom{{.*}}.global.cas.b32
# CHECK-RED90: red.global.add.noftz.bf16
@triton.jit
def desc_reduce(p32, pu32, p64, ph, pb, M):
    a = tl.make_tensor_descriptor(p32, [M, 64], [64, 1], [16, 64])
    t = a.load([0, 0])
    a.atomic_min([16, 0], t)
    a.atomic_max([32, 0], t)
    a.atomic_and([48, 0], t)
    a.atomic_or([64, 0], t)
    a.atomic_xor([80, 0], t)
    u = tl.make_tensor_descriptor(pu32, [M], [1], [64])
    u.atomic_min([7], u.load([0]))
    u.atomic_max([7], u.load([0]))
    c = tl.make_tensor_descriptor(p64, [M], [1], [64])
    c.atomic_add([3], c.load([0]))
    h = tl.make_tensor_descriptor(ph, [M], [1], [64])
    h.atomic_add([1], h.load([0]))
    h.atomic_max([1], h.load([0]))
    f = tl.make_tensor_descriptor(pb, [M], [1], [64])
    f.atomic_add([1], f.load([0]))


# RUN: not tritium compile %s --kernel desc_reduce_i8 --signature "*i8:16,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RED8
# CHECK-RED8: descriptors.py:[[@LINE+4]]:5: error: descriptor atomic_add does not support int8 (it takes uint32, int32, uint64, float32, float16 or bfloat16)
@triton.jit
def desc_reduce_i8(p8, M):
    b = tl.make_tensor_descriptor(p8, [M], [1], [128])
    b.atomic_add([7], b.load([0]))


# Row gather and scatter: the row offsets come from the index tensor, the
# columns from y; each row's run of four floats is one 128-bit access when
# the check passes.
# RUN: tritium compile %s --kernel desc_rows --signature "*fp32:16,*i32:16,*fp32:16,i32,i32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-ROWS
# CHECK-ROWS-LABEL: .entry desc_rows(
# CHECK-ROWS: ld.global.{{(nc.)?}}b32
# CHECK-ROWS: @%p{{[0-9]+}} ld.global.v4.b32
# CHECK-ROWS: @%p{{[0-9]+}} ld.global.b32
# CHECK-ROWS: @%p{{[0-9]+}} st.global.v4.b32
# CHECK-ROWS: @%p{{[0-9]+}} st.global.b32
@triton.jit
def desc_rows(x, idx, out, M, y):
    d = tl.make_tensor_descriptor(x, [M, 64], [64, 1], [1, 32])
    o = tl.make_tensor_descriptor(out, [M, 64], [64, 1], [1, 32])
    rows = tl.load(idx + tl.arange(0, 16))
    g = d.gather(rows, y)
    o.scatter(g + 1, rows, y)


# Rank 3, and a block smaller than the program (replicated threads load,
# only owners store).
# RUN: tritium compile %s --kernel desc_3d --signature "*fp32:16,*fp32:16,i32,i32,i32" --target cuda:80 --emit llir | FileCheck %s --check-prefix=CHECK-3D
# CHECK-3D-LABEL: define ptx_kernel void @desc_3d(
# CHECK-3D: asm sideeffect "@$1 ld.global.b32 $0, [$2];"
# CHECK-3D: asm sideeffect "@$0 st.global.b32 [$1], $2;"
@triton.jit
def desc_3d(x, out, A, B, C):
    d = tl.make_tensor_descriptor(x, [A, B, C], [B * C, C, 1], [2, 4, 16])
    o = tl.make_tensor_descriptor(out, [A, B, C], [B * C, C, 1], [2, 4, 16])
    t = d.load([1, 2, 3])
    o.store([0, 0, 0], t * 2.0)


# The conformance kernels.
# RUN: tritium compile %S/../../conformance/kernels/control.py --kernel descriptor_kernel --signature "*fp32:16,*fp32:16,i32,i32,16,32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-CONF
# CHECK-CONF-LABEL: .entry descriptor_kernel(
# CHECK-CONF: @%p{{[0-9]+}} ld.global.v4.b32
# CHECK-CONF: mul.f32
# CHECK-CONF: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# RUN: tritium compile %S/../../conformance/kernels/misc.py --kernel desc_extras_kernel --signature "*fp32:16,*i32:16,*fp32:16,*fp32:16,i32,8" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-EXTRAS
# CHECK-EXTRAS-LABEL: .entry desc_extras_kernel(
# CHECK-EXTRAS: red.global.add.f32
# CHECK-EXTRAS: ld.global.{{(nc.)?}}b32
# CHECK-EXTRAS: @%p{{[0-9]+}} st.global

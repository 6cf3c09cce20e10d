# On AMD targets: libdevice's integer and predicate functions as LLVM IR
# (no libdevice there, and ocml has no such names), round-toward-zero
# narrowing, and tensor descriptors as masked global accesses.

# Bit functions: clz(0) is the width (ctlz, zero not poison), ffs(0) is 0,
# results are i32 whatever the operand's width.
# RUN: tritium compile %s --kernel int_kernel --signature "*i32:16,*i32:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=INT32
# INT32-LABEL: define amdgpu_kernel void @int_kernel(
# INT32-DAG: call {{.*}}i32 @llvm.ctlz.i32(i32 %{{.*}}, i1 false)
# INT32-DAG: call {{.*}}i32 @llvm.ctpop.i32(
# INT32-DAG: call {{.*}}i32 @llvm.bitreverse.i32(
# INT32-DAG: call {{.*}}i32 @llvm.cttz.i32(i32 %{{.*}}, i1 true)
# INT32-NOT: __nv_
# RUN: tritium compile %s --kernel int_kernel --signature "*i64:16,*i32:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=INT64
# INT64-LABEL: define amdgpu_kernel void @int_kernel(
# INT64-DAG: call {{.*}}i64 @llvm.ctlz.i64(i64 %{{.*}}, i1 false)
# INT64-DAG: call {{.*}}i64 @llvm.ctpop.i64(
# INT64-DAG: call {{.*}}i64 @llvm.bitreverse.i64(
# INT64-DAG: call {{.*}}i64 @llvm.cttz.i64(i64 %{{.*}}, i1 true)
# INT64-NOT: __nv_
# RUN: tritium compile %s --kernel int_kernel --signature "*i32:16,*i32:16,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=INT-ASM
# INT-ASM-LABEL: int_kernel:
# INT-ASM-DAG: v_ffbh_u32
# INT-ASM-DAG: v_bcnt_u32_b32
# INT-ASM-DAG: v_bfrev_b32
# INT-ASM-DAG: v_ffbl_b32
# INT-ASM: s_endpgm

# Predicates are 0 or 1 (NaN: unordered; inf and finite by class); signbit
# is the sign bit shifted down.
# RUN: tritium compile %s --kernel pred_kernel --signature "*fp32:16,*i32:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=PRED
# PRED-LABEL: define amdgpu_kernel void @pred_kernel(
# PRED: fcmp uno float
# PRED: fcmp oeq float {{.*}}, 0x7FF0000000000000
# PRED: lshr i32 %{{.*}}, 31
# PRED-NOT: __nv_
# RUN: tritium compile %s --kernel pred_kernel --signature "*fp64:16,*i32:16,64" --target hip:gfx90a --emit llir | FileCheck %s --check-prefix=PRED64
# PRED64-LABEL: define amdgpu_kernel void @pred_kernel(
# PRED64: fcmp uno double
# PRED64: fcmp oeq double {{.*}}, 0x7FF0000000000000
# PRED64: lshr i64 %{{.*}}, 63
# PRED64-NOT: __nv_

# Other integer functions and bit reinterpretations.
# RUN: tritium compile %s --kernel misc_kernel --signature "*i32:16,*fp32:16,64" --target hip:gfx950 --emit llir | FileCheck %s --check-prefix=MISC
# MISC-LABEL: define amdgpu_kernel void @misc_kernel(
# MISC-DAG: mul {{.*}}i64
# MISC-DAG: call i32 @llvm.abs.i32(i32 %{{.*}}, i1 false)
# MISC-NOT: __nv_
# RUN: tritium compile %s --kernel misc_kernel --signature "*i32:16,*fp32:16,64" --target hip:gfx950 --emit hsaco -o %t.misc.hsaco

# A function with no AMD lowering is still an error at its call.
# RUN: not tritium compile %s --kernel add_rz_kernel --signature "*fp32:16,64" --target hip:gfx942 --emit amdgcn 2>&1 | FileCheck %s --check-prefix=ADDRZ
# ADDRZ: amd-libdevice.py:{{[0-9]+}}:{{[0-9]+}}: error: this operation is not supported on hip:gfx942 yet (its lowering is libdevice's __nv_fadd_rz)

# Round-toward-zero narrowing: f32 -> f16 and f64 -> f32 are the
# conversion instruction under the round-toward-zero mode (f64 -> f16 both,
# in turn); f32 -> bf16 keeps fp32's upper half, a NaN's quiet bit set.
# RUN: tritium compile %s --kernel rtz_kernel --signature "*fp32:16,*fp16:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=RTZ16
# RTZ16: call half @llvm.fptrunc.round.f16.f32(float %{{.*}}, metadata !"round.towardzero")
# RUN: tritium compile %s --kernel rtz_kernel --signature "*fp32:16,*fp16:16,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=RTZ16-ASM
# RTZ16-ASM: s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 3
# RTZ16-ASM: v_cvt_f16_f32
# RUN: tritium compile %s --kernel rtz_kernel --signature "*fp64:16,*fp16:16,64" --target hip:gfx90a --emit llir | FileCheck %s --check-prefix=RTZ64
# RTZ64: call float @llvm.fptrunc.round.f32.f64(double %{{.*}}, metadata !"round.towardzero")
# RTZ64: call half @llvm.fptrunc.round.f16.f32(float %{{.*}}, metadata !"round.towardzero")
# RUN: tritium compile %s --kernel rtz_kernel --signature "*fp32:16,*bf16:16,64" --target hip:gfx950 --emit llir | FileCheck %s --check-prefix=RTZBF
# RTZBF: lshr i32 %{{.*}}, 16
# RTZBF: fcmp uno float
# RTZBF-NOT: fptrunc
# RUN: for a in gfx90a gfx942 gfx950; do \
# RUN:   tritium compile %s --kernel rtz_kernel --signature "*fp32:16,*bf16:16,64" --target hip:$a --emit hsaco -o %t.$a.rtzbf.hsaco && \
# RUN:   tritium compile %s --kernel rtz_kernel --signature "*fp64:16,*bf16:16,64" --target hip:$a --emit hsaco -o %t.$a.rtz64bf.hsaco && \
# RUN:   tritium compile %s --kernel rtz_kernel --signature "*fp64:16,*fp32:16,64" --target hip:$a --emit hsaco -o %t.$a.rtz64.hsaco || exit 1; \
# RUN: done
# On NVIDIA, fp64 -> f16 rounds toward zero twice too (never to nearest).
# RUN: tritium compile %s --kernel rtz_kernel --signature "*fp64:16,*fp16:16,64" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=RTZ-PTX
# RTZ-PTX: cvt.rz.f32.f64
# RTZ-PTX: cvt.rz.f16.f32

# Tensor descriptors: LLVM's masked loads and stores (vectors where a
# thread's run is inside the tensor and aligned), reductions by atomicrmw.
# RUN: tritium compile %s --kernel desc_kernel --signature "*fp32:16,*fp32:16,i32,i32,32,32" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=DESC
# DESC-LABEL: define amdgpu_kernel void @desc_kernel(
# DESC-NOT: asm
# DESC: call <4 x i32> @llvm.masked.load.v4i32.p1(
# DESC: call <1 x i32> @llvm.masked.load.v1i32.p1(
# DESC: call void @llvm.masked.store.v4i32.p1(
# DESC: call void @llvm.masked.store.v1i32.p1(
# DESC: atomicrmw fadd ptr addrspace(1) {{.*}} syncscope("agent") monotonic
# RUN: tritium compile %s --kernel desc_kernel --signature "*fp32:16,*fp32:16,i32,i32,32,32" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=DESC-ASM
# DESC-ASM-LABEL: desc_kernel:
# DESC-ASM: global_load_dwordx4
# DESC-ASM: global_store_dwordx4
# DESC-ASM: global_atomic_add_f32
# DESC-ASM: s_endpgm

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def int_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    r = libdevice.clz(x) + libdevice.popc(x) + libdevice.ffs(x)
    tl.store(out_ptr + offs, r)
    tl.store(x_ptr + offs, libdevice.brev(x))


@triton.jit
def pred_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.isnan(x).to(tl.int32))
    tl.store(out_ptr + BLOCK + offs, libdevice.isinf(x).to(tl.int32))
    tl.store(out_ptr + 2 * BLOCK + offs, libdevice.signbit(x))


@triton.jit
def misc_kernel(x_ptr, f_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(x_ptr + offs + 1)
    r = (libdevice.mulhi(x, y) + libdevice.abs(x) + libdevice.mul24(x, y)
         + libdevice.hadd(x, y) + libdevice.rhadd(x, y)
         + libdevice.sad(x, y, x.to(tl.uint32)) + libdevice.byte_perm(x, y, y)
         + libdevice.float_as_int(libdevice.int_as_float(x))
         + libdevice.finitef(tl.load(f_ptr + offs)).to(tl.int32))
    tl.store(x_ptr + offs, r)


@triton.jit
def add_rz_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, libdevice.add_rz(x, x))


@triton.jit
def rtz_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs,
             tl.cast(x, out_ptr.dtype.element_ty, fp_downcast_rounding="rtz"))


@triton.jit
def desc_kernel(a_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1],
                                    block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1],
                                    block_shape=[BM, BN])
    x = src.load([tl.program_id(0) * BM, 0])
    dst.store([tl.program_id(0) * BM, 0], x * 3.0)
    dst.atomic_add([0, 0], x)

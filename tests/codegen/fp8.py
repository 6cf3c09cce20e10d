# fp8 on the GPU: tile.fp_to_fp to and from fp8 is integer arithmetic on the
# codes (no cvt to or from e4m3/e5m2, so it lowers for sm_80 as well), and
# tl.dot on fp8 operands decodes them to fp32 for the FMA path.

# RUN: tritium compile %s --kernel down_kernel --signature "*fp32:16,*u8:16,i32,128" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-DOWN
# CHECK-DOWN-LABEL: .entry down_kernel(
# CHECK-DOWN-NOT: e4m3
# CHECK-DOWN: and.b32 {{.*}}, 2147483647;
# CHECK-DOWN-NOT: e4m3
# CHECK-DOWN: st.global.u8

# RUN: tritium compile %s --kernel down_rtz_kernel --signature "*bf16:16,*u8:16,i32,128" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-RTZ
# CHECK-RTZ-LABEL: .entry down_rtz_kernel(
# CHECK-RTZ-NOT: cvt.rz
# CHECK-RTZ: st.global.u8

# e5m2 -> fp16 shifts the code into the top byte; NaN codes become 0x7e00.
# RUN: tritium compile %s --kernel up_kernel --signature "*u8:16,*fp16:16,i32,128" --target cuda:90 --emit llir | FileCheck %s --check-prefix=CHECK-UP
# CHECK-UP-LABEL: define ptx_kernel void @up_kernel(
# CHECK-UP: shl {{.*}}, 8
# CHECK-UP: select i1 {{.*}}, i16 32256,
# CHECK-UP: st.global.b16

# RUN: tritium compile %s --kernel cross_kernel --signature "*u8:16,*u8:16,i32,128" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-CROSS
# CHECK-CROSS-LABEL: .entry cross_kernel(
# CHECK-CROSS: cvt.rn.f32.u32
# CHECK-CROSS: st.global.u8

# A kernel converting more registers than kFp8InlineConversions (an fp8
# reduction: every step decodes both sides and rounds its sum) converts the
# first ones in place and the rest through one helper per conversion, so
# that the kernel stays small for LLVM (it took 14 s to compile, under 1 s now);
# a few conversions stay in place.
# RUN: tritium compile %s --kernel fp8_sum --signature "*fp8e5,*fp32:16,128" --target cuda:90 --emit llir | FileCheck %s --check-prefix=CHECK-OUTLINE
# CHECK-OUTLINE-LABEL: define ptx_kernel void @fp8_sum(
# CHECK-OUTLINE: call {{.*}}i8 @__tritium_cvt_f32_f8E5M2(float
# CHECK-OUTLINE: call {{.*}}float @__tritium_cvt_f8E5M2_f32(i8
# CHECK-OUTLINE: define internal {{.*}}i8 @__tritium_cvt_f32_f8E5M2(float {{.*}}) {{.*}}#[[A:[0-9]+]]
# CHECK-OUTLINE: attributes #[[A]] = { {{.*}}noinline
# RUN: tritium compile %s --kernel fp8_sum --signature "*fp8e5,*fp32:16,16" --target cuda:90 --emit llir | FileCheck %s --check-prefix=CHECK-INPLACE
# CHECK-INPLACE-NOT: __tritium_cvt

# fp8 x fp8 (mixed formats): tensor cores on sm_89+ (m16n8k32, each side
# its own format), decoded to fp32 on the FMA path before.
# RUN: tritium compile %s --kernel dot_kernel --signature "*u8:16,*u8:16,*fp32:16,32,32,32" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-DOT
# CHECK-DOT: .version 8.4
# CHECK-DOT-LABEL: .entry dot_kernel(
# CHECK-DOT: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
# CHECK-DOT: st.global
# RUN: tritium compile %s --kernel dot_kernel --signature "*u8:16,*u8:16,*fp32:16,32,32,32" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-DOT80
# CHECK-DOT80-LABEL: .entry dot_kernel(
# CHECK-DOT80-NOT: mma.sync
# CHECK-DOT80: fma.rn.f32
# CHECK-DOT80-NOT: mma.sync
# CHECK-DOT80: st.global

import triton
import triton.language as tl


@triton.jit
def down_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = x.to(tl.float8e4nv)
    tl.store(out_ptr + offs, y.to(tl.uint8, bitcast=True), mask=mask)


@triton.jit
def down_rtz_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.cast(x, tl.float8e5, fp_downcast_rounding="rtz")
    tl.store(out_ptr + offs, y.to(tl.uint8, bitcast=True), mask=mask)


@triton.jit
def up_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    codes = tl.load(x_ptr + offs, mask=mask)
    x = codes.to(tl.float8e5, bitcast=True)
    tl.store(out_ptr + offs, x.to(tl.float16), mask=mask)


@triton.jit
def cross_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    codes = tl.load(x_ptr + offs, mask=mask)
    y = codes.to(tl.float8e4b8, bitcast=True).to(tl.float8e5)
    tl.store(out_ptr + offs, y.to(tl.uint8, bitcast=True), mask=mask)


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    a = a.to(tl.float8e4nv, bitcast=True)
    b = b.to(tl.float8e5, bitcast=True)
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)


# Arithmetic, comparisons and math on fp8 values (Triton keeps `x * s` of
# two e5m2 values e5m2) compute in fp32 between conversions, the result
# rounded back: no float instruction on the bytes (a scalar fp8 parameter
# included), for sm_90 and sm_80.
# RUN: tritium compile %s --kernel arith_kernel --signature "*fp8e5:16,fp8e5,*fp8e4nv:16,16" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-ARITH
# CHECK-ARITH-LABEL: func.func @arith_kernel
# CHECK-ARITH-DAG: arith.cmpf ogt, {{.*}} : tensor<16xf32
# CHECK-ARITH-DAG: arith.mulf {{.*}} : tensor<16xf32
# CHECK-ARITH-DAG: arith.maxnumf {{.*}} : tensor<16xf32
# CHECK-ARITH-DAG: tile.fp_to_fp {{.*}}, rounding = rtne : tensor<16xf32{{.*}}> -> tensor<16xf8E5M2
# RUN: tritium compile %s --kernel arith_kernel --signature "*fp8e5:16,fp8e5,*fp8e4nv:16,16" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-ARITH80
# CHECK-ARITH80-LABEL: .entry arith_kernel(
# CHECK-ARITH80: st.global.u8
@triton.jit
def arith_kernel(x_ptr, s, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.where(x > s, x * s, -x)
    tl.store(x_ptr + offs, tl.maximum(y, x))
    tl.store(y_ptr + offs, (tl.load(y_ptr + offs) + 1.0).to(tl.float8e4nv))


@triton.jit
def fp8_sum(x_ptr, y_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    tl.store(y_ptr + o, tl.sum(x, axis=1) + x.sum())

# Operator typing and promotion (TRITON.md 1, "Type promotion"): which arith
# op each Python operator becomes, and which casts make the operands agree.
# Kind order bool < int < float; the wider type wins; fp16 with bf16 gives
# fp16; '/' and '%' take fp16/bf16 to fp32; int / int gives fp32; '//' and '%'
# are signed or unsigned after the operand types; a Python scalar of the same
# or a lower kind does not take part in the promotion; literals are typed by
# range. Signedness lives in the frontend only: a u32 is an MLIR i32.

import triton
import triton.language as tl


# ---- float promotion ----

# RUN: tritium compile %s --kernel fp16_plus_bf16 --signature "*fp16,*bf16,64" --emit tile | FileCheck %s --check-prefix=CHECK-F16-BF16
# CHECK-F16-BF16-LABEL: func.func @fp16_plus_bf16
# CHECK-F16-BF16: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-F16-BF16: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# bf16 -> fp16 goes through fp32, as Triton's cast does.
# CHECK-F16-BF16: %[[BW:.*]] = arith.extf %[[B]] : tensor<64xbf16> to tensor<64xf32>
# CHECK-F16-BF16: %[[BN:.*]] = arith.truncf %[[BW]] : tensor<64xf32> to tensor<64xf16>
# CHECK-F16-BF16: %[[S:.*]] = arith.addf %[[A]], %[[BN]] : tensor<64xf16>
# CHECK-F16-BF16: tile.store {{.*}}, %[[S]] : tensor<64x!tile.ptr<f16>>
@triton.jit
def fp16_plus_bf16(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(A + offs, a + b)


# RUN: tritium compile %s --kernel fp16_plus_fp32 --signature "*fp16,*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-F16-F32
# CHECK-F16-F32-LABEL: func.func @fp16_plus_fp32
# CHECK-F16-F32: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-F16-F32: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-F16-F32: %[[AW:.*]] = arith.extf %[[A]] : tensor<64xf16> to tensor<64xf32>
# CHECK-F16-F32: %[[S:.*]] = arith.addf %[[AW]], %[[B]] : tensor<64xf32>
# CHECK-F16-F32: tile.store {{.*}}, %[[S]] : tensor<64x!tile.ptr<f32>>
@triton.jit
def fp16_plus_fp32(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(B + offs, a + b)


# RUN: tritium compile %s --kernel fp32_plus_fp64 --signature "*fp32,*fp64,64" --emit tile | FileCheck %s --check-prefix=CHECK-F32-F64
# CHECK-F32-F64-LABEL: func.func @fp32_plus_fp64
# CHECK-F32-F64: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-F32-F64: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f64>>
# CHECK-F32-F64: %[[AW:.*]] = arith.extf %[[A]] : tensor<64xf32> to tensor<64xf64>
# CHECK-F32-F64: arith.addf %[[AW]], %[[B]] : tensor<64xf64>
@triton.jit
def fp32_plus_fp64(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(B + offs, a + b)


# bf16 with anything but bf16 (here an int) computes in fp32.
# RUN: tritium compile %s --kernel bf16_plus_int --signature "*bf16,*i32,*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-BF16-INT
# CHECK-BF16-INT-LABEL: func.func @bf16_plus_int
# CHECK-BF16-INT: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# CHECK-BF16-INT: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-BF16-INT: %[[AW:.*]] = arith.extf %[[A]] : tensor<64xbf16> to tensor<64xf32>
# CHECK-BF16-INT: %[[BF:.*]] = arith.sitofp %[[B]] : tensor<64xi32> to tensor<64xf32>
# CHECK-BF16-INT: arith.addf %[[AW]], %[[BF]] : tensor<64xf32>
@triton.jit
def bf16_plus_int(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a + b)


# bf16 with bf16 stays bf16.
# RUN: tritium compile %s --kernel bf16_plus_bf16 --signature "*bf16,*bf16,64" --emit tile | FileCheck %s --check-prefix=CHECK-BF16-BF16
# CHECK-BF16-BF16-LABEL: func.func @bf16_plus_bf16
# CHECK-BF16-BF16: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# CHECK-BF16-BF16: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# CHECK-BF16-BF16-NOT: arith.extf
# CHECK-BF16-BF16: arith.addf %[[A]], %[[B]] : tensor<64xbf16>
@triton.jit
def bf16_plus_bf16(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(A + offs, a + b)


# An int with fp16 computes in fp16.
# RUN: tritium compile %s --kernel int_plus_fp16 --signature "*i32,*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-INT-F16
# CHECK-INT-F16-LABEL: func.func @int_plus_fp16
# CHECK-INT-F16: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-INT-F16: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-INT-F16: %[[AF:.*]] = arith.sitofp %[[A]] : tensor<64xi32> to tensor<64xf16>
# CHECK-INT-F16: arith.addf %[[AF]], %[[B]] : tensor<64xf16>
@triton.jit
def int_plus_fp16(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(B + offs, a + b)


# Two different fp8 types meet in fp16.
# RUN: tritium compile %s --kernel fp8_mixed --signature "*fp8e5,*fp8e4nv,*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-FP8
# CHECK-FP8-LABEL: func.func @fp8_mixed
# CHECK-FP8: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f8E5M2>>
# CHECK-FP8: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f8E4M3FN>>
# CHECK-FP8: %[[AH:.*]] = tile.fp_to_fp %[[A]] : tensor<64xf8E5M2> -> tensor<64xf16>
# CHECK-FP8: %[[BH:.*]] = tile.fp_to_fp %[[B]] : tensor<64xf8E4M3FN> -> tensor<64xf16>
# CHECK-FP8: arith.addf %[[AH]], %[[BH]] : tensor<64xf16>
@triton.jit
def fp8_mixed(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a + b)


# ---- '/' and '%' ----

# RUN: tritium compile %s --kernel int_truediv --signature "*i32,*i32,*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-INT-DIV
# CHECK-INT-DIV-LABEL: func.func @int_truediv
# CHECK-INT-DIV: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-INT-DIV: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-INT-DIV: %[[AF:.*]] = arith.sitofp %[[A]] : tensor<64xi32> to tensor<64xf32>
# CHECK-INT-DIV: %[[BF:.*]] = arith.sitofp %[[B]] : tensor<64xi32> to tensor<64xf32>
# CHECK-INT-DIV: %[[Q:.*]] = arith.divf %[[AF]], %[[BF]] : tensor<64xf32>
# CHECK-INT-DIV: tile.store {{.*}}, %[[Q]] : tensor<64x!tile.ptr<f32>>
@triton.jit
def int_truediv(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a / b)


# fp16 / fp16 is computed in fp32; storing to an fp16 pointer truncates.
# RUN: tritium compile %s --kernel fp16_truediv --signature "*fp16,*fp16,*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-F16-DIV
# CHECK-F16-DIV-LABEL: func.func @fp16_truediv
# CHECK-F16-DIV: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-F16-DIV: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-F16-DIV: %[[AW:.*]] = arith.extf %[[A]] : tensor<64xf16> to tensor<64xf32>
# CHECK-F16-DIV: %[[BW:.*]] = arith.extf %[[B]] : tensor<64xf16> to tensor<64xf32>
# CHECK-F16-DIV: %[[Q:.*]] = arith.divf %[[AW]], %[[BW]] : tensor<64xf32>
# CHECK-F16-DIV: %[[QN:.*]] = arith.truncf %[[Q]] : tensor<64xf32> to tensor<64xf16>
# CHECK-F16-DIV: tile.store {{.*}}, %[[QN]] : tensor<64x!tile.ptr<f16>>
@triton.jit
def fp16_truediv(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a / b)


# RUN: tritium compile %s --kernel half_mod --signature "*bf16,*bf16,*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-BF16-MOD
# CHECK-BF16-MOD-LABEL: func.func @half_mod
# CHECK-BF16-MOD: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# CHECK-BF16-MOD: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<bf16>>
# CHECK-BF16-MOD: %[[AW:.*]] = arith.extf %[[A]] : tensor<64xbf16> to tensor<64xf32>
# CHECK-BF16-MOD: %[[BW:.*]] = arith.extf %[[B]] : tensor<64xbf16> to tensor<64xf32>
# CHECK-BF16-MOD: arith.remf %[[AW]], %[[BW]] : tensor<64xf32>
@triton.jit
def half_mod(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a % b)


# '//' and '%' on signed ints: divsi/remsi ...
# RUN: tritium compile %s --kernel int_floordiv_mod --signature "*i32,*i32,*i32,*i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-SDIV
# CHECK-SDIV-LABEL: func.func @int_floordiv_mod
# CHECK-SDIV: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-SDIV: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-SDIV: %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : tensor<64xi32>
# CHECK-SDIV: tile.store {{.*}}, %[[Q]]
# CHECK-SDIV: %[[R:.*]] = arith.remsi %[[A]], %[[B]] : tensor<64xi32>
# CHECK-SDIV: tile.store {{.*}}, %[[R]]
# ... and divui/remui on unsigned ones (same kernel, u32 pointers).
# RUN: tritium compile %s --kernel int_floordiv_mod --signature "*u32,*u32,*u32,*u32,64" --emit tile | FileCheck %s --check-prefix=CHECK-UDIV
# CHECK-UDIV-LABEL: func.func @int_floordiv_mod
# CHECK-UDIV: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-UDIV: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-UDIV: %[[Q:.*]] = arith.divui %[[A]], %[[B]] : tensor<64xi32>
# CHECK-UDIV: tile.store {{.*}}, %[[Q]]
# CHECK-UDIV: %[[R:.*]] = arith.remui %[[A]], %[[B]] : tensor<64xi32>
# CHECK-UDIV: tile.store {{.*}}, %[[R]]
@triton.jit
def int_floordiv_mod(A, B, C, D, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a // b)
    tl.store(D + offs, a % b)


# ---- integer promotion ----

# RUN: tritium compile %s --kernel int_widths --signature "*i32,*i64,*u8,64" --emit tile | FileCheck %s --check-prefix=CHECK-INT-WIDTH
# CHECK-INT-WIDTH-LABEL: func.func @int_widths
# CHECK-INT-WIDTH: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-INT-WIDTH: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i64>>
# CHECK-INT-WIDTH: %[[C:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i8>>
# i32 with i64: sign-extend to i64.
# CHECK-INT-WIDTH: %[[AW:.*]] = arith.extsi %[[A]] : tensor<64xi32> to tensor<64xi64>
# CHECK-INT-WIDTH: arith.addi %[[AW]], %[[B]]{{( \{tile.signed\})?}} : tensor<64xi64>
# u8 with i32: the wider signed type wins, the u8 is zero-extended.
# CHECK-INT-WIDTH: %[[CW:.*]] = arith.extui %[[C]] : tensor<64xi8> to tensor<64xi32>
# CHECK-INT-WIDTH: arith.addi %[[CW]], %[[A]]{{( \{tile.signed\})?}} : tensor<64xi32>
@triton.jit
def int_widths(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    c = tl.load(C + offs)
    tl.store(B + offs, a + b)
    tl.store(A + offs, c + a)


# i32 with u32 (same width, different sign) is unsigned: ult, no cast.
# RUN: tritium compile %s --kernel mixed_sign_compare --signature "*i32,*u32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-MIXED-CMP
# CHECK-MIXED-CMP-LABEL: func.func @mixed_sign_compare
# CHECK-MIXED-CMP: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-MIXED-CMP: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-MIXED-CMP-NOT: arith.ext
# CHECK-MIXED-CMP: arith.cmpi ult, %[[A]], %[[B]] : tensor<64xi32>
@triton.jit
def mixed_sign_compare(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a < b)


# ---- shifts and comparisons ----

# RUN: tritium compile %s --kernel shifts --signature "*i32,*u32,64" --emit tile | FileCheck %s --check-prefix=CHECK-SHIFT
# CHECK-SHIFT-LABEL: func.func @shifts
# CHECK-SHIFT: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-SHIFT: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-SHIFT: %[[C3:.*]] = arith.constant 3 : i32
# CHECK-SHIFT: %[[S3:.*]] = tile.splat %[[C3]] : tensor<64xi32>
# CHECK-SHIFT: arith.shrsi %[[A]], %[[S3]] : tensor<64xi32>
# CHECK-SHIFT: arith.shrui %[[B]], %{{.*}} : tensor<64xi32>
# CHECK-SHIFT: arith.shli %[[A]], %{{.*}} : tensor<64xi32>
@triton.jit
def shifts(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(A + offs, a >> 3)
    tl.store(B + offs, b >> 3)
    tl.store(A + offs, a << 2)


# RUN: tritium compile %s --kernel int_compares --signature "*i32,*u32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-ICMP
# CHECK-ICMP-LABEL: func.func @int_compares
# CHECK-ICMP: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-ICMP: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-ICMP: arith.cmpi slt, %[[A]], %{{.*}} : tensor<64xi32>
# CHECK-ICMP: arith.cmpi ult, %[[B]], %{{.*}} : tensor<64xi32>
# CHECK-ICMP: arith.cmpi sge, %[[A]], %{{.*}} : tensor<64xi32>
# CHECK-ICMP: arith.cmpi uge, %[[B]], %{{.*}} : tensor<64xi32>
# CHECK-ICMP: arith.cmpi eq, %[[A]], %{{.*}} : tensor<64xi32>
# CHECK-ICMP: arith.cmpi ne, %[[B]], %{{.*}} : tensor<64xi32>
@triton.jit
def int_compares(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(C + offs, a < 5)
    tl.store(C + offs, b < 5)
    tl.store(C + offs, a >= 5)
    tl.store(C + offs, b >= 5)
    tl.store(C + offs, a == 5)
    tl.store(C + offs, b != 5)


# RUN: tritium compile %s --kernel float_compares --signature "*fp32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-FCMP
# CHECK-FCMP-LABEL: func.func @float_compares
# CHECK-FCMP: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-FCMP: arith.cmpf olt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-FCMP: arith.cmpf oeq, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-FCMP: arith.cmpf une, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-FCMP: arith.cmpf oge, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-FCMP: arith.cmpf ogt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-FCMP: arith.cmpf ole, %[[A]], %{{.*}} : tensor<64xf32>
@triton.jit
def float_compares(A, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(C + offs, a < 1.0)
    tl.store(C + offs, a == 1.0)
    tl.store(C + offs, a != 1.0)
    tl.store(C + offs, a >= 1.0)
    tl.store(C + offs, a > 1.0)
    tl.store(C + offs, a <= 1.0)


# a < b < c is (a < b) and (b < c), b evaluated once (an extension: Triton
# itself rejects chained comparisons).
# RUN: tritium compile %s --kernel chained_compare --signature "*fp32,fp32,fp32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-CHAIN
# CHECK-CHAIN-LABEL: func.func @chained_compare(%arg0: !tile.ptr<f32>, %arg1: f32, %arg2: f32
# CHECK-CHAIN: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-CHAIN: %[[LO:.*]] = tile.splat %arg1 : tensor<64xf32>
# CHECK-CHAIN: %[[C1:.*]] = arith.cmpf olt, %[[LO]], %[[A]] : tensor<64xf32>
# CHECK-CHAIN: %[[HI:.*]] = tile.splat %arg2 : tensor<64xf32>
# CHECK-CHAIN: %[[C2:.*]] = arith.cmpf olt, %[[A]], %[[HI]] : tensor<64xf32>
# CHECK-CHAIN: %[[BOTH:.*]] = arith.andi %[[C1]], %[[C2]] : tensor<64xi1>
# CHECK-CHAIN: arith.extui %[[BOTH]] : tensor<64xi1> to tensor<64xi8>
@triton.jit
def chained_compare(A, lo, hi, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(C + offs, lo < a < hi)


# ---- Python scalars and literals ----

# A Python scalar of the same or a lower kind does not promote the tensor.
# RUN: tritium compile %s --kernel literal_operands --signature "*i32,*i8,*fp32,*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-LIT
# CHECK-LIT-LABEL: func.func @literal_operands
# CHECK-LIT: %[[X32:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-LIT: %[[X8:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i8>>
# CHECK-LIT: %[[XH:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# x_i32 + 1 stays i32:
# CHECK-LIT: %[[ONE32:.*]] = arith.constant 1 : i32
# CHECK-LIT: %[[S1:.*]] = tile.splat %[[ONE32]] : tensor<64xi32>
# CHECK-LIT: arith.addi %[[X32]], %[[S1]]{{( \{tile.signed\})?}} : tensor<64xi32>
# x_i8 + 1 stays i8:
# CHECK-LIT: %[[ONE8:.*]] = arith.constant 1 : i8
# CHECK-LIT: %[[S8:.*]] = tile.splat %[[ONE8]] : tensor<64xi8>
# CHECK-LIT: arith.addi %[[X8]], %[[S8]]{{( \{tile.signed\})?}} : tensor<64xi8>
# x_i32 + 1.5: a float scalar is of a higher kind, so fp32:
# CHECK-LIT: %[[XF:.*]] = arith.sitofp %[[X32]] : tensor<64xi32> to tensor<64xf32>
# CHECK-LIT: %[[C15:.*]] = arith.constant 1.500000e+00 : f32
# CHECK-LIT: %[[S15:.*]] = tile.splat %[[C15]] : tensor<64xf32>
# CHECK-LIT: arith.addf %[[XF]], %[[S15]] : tensor<64xf32>
# x_fp16 * 0.5 stays fp16, with the constant made in fp16:
# CHECK-LIT: %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
# CHECK-LIT: %[[SH:.*]] = tile.splat %[[HALF]] : tensor<64xf16>
# CHECK-LIT: arith.mulf %[[XH]], %[[SH]] : tensor<64xf16>
@triton.jit
def literal_operands(A32, A8, AF, AH, N: tl.constexpr):
    offs = tl.arange(0, N)
    x32 = tl.load(A32 + offs)
    x8 = tl.load(A8 + offs)
    xh = tl.load(AH + offs)
    tl.store(A32 + offs, x32 + 1)
    tl.store(A8 + offs, x8 + 1)
    tl.store(AF + offs, x32 + 1.5)
    tl.store(AH + offs, xh * 0.5)


# A constexpr parameter is a Python scalar too; a runtime scalar argument is
# not, so it takes part in the promotion.
# RUN: tritium compile %s --kernel scalar_operands --signature "*i8,i32,*i32,4" --emit tile | FileCheck %s --check-prefix=CHECK-SCALAR
# CHECK-SCALAR-LABEL: func.func @scalar_operands(%arg0: !tile.ptr<i8>, %arg1: i32, %arg2: !tile.ptr<i32>)
# CHECK-SCALAR: %[[X:.*]] = tile.load {{.*}} : tensor<4x!tile.ptr<i8>>
# x_i8 + n_i32 is i32:
# CHECK-SCALAR: %[[XW:.*]] = arith.extsi %[[X]] : tensor<4xi8> to tensor<4xi32>
# CHECK-SCALAR: %[[NS:.*]] = tile.splat %arg1 : tensor<4xi32>
# CHECK-SCALAR: arith.addi %[[XW]], %[[NS]]{{( \{tile.signed\})?}} : tensor<4xi32>
# x_i8 + N (constexpr 4) stays i8:
# CHECK-SCALAR: %[[C4:.*]] = arith.constant 4 : i8
# CHECK-SCALAR: %[[S4:.*]] = tile.splat %[[C4]] : tensor<4xi8>
# CHECK-SCALAR: arith.addi %[[X]], %[[S4]]{{( \{tile.signed\})?}} : tensor<4xi8>
@triton.jit
def scalar_operands(A, n, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(C + offs, a + n)
    tl.store(C + offs, a + N)


# Literals alone are typed by range: -1 is i32 (sign-extended when stored to
# i64), 3000000000 is u32 (zero-extended), 2**33 is i64, 2**63 is u64.
# RUN: tritium compile %s --kernel literal_types --signature "*i64,*u64" --emit tile | FileCheck %s --check-prefix=CHECK-LIT-TYPE
# CHECK-LIT-TYPE-LABEL: func.func @literal_types
# CHECK-LIT-TYPE: %[[M1:.*]] = arith.constant -1 : i32
# CHECK-LIT-TYPE: %[[M1W:.*]] = arith.extsi %[[M1]] : i32 to i64
# CHECK-LIT-TYPE: tile.store %arg0, %[[M1W]] : !tile.ptr<i64>
# CHECK-LIT-TYPE: %[[U:.*]] = arith.constant -1294967296 : i32
# CHECK-LIT-TYPE: %[[UW:.*]] = arith.extui %[[U]] : i32 to i64
# CHECK-LIT-TYPE: tile.store %arg0, %[[UW]] : !tile.ptr<i64>
# CHECK-LIT-TYPE: %[[L:.*]] = arith.constant 8589934592 : i64
# CHECK-LIT-TYPE-NEXT: tile.store %arg0, %[[L]] : !tile.ptr<i64>
# CHECK-LIT-TYPE: %[[UL:.*]] = arith.constant -9223372036854775808 : i64
# CHECK-LIT-TYPE-NEXT: tile.store %arg1, %[[UL]] : !tile.ptr<i64>
@triton.jit
def literal_types(P64, PU64):
    tl.store(P64, -1)
    tl.store(P64, 3000000000)
    tl.store(P64, 2**33)
    tl.store(PU64, 2**63)


# Constexpr values given in --signature are typed like literals: 3000000000
# is u32, 4294967296 is i64, 2**63 is u64 (not a float).
# RUN: tritium compile %s --kernel signature_constant --signature "*i64,3000000000" --emit tile | FileCheck %s --check-prefix=CHECK-SIG-U32
# CHECK-SIG-U32-LABEL: func.func @signature_constant(%arg0: !tile.ptr<i64>)
# CHECK-SIG-U32: %[[C:.*]] = arith.constant -1294967296 : i32
# CHECK-SIG-U32: %[[W:.*]] = arith.extui %[[C]] : i32 to i64
# CHECK-SIG-U32: tile.store %arg0, %[[W]] : !tile.ptr<i64>
# RUN: tritium compile %s --kernel signature_constant --signature "*i64,4294967296" --emit tile | FileCheck %s --check-prefix=CHECK-SIG-I64
# CHECK-SIG-I64-LABEL: func.func @signature_constant(%arg0: !tile.ptr<i64>)
# CHECK-SIG-I64: %[[C:.*]] = arith.constant 4294967296 : i64
# CHECK-SIG-I64-NEXT: tile.store %arg0, %[[C]] : !tile.ptr<i64>
# RUN: tritium compile %s --kernel signature_constant --signature "*i64,9223372036854775808" --emit tile | FileCheck %s --check-prefix=CHECK-SIG-U64
# CHECK-SIG-U64-LABEL: func.func @signature_constant(%arg0: !tile.ptr<i64>)
# CHECK-SIG-U64-NOT: f32
# CHECK-SIG-U64: %[[C:.*]] = arith.constant -9223372036854775808 : i64
# CHECK-SIG-U64-NEXT: tile.store %arg0, %[[C]] : !tile.ptr<i64>
@triton.jit
def signature_constant(P, V: tl.constexpr):
    tl.store(P, V)


# Integer '/' by a literal: the literal takes the tensor's type, then both go
# to fp32.
# RUN: tritium compile %s --kernel int_div_literal --signature "*i8,*fp32,4" --emit tile | FileCheck %s --check-prefix=CHECK-DIV-LIT
# CHECK-DIV-LIT-LABEL: func.func @int_div_literal
# CHECK-DIV-LIT: %[[X:.*]] = tile.load {{.*}} : tensor<4x!tile.ptr<i8>>
# CHECK-DIV-LIT: %[[TWO:.*]] = arith.constant 2 : i8
# CHECK-DIV-LIT: %[[XF:.*]] = arith.sitofp %[[X]] : tensor<4xi8> to tensor<4xf32>
# CHECK-DIV-LIT: %[[TF:.*]] = arith.sitofp %[[TWO]] : i8 to f32
# CHECK-DIV-LIT: %[[TS:.*]] = tile.splat %[[TF]] : tensor<4xf32>
# CHECK-DIV-LIT: arith.divf %[[XF]], %[[TS]] : tensor<4xf32>
@triton.jit
def int_div_literal(A, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(C + offs, a / 2)


# A literal assigned to a variable under a runtime condition becomes a typed
# value (Triton's visit_Assign turns Python numbers into tensors), so the if
# yields it: an i32 here, converted to f32 by the store.
# RUN: tritium compile %s --kernel literal_in_branch --signature "*fp32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-LIT-IF
# CHECK-LIT-IF-LABEL: func.func @literal_in_branch(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-LIT-IF: %[[COND:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# CHECK-LIT-IF: %[[A:.*]] = scf.if %[[COND]] -> (i32) {
# CHECK-LIT-IF: scf.yield %{{.*}} : i32
# CHECK-LIT-IF: } else {
# CHECK-LIT-IF: scf.yield %{{.*}} : i32
# CHECK-LIT-IF: %[[AF:.*]] = arith.sitofp %[[A]] : i32 to f32
# CHECK-LIT-IF: tile.store %arg0, %[[AF]] : !tile.ptr<f32>
@triton.jit
def literal_in_branch(X, n):
    a = 1
    if n > 0:
        a = 2
    tl.store(X, a)


# The same with both branches assigning a fresh name.
# RUN: tritium compile %s --kernel literal_in_both_branches --signature "*fp32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-LIT-IF-ELSE
# CHECK-LIT-IF-ELSE-LABEL: func.func @literal_in_both_branches(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-LIT-IF-ELSE: %[[A:.*]] = scf.if %{{.*}} -> (i32) {
# CHECK-LIT-IF-ELSE: scf.yield %{{.*}} : i32
# CHECK-LIT-IF-ELSE: } else {
# CHECK-LIT-IF-ELSE: scf.yield %{{.*}} : i32
# CHECK-LIT-IF-ELSE: %[[AF:.*]] = arith.sitofp %[[A]] : i32 to f32
# CHECK-LIT-IF-ELSE: tile.store %arg0, %[[AF]] : !tile.ptr<f32>
@triton.jit
def literal_in_both_branches(X, n):
    if n > 0:
        a = 1
    else:
        a = 3
    tl.store(X, a)


# The loop analogue already works: acc = 0 is carried as an i32.
# RUN: tritium compile %s --kernel literal_in_loop --signature "*fp32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-LIT-LOOP
# CHECK-LIT-LOOP-LABEL: func.func @literal_in_loop(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-LIT-LOOP: %[[ACC:.*]] = scf.for %[[I:.*]] = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i32)  : i32 {
# CHECK-LIT-LOOP: %[[NEXT:.*]] = arith.addi %[[A]], %[[I]]{{( \{tile.signed\})?}} : i32
# CHECK-LIT-LOOP: scf.yield %[[NEXT]] : i32
# CHECK-LIT-LOOP: %[[AF:.*]] = arith.sitofp %[[ACC]] : i32 to f32
# CHECK-LIT-LOOP: tile.store %arg0, %[[AF]] : !tile.ptr<f32>
@triton.jit
def literal_in_loop(X, n):
    acc = 0
    for i in range(n):
        acc += i
    tl.store(X, acc)


# ---- pointers ----

# ptr + offs is tile.addptr (the scalar pointer is splat first); ptr - k is
# addptr by 0 - k.
# RUN: tritium compile %s --kernel pointer_arith --signature "*fp32,*fp32,i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-PTR
# CHECK-PTR-LABEL: func.func @pointer_arith(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: i32)
# CHECK-PTR: %[[OFFS:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
# CHECK-PTR: %[[XS:.*]] = tile.splat %arg0 : tensor<64x!tile.ptr<f32>>
# CHECK-PTR: %[[P:.*]] = tile.addptr %[[XS]], %[[OFFS]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
# CHECK-PTR: %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK-PTR: %[[NEG:.*]] = arith.subi %[[ZERO]], %arg2{{( \{tile.signed\})?}} : i32
# CHECK-PTR: %[[Q:.*]] = tile.addptr %arg1, %[[NEG]] : !tile.ptr<f32>, i32
# CHECK-PTR: %[[V:.*]] = tile.load %[[Q]] : !tile.ptr<f32>
# CHECK-PTR: %[[VS:.*]] = tile.splat %[[V]] : tensor<64xf32>
# CHECK-PTR: tile.store %[[P]], %[[VS]] : tensor<64x!tile.ptr<f32>>
@triton.jit
def pointer_arith(X, Y, k, N: tl.constexpr):
    offs = tl.arange(0, N)
    p = X + offs
    q = Y - k
    tl.store(p, tl.load(q))


# An offset block on the left works too (offs + ptr).
# RUN: tritium compile %s --kernel offset_plus_pointer --signature "*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-PTR-REV
# CHECK-PTR-REV-LABEL: func.func @offset_plus_pointer
# CHECK-PTR-REV: %[[OFFS:.*]] = tile.make_range
# CHECK-PTR-REV: %[[XS:.*]] = tile.splat %arg0 : tensor<64x!tile.ptr<f16>>
# CHECK-PTR-REV: tile.addptr %[[XS]], %[[OFFS]] : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
@triton.jit
def offset_plus_pointer(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(offs + X)
    tl.store(X + offs, x)


# ---- bool and unary operators ----

# RUN: tritium compile %s --kernel bool_ops --signature "*fp32,*fp32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-BOOL
# CHECK-BOOL-LABEL: func.func @bool_ops
# CHECK-BOOL: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-BOOL: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-BOOL: %[[PA:.*]] = arith.cmpf ogt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-BOOL: %[[PB:.*]] = arith.cmpf ogt, %[[B]], %{{.*}} : tensor<64xf32>
# CHECK-BOOL: %[[AND:.*]] = arith.andi %[[PA]], %[[PB]] : tensor<64xi1>
# CHECK-BOOL: arith.ori %{{.*}}, %{{.*}} : tensor<64xi1>
# CHECK-BOOL: arith.xori %{{.*}}, %{{.*}} : tensor<64xi1>
# CHECK-BOOL: arith.extui %[[AND]] : tensor<64xi1> to tensor<64xi8>
@triton.jit
def bool_ops(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    m = (a > 0) & (b > 0)
    n = (a > 0) | (b > 0)
    x = (a > 0) ^ (b > 0)
    tl.store(C + offs, m)
    tl.store(C + offs, n)
    tl.store(C + offs, x)


# 'and' / 'or' on blocks are elementwise (logical_and / logical_or).
# RUN: tritium compile %s --kernel logical_ops --signature "*fp32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-LOGICAL
# CHECK-LOGICAL-LABEL: func.func @logical_ops
# CHECK-LOGICAL: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-LOGICAL: %[[P:.*]] = arith.cmpf ogt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-LOGICAL: %[[Q:.*]] = arith.cmpf olt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-LOGICAL: arith.andi %[[P]], %[[Q]] : tensor<64xi1>
# CHECK-LOGICAL: arith.ori %{{.*}}, %{{.*}} : tensor<64xi1>
@triton.jit
def logical_ops(A, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(C + offs, (a > 0) and (a < 1))
    tl.store(C + offs, (a > 0) or (a < 1))


# RUN: tritium compile %s --kernel unary_ops --signature "*fp32,*i32,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-UNARY
# CHECK-UNARY-LABEL: func.func @unary_ops
# CHECK-UNARY: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-UNARY: %[[B:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# -x on floats:
# CHECK-UNARY: %[[NA:.*]] = arith.negf %[[A]] : tensor<64xf32>
# CHECK-UNARY: tile.store {{.*}}, %[[NA]]
# -x on ints is 0 - x:
# CHECK-UNARY: %[[Z:.*]] = arith.constant dense<0> : tensor<64xi32>
# CHECK-UNARY: %[[NB:.*]] = arith.subi %[[Z]], %[[B]]{{( \{tile.signed\})?}} : tensor<64xi32>
# CHECK-UNARY: tile.store {{.*}}, %[[NB]]
# ~x is x xor -1:
# CHECK-UNARY: %[[ONES:.*]] = arith.constant dense<-1> : tensor<64xi32>
# CHECK-UNARY: %[[INV:.*]] = arith.xori %[[B]], %[[ONES]] : tensor<64xi32>
# CHECK-UNARY: tile.store {{.*}}, %[[INV]]
# not p is p xor true:
# CHECK-UNARY: %[[P:.*]] = arith.cmpf ogt, %[[A]], %{{.*}} : tensor<64xf32>
# CHECK-UNARY: %[[T:.*]] = arith.constant dense<true> : tensor<64xi1>
# CHECK-UNARY: %[[NOT:.*]] = arith.xori %[[P]], %[[T]] : tensor<64xi1>
# CHECK-UNARY: arith.extui %[[NOT]]
# +x is x itself:
# CHECK-UNARY: tile.store {{.*}}, %[[A]] : tensor<64x!tile.ptr<f32>>
@triton.jit
def unary_ops(A, B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    tl.store(A + offs, -a)
    tl.store(B + offs, -b)
    tl.store(B + offs, ~b)
    tl.store(C + offs, not (a > 0))
    tl.store(A + offs, +a)


# Scalar arithmetic on runtime ints stays scalar (no splat).
# RUN: tritium compile %s --kernel scalar_arith --signature "*i32,i32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-SCALAR-ARITH
# CHECK-SCALAR-ARITH-LABEL: func.func @scalar_arith(%arg0: !tile.ptr<i32>, %arg1: i32, %arg2: i32)
# CHECK-SCALAR-ARITH: %[[M:.*]] = arith.muli %arg1, %arg2{{( \{tile.signed\})?}} : i32
# CHECK-SCALAR-ARITH: %[[Q:.*]] = arith.divsi %[[M]], %arg2 : i32
# CHECK-SCALAR-ARITH: %[[R:.*]] = arith.remsi %[[Q]], %arg1 : i32
# CHECK-SCALAR-ARITH: tile.store %arg0, %[[R]] : !tile.ptr<i32>
@triton.jit
def scalar_arith(X, a, b):
    tl.store(X, (a * b) // b % a)


# Constexpr arithmetic folds at compile time: no arith op for N * 2 + 1.
# RUN: tritium compile %s --kernel constexpr_fold --signature "*i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-FOLD
# CHECK-FOLD-LABEL: func.func @constexpr_fold
# CHECK-FOLD-NOT: arith.muli
# CHECK-FOLD: %[[C:.*]] = arith.constant 33 : i32
# CHECK-FOLD: tile.store %arg0, %[[C]] : !tile.ptr<i32>
@triton.jit
def constexpr_fold(X, N: tl.constexpr):
    tl.store(X, N * 2 + 1)


# ---- the operators as tl functions ----

# tl.add/sub/mul are the operators (with their promotion); tl.to_tensor
# makes a scalar tensor of a literal; tl.condition is its argument.
# RUN: tritium compile %s --kernel functional_ops --signature "*fp32,*i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-FUNC
# CHECK-FUNC-LABEL: func.func @functional_ops
# CHECK-FUNC: %[[A:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-FUNC: %[[S:.*]] = arith.addf %[[A]], %[[A]] : tensor<64xf32>
# CHECK-FUNC: %[[D:.*]] = arith.subf %[[S]], %[[A]] : tensor<64xf32>
# CHECK-FUNC: %[[M:.*]] = arith.mulf %[[D]], %[[A]] : tensor<64xf32>
# CHECK-FUNC: tile.store {{.*}}, %[[M]]
# CHECK-FUNC: scf.while
# CHECK-FUNC: arith.cmpi slt
@triton.jit
def functional_ops(A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    tl.store(A + offs, tl.mul(tl.sub(tl.add(a, a), a), a,
                              sanitize_overflow=False))
    i = tl.to_tensor(0)
    while tl.condition(i < 4, disable_licm=True):
        i += 1
    tl.store(B, i)


# '>>' is arithmetic when the tensor operand is signed, even when the
# promotion (int8 with uint32) is unsigned; logical for unsigned tensors.
# RUN: tritium compile %s --kernel shift_signedness --signature "*i8,*u32,*u32,16" --emit tile | FileCheck %s --check-prefix=CHECK-SHR
# CHECK-SHR-LABEL: func.func @shift_signedness
# CHECK-SHR: arith.extsi {{.*}} : tensor<16xi8> to tensor<16xi32>
# CHECK-SHR: arith.shrsi {{.*}} : tensor<16xi32>
# CHECK-SHR: arith.shrui {{.*}} : tensor<16xi32>
# CHECK-SHR: arith.shrsi {{.*}} : tensor<16xi8>
@triton.jit
def shift_signedness(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(Z + offs, x >> y)
    tl.store(Z + offs, y >> y)
    tl.store(Z + offs, -8 >> x)

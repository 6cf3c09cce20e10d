# Compile-time values: module globals, constexpr arithmetic and comparisons,
# static_assert/static_print, dtypes as values, triton.cdiv and
# next_power_of_2, min/max on scalars.
import triton
import triton.language as tl

BLOCK_DEFAULT: tl.constexpr = 128
SHIFT = tl.constexpr(3)
NAME = tl.constexpr("scaled")


# RUN: tritium compile %s --kernel globals_and_folding --signature "*fp32,i32" 2>%t.err | FileCheck %s --check-prefix=CHECK-G
# RUN: FileCheck %s --check-prefix=CHECK-GPRINT < %t.err
# CHECK-G-LABEL: func.func @globals_and_folding
# CHECK-G: tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
# CHECK-G: arith.constant 8.000000e+00 : f32
# CHECK-G: arith.constant 2.500000e+00 : f32
# CHECK-GPRINT: block is 32 shift 3 name scaled cdiv 4 pow2 64
@triton.jit
def globals_and_folding(p, n):
    B: tl.constexpr = BLOCK_DEFAULT // 4
    tl.static_assert(B == 32, "folded block")
    tl.static_assert(B % 16 == 0 and not B > 64)
    tl.static_print("block is", B, "shift", SHIFT, "name", NAME, "cdiv",
                    triton.cdiv(13, 4), "pow2", triton.next_power_of_2(33))
    offs = tl.arange(0, B)
    v = 1 << SHIFT
    f = 5 / 2
    tl.store(p + offs, tl.load(p + offs) * v + f)


# RUN: tritium compile %s --kernel dtype_values --signature "*fp16,*fp32" | FileCheck %s --check-prefix=CHECK-DT
# CHECK-DT-LABEL: func.func @dtype_values
# CHECK-DT: %[[X:.*]] = tile.load %arg0 : !tile.ptr<f16>
# CHECK-DT: %[[W:.*]] = arith.extf %[[X]] : f16 to f32
# CHECK-DT: tile.store %arg1, %[[W]] : !tile.ptr<f32>
@triton.jit
def dtype_values(src, dst):
    x = tl.load(src)
    tl.static_assert(x.dtype == tl.float16)
    tl.static_assert(src.dtype.element_ty == tl.float16)
    tl.static_assert(dst.dtype.element_ty.is_fp32())
    out_ty: tl.constexpr = dst.dtype.element_ty
    tl.store(dst, x.to(out_ty))


# RUN: tritium compile %s --kernel runtime_cdiv --signature "*i32,i32,i32" | FileCheck %s --check-prefix=CHECK-CD
# CHECK-CD-LABEL: func.func @runtime_cdiv
# CHECK-CD: %[[S:.*]] = arith.addi %arg1, %arg2{{( \{tile.signed\})?}} : i32
# CHECK-CD: %[[M:.*]] = arith.subi %[[S]], %{{.*}}{{( \{tile.signed\})?}} : i32
# CHECK-CD: %[[Q:.*]] = arith.divsi %[[M]], %arg2 : i32
# CHECK-CD: %[[MIN:.*]] = arith.minsi %[[Q]], %{{.*}} : i32
# CHECK-CD: %[[MAX:.*]] = arith.maxsi
@triton.jit
def runtime_cdiv(p, n, d):
    q = tl.cdiv(n, d)
    tl.store(p, min(q, 7))
    tl.store(p + 1, max(q, n, 3))
    tl.store(p + 2, min(4, 9) + max(2, 5))

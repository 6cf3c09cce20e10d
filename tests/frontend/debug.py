# Debugging and hint builtins: print/device_print, assert/device_assert (kept
# only with --debug, as Triton keeps them only in debug mode), multiple_of,
# max_contiguous, max_constancy, assume, debug_barrier, inline assembly.
import triton
import triton.language as tl


# RUN: tritium compile %s --kernel printing --signature "*i32,*fp32,16" | FileCheck %s --check-prefix=CHECK-P
# CHECK-P-LABEL: func.func @printing
# CHECK-P: tile.print " x = " {hex = false, isSigned = array<i32: 1>} : %[[X:.*]] : tensor<16xi32>
# CHECK-P: tile.print " pair " {hex = true, isSigned = array<i32: 1, 0>} : %{{.*}}, %{{.*}} : tensor<16xi32>, tensor<16xf32>
# CHECK-P: tile.print " pid " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : i32
@triton.jit
def printing(p, q, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    y = tl.load(q + offs)
    tl.device_print("x = ", x)
    tl.device_print("pair", x, y, hex=True)
    print("pid", tl.program_id(0))


# RUN: tritium compile %s --kernel asserting --signature "*i32,i32,16" | FileCheck %s --check-prefix=CHECK-NODBG
# RUN: tritium compile %s --kernel asserting --signature "*i32,i32,16" --debug | FileCheck %s --check-prefix=CHECK-DBG
# CHECK-NODBG-LABEL: func.func @asserting
# CHECK-NODBG-NOT: tile.assert
# CHECK-DBG-LABEL: func.func @asserting
# CHECK-DBG: %[[C:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi32>
# CHECK-DBG: tile.assert %[[C]], "offset out of range" : tensor<16xi1>
# CHECK-DBG: %[[M:.*]] = arith.ori
# CHECK-DBG: tile.assert %[[M]], "masked check" : tensor<16xi1>
# CHECK-DBG: tile.assert %{{.*}}, "" : i1
@triton.jit
def asserting(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    assert offs < n, "offset out of range"
    tl.device_assert(offs >= 0, "masked check", mask=offs < n)
    tl.device_assert(n > 0)
    tl.store(p + offs, offs)


# RUN: tritium compile %s --kernel hints --signature "*fp32,i32" | FileCheck %s --check-prefix=CHECK-H
# CHECK-H-LABEL: func.func @hints
# CHECK-H: %[[A:.*]] = tile.hint %{{.*}} {divisibility = array<i32: 16>} : i32
# CHECK-H: %[[B:.*]] = tile.hint %{{.*}} {contiguity = array<i32: 64>} : tensor<64xi32>
# CHECK-H: %[[C:.*]] = tile.hint %[[B]] {constancy = array<i32: 1>} : tensor<64xi32>
# CHECK-H: tile.assume %{{.*}}
# CHECK-H: tile.barrier
@triton.jit
def hints(p, n):
    n = tl.multiple_of(n, 16)
    offs = tl.max_contiguous(tl.arange(0, 64) + n, 64)
    offs = tl.max_constancy(offs, [1])
    tl.assume(n > 0)
    tl.debug_barrier()
    tl.store(p + offs, 1.0)


# RUN: tritium compile %s --kernel asm --signature "*i32" | FileCheck %s --check-prefix=CHECK-ASM
# CHECK-ASM-LABEL: func.func @asm
# CHECK-ASM: tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<8xi32> -> tensor<8xi32>
@triton.jit
def asm(p):
    offs = tl.arange(0, 8)
    x = tl.load(p + offs)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(p + offs, y)

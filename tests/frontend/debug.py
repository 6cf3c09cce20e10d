# Debugging and hint builtins: print/device_print, assert/device_assert (kept
# only with --debug, as Triton keeps them only in debug mode), multiple_of,
# max_contiguous, max_constancy, assume, debug_barrier, inline assembly.
import triton
import triton.language as tl


# RUN: tritium compile %s --kernel printing --signature "*i32,*fp32,16" | FileCheck %s --check-prefix=P
# P-LABEL: func.func @printing
# P: tile.print " x = " {hex = false, isSigned = array<i32: 1>} : %[[X:.*]] : tensor<16xi32>
# P: tile.print " pair " {hex = true, isSigned = array<i32: 1, 0>} : %{{.*}}, %{{.*}} : tensor<16xi32>, tensor<16xf32>
# P: tile.print " pid " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : i32
@triton.jit
def printing(p, q, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    y = tl.load(q + offs)
    tl.device_print("x = ", x)
    tl.device_print("pair", x, y, hex=True)
    print("pid", tl.program_id(0))


# RUN: tritium compile %s --kernel asserting --signature "*i32,i32,16" | FileCheck %s --check-prefix=NODBG
# RUN: tritium compile %s --kernel asserting --signature "*i32,i32,16" --debug | FileCheck %s --check-prefix=DBG
# NODBG-LABEL: func.func @asserting
# NODBG-NOT: tile.assert
# DBG-LABEL: func.func @asserting
# DBG: %[[C:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi32>
# DBG: tile.assert %[[C]], "offset out of range" : tensor<16xi1>
# DBG: %[[M:.*]] = arith.ori
# DBG: tile.assert %[[M]], "masked check" : tensor<16xi1>
# DBG: tile.assert %{{.*}}, "" : i1
@triton.jit
def asserting(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    assert offs < n, "offset out of range"
    tl.device_assert(offs >= 0, "masked check", mask=offs < n)
    tl.device_assert(n > 0)
    tl.store(p + offs, offs)


# RUN: tritium compile %s --kernel hints --signature "*fp32,i32" | FileCheck %s --check-prefix=H
# H-LABEL: func.func @hints
# H: %[[A:.*]] = tile.hint %{{.*}} {divisibility = array<i32: 16>} : i32
# H: %[[B:.*]] = tile.hint %{{.*}} {contiguity = array<i32: 64>} : tensor<64xi32>
# H: %[[C:.*]] = tile.hint %[[B]] {constancy = array<i32: 1>} : tensor<64xi32>
# H: tile.assume %{{.*}}
# H: tile.barrier
@triton.jit
def hints(p, n):
    n = tl.multiple_of(n, 16)
    offs = tl.max_contiguous(tl.arange(0, 64) + n, 64)
    offs = tl.max_constancy(offs, [1])
    tl.assume(n > 0)
    tl.debug_barrier()
    tl.store(p + offs, 1.0)


# RUN: tritium compile %s --kernel asm --signature "*i32" | FileCheck %s --check-prefix=ASM
# ASM-LABEL: func.func @asm
# ASM: tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<8xi32> -> tensor<8xi32>
@triton.jit
def asm(p):
    offs = tl.arange(0, 8)
    x = tl.load(p + offs)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(p + offs, y)

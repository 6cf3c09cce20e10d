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


# A hint states a fact about its input value, as Triton's do: it holds for
# every use of the value, before the call too and through names still bound
# to it, also when the call's result is dropped (08-grouped-gemm's
# `tl.multiple_of(a_ptrs, [16, 16])` statements on a loop-carried pointer).
# RUN: tritium compile %s --kernel hints_in_place --signature "*fp32,*fp32,i32" | FileCheck %s --check-prefix=CHECK-IP
# CHECK-IP-LABEL: func.func @hints_in_place
# CHECK-IP: %[[R:.*]] = tile.make_range
# CHECK-IP-NEXT: %[[H:.*]] = tile.hint %[[R]] {contiguity = array<i32: 64>}
# CHECK-IP: tile.addptr %{{.*}}, %[[H]]
# CHECK-IP: tile.addptr %{{.*}}, %[[H]]
# CHECK-IP: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[P:[a-z0-9]+]] = %{{.*}}) -> (tensor<64xf32>, tensor<64x!tile.ptr<f32>>)
# CHECK-IP-NEXT: %[[HP:.*]] = tile.hint %[[P]] {divisibility = array<i32: 16>}
# CHECK-IP: tile.load %[[HP]]
# CHECK-IP: tile.addptr %[[HP]]
@triton.jit
def hints_in_place(x_ptr, y_ptr, n):
    offs = tl.arange(0, 64)
    y = y_ptr + offs  # before the hint: the hint holds here too
    tl.max_contiguous(offs, 64)
    ptrs = x_ptr + offs
    acc = tl.zeros([64], dtype=tl.float32)
    for i in range(n):
        tl.multiple_of(ptrs, [16])
        acc += tl.load(ptrs)
        ptrs += 64
    tl.store(y, acc)


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

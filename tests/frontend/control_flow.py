# Structured control flow: runtime conditions become scf.if/for/while whose
# results are the variables the branches or loop bodies reassign; constexpr
# conditions fold away; returns inside ifs take the rest of the block along.
import triton
import triton.language as tl

# RUN: tritium compile %s --kernel if_else --signature "*fp32,i32,64" | FileCheck %s --check-prefix=CHECK-IF
# CHECK-IF-LABEL: func.func @if_else
# CHECK-IF: %[[C:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# CHECK-IF: %[[R:.*]] = scf.if %[[C]] -> (tensor<64xf32>) {
# CHECK-IF:   arith.addf
# CHECK-IF:   scf.yield
# CHECK-IF: } else {
# CHECK-IF:   %[[C2:.*]] = arith.cmpi slt, %arg1, %{{.*}} : i32
# CHECK-IF:   %[[R2:.*]] = scf.if %[[C2]] -> (tensor<64xf32>) {
# CHECK-IF:   scf.yield %[[R2]] : tensor<64xf32>
# CHECK-IF: tile.store %{{.*}}, %[[R]] :
@triton.jit
def if_else(p, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    if flag > 0:
        y = x + 1.0
    elif flag < -5:
        y = x * 2.0
    else:
        y = x
    tl.store(p + offs, y)


# RUN: tritium compile %s --kernel constexpr_if --signature "*fp32,64,add" | FileCheck %s --check-prefix=CHECK-CIF
# CHECK-CIF-LABEL: func.func @constexpr_if
# CHECK-CIF-NOT: scf.if
# CHECK-CIF: arith.addf
# CHECK-CIF-NOT: arith.mulf
# CHECK-CIF: return
@triton.jit
def constexpr_if(p, BLOCK: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    if MODE == "add":
        x = x + x
    elif MODE == "mul":
        x = x * x
    tl.store(p + offs, x)


# RUN: tritium compile %s --kernel for_loop --signature "*fp32,i32,64" | FileCheck %s --check-prefix=CHECK-FOR
# CHECK-FOR-LABEL: func.func @for_loop
# CHECK-FOR: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
# CHECK-FOR: %[[ACC:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[A:.*]] = %[[ZERO]], %[[N:.*]] = %{{.*}}) -> (tensor<64xf32>, i32) : i32 {
# CHECK-FOR:   arith.sitofp %[[I]] : i32 to f32
# CHECK-FOR:   scf.yield
# CHECK-FOR: tile.store %{{.*}}, %[[ACC]]#0 :
@triton.jit
def for_loop(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    count = 0
    for i in range(0, n, 2):
        acc += x * i
        count += 1
    tl.store(p + offs, acc)
    tl.store(p, count.to(tl.float32))


# RUN: tritium compile %s --kernel tl_range --signature "*fp32,i32" | FileCheck %s --check-prefix=CHECK-TLR
# CHECK-TLR-LABEL: func.func @tl_range
# CHECK-TLR: scf.for
# CHECK-TLR: } {tile.disallow_acc_multi_buffer, tile.flatten, tile.loop_unroll_factor = 2 : i32, tile.num_stages = 4 : i32}
@triton.jit
def tl_range(p, n):
    acc = 0.0
    for i in tl.range(0, n, 1, num_stages=4, loop_unroll_factor=2, flatten=True,
                      disallow_acc_multi_buffer=True):
        acc += tl.load(p + i)
    tl.store(p, acc)


# The flags take a constexpr integer as Python's truth: 0 marks nothing.
# RUN: tritium compile %s --kernel tl_range_flags --signature "*fp32,i32,0,1" | FileCheck %s --check-prefix=CHECK-TLF
# CHECK-TLF-LABEL: func.func @tl_range_flags
# CHECK-TLF: scf.for
# CHECK-TLF: } {tile.flatten}
# CHECK-TLF-NOT: warp_specialize
@triton.jit
def tl_range_flags(p, n, WS: tl.constexpr, FLAT: tl.constexpr):
    acc = 0.0
    for i in tl.range(0, n, 1, warp_specialize=WS, flatten=FLAT):
        acc += tl.load(p + i)
    tl.store(p, acc)


# RUN: tritium compile %s --kernel down_loop --signature "*fp32,i32" | FileCheck %s --check-prefix=CHECK-DOWN
# CHECK-DOWN-LABEL: func.func @down_loop
# CHECK-DOWN: %[[T:.*]] = arith.maxsi
# CHECK-DOWN: scf.for %[[K:.*]] = %{{.*}} to %[[T]] step
# CHECK-DOWN:   %[[OFF:.*]] = arith.muli %[[K]], %{{.*}}
# CHECK-DOWN:   arith.addi %arg1, %[[OFF]]
@triton.jit
def down_loop(p, n):
    acc = 0.0
    for i in range(n, 0, -2):
        acc += tl.load(p + i)
    tl.store(p, acc)


# RUN: tritium compile %s --kernel static_loop --signature "*fp32" | FileCheck %s --check-prefix=CHECK-STATIC
# CHECK-STATIC-LABEL: func.func @static_loop
# CHECK-STATIC-NOT: scf.for
# CHECK-STATIC-COUNT-4: tile.store
@triton.jit
def static_loop(p):
    for i in tl.static_range(0, 8, 2):
        tl.store(p + i, i * 1.5)


# RUN: tritium compile %s --kernel while_loop --signature "*i32" | FileCheck %s --check-prefix=CHECK-WHILE
# CHECK-WHILE-LABEL: func.func @while_loop
# CHECK-WHILE: %[[W:.*]] = scf.while (%[[K:.*]] = %{{.*}}) : (i32) -> i32 {
# CHECK-WHILE:   %[[C:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : i32
# CHECK-WHILE:   scf.condition(%[[C]]) %[[K]] : i32
# CHECK-WHILE: } do {
# CHECK-WHILE:   arith.muli
# CHECK-WHILE: tile.store %arg0, %[[W]] :
@triton.jit
def while_loop(p):
    k = 1
    while k < 1000:
        k = k * 3
    tl.store(p, k)


# RUN: tritium compile %s --kernel spin_lock --signature "*i32" | FileCheck %s --check-prefix=CHECK-SPIN
# CHECK-SPIN-LABEL: func.func @spin_lock
# CHECK-SPIN: scf.while : () -> () {
# CHECK-SPIN:   %[[OLD:.*]] = tile.atomic_cas acq_rel, gpu, %arg0
# CHECK-SPIN:   %[[BUSY:.*]] = arith.cmpi eq, %[[OLD]]
# CHECK-SPIN:   scf.condition(%[[BUSY]])
@triton.jit
def spin_lock(lock):
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.atomic_xchg(lock, 0)


# RUN: tritium compile %s --kernel early_return --signature "*fp32,i32" | FileCheck %s --check-prefix=CHECK-RET
# RUN: tritium compile %s --kernel early_return --signature "*fp32,i32" --emit tile-opt | FileCheck %s --check-prefix=CHECK-RETOPT
# CHECK-RET-LABEL: func.func @early_return
# CHECK-RET: %[[C:.*]] = arith.cmpi sge, %{{.*}}, %arg1 : i32
# CHECK-RET: scf.if %[[C]] {
# CHECK-RET: } else {
# CHECK-RET:   tile.store
# CHECK-RET: }
# CHECK-RET-NEXT: return
# CHECK-RETOPT-LABEL: func.func @early_return
# CHECK-RETOPT: scf.if
@triton.jit
def early_return(p, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(p + pid, 1.0)


# RUN: tritium compile %s --kernel ternary --signature "*fp32,i32,*fp32" | FileCheck %s --check-prefix=CHECK-TERN
# CHECK-TERN-LABEL: func.func @ternary
# CHECK-TERN: %[[C:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# CHECK-TERN: %[[S:.*]] = scf.if %[[C]] -> (f32) {
# CHECK-TERN: scf.yield %arg0 : !tile.ptr<f32>
# CHECK-TERN-NEXT: } else {
# CHECK-TERN-NEXT: scf.yield %arg2 : !tile.ptr<f32>
@triton.jit
def ternary(p, n, q):
    v = 1.0 if n > 4 else 2.0
    dst = p if n > 4 else q
    tl.store(dst, v)


# RUN: tritium compile %s --kernel tuple_ternary --signature "*fp32,i32" | FileCheck %s --check-prefix=CHECK-TT
# CHECK-TT-LABEL: func.func @tuple_ternary
# CHECK-TT: %[[C:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# CHECK-TT: scf.if %[[C]] -> (f32, i32) {
@triton.jit
def tuple_ternary(p, n):
    a, b = (1.5, 2) if n > 0 else (2.5, 3)
    tl.store(p, a + b)

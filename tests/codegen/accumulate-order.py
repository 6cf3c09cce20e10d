# A loop-carried accumulator (`acc += tl.load(...)`) is updated from its last
# register back, so the first add consumes the iteration's last load: ptxas
# then keeps all of the iteration's 16-byte loads in flight instead of
# pairing each load with its consumer. The reduction after the loop is not
# loop-carried and keeps register order.
# RUN: tritium compile %s --kernel row_sum --signature "*fp32:16,*fp32:16,i32:16,1024" --target cuda:90 --num-warps 4 --emit llir | FileCheck %s
# CHECK: for.body:
# CHECK: asm sideeffect "@$4 ld.global.v4.b32
# CHECK: [[LAST:%[0-9]+]] = tail call { i32, i32, i32, i32 } asm sideeffect "@$4 ld.global.v4.b32
# CHECK-NEXT: extractvalue { i32, i32, i32, i32 } [[LAST]], 0
# CHECK-NEXT: extractvalue { i32, i32, i32, i32 } [[LAST]], 1
# CHECK-NEXT: extractvalue { i32, i32, i32, i32 } [[LAST]], 2
# CHECK-NEXT: [[E:%[0-9]+]] = extractvalue { i32, i32, i32, i32 } [[LAST]], 3
# CHECK-NOT: fadd
# CHECK: [[F:%[0-9]+]] = bitcast i32 [[E]] to float
# CHECK-NEXT: fadd float %{{[0-9]+}}, [[F]]
import triton
import triton.language as tl


@triton.jit
def row_sum(X, Out, N, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.)
    tl.store(Out, tl.sum(acc, axis=0))

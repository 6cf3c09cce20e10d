# Calls of @jit helpers: each distinct set of compile-time arguments gets its
# own private func.func (the inliner folds them into the kernel later);
# defaults, keywords and tuple returns work as in Python.
import triton
import triton.language as tl


@triton.jit
def scale_add(x, y, FACTOR: tl.constexpr = 2):
    return x * FACTOR + y, x - y


@triton.jit
def pick(x, USE_SQUARE: tl.constexpr):
    if USE_SQUARE:
        return x * x
    return x + 1


@triton.jit(noinline=True)
def kept(x):
    return x + 3


# RUN: tritium compile %s --kernel caller --signature "*fp32,64" | FileCheck %s --check-prefix=CHECK-CALL
# CHECK-CALL-LABEL: func.func @caller
# CHECK-CALL: %[[A:.*]]:2 = call @[[F1:.*]](%[[X:.*]], %[[X]]) : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
# CHECK-CALL: %[[B:.*]]:2 = call @[[F2:.*]](%[[X]], %[[X]])
# CHECK-CALL: call @[[F1]](%[[X]], %[[X]])
# CHECK-CALL: arith.addf %[[A]]#0, %[[B]]#1
# CHECK-CALL: func.func private @[[F1]]
# CHECK-CALL: arith.constant 2.000000e+00 : f32
# CHECK-CALL: func.func private @[[F2]]
# CHECK-CALL: arith.constant 5.000000e+00 : f32
@triton.jit
def caller(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    a, s = scale_add(x, x)
    b, d = scale_add(x, x, FACTOR=5)
    c = scale_add(y=x, x=x)
    tl.store(p + offs, a + d + c[0])


# RUN: tritium compile %s --kernel caller --signature "*fp32,64" --emit tile-opt | FileCheck %s --check-prefix=CHECK-INLINE
# CHECK-INLINE-LABEL: func.func @caller
# CHECK-INLINE-NOT: call
# CHECK-INLINE-NOT: func.func private


# RUN: tritium compile %s --kernel constexpr_return --signature "*fp32,16" --emit tile-opt | FileCheck %s --check-prefix=CHECK-CRET
# CHECK-CRET-LABEL: func.func @constexpr_return
# CHECK-CRET: arith.mulf
# CHECK-CRET: arith.addf
@triton.jit
def constexpr_return(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    tl.store(p + offs, pick(x, True) + pick(x, False))


# RUN: tritium compile %s --kernel noinline_call --signature "*fp32" --emit tile-opt | FileCheck %s --check-prefix=CHECK-NOINL
# CHECK-NOINL-LABEL: func.func @noinline_call
# CHECK-NOINL: call @kept({{.*}}) {no_inline}
# CHECK-NOINL: func.func private @kept({{.*}}) {{.*}}attributes {noinline}
@triton.jit
def noinline_call(p):
    tl.store(p, kept(tl.load(p)))

# isinstance() on kernel values, decided at compile time, against tl.tensor,
# tl.tensor_descriptor, tl.constexpr, tuples and Python's number types; and
# getattr() with a compile-time name.
import triton
import triton.language as tl


# RUN: tritium compile %s --kernel kinds --signature "*fp32:16,16" --emit tile | FileCheck %s --check-prefix=CHECK-K
# CHECK-K-LABEL: func.func @kinds
# CHECK-K: tile.make_tensor_descriptor
# CHECK-K: math.exp
@triton.jit
def kinds(X, N: tl.constexpr):
    tl.static_assert(isinstance(X, tl.tensor))
    tl.static_assert(not isinstance(N, tl.tensor))
    tl.static_assert(isinstance(N, (tl.constexpr, tl.tensor_descriptor)))
    tl.static_assert(isinstance((1, 2), tuple) and isinstance((1, 2), tl.tuple))
    d = tl.make_tensor_descriptor(X, [N], [1], [16])
    tl.static_assert(isinstance(d, tl.tensor_descriptor))
    tl.static_assert(isinstance(N, int) and not isinstance(N, float))
    fn = getattr(tl, "exp")
    d.store([0], fn(d.load([0])))


# RUN: not tritium compile %s --kernel bad_class --signature "*fp32:16" 2>&1 | FileCheck %s --check-prefix=CHECK-BAD
# CHECK-BAD: isinstance.py:[[@LINE+3]]:22: error: isinstance() needs a class, got constexpr int
@triton.jit
def bad_class(X):
    if isinstance(X, 3):
        pass

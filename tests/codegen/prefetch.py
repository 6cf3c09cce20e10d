# Loads issued one iteration early into registers (the value read in
# iteration i is loaded during iteration i-1).
#
# A walked load whose pointer shares its base with a store in the loop is
# not: the next value may be what this iteration stores.
# RUN: tritium compile %s --kernel in_place --signature "*fp32:16,i32,128" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=INPLACE
# INPLACE-NOT: tile.load
# INPLACE: scf.for
# INPLACE: tile.load
# INPLACE: tile.store
# INPLACE: scf.yield
#
# The same loop reading one array and writing another keeps its prefetch.
# RUN: tritium compile %s --kernel two_arrays --signature "*fp32:16,*fp32:16,i32,128" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=TWO
# TWO: tile.load
# TWO: scf.for
# TWO: tile.load
# TWO: tile.store
# TWO: scf.yield
import triton
import triton.language as tl


@triton.jit
def in_place(X, n, B: tl.constexpr):
    # x[i + 1] = 2 x[i], row by row.
    p = X + tl.arange(0, B)
    for i in range(n):
        v = tl.load(p)
        tl.store(p + B, v * 2)
        p += B


@triton.jit
def two_arrays(X, Y, n, B: tl.constexpr):
    p = X + tl.arange(0, B)
    q = Y + tl.arange(0, B)
    for i in range(n):
        v = tl.load(p)
        tl.store(q, v * 2)
        p += B
        q += B

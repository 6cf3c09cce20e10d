# Shape manipulation (TRITON.md 1.4): indexing with None and ':', implicit
# NumPy broadcasting, and the tl.* shape builtins and their tensor-method
# forms, plus x.shape / x.dtype used in constexpr expressions.

import triton
import triton.language as tl


# x[:, None] / x[None, :] are expand_dims; [M,1] op [1,N] broadcasts both
# sides; a scalar operand is splat.
# RUN: tritium compile %s --kernel index_none --signature "*fp32,16,32" --emit tile | FileCheck %s --check-prefix=CHECK-NONE
# CHECK-NONE-LABEL: func.func @index_none
# CHECK-NONE: %[[RM:.*]] = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
# CHECK-NONE: %[[RN:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
# CHECK-NONE: %[[COL:.*]] = tile.expand_dims %[[RM]] {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
# CHECK-NONE: %[[STRIDE:.*]] = tile.splat %{{.*}} : tensor<16x1xi32>
# CHECK-NONE: %[[ROWOFF:.*]] = arith.muli %[[COL]], %[[STRIDE]]{{( \{tile.signed\})?}} : tensor<16x1xi32>
# CHECK-NONE: %[[BASE:.*]] = tile.splat %arg0 : tensor<16x1x!tile.ptr<f32>>
# CHECK-NONE: %[[ROWPTR:.*]] = tile.addptr %[[BASE]], %[[ROWOFF]] : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
# CHECK-NONE: %[[ROW:.*]] = tile.expand_dims %[[RN]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
# CHECK-NONE: %[[PB:.*]] = tile.broadcast %[[ROWPTR]] : tensor<16x1x!tile.ptr<f32>> -> tensor<16x32x!tile.ptr<f32>>
# CHECK-NONE: %[[OB:.*]] = tile.broadcast %[[ROW]] : tensor<1x32xi32> -> tensor<16x32xi32>
# CHECK-NONE: %[[PTRS:.*]] = tile.addptr %[[PB]], %[[OB]] : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
# CHECK-NONE: tile.load %[[PTRS]] : tensor<16x32x!tile.ptr<f32>>
@triton.jit
def index_none(X, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    ptrs = X + rm[:, None] * N + rn[None, :]
    tl.store(ptrs, tl.load(ptrs))


# None on a scalar makes a block: splat to [1], then expand_dims.
# RUN: tritium compile %s --kernel index_none_scalar --signature "*i32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-NONE-SCALAR
# CHECK-NONE-SCALAR-LABEL: func.func @index_none_scalar
# CHECK-NONE-SCALAR: %[[S:.*]] = tile.splat %arg1 : tensor<1xi32>
# CHECK-NONE-SCALAR: tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
@triton.jit
def index_none_scalar(X, n):
    a = n[None]
    b = n[None, None]


# x[:, :, None] keeps the ':' dims and adds the new one last.
# RUN: tritium compile %s --kernel index_mixed --signature "*fp32,8" --emit tile | FileCheck %s --check-prefix=CHECK-NONE-MIXED
# CHECK-NONE-MIXED-LABEL: func.func @index_mixed
# CHECK-NONE-MIXED: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x4xf32>
# CHECK-NONE-MIXED: tile.expand_dims %[[Z]] {axis = 2 : i32} : tensor<8x4xf32> -> tensor<8x4x1xf32>
# CHECK-NONE-MIXED: tile.expand_dims %[[Z]] {axis = 1 : i32} : tensor<8x4xf32> -> tensor<8x1x4xf32>
@triton.jit
def index_mixed(X, N: tl.constexpr):
    z = tl.zeros((N, 4), dtype=tl.float32)
    a = z[:, :, None]
    b = z[:, None, :]


# [M,1] + [1,N] broadcasts both to [M,N]; a lower-rank operand is first padded
# on the left with 1s (Triton does it with expand_dims at axis 0).
# RUN: tritium compile %s --kernel broadcast_add --signature "*fp32,16,32" --emit tile | FileCheck %s --check-prefix=CHECK-BCAST
# CHECK-BCAST-LABEL: func.func @broadcast_add
# CHECK-BCAST: %[[A:.*]] = arith.constant dense<0.000000e+00> : tensor<16x1xf32>
# CHECK-BCAST: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<1x32xf32>
# CHECK-BCAST: %[[AB:.*]] = tile.broadcast %[[A]] : tensor<16x1xf32> -> tensor<16x32xf32>
# CHECK-BCAST: %[[BB:.*]] = tile.broadcast %[[B]] : tensor<1x32xf32> -> tensor<16x32xf32>
# CHECK-BCAST: %[[C:.*]] = arith.addf %[[AB]], %[[BB]] : tensor<16x32xf32>
# CHECK-BCAST: %[[D:.*]] = arith.constant dense<2.000000e+00> : tensor<32xf32>
# CHECK-BCAST: %[[D2:.*]] = {{tile.expand_dims|tile.reshape}} %[[D]]{{.*}} : tensor<32xf32> -> tensor<1x32xf32>
# CHECK-BCAST: %[[DB:.*]] = tile.broadcast %[[D2]] : tensor<1x32xf32> -> tensor<16x32xf32>
# CHECK-BCAST: arith.addf %[[C]], %[[DB]] : tensor<16x32xf32>
@triton.jit
def broadcast_add(X, M: tl.constexpr, N: tl.constexpr):
    a = tl.zeros((M, 1), dtype=tl.float32)
    b = tl.full((1, N), 1.0, tl.float32)
    c = a + b
    d = tl.full((N,), 2.0, tl.float32)
    e = c + d


# tl.reshape with a tuple or a list, x.reshape(tuple), tl.view (may reorder),
# can_reorder=True, tl.ravel / x.ravel, and reshape to () (unsplat).
# RUN: tritium compile %s --kernel reshapes --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-RESHAPE
# CHECK-RESHAPE-LABEL: func.func @reshapes
# CHECK-RESHAPE: %[[X:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-RESHAPE: %[[A:.*]] = tile.reshape %[[X]] : tensor<64xf32> -> tensor<16x4xf32>
# CHECK-RESHAPE: %[[B:.*]] = tile.reshape %[[X]] : tensor<64xf32> -> tensor<4x16xf32>
# CHECK-RESHAPE: tile.reshape %[[X]] allow_reorder : tensor<64xf32> -> tensor<8x8xf32>
# CHECK-RESHAPE: tile.reshape %[[X]] allow_reorder : tensor<64xf32> -> tensor<2x2x16xf32>
# CHECK-RESHAPE: tile.reshape %[[A]] : tensor<16x4xf32> -> tensor<64xf32>
# CHECK-RESHAPE: tile.reshape %[[B]] : tensor<4x16xf32> -> tensor<64xf32>
# CHECK-RESHAPE: tile.reshape %[[A]] : tensor<16x4xf32> -> tensor<64xf32>
# CHECK-RESHAPE: %[[ONE:.*]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
# CHECK-RESHAPE: tile.unsplat %[[ONE]] : tensor<1xf32>
@triton.jit
def reshapes(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    a = tl.reshape(x, (16, N // 16))
    b = x.reshape((4, N // 4))
    c = tl.view(x, (N // 8, 8))
    d = tl.reshape(x, [2, 2, N // 4], can_reorder=True)
    e = tl.ravel(a)
    f = b.reshape((N,))
    g = a.ravel()
    h = tl.reshape(tl.zeros((1,), dtype=tl.float32), ())


# reshape also takes the shape as separate arguments (reshape(input, *shape)).
# RUN: tritium compile %s --kernel reshape_varargs --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-RESHAPE-VARARGS
# CHECK-RESHAPE-VARARGS-LABEL: func.func @reshape_varargs
# CHECK-RESHAPE-VARARGS: %[[X:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-RESHAPE-VARARGS: tile.reshape %[[X]] : tensor<64xf32> -> tensor<4x16xf32>
# CHECK-RESHAPE-VARARGS: tile.reshape %[[X]] : tensor<64xf32> -> tensor<8x8xf32>
@triton.jit
def reshape_varargs(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    a = x.reshape(4, N // 4)
    b = tl.reshape(x, 8, N // 8)


# tl.trans swaps the last two dims by default; explicit dims as a tuple or as
# separate arguments; tl.permute and x.permute are the same op; x.T.
# RUN: tritium compile %s --kernel transposes --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-TRANS
# CHECK-TRANS-LABEL: func.func @transposes
# CHECK-TRANS: %[[X:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
# CHECK-TRANS: tile.trans %[[X]] {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
# CHECK-TRANS: tile.trans %[[X]] {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
# CHECK-TRANS: %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<2x4x8xf16>
# CHECK-TRANS: tile.trans %[[C]] {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf16> -> tensor<8x2x4xf16>
# CHECK-TRANS: tile.trans %[[C]] {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf16> -> tensor<4x2x8xf16>
# CHECK-TRANS: tile.trans %[[C]] {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf16> -> tensor<4x8x2xf16>
# CHECK-TRANS: tile.trans %[[C]] {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf16> -> tensor<2x8x4xf16>
# The default on a 3-D block swaps the last two dims:
# CHECK-TRANS: tile.trans %[[C]] {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf16> -> tensor<2x8x4xf16>
# CHECK-TRANS: tile.trans %[[X]] {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
@triton.jit
def transposes(X, N: tl.constexpr):
    x = tl.zeros((16, 32), dtype=tl.float32)
    a = tl.trans(x)
    b = x.T
    c = tl.zeros((2, 4, 8), dtype=tl.float16)
    d = tl.trans(c, 2, 0, 1)
    e = tl.trans(c, (1, 0, 2))
    f = tl.permute(c, (1, 2, 0))
    g = c.permute(0, 2, 1)
    h = tl.trans(c)
    i = x.trans()


# tl.expand_dims with one axis, a tuple of axes (they index the result), a
# negative axis, and the method form; tl.broadcast_to with a tuple or
# separate sizes; tl.broadcast of two blocks.
# RUN: tritium compile %s --kernel expand_broadcast --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-EXPAND
# CHECK-EXPAND-LABEL: func.func @expand_broadcast
# CHECK-EXPAND: %[[X:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
# CHECK-EXPAND: %[[A:.*]] = tile.expand_dims %[[X]] {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
# CHECK-EXPAND: %[[B1:.*]] = tile.expand_dims %[[X]] {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
# CHECK-EXPAND: tile.expand_dims %[[B1]] {axis = 2 : i32} : tensor<1x64xf32> -> tensor<1x64x1xf32>
# CHECK-EXPAND: tile.expand_dims %[[X]] {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
# CHECK-EXPAND: %[[D:.*]] = tile.expand_dims %[[X]] {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
# CHECK-EXPAND: tile.broadcast %[[A]] : tensor<1x64xf32> -> tensor<8x64xf32>
# CHECK-EXPAND: tile.broadcast %[[D]] : tensor<64x1xf32> -> tensor<64x4xf32>
# CHECK-EXPAND: tile.broadcast %[[D]] : tensor<64x1xf32> -> tensor<64x2xf32>
# CHECK-EXPAND: %[[E:.*]] = arith.constant dense<0.000000e+00> : tensor<8x1xf32>
# CHECK-EXPAND: tile.broadcast %[[A]] : tensor<1x64xf32> -> tensor<8x64xf32>
# CHECK-EXPAND: tile.broadcast %[[E]] : tensor<8x1xf32> -> tensor<8x64xf32>
@triton.jit
def expand_broadcast(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    a = tl.expand_dims(x, 0)
    b = tl.expand_dims(x, (0, 2))
    c = tl.expand_dims(x, -1)
    d = x.expand_dims(1)
    e = tl.broadcast_to(a, (8, N))
    f = tl.broadcast_to(d, N, 4)
    f2 = d.broadcast_to(N, 2)
    g, h = tl.broadcast(a, tl.zeros((8, 1), dtype=tl.float32))


# tl.join adds a minor dim of 2; tl.split takes it off again (scalars at rank
# 1); tl.interleave is join + reshape; tl.cat concatenates.
# RUN: tritium compile %s --kernel join_split --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-JOIN
# CHECK-JOIN-LABEL: func.func @join_split
# CHECK-JOIN: %[[A:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
# CHECK-JOIN: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<64xf32>
# CHECK-JOIN: %[[J:.*]] = tile.join %[[A]], %[[B]] : tensor<64xf32> -> tensor<64x2xf32>
# CHECK-JOIN: %[[L:.*]], %[[R:.*]] = tile.split %[[J]] : tensor<64x2xf32> -> tensor<64xf32>
# CHECK-JOIN: %[[J2:.*]] = tile.join %[[A]], %[[B]] : tensor<64xf32> -> tensor<64x2xf32>
# CHECK-JOIN: tile.reshape %[[J2]] : tensor<64x2xf32> -> tensor<128xf32>
# CHECK-JOIN: tile.cat %[[A]], %[[B]] : tensor<64xf32> -> tensor<128xf32>
# CHECK-JOIN: %[[T:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
# CHECK-JOIN: tile.split %[[T]] : tensor<2xf32> -> f32
@triton.jit
def join_split(X, N: tl.constexpr):
    a = tl.zeros((N,), dtype=tl.float32)
    b = tl.full((N,), 1.0, tl.float32)
    j = tl.join(a, b)
    lo, hi = tl.split(j)
    i = tl.interleave(a, b)
    c = tl.cat(a, b, can_reorder=True)
    s1, s2 = tl.split(tl.zeros((2,), dtype=tl.float32))


# tl.join broadcasts its operands first.
# RUN: tritium compile %s --kernel join_broadcast --signature "*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-JOIN-BCAST
# CHECK-JOIN-BCAST-LABEL: func.func @join_broadcast
# CHECK-JOIN-BCAST: %[[A:.*]] = arith.constant dense<0.000000e+00> : tensor<4x64xf32>
# CHECK-JOIN-BCAST: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<1x64xf32>
# CHECK-JOIN-BCAST: %[[BB:.*]] = tile.broadcast %[[B]] : tensor<1x64xf32> -> tensor<4x64xf32>
# CHECK-JOIN-BCAST: tile.join %[[A]], %[[BB]] : tensor<4x64xf32> -> tensor<4x64x2xf32>
@triton.jit
def join_broadcast(X, N: tl.constexpr):
    a = tl.zeros((4, N), dtype=tl.float32)
    b = tl.full((1, N), 1.0, tl.float32)
    j = tl.join(a, b)


# x.shape, x.dtype and X.dtype.element_ty are compile-time values: they feed
# tl.static_assert and shapes of new blocks, and leave no IR behind.
# RUN: tritium compile %s --kernel shape_dtype_constexpr --signature "*fp16,64" --emit tile | FileCheck %s --check-prefix=CHECK-META
# CHECK-META-LABEL: func.func @shape_dtype_constexpr
# CHECK-META: %[[X:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f16>>
# CHECK-META-NEXT: arith.constant dense<0.000000e+00> : tensor<64xf16>
# CHECK-META-NEXT: arith.constant dense<0.000000e+00> : tensor<128xf32>
# CHECK-META-NEXT: arith.constant dense<0.000000e+00> : tensor<64xf16>
# CHECK-META-NEXT: arith.constant dense<0.000000e+00> : tensor<32x2xf16>
# CHECK-META-NEXT: return
@triton.jit
def shape_dtype_constexpr(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.static_assert(x.shape[0] == 64)
    tl.static_assert(x.dtype == tl.float16)
    tl.static_assert(len(x.shape) == 1)
    tl.static_assert(X.dtype.element_ty == tl.float16)
    tl.static_assert(x.numel == N)
    y = tl.zeros(x.shape, dtype=x.dtype)
    z = tl.zeros((x.shape[0] * 2,), dtype=tl.float32)
    w = tl.zeros_like(x)
    v = tl.zeros((x.shape[0] // 2, 2), dtype=X.dtype.element_ty)


# The shape of a 2-D block, unpacked.
# RUN: tritium compile %s --kernel shape_unpack --signature "*fp32,16,32" --emit tile | FileCheck %s --check-prefix=CHECK-SHAPE-UNPACK
# CHECK-SHAPE-UNPACK-LABEL: func.func @shape_unpack
# CHECK-SHAPE-UNPACK: arith.constant dense<0.000000e+00> : tensor<32x16xf32>
@triton.jit
def shape_unpack(X, M: tl.constexpr, N: tl.constexpr):
    a = tl.zeros((M, N), dtype=tl.float32)
    m, n = a.shape
    tl.static_assert(m == 16 and n == 32)
    b = tl.zeros((n, m), dtype=a.dtype)

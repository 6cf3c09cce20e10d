# Reductions, scans, sort, topk, flip, gather and histogram (BuiltinsReduce.cpp).
#
# RUN: tritium compile %s --kernel sum_kernel --signature "*fp32,*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-SUM
# RUN: tritium compile %s --kernel sum_widen --signature "*i8,*u16,*i1,*i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-WIDEN
# RUN: tritium compile %s --kernel max_kernel --signature "*fp16,*u32,*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-MAX
# RUN: tritium compile %s --kernel argmax_kernel --signature "*fp32,*i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-ARG
# RUN: tritium compile %s --kernel argmin_fast --signature "*fp32,*i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-ARGMIN
# RUN: tritium compile %s --kernel custom_reduce --signature "*fp32,*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-CUSTOM
# RUN: tritium compile %s --kernel scans --signature "*i8,*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-SCAN
# RUN: tritium compile %s --kernel permutes --signature "*fp32,*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-PERM
# RUN: tritium compile %s --kernel bits --signature "*i32,*i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-BITS
# RUN: not tritium compile %s --kernel argmax_tuple --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-TUPLE
# RUN: not tritium compile %s --kernel hist_bins --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-BINS
# RUN: not tritium compile %s --kernel sort_dim --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SORT
# RUN: not tritium compile %s --kernel xor_float --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-XOR
# RUN: not tritium compile %s --kernel bad_axis --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-AXIS
# RUN: not tritium compile %s --kernel builtin_combine --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-COMBINE
# RUN: not tritium compile %s --kernel max_indices_no_axis --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-IDX

import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _add_max(a0, a1, b0, b1):
    return a0 + b0, tl.maximum(a1, b1)


# CHECK-SUM-LABEL: func.func @sum_kernel
# CHECK-SUM: %[[X:.*]] = tile.load
# CHECK-SUM: %[[R:.*]] = tile.reduce(%[[X]]) axis = 1 {
# CHECK-SUM-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
# CHECK-SUM-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
# CHECK-SUM-NEXT: tile.reduce.return %[[S]] : f32
# CHECK-SUM-NEXT: } : (tensor<16x16xf32>) -> tensor<16xf32>
# axis=None flattens (order may change) and gives a scalar.
# CHECK-SUM: %[[FLAT:.*]] = tile.reshape %[[X]] allow_reorder : tensor<16x16xf32> -> tensor<256xf32>
# CHECK-SUM: tile.reduce(%[[FLAT]]) axis = 0
# CHECK-SUM: } : (tensor<256xf32>) -> f32
# keep_dims with axis=None restores a 1x1 block.
# CHECK-SUM: tile.reduce(%{{.*}}) axis = 0
# CHECK-SUM: } : (tensor<256xf32>) -> f32
# CHECK-SUM: %[[K:.*]] = tile.splat %{{.*}} : tensor<1xf32>
# CHECK-SUM: tile.expand_dims %[[K]] {axis = 0 : i32} : tensor<1xf32> -> tensor<1x1xf32>
@triton.jit
def sum_kernel(x_ptr, y_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    rows = tl.sum(x, axis=1)
    total = x.sum()
    kept = tl.sum(x, keep_dims=True)
    tl.store(y_ptr + o, rows + total + tl.reshape(kept, ()))


# Narrow ints sum as (u)int32 with their sign; bool counts as unsigned.
# CHECK-WIDEN-LABEL: func.func @sum_widen
# CHECK-WIDEN: %[[A:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i8>>
# CHECK-WIDEN: %[[AW:.*]] = arith.extsi %[[A]] : tensor<16xi8> to tensor<16xi32>
# CHECK-WIDEN: tile.reduce(%[[AW]]) axis = 0
# CHECK-WIDEN: arith.addi %{{.*}}, %{{.*}}{{( \{tile.signed\})?}} : i32
# CHECK-WIDEN: %[[B:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i16>>
# CHECK-WIDEN: %[[BW:.*]] = arith.extui %[[B]] : tensor<16xi16> to tensor<16xi32>
# CHECK-WIDEN: tile.reduce(%[[BW]]) axis = 0
# CHECK-WIDEN: %[[CW:.*]] = arith.extui %{{.*}} : tensor<16xi1> to tensor<16xi32>
# CHECK-WIDEN: tile.reduce(%[[CW]]) axis = 0
# dtype= casts the input first.
# CHECK-WIDEN: %[[AF:.*]] = arith.sitofp %[[A]] : tensor<16xi8> to tensor<16xf32>
# CHECK-WIDEN: tile.reduce(%[[AF]]) axis = 0
# CHECK-WIDEN: arith.addf %{{.*}}, %{{.*}} : f32
@triton.jit
def sum_widen(a_ptr, b_ptr, c_ptr, out_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    a = tl.load(a_ptr + o)
    sa = tl.sum(a, 0)
    sb = tl.sum(tl.load(b_ptr + o), 0)
    sc = tl.sum(tl.load(c_ptr + o), 0)
    sf = tl.sum(a, 0, dtype=tl.float32)
    tl.store(out_ptr, sa + sb + sc + sf)


# CHECK-MAX-LABEL: func.func @max_kernel
# fp16 is widened to fp32 before a max without indices.
# CHECK-MAX: %[[H:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# CHECK-MAX: %[[HW:.*]] = arith.extf %[[H]] : tensor<16xf16> to tensor<16xf32>
# CHECK-MAX: tile.reduce(%[[HW]]) axis = 0 {
# CHECK-MAX: arith.maxnumf %{{.*}}, %{{.*}} : f32
# CHECK-MAX: } : (tensor<16xf32>) -> f32
# CHECK-MAX: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-MAX: tile.reduce(%[[U]]) axis = 0 {
# CHECK-MAX: arith.minui %{{.*}}, %{{.*}} : i32
# CHECK-MAX: %[[X:.*]] = tile.load %{{.*}} : tensor<16x16x!tile.ptr<f32>>
# CHECK-MAX: %[[M:.*]] = tile.reduce(%[[X]]) axis = 1 {
# CHECK-MAX: arith.maxnumf
# CHECK-MAX: tile.expand_dims %[[M]] {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
# CHECK-MAX: tile.reduce(%[[X]]) axis = 0 {
# CHECK-MAX: arith.minnumf
@triton.jit
def max_kernel(h_ptr, u_ptr, x_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    mh = tl.max(tl.load(h_ptr + o), axis=0)
    mu = tl.min(tl.load(u_ptr + o), axis=0)
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    mx = tl.max(x, axis=-1, keep_dims=True)
    mn = x.min(0)
    tl.store(x_ptr + o[:, None] * N + o[None, :], x - mx + mn + mh + mu.to(tl.float32))


# argmax reduces (value, index) pairs: NaN-free ordered compares, and on
# ties the smaller index wins (tie_break_left).
# CHECK-ARG-LABEL: func.func @argmax_kernel
# CHECK-ARG: %[[X:.*]] = tile.load %{{.*}} : tensor<16x16x!tile.ptr<f32>>
# CHECK-ARG: %[[R:.*]] = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
# CHECK-ARG: %[[RS:.*]] = tile.reshape %[[R]] : tensor<16xi32> -> tensor<16x1xi32>
# CHECK-ARG: %[[I:.*]] = tile.broadcast %[[RS]] : tensor<16x1xi32> -> tensor<16x16xi32>
# CHECK-ARG: %[[RED:.*]]:2 = tile.reduce(%[[X]], %[[I]]) axis = 0 {
# CHECK-ARG-NEXT: ^bb0(%[[V1:.*]]: f32, %[[I1:.*]]: i32, %[[V2:.*]]: f32, %[[I2:.*]]: i32):
# CHECK-ARG-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[V1]], %[[V2]] : f32
# CHECK-ARG-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[V1]], %[[V2]] : f32
# CHECK-ARG-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I1]], %[[I2]] : i32
# CHECK-ARG-NEXT: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
# CHECK-ARG-NEXT: %[[WIN:.*]] = arith.ori %[[GT]], %[[TIE]] : i1
# CHECK-ARG-NEXT: %[[V:.*]] = arith.select %[[WIN]], %[[V1]], %[[V2]] : f32
# CHECK-ARG-NEXT: %[[IX:.*]] = arith.select %[[WIN]], %[[I1]], %[[I2]] : i32
# CHECK-ARG-NEXT: tile.reduce.return %[[V]], %[[IX]] : f32, i32
# CHECK-ARG-NEXT: } : (tensor<16x16xf32>, tensor<16x16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
# CHECK-ARG: tile.addptr %{{.*}}, %[[RED]]#1
# max(return_indices=True) returns both results.
# CHECK-ARG: %[[MI:.*]]:2 = tile.reduce(%[[X]], %{{.*}}) axis = 1 {
# CHECK-ARG: tile.addptr %{{.*}}, %[[MI]]#1
# CHECK-ARG: tile.store %{{.*}}, %[[MI]]#0
@triton.jit
def argmax_kernel(x_ptr, i_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    idx = tl.argmax(x, 0)
    tl.store(i_ptr + idx, o)
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(x_ptr + i, v)


# Without tie_break_left a tie keeps the right-hand operand.
# CHECK-ARGMIN-LABEL: func.func @argmin_fast
# CHECK-ARGMIN: tile.reduce(%{{.*}}, %{{.*}}) axis = 0 {
# CHECK-ARGMIN-NEXT: ^bb0(%[[V1:.*]]: f32, %[[I1:.*]]: i32, %[[V2:.*]]: f32, %[[I2:.*]]: i32):
# CHECK-ARGMIN-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[V1]], %[[V2]] : f32
# CHECK-ARGMIN-NEXT: arith.select %[[LT]], %[[V1]], %[[V2]] : f32
# CHECK-ARGMIN-NEXT: arith.select %[[LT]], %[[I1]], %[[I2]] : i32
# CHECK-ARGMIN-NEXT: tile.reduce.return
# CHECK-ARGMIN: -> (f32, i32)
@triton.jit
def argmin_fast(x_ptr, i_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    tl.store(i_ptr, x.argmin(0, tie_break_left=False))


# CHECK-CUSTOM-LABEL: func.func @custom_reduce
# CHECK-CUSTOM: %[[X:.*]] = tile.load
# CHECK-CUSTOM: tile.reduce(%[[X]]) axis = 0 {
# CHECK-CUSTOM-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
# CHECK-CUSTOM-NEXT: %[[C:.*]] = func.call @_add(%[[A]], %[[B]]) : (f32, f32) -> f32
# CHECK-CUSTOM-NEXT: tile.reduce.return %[[C]] : f32
# A tuple input reduces every operand with one (a0, a1, b0, b1) combine.
# CHECK-CUSTOM: %[[T:.*]]:2 = tile.reduce(%[[X]], %[[X]]) axis = 0 {
# CHECK-CUSTOM: %[[C2:.*]]:2 = func.call @[[F:.*]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32, f32) -> (f32, f32)
# CHECK-CUSTOM-NEXT: tile.reduce.return %[[C2]]#0, %[[C2]]#1 : f32, f32
# CHECK-CUSTOM: %[[S1:.*]] = arith.addf %{{.*}}, %[[T]]#0
# CHECK-CUSTOM: arith.addf %[[S1]], %[[T]]#1
# CHECK-CUSTOM: func.func private @_add(
# CHECK-CUSTOM: func.func private @[[F]](
# CHECK-CUSTOM: arith.maxnumf
@triton.jit
def custom_reduce(x_ptr, y_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    s = tl.reduce(x, 0, _add)
    a, b = tl.reduce((x, x), 0, _add_max)
    tl.store(y_ptr, s + a + b)


# CHECK-SCAN-LABEL: func.func @scans
# cumsum widens int8 to int32 and runs along axis 0 by default.
# CHECK-SCAN: %[[A:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i8>>
# CHECK-SCAN: %[[AW:.*]] = arith.extsi %[[A]] : tensor<16xi8> to tensor<16xi32>
# CHECK-SCAN: tile.scan(%[[AW]]) axis = 0 reverse = false {
# CHECK-SCAN: arith.addi %{{.*}}, %{{.*}}{{( \{tile.signed\})?}} : i32
# CHECK-SCAN-NEXT: tile.scan.return
# CHECK-SCAN: } : (tensor<16xi32>) -> tensor<16xi32>
# CHECK-SCAN: %[[X:.*]] = tile.load %{{.*}} : tensor<16x16x!tile.ptr<f32>>
# CHECK-SCAN: tile.scan(%[[X]]) axis = 1 reverse = true {
# CHECK-SCAN: arith.mulf %{{.*}}, %{{.*}} : f32
# CHECK-SCAN: tile.scan(%[[X]]) axis = 0 reverse = false {
# CHECK-SCAN: func.call @_add
# CHECK-SCAN-NEXT: tile.scan.return
@triton.jit
def scans(a_ptr, x_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    ca = tl.cumsum(tl.load(a_ptr + o))
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    cp = x.cumprod(axis=-1, reverse=True)
    cs = tl.associative_scan(x, 0, _add)
    tl.store(x_ptr + o[:, None] * N + o[None, :], cp + cs + ca[None, :].to(tl.float32))


# CHECK-PERM-LABEL: func.func @permutes
# CHECK-PERM: %[[X:.*]] = tile.load %{{.*}} : tensor<16x16x!tile.ptr<f32>>
# CHECK-PERM: tile.sort %[[X]] {axis = 1 : i32, descending = false} : tensor<16x16xf32>
# CHECK-PERM: tile.sort %[[X]] {axis = 1 : i32, descending = true} : tensor<16x16xf32>
# topk: the first k of a descending sort.
# CHECK-PERM: %[[D:.*]] = tile.sort %[[X]] {axis = 1 : i32, descending = true} : tensor<16x16xf32>
# CHECK-PERM: %[[K:.*]] = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
# CHECK-PERM: %[[KR:.*]] = tile.reshape %[[K]] : tensor<4xi32> -> tensor<1x4xi32>
# CHECK-PERM: %[[KB:.*]] = tile.broadcast %[[KR]] : tensor<1x4xi32> -> tensor<16x4xi32>
# CHECK-PERM: tile.gather %[[D]][%[[KB]]] {axis = 1 : i32} : (tensor<16x16xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
# flip along dim 0: gather with index 15 - i.
# CHECK-PERM: %[[J:.*]] = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
# CHECK-PERM: %[[JR:.*]] = tile.reshape %[[J]] : tensor<16xi32> -> tensor<16x1xi32>
# CHECK-PERM: %[[C15:.*]] = arith.constant 15 : i32
# CHECK-PERM: %[[S15:.*]] = tile.splat %[[C15]] : tensor<16x1xi32>
# CHECK-PERM: %[[REV:.*]] = arith.subi %[[S15]], %[[JR]]{{( \{tile.signed\})?}} : tensor<16x1xi32>
# CHECK-PERM: %[[RB:.*]] = tile.broadcast %[[REV]] : tensor<16x1xi32> -> tensor<16x16xi32>
# CHECK-PERM: tile.gather %[[X]][%[[RB]]] {axis = 0 : i32} : (tensor<16x16xf32>, tensor<16x16xi32>) -> tensor<16x16xf32>
# CHECK-PERM: tile.gather %[[X]][%{{.*}}] {axis = 1 : i32} : (tensor<16x16xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
# CHECK-PERM: %[[M:.*]] = arith.cmpi slt
# CHECK-PERM: tile.histogram %{{.*}}, %[[M]] : tensor<16xi32> -> tensor<8xi32>
@triton.jit
def permutes(x_ptr, y_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o[:, None] * N + o[None, :])
    up = tl.sort(x)
    down = x.sort(descending=True)
    top = tl.topk(x, 4)
    f = tl.flip(x, 0)
    g = tl.gather(x, tl.zeros((N, 8), tl.int32), 1)
    h = tl.histogram(o, 8, mask=o < 12)
    tl.store(y_ptr + o, tl.sum(up + down + f, 1) + tl.sum(top, 1) + tl.sum(g, 1))
    tl.store(y_ptr + tl.arange(0, 8), h.to(tl.float32))


# CHECK-BITS-LABEL: func.func @bits
# CHECK-BITS: tile.reduce(%{{.*}}) axis = 0 {
# CHECK-BITS: arith.xori %{{.*}}, %{{.*}} : i32
# CHECK-BITS: tile.reduce(%{{.*}}) axis = 0 {
# CHECK-BITS: arith.ori %{{.*}}, %{{.*}} : i32
@triton.jit
def bits(x_ptr, y_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(y_ptr, tl.xor_sum(x) + x.reduce_or(0))


# CHECK-ERR-TUPLE: reduce.py:[[@LINE+4]]:15: error: tl.argmax takes a single tensor, not a tuple
@triton.jit
def argmax_tuple(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.argmax((x, x), 0)


# CHECK-ERR-BINS: reduce.py:[[@LINE+3]]:39: error: tl.histogram: num_bins must be a power of two, got 12
@triton.jit
def hist_bins(x_ptr, N: tl.constexpr):
    h = tl.histogram(tl.arange(0, N), 12)


# CHECK-ERR-SORT: reduce.py:[[@LINE+5]]:16: error: tl.sort only supports the minor dimension: dim must be None or 1, got 0
@triton.jit
def sort_dim(x_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o[:, None] + o[None, :])
    tl.sort(x, 0)


# CHECK-ERR-XOR: reduce.py:[[@LINE+4]]:16: error: tl.xor_sum only supports integers, got float32[16]
@triton.jit
def xor_float(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.xor_sum(x)


# CHECK-ERR-AXIS: reduce.py:[[@LINE+4]]:15: error: tl.sum: axis 2 is out of range for a block of rank 1 (expected -1 <= axis < 1)
@triton.jit
def bad_axis(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.sum(x, axis=2)


# CHECK-ERR-COMBINE: reduce.py:[[@LINE+4]]:21: error: combine_fn must be a @triton.jit function, got builtin function
@triton.jit
def builtin_combine(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.reduce(x, 0, tl.maximum)


# CHECK-ERR-IDX: reduce.py:[[@LINE+4]]:5: error: tl.max with indices needs an axis
@triton.jit
def max_indices_no_axis(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.max(x, return_indices=True)

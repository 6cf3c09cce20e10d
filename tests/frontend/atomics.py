# tl.atomic_* and tl.atomic_cas (BuiltinsAtomic.cpp).
#
# RUN: tritium compile %s --kernel rmw --signature "*fp32,*i32,*u64,*fp16,16" --emit tile | FileCheck %s --check-prefix=CHECK-RMW
# RUN: tritium compile %s --kernel float_max --signature "*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-FMAX
# RUN: tritium compile %s --kernel float_min_f64 --signature "*fp64" --emit tile | FileCheck %s --check-prefix=CHECK-FMIN
# RUN: tritium compile %s --kernel cas --signature "*i32,*i64,16" --emit tile | FileCheck %s --check-prefix=CHECK-CAS
# RUN: not tritium compile %s --kernel add_bool --signature "*i1,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-BOOL
# RUN: not tritium compile %s --kernel max_fp16 --signature "*fp16,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-FP16
# RUN: not tritium compile %s --kernel add_i16 --signature "*i16,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-I16
# RUN: not tritium compile %s --kernel and_float --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-AND
# RUN: not tritium compile %s --kernel bad_sem --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SEM
# RUN: not tritium compile %s --kernel bad_scope --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SCOPE
# RUN: not tritium compile %s --kernel block_val_scalar_ptr --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SHAPE
# RUN: not tritium compile %s --kernel cas_i8 --signature "*i8,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-CAS

import triton
import triton.language as tl


# CHECK-RMW-LABEL: func.func @rmw
# Floats add with fadd; val is cast to the element type and broadcast; the
# mask is broadcast to the pointer's shape.
# CHECK-RMW: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi32>
# CHECK-RMW: %[[P:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
# CHECK-RMW: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
# CHECK-RMW: %[[V:.*]] = tile.splat %[[ONE]] : tensor<16xf32>
# CHECK-RMW: %[[OLD:.*]] = tile.atomic_rmw fadd, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : tensor<16x!tile.ptr<f32>>
# CHECK-RMW: %[[Q:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
# CHECK-RMW: %[[I:.*]] = arith.fptosi %[[OLD]] : tensor<16xf32> to tensor<16xi32>
# CHECK-RMW: tile.atomic_rmw add, relaxed, cta, %[[Q]], %[[I]] : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw max, acquire, sys, %[[Q]], %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw min, release, gpu, %[[Q]], %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw and, acq_rel, gpu, %[[Q]], %{{.*}}, %[[M]] : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw or, acq_rel, gpu, %[[Q]], %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw xor, acq_rel, gpu, %[[Q]], %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-RMW: tile.atomic_rmw xchg, acq_rel, gpu, %[[Q]], %{{.*}} : tensor<16x!tile.ptr<i32>>
# Unsigned max/min compare unsigned; a scalar pointer gives a scalar.
# CHECK-RMW: %[[U:.*]] = tile.atomic_rmw umax, acq_rel, gpu, %{{.*}}, %{{.*}} : !tile.ptr<i64>
# CHECK-RMW: tile.atomic_rmw umin, acq_rel, gpu, %{{.*}}, %[[U]] : !tile.ptr<i64>
# fp16 is allowed for add only.
# CHECK-RMW: tile.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f16>>
@triton.jit
def rmw(f_ptr, i_ptr, u_ptr, h_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    m = o < 10
    old = tl.atomic_add(f_ptr + o, 1.0, mask=m)
    q = i_ptr + o
    a = tl.atomic_add(q, old, sem="relaxed", scope="cta")
    b = tl.atomic_max(q, 3, sem="acquire", scope="sys")
    c = tl.atomic_min(q, 3, sem="release")
    d = tl.atomic_and(q, 3, m)
    e = q.atomic_or(3)
    f = tl.atomic_xor(q, a)
    g = tl.atomic_xchg(q, 7)
    u = tl.atomic_max(u_ptr, 5)
    v = tl.atomic_min(u_ptr, u)
    h = tl.atomic_add(h_ptr + o, 1.0)
    tl.store(q, a + b + c + d + e + f + g)


# fp32 max: a signed max on the bits of non-negative values and an unsigned
# min on the bits of negative ones, split by the sign bit.
# CHECK-FMAX-LABEL: func.func @float_max
# CHECK-FMAX: %[[V:.*]] = tile.load
# CHECK-FMAX: %[[STP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
# CHECK-FMAX: %[[P:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
# CHECK-FMAX: %[[M:.*]] = arith.cmpi slt
# CHECK-FMAX: %[[IV:.*]] = tile.bitcast %[[V]] : tensor<16xf32> -> tensor<16xi32>
# CHECK-FMAX: %[[UV:.*]] = tile.bitcast %[[V]] : tensor<16xf32> -> tensor<16xi32>
# CHECK-FMAX: %[[IP:.*]] = tile.bitcast %[[P]] : tensor<16x!tile.ptr<f32>> -> tensor<16x!tile.ptr<i32>>
# CHECK-FMAX: %[[UP:.*]] = tile.bitcast %[[P]] : tensor<16x!tile.ptr<f32>> -> tensor<16x!tile.ptr<i32>>
# CHECK-FMAX: %[[C31:.*]] = arith.constant 31 : i32
# CHECK-FMAX: %[[S31:.*]] = tile.splat %[[C31]] : tensor<16xi32>
# CHECK-FMAX: %[[SH:.*]] = arith.shrui %[[UV]], %[[S31]] : tensor<16xi32>
# CHECK-FMAX: %[[NEG:.*]] = arith.cmpi ne, %[[SH]], %{{.*}} : tensor<16xi32>
# CHECK-FMAX: %[[POS:.*]] = arith.xori %[[NEG]], %{{.*}} : tensor<16xi1>
# CHECK-FMAX: %[[PM:.*]] = arith.andi %[[M]], %[[POS]] : tensor<16xi1>
# CHECK-FMAX: %[[NM:.*]] = arith.andi %[[M]], %[[NEG]] : tensor<16xi1>
# CHECK-FMAX: %[[PR:.*]] = tile.atomic_rmw max, acq_rel, gpu, %[[IP]], %[[IV]], %[[PM]] : tensor<16x!tile.ptr<i32>>
# CHECK-FMAX: %[[NR:.*]] = tile.atomic_rmw umin, acq_rel, gpu, %[[UP]], %[[UV]], %[[NM]] : tensor<16x!tile.ptr<i32>>
# CHECK-FMAX: %[[SEL:.*]] = arith.select %[[POS]], %[[PR]], %[[NR]] : tensor<16xi1>, tensor<16xi32>
# CHECK-FMAX: %[[R:.*]] = tile.bitcast %[[SEL]] : tensor<16xi32> -> tensor<16xf32>
# CHECK-FMAX: tile.store %[[STP]], %[[R]]
@triton.jit
def float_max(p_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    v = tl.load(p_ptr + o)
    tl.store(p_ptr + o, tl.atomic_max(p_ptr + o, v, mask=o < 8))


# fp64 min without a mask: signed min for non-negative values, unsigned max
# for negative ones.
# CHECK-FMIN-LABEL: func.func @float_min_f64
# CHECK-FMIN: %[[C63:.*]] = arith.constant 63 : i64
# CHECK-FMIN: %[[SH:.*]] = arith.shrui %{{.*}}, %[[C63]] : i64
# CHECK-FMIN: %[[NEG:.*]] = arith.cmpi ne, %[[SH]], %{{.*}} : i64
# CHECK-FMIN: %[[POS:.*]] = arith.xori %[[NEG]], %{{.*}} : i1
# CHECK-FMIN: %[[PR:.*]] = tile.atomic_rmw min, acq_rel, gpu, %{{.*}}, %{{.*}}, %[[POS]] : !tile.ptr<i64>
# CHECK-FMIN: %[[NR:.*]] = tile.atomic_rmw umax, acq_rel, gpu, %{{.*}}, %{{.*}}, %[[NEG]] : !tile.ptr<i64>
# CHECK-FMIN: arith.select %[[POS]], %[[PR]], %[[NR]] : i64
# CHECK-FMIN: tile.bitcast %{{.*}} : i64 -> f64
@triton.jit
def float_min_f64(p_ptr):
    tl.atomic_min(p_ptr, -2.5)


# CHECK-CAS-LABEL: func.func @cas
# CHECK-CAS: %[[C0:.*]] = arith.constant 0 : i32
# CHECK-CAS: %[[C1:.*]] = arith.constant 1 : i32
# CHECK-CAS: tile.atomic_cas acq_rel, gpu, %{{.*}}, %[[C0]], %[[C1]] : !tile.ptr<i32>
# Literals take the element type; cmp and val broadcast to the pointers.
# CHECK-CAS: %[[P:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<i64>>, tensor<16xi32>
# CHECK-CAS: %[[V:.*]] = arith.extsi %{{.*}} : tensor<16xi32> to tensor<16xi64>
# CHECK-CAS: %[[ZS:.*]] = tile.splat %{{.*}} : tensor<16xi32>
# CHECK-CAS: %[[Z:.*]] = arith.extsi %[[ZS]] : tensor<16xi32> to tensor<16xi64>
# CHECK-CAS: tile.atomic_cas relaxed, sys, %[[P]], %[[Z]], %[[V]] : tensor<16x!tile.ptr<i64>>
@triton.jit
def cas(lock, p_ptr, N: tl.constexpr):
    tl.atomic_cas(lock, 0, 1)
    o = tl.arange(0, N)
    tl.atomic_cas(p_ptr + o, 0, o.to(tl.int64), sem="relaxed", scope="sys")


# CHECK-ERR-BOOL: atomics.py:[[@LINE+3]]:19: error: tl.atomic_add does not support int1 elements: atomics need 32- or 64-bit elements (or float16/bfloat16 for atomic_add)
@triton.jit
def add_bool(p, N: tl.constexpr):
    tl.atomic_add(p + tl.arange(0, N), 1)


# CHECK-ERR-FP16: atomics.py:[[@LINE+3]]:19: error: tl.atomic_max does not support float16 (only tl.atomic_add takes float16/bfloat16)
@triton.jit
def max_fp16(p, N: tl.constexpr):
    tl.atomic_max(p, 1.0)


# CHECK-ERR-I16: atomics.py:[[@LINE+3]]:19: error: tl.atomic_add does not support int16 elements
@triton.jit
def add_i16(p, N: tl.constexpr):
    tl.atomic_add(p, 1)


# CHECK-ERR-AND: atomics.py:[[@LINE+3]]:19: error: tl.atomic_and needs integer elements, got float32
@triton.jit
def and_float(p, N: tl.constexpr):
    tl.atomic_and(p, 1)


# CHECK-ERR-SEM: atomics.py:[[@LINE+3]]:25: error: sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', got 'seq_cst'
@triton.jit
def bad_sem(p, N: tl.constexpr):
    tl.atomic_add(p, 1, sem="seq_cst")


# CHECK-ERR-SCOPE: atomics.py:[[@LINE+3]]:25: error: scope must be 'gpu', 'cta' or 'sys', got 'warp'
@triton.jit
def bad_scope(p, N: tl.constexpr):
    tl.atomic_add(p, 1, scope="warp")


# CHECK-ERR-SHAPE: atomics.py:[[@LINE+3]]:22: error: val is int32[16] but the pointer is a scalar
@triton.jit
def block_val_scalar_ptr(p, N: tl.constexpr):
    tl.atomic_add(p, tl.arange(0, N))


# CHECK-ERR-CAS: atomics.py:[[@LINE+3]]:19: error: tl.atomic_cas only supports elements with width 16, 32 or 64, got int8
@triton.jit
def cas_i8(p, N: tl.constexpr):
    tl.atomic_cas(p, 0, 1)

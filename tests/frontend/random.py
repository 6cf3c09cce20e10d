# Philox random numbers (BuiltinsRandom.cpp).
#
# The KAT kernels run the emitted scalar IR through a small evaluator and
# compare with Random123's published Philox4x32-10 / Philox4x64-10 known
# answers, so the arithmetic is checked bit for bit, not just its shape.
# RUN: tritium compile %s --kernel kat32 --signature "*u32" --emit tile | python3 %S/../Inputs/frontend/eval_scalar_ir.py | FileCheck %s --check-prefix=CHECK-KAT32
# RUN: tritium compile %s --kernel kat64 --signature "*u64" --emit tile | python3 %S/../Inputs/frontend/eval_scalar_ir.py | FileCheck %s --check-prefix=CHECK-KAT64
# RUN: tritium compile %s --kernel uniform --signature "*fp32" --emit tile | python3 %S/../Inputs/frontend/eval_scalar_ir.py | FileCheck %s --check-prefix=CHECK-UNIFORM
# RUN: tritium compile %s --kernel rand_block --signature "*fp32,i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-RAND
# RUN: tritium compile %s --kernel randint_rounds --signature "*u32,i64,*i64,16" --emit tile | FileCheck %s --check-prefix=CHECK-ROUNDS
# RUN: tritium compile %s --kernel normal --signature "*fp32,i32,16" --emit tile | FileCheck %s --check-prefix=CHECK-NORMAL
# RUN: tritium compile %s --kernel philox64 --signature "*u64,i64,16" --emit tile | FileCheck %s --check-prefix=CHECK-P64
# RUN: not tritium compile %s --kernel signed_counters --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-CTR
# RUN: not tritium compile %s --kernel float_seed --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SEED

import triton
import triton.language as tl


# key = (k0, k1) = (seed & 0xffffffff, seed >> 32): seed 0 is key (0, 0) and
# seed -1 (sign-extended to uint64) key (ffffffff, ffffffff).
# CHECK-KAT32: store 0: 0x6627e8d5
# CHECK-KAT32-NEXT: store 1: 0xe169c58d
# CHECK-KAT32-NEXT: store 2: 0xbc57ac4c
# CHECK-KAT32-NEXT: store 3: 0x9b00dbd8
# CHECK-KAT32-NEXT: store 4: 0x408f276d
# CHECK-KAT32-NEXT: store 5: 0x41c83b0e
# CHECK-KAT32-NEXT: store 6: 0xa20bc7c6
# CHECK-KAT32-NEXT: store 7: 0x6d5451fd
# CHECK-KAT32-NEXT: store 8: 0xd16cfe09
# CHECK-KAT32-NEXT: store 9: 0x94fdcceb
# CHECK-KAT32-NEXT: store 10: 0x5001e420
# CHECK-KAT32-NEXT: store 11: 0x24126ea1
# randint(seed, offset) is counter (offset_lo, offset_hi, 0, 0): here
# key (7, 0) and counter (3, 1, 0, 0).
# CHECK-KAT32-NEXT: store 12: 0x27ece1ae
@triton.jit
def kat32(out_ptr):
    a0, a1, a2, a3 = tl.philox(0, 0, 0, 0, 0)
    tl.store(out_ptr + 0, a0)
    tl.store(out_ptr + 1, a1)
    tl.store(out_ptr + 2, a2)
    tl.store(out_ptr + 3, a3)
    m = tl.full((), 0xffffffff, tl.uint32)
    b0, b1, b2, b3 = tl.philox(-1, m, m, m, m)
    tl.store(out_ptr + 4, b0)
    tl.store(out_ptr + 5, b1)
    tl.store(out_ptr + 6, b2)
    tl.store(out_ptr + 7, b3)
    c0, c1, c2, c3 = tl.philox_impl(
        tl.full((), 0x243f6a88, tl.uint32), tl.full((), 0x85a308d3, tl.uint32),
        tl.full((), 0x13198a2e, tl.uint32), tl.full((), 0x03707344, tl.uint32),
        tl.full((), 0xa4093822, tl.uint32), tl.full((), 0x299f31d0, tl.uint32))
    tl.store(out_ptr + 8, c0)
    tl.store(out_ptr + 9, c1)
    tl.store(out_ptr + 10, c2)
    tl.store(out_ptr + 11, c3)
    tl.store(out_ptr + 12, tl.randint(7, tl.full((), 0x100000003, tl.int64)))


# CHECK-KAT64: store 0: 0x16554d9eca36314c
# CHECK-KAT64-NEXT: store 1: 0xdb20fe9d672d0fdc
# CHECK-KAT64-NEXT: store 2: 0xd7e772cee186176b
# CHECK-KAT64-NEXT: store 3: 0x7e68b68aec7ba23b
# CHECK-KAT64-NEXT: store 4: 0xa528f45403e61d95
# CHECK-KAT64-NEXT: store 5: 0x38c72dbd566e9788
# CHECK-KAT64-NEXT: store 6: 0xa5a1610e72fd18b5
# CHECK-KAT64-NEXT: store 7: 0x57bd43b5e52b7fe6
@triton.jit
def kat64(out_ptr):
    z = tl.full((), 0, tl.uint64)
    a0, a1, a2, a3 = tl.philox_impl(z, z, z, z, z, z)
    tl.store(out_ptr + 0, a0)
    tl.store(out_ptr + 1, a1)
    tl.store(out_ptr + 2, a2)
    tl.store(out_ptr + 3, a3)
    c0, c1, c2, c3 = tl.philox_impl(
        tl.full((), 0x243f6a8885a308d3, tl.uint64), tl.full((), 0x13198a2e03707344, tl.uint64),
        tl.full((), 0xa4093822299f31d0, tl.uint64), tl.full((), 0x082efa98ec4e6c89, tl.uint64),
        tl.full((), 0x452821e638d01377, tl.uint64), tl.full((), 0xbe5466cf34e90c6c, tl.uint64))
    tl.store(out_ptr + 4, c0)
    tl.store(out_ptr + 5, c1)
    tl.store(out_ptr + 6, c2)
    tl.store(out_ptr + 7, c3)


# rand(0, 0) maps 0x6627e8d5 to 0x6627e8d5 * 4.6566127342e-10 in fp32;
# negative int32 patterns x fold onto -x - 1.
# CHECK-UNIFORM: store 0: 0.798092902
# CHECK-UNIFORM-NEXT: store 1: 0
# CHECK-UNIFORM-NEXT: store 2: 0.99999994
# CHECK-UNIFORM-NEXT: store 3: 0.99999994
# CHECK-UNIFORM-NEXT: store 4: 4.6566126e-10
@triton.jit
def uniform(out_ptr):
    tl.store(out_ptr + 0, tl.rand(0, 0))
    tl.store(out_ptr + 1, tl.uint_to_uniform_float(tl.full((), 0xffffffff, tl.uint32)))
    tl.store(out_ptr + 2, tl.uint_to_uniform_float(tl.full((), 0x7fffffff, tl.uint32)))
    tl.store(out_ptr + 3, tl.uint_to_uniform_float(tl.full((), 0x80000000, tl.uint32)))
    tl.store(out_ptr + 4, tl.uint_to_uniform_float(tl.full((), 1, tl.int32)))


# CHECK-RAND-LABEL: func.func @rand_block(
# CHECK-RAND-SAME: %[[SEED:[^:]*]]: i32)
# CHECK-RAND: %[[OFF:.*]] = tile.make_range
# counters: (offset, 0, 0, 0) with 0 = offset * 0
# CHECK-RAND: %[[ZERO:.*]] = arith.muli %[[OFF]], %{{.*}}{{( \{tile.signed\})?}} : tensor<16xi32>
# keys from the seed as uint64
# CHECK-RAND: %[[S64:.*]] = arith.extsi %[[SEED]] : i32 to i64
# CHECK-RAND: %[[SH:.*]] = arith.shrui %[[S64]], %{{.*}} : i64
# CHECK-RAND: %[[HI64:.*]] = arith.andi %[[SH]], %{{.*}} : i64
# CHECK-RAND: %[[K1:.*]] = arith.trunci %[[HI64]] : i64 to i32
# CHECK-RAND: %[[LO64:.*]] = arith.andi %[[S64]], %{{.*}} : i64
# CHECK-RAND: %[[K0:.*]] = arith.trunci %[[LO64]] : i64 to i32
# first round: c0 = umulhi(B, c2) ^ c1 ^ k0, c2 = umulhi(A, c0) ^ c3 ^ k1
# CHECK-RAND: %[[B:.*]] = arith.constant -845247145 : i32
# CHECK-RAND: %[[BS:.*]] = tile.splat %[[B]] : tensor<16xi32>
# CHECK-RAND: %[[H1:.*]] = tile.mulhiui %[[BS]], %[[ZERO]] : tensor<16xi32>
# CHECK-RAND: %[[X1:.*]] = arith.xori %[[H1]], %[[ZERO]] : tensor<16xi32>
# CHECK-RAND: %[[K0S:.*]] = tile.splat %[[K0]] : tensor<16xi32>
# CHECK-RAND: arith.xori %[[X1]], %[[K0S]] : tensor<16xi32>
# CHECK-RAND: %[[A:.*]] = arith.constant -766435501 : i32
# CHECK-RAND: %[[AS:.*]] = tile.splat %[[A]] : tensor<16xi32>
# CHECK-RAND: %[[H2:.*]] = tile.mulhiui %[[AS]], %[[OFF]] : tensor<16xi32>
# CHECK-RAND: %[[X2:.*]] = arith.xori %[[H2]], %[[ZERO]] : tensor<16xi32>
# CHECK-RAND: %[[K1S:.*]] = tile.splat %[[K1]] : tensor<16xi32>
# CHECK-RAND: arith.xori %[[X2]], %[[K1S]] : tensor<16xi32>
# c1 = B * c2, c3 = A * c0, then the keys advance
# CHECK-RAND: arith.muli %{{.*}}, %[[ZERO]]{{( \{tile.signed\})?}} : tensor<16xi32>
# CHECK-RAND: arith.muli %{{.*}}, %[[OFF]]{{( \{tile.signed\})?}} : tensor<16xi32>
# CHECK-RAND: arith.addi %[[K0]], %{{.*}}{{( \{tile.signed\})?}} : i32
# CHECK-RAND: arith.addi %[[K1]], %{{.*}}{{( \{tile.signed\})?}} : i32
# ten rounds in all
# CHECK-RAND-COUNT-18: tile.mulhiui
# CHECK-RAND-NOT: tile.mulhiui
# uint_to_uniform_float
# (the uint32 -> int32 bitcast changes no bits and emits nothing)
# CHECK-RAND: %[[NEG:.*]] = arith.cmpi slt, %[[I:.*]], %{{.*}} : tensor<16xi32>
# CHECK-RAND: %[[MINUS:.*]] = arith.subi %{{.*}}, %[[I]]{{( \{tile.signed\})?}} : tensor<16xi32>
# CHECK-RAND: %[[FOLD:.*]] = arith.subi %[[MINUS]], %{{.*}}{{( \{tile.signed\})?}} : tensor<16xi32>
# CHECK-RAND: %[[SEL:.*]] = arith.select %[[NEG]], %[[FOLD]], %[[I]] : tensor<16xi1>, tensor<16xi32>
# CHECK-RAND: %[[F:.*]] = arith.sitofp %[[SEL]] : tensor<16xi32> to tensor<16xf32>
# CHECK-RAND: %[[SC:.*]] = arith.constant 4.6566126E-10 : f32
# CHECK-RAND: %[[SCS:.*]] = tile.splat %[[SC]] : tensor<16xf32>
# CHECK-RAND: %[[U:.*]] = arith.mulf %[[F]], %[[SCS]] : tensor<16xf32>
# CHECK-RAND: tile.store %{{.*}}, %[[U]]
@triton.jit
def rand_block(out_ptr, seed, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.rand(seed, offs))


# int64 offsets put their high word in c1; n_rounds sets the round count.
# CHECK-ROUNDS-LABEL: func.func @randint_rounds
# CHECK-ROUNDS: %[[OFF:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i64>>
# CHECK-ROUNDS: %[[LO:.*]] = arith.trunci %[[OFF]] : tensor<16xi64> to tensor<16xi32>
# CHECK-ROUNDS: %[[SH:.*]] = arith.shrsi %[[OFF]], %{{.*}} : tensor<16xi64>
# CHECK-ROUNDS: %[[HI:.*]] = arith.trunci %[[SH]] : tensor<16xi64> to tensor<16xi32>
# CHECK-ROUNDS: %[[H1:.*]] = tile.mulhiui %{{.*}}, %{{.*}} : tensor<16xi32>
# CHECK-ROUNDS: arith.xori %[[H1]], %[[HI]] : tensor<16xi32>
# CHECK-ROUNDS-COUNT-5: tile.mulhiui
# CHECK-ROUNDS-NOT: tile.mulhiui
# CHECK-ROUNDS: tile.store
# randint4x gives all four words.
# CHECK-ROUNDS-COUNT-20: tile.mulhiui
# CHECK-ROUNDS-NOT: tile.mulhiui
@triton.jit
def randint_rounds(out_ptr, seed, off_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    o = tl.load(off_ptr + offs)
    tl.store(out_ptr + offs, tl.randint(seed, o, n_rounds=3))
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(out_ptr + offs, a ^ b ^ c ^ d)


# Box-Muller: u1 = maximum(1e-7, u1); r = sqrt(-2 log u1); r cos(2 pi u2).
# CHECK-NORMAL-LABEL: func.func @normal
# CHECK-NORMAL: %[[U1:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<16xf32>
# CHECK-NORMAL: %[[U2:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<16xf32>
# CHECK-NORMAL: %[[EPS:.*]] = arith.constant 1.000000e-07 : f32
# CHECK-NORMAL: %[[EPSS:.*]] = tile.splat %[[EPS]] : tensor<16xf32>
# CHECK-NORMAL: %[[V1:.*]] = arith.maxnumf %[[EPSS]], %[[U1]] : tensor<16xf32>
# CHECK-NORMAL: %[[TWOPI:.*]] = arith.constant 6.28318548 : f32
# CHECK-NORMAL: %[[TS:.*]] = tile.splat %[[TWOPI]] : tensor<16xf32>
# CHECK-NORMAL: %[[TH:.*]] = arith.mulf %[[TS]], %[[U2]] : tensor<16xf32>
# CHECK-NORMAL: %[[LOG:.*]] = math.log %[[V1]] : tensor<16xf32>
# CHECK-NORMAL: %[[M2:.*]] = arith.mulf %{{.*}}, %[[LOG]] : tensor<16xf32>
# CHECK-NORMAL: %[[R:.*]] = math.sqrt %[[M2]] : tensor<16xf32>
# CHECK-NORMAL: %[[COS:.*]] = math.cos %[[TH]] : tensor<16xf32>
# CHECK-NORMAL: %[[N1:.*]] = arith.mulf %[[R]], %[[COS]] : tensor<16xf32>
# CHECK-NORMAL: math.sin %[[TH]] : tensor<16xf32>
# CHECK-NORMAL: tile.store %{{.*}}, %[[N1]]
# randn4x: four uniforms from one Philox call, two Box-Muller pairs.
# CHECK-NORMAL-COUNT-2: math.cos
# CHECK-NORMAL: tile.store
@triton.jit
def normal(out_ptr, seed, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.randn(seed, offs))
    a, b, c, d = tl.randn4x(seed, offs)
    tl.store(out_ptr + offs, a + b + c + d)


# 64-bit counters use Philox4x64: 64-bit constants, k0 = seed, k1 = [0].
# CHECK-P64-LABEL: func.func @philox64(
# CHECK-P64-SAME: %[[SEED:[^:]*]]: i64)
# CHECK-P64: %[[K1:.*]] = arith.constant dense<0> : tensor<1xi64>
# CHECK-P64: arith.constant -3865633965929787049 : i64
# CHECK-P64: tile.mulhiui
# CHECK-P64: %[[K0S:.*]] = tile.splat %[[SEED]] : tensor<16xi64>
# CHECK-P64: arith.xori %{{.*}}, %[[K0S]] : tensor<16xi64>
# CHECK-P64: arith.constant -3249550476889527149 : i64
# CHECK-P64: tile.broadcast %[[K1]] : tensor<1xi64> -> tensor<16xi64>
# CHECK-P64: arith.constant -7046029254386353131 : i64
# CHECK-P64: arith.constant -4942790177534073029 : i64
# CHECK-P64: arith.addi %[[K1]], %{{.*}}{{( \{tile.signed\})?}} : tensor<1xi64>
@triton.jit
def philox64(out_ptr, seed, N: tl.constexpr):
    offs = tl.arange(0, N).to(tl.uint64)
    a, b, c, d = tl.philox(seed, offs, offs, offs, offs)
    tl.store(out_ptr + offs, a ^ b ^ c ^ d)


# CHECK-ERR-CTR: random.py:[[@LINE+4]]:33: error: philox_impl needs uint32 or uint64 counters, got int32[16]
@triton.jit
def signed_counters(out_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    a, b, c, d = tl.philox_impl(o, o, o, o, 0, 0)


# CHECK-ERR-SEED: random.py:[[@LINE+3]]:9: error: philox: seed must be an integer, got float32
@triton.jit
def float_seed(out_ptr, N: tl.constexpr):
    r = tl.rand(1.5, tl.arange(0, N))

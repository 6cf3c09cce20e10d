# tl.range(..., warp_specialize=True) over TMA copies feeding wgmma (sm_90):
# the loop is split into consumer warps (wait for a slot, multiply, release
# a slot) and a producer warpgroup launched after them (wait for a released
# slot, copy): the consumers' arrivals, not a barrier, say that a slot is
# read. As Triton does it, a 4-warp program whose products have at least
# 128 rows gets two consumer warpgroups sharing those rows (8 warps), one
# with fewer rows gets one; programs of other warp counts are not split.
# Barriers after the split count the consumers only; each side sets its
# registers with setmaxnreg. A persistent tile loop over a k loop is
# flattened first, so one producer loop copies across tiles. sm_80 has no
# TMA: the loop runs on all warps, unsplit.
#
# A matmul's accumulating product stays in flight across an iteration: each
# iteration releases the slot the previous one read (the one its copies
# would have filled), right after its own product is issued.
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=IR
# IR: tgpu.mbarrier_init {barrier = [[FULL:[0-9]+]] : i64, count = 2 : i64, numSlots = 3 : i64}
# IR: tgpu.tma_copy
# IR: tgpu.mbarrier_init {barrier = [[EMPTY:[0-9]+]] : i64, count = 8 : i64, numSlots = 3 : i64}
# IR-NEXT: tgpu.warp_specialize consumer {
# IR: scf.for {{.*}} iter_args({{.*}}, %[[R:[^ ]*]] = %c0_i32{{.*}}, %[[W:[^ ]*]] = %c2_i32{{.*}})
# IR: tgpu.mbarrier_wait slot %[[R]] phase %{{.*}} {barrier = [[FULL]] : i64}
# IR-NOT: tgpu.tma_copy
# IR: tgpu.wgmma
# IR-NEXT: tgpu.wgmma_wait {{.*}} {pending = 1 : i64}
# IR-NEXT: tgpu.mbarrier_arrive slot %[[W]] {barrier = [[EMPTY]] : i64}
# IR: tile.descriptor_store
# IR: } producer {
# IR: scf.for {{.*}} iter_args(%[[PW:[^ ]*]] = %c2_i32{{.*}}, %[[PH:[^ ]*]] = %c0_i32{{[_0-9]*}})
# IR-NOT: tgpu.wgmma
# IR: tgpu.mbarrier_wait slot %[[PW]] phase %[[PH]] {barrier = [[EMPTY]] : i64}
# IR-NEXT: tgpu.tma_copy
# IR-NEXT: tgpu.tma_copy
# IR: } {consumerRegs = 232 : i64, producerRegs = 40 : i64, producerWarps = 4 : i64}
#
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 4 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=PTX
# PTX: .maxntid 384
# PTX: .maxnreg 168
# PTX: setmaxnreg.dec.sync.aligned.u32 40;
# PTX: setmaxnreg.inc.sync.aligned.u32 232;
# PTX: wgmma.mma_async
# PTX: mbarrier.arrive.shared::cta.b64
# PTX: bar.sync {{.*}}1, 256;
#
# Products of 64 rows: one consumer warpgroup.
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,64,128,64" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=ONEGROUP
# ONEGROUP: tgpu.mbarrier_init {barrier = {{[0-9]+}} : i64, count = 4 : i64, numSlots = 3 : i64}
# ONEGROUP-NEXT: tgpu.warp_specialize consumer {
# ONEGROUP: } {consumerRegs = 256 : i64, producerRegs = 40 : i64, producerWarps = 4 : i64}
#
# 8 warps: not split (the copies stay in the loop, issued by the program).
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=EIGHT
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=EIGHTPTX
# EIGHT-NOT: tgpu.warp_specialize
# EIGHT: scf.for
# EIGHT: tgpu.tma_copy
# EIGHT: scf.yield
# EIGHTPTX: .maxntid 256
# EIGHTPTX-NOT: setmaxnreg
#
# RUN: tritium compile %s --kernel mm_ws_persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64,132" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=PERSISTENT
# PERSISTENT: tgpu.warp_specialize consumer {
# PERSISTENT: tile.descriptor_store
# PERSISTENT: } producer {
# PERSISTENT: tgpu.mbarrier_wait
# PERSISTENT-NEXT: tgpu.tma_copy
#
# Attention: QK^T waits for its group at once; P V stays in flight into the
# next iteration, which waits for it right after its QK^T (a warpgroup's
# groups complete in order) and only then releases the previous iteration's
# slot (none in the first iteration); the last iteration's slot is released
# after the loop, past the wait for the last P V. The producer refills a
# slot for the iteration num_stages on. The last slot, empty before the
# first round, is waited for on the phase before the barrier's first.
# RUN: tritium compile %s --kernel attn_ws --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,128,64,64" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=ATTN
# ATTN: tgpu.mbarrier_init {barrier = [[EMPTY:[0-9]+]] : i64, count = 8 : i64, numSlots = 3 : i64}
# ATTN-NEXT: tgpu.warp_specialize consumer {
# ATTN: %[[LOOP:[^:]*]]:6 = scf.for %[[IV:[^ ]*]] = {{.*}} iter_args({{.*}}, %[[ACC:[^ ]*]] = %cst{{[_0-9]*}}, %{{[^ ]*}} = %cst{{[_0-9]*}}, %[[R:[^ ]*]] = %c0_i32{{.*}}, %[[W:[^ ]*]] = %c2_i32{{.*}})
# ATTN: tgpu.wgmma
# ATTN-NEXT: tgpu.wgmma_wait {{.*}} {pending = 0 : i64}
# ATTN-NEXT: tgpu.wgmma_wait %[[ACC]] {pending = 0 : i64}
# ATTN-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[IV]], %c0_i32
# ATTN: %[[ZERO:.*]] = arith.cmpi eq, %[[R]], %c0_i32
# ATTN: %[[PREV:.*]] = arith.select %[[ZERO]], %c2_i32{{[_0-9]*}}, %{{.*}}
# ATTN-NEXT: scf.if %[[NOTFIRST]] {
# ATTN-NEXT: tgpu.mbarrier_arrive slot %[[PREV]] {barrier = [[EMPTY]] : i64}
# ATTN: %[[PV:.*]] = tgpu.wgmma
# ATTN-NOT: tgpu.wgmma_wait
# ATTN-NOT: tgpu.mbarrier_arrive
# ATTN: scf.yield %{{.*}}, %[[PV]],
# ATTN-NEXT: }
# ATTN-NEXT: tgpu.wgmma_wait %[[LOOP]]#1 {pending = 0 : i64}
# ATTN-NEXT: %[[RAN:.*]] = arith.cmpi slt, %c0_i32, %arg4
# ATTN: scf.if %[[RAN]] {
# ATTN-NEXT: tgpu.mbarrier_arrive slot %{{.*}} {barrier = [[EMPTY]] : i64}
# ATTN: } producer {
# ATTN: scf.for {{.*}} iter_args(%[[PW:[^ ]*]] = %c2_i32{{.*}}, %[[PH:[^ ]*]] = %c0_i32{{[_0-9]*}})
# ATTN: %[[LAST:.*]] = arith.cmpi eq, %[[PW]], %c2_i32
# ATTN-NEXT: %[[X:.*]] = arith.extui %[[LAST]]
# ATTN-NEXT: %[[PARITY:.*]] = arith.xori %[[PH]], %[[X]]
# ATTN-NEXT: tgpu.mbarrier_wait slot %[[PW]] phase %[[PARITY]] {barrier = [[EMPTY]] : i64}
# ATTN-NEXT: tgpu.tma_copy
# ATTN-NEXT: tgpu.tma_copy
#
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:80 --num-warps 4 --emit tile-gpu | FileCheck %s --check-prefix=SM80
# SM80-NOT: tgpu.warp_specialize
# SM80: scf.for
import triton
import triton.language as tl


@triton.jit
def mm_ws(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C = A @ B^T with A (M, K) and B (N, K), both row-major.
    a = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    c = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    n_tiles = tl.cdiv(N, BN)
    row = tl.program_id(0) // n_tiles * BM
    col = tl.program_id(0) % n_tiles * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        acc += tl.dot(a.load([row, kk * BK]), b.load([col, kk * BK]).T)
    c.store([row, col], acc.to(tl.float16))


@triton.jit
def mm_ws_persistent(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr, SMS: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    c = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    n_tiles = tl.cdiv(N, BN)
    for t in tl.range(tl.program_id(0), tl.cdiv(M, BM) * n_tiles, SMS, warp_specialize=True):
        row = t // n_tiles * BM
        col = t % n_tiles * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(a.load([row, kk * BK]), b.load([col, kk * BK]).T, acc)
        c.store([row, col], acc.to(tl.float16))


@triton.jit
def attn_ws(q_ptr, k_ptr, v_ptr, o_ptr, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # One head of non-causal attention (base-2 scores), K and V by TMA.
    q_desc = tl.make_tensor_descriptor(q_ptr, [N, D], [D, 1], [BM, D])
    k_desc = tl.make_tensor_descriptor(k_ptr, [N, D], [D, 1], [BN, D])
    v_desc = tl.make_tensor_descriptor(v_ptr, [N, D], [D, 1], [BN, D])
    o_desc = tl.make_tensor_descriptor(o_ptr, [N, D], [D, 1], [BM, D])
    row = tl.program_id(0) * BM
    q = q_desc.load([row, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start in tl.range(0, N, BN, warp_specialize=True):
        s = tl.dot(q, k_desc.load([start, 0]).T)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), v_desc.load([start, 0]), acc * alpha[:, None])
        m_i = m_new
    o_desc.store([row, 0], (acc / l_i[:, None]).to(tl.float16))

# tl.range(..., warp_specialize=True) over TMA copies feeding wgmma (sm_90):
# the loop is split into consumer warps (the program's num_warps: wait for
# a slot, multiply, release the slot) and a producer warpgroup launched after
# them (wait for a released slot, copy): the consumers' arrivals, not a
# barrier, say that the previous group's slot is read. Barriers after the split count the
# consumers only; each side sets its registers with setmaxnreg. A persistent
# tile loop over a k loop is flattened first, so one producer loop copies
# across tiles. sm_80 has no TMA: the loop runs on all warps, unsplit.
#
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 4 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=IR
# IR: tgpu.mbarrier_init {barrier = [[FULL:[0-9]+]] : i64, count = 2 : i64, numSlots = 3 : i64}
# IR: tgpu.tma_copy
# IR: tgpu.mbarrier_init {barrier = [[EMPTY:[0-9]+]] : i64, count = 4 : i64, numSlots = 3 : i64}
# IR-NEXT: tgpu.warp_specialize consumer {
# IR: scf.for
# IR: tgpu.mbarrier_wait slot %{{.*}} phase %{{.*}} {barrier = [[FULL]] : i64}
# IR-NOT: tgpu.tma_copy
# IR: tgpu.wgmma
# IR-NEXT: tgpu.wgmma_wait {{.*}} {pending = 1 : i64}
# IR-NEXT: tgpu.mbarrier_arrive slot %{{.*}} {barrier = [[EMPTY]] : i64}
# IR: tile.descriptor_store
# IR: } producer {
# IR: scf.for
# IR-NOT: tgpu.wgmma
# IR: tgpu.mbarrier_wait slot %{{.*}} phase %{{.*}} {barrier = [[EMPTY]] : i64}
# IR-NEXT: tgpu.tma_copy
# IR-NEXT: tgpu.tma_copy
# IR: } {consumerRegs = 256 : i64, producerRegs = 40 : i64, producerWarps = 4 : i64}
#
# RUN: tritium compile %s --kernel mm_ws --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s --check-prefix=PTX
# PTX: .maxntid 384
# PTX: .maxnreg 168
# PTX: setmaxnreg.dec.sync.aligned.u32 40;
# PTX: setmaxnreg.inc.sync.aligned.u32 232;
# PTX: wgmma.mma_async
# PTX: mbarrier.arrive.shared::cta.b64
# PTX: bar.sync {{.*}}1, 256;
#
# RUN: tritium compile %s --kernel mm_ws_persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,128,128,64,132" --target cuda:90 --num-warps 8 --num-stages 3 --emit tile-gpu | FileCheck %s --check-prefix=PERSISTENT
# PERSISTENT: tgpu.warp_specialize consumer {
# PERSISTENT: tile.descriptor_store
# PERSISTENT: } producer {
# PERSISTENT: tgpu.mbarrier_wait
# PERSISTENT-NEXT: tgpu.tma_copy
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

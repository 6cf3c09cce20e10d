# Address arithmetic the assembler can keep cheap, in a loop that recomputes
# its tile addresses each iteration (offsets built from the k index, as
# 09-persistent-matmul writes them):
# - shared-memory pointers are 32 bits wide;
# - the warp index is broadcast from lane 0, so what derives from it alone
#   (here the wgmma descriptors) is warp-uniform to ptxas;
# - each copy's global address is one mad.wide (LEA off a uniform base in
#   SASS), not mul.wide + add.s64;
# - each thread computes one shared address per slot and reaches its other
#   copies by constants.
# RUN: tritium compile %s --kernel mm --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64" --target cuda:90 --num-warps 8 --num-stages 3 --emit ptx | FileCheck %s
# CHECK-LABEL: .entry mm(
# CHECK: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 31, -1;
# CHECK: mad.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 2, %rd{{[0-9]+}};
# CHECK: mov.b32 %r{{[0-9]+}}, tritium_smem;
# CHECK: add.s32 %r{{[0-9]+}}, %r[[BASE:[0-9]+]], 4096;
# CHECK: cp.async.cg.shared.global
# CHECK: add.s32 %r{{[0-9]+}}, %r[[BASE]], 8192;
# CHECK: cp.async.cg.shared.global
# CHECK: add.s32 %r{{[0-9]+}}, %r[[BASE]], 12288;
# CHECK: wgmma.mma_async
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for ki in range(tl.cdiv(K, BK)):
        offs_k = ki * BK + tl.arange(0, BK)
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :])
        b = tl.load(b_ptr + offs_k[:, None] + offs_n[None, :] * stride_bn)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16))

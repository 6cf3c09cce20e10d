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
#
# 03's matmul with a bias row added after the loop and no hints: the copies
# of A read one base pointer plus a loop-invariant offset each, advanced by
# one add per iteration (lane fields of the layout are extracted whole, so
# the column offset is one term LLVM's loop strength reduction keeps with
# the rows), not eight pointers advanced separately.
# RUN: tritium compile %s --kernel mm_bias --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,128,128,64,8" --target cuda:90 --num-warps 4 --num-stages 4 --emit ptx | FileCheck %s --check-prefix=BIAS
# BIAS-LABEL: .entry mm_bias(
# BIAS: $L__BB0_2:
# BIAS-NEXT: add.s64 %rd{{[0-9]+}}, %rd[[A:[0-9]+]], %rd{{[0-9]+}};
# BIAS-COUNT-7: add.s64 %rd{{[0-9]+}}, %rd[[A]], %rd{{[0-9]+}};
# BIAS: cp.async.cg.shared.global
# BIAS: add.s64 %rd[[A]], %rd[[A]], 128;
# BIAS-NOT: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 128;
# BIAS: bra{{(.uni)?}} $L__BB0_2;
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


@triton.jit
def mm_bias(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    gm = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % gm
    pid_n = (pid % group) // gm
    offs_m = (pid_m * BM + tl.arange(0, BM)) % M
    offs_n = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    bias = tl.load(bias_ptr + offs_n)
    acc = acc + bias[None, :].to(tl.float32)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))

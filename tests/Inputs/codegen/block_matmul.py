# Matmuls whose tiles come from block pointers (tl.advance) and from
# tensor descriptors, for the codegen tests.
import triton
import triton.language as tl

@triton.jit
def mm_bp(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (scm, scn), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))

@triton.jit
def mm_desc(a_ptr, b_ptr, c_ptr, M, N, K,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_d = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_d = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    c_d = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_d.load([pid_m * BM, k])
        b = b_d.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_d.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def mm_host_desc(a_d, b_d, c_ptr, M, N, K,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_d.load([pid_m * BM, k]), b_d.load([k, pid_n * BN]), acc)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def mm_persistent_desc_store(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                             NUM_SMS: tl.constexpr):
    # Tiles copied through pointers (cp.async), stored through a descriptor
    # (TMA), in one flattened loop.
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[scm, 1],
                                       block_shape=[BM, BN])
    num_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * num_n
    offs_k = tl.arange(0, BK)
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True):
        rm = (tile // num_n) * BM + tl.arange(0, BM)
        rn = (tile % num_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptr + rm[:, None] * sam + (k * BK + offs_k)[None, :],
                        mask=(rm[:, None] < M) & ((k * BK + offs_k)[None, :] < K), other=0.0)
            b = tl.load(b_ptr + (k * BK + offs_k)[:, None] * sbk + rn[None, :],
                        mask=((k * BK + offs_k)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        c_desc.store([(tile // num_n) * BM, (tile % num_n) * BN], acc.to(tl.float16))


@triton.jit
def mm_early_desc_store(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        GROUP_M: tl.constexpr):
    # Pointer tiles into a product, in grouped order, stored through a
    # descriptor made at the kernel's start.
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[scm, 1],
                                       block_shape=[BM, BN])
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    gm = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % gm
    pid_n = (pid % group) // gm
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * sbk
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))



@triton.jit
def mm_loop(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, sbn, scm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A k loop over pointer tiles, B row-major (sbn 1) or K-major (sbk 1),
    # the products accumulating in C's dtype (out_dtype). fp16 C: the
    # accumulator pairs of halves in 32-bit registers, in flight across the
    # back edge. fp32 tiles: the products at tf32 (the default precision).
    # int8 tiles: into int32.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=acc.dtype)
        a_ptrs += BK
        b_ptrs += BK * sbk
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))

"""The kernels bench/gpu_bench.py runs, written as Triton 3.6's tutorials
write them, and the tutorials' autotuning config lists.

Every kernel is one ``@triton.jit`` function; the benchmark launches it
under the installed Triton as it is and under tritium as
``tritium.jit(kernel.fn)`` (or, with ``--cpu-check``, through the
``python/compat`` ``triton`` package, which is tritium).

    matmul_kernel             03-matrix-multiplication: pointer arithmetic,
                              grouped ordering, 03's config list
    matmul_kernel_block_ptr   the same program with tl.make_block_ptr /
                              tl.advance (03's config list)
    matmul_kernel_descriptor  09-persistent-matmul's matmul_kernel_tma with
                              in-kernel tl.make_tensor_descriptor (09's list)
    matmul_kernel_persistent  09's matmul_kernel_persistent: NUM_SMS
                              programs striding over the tiles (09's list)
    attn_fwd                  06-fused-attention's forward (in-kernel tensor
                              descriptors, exp2 online softmax, STAGE 1/2/3
                              causal split); K_TRANSPOSED picks K stored
                              transposed ([Z, H, D, N], loaded as a
                              [HEAD_DIM, BLOCK_N] tile) or K as stored
                              ([Z, H, N, D], loaded [BLOCK_N, HEAD_DIM] and
                              put through tl.trans); 06's list, filtered
                              and pruned as 06 does
    layer_norm_fwd            05-layer-norm's _layer_norm_fwd_fused
    softmax_kernel            02-fused-softmax's persistent row softmax
    cumsum_rows               a running sum along each row (tl.cumsum)
    attn_bwd                  06's backward (_attn_bwd with its dK/dV and dQ
                              loops; K scaled by sm_scale / ln 2, M the
                              forward's base-2 log-sum-exp)
    layer_norm_bwd_dx_fused   05's dX kernel: partial dW/dB summed into
                              GROUP_SIZE_M buffers under spin locks
    grouped_matmul_kernel     08-grouped-gemm: NUM_SM programs over the
                              tiles of problems whose pointers, sizes and
                              leading dimensions are read from memory
    seeded_dropout            04-low-memory-dropout's seeded dropout

The matmul kernels all read B stored K-major (B = Bt.T with Bt a contiguous
[N, K] tensor), as 09 does and as fp8 needs: the pointer and block-pointer
kernels get B's strides, the descriptor kernel gets Bt and takes
``b.T`` in the kernel. For fp8 (e4m3) inputs C is fp16 (as in 03); otherwise
C has the inputs' dtype.

Where these differ from the tutorials: no ACTIVATION (03) and C's dtype
taken from c_ptr (as 09 does); 3.6 has no block-pointer tutorial, so that
kernel is 03's with the block pointers of the former
08-experimental-block-pointer; the tensor-descriptor kernels always build
their descriptors in the kernel (the form both Triton and tritium take;
Triton needs triton.set_allocator for it); attention is fp16 only (no
FP8_OUTPUT path) without 06's Blackwell-only accumulator split, and its
helper takes offs_m / offs_n / N_CTX without tl.constexpr annotations (they
are runtime values); softmax's ``num_stages`` parameter is NUM_STAGES so it
cannot be mistaken for the launch option.
"""

import triton
import triton.language as tl


# ---------------------------------------------------------------------------
# Config lists (the tutorials' own).
# ---------------------------------------------------------------------------

def matmul_configs_03():
    """03-matrix-multiplication's get_cuda_autotune_config(), fp8 configs
    included."""
    def c(bm, bn, bk, stages, warps):
        return triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn,
                              "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8},
                             num_stages=stages, num_warps=warps)
    return [
        c(128, 256, 64, 3, 8),
        c(64, 256, 32, 4, 4),
        c(128, 128, 32, 4, 4),
        c(128, 64, 32, 4, 4),
        c(64, 128, 32, 4, 4),
        c(128, 32, 32, 4, 4),
        c(64, 32, 32, 5, 2),
        c(32, 64, 32, 5, 2),
        # Good configs for fp8 inputs.
        c(128, 256, 128, 3, 8),
        c(256, 128, 128, 3, 8),
        c(256, 64, 128, 4, 4),
        c(64, 256, 128, 4, 4),
        c(128, 128, 128, 4, 4),
        c(128, 64, 64, 4, 4),
        c(64, 128, 64, 4, 4),
        c(128, 32, 64, 4, 4),
    ]


def matmul_configs_09():
    """09-persistent-matmul's matmul_get_configs() (CUDA branch)."""
    return [
        triton.Config({"BLOCK_SIZE_M": BM, "BLOCK_SIZE_N": BN,
                       "BLOCK_SIZE_K": BK, "GROUP_SIZE_M": 8},
                      num_stages=s, num_warps=w)
        for BM in [128]
        for BN in [128, 256]
        for BK in [64, 128]
        for s in [2, 3, 4]
        for w in [4, 8]
    ]


def attn_configs(compute_capability_major=None):
    """06-fused-attention's configs, filtered by its ``keep`` (on sm_90,
    8 warps only for 128x128 tiles)."""
    configs = [
        triton.Config({"BLOCK_M": BM, "BLOCK_N": BN}, num_stages=s,
                      num_warps=w)
        for BM in [64, 128]
        for BN in [32, 64, 128]
        for s in [2, 3, 4]
        for w in [4, 8]
    ]

    def keep(conf):
        BLOCK_M = conf.kwargs["BLOCK_M"]
        BLOCK_N = conf.kwargs["BLOCK_N"]
        return not (compute_capability_major == 9
                    and BLOCK_M * BLOCK_N < 128 * 128 and conf.num_warps == 8)

    return list(filter(keep, configs))


def attn_prune_invalid_configs(configs, named_args, **kwargs):
    """06's early_config_prune: BLOCK_M <= N_CTX, BLOCK_M >= BLOCK_N when
    causal, BLOCK_N <= HEAD_DIM."""
    N_CTX = kwargs["N_CTX"]
    STAGE = kwargs["STAGE"]
    HEAD_DIM = kwargs["HEAD_DIM"]
    return [
        conf for conf in configs
        if conf.kwargs.get("BLOCK_M", 0) <= N_CTX
        and (conf.kwargs.get("BLOCK_M", 0) >= conf.kwargs.get("BLOCK_N", 0)
             or STAGE == 1)
        and conf.kwargs.get("BLOCK_N", 0) <= HEAD_DIM
    ]


def layer_norm_launch(N, element_size):
    """05's launch rule: (BLOCK_SIZE, num_warps) for N columns."""
    MAX_FUSED_SIZE = 65536 // element_size
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if N > BLOCK_SIZE:
        raise RuntimeError("This layer norm doesn't support feature dim "
                           ">= 64KB.")
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    return BLOCK_SIZE, num_warps


# ---------------------------------------------------------------------------
# Matmul.
# ---------------------------------------------------------------------------

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr,
                  M, N, K,
                  stride_am, stride_ak,
                  stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # Program id -> tile of C, in grouped ordering for L2 reuse.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)

    # [BLOCK_SIZE_M, BLOCK_SIZE_K] pointers into A and [BLOCK_SIZE_K,
    # BLOCK_SIZE_N] into B, advanced along K.
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_bias_kernel(a_ptr, b_ptr, bias_ptr, c_ptr,
                       M, N, K,
                       stride_am, stride_ak,
                       stride_bk, stride_bn,
                       stride_cm, stride_cn,
                       BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                       BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # 03's kernel without its hints, with a bias row added in the epilogue.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    bias = tl.load(bias_ptr + offs_bn)
    acc = acc + bias[None, :].to(tl.float32)
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def matmul_kernel_block_ptr(a_ptr, b_ptr, c_ptr,
                            M, N, K,
                            stride_am, stride_ak,
                            stride_bk, stride_bn,
                            stride_cm, stride_cn,
                            BLOCK_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr,
                            BLOCK_SIZE_K: tl.constexpr,
                            GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # A is row-major (order (1, 0)); B is K-major, its K dimension the
    # fastest varying (order (0, 1)).
    a_block_ptr = tl.make_block_ptr(base=a_ptr, shape=(M, K),
                                    strides=(stride_am, stride_ak),
                                    offsets=(pid_m * BLOCK_SIZE_M, 0),
                                    block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_K),
                                    order=(1, 0))
    b_block_ptr = tl.make_block_ptr(base=b_ptr, shape=(K, N),
                                    strides=(stride_bk, stride_bn),
                                    offsets=(0, pid_n * BLOCK_SIZE_N),
                                    block_shape=(BLOCK_SIZE_K, BLOCK_SIZE_N),
                                    order=(0, 1))
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_block_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block_ptr, boundary_check=(0, 1), padding_option="zero")
        accumulator = tl.dot(a, b, accumulator)
        a_block_ptr = tl.advance(a_block_ptr, (0, BLOCK_SIZE_K))
        b_block_ptr = tl.advance(b_block_ptr, (BLOCK_SIZE_K, 0))
    c = accumulator.to(c_ptr.dtype.element_ty)

    c_block_ptr = tl.make_block_ptr(base=c_ptr, shape=(M, N),
                                    strides=(stride_cm, stride_cn),
                                    offsets=(pid_m * BLOCK_SIZE_M,
                                             pid_n * BLOCK_SIZE_N),
                                    block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_N),
                                    order=(1, 0))
    tl.store(c_block_ptr, c, boundary_check=(0, 1))


@triton.jit
def matmul_kernel_descriptor(a_ptr, b_ptr, c_ptr,
                             M, N, K,
                             BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr):
    # a: [M, K] row-major, b: Bt, [N, K] row-major, c: [M, N] row-major.
    dtype = c_ptr.dtype.element_ty
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])

    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(k_tiles):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_bn, offs_k])
        accumulator = tl.dot(a, b.T, accumulator)

    c = accumulator.to(dtype)
    c_desc.store([offs_am, offs_bn], c)


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_kernel_persistent(a_ptr, b_ptr, c_ptr,
                             M, N, K,
                             stride_am, stride_ak,
                             stride_bk, stride_bn,
                             stride_cm, stride_cn,
                             BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr,
                             NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n

    # The epilogue has its own tile counter (as 09 keeps it).
    tile_id_c = start_pid - NUM_SMS

    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        start_m = pid_m * BLOCK_SIZE_M
        start_n = pid_n * BLOCK_SIZE_N
        offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
        offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N)

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)

        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        c = accumulator.to(c_ptr.dtype.element_ty)
        tl.store(c_ptrs, c, mask=c_mask)


# ---------------------------------------------------------------------------
# Fused attention, forward.
# ---------------------------------------------------------------------------

@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q,
                    desc_k, desc_v,
                    offset_y, offset_kt, dtype: tl.constexpr, start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr,
                    BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                    offs_m, offs_n, N_CTX, K_TRANSPOSED: tl.constexpr,
                    warp_specialize: tl.constexpr):
    # Range of key positions this stage handles: 1, the blocks left of the
    # diagonal; 2, the diagonal block (masked); 3, all of them.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    offsetk_y = offset_y + lo
    offsetv_y = offset_y + lo
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=warp_specialize):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- qk = q @ k^T --
        if K_TRANSPOSED:
            kT = desc_k.load([offset_kt, start_n])
        else:
            kT = tl.trans(desc_k.load([offsetk_y, 0]))
        qk = tl.dot(q, kT)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        # -- correction factor, accumulator update --
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([offsetv_y, 0])
        p = p.to(dtype)
        acc = tl.dot(p, v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def attn_fwd(sm_scale, M,
             Z, H, q_ptr, k_ptr, v_ptr, o_ptr, N_CTX,
             HEAD_DIM: tl.constexpr,
             BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr,
             STAGE: tl.constexpr,
             K_TRANSPOSED: tl.constexpr,
             warp_specialize: tl.constexpr):
    dtype = tl.float16
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H

    y_dim = Z * H * N_CTX
    desc_q = tl.make_tensor_descriptor(q_ptr, shape=[y_dim, HEAD_DIM],
                                       strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_M, HEAD_DIM])
    if K_TRANSPOSED:
        # K stored as [Z, H, HEAD_DIM, N_CTX].
        desc_k = tl.make_tensor_descriptor(k_ptr, shape=[Z * H * HEAD_DIM, N_CTX],
                                           strides=[N_CTX, 1],
                                           block_shape=[HEAD_DIM, BLOCK_N])
    else:
        desc_k = tl.make_tensor_descriptor(k_ptr, shape=[y_dim, HEAD_DIM],
                                           strides=[HEAD_DIM, 1],
                                           block_shape=[BLOCK_N, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(v_ptr, shape=[y_dim, HEAD_DIM],
                                       strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_N, HEAD_DIM])
    desc_o = tl.make_tensor_descriptor(o_ptr, shape=[y_dim, HEAD_DIM],
                                       strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_M, HEAD_DIM])

    offset_y = off_z * (N_CTX * H) + off_h * N_CTX
    offset_kt = off_hz * HEAD_DIM
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    # Running row maximum, denominator and output accumulator.
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504  # 1/log(2)
    q = desc_q.load([qo_offset_y, 0])
    # Causal: STAGE 3 = off-band (inner stage 1) then on-band (inner stage
    # 2). Not causal: STAGE 1, one pass over everything (inner stage 3).
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v,
                                        offset_y, offset_kt, dtype, start_m,
                                        qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        4 - STAGE, offs_m, offs_n, N_CTX,
                                        K_TRANSPOSED, warp_specialize)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v,
                                        offset_y, offset_kt, dtype, start_m,
                                        qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        2, offs_m, offs_n, N_CTX,
                                        K_TRANSPOSED, warp_specialize)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    m_ptrs = M + off_hz * N_CTX + offs_m
    tl.store(m_ptrs, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(dtype))


# ---------------------------------------------------------------------------
# Layer norm forward and softmax.
# ---------------------------------------------------------------------------

@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd,
                   stride,  # elements between rows
                   N,  # columns
                   eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Mean.
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Variance.
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize, scale and shift.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   NUM_STAGES: tl.constexpr):
    # Persistent: program i handles rows i, i + num_programs, ...
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=NUM_STAGES):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


@triton.jit
def cumsum_rows(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    # One row per program: its running sum.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + offs, tl.cumsum(x, axis=0), mask=mask)


# ---------------------------------------------------------------------------
# Backward passes (05, 06), grouped GEMM (08) and seeded dropout (04).
# ---------------------------------------------------------------------------

@triton.jit
def _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D,
                   stride_tok, stride_d, N_CTX,
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
                   HEAD_DIM: tl.constexpr,
                   start_n, start_m, num_steps,
                   MASK: tl.constexpr):
    # One block of K/V rows against num_steps blocks of queries; Q and dO
    # are read as [HEAD_DIM, BLOCK_M1] (transposed through the strides) and
    # [BLOCK_M1, HEAD_DIM].
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    curr_m = start_m
    step_m = BLOCK_M1
    for blk_idx in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        if MASK:
            mask = (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += step_m
        qT_ptrs += step_m * stride_tok
        do_ptrs += step_m * stride_tok
    return dk, dv


@triton.jit
def _attn_bwd_dq(dq, q, K, V, do, m, D,
                 stride_tok, stride_d, N_CTX,
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
                 HEAD_DIM: tl.constexpr,
                 start_m, start_n, num_steps,
                 MASK: tl.constexpr):
    # One block of queries against num_steps blocks of K/V, both read
    # transposed ([HEAD_DIM, BLOCK_N2]).
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    Di = tl.load(D + offs_m)
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    curr_n = start_n
    step_n = BLOCK_N2
    for blk_idx in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            mask = (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(mask, p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        ds = ds.to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += step_n
        kT_ptrs += step_n * stride_tok
        vT_ptrs += step_n * stride_tok
    return dq


@triton.jit
def attn_bwd(Q, K, V, sm_scale,
             DO, DQ, DK, DV,
             M, D,
             stride_z, stride_h, stride_tok, stride_d,
             H, N_CTX,
             BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
             BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
             BLK_SLICE_FACTOR: tl.constexpr,
             HEAD_DIM: tl.constexpr,
             CAUSAL: tl.constexpr):
    # 06's backward: K arrives scaled by sm_scale / ln 2, M is the forward's
    # base-2 log-sum-exp and D the rowwise sum of O * dO.
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz
    offs_k = tl.arange(0, HEAD_DIM)

    # dK and dV of one block of keys.
    start_n = pid * BLOCK_N1
    start_m = 0
    MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    if CAUSAL:
        # The diagonal blocks, masked, in smaller steps.
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D,
                                stride_tok, stride_d, N_CTX,
                                MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM,
                                start_n, start_m, num_steps, MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D,
                            stride_tok, stride_d, N_CTX,
                            BLOCK_M1, BLOCK_N1, HEAD_DIM,
                            start_n, start_m, num_steps, MASK=False)
    dv_ptrs = DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dv_ptrs, dv)
    dk *= sm_scale
    dk_ptrs = DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dk_ptrs, dk)

    # dQ of one block of queries.
    start_m = pid * BLOCK_M2
    end_n = N_CTX
    MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    m = tl.load(M + offs_m)
    m = m[:, None]
    start_n = 0
    num_steps = N_CTX // BLOCK_N2
    if CAUSAL:
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = _attn_bwd_dq(dq, q, K, V, do, m, D,
                          stride_tok, stride_d, N_CTX,
                          BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM,
                          start_m, end_n - num_steps * MASK_BLOCK_N2,
                          num_steps, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2
    dq = _attn_bwd_dq(dq, q, K, V, do, m, D,
                      stride_tok, stride_d, N_CTX,
                      BLOCK_M2, BLOCK_N2, HEAD_DIM,
                      start_m, start_n, num_steps, MASK=False)
    dq *= LN2
    dq_ptrs = DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dq_ptrs, dq)


@triton.jit
def layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock,
                            stride, N,
                            GROUP_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr):
    # One row per program: dX, and the row's dW/dB added into one of
    # GROUP_SIZE_M partial buffers under a spin lock.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


def layer_norm_bwd_group_size(N):
    """05's GROUP_SIZE_M (partial dW/dB buffers) for N columns."""
    if N <= 1024:
        return 256
    if N <= 4096:
        return 128
    if N <= 8192:
        return 96
    return 64


def grouped_matmul_configs(num_sms):
    """08-grouped-gemm's autotuning list (NUM_SM among the config values)."""
    C = triton.Config
    return [
        C({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
           "NUM_SM": 84}),
        C({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
           "NUM_SM": 128}),
        C({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
           "NUM_SM": 84}),
        C({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
           "NUM_SM": 128}),
        C({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64,
           "NUM_SM": num_sms}),
        C({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64,
           "NUM_SM": num_sms}),
    ]


@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs,
                          group_gemm_sizes, g_lds, group_size,
                          NUM_SM: tl.constexpr,
                          BLOCK_SIZE_M: tl.constexpr,
                          BLOCK_SIZE_N: tl.constexpr,
                          BLOCK_SIZE_K: tl.constexpr):
    # NUM_SM programs walk the tiles of every problem of the group; each
    # problem's pointers, sizes and leading dimensions are read from device
    # memory.
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        while (tile_idx >= last_problem_end
               and tile_idx < last_problem_end + num_tiles):
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_k = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N),
                                   dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                # Alignment the compiler cannot see through loaded pointers.
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :]
            tl.store(c_ptrs, c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


@triton.jit
def seeded_dropout(x_ptr, output_ptr, n_elements, p, seed,
                   BLOCK_SIZE: tl.constexpr):
    # 04's seeded dropout: the keep mask is a function of (seed, offset).
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)

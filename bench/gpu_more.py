"""More kernels in the tutorials' styles, tritium next to Triton on a GPU.

bench/gpu_bench.py times the tutorials' own kernels, autotuned. This script
times kernels written the way users write them outside that set, each at
one fixed configuration given to both sides, same inputs, same
triton.testing.do_bench (warmup 25 ms, rep 100 ms), --rounds rounds in
alternating order, each side's median: vector add (01), RMS norm, a
column sum (reduction down the columns), a transpose through tl.trans,
split-K matmul accumulated with atomics, int8 matmul, GEMV, an embedding
gather, rotary embedding, cross entropy (online softmax over the vocabulary),
row argmax, softmax backward, 09's matmuls through host and device tensor
descriptors (plain, persistent, epilogue subtiling, warp specialization),
03's matmul with its leaky_relu epilogue, 05's dW/dB reduction, 07's
libdevice call, a 3-pass fp16 softmax, int8 row quantization, tl.sort,
tl.associative_scan (a linear recurrence), a matmul with a bias and an erf
GELU, an fp64 matmul, 3-D tl.dots (batched small matmuls in one
program, alone and accumulated over K), a W4A16 matmul dequantizing int4
weights in its loop, a decode-step GEMM (16 rows), a batched matmul with
the batch on the grid's third axis, split-KV decode attention, SwiGLU,
an fp32 matmul at full precision (FMA), an implicit-GEMM 3x3 convolution,
an index_add by atomics, group norm and a Welford (3-value) tl.reduce. Each row prints the largest
difference between the two sides' outputs.

Needs a GPU, torch and Triton. Run:
``PYTHONPATH=python python3 bench/gpu_more.py [--only SUBSTRING] [--rounds N]``.
"""
import argparse
import statistics
import sys

import torch
import triton
import triton.language as tl
import tritium

dev = "cuda"


@triton.jit
def vadd(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def rmsnorm(x_ptr, w_ptr, y_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.).to(tl.float32)
    rms = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=m)
    tl.store(y_ptr + row * stride + cols, (x * rms * w).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def colsum(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :],
                       mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BLOCK + tl.arange(0, BLOCK)
    rn = pn * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))


@triton.jit
def splitk(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
           SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def mm_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc)


@triton.jit
def gemv(a_ptr, x_ptr, y_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :])
        x = tl.load(x_ptr + rk)
        acc += a.to(tl.float32) * x.to(tl.float32)[None, :]
    tl.store(y_ptr + rm, tl.sum(acc, axis=1))


@triton.jit
def embed(idx_ptr, table_ptr, out_ptr, D, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * ROWS + tl.arange(0, ROWS)
    idx = tl.load(idx_ptr + r)
    d = tl.arange(0, BLOCK_D)
    v = tl.load(table_ptr + idx[:, None] * D + d[None, :])
    tl.store(out_ptr + r[:, None] * D + d[None, :], v)


@triton.jit
def rope(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, D: tl.constexpr, BLOCK_H: tl.constexpr):
    # x: [tokens, H, D]; cos/sin: [S, D // 2]; token t uses position t % S.
    t = tl.program_id(0)
    pos = t % S
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, D // 2)
    base = x_ptr + t * H * D + h[:, None] * D + d[None, :]
    x1 = tl.load(base).to(tl.float32)
    x2 = tl.load(base + D // 2).to(tl.float32)
    c = tl.load(cos_ptr + pos * (D // 2) + d)[None, :]
    s = tl.load(sin_ptr + pos * (D // 2) + d)[None, :]
    o = out_ptr + t * H * D + h[:, None] * D + d[None, :]
    tl.store(o, (x1 * c - x2 * s).to(tl.float16))
    tl.store(o + D // 2, (x2 * c + x1 * s).to(tl.float16))


@triton.jit
def xent(logits_ptr, labels_ptr, loss_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    p = logits_ptr + row * stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for n0 in range(0, N, BLOCK):
        cols = n0 + tl.arange(0, BLOCK)
        x = tl.load(p + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - mx), axis=0)
    label = tl.load(labels_ptr + row)
    tl.store(loss_ptr + row, tl.log(total) + mx - tl.load(p + label))


@triton.jit
def argmax_rows(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def softmax_bwd(dy_ptr, y_ptr, dx_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    dy = tl.load(dy_ptr + row * stride + cols, mask=m, other=0.).to(tl.float32)
    y = tl.load(y_ptr + row * stride + cols, mask=m, other=0.).to(tl.float32)
    dx = y * (dy - tl.sum(dy * y, axis=0))
    tl.store(dx_ptr + row * stride + cols, dx.to(tl.float16), mask=m)


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def mm_tma(a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
           BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    pid_m, pid_n = _compute_pid(pid, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(k_tiles, warp_specialize=WARP_SPECIALIZE):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_bn, offs_k])
        accumulator = tl.dot(a, b.T, accumulator)
    c = accumulator.to(tl.float16)
    c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], c)


@triton.jit
def mm_tma_persistent(a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                      BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr, EPILOGUE_SUBTILE: tl.constexpr,
                      NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am_c = pid_m * BLOCK_SIZE_M
        offs_bn_c = pid_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c0 = acc0.to(tl.float16)
            c_desc.store([offs_am_c, offs_bn_c], c0)
            c1 = acc1.to(tl.float16)
            c_desc.store([offs_am_c, offs_bn_c + BLOCK_SIZE_N // 2], c1)
        else:
            c_desc.store([offs_am_c, offs_bn_c], accumulator.to(tl.float16))


@triton.jit
def mm_desc_persistent(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                       BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                       GROUP_SIZE_M: tl.constexpr, EPILOGUE_SUBTILE: tl.constexpr,
                       NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr, FLATTEN: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N if not EPILOGUE_SUBTILE else BLOCK_SIZE_N // 2])
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c_desc.store([offs_cm, offs_cn], acc0.to(dtype))
            c_desc.store([offs_cm, offs_cn + BLOCK_SIZE_N // 2], acc1.to(dtype))
        else:
            c_desc.store([offs_cm, offs_cn], accumulator.to(dtype))


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def mm_act(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
           GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
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
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def ln_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr,
                BLOCK_SIZE_N: tl.constexpr):
    # 05's second backward kernel: the partial dW/dB rows summed.
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)


@triton.jit
def asin_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    # 07's extern function call.
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.extra.cuda.libdevice.asin(x), mask=m)


@triton.jit
def softmax_long(x_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    # Rows longer than one block: a max pass, a sum pass, a write pass.
    row = tl.program_id(0)
    p = x_ptr + row * stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    for n0 in range(0, N, BLOCK):
        cols = n0 + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(p + cols, mask=cols < N, other=float("-inf")).to(tl.float32))
    mx = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for n0 in range(0, N, BLOCK):
        cols = n0 + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(p + cols, mask=cols < N, other=float("-inf")).to(tl.float32) - mx)
    total = tl.sum(s, axis=0)
    for n0 in range(0, N, BLOCK):
        cols = n0 + tl.arange(0, BLOCK)
        x = tl.load(p + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (tl.exp(x - mx) / total).to(tl.float16), mask=cols < N)


@triton.jit
def quant_rows(x_ptr, q_ptr, scale_ptr, N, BLOCK: tl.constexpr):
    # Per-row absmax int8 quantization.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.).to(tl.float32)
    scale = tl.max(tl.abs(x), axis=0) / 127.0
    q = tl.extra.cuda.libdevice.rint(x / scale)
    tl.store(q_ptr + row * N + cols, q.to(tl.int8), mask=cols < N)
    tl.store(scale_ptr + row, scale)


@triton.jit
def sort_rows(x_ptr, y_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    tl.store(y_ptr + row * N + cols, tl.sort(tl.load(x_ptr + row * N + cols)))


@triton.jit
def _recurrence(a1, b1, a2, b2):
    # (a1, b1) then (a2, b2): h -> a2 * (a1 * h + b1) + b2
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_scan(a_ptr, b_ptr, h_ptr, L: tl.constexpr):
    # h_t = a_t * h_{t-1} + b_t along each row, one row per program.
    row = tl.program_id(0)
    t = tl.arange(0, L)
    a = tl.load(a_ptr + row * L + t)
    b = tl.load(b_ptr + row * L + t)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=_recurrence)
    tl.store(h_ptr + row * L + t, h)


@triton.jit
def mm_gelu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr,
            BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    # Matmul (B K-major) with a bias and an exact (erf) GELU in the epilogue.
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    rn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rn[None, :] * K + rk[:, None]
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K
    acc += tl.load(bias_ptr + rn)[None, :].to(tl.float32)
    acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def mm_f64(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr,
           BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    # An fp64 matmul (Triton runs it on the tensor cores' DMMA).
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    rm = (pid // num_pid_n) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    rn = (pid % num_pid_n) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float64)
    for k in range(0, K, BLOCK_SIZE_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc, out_dtype=tl.float64)
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def bmm3d(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
          K: tl.constexpr):
    # A 3-D tl.dot: B small matmuls in one program.
    pid = tl.program_id(0)
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + pid * B * M * K + rb * M * K + rm * K + rk[None, None, :])
    b = tl.load(b_ptr + pid * B * K * N + rb * K * N + rk[None, :, None] * N + rn)
    tl.store(c_ptr + pid * B * M * N + rb * M * N + rm * N + rn, tl.dot(a, b))


@triton.jit
def bmm3d_loop(a_ptr, b_ptr, c_ptr, K, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
               BK: tl.constexpr):
    # A 3-D tl.dot accumulated over K: B matmuls [M, K] x [K, N] a program.
    pid = tl.program_id(0)
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + (pid * B + rb) * M * K + rm * K + rk[None, None, :]
    b_ptrs = b_ptr + (pid * B + rb) * K * N + rk[None, :, None] * N + rn
    acc = tl.zeros((B, M, N), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + (pid * B + rb) * M * N + rm * N + rn, acc)



@triton.jit
def w4a16_matmul(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K,
                 stride_am, stride_ak, stride_bk, stride_bn, stride_sg, stride_sn,
                 stride_cm, stride_cn, GROUP: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + (offs_k[:, None] // 2) * stride_bk + offs_n[None, :] * stride_bn
    shifts = (offs_k % 2) * 4
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        packed = tl.load(b_ptrs)
        scale = tl.load(s_ptr + ((k * BLOCK_K) // GROUP) * stride_sg + offs_n * stride_sn)
        q = (packed >> shifts[:, None]) & 0xF
        b = (q.to(tl.float16) - 8.0) * scale[None, :]
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += (BLOCK_K // 2) * stride_bk
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c)


@triton.jit
def skinny_mm(a_ptr, w_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              BLOCK_K: tl.constexpr):
    # A decode-step GEMM: a few rows of activations times a large weight.
    pid_n = tl.program_id(0)
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * K + (k0 + offs_k)[None, :], mask=offs_m[:, None] < M, other=0.0)
        w = tl.load(w_ptr + (k0 + offs_k)[:, None] * N + offs_n[None, :])
        acc += tl.dot(a, w)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16), mask=offs_m[:, None] < M)


@triton.jit
def bmm(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_bb, stride_cb,
        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Batched matmul, the batch on the grid's third axis.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bid = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + bid * stride_ab + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + bid * stride_bb + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c_ptr + bid * stride_cb + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16))


@triton.jit
def decode_attn(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, L, sm_scale, CHUNK: tl.constexpr,
                D: tl.constexpr, BLOCK_L: tl.constexpr):
    # Flash decoding: one query per head, the keys split into chunks; each
    # program writes its chunk's partial output and log-sum-exp.
    head = tl.program_id(0)
    chunk = tl.program_id(1)
    nchunks = tl.num_programs(1)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + head * D + offs_d).to(tl.float32) * sm_scale
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros((D,), dtype=tl.float32)
    base = head * L * D
    for start in range(chunk * CHUNK, (chunk + 1) * CHUNK, BLOCK_L):
        offs_l = start + tl.arange(0, BLOCK_L)
        kv = base + offs_l[:, None] * D + offs_d[None, :]
        k = tl.load(k_ptr + kv).to(tl.float32)
        s = tl.sum(q[None, :] * k, axis=1)
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        v = tl.load(v_ptr + kv).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        m_i = m_new
    out = head * nchunks + chunk
    tl.store(o_ptr + out * D + offs_d, acc / l_i)
    tl.store(lse_ptr + out, m_i + tl.log(l_i))


@triton.jit
def swiglu(x_ptr, o_ptr, n_rows, N, BLOCK: tl.constexpr):
    # SwiGLU on a row of [gate | up]: silu(gate) * up.
    row = tl.program_id(0)
    col = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = col < N
    g = tl.load(x_ptr + row * 2 * N + col, mask=m).to(tl.float32)
    u = tl.load(x_ptr + row * 2 * N + N + col, mask=m).to(tl.float32)
    y = g * tl.sigmoid(g) * u
    tl.store(o_ptr + row * N + col, y.to(tl.float16), mask=m)



@triton.jit
def mm_ieee(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
            BLOCK_K: tl.constexpr):
    # fp32 matmul at full precision (no TF32): FMA, not tensor cores.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc, input_precision="ieee")
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def conv2d_nhwc(x_ptr, w_ptr, y_ptr, NB, H, W, C, KOUT, P, Q,
                R: tl.constexpr, S: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    # Implicit-GEMM convolution, stride 1, padding 1: rows are output
    # pixels (n, p, q), columns output channels, the reduction runs over
    # (r, s, c).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n = offs_m // (P * Q)
    pq = offs_m % (P * Q)
    p = pq // Q
    q = pq % Q
    offs_c = tl.arange(0, BLOCK_C)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for rs in range(0, R * S):
        r = rs // S
        s = rs % S
        h = p + r - 1
        w = q + s - 1
        ok = (offs_m < NB * P * Q) & (h >= 0) & (h < H) & (w >= 0) & (w < W)
        x_base = ((n * H + h) * W + w) * C
        for c0 in range(0, C, BLOCK_C):
            a = tl.load(x_ptr + x_base[:, None] + (c0 + offs_c)[None, :], mask=ok[:, None], other=0.0)
            b = tl.load(w_ptr + (rs * C + c0 + offs_c)[:, None] * KOUT + offs_n[None, :])
            acc = tl.dot(a, b, acc)
    y = y_ptr + offs_m[:, None] * KOUT + offs_n[None, :]
    tl.store(y, acc.to(tl.float16), mask=(offs_m < NB * P * Q)[:, None])


@triton.jit
def index_add_rows(src_ptr, idx_ptr, out_ptr, D, BLOCK_D: tl.constexpr, ROWS: tl.constexpr):
    # out[idx[i], :] += src[i, :] (an embedding's gradient), with atomics.
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_D)
    dst = tl.load(idx_ptr + rows)
    v = tl.load(src_ptr + rows[:, None] * D + cols[None, :])
    tl.atomic_add(out_ptr + dst[:, None] * D + cols[None, :], v, sem="relaxed")


@triton.jit
def group_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps,
                   CPG: tl.constexpr, BLOCK_HW: tl.constexpr):
    # Group norm over (channels of a group) x (pixels), NCHW, one program
    # per (sample, group), two passes over the group's data.
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    base = n * C * HW + g * CPG * HW
    cs = tl.arange(0, CPG)
    s = tl.zeros((CPG, BLOCK_HW), dtype=tl.float32)
    ss = tl.zeros((CPG, BLOCK_HW), dtype=tl.float32)
    for i in range(0, HW, BLOCK_HW):
        hw = i + tl.arange(0, BLOCK_HW)
        x = tl.load(x_ptr + base + cs[:, None] * HW + hw[None, :], mask=hw[None, :] < HW, other=0.0).to(tl.float32)
        s += x
        ss += x * x
    cnt = CPG * HW
    mean = tl.sum(tl.sum(s, axis=1), axis=0) / cnt
    var = tl.sum(tl.sum(ss, axis=1), axis=0) / cnt - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    wv = tl.load(w_ptr + g * CPG + cs).to(tl.float32)
    bv = tl.load(b_ptr + g * CPG + cs).to(tl.float32)
    for i in range(0, HW, BLOCK_HW):
        hw = i + tl.arange(0, BLOCK_HW)
        m = hw[None, :] < HW
        x = tl.load(x_ptr + base + cs[:, None] * HW + hw[None, :], mask=m, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * wv[:, None] + bv[:, None]
        tl.store(y_ptr + base + cs[:, None] * HW + hw[None, :], y.to(tl.float16), mask=m)


@triton.jit
def _welford(m1, v1, c1, m2, v2, c2):
    c = c1 + c2
    d = m2 - m1
    frac = tl.where(c == 0, 0.0, c2 / tl.where(c == 0, 1.0, c))
    return m1 + d * frac, v1 + v2 + d * d * c1 * frac, c


@triton.jit
def welford_var(x_ptr, mean_ptr, var_ptr, N, BLOCK: tl.constexpr):
    # Row mean and variance in one pass, with a three-value combine.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0).to(tl.float32)
    cnt = tl.where(cols < N, 1.0, 0.0)
    m, m2, c = tl.reduce((x, tl.zeros_like(x), cnt), 0, _welford)
    tl.store(mean_ptr + row, m)
    tl.store(var_ptr + row, m2 / c)


def cases():
    """(name, kernel, grid, args, launch options, outputs, work, unit[,
    "zero"]): args is a tuple, or a function of the side ("T" for Triton,
    "t" for tritium) where each side needs its own objects (host tensor
    descriptors); work is bytes ("B", reported in GB/s) or flops ("F", in
    TFLOP/s); "zero" clears the first output before every launch (atomics
    accumulate into it)."""
    g = torch.Generator(device=dev).manual_seed(0)
    out = []

    def rn(*s, dt=torch.float32):
        return torch.randn(s, device=dev, generator=g).to(dt)

    n = 1 << 28
    x, y = rn(n), rn(n)
    o = torch.empty_like(x)
    out.append(("vadd fp32 2^28", vadd, (triton.cdiv(n, 1024),), (x, y, o, n), dict(BLOCK=1024), [o],
                3 * n * 4, "B"))
    M, N = 8192, 4096
    x = rn(M, N, dt=torch.float16); w = rn(N, dt=torch.float16); yy = torch.empty_like(x)
    out.append(("rmsnorm fp16 8192x4096", rmsnorm, (M,), (x, w, yy, N, N, 1e-6), dict(BLOCK=4096, num_warps=8), [yy],
                2 * M * N * 2, "B"))
    M, N = 8192, 8192
    x = rn(M, N); o = torch.empty(N, device=dev)
    out.append(("colsum fp32 8192^2", colsum, (N // 64,), (x, o, M, N, N), dict(BLOCK_M=64, BLOCK_N=64), [o],
                M * N * 4, "B"))
    x = rn(M, N, dt=torch.float16); yt = torch.empty_like(x)
    out.append(("transpose fp16 8192^2", transpose, (M // 64, N // 64), (x, yt, M, N), dict(BLOCK=64), [yt],
                2 * M * N * 2, "B"))
    M, N, K = 1024, 1024, 32768
    a = rn(M, K, dt=torch.float16); b = rn(K, N, dt=torch.float16); c = torch.zeros(M, N, device=dev)
    out.append(("split-K fp16 1024x1024x32768 atomics", splitk, ((M // 128) * (N // 128), 8),
                (a, b, c, M, N, K, K, N, N), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SPLIT_K=8, num_warps=8, num_stages=3),
                [c], 2 * M * N * K, "F", "zero"))
    M = N = K = 4096
    a = torch.randint(-8, 8, (M, K), device=dev, dtype=torch.int8, generator=g)
    b = torch.randint(-8, 8, (N, K), device=dev, dtype=torch.int8, generator=g)
    c = torch.empty(M, N, device=dev, dtype=torch.int32)
    out.append(("int8 matmul 4096^3", mm_i8, ((M // 128) * (N // 256),), (a, b, c, M, N, K, K, K, N),
                dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=128, num_warps=8, num_stages=3), [c], 2 * M * N * K, "F"))
    M = K = 16384
    a = rn(M, K, dt=torch.float16); xv = rn(K, dt=torch.float16); yv = torch.empty(M, device=dev)
    out.append(("gemv fp16 16384^2", gemv, (M // 64,), (a, xv, yv, M, K, K), dict(BLOCK_M=64, BLOCK_K=256, num_warps=4),
                [yv], M * K * 2, "B"))
    V, D, T = 50000, 1024, 32768
    table = rn(V, D, dt=torch.float16)
    idx = torch.randint(0, V, (T,), device=dev, generator=g)
    eo = torch.empty(T, D, device=dev, dtype=torch.float16)
    out.append(("embedding gather fp16 32768x1024", embed, (T // 16,), (idx, table, eo, D), dict(ROWS=16, BLOCK_D=1024),
                [eo], 2 * T * D * 2, "B"))
    T, H, D, S = 16384, 32, 128, 4096
    xr = rn(T, H, D, dt=torch.float16); cs = rn(S, D // 2); sn = rn(S, D // 2); ro = torch.empty_like(xr)
    out.append(("rope fp16 16384x32x128", rope, (T,), (xr, cs, sn, ro, S, H), dict(D=128, BLOCK_H=32, num_warps=4),
                [ro], 2 * T * H * D * 2, "B"))
    R, V = 4096, 32000
    lg = rn(R, V); lab = torch.randint(0, V, (R,), device=dev, generator=g); loss = torch.empty(R, device=dev)
    out.append(("cross entropy fp32 4096x32000", xent, (R,), (lg, lab, loss, V, V), dict(BLOCK=4096, num_warps=8),
                [loss], R * V * 4, "B"))
    M, N = 16384, 4096
    xa = rn(M, N); am = torch.empty(M, device=dev, dtype=torch.int32)
    out.append(("argmax fp32 16384x4096", argmax_rows, (M,), (xa, am, N, N), dict(BLOCK=4096, num_warps=8), [am],
                M * N * 4, "B"))
    M, N = 8192, 8192
    dy = rn(M, N, dt=torch.float16); ys = torch.softmax(rn(M, N), -1).half(); dx = torch.empty_like(dy)
    out.append(("softmax bwd fp16 8192^2", softmax_bwd, (M,), (dy, ys, dx, N, N), dict(BLOCK=8192, num_warps=16), [dx],
                3 * M * N * 2, "B"))
    # 09's matmuls through tensor descriptors (host ones per side: each
    # package's own TensorDescriptor), 8192^3 fp16, B K-major.
    S = 8192
    a = rn(S, S, dt=torch.float16); bT = rn(S, S, dt=torch.float16)
    c = torch.empty(S, S, device=dev, dtype=torch.float16)
    nsm = torch.cuda.get_device_properties(0).multi_processor_count
    BM, BN, BK = 128, 256, 64

    def descs(side, sub):
        TD = _triton_td() if side == "T" else _tritium_td()
        return (TD.from_tensor(a, [BM, BK]), TD.from_tensor(bT, [BN, BK]),
                TD.from_tensor(c, [BM, BN // 2 if sub else BN]))
    for ws in (False, True):
        out.append(("09 tma fp16 8192^3%s" % (" ws" if ws else ""), mm_tma, ((S // BM) * (S // BN),),
                    (lambda side: descs(side, False) + (S, S, S)),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         WARP_SPECIALIZE=ws, num_warps=8, num_stages=3), [c], 2 * S ** 3, "F"))
    for sub, ws in ((True, False), (False, False), (True, True)):
        out.append(("09 tma persistent fp16 8192^3%s%s" % (" subtile" if sub else "", " ws" if ws else ""),
                    mm_tma_persistent, (min(nsm, (S // BM) * (S // BN)),),
                    (lambda side, sub=sub: descs(side, sub) + (S, S, S)),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         EPILOGUE_SUBTILE=sub, NUM_SMS=nsm, WARP_SPECIALIZE=ws, num_warps=8, num_stages=3),
                    [c], 2 * S ** 3, "F"))
    for sub, ws, fl in ((True, False, True), (False, True, False)):
        out.append(("09 desc persistent fp16 8192^3%s%s%s" % (" subtile" if sub else "", " ws" if ws else "",
                                                            " flatten" if fl else ""),
                    mm_desc_persistent, (min(nsm, (S // BM) * (S // BN)),), (a, bT, c, S, S, S),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         EPILOGUE_SUBTILE=sub, NUM_SMS=nsm, WARP_SPECIALIZE=ws, FLATTEN=fl,
                         num_warps=8, num_stages=3), [c], 2 * S ** 3, "F"))
    M = N = K = 4096
    a = rn(M, K, dt=torch.float16); b = rn(K, N, dt=torch.float16).T.contiguous().T
    c2 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("03 matmul leaky_relu fp16 4096^3", mm_act, ((M // 128) * (N // 256),),
                (a, b, c2, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c2.stride(0), c2.stride(1)),
                dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION="leaky_relu",
                     num_warps=8, num_stages=3), [c2], 2 * M * N * K, "F"))
    G, N = 256, 8192
    dwp = rn(G, N); dbp = rn(G, N); fdw = torch.empty(N, device=dev); fdb = torch.empty(N, device=dev)
    out.append(("05 layer norm bwd dW/dB 256x8192", ln_bwd_dwdb, (N // 128,), (dwp, dbp, fdw, fdb, G, N),
                dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128), [fdw, fdb], 2 * G * N * 4, "B"))
    n = 1 << 26
    xs = torch.rand(n, device=dev, generator=g) * 2 - 1; ya = torch.empty_like(xs)
    out.append(("07 libdevice asin fp32 2^26", asin_kernel, (n // 1024,), (xs, ya, n), dict(BLOCK_SIZE=1024),
                [ya], 2 * n * 4, "B"))
    R, N = 4096, 32768
    xl = rn(R, N, dt=torch.float16); yl = torch.empty_like(xl)
    out.append(("softmax fp16 4096x32768 (3 passes)", softmax_long, (R,), (xl, yl, N, N),
                dict(BLOCK=4096, num_warps=8), [yl], 4 * R * N * 2, "B"))
    R, N = 16384, 4096
    xq = rn(R, N, dt=torch.float16); qq = torch.empty(R, N, device=dev, dtype=torch.int8)
    sq = torch.empty(R, device=dev)
    out.append(("int8 row quantization 16384x4096", quant_rows, (R,), (xq, qq, sq, N),
                dict(BLOCK=4096, num_warps=8), [qq, sq], R * N * 3, "B"))
    R, N = 16384, 1024
    xsr = rn(R, N); ysr = torch.empty_like(xsr)
    out.append(("tl.sort rows fp32 16384x1024", sort_rows, (R,), (xsr, ysr), dict(N=1024, num_warps=4),
                [ysr], 2 * R * N * 4, "B"))
    R, L = 16384, 1024
    asc = torch.rand(R, L, device=dev, generator=g); bsc = rn(R, L); hsc = torch.empty_like(bsc)
    out.append(("associative_scan recurrence 16384x1024", linear_scan, (R,), (asc, bsc, hsc), dict(L=1024),
                [hsc], 3 * R * L * 4, "B"))
    M = N = K = 4096
    a = rn(M, K, dt=torch.float16); bK = rn(N, K, dt=torch.float16); bias = rn(N, dt=torch.float16)
    c3 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("matmul bias+gelu(erf) fp16 4096^3", mm_gelu, ((M // 128) * (N // 256),),
                (a, bK, bias, c3, M, N, K), dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                                                num_warps=8, num_stages=3), [c3], 2 * M * N * K, "F"))
    M = N = K = 4096
    a64 = rn(M, K, dt=torch.float64); b64 = rn(K, N, dt=torch.float64)
    c64 = torch.empty(M, N, device=dev, dtype=torch.float64)
    out.append(("matmul fp64 4096^3", mm_f64, ((M // 64) * (N // 64),), (a64, b64, c64, M, N, K),
                dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, num_warps=4,
                     num_stages=3), [c64], 2 * M * N * K, "F"))
    P, Bt = 4096, 4
    a3 = rn(P * Bt, 64, 64, dt=torch.float16); b3 = rn(P * Bt, 64, 64, dt=torch.float16)
    c3d = torch.empty(P * Bt, 64, 64, device=dev)
    out.append(("3-D tl.dot fp16 4096 programs x 4 x 64^3", bmm3d, (P,), (a3, b3, c3d),
                dict(B=Bt, M=64, N=64, K=64, num_warps=4), [c3d], 2 * P * Bt * 64 ** 3, "F"))
    P, Bt, Kl = 512, 4, 1024
    a3l = rn(P * Bt, 64, Kl, dt=torch.float16); b3l = rn(P * Bt, Kl, 64, dt=torch.float16)
    c3l = torch.empty(P * Bt, 64, 64, device=dev)
    out.append(("3-D tl.dot in a K loop fp16 512 programs x 4 x 64x64x1024", bmm3d_loop, (P,),
                (a3l, b3l, c3l, Kl), dict(B=Bt, M=64, N=64, BK=32, num_warps=4, num_stages=3),
                [c3l], 2 * P * Bt * 64 * 64 * Kl, "F"))
    M = N = K = 4096
    aq = rn(M, K, dt=torch.float16)
    bq = torch.randint(-128, 128, (K // 2, N), device=dev, dtype=torch.int8, generator=g)
    sq = (0.01 * rn(K // 128, N)).to(torch.float16)
    cq = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("w4a16 matmul (int4 dequant in the loop) 4096^3", w4a16_matmul, (M // 128, N // 128),
                (aq, bq, sq, cq, M, N, K, K, 1, N, 1, N, 1, N, 1),
                dict(GROUP=128, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3),
                [cq], 2 * M * N * K, "F"))
    M, N, K = 16, 8192, 8192
    a16 = rn(M, K, dt=torch.float16); w = rn(K, N, dt=torch.float16)
    cs16 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("decode GEMM fp16 16x8192x8192", skinny_mm, (N // 64,), (a16, w, cs16, M, N, K),
                dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=128, num_warps=4, num_stages=4), [cs16],
                N * K * 2, "B"))
    Bb, M = 64, 1024
    ab = rn(Bb, M, M, dt=torch.float16); bb = rn(Bb, M, M, dt=torch.float16)
    cb = torch.empty(Bb, M, M, device=dev, dtype=torch.float16)
    out.append(("bmm fp16 64 x 1024^3 (batch on grid axis 2)", bmm, (M // 128, M // 128, Bb),
                (ab, bb, cb, M, M, M, M * M, M * M, M * M),
                dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3), [cb],
                2 * Bb * M ** 3, "F"))
    Hh, L, D, CH = 256, 8192, 128, 1024
    qd = rn(Hh, D, dt=torch.float16); kd = rn(Hh, L, D, dt=torch.float16); vd = rn(Hh, L, D, dt=torch.float16)
    od = torch.empty(Hh * (L // CH), D, device=dev); ld = torch.empty(Hh * (L // CH), device=dev)
    out.append(("decode attention split-KV fp16 256 heads x 8192 x 128", decode_attn, (Hh, L // CH),
                (qd, kd, vd, od, ld, L, D ** -0.5), dict(CHUNK=CH, D=D, BLOCK_L=64, num_warps=4, num_stages=2),
                [od, ld], 2 * Hh * L * D * 2, "B"))
    R, N = 16384, 8192
    xs = rn(R, 2 * N, dt=torch.float16); ys = torch.empty(R, N, device=dev, dtype=torch.float16)
    out.append(("swiglu fp16 16384x8192", swiglu, (R, N // 1024), (xs, ys, R, N), dict(BLOCK=1024),
                [ys], 3 * R * N * 2, "B"))
    M = N = K = 2048
    af = rn(M, K); bf = rn(K, N); cf = torch.empty(M, N, device=dev)
    out.append(("matmul fp32 ieee (FMA) 2048^3", mm_ieee, (M // 64, N // 64), (af, bf, cf, M, N, K),
                dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=16, num_warps=4, num_stages=3), [cf],
                2 * M * N * K, "F"))
    NB, H, W, C, KO = 32, 56, 56, 128, 128
    xc = rn(NB, H, W, C, dt=torch.float16); wc = rn(9 * C, KO, dt=torch.float16)
    yc = torch.empty(NB * H * W, KO, device=dev, dtype=torch.float16)
    out.append(("conv2d 3x3 implicit GEMM fp16 NHWC 32x56x56x128", conv2d_nhwc,
                (triton.cdiv(NB * H * W, 128), KO // 128), (xc, wc, yc, NB, H, W, C, KO, H, W),
                dict(R=3, S=3, BLOCK_M=128, BLOCK_N=128, BLOCK_C=64, num_warps=8, num_stages=3), [yc],
                2 * NB * H * W * KO * 9 * C, "F"))
    T, D, V = 32768, 256, 4096
    src = rn(T, D); idx64 = torch.randint(0, V, (T,), device=dev, generator=g)
    acc_out = torch.zeros(V, D, device=dev)
    out.append(("index_add rows fp32 atomics 32768x256 into 4096", index_add_rows, (T // 16,),
                (src, idx64, acc_out, D), dict(BLOCK_D=256, ROWS=16), [acc_out], 3 * T * D * 4, "B", "zero"))
    NB, C, HW, G = 32, 256, 4096, 16
    xg = rn(NB, C, HW, dt=torch.float16); yg = torch.empty_like(xg)
    wg = rn(C, dt=torch.float16); bg = rn(C, dt=torch.float16)
    out.append(("group norm fwd fp16 32x256x64x64 G16", group_norm_fwd, (NB * G,),
                (xg, yg, wg, bg, C, HW, G, 1e-5), dict(CPG=C // G, BLOCK_HW=256), [yg],
                3 * NB * C * HW * 2, "B"))
    R, N = 16384, 4096
    xw = rn(R, N); mw = torch.empty(R, device=dev); vw = torch.empty(R, device=dev)
    out.append(("welford mean/var (3-value tl.reduce) fp32 16384x4096", welford_var, (R,), (xw, mw, vw, N),
                dict(BLOCK=4096, num_warps=8), [mw, vw], R * N * 4, "B"))
    return out


def _triton_td():
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def _tritium_td():
    from tritium.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[],
                    help="run rows whose name contains SUBSTR (repeatable)")
    ap.add_argument("--rounds", type=int, default=3)
    args_ = ap.parse_args(argv)
    try:
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=dev))
    except Exception as e:  # noqa: BLE001 - older Triton: device descriptors fail there
        print("no set_allocator:", e)
    rows = []
    for case in cases():
        name, fn, grid, args, kw, outs, work, unit = case[:8]
        if args_.only and not any(s in name for s in args_.only):
            continue
        zero = len(case) > 8
        tk = tritium.jit(fn.fn)
        res, times = {}, {}
        argsOf = {side: (args(side) if callable(args) else args) for side in ("T", "t")}
        try:
            for side, k in (("T", fn), ("t", tk)):
                for o in outs:
                    o.zero_()
                k[grid](*argsOf[side], **kw)
                torch.cuda.synchronize()
                res[side] = [o.clone() for o in outs]
                times[side] = []
            for r in range(args_.rounds):
                order = (("T", fn), ("t", tk))
                for side, k in (order if r % 2 == 0 else order[::-1]):
                    def run(k=k, a=argsOf[side]):
                        if zero:
                            outs[0].zero_()
                        k[grid](*a, **kw)
                    times[side].append(triton.testing.do_bench(run, warmup=25, rep=100))
            diff = max((a.double() - b.double()).abs().max().item()
                       for a, b in zip(res["T"], res["t"]))
            tT, tt = statistics.median(times["T"]), statistics.median(times["t"])
            perf = (lambda ms: work / ms / 1e6) if unit == "B" else (lambda ms: work / ms / 1e9)
            u = "GB/s" if unit == "B" else "TFLOP/s"
            rows.append((name, perf(tT), perf(tt), u, tT / tt, diff))
            print("%-44s Triton %.4f ms  tritium %.4f ms  ratio %.3f  max diff %.3g"
                  % (name, tT, tt, tT / tt, diff), flush=True)
        except Exception as e:  # noqa: BLE001 - the row reports it
            msg = str(e).splitlines()[0][:300] if str(e) else repr(e)
            print("%-44s ERROR %s" % (name, msg), flush=True)
            rows.append((name, 0.0, 0.0, "-", 0.0, float("nan")))
    print("\n| kernel | Triton | tritium | unit | tritium/Triton | max diff |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.1f | %.1f | %s | %.3f | %.3g |" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())

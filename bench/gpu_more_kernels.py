"""The kernels bench/gpu_more.py times, each in the style users write it
(the script says which row each is and how it is launched)."""

import triton
import triton.language as tl


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

# Attention forward over tensor descriptors made in the kernel, as Triton's
# fused-attention tutorial writes it: Q loaded once, K either stored
# transposed ([HEAD_DIM, BLOCK_N] blocks) or put through tl.trans, V as is.
import triton
import triton.language as tl


@triton.jit
def attn(q_ptr, k_ptr, v_ptr, o_ptr, H, N_CTX, sm_scale,
         D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, K_T: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    rows = H * N_CTX * 4
    dq = tl.make_tensor_descriptor(q_ptr, [rows, D], [D, 1], [BM, D])
    if K_T:
        dk = tl.make_tensor_descriptor(k_ptr, [H * 4 * D, N_CTX], [N_CTX, 1], [D, BN])
    else:
        dk = tl.make_tensor_descriptor(k_ptr, [rows, D], [D, 1], [BN, D])
    dv = tl.make_tensor_descriptor(v_ptr, [rows, D], [D, 1], [BN, D])
    off_y = off_hz * N_CTX
    q = dq.load([off_y + start_m * BM, 0])
    m_i = tl.zeros([BM], tl.float32) - float("inf")
    l_i = tl.zeros([BM], tl.float32) + 1.0
    acc = tl.zeros([BM, D], tl.float32)
    for start_n in tl.range(0, N_CTX, BN):
        start_n = tl.multiple_of(start_n, BN)
        if K_T:
            kT = dk.load([off_hz * D, start_n])
        else:
            kT = tl.trans(dk.load([off_y + start_n, 0]))
        qk = tl.dot(q, kT)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * sm_scale)
        p = tl.math.exp2(qk * sm_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), dv.load([off_y + start_n, 0]), acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    tl.store(o_ptr + (off_y + offs_m)[:, None] * D + offs_d[None, :], acc.to(tl.float16))

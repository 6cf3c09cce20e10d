"""FlashAttention-2 style fused attention forward pass.

Each program computes BLOCK_M rows of the output for one (batch, head) pair.
It streams over blocks of K and V, keeping a running row maximum (m_i), a
running softmax denominator (l_i) and an unnormalized output accumulator, so
the full N_CTX x N_CTX attention matrix is never materialized. Exponentials
are computed in base 2, with log2(e) folded into the softmax scale.
"""

import argparse

import torch

import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q,
                    K_ptrs, V_ptrs, stride_kn, stride_vn,
                    start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                    STAGE: tl.constexpr, offs_m, offs_n, N_CTX):
    # Range of key positions handled by this stage:
    #   STAGE 1: blocks strictly left of the diagonal (causal, no mask needed)
    #   STAGE 2: the diagonal block (causal, masked)
    #   STAGE 3: every block (non-causal)
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    K_ptrs += lo * stride_kn
    V_ptrs += lo * stride_vn
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- qk = q @ k^T --
        k = tl.load(K_ptrs)
        qk = tl.dot(q, tl.trans(k))
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale
            qk = tl.where(mask, qk, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        # -- rescale the running statistics and accumulator --
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        # -- acc += p @ v --
        v = tl.load(V_ptrs)
        p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        m_i = m_ij
        K_ptrs += BLOCK_N * stride_kn
        V_ptrs += BLOCK_N * stride_vn
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, Out,
              stride_qz, stride_qh, stride_qm, stride_qk,
              stride_kz, stride_kh, stride_kn, stride_kk,
              stride_vz, stride_vh, stride_vn, stride_vk,
              stride_oz, stride_oh, stride_om, stride_on,
              Z, H, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_offset = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_offset = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_offset = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    Q_ptrs = Q + q_offset + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    K_ptrs = K + k_offset + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kk
    V_ptrs = V + v_offset + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vk
    O_ptrs = Out + o_offset + offs_m[:, None] * stride_om + offs_d[None, :] * stride_on

    # Running softmax statistics and output accumulator.
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2)
    q = tl.load(Q_ptrs)

    if CAUSAL:
        # Unmasked blocks left of the diagonal, then the masked diagonal block.
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_kn, stride_vn,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        1, offs_m, offs_n, N_CTX)
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_kn, stride_vn,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        2, offs_m, offs_n, N_CTX)
    else:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_kn, stride_vn,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        3, offs_m, offs_n, N_CTX)

    acc = acc / l_i[:, None]
    tl.store(O_ptrs, acc.to(tl.float16))


def attention(q, k, v, causal, sm_scale):
    Z, H, N_CTX, HEAD_DIM = q.shape
    assert k.shape == q.shape and v.shape == q.shape
    assert HEAD_DIM in {16, 32, 64, 128}
    BLOCK_M, BLOCK_N = 128, 64
    assert N_CTX % BLOCK_M == 0, "sequence length must be a multiple of BLOCK_M"
    num_warps = 4 if HEAD_DIM <= 64 else 8
    o = torch.empty_like(q)
    grid = (triton.cdiv(N_CTX, BLOCK_M), Z * H, 1)
    _attn_fwd[grid](
        q, k, v, sm_scale, o,
        q.stride(0), q.stride(1), q.stride(2), q.stride(3),
        k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3),
        o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        Z, H, N_CTX,
        HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CAUSAL=causal,
        num_warps=num_warps, num_stages=3,
    )
    return o


def attention_ref(q, k, v, causal, sm_scale):
    N_CTX = q.shape[2]
    p = torch.matmul(q, k.transpose(2, 3)).float() * sm_scale
    if causal:
        mask = torch.tril(torch.ones((N_CTX, N_CTX), device=q.device, dtype=torch.bool))
        p = p.masked_fill(~mask, float("-inf"))
    p = torch.softmax(p, dim=-1).to(q.dtype)
    return torch.matmul(p, v)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--n-ctx", type=int, default=1024)
    parser.add_argument("--head-dim", type=int, default=64)
    args = parser.parse_args()

    torch.manual_seed(0)
    shape = (args.batch, args.heads, args.n_ctx, args.head_dim)
    q = torch.randn(shape, dtype=torch.float16, device="cuda").normal_(mean=0.0, std=0.5)
    k = torch.randn(shape, dtype=torch.float16, device="cuda").normal_(mean=0.0, std=0.5)
    v = torch.randn(shape, dtype=torch.float16, device="cuda").normal_(mean=0.0, std=0.5)
    sm_scale = args.head_dim ** -0.5
    err = 0.0
    for causal in (False, True):
        out = attention(q, k, v, causal, sm_scale)
        ref = attention_ref(q, k, v, causal, sm_scale)
        torch.testing.assert_close(out, ref, atol=1e-2, rtol=0)
        err = max(err, (out - ref).abs().max().item())
    print(f"attention: max abs error {err}")

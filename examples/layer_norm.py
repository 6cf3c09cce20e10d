"""Fused layer normalization, forward and backward.

Forward: one program per row computes mean and reciprocal standard deviation
and writes the normalized, scaled and shifted row.
Backward: one program per row computes dX and accumulates its contribution to
dW/dB into one of GROUP_SIZE_M partial buffers (guarded by a spin lock); a
second kernel reduces the partial buffers into the final dW/dB.
"""

import torch

import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    # Mean.
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
    # Normalize and apply the affine transform.
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
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Rows are spread over GROUP_SIZE_M partial dW/dB buffers, one lock each.
    # Lock[0:GROUP_SIZE_M] are the locks, Lock[GROUP_SIZE_M:] the "written" flags.
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
    # dX.
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    # Partial dW/dB for this row, accumulated into the group buffer.
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        # First writer for this buffer: just store.
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
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
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def layer_norm_fwd(x, weight, bias, eps):
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    y = torch.empty_like(x_arg)
    mean = torch.empty((M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    _layer_norm_fwd_fused[(M,)](x_arg, y, weight, bias, mean, rstd, x_arg.stride(0), N, eps,
                                BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y.reshape(x.shape), mean, rstd, BLOCK_SIZE, num_warps


def layer_norm_bwd(dy, x, weight, mean, rstd, BLOCK_SIZE, num_warps):
    x_arg = x.reshape(-1, x.shape[-1])
    dy = dy.reshape(-1, dy.shape[-1]).contiguous()
    M, N = x_arg.shape
    assert N <= BLOCK_SIZE, "backward kernel handles a row in a single block"
    GROUP_SIZE_M = 64
    if N <= 8192: GROUP_SIZE_M = 96
    if N <= 4096: GROUP_SIZE_M = 128
    if N <= 1024: GROUP_SIZE_M = 256
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=x.device)
    _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=x.device)
    _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=x.device)
    dw = torch.empty((N,), dtype=weight.dtype, device=weight.device)
    db = torch.empty((N,), dtype=weight.dtype, device=weight.device)
    dx = torch.empty_like(dy)
    _layer_norm_bwd_dx_fused[(M,)](dx, dy, _dw, _db, x_arg, weight, mean, rstd, locks,
                                   x_arg.stride(0), N,
                                   GROUP_SIZE_M=GROUP_SIZE_M, BLOCK_SIZE_N=BLOCK_SIZE,
                                   num_warps=num_warps)
    grid = lambda meta: (triton.cdiv(N, meta['BLOCK_SIZE_N']),)
    _layer_norm_bwd_dwdb[grid](_dw, _db, dw, db, min(GROUP_SIZE_M, M), N,
                               BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
    return dx.reshape(x.shape), dw, db


if __name__ == "__main__":
    torch.manual_seed(0)
    M, N, dtype, eps = 1151, 1024, torch.float16, 1e-5
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=dtype, device="cuda")
    weight = torch.rand((N,), dtype=dtype, device="cuda", requires_grad=True)
    bias = torch.rand((N,), dtype=dtype, device="cuda", requires_grad=True)
    dy = 0.1 * torch.randn_like(x)
    x.requires_grad_(True)

    y_tri, mean, rstd, BLOCK_SIZE, num_warps = layer_norm_fwd(x.detach(), weight.detach(),
                                                             bias.detach(), eps)
    dx_tri, dw_tri, db_tri = layer_norm_bwd(dy, x.detach(), weight.detach(), mean, rstd,
                                            BLOCK_SIZE, num_warps)

    y_ref = torch.nn.functional.layer_norm(x, (N,), weight, bias, eps)
    y_ref.backward(dy)
    dx_ref, dw_ref, db_ref = x.grad, weight.grad, bias.grad

    torch.testing.assert_close(y_tri, y_ref.detach(), atol=1e-2, rtol=0)
    torch.testing.assert_close(dx_tri, dx_ref, atol=1e-2, rtol=0)
    # dW/dB are sums over all rows in fp16, so allow a relative error too.
    torch.testing.assert_close(dw_tri, dw_ref, atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(db_tri, db_ref, atol=1e-2, rtol=1e-2)
    err = max((a - b).abs().max().item() for a, b in
              [(y_tri, y_ref), (dx_tri, dx_ref), (dw_tri, dw_ref), (db_tri, db_ref)])
    print(f"layer_norm: max abs error {err}")

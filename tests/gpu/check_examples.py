"""Every example on the GPU and on the interpreter with the same inputs,
each compared with a float64 reference and with the other.

Run with the compatibility package on the path (``import triton`` is
tritium) on a machine with an NVIDIA GPU and torch:
    PYTHONPATH=python:python/compat:examples python tests/gpu/check_examples.py
Prints one line per case and exits non-zero when any comparison fails.
"""

import math
import sys
import time

import torch
import triton

import attention
import dropout
import layer_norm
import matmul
import softmax
import vector_add


def rel(out, ref):
    out, ref = out.detach().double().cpu(), ref.detach().double().cpu()
    if out.shape != ref.shape:
        return math.inf
    if torch.isnan(out).any() and not torch.equal(torch.isnan(out), torch.isnan(ref)):
        return math.inf
    den = ref.norm().item()
    return (out - ref).norm().item() / (den if den else 1.0)


def run_both(fn, *inputs):
    """fn on CUDA copies of `inputs` and on CPU copies: (gpu, cpu, seconds)."""
    gpu_in = [t.cuda() if isinstance(t, torch.Tensor) else t for t in inputs]
    t0 = time.perf_counter()
    gpu = fn(*gpu_in)
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    cpu = fn(*[t.cpu() if isinstance(t, torch.Tensor) else t for t in inputs])
    t2 = time.perf_counter()
    return gpu, cpu, (t1 - t0, t2 - t1)


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


RESULTS = []


def check(name, fn, inputs, ref, tol, cross_tol=None):
    gpu, cpu, (tg, tc) = run_both(fn, *inputs)
    gpu, cpu, ref = as_tuple(gpu), as_tuple(cpu), as_tuple(ref)
    cross_tol = tol if cross_tol is None else cross_tol
    for k, (g, c, r) in enumerate(zip(gpu, cpu, ref)):
        eg, ec, ex = rel(g, r), rel(c, r), rel(g, c)
        ok = eg <= tol and ec <= tol and ex <= cross_tol
        label = name if len(ref) == 1 else "%s[%d]" % (name, k)
        RESULTS.append((label, ok, eg, ec, ex, tg, tc))
        print("%-28s %-4s gpu-ref %.2e  interp-ref %.2e  gpu-interp %.2e  "
              "(gpu %.2fs incl. compile, interp %.2fs)"
              % (label, "ok" if ok else "FAIL", eg, ec, ex, tg, tc), flush=True)


def main():
    torch.manual_seed(0)
    # vector add, fp32, a size that is not a multiple of the block.
    x, y = torch.rand(98431), torch.rand(98431)

    def vadd(x, y):  # the example's wrapper insists on CUDA tensors
        out = torch.empty_like(x)
        n = out.numel()
        vector_add.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
        return out

    check("vector_add", vadd, [x, y], x.double() + y.double(), 1e-7)

    # softmax, fp32, rows longer than one warp's tile.
    x = torch.randn(1823, 781)
    def smax(x):  # likewise
        y = torch.empty_like(x)
        softmax.softmax_kernel[(64, 1, 1)](y, x, x.stride(0), y.stride(0), *x.shape,
                                           BLOCK_SIZE=1024, num_stages=2, num_warps=4)
        return y

    check("softmax", smax, [x],
          torch.softmax(x.double(), dim=1), 1e-5)

    # matmul fp16 -> fp16, with and without the activation.
    a = torch.randn(512, 384, dtype=torch.float16)
    b = torch.randn(384, 256, dtype=torch.float16)
    ref = a.double() @ b.double()
    check("matmul", matmul.matmul, [a, b], ref, 2e-3)
    check("matmul+leaky_relu", lambda p, q: matmul.matmul(p, q, "leaky_relu"),
          [a, b], torch.where(ref >= 0, ref, 0.01 * ref), 2e-3)

    # dropout: the GPU must reproduce the interpreter's Philox stream exactly.
    x = torch.randn(65537)
    g, c, _ = run_both(lambda t: dropout.seeded_dropout(t, 0.5, 123), x)
    kept = c != 0
    check("dropout", lambda t: dropout.seeded_dropout(t, 0.5, 123), [x],
          torch.where(kept, x.double() / 0.5, torch.zeros_like(x.double())),
          1e-7, cross_tol=0.0)

    # layer norm forward and backward, fp16.
    M, N, eps = 1151, 1024, 1e-5
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=torch.float16)
    w = torch.rand((N,), dtype=torch.float16)
    bias = torch.rand((N,), dtype=torch.float16)
    dy = 0.1 * torch.randn_like(x)
    xr = x.double().requires_grad_(True)
    wr = w.double().requires_grad_(True)
    br = bias.double().requires_grad_(True)
    yr = torch.nn.functional.layer_norm(xr, (N,), wr, br, eps)
    yr.backward(dy.double())
    check("layer_norm_fwd", lambda *t: layer_norm.layer_norm_fwd(*t, eps)[0],
          [x, w, bias], yr.detach(), 2e-3)

    def bwd(x, w, bias, dy):
        y, mean, rstd, block, warps = layer_norm.layer_norm_fwd(x, w, bias, eps)
        return layer_norm.layer_norm_bwd(dy, x, w, mean, rstd, block, warps)

    check("layer_norm_bwd", bwd, [x, w, bias, dy],
          (xr.grad, wr.grad, br.grad), 1e-2)

    # attention fwd, fp16, causal and not.
    shape = (1, 2, 256, 64)
    q, k, v = (torch.randn(shape, dtype=torch.float16).normal_(0.0, 0.5)
               for _ in range(3))
    for causal in (False, True):
        ref = attention.attention_ref(q.double(), k.double(), v.double(),
                                      causal, 64 ** -0.5)
        check("attention causal=%s" % causal,
              lambda *t: attention.attention(*t, causal, 64 ** -0.5),
              [q, k, v], ref, 1e-2)

    failed = [r for r in RESULTS if not r[1]]
    print("\n%d passed, %d failed" % (len(RESULTS) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

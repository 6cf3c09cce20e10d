"""GPU launches go on torch's current stream, so they order with torch's
work on that stream and are captured by CUDA graphs (skipped without a
CUDA GPU and torch)."""

import pytest

import triton
import triton.language as tl

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU: stream and graph launches run on the GPU "
                "machine", allow_module_level=True)


@triton.jit
def add_one(X, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(X + offs, tl.load(X + offs, mask=m) + 1, mask=m)


def test_launches_follow_torch_s_current_stream():
    x = torch.zeros(1 << 20, device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(20):
            x.add_(1)  # torch's work, then ours, on the same stream
            add_one[(x.numel() // 1024,)](x, x.numel(), BLOCK=1024)
    s.synchronize()
    assert torch.all(x == 40)


def test_a_launch_is_captured_and_replayed_by_a_cuda_graph():
    x = torch.zeros(4096, device="cuda")
    add_one[(4,)](x, x.numel(), BLOCK=1024)  # compile outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        add_one[(4,)](x, x.numel(), BLOCK=1024)
    torch.cuda.synchronize()
    base = x.clone()
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    assert torch.all(x == base + 3)
    t = triton.testing.do_bench_cudagraph(
        lambda: add_one[(4,)](x, x.numel(), BLOCK=1024), rep=10)
    assert t > 0

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


@triton.jit
def scaled_copy(X, Y, n, sx, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(Y + offs, tl.load(X + offs * sx, mask=m) * scale, mask=m)


def test_repeated_gpu_launches_follow_each_argument_s_class():
    """A repeated launch finds its compiled kernel by its arguments'
    classes (pointer alignment, ints divisible by 16 or equal to 1): every
    change of class gets its own kernel, and each gives the right values."""
    k = triton.jit(scaled_copy.fn)
    base = torch.arange(20000, device="cuda", dtype=torch.float32)
    for x, n, sx in [(base, 1024, 1), (base, 1024, 2), (base[1:], 1024, 2),
                     (base, 1000, 2), (base, 1024, 16), (base[1:], 1000, 1),
                     (base, 1024, 1), (base, 1024, 2)]:
        y = torch.zeros(1024, device="cuda", dtype=torch.float32)
        for _ in range(2):
            k[(8,)](x, y, n, sx, 0.5, BLOCK=128)
        want = torch.zeros_like(y)
        want[:n] = x[:n * sx:sx] * 0.5
        torch.testing.assert_close(y, want)


def test_strided_views_pass_the_bytes_they_span():
    """A transposed view goes to the kernel as it is (no copy) with the
    bytes from its first element to its last."""
    k = triton.jit(scaled_copy.fn)
    m = torch.arange(64 * 32, device="cuda", dtype=torch.float32).reshape(64, 32)
    col = m.T[3]  # stride 32: elements 3, 35, ...
    y = torch.zeros(64, device="cuda", dtype=torch.float32)
    k[(1,)](m.T, y, 64, 32, 1.0, BLOCK=64)
    torch.testing.assert_close(y, m[:, 0])
    k[(1,)](col, y, 64, 32, 2.0, BLOCK=64)  # a view starts at its first element
    torch.testing.assert_close(y, m[:, 3] * 2)


def _c_path(kernel):
    c = kernel._c
    if not c:
        pytest.skip("no C launcher (tritium_launch) in this build")
    return c


def test_the_c_launcher_takes_repeated_cuda_launches():
    """Repeated launches with CUDA tensors run in the C launcher, on torch's
    current stream, with views and every torch dtype it knows."""
    k = triton.jit(scaled_copy.fn)
    s = torch.cuda.Stream()
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        x = torch.arange(4096, device="cuda", dtype=torch.float32).to(dtype)
        y = torch.zeros(2048, device="cuda", dtype=dtype)
        with torch.cuda.stream(s):
            for i in range(4):
                torch.cuda._sleep(100000)  # ours must wait for torch's work
                y.zero_()
                k[(16,)](x, y, 2048, 2, 0.5 * (i + 1), BLOCK=128)
        s.synchronize()
        torch.testing.assert_close(y, (x[::2] * 2.0).to(dtype))
    c = _c_path(k)
    assert c.fast_launches >= 9 and c.slow_launches <= 3
    # A transposed view: packed in C as it is.
    m = torch.arange(64 * 32, device="cuda", dtype=torch.float32).reshape(64, 32)
    y = torch.zeros(64, device="cuda", dtype=torch.float32)
    fast = c.fast_launches
    for scale in (1.0, 3.0):
        k[(1,)](m.T, y, 64, 32, scale, BLOCK=64)
    torch.testing.assert_close(y, m[:, 0] * 3)
    assert c.fast_launches == fast + 1


def test_the_c_launcher_leaves_mixed_devices_to_python():
    k = triton.jit(scaled_copy.fn)
    x = torch.ones(64, device="cuda")
    y = torch.zeros(64, device="cuda")
    for _ in range(2):
        k[(1,)](x, y, 64, 1, 1.0, BLOCK=64)
    with pytest.raises(ValueError, match="'Y' is on cpu"):
        k[(1,)](x, torch.zeros(64), 64, 1, 1.0, BLOCK=64)
    torch.testing.assert_close(y, x)

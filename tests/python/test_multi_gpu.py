"""Launches on a machine with several GPUs: a kernel runs on the device its
tensors are on, on torch's current stream of that device, leaves torch's
current device as it was, and tensors on two devices are an error naming
both arguments (skipped with fewer than two CUDA GPUs)."""

import pytest

import triton
import triton.language as tl

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.cuda.is_available() or torch.cuda.device_count() < 2:
    pytest.skip("fewer than two CUDA GPUs: multi-GPU launches run on a "
                "machine with two", allow_module_level=True)


@triton.jit
def axpy(X, Y, Out, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m)
    y = tl.load(Y + offs, mask=m)
    tl.store(Out + offs, a * x + y, mask=m)


@triton.jit
def add_one(X, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(X + offs, tl.load(X + offs, mask=m) + 1, mask=m)


def _axpy(x, y, a=2.0):
    out = torch.empty_like(x)
    n = x.numel()
    axpy[(triton.cdiv(n, 256),)](x, y, out, a, n, BLOCK=256)
    return out


@pytest.mark.parametrize("first", [0, 1])
def test_a_kernel_runs_on_the_device_of_its_tensors(first):
    """The same kernel on both devices, in either order, each with the
    right values; torch's current device is left alone."""
    torch.cuda.set_device(0)
    k = triton.jit(axpy.fn)  # compiled afresh for this order
    for dev in (first, 1 - first, first):
        x = torch.randn(5000, device="cuda:%d" % dev)
        y = torch.randn(5000, device="cuda:%d" % dev)
        out = torch.empty_like(x)
        k[(triton.cdiv(5000, 256),)](x, y, out, 2.0, 5000, BLOCK=256)
        assert torch.cuda.current_device() == 0
        torch.cuda.synchronize(dev)
        torch.testing.assert_close(out, 2.0 * x + y)
        assert out.device.index == dev


def test_the_current_device_does_not_choose_the_launch_device():
    x = torch.randn(3000, device="cuda:0")
    y = torch.randn(3000, device="cuda:0")
    with torch.cuda.device(1):
        out = _axpy(x, y)
        assert torch.cuda.current_device() == 1
    torch.cuda.synchronize(0)
    torch.testing.assert_close(out, 2.0 * x + y)


def test_launches_follow_the_current_stream_of_the_tensors_device():
    x = torch.zeros(1 << 20, device="cuda:1")
    s = torch.cuda.Stream(device=1)
    with torch.cuda.stream(s):
        for _ in range(20):
            x.add_(1)  # torch's work on s, then ours on s
            add_one[(x.numel() // 1024,)](x, x.numel(), BLOCK=1024)
    s.synchronize()
    assert torch.all(x == 40)


def test_a_launch_on_the_second_device_is_captured_by_a_cuda_graph():
    x = torch.zeros(4096, device="cuda:1")
    with torch.cuda.device(1):
        add_one[(4,)](x, x.numel(), BLOCK=1024)  # compiled, loaded there
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        # A capture stream of its own: torch's default one stays on the
        # device of the process's first capture.
        with torch.cuda.graph(graph, stream=torch.cuda.Stream(device=1)):
            add_one[(4,)](x, x.numel(), BLOCK=1024)
        torch.cuda.synchronize()
        base = x.clone()
        for _ in range(3):
            graph.replay()
        torch.cuda.synchronize()
    assert torch.all(x == base + 3)


@pytest.mark.parametrize("order", ["x0-y1", "x1-y0"])
def test_tensors_on_two_devices_are_an_error_naming_both(order):
    dx, dy = (0, 1) if order == "x0-y1" else (1, 0)
    x = torch.randn(1000, device="cuda:%d" % dx)
    y = torch.randn(1000, device="cuda:%d" % dy)
    out = torch.empty(1000, device="cuda:%d" % dx)
    for _ in range(2):  # the fast path too, once the kernel is compiled
        with pytest.raises(ValueError) as e:
            axpy[(4,)](x, y, out, 2.0, 1000, BLOCK=256)
        msg = str(e.value)
        assert "'Y'" in msg and "'X'" in msg, msg
        assert "cuda:%d" % dx in msg and "cuda:%d" % dy in msg, msg
    # Same devices again: the launch works.
    y = y.to("cuda:%d" % dx)
    out = _axpy(x, y)
    torch.cuda.synchronize(dx)
    torch.testing.assert_close(out, 2.0 * x + y)


def test_the_c_api_names_arguments_on_two_devices():
    """The C++ launch checks the devices itself (each pointer's device, as
    the driver reports it), for callers that are not the Python package."""
    import ctypes
    from tritium import _capi
    x = torch.randn(1000, device="cuda:0")
    y = torch.randn(1000, device="cuda:1")
    out = torch.empty(1000, device="cuda:0")
    bound, options = axpy.bind((x, x, out, 2.0, 1000), {"BLOCK": 256})
    kernel = axpy.compile(bound, options["debug"])
    args = (_capi.Arg * 5)()
    for i, t in enumerate((x, y, out)):
        args[i].kind = _capi.ARG_BUFFER
        args[i].value.buffer.data = t.data_ptr()
        args[i].value.buffer.bytes = t.numel() * 4
        args[i].value.buffer.dtype = _capi.F32
    args[3].kind = _capi.ARG_FLOAT
    args[3].value.f = 2.0
    args[4].kind = _capi.ARG_INT
    args[4].value.i = 1000
    opts = axpy._options(options)
    opts.device = _capi.DEVICE_CUDA
    grid = (ctypes.c_int64 * 3)(4, 1, 1)
    with _capi.lock:
        status = _capi.lib().tritium_kernel_launch(
            kernel.handle, grid, args, 5, ctypes.byref(opts))
        msg = _capi.last_error()
    assert status != 0
    assert "different devices" in msg and "'X'" in msg and "'Y'" in msg, msg
    assert "cuda:0" in msg and "cuda:1" in msg, msg

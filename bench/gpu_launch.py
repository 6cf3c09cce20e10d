"""Launch overhead on a CUDA GPU, side by side in one run: host time per
call of a cached launch with CUDA torch tensors, for torch, Triton and
tritium.

Rows (µs per call, median over batches; the GPU work is tiny, so this is
the host's cost):
  torch.add                 torch.add(x, y, out=o), the floor of a launch
  add, Triton / tritium     add[(1,)](x, y, o, n, BLOCK=1024)
  add, tritium Python       the same through tritium's Python launcher (the
                            C launcher turned off for this kernel)
  layer norm, Triton / tritium
                            the layer-norm tutorial's launch: 10 arguments,
                            3 launch keywords
  matmul autotuned, Triton / tritium
                            03's matmul as gpu_bench launches it: through
                            autotune (one config), a grid callable, 12
                            arguments; "matmul, tritium": the same without
                            autotune (meta-parameters as keywords)
  Triton's C launcher alone its compiled launcher called directly: the
                            floor of Triton's path (cuLaunchKernelEx)
  C API from C              tritium_kernel_launch called in a C loop with
                            prebuilt records (tritium_launch.time_launches):
                            what a C or C++ caller pays
  C API through ctypes      the same call, one ctypes call per launch
  cuLaunchKernel alone      the driver's own cost: an empty kernel launched
                            through ctypes, less a ctypes call of the same
                            arity; no launcher can go below it

Needs torch with CUDA and Triton: ``PYTHONPATH=python:bench python3
bench/gpu_launch.py`` (tritium is used through ``tritium.jit``; ``triton``
is the real one).
"""

import argparse
import ctypes
import statistics
import sys
import time

import torch
import triton
import triton.language as tl

import tritium
from tritium import _capi


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)


def per_call_us(fn, number, repeat):
    for _ in range(100):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number * 1e6)
        torch.cuda.synchronize()
    return statistics.median(samples)


def triton_launcher_us(number, repeat, x, y, o, n):
    """Triton's compiled launcher called directly (CompiledKernel.run: its
    C launcher and cuLaunchKernelEx, no binding or specialization), or NaN
    where this Triton lays it out differently."""
    try:
        ck = add_kernel[(1,)](x, y, o, n, BLOCK=1024)
        stream = torch.cuda.current_stream().cuda_stream
        run, fn, meta = ck.run, ck.function, ck.packed_metadata
        call = lambda: run(1, 1, 1, stream, fn, meta, None, None, None,  # noqa: E731
                           x, y, o, n, 1024)
        call()
        return per_call_us(call, number, repeat)
    except Exception as e:  # noqa: BLE001 - another Triton version
        print("Triton's launcher not timed: %s" % e)
        return float("nan")


NOOP_PTX = b"""
.version 7.0
.target sm_70
.address_size 64
.visible .entry noop() { ret; }
"""


def driver_floor_us(number, repeat):
    """cuLaunchKernel of an empty kernel, one ctypes call per launch, less
    the cost of a ctypes call of the same arity (libc's labs, timed the
    same way): what the driver takes per launch on this host, the floor
    of any launcher. NaN where libcuda cannot be driven directly."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        libc = ctypes.CDLL(None)
        torch.cuda.synchronize()
        ctx = ctypes.c_void_p()
        if cuda.cuCtxGetCurrent(ctypes.byref(ctx)) or not ctx.value:
            dev = ctypes.c_int()
            cuda.cuDeviceGet(ctypes.byref(dev), torch.cuda.current_device())
            cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev)
            cuda.cuCtxSetCurrent(ctx)
        module, fn = ctypes.c_void_p(), ctypes.c_void_p()
        if cuda.cuModuleLoadData(ctypes.byref(module), NOOP_PTX) or \
                cuda.cuModuleGetFunction(ctypes.byref(fn), module, b"noop"):
            raise RuntimeError("cannot load the empty kernel")
        launch = cuda.cuLaunchKernel
        launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [
            ctypes.c_void_p] * 3
        stream = torch.cuda.current_stream().cuda_stream
        f = fn.value
        if launch(f, 1, 1, 1, 1, 1, 1, 0, stream, None, None):
            raise RuntimeError("cuLaunchKernel failed")
        call = ctypes.CFUNCTYPE(ctypes.c_long, *([ctypes.c_long] * 11))
        # A C function called with 11 arguments: labs ignores the extra ones
        # (the C calling convention leaves them to the caller).
        same = call(ctypes.cast(libc.labs, ctypes.c_void_p).value)
        raw = per_call_us(lambda: launch(f, 1, 1, 1, 1, 1, 1, 0, stream,
                                         None, None), number, repeat)
        ctypes_only = per_call_us(lambda: same(1, 1, 1, 1, 1, 1, 1, 0, 0,
                                               0, 0), number, repeat)
        return raw - ctypes_only
    except Exception as e:  # noqa: BLE001 - no direct driver access
        print("driver floor not timed: %s" % e)
        return float("nan")


def c_api_records(x, y, o, n):
    """Records, grid and options of the add launch as the C API takes
    them, on torch's current stream."""
    args = (_capi.Arg * 4)()
    for arg, t in zip(args, (x, y, o)):
        arg.kind = _capi.ARG_BUFFER
        arg.value.buffer.data = t.data_ptr()
        arg.value.buffer.bytes = t.numel() * t.element_size()
        arg.value.buffer.dtype = _capi.F32
    args[3].kind = _capi.ARG_INT
    args[3].value.i = n
    grid = (ctypes.c_int64 * 3)(1, 1, 1)
    opts = _capi.LaunchOptions(4, 3, 1, 0, 0, 0, _capi.DEVICE_CUDA,
                               torch.cuda.current_stream().cuda_stream, 1)
    return args, grid, opts


def main(number, repeat):
    if not torch.cuda.is_available():
        print("gpu_launch: no CUDA GPU")
        return 1
    n = 1024
    x = torch.randn(n, device="cuda")
    y = torch.randn_like(x)
    o = torch.empty_like(x)
    t_add = tritium.jit(add_kernel.fn)
    p_add = tritium.jit(add_kernel.fn)
    p_add._c = False  # the Python launcher only
    for k in (add_kernel, t_add, p_add):
        o.zero_()
        k[(1,)](x, y, o, n, BLOCK=1024)
        torch.testing.assert_close(o, x + y)

    sys.path.insert(0, "bench")
    import bench_kernels as K
    M, N = 64, 4096  # a small launch: the host's cost, not the GPU's
    lx = torch.randn((M, N), device="cuda", dtype=torch.float16)
    ly = torch.empty_like(lx)
    w = torch.rand((N,), device="cuda", dtype=torch.float16)
    b = torch.rand_like(w)
    mean = torch.empty((M,), device="cuda")
    rstd = torch.empty((M,), device="cuda")
    block, warps = K.layer_norm_launch(N, 2)
    t_ln = tritium.jit(K.layer_norm_fwd.fn)

    def ln(k):
        return lambda: k[(M,)](lx, ly, w, b, mean, rstd, lx.stride(0), N,
                               1e-5, BLOCK_SIZE=block, num_warps=warps,
                               num_ctas=1)

    # 03's matmul as gpu_bench launches it: autotuned (one config, so no
    # tuning), a grid callable, 13 arguments, torch tensors.
    S = 128
    ma = torch.randn((S, S), device="cuda", dtype=torch.float16)
    mb = torch.randn_like(ma)
    mc = torch.empty_like(ma)
    meta = {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
            "GROUP_SIZE_M": 8}
    tri_mm = triton.autotune([triton.Config(meta, num_warps=4, num_stages=3)],
                             key=["M", "N", "K"])(K.matmul_kernel)
    t_mm = tritium.autotune([tritium.Config(meta, num_warps=4,
                                            num_stages=3)],
                            key=["M", "N", "K"])(
        tritium.jit(K.matmul_kernel.fn))
    t_mm_plain = tritium.jit(K.matmul_kernel.fn)

    def mm_grid(m):
        return (triton.cdiv(S, m["BLOCK_SIZE_M"])
                * triton.cdiv(S, m["BLOCK_SIZE_N"]),)

    def mm(k, **kw):
        return lambda: k[mm_grid](ma, mb, mc, S, S, S, ma.stride(0),
                                  ma.stride(1), mb.stride(0), mb.stride(1),
                                  mc.stride(0), mc.stride(1), **kw)
    for k in (tri_mm, t_mm):
        mc.zero_()
        mm(k)()
        torch.testing.assert_close(mc, ma @ mb, atol=1e-2, rtol=1e-2)

    args, grid, opts = c_api_records(x, y, o, n)
    handle = next(iter(t_add._kernels.values())).handle
    module = _capi.launch_module()
    launch = _capi.lib().tritium_kernel_launch
    opts_ref = ctypes.byref(opts)

    rows = [
        ("torch.add", per_call_us(lambda: torch.add(x, y, out=o), number,
                                  repeat)),
        ("add, Triton", per_call_us(
            lambda: add_kernel[(1,)](x, y, o, n, BLOCK=1024), number, repeat)),
        ("add, tritium", per_call_us(
            lambda: t_add[(1,)](x, y, o, n, BLOCK=1024), number, repeat)),
        ("add, tritium Python", per_call_us(
            lambda: p_add[(1,)](x, y, o, n, BLOCK=1024), number, repeat)),
        ("layer norm, Triton", per_call_us(ln(K.layer_norm_fwd), number // 4,
                                           repeat)),
        ("layer norm, tritium", per_call_us(ln(t_ln), number // 4, repeat)),
        ("matmul autotuned, Triton", per_call_us(mm(tri_mm), number // 4,
                                                 repeat)),
        ("matmul autotuned, tritium", per_call_us(mm(t_mm), number // 4,
                                                  repeat)),
        ("matmul, tritium", per_call_us(mm(t_mm_plain, num_warps=4,
                                           num_stages=3, **meta),
                                        number // 4, repeat)),
        ("Triton's C launcher alone", triton_launcher_us(number, repeat, x, y, o, n)),
        ("cuLaunchKernel alone", driver_floor_us(number, repeat)),
        ("C API through ctypes", per_call_us(
            lambda: launch(handle, grid, args, 4, opts_ref), number, repeat)),
    ]
    if module is not None:
        samples = []
        for _ in range(repeat):
            samples.append(module.time_launches(
                handle, bytes(grid), bytes(args), bytes(opts), number) * 1e6)
            torch.cuda.synchronize()
        rows.append(("C API from C", statistics.median(samples)))
    fast = t_add._c.fast_launches if t_add._c else 0
    print("cached launch, host time per call (median of %d batches of %d); "
          "tritium C launcher: %s (%d launches)" % (
              repeat, number, "on" if module else "off", fast))
    values = dict(rows)
    for what, us in rows:
        print("  %-24s %7.2f us" % (what, us))
    print("  ratios (tritium / Triton): add %.2f, layer norm %.2f, "
          "matmul autotuned %.2f; add / torch.add %.2f" % (
              values["add, tritium"] / values["add, Triton"],
              values["layer norm, tritium"] / values["layer norm, Triton"],
              values["matmul autotuned, tritium"]
              / values["matmul autotuned, Triton"],
              values["add, tritium"] / values["torch.add"]))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000,
                        help="launches per batch")
    parser.add_argument("--repeat", type=int, default=5,
                        help="batches (the median is reported)")
    options = parser.parse_args()
    sys.exit(main(options.number, options.repeat))

"""The rows of bench/gpu_bench.py: for each family (matmul, attention, layer
norm, softmax, cumsum), a builder that makes a row's inputs and returns how
to launch it on either side, its torch baseline, its float64 reference and
the work one launch does.

gpu_bench.main() imports torch and the kernels (the compatibility ``triton``
first with --cpu-check) and hands them to bind() before any row is built.
"""

torch = None     # bound by bind()
K = None         # bench_kernels


def bind(torch_module, kernels_module):
    global torch, K
    torch, K = torch_module, kernels_module


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    return 1 if n <= 1 else 1 << (n - 1).bit_length()



# ---------------------------------------------------------------------------
# Row builders: each returns a RowData.
# ---------------------------------------------------------------------------

class RowData:
    """kernel: the Side kernel name. variants: launch-option dicts to try
    (each side keeps its fastest). launch(kern, variant) -> (grid, args,
    kwargs, output) for ``kern[grid](*args, **kwargs)``.
    baseline: (cache key, fn) or None. reference(): the float64 result
    (--cpu-check). work: FLOPs or bytes per launch."""

    def __init__(self, kernel, launch, baseline, reference, work, unit,
                 variants=({},), tol=1e-2, notes=""):
        self.kernel = kernel
        self.launch = launch
        self.baseline = baseline
        self.reference = reference
        self.work = work
        self.unit = unit
        self.variants = list(variants)
        self.tol = tol
        self.notes = notes


def shared_inputs(ctx, key, make):
    """The inputs of consecutive rows with the same key (one matmul size and
    dtype, one attention shape) are made once, so the rows and the cached
    baseline see the same data; a new key frees the previous ones."""
    if ctx.shared_key != key:
        ctx.shared_val = None
        ctx.baseline_cache.clear()
        ctx.shared_val = make()
        ctx.shared_key = key
    return ctx.shared_val


def build_matmul(ctx, dtype, S, variant):
    dev = ctx.device
    tdt = {"fp16": torch.float16, "bf16": torch.bfloat16,
           "fp8e4m3": torch.float8_e4m3fn, "fp32": torch.float32}[dtype]
    fp8 = dtype.startswith("fp8")
    if dtype == "fp32":
        # The kernels' products are tf32 (tl.dot's default precision).
        torch.backends.cuda.matmul.allow_tf32 = True
    a, bT = shared_inputs(ctx, ("matmul", dtype, S), lambda: tuple(
        torch.randn((S, S), device=dev, dtype=torch.float16).to(tdt)
        for _ in range(2)))
    b = bT.T  # [K, N], K-major
    row_b = variant in ("bias", "blockptr-rowB")
    if row_b:  # 03's layout: B contiguous along N
        b = bT
    if variant == "bias":
        bias = torch.randn((S,), device=dev, dtype=torch.float16).to(tdt)
    out_dtype = torch.float16 if fp8 else tdt
    num_sms = ctx.num_sms

    def launch(kern, variant_opts):
        c = torch.empty((S, S), device=dev, dtype=out_dtype)
        if variant == "desc":
            grid = lambda META: (cdiv(S, META["BLOCK_SIZE_M"])  # noqa: E731
                                 * cdiv(S, META["BLOCK_SIZE_N"]),)
            return grid, (a, bT, c, S, S, S), {}, c
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                   c.stride(0), c.stride(1))
        if variant == "persistent":
            grid = lambda META: (min(num_sms,  # noqa: E731
                                     cdiv(S, META["BLOCK_SIZE_M"])
                                     * cdiv(S, META["BLOCK_SIZE_N"])),)
            return (grid, (a, b, c, S, S, S) + strides, {"NUM_SMS": num_sms},
                    c)
        grid = lambda META: (cdiv(S, META["BLOCK_SIZE_M"])  # noqa: E731
                             * cdiv(S, META["BLOCK_SIZE_N"]),)
        if variant == "bias":
            return grid, (a, b, bias, c, S, S, S) + strides, {}, c
        return grid, (a, b, c, S, S, S) + strides, {}, c

    if fp8:
        def base():
            one = torch.ones((), device=dev, dtype=torch.float32)
            out = torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                   out_dtype=torch.float16,
                                   use_fast_accum=True)
            return out[0] if isinstance(out, tuple) else out
        if not hasattr(torch, "_scaled_mm"):
            base = None
    elif variant == "bias":
        def base():
            return torch.addmm(bias, a, b)
    else:
        def base():
            return torch.matmul(a, b)
    layout = ("bias",) if variant == "bias" else ("rowB",) if row_b else ()
    baseline = ((("matmul", dtype, S) + layout), base) if base else None

    def reference():
        if variant == "bias":
            return a.double() @ b.double() + bias.double()
        return a.double() @ b.double()

    return RowData("matmul_" + variant, launch, baseline, reference,
                   2.0 * S ** 3, "TFLOP/s",
                   tol=2e-2 if dtype == "bf16" else 1e-2)


def build_attn(ctx, D, causal, kform, Z, H, N):
    dev = ctx.device
    shape = (Z, H, N, D)
    q, k, v = shared_inputs(ctx, ("attn", D, causal, Z, H, N), lambda: tuple(
        torch.empty(shape, device=dev, dtype=torch.float16)
        .normal_(mean=0.0, std=0.5) for _ in range(3)))
    k_arg = k.transpose(-1, -2).contiguous() if kform == "kT" else k
    sm_scale = D ** -0.5
    stage = 3 if causal else 1
    # 06 tries warp specialization for the causal-free forward on Hopper
    # and for every forward on Blackwell.
    ws_options = [False]
    if not ctx.cpu and (ctx.cc_major == 10
                        or (ctx.cc_major == 9 and not causal)):
        ws_options = [False, True]

    def launch(kern, variant_opts):
        o = torch.empty_like(q)
        M = torch.empty((Z, H, N), device=dev, dtype=torch.float32)
        grid = lambda META: (cdiv(N, META["BLOCK_M"]), Z * H, 1)  # noqa: E731
        return grid, (sm_scale, M, Z, H, q, k_arg, v, o), dict(
            N_CTX=N, HEAD_DIM=D, STAGE=stage, K_TRANSPOSED=(kform == "kT"),
            warp_specialize=variant_opts["warp_specialize"]), o

    def base():
        return torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal, scale=sm_scale)

    def reference():
        qd, kd, vd = q.double(), k.double(), v.double()
        s = qd @ kd.transpose(-1, -2) * sm_scale
        if causal:
            mask = torch.ones((N, N), dtype=torch.bool, device=dev).tril()
            s = s.masked_fill(~mask, float("-inf"))
        return torch.softmax(s, dim=-1) @ vd

    flops = 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
    return RowData("attn", launch, (("attn", D, causal, Z, H, N), base),
                   reference,
                   flops, "TFLOP/s",
                   variants=[{"warp_specialize": ws} for ws in ws_options])


def build_layernorm(ctx, dtype, M, N):
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)  # frees the previous rows' inputs
    tdt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    x = (-2.3 + 0.5 * torch.randn((M, N), device=dev,
                                  dtype=torch.float32)).to(tdt)
    w = torch.rand((N,), device=dev, dtype=torch.float32).to(tdt)
    b = torch.rand((N,), device=dev, dtype=torch.float32).to(tdt)
    eps = 1e-5
    BLOCK_SIZE, num_warps = K.layer_norm_launch(N, x.element_size())

    def launch(kern, variant_opts):
        y = torch.empty_like(x)
        mean = torch.empty((M,), device=dev, dtype=torch.float32)
        rstd = torch.empty((M,), device=dev, dtype=torch.float32)
        return (M,), (x, y, w, b, mean, rstd, x.stride(0), N, eps), dict(
            BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1), y

    def base():
        return torch.nn.functional.layer_norm(x, (N,), w, b, eps)

    def reference():
        return torch.nn.functional.layer_norm(x.double(), (N,), w.double(),
                                              b.double(), eps)

    return RowData("layernorm", launch, (("layernorm", dtype, M, N), base),
                   reference, 2.0 * M * N * x.element_size(), "TB/s",
                   notes="BLOCK_SIZE=%d num_warps=%d" % (BLOCK_SIZE,
                                                         num_warps))


def build_softmax(ctx, M, N):
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)
    x = torch.randn((M, N), device=dev, dtype=torch.float32)
    BLOCK_SIZE = next_power_of_2(N)
    num_warps = 8
    props = ctx.props
    num_stages = 4 if props["max_shared_mem"] > 200000 else 2

    def launch(kern, variant_opts):
        y = torch.empty_like(x)
        # 02's persistent grid, from this side's own compiled kernel.
        compiled = kern.warmup(y, x, x.stride(0), y.stride(0), M, N,
                               BLOCK_SIZE=BLOCK_SIZE, NUM_STAGES=num_stages,
                               num_warps=num_warps, grid=(1,))
        compiled._init_handles()
        n_regs = max(int(compiled.n_regs or 0), 1)
        size_smem = int(compiled.metadata.shared or 0)
        occupancy = props["max_num_regs"] // (n_regs * props["warpSize"]
                                              * num_warps)
        if size_smem > 0:
            occupancy = min(occupancy, props["max_shared_mem"] // size_smem)
        num_programs = min(props["multiprocessor_count"] * max(occupancy, 1),
                           M)
        launch.info[id(kern)] = "%d programs (n_regs %d, shared %d)" % (
            num_programs, n_regs, size_smem)
        return (num_programs, 1, 1), (y, x, x.stride(0), y.stride(0), M, N), \
            dict(BLOCK_SIZE=BLOCK_SIZE, NUM_STAGES=num_stages,
                 num_warps=num_warps), y
    launch.info = {}

    def base():
        return torch.softmax(x, dim=-1)

    def reference():
        return torch.softmax(x.double(), dim=-1)

    return RowData("softmax", launch, (("softmax", M, N), base), reference,
                   2.0 * M * N * 4, "TB/s", tol=1e-5)


def build_cumsum(ctx, M, N):
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)
    x = torch.randn((M, N), device=dev, dtype=torch.float32)
    BLOCK_SIZE = next_power_of_2(N)
    num_warps = 8 if BLOCK_SIZE >= 4096 else 4

    def launch(kern, variant_opts):
        y = torch.empty_like(x)
        return (M,), (x, y, N), dict(BLOCK_SIZE=BLOCK_SIZE,
                                     num_warps=num_warps), y

    def base():
        return torch.cumsum(x, dim=-1)

    def reference():
        return torch.cumsum(x.double(), dim=-1)

    return RowData("cumsum", launch, (("cumsum", M, N), base), reference,
                   2.0 * M * N * 4, "TB/s", tol=1e-4,
                   notes="BLOCK_SIZE=%d num_warps=%d" % (BLOCK_SIZE, num_warps))


def build_attn_bwd(ctx, D, causal, Z, H, N):
    """06's backward kernel (dK, dV, dQ in one launch) at 06's launch
    constants; the forward's O and log-sum-exp and the rowwise O * dO
    (06's preprocess) are made with torch."""
    dev = ctx.device
    shape = (Z, H, N, D)
    sm_scale = 0.5
    rcp_ln2 = 1.4426950408889634

    def make():
        g = [torch.empty(shape, device=dev, dtype=torch.float16)
             .normal_(mean=0.0, std=0.5) for _ in range(4)]
        q, k, v, do = g
        s = (q.float() @ k.float().transpose(-1, -2)) * sm_scale
        if causal:
            keep = torch.ones((N, N), dtype=torch.bool, device=dev).tril()
            s = s.masked_fill(~keep, float("-inf"))
        lse = torch.logsumexp(s, dim=-1)
        o = (torch.softmax(s, dim=-1) @ v.float()).to(torch.float16)
        M = (lse * rcp_ln2).contiguous()  # base 2, as 06's forward
        delta = (o.float() * do.float()).sum(-1).contiguous()
        return q, k, v, do, M, delta
    q, k, v, do, M, delta = shared_inputs(
        ctx, ("attn_bwd", D, causal, Z, H, N), make)
    arg_k = k * (sm_scale * rcp_ln2)
    BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 128, 128, 32
    if ctx.cpu:  # the causal halves still take K >= 16 products
        BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 64, 64, 32

    def launch(kern, variant_opts):
        dq, dk, dv = (torch.empty_like(q) for _ in range(3))
        grid = (N // BLOCK_N1, 1, Z * H)
        return grid, (q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta,
                      q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                      H, N), dict(
            BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1, BLOCK_M2=BLOCK_M2,
            BLOCK_N2=BLOCK_N2, BLK_SLICE_FACTOR=2, HEAD_DIM=D,
            CAUSAL=causal, num_warps=4, num_stages=5), (dq, dk, dv)

    base = None
    if not ctx.cpu:
        qg, kg, vg = (t.detach().clone().requires_grad_() for t in (q, k, v))
        out = torch.nn.functional.scaled_dot_product_attention(
            qg, kg, vg, is_causal=causal, scale=sm_scale)

        def base():
            return torch.autograd.grad(out, (qg, kg, vg), do,
                                       retain_graph=True)

    def reference():
        qd, kd, vd = (t.double().detach().requires_grad_()
                      for t in (q, k, v))
        s = qd @ kd.transpose(-1, -2) * sm_scale
        if causal:
            keep = torch.ones((N, N), dtype=torch.bool, device=dev).tril()
            s = s.masked_fill(~keep, float("-inf"))
        out = torch.softmax(s, dim=-1) @ vd
        return torch.autograd.grad(out, (qd, kd, vd), do.double())

    flops = 2.5 * 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
    return RowData("attn_bwd", launch,
                   (("attn_bwd", D, causal, Z, H, N), base) if base else None,
                   reference, flops, "TFLOP/s", tol=2e-2,
                   notes="BLOCK_M1=%d BLOCK_N1=%d BLOCK_M2=%d BLOCK_N2=%d "
                   "w4 s5" % (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2))


def build_layernorm_bwd(ctx, dtype, M, N):
    """05's dX kernel (with its locked partial dW/dB sums); traffic as 05
    counts it (x, dy, dx)."""
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)
    tdt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    x = (-2.3 + 0.5 * torch.randn((M, N), device=dev,
                                  dtype=torch.float32)).to(tdt)
    dy = (0.1 * torch.randn((M, N), device=dev, dtype=torch.float32)).to(tdt)
    w = torch.rand((N,), device=dev, dtype=torch.float32).to(tdt)
    b = torch.rand((N,), device=dev, dtype=torch.float32).to(tdt)
    eps = 1e-5
    xf = x.float()
    mean = xf.mean(-1).contiguous()
    rstd = (1.0 / torch.sqrt(xf.var(-1, unbiased=False) + eps)).contiguous()
    BLOCK_SIZE, num_warps = K.layer_norm_launch(N, x.element_size())
    group = K.layer_norm_bwd_group_size(N)

    def launch(kern, variant_opts):
        dx = torch.empty_like(x)
        locks = torch.zeros(2 * group, device=dev, dtype=torch.int32)
        dw_part = torch.zeros((group, N), device=dev, dtype=tdt)
        db_part = torch.zeros((group, N), device=dev, dtype=tdt)
        return (M,), (dx, dy, dw_part, db_part, x, w, mean, rstd, locks,
                      x.stride(0), N), dict(
            GROUP_SIZE_M=group, BLOCK_SIZE_N=BLOCK_SIZE,
            num_warps=num_warps), dx

    base = None
    if not ctx.cpu:
        xg = x.detach().clone().requires_grad_()
        out = torch.nn.functional.layer_norm(xg, (N,), w, b, eps)

        def base():
            return torch.autograd.grad(out, xg, dy, retain_graph=True)[0]

    def reference():
        xd = x.double().requires_grad_()
        out = torch.nn.functional.layer_norm(xd, (N,), w.double(),
                                             b.double(), eps)
        return torch.autograd.grad(out, xd, dy.double())[0]

    return RowData("layernorm_bwd", launch,
                   (("layernorm_bwd", dtype, M, N), base) if base else None,
                   reference, 3.0 * M * N * x.element_size(), "TB/s",
                   tol=2e-2,
                   notes="BLOCK_SIZE_N=%d GROUP_SIZE_M=%d num_warps=%d"
                   % (BLOCK_SIZE, group, num_warps))


def build_grouped(ctx, G, S):
    """08's grouped GEMM over G fp16 problems of S^3 (08's list, NUM_SM
    programs)."""
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)
    a_s = [torch.randn((S, S), device=dev, dtype=torch.float16)
           for _ in range(G)]
    b_s = [torch.randn((S, S), device=dev, dtype=torch.float16)
           for _ in range(G)]
    c_s = [torch.empty((S, S), device=dev, dtype=torch.float16)
           for _ in range(G)]
    def table(xs, dt):
        return torch.tensor(xs, device=dev, dtype=dt)
    a_ptrs = table([a.data_ptr() for a in a_s], torch.int64)
    b_ptrs = table([b.data_ptr() for b in b_s], torch.int64)
    c_ptrs = table([c.data_ptr() for c in c_s], torch.int64)
    sizes = table([S] * (3 * G), torch.int32)
    lds = table([S] * (3 * G), torch.int32)

    def launch(kern, variant_opts):
        grid = lambda META: (META["NUM_SM"],)  # noqa: E731
        return grid, (a_ptrs, b_ptrs, c_ptrs, sizes, lds, G), {}, c_s

    def base():
        return [torch.matmul(a, b) for a, b in zip(a_s, b_s)]

    def reference():
        return [a.double() @ b.double() for a, b in zip(a_s, b_s)]

    return RowData("grouped", launch, (("grouped", G, S), base), reference,
                   2.0 * G * S ** 3, "TFLOP/s")


def build_dropout(ctx, n):
    """04's seeded dropout, p = 0.5, BLOCK_SIZE 1024 (04's launch)."""
    dev = ctx.device
    shared_inputs(ctx, None, lambda: None)
    x = torch.randn((n,), device=dev, dtype=torch.float32)
    p, seed = 0.5, 123

    def launch(kern, variant_opts):
        out = torch.empty_like(x)
        grid = (cdiv(n, 1024),)
        return grid, (x, out, n, p, seed), dict(BLOCK_SIZE=1024), out

    def base():
        return torch.nn.functional.dropout(x, p, training=True)

    def reference():
        # The keep mask from Philox 4x32-10 and Triton's uniform mapping
        # (conformance/refs.py, written from their definitions).
        import importlib.util
        import os
        spec = importlib.util.spec_from_file_location(
            "conformance_refs", os.path.join(
                os.path.dirname(os.path.abspath(__file__)), "..",
                "conformance", "refs.py"))
        refs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(refs)
        import numpy as np
        keep = torch.from_numpy(refs.rand(seed, np.arange(n)) > p)
        return torch.where(keep.to(x.device), x.double() / (1 - p), 0.0)

    return RowData("dropout", launch, (("dropout", n), base), reference,
                   8.0 * n, "TB/s", tol=1e-6)


BUILDERS = {"matmul": build_matmul, "attn": build_attn,
            "layernorm": build_layernorm, "softmax": build_softmax,
            "cumsum": build_cumsum, "attn_bwd": build_attn_bwd,
            "layernorm_bwd": build_layernorm_bwd, "grouped": build_grouped,
            "dropout": build_dropout}

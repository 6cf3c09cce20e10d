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


BUILDERS = {"matmul": build_matmul, "attn": build_attn,
            "layernorm": build_layernorm, "softmax": build_softmax,
            "cumsum": build_cumsum}

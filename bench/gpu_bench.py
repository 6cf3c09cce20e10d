"""tritium against the installed Triton on one GPU, in one process.

The kernels are the ``@triton.jit`` functions of bench/bench_kernels.py,
written as Triton 3.6's tutorials write them. Each row runs the same
function under Triton (``triton.autotune(configs, key)(kernel)``) and under
tritium (``tritium.autotune(<the same list as tritium.Config>,
key)(tritium.jit(kernel.fn))``): both sides autotune over the tutorial's
config list, with the same ``triton.testing.do_bench``, so each runs at its
own best; neither is given a configuration picked for the other. Kernels
without a list (layer norm, softmax) use the tutorial's launch heuristics on
both sides (softmax's persistent grid from each side's own registers and
shared memory).

Rows
    matmul fp16 / bf16 / fp8 (e4m3, C in fp16) / fp32 (products at tf32,
      the default precision), 4096^3 and 8192^3, each
        ptr         pointer arithmetic (03-matrix-multiplication, 03's list)
        blockptr    tl.make_block_ptr / tl.advance (03's list)
        blockptr-rowB  the same kernel with B row-major (contiguous along
                    N, as 03 stores it; not for fp8)
        desc        in-kernel tl.make_tensor_descriptor (09's
                    matmul_kernel_tma, 09's list)
        persistent  09's matmul_kernel_persistent (09's list)
      B is stored K-major (as 09, and as fp8 needs) unless the row says
      otherwise (bias, blockptr-rowB). Baseline: cuBLAS
      (torch.matmul, fp32 with TF32 allowed; fp8: torch._scaled_mm, unit
      scales, fast accumulation as Triton's Hopper fp8 dot, C in fp16).
    attention forward fp16 (06-fused-attention; Z=4, H=32, N_CTX=4096),
      D = 64 and 128, causal and not, K pre-transposed in memory ("kT",
      loaded as [HEAD_DIM, BLOCK_N] tiles) or loaded as stored and put
      through tl.trans ("trans"); 06's configs with its keep filter and
      early_config_prune. Where 06 benchmarks warp specialization (sm_90
      non-causal, sm_100) both values are tried and each side keeps its
      faster (a side whose two kernels compile to the same PTX times it
      once). Baseline: torch.nn.functional.scaled_dot_product_attention.
    layer norm forward fp16 / bf16, 4096 rows, 4096 and 8192 columns
      (05-layer-norm, its BLOCK_SIZE / num_warps rule). Baseline:
      torch.nn.functional.layer_norm.
    softmax fp32 4096 x 8192 (02-fused-softmax, persistent). Baseline:
      torch.softmax.
    cumsum fp32 4096 x 8192 (tl.cumsum along rows). Baseline: torch.cumsum.
    attention backward fp16 (06's _attn_bwd: dK, dV and dQ in one launch,
      06's block sizes, 4 warps, 5 stages), D = 64 and 128, causal and not;
      the forward's O and log-sum-exp and 06's preprocess (rowwise O * dO)
      come from torch. Baseline: SDPA's backward.
    layer norm backward fp16 / bf16 (05's dX kernel with its locked partial
      dW/dB sums, 05's GROUP_SIZE_M), 4096 rows, 4096 and 8192 columns;
      traffic as 05 counts it. Baseline: torch's layer_norm backward.
    grouped GEMM fp16 (08-grouped-gemm: per-problem pointers, sizes and
      leading dimensions read from device memory, 08's list with NUM_SM),
      4 problems of 4096^3 and 16 of 1024^3. Baseline: torch.matmul per
      problem.
    seeded dropout fp32, 2^28 elements (04's kernel, p = 0.5). Baseline:
      torch.nn.functional.dropout (another mask: its difference is not a
      check; tritium's against Triton's is).

Autotuning: Triton's and tritium's autotuners both time each config with
triton.testing.do_bench (warmup 10 ms, rep 40 ms: TUNE_*_MS); each row is
then timed with do_bench (warmup 25 ms, rep 100 ms, median: BENCH_*_MS),
the baseline too. With --rounds N (default 5) both sides are timed N times
in alternating order once both are tuned, and each side's figure is the
median of its rounds: the card's clocks drift as it heats, and a side timed
always second in a row would carry that drift. Each row prints its progress
(times of every round, each side's chosen config, host microseconds per
launch, output differences against the baseline) as it goes.

The table: Triton and tritium in the row's unit (TFLOP/s, or TB/s of
nominal traffic), tritium/Triton and tritium/baseline as speed ratios
(higher is better for tritium), and the relative difference (2-norm) of
tritium's output from Triton's. A row failing on one side prints the first
line of the error and the run goes on.

Run on a machine with an NVIDIA GPU, torch and Triton, with tritium's own
package (not the compatibility one) on the path:
    PYTHONPATH=python:examples python3 bench/gpu_bench.py [--quick]
        [--only SUBSTR]... [--list]

    --quick       small sizes (matmul 1024/2048, attention Z=1 H=8 N=1024,
                  1024-row layer norm and softmax)
    --only SUBSTR run the rows whose name contains SUBSTR (case-insensitive;
                  repeatable, a row runs when any matches)
    --list        print the row names and exit
    --rounds N    time both sides of each row N times, alternating, and
                  take each side's median (default 5)
    --jobs N      worker processes that compile every config of every
                  autotuned kernel of both sides (each side's warmup(), on
                  CUDA tensors like the rows') before the rows run, into the
                  on-disk caches (~/.triton/cache, ~/.cache/tritium) the
                  rows then read; nothing is timed there. 1 turns it off
                  (each autotuner then compiles its configs as it tunes).

--cpu-check needs no GPU and no Triton: it puts python/compat (the
``triton`` package that is tritium) first on sys.path before importing the
kernels, then runs every kernel variant once through tritium.autotune on
CPU torch tensors at tiny sizes (tritium runs them on its interpreter), with
two small configs per autotuned kernel (one benchmark run each), and
compares each output with torch in float64:
    PYTHONPATH=python:examples python3 bench/gpu_bench.py --cpu-check
"""

import argparse
import os
import re
import statistics
import sys
import time

BENCH_WARMUP_MS, BENCH_REP_MS = 25, 100   # each row's measurement
TUNE_WARMUP_MS, TUNE_REP_MS = 10, 40      # each config while autotuning

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

torch = None     # imported in main()
tritium = None
triton = None    # the real Triton (GPU mode only)
K = None         # bench_kernels

from gpu_bench_rows import BUILDERS, cdiv, shared_inputs  # noqa: E402
import gpu_bench_rows  # noqa: E402

def first_line(e):
    """The error's first line (with its last too where the first is only a
    source location, as in Triton's CompilationError)."""
    lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
    line = lines[0] if lines else ""
    if len(lines) > 1 and re.match(r"^at \d+:\d+:?$", line.strip()):
        line += " ... " + lines[-1].strip()
    return "%s: %s" % (type(e).__name__, line[:300])


# ---------------------------------------------------------------------------
# Rows.
# ---------------------------------------------------------------------------

class Row:
    def __init__(self, name, family, **params):
        self.name = name
        self.family = family
        self.params = params


MATMUL_DTYPES = ("fp16", "bf16", "fp8e4m3", "fp32")
MATMUL_VARIANTS = ("ptr", "blockptr", "blockptr-rowB", "desc", "persistent", "bias")


def make_rows(quick, cpu):
    rows = []
    if cpu:
        mm_sizes = (80,)
        attn = dict(Z=1, H=2, N=128)
        ln = dict(M=8, widths=(200, 700))
        sm = dict(M=37, N=100)
        grouped, drop = [(3, 64)], 5000
    elif quick:
        mm_sizes = (1024, 2048)
        attn = dict(Z=1, H=8, N=1024)
        ln = dict(M=1024, widths=(4096, 8192))
        sm = dict(M=1024, N=8192)
        grouped, drop = [(4, 1024)], 1 << 24
    else:
        mm_sizes = (4096, 8192)
        attn = dict(Z=4, H=32, N=4096)
        ln = dict(M=4096, widths=(4096, 8192))
        sm = dict(M=4096, N=8192)
        grouped, drop = [(4, 4096), (16, 1024)], 1 << 28
    for dt in MATMUL_DTYPES:
        for S in mm_sizes:
            for v in MATMUL_VARIANTS:
                # fp8 products take B K-major (as 09 stores it).
                if v in ("bias", "blockptr-rowB") and dt.startswith("fp8"):
                    continue
                rows.append(Row("matmul %s %d^3 %s" % (dt, S, v), "matmul",
                                dtype=dt, S=S, variant=v))
    for D in (64, 128):
        for causal in (False, True):
            for kform in ("kT", "trans"):
                rows.append(Row(
                    "attn fwd fp16 D%d %s K-%s (Z%d H%d N%d)"
                    % (D, "causal" if causal else "full", kform, attn["Z"],
                       attn["H"], attn["N"]),
                    "attn", D=D, causal=causal, kform=kform, **attn))
    for dt in ("fp16", "bf16"):
        for N in ln["widths"]:
            rows.append(Row("layernorm fwd %s %dx%d" % (dt, ln["M"], N),
                            "layernorm", dtype=dt, M=ln["M"], N=N))
    rows.append(Row("softmax fp32 %dx%d" % (sm["M"], sm["N"]), "softmax",
                    M=sm["M"], N=sm["N"]))
    rows.append(Row("cumsum fp32 %dx%d rows" % (sm["M"], sm["N"]), "cumsum",
                    M=sm["M"], N=sm["N"]))
    # Kernels of the tutorials outside the forward set: 06's and 05's
    # backward passes, 08's grouped GEMM, 04's seeded dropout.
    for D in (64, 128):
        for causal in (False, True):
            rows.append(Row(
                "attn bwd fp16 D%d %s (Z%d H%d N%d)"
                % (D, "causal" if causal else "full", attn["Z"], attn["H"],
                   attn["N"]),
                "attn_bwd", D=D, causal=causal, **attn))
    for dt in ("fp16", "bf16"):
        for N in ln["widths"]:
            rows.append(Row("layernorm bwd %s %dx%d" % (dt, ln["M"], N),
                            "layernorm_bwd", dtype=dt, M=ln["M"], N=N))
    for G, S in grouped:
        rows.append(Row("grouped gemm fp16 %dx%d^3" % (G, S), "grouped",
                        G=G, S=S))
    rows.append(Row("dropout fp32 %d" % drop, "dropout", n=drop))
    return rows


# ---------------------------------------------------------------------------
# Kernels on each side.
# ---------------------------------------------------------------------------

# name -> (function in bench_kernels, its config list, autotune key); attn
# also gets 06's early_config_prune.
TUNED = {
    "matmul_ptr": ("matmul_kernel", "matmul_configs_03", ["M", "N", "K"]),
    "matmul_bias": ("matmul_bias_kernel", "matmul_configs_03", ["M", "N", "K"]),
    "matmul_blockptr": ("matmul_kernel_block_ptr", "matmul_configs_03",
                        ["M", "N", "K"]),
    "matmul_blockptr-rowB": ("matmul_kernel_block_ptr", "matmul_configs_03",
                             ["M", "N", "K"]),
    "matmul_desc": ("matmul_kernel_descriptor", "matmul_configs_09",
                    ["M", "N", "K"]),
    "matmul_persistent": ("matmul_kernel_persistent", "matmul_configs_09",
                          ["M", "N", "K"]),
    "attn": ("attn_fwd", "attn_configs",
             ["N_CTX", "HEAD_DIM", "STAGE", "K_TRANSPOSED",
              "warp_specialize"]),
    "grouped": ("grouped_matmul_kernel", "grouped_matmul_configs",
                ["group_size"]),
}
PLAIN = {"layernorm": "layer_norm_fwd", "softmax": "softmax_kernel",
         "cumsum": "cumsum_rows", "attn_bwd": "attn_bwd",
         "layernorm_bwd": "layer_norm_bwd_dx_fused",
         "dropout": "seeded_dropout"}


def cpu_configs(name):
    """Two small configs per autotuned kernel for --cpu-check."""
    C = tritium.Config
    if name == "grouped":
        return [C({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                   "NUM_SM": 4}, num_warps=4, num_stages=3),
                C({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                   "NUM_SM": 3}, num_warps=4, num_stages=2)]
    if name.startswith("matmul"):
        return [C({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                   "GROUP_SIZE_M": 8}, num_warps=4, num_stages=3),
                C({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                   "GROUP_SIZE_M": 2}, num_warps=4, num_stages=2)]
    # The second is pruned for causal rows (BLOCK_M < BLOCK_N), as in 06.
    return [C({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=2),
            C({"BLOCK_M": 32, "BLOCK_N": 64}, num_warps=4, num_stages=3)]


def to_tritium(c):
    return tritium.Config(dict(c.kwargs), num_warps=c.num_warps,
                          num_stages=c.num_stages,
                          num_ctas=getattr(c, "num_ctas", 1),
                          maxnreg=getattr(c, "maxnreg", None),
                          pre_hook=getattr(c, "pre_hook", None))


class Side:
    """One implementation ("Triton" or "tritium"): its kernels, built on
    first use."""

    def __init__(self, label, ctx):
        self.label = label
        self.ctx = ctx
        self.kernels = {}

    def kernel(self, name):
        if name not in self.kernels:
            self.kernels[name] = self._build(name)
        return self.kernels[name]

    def _build(self, name):
        ctx = self.ctx
        if name in PLAIN:
            fn = getattr(K, PLAIN[name])
            return fn if self.label == "Triton" else tritium.jit(fn.fn)
        fname, cfg_name, key = TUNED[name]
        fn = getattr(K, fname)
        prune = ({"early_config_prune": K.attn_prune_invalid_configs}
                 if name == "attn" else None)
        if ctx.cpu:
            configs = cpu_configs(name)
        elif name == "attn":
            configs = getattr(K, cfg_name)(ctx.cc_major)
        elif name == "grouped":
            configs = getattr(K, cfg_name)(ctx.num_sms)
        else:
            configs = getattr(K, cfg_name)()
        if self.label == "Triton":
            return triton.autotune(configs=configs, key=key,
                                   prune_configs_by=prune,
                                   do_bench=ctx.tune_bench)(fn)
        configs = [to_tritium(c) for c in configs]
        return tritium.autotune(configs=configs, key=key,
                                prune_configs_by=prune,
                                do_bench=ctx.tune_bench)(tritium.jit(fn.fn))


# ---------------------------------------------------------------------------
# Running rows.
# ---------------------------------------------------------------------------

def reldiff(x, ref):
    """2-norm relative difference; several outputs (a list or tuple) are
    taken together."""
    if isinstance(x, (list, tuple)):
        x = torch.cat([t.double().flatten() for t in x])
        ref = torch.cat([t.double().flatten() for t in ref])
    x, ref = x.double(), ref.double()
    return ((x - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def config_of(kern):
    best = getattr(kern, "best_config", None)
    if best is None:
        return ""
    parts = ["%s=%s" % kv for kv in best.kwargs.items()]
    parts += ["w%d" % best.num_warps, "s%d" % best.num_stages]
    return " ".join(parts)


def throughput(work, ms, unit):
    if ms is None:
        return None
    return work / (ms * 1e-3) / 1e12  # TFLOP/s or TB/s


# -- compiling ahead, in worker processes --------------------------------
#
# A cold run compiles several hundred kernels per side (every config of every
# autotuned kernel), one at a time: Triton's autotuner compiles as it tunes
# and tritium's compiler holds one lock. Before the rows run, worker
# processes compile every (pruned) config of every autotuned kernel the rows
# will tune, on both sides, through each side's own warmup() on CUDA tensors
# of the rows' shapes, dtypes and strides; both compilers keep what they
# compile on disk (~/.triton/cache, ~/.cache/tritium), so the rows then find
# it there. Nothing is timed in the workers; if anything goes wrong the rows
# simply compile as they go.

_W = {}  # in a worker: the imported modules and tritium kernels


def _worker_init():
    import torch as _torch
    import tritium as _tritium
    import bench_kernels as _K
    _W.update(torch=_torch, tritium=_tritium, K=_K, jit={})


def _worker_compile(task):
    side, fname, device, args_spec, kwargs = task
    t = _W["torch"]
    try:
        args = []
        for a in args_spec:
            if isinstance(a, tuple) and a and a[0] == "tensor":
                _, shape, stride, dtype = a
                args.append(t.empty_strided(shape, stride,
                                            dtype=getattr(t, dtype),
                                            device=device))
            else:
                args.append(a)
        fn = getattr(_W["K"], fname)
        if side == "tritium":
            if fname not in _W["jit"]:
                _W["jit"][fname] = _W["tritium"].jit(fn.fn)
            fn = _W["jit"][fname]
        fn.warmup(*args, grid=(1,), **kwargs)
        return None
    except Exception as e:  # noqa: BLE001 - the row will report it
        return first_line(e)


def _spec_arg(a):
    """A launch argument as the worker rebuilds it, and its part of the
    specialization key (dtype; ints by value 1 / multiple of 16 / other)."""
    if hasattr(a, "data_ptr"):
        dt = str(a.dtype).replace("torch.", "")
        return ("tensor", tuple(a.shape), tuple(a.stride()), dt), ("T", dt)
    if isinstance(a, bool) or not isinstance(a, int):
        return a, (type(a).__name__, a if isinstance(a, bool) else None)
    return a, ("i", 1 if a == 1 else 16 if a % 16 == 0 else 0)


def precompile_all(ctx, rows):
    tasks, seen = [], set()
    for row in rows:
        if row.family not in ("matmul", "attn"):
            continue
        try:
            data = BUILDERS[row.family](ctx, **row.params)
            fname = TUNED[data.kernel][0]
            for side in ctx.sides:
                kern = side.kernel(data.kernel)
                for variant in data.variants:
                    _, args, kwargs, _ = data.launch(kern, variant)
                    specs = [_spec_arg(a) for a in args]
                    configs = kern.configs
                    if data.kernel == "attn":
                        configs = K.attn_prune_invalid_configs(configs, {},
                                                               **kwargs)
                    for c in configs:
                        kw = dict(kwargs, **c.all_kwargs())
                        key = (side.label, fname, tuple(k for _, k in specs),
                               tuple(sorted((k, repr(v))
                                            for k, v in kw.items())))
                        if key in seen:
                            continue
                        seen.add(key)
                        tasks.append((side.label, fname, ctx.device,
                                      [a for a, _ in specs], kw))
            del data
        except Exception as e:  # noqa: BLE001 - the row will report it
            print("  (precompile: %s: %s)" % (row.name, first_line(e)),
                  flush=True)
    shared_inputs(ctx, None, lambda: None)
    if not tasks:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    t0 = time.time()
    print("compiling %d kernels ahead in %d processes ..."
          % (len(tasks), ctx.jobs), flush=True)
    failed = 0
    errors = {}
    try:
        with ProcessPoolExecutor(
                max_workers=ctx.jobs, initializer=_worker_init,
                mp_context=multiprocessing.get_context("spawn")) as pool:
            for task, err in zip(tasks, pool.map(_worker_compile, tasks,
                                                 chunksize=2)):
                if err is not None:
                    failed += 1
                    errors.setdefault((task[0], task[1], err), 0)
                    errors[(task[0], task[1], err)] += 1
    except Exception as e:  # noqa: BLE001 - then compile as the rows run
        print("  (precompile stopped: %s)" % first_line(e), flush=True)
    print("compiled ahead in %.0f s (%d not compiled; their rows compile "
          "them and report errors)" % (time.time() - t0, failed), flush=True)
    for (side, fname, err), n in list(errors.items())[:8]:
        print("  %s %s (%d configs): %s" % (side, fname, n, err), flush=True)


def distinct_variants(side, kern, data):
    """The row's variants, less those whose code is the same as an earlier
    one's on this side (where tritium does not split a loop, its
    warp_specialize variants are the same kernel: timing it twice would
    only give it a best-of-two)."""
    if side.label != "tritium" or len(data.variants) < 2:
        return data.variants
    try:
        cfg = kern.configs[0]
        kept, seen = [], []
        for variant in data.variants:
            grid, args, kwargs, _ = data.launch(kern, variant)
            ptx = kern.fn.warmup(*args, grid=grid,
                                 **dict(kwargs, **cfg.all_kwargs())).asm["ptx"]
            if not ptx:
                raise RuntimeError("no PTX for %s" % (variant,))
            if ptx in seen:
                print("    tritium: %s compiles to the same code as an "
                      "earlier variant; timed once" % (variant,), flush=True)
                continue
            seen.append(ptx)
            kept.append(variant)
        return kept
    except Exception as e:  # noqa: BLE001 - then time every variant
        print("    (tritium variant comparison failed: %s)" % first_line(e),
              flush=True)
        return data.variants


def bench_side(ctx, side, data):
    """(ms, output, description, launch) of the side's fastest variant."""
    kern = side.kernel(data.kernel)
    best = None
    errors = []
    last = None
    variants = distinct_variants(side, kern, data)
    for variant in variants:
        try:
            grid, args, kwargs, out = data.launch(kern, variant)

            def fn():
                return kern[grid](*args, **kwargs)
            fn()  # autotunes on a new key
            torch.cuda.synchronize()
            desc = config_of(kern)
            ms = ctx.do_bench(fn)
        except Exception as e:  # noqa: BLE001 - report and go on
            last = e
            errors.append("%s%s" % (
                ("%s: " % variant) if len(variants) > 1 else "",
                first_line(e)))
            continue
        extra = getattr(data.launch, "info", {}).get(id(kern))
        if extra:
            desc = (desc + " " + extra).strip()
        if len(variants) > 1:
            desc = (desc + " " + " ".join("%s=%s" % kv
                                          for kv in variant.items())).strip()
        if best is None or ms < best[0]:
            best = (ms, out, desc, fn)
    if best is None:
        if len(errors) == 1:
            raise last
        raise RuntimeError("; ".join(errors))
    for e in errors:
        print("    %s: variant failed: %s" % (side.label, e), flush=True)
    return best


def launch_us(fn, n=50):
    """Host microseconds per call of fn, enqueue only (the GPU runs behind)."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def run_row_gpu(ctx, row, table, failures):
    print("%s" % row.name, flush=True)
    data = BUILDERS[row.family](ctx, **row.params)
    if data.notes:
        print("    (%s)" % data.notes, flush=True)
    res = {}
    launches = {}
    for side in ctx.sides:
        t0 = time.time()
        try:
            ms, out, desc, fn = bench_side(ctx, side, data)
            res[side.label] = (ms, out)
            launches[side.label] = (fn, [ms])
            print("    %-8s %9.4f ms  %8.2f %s  [%s] (%.1f s, %.0f us to "
                  "launch)" % (side.label, ms,
                               throughput(data.work, ms, data.unit),
                               data.unit, desc, time.time() - t0,
                               launch_us(fn)), flush=True)
        except Exception as e:  # noqa: BLE001
            res[side.label] = None
            failures.append((row.name, side.label, first_line(e)))
            print("    %-8s FAILED %s" % (side.label, first_line(e)),
                  flush=True)
    if ctx.rounds > 1 and len(launches) > 1:
        # Each side again, alternating, so that neither is always timed
        # later in the row (the clocks drift as the card heats); each side's
        # figure is the median of its rounds.
        order = list(launches)
        for r in range(1, ctx.rounds):
            for label in (order if r % 2 else order[::-1]):
                fn, times = launches[label]
                times.append(ctx.do_bench(fn))
        for label, (fn, times) in launches.items():
            ms = statistics.median(times)
            res[label] = (ms, res[label][1])
            print("    %-8s %9.4f ms  %8.2f %s  (median of rounds: %s)"
                  % (label, ms, throughput(data.work, ms, data.unit),
                     data.unit, " ".join("%.4f" % t for t in times)),
                  flush=True)
    base_ms = None
    base_out = None
    if data.baseline is None:
        print("    baseline: none", flush=True)
    else:
        key, fn = data.baseline
        if key in ctx.baseline_cache:
            base_ms, base_out = ctx.baseline_cache[key]
        else:
            try:
                base_out = fn()
                torch.cuda.synchronize()
                base_ms = ctx.do_bench(fn)
            except Exception as e:  # noqa: BLE001
                failures.append((row.name, "baseline", first_line(e)))
                print("    baseline FAILED %s" % first_line(e), flush=True)
                base_ms = base_out = None
            ctx.baseline_cache[key] = (base_ms, base_out)
        if base_ms is not None:
            print("    baseline %9.4f ms  %8.2f %s" % (
                base_ms, throughput(data.work, base_ms, data.unit),
                data.unit), flush=True)
    tri, us = res.get("Triton"), res.get("tritium")
    diff = None
    if tri and us:
        try:
            diff = reldiff(us[1], tri[1])
        except Exception as e:  # noqa: BLE001
            print("    rel diff FAILED %s" % first_line(e), flush=True)
    checks = []
    if base_out is not None:
        for label, r in (("Triton", tri), ("tritium", us)):
            if r:
                try:
                    checks.append("%s vs baseline %.1e"
                                  % (label, reldiff(r[1], base_out)))
                except Exception:  # noqa: BLE001
                    pass
    if diff is not None or checks:
        print("    %s" % ", ".join(
            (["tritium vs Triton %.1e" % diff] if diff is not None else [])
            + checks), flush=True)
    table.append((row.name, tri[0] if tri else None, us[0] if us else None,
                  base_ms, data.work, data.unit, diff))
    del data, res
    torch.cuda.empty_cache()


def fmt(x, spec):
    return "-" if x is None else spec % x


def print_table(table):
    print()
    print("| row | Triton | tritium | unit | tritium/Triton | baseline | "
          "tritium/baseline | rel diff |")
    print("|---|---|---|---|---|---|---|---|")
    for name, t_tri, t_us, t_base, work, unit, diff in table:
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name,
            fmt(throughput(work, t_tri, unit), "%.2f") if t_tri else "ERR",
            fmt(throughput(work, t_us, unit), "%.2f") if t_us else "ERR",
            unit,
            fmt(t_tri / t_us if t_tri and t_us else None, "%.3f"),
            fmt(throughput(work, t_base, unit), "%.2f"),
            fmt(t_base / t_us if t_base and t_us else None, "%.3f"),
            fmt(diff, "%.1e")))
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# --cpu-check.
# ---------------------------------------------------------------------------

def run_row_cpu(ctx, row, table):
    data = BUILDERS[row.family](ctx, **row.params)
    side = ctx.sides[0]
    t0 = time.time()
    try:
        kern = side.kernel(data.kernel)
        ref = data.reference()
        worst = 0.0
        for variant in data.variants:
            grid, args, kwargs, out = data.launch(kern, variant)
            kern[grid](*args, **kwargs)
            worst = max(worst, reldiff(out, ref))
        ok = worst <= data.tol
        status = "ok" if ok else "FAIL (tolerance %.0e)" % data.tol
        detail = config_of(kern)
        table.append((row.name, "%.1e" % worst, status))
        print("%-48s rel diff %.1e  %s  [%s] (%.1f s)" % (
            row.name, worst, status, detail, time.time() - t0), flush=True)
        return ok
    except Exception as e:  # noqa: BLE001
        table.append((row.name, "-", "ERROR " + first_line(e)))
        print("%-48s ERROR %s" % (row.name, first_line(e)), flush=True)
        return False


# ---------------------------------------------------------------------------

class Ctx:
    pass


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR",
                    help="run rows whose name contains SUBSTR (repeatable)")
    ap.add_argument("--list", action="store_true",
                    help="print the row names and exit")
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 16),
                    help="processes compiling every autotuned config of both "
                         "sides before the rows run (1: off; default "
                         "%(default)s)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="times each row's sides in turn this many times and "
                         "takes each side's median (default %(default)s)")
    ap.add_argument("--cpu-check", action="store_true",
                    help="no GPU: each tritium kernel once on the "
                         "interpreter at tiny sizes, against torch float64")
    return ap.parse_args(argv)


def main(argv=None):
    global torch, tritium, triton, K
    args = parse_args(argv)
    rows = make_rows(args.quick, args.cpu_check)
    if args.only:
        subs = [s.lower() for s in args.only]
        rows = [r for r in rows if any(s in r.name.lower() for s in subs)]
    if args.list:
        for r in rows:
            print(r.name)
        return 0
    if not rows:
        print("no rows match %s" % args.only)
        return 1

    ctx = Ctx()
    ctx.cpu = args.cpu_check
    ctx.rounds = args.rounds
    ctx.jobs = 1 if ctx.cpu else args.jobs
    ctx.baseline_cache = {}
    ctx.shared_key = ctx.shared_val = None
    if ctx.cpu:
        # The kernels' `import triton` must find tritium's compatibility
        # package, never an installed Triton.
        for p in (os.path.join(ROOT, "python"),
                  os.path.join(ROOT, "python", "compat")):
            if p in sys.path:
                sys.path.remove(p)
            sys.path.insert(0, p)
        for name in [m for m in sys.modules
                     if m == "triton" or m.startswith("triton.")]:
            del sys.modules[name]
    import torch as _torch
    import tritium as _tritium
    torch, tritium = _torch, _tritium
    import bench_kernels
    K = bench_kernels
    gpu_bench_rows.bind(torch, K)
    torch.manual_seed(0)

    if ctx.cpu:
        import triton as compat
        assert getattr(compat, "__version__", None) == tritium.__version__, \
            "--cpu-check: `triton` is not tritium's compatibility package"
        assert type(K.matmul_kernel).__module__.startswith("tritium"), \
            type(K.matmul_kernel)
        ctx.device = "cpu"
        ctx.num_sms = 4
        ctx.cc_major = None
        # Stand-in device properties, small enough that softmax's grid is
        # persistent (4 programs looping over the rows).
        ctx.props = {"multiprocessor_count": 4, "max_num_regs": 256,
                     "max_shared_mem": 232448, "warpSize": 32}

        def tune_bench(kernel_call, quantiles):
            t = time.perf_counter()
            kernel_call()
            ms = (time.perf_counter() - t) * 1e3
            return [ms, ms, ms]
        ctx.tune_bench = tune_bench
        ctx.sides = [Side("tritium", ctx)]
        print("--cpu-check: tritium %s (%s) on the interpreter, kernels "
              "from %s" % (tritium.__version__,
                           os.path.dirname(tritium.__file__), K.__file__),
              flush=True)
        table = []
        ok = all([run_row_cpu(ctx, r, table) for r in rows])
        print()
        print("| row | rel diff vs float64 | status |")
        print("|---|---|---|")
        for r in table:
            print("| %s | %s | %s |" % r)
        print("\n%d rows, %s" % (len(table), "all ok" if ok else "FAILURES"))
        return 0 if ok else 1

    import triton as _triton
    import triton.testing  # noqa: F401
    triton = _triton
    if not torch.cuda.is_available():
        print("no CUDA device (use --cpu-check without a GPU)")
        return 1
    ctx.device = "cuda"
    dev_props = torch.cuda.get_device_properties(0)
    ctx.num_sms = dev_props.multi_processor_count
    ctx.cc_major = torch.cuda.get_device_capability()[0]
    ctx.props = triton.runtime.driver.active.utils.get_device_properties(
        torch.cuda.current_device())

    def tune_bench(kernel_call, quantiles):
        return triton.testing.do_bench(kernel_call, warmup=TUNE_WARMUP_MS,
                                       rep=TUNE_REP_MS, quantiles=quantiles)

    def do_bench(fn):
        return triton.testing.do_bench(fn, warmup=BENCH_WARMUP_MS,
                                       rep=BENCH_REP_MS, return_mode="median")
    ctx.tune_bench = tune_bench
    ctx.do_bench = do_bench

    # In-kernel tensor descriptors need global scratch under Triton.
    def alloc_fn(size, alignment, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")
    triton.set_allocator(alloc_fn)

    ctx.sides = [Side("Triton", ctx), Side("tritium", ctx)]
    print("device %s (sm_%d%d, %d SMs); torch %s, Triton %s, tritium %s"
          % (dev_props.name, ctx.cc_major,
             torch.cuda.get_device_capability()[1], ctx.num_sms,
             torch.__version__, triton.__version__, tritium.__version__),
          flush=True)

    # tritium must run on the GPU, not fall back to its interpreter.
    probe = tritium.jit(K.softmax_kernel.fn)
    xp = torch.ones((1, 16), device="cuda")
    try:
        target = probe.warmup(xp, xp, 16, 16, 1, 16, BLOCK_SIZE=16,
                              NUM_STAGES=1, grid=(1,)).metadata.target
    except Exception as e:  # noqa: BLE001 - its rows will fail and say why
        print("tritium probe failed: %s" % first_line(e), flush=True)
        target = "cuda"
    if target != "cuda":
        print("tritium compiles for %r, not the GPU: is libcuda loadable? "
              "(TRITIUM_INTERPRET/TRITON_INTERPRET set?)" % target)
        return 1

    start = time.time()
    if ctx.jobs > 1:
        precompile_all(ctx, rows)
    table, failures = [], []
    for row in rows:
        try:
            run_row_gpu(ctx, row, table, failures)
        except Exception as e:  # noqa: BLE001 - inputs, baseline, ...
            failures.append((row.name, "row", first_line(e)))
            print("    row FAILED %s" % first_line(e), flush=True)
            table.append((row.name, None, None, None, 1.0, "-", None))
    print_table(table)
    if failures:
        print("\nFailures:")
        for name, who, err in failures:
            print("- %s [%s]: %s" % (name, who, err))
    print("\n%d rows in %.0f s" % (len(table), time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Cold compile to cubin, tritium against Triton, on the same machine.

For each benchmark kernel (bench/bench_kernels.py, the configurations
bench/gpu_bench.py picks on an H100), in a fresh process each time:
  tritium  ``tritium compile ... --target cuda:90 --emit cubin --time-stages``,
           the whole process (start-up included), with its stages;
  Triton   ``triton.compile(ASTSource(...), target=GPUTarget("cuda", 90, 32))``
           with an empty cache, the call alone (imports excluded).
  tritium in-process: the same ``triton.compile(...)`` call as Triton's,
           through tritium's ``triton`` package (python/compat) with an
           empty kernel cache, the call alone (imports and loading the
           library excluded): what a Python program pays per new kernel.
Both cross-compile: no GPU is needed. Prints the median of ``--repeat`` runs
per kernel, tritium's stages, and tritium / Triton for both tritium
figures; without Triton installed, tritium's side alone.

Run: ``python3 bench/compile_time.py [--tritium build/bin/tritium]``.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS_FILE = os.path.join(HERE, "bench_kernels.py")

# name -> (kernel, [(parameter, signature entry)], num_warps, num_stages).
# An entry is a type ("*fp16:16", "i32:16", "fp32", ":16" = divisible by
# 16) or a constexpr value.
MATMUL_PARAMS = [
    ("a_ptr", "*fp16:16"), ("b_ptr", "*fp16:16"), ("c_ptr", "*fp16:16"),
    ("M", "i32:16"), ("N", "i32:16"), ("K", "i32:16"),
    ("stride_am", "i32:16"), ("stride_ak", 1), ("stride_bk", 1),
    ("stride_bn", "i32:16"), ("stride_cm", "i32:16"), ("stride_cn", 1),
    ("BLOCK_SIZE_M", 128), ("BLOCK_SIZE_N", 256), ("BLOCK_SIZE_K", 64),
    ("GROUP_SIZE_M", 8)]
KERNELS = {
    "softmax fp32": ("softmax_kernel", [
        ("output_ptr", "*fp32:16"), ("input_ptr", "*fp32:16"),
        ("input_row_stride", "i32:16"), ("output_row_stride", "i32:16"),
        ("n_rows", "i32:16"), ("n_cols", "i32:16"),
        ("BLOCK_SIZE", 8192), ("NUM_STAGES", 4)], 8, 4),
    "layer norm fp16": ("layer_norm_fwd", [
        ("X", "*fp16:16"), ("Y", "*fp16:16"), ("W", "*fp16:16"),
        ("B", "*fp16:16"), ("Mean", "*fp32:16"), ("Rstd", "*fp32:16"),
        ("stride", "i32:16"), ("N", "i32:16"), ("eps", "fp32"),
        ("BLOCK_SIZE", 8192)], 8, 3),
    "matmul fp16 128x256x64": ("matmul_kernel", MATMUL_PARAMS, 8, 3),
    "matmul persistent fp16": ("matmul_kernel_persistent",
                               MATMUL_PARAMS + [("NUM_SMS", 132)], 8, 3),
    "attention D128": ("attn_fwd", [
        ("sm_scale", "fp32"), ("M", "*fp32:16"), ("Z", "i32"), ("H", "i32"),
        ("q_ptr", "*fp16:16"), ("k_ptr", "*fp16:16"), ("v_ptr", "*fp16:16"),
        ("o_ptr", "*fp16:16"), ("N_CTX", "i32:16"), ("HEAD_DIM", 128),
        ("BLOCK_M", 128), ("BLOCK_N", 128), ("STAGE", 1),
        ("K_TRANSPOSED", False), ("warp_specialize", False)], 8, 3),
}


def tritium_signature(params):
    return ",".join(str(v) if not isinstance(v, str) else v
                    for _, v in params)


def run_tritium(binary, name, repeat):
    kernel, params, warps, stages = KERNELS[name]
    cmd = [binary, "compile", KERNELS_FILE, "--kernel", kernel,
           "--signature", tritium_signature(params), "--target", "cuda:90",
           "--num-warps", str(warps), "--num-stages", str(stages),
           "--emit", "cubin", "--time-stages", "-o", os.devnull]
    walls, stage_runs = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        if p.returncode:
            raise RuntimeError("tritium compile %s failed:\n%s"
                               % (kernel, p.stderr))
        stages = {}
        for line in p.stderr.splitlines():
            parts = line.rsplit(None, 1)
            if len(parts) == 2 and parts[0] not in ("stage", "total"):
                try:
                    stages[parts[0]] = float(parts[1])
                except ValueError:
                    pass
        stage_runs.append(stages)
    med = {k: statistics.median(r.get(k, 0.0) for r in stage_runs)
           for k in stage_runs[0]}
    return statistics.median(walls), med


TRITON_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import triton
if sys.argv[3:] == ["tritium"]:
    import tritium._capi
    tritium._capi.compiler()  # the library loaded before timing
from triton.backends.compiler import GPUTarget
import bench_kernels as K
spec = json.loads(sys.argv[2])
fn = getattr(K, spec["kernel"])
while not hasattr(fn, "arg_names") and hasattr(fn, "fn"):
    fn = fn.fn
sig, cons, attrs = {}, {}, {}
for i, (name, entry) in enumerate(spec["params"]):
    if isinstance(entry, str):
        ty, _, div = entry.partition(":")
        sig[name] = ty
        if div == "16":
            attrs[(i,)] = [["tt.divisibility", 16]]
    else:
        sig[name] = "constexpr"
        cons[name] = entry
src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=cons,
                                attrs=attrs)
t = time.perf_counter()
k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": spec["warps"],
                            "num_stages": spec["stages"]})
assert k.asm["cubin"]
print(time.perf_counter() - t)
"""


def run_triton(name, repeat, tritium_python=None):
    """Triton's compile time, or with `tritium_python` (tritium's python/
    directory) tritium's through the same call."""
    kernel, params, warps, stages = KERNELS[name]
    spec = json.dumps({"kernel": kernel, "params": params, "warps": warps,
                       "stages": stages})
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TRITON_CACHE_DIR=cache, TRITIUM_CACHE_DIR=cache)
            if tritium_python:
                env["PYTHONPATH"] = os.pathsep.join(
                    [os.path.join(tritium_python, "compat"), tritium_python]
                    + [p for p in [os.environ.get("PYTHONPATH")] if p])
            p = subprocess.run([sys.executable, "-c", TRITON_CHILD, HERE, spec]
                               + (["tritium"] if tritium_python else []),
                               capture_output=True, text=True, env=env)
        if p.returncode:
            raise RuntimeError("%s triton.compile %s failed:\n%s"
                               % ("tritium's" if tritium_python else "Triton's",
                                  kernel, p.stderr[-2000:]))
        times.append(float(p.stdout.split()[-1]))
    return statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tritium", default=os.path.join(
        HERE, "..", "build", "bin", "tritium"), help="the tritium binary")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", action="append", default=[],
                    help="kernels whose name contains this (repeatable)")
    args = ap.parse_args(argv)
    try:
        import triton  # noqa: F401
        have_triton = True
    except ImportError:
        have_triton = False
        print("Triton is not installed: tritium's side only "
              "(pip install triton==3.6.0 for the comparison)")
    python_dir = os.path.join(HERE, "..", "python")
    rows = []
    for name in KERNELS:
        if args.only and not any(s in name for s in args.only):
            continue
        wall, stages = run_tritium(args.tritium, name, args.repeat)
        call = run_triton(name, args.repeat, tritium_python=python_dir)
        ref = run_triton(name, args.repeat) if have_triton else None
        rows.append((name, wall, call, stages, ref))
        print("%-24s tritium %.3f s  (%s), in-process %.3f s%s" % (
            name, wall, ", ".join("%s %.3f" % kv for kv in stages.items()), call,
            "  Triton %.3f s" % ref if ref is not None else ""), flush=True)
    print()
    print("| kernel | tritium compile s | tritium in-process s | Triton s "
          "| compile / Triton | in-process / Triton |")
    print("|---|---|---|---|---|---|")
    for name, wall, call, _, ref in rows:
        print("| %s | %.3f | %.3f | %s | %s | %s |" % (
            name, wall, call, "%.3f" % ref if ref is not None else "-",
            "%.2f" % (wall / ref) if ref else "-",
            "%.2f" % (call / ref) if ref else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Autotuning's compile phase: one compile per config, serial or parallel.

The matmul of tutorial 03 (bench/bench_kernels.py, fp16, 4096^3 on CUDA
tensors) autotuned over the tutorial's 16 configs, each benchmark replaced
by a single launch, so that the first call's time is the configs' compiles
plus one launch each. Every run is a fresh process with an empty kernel
cache:
  tritium, TRITIUM_COMPILE_THREADS=1   the configs compiled one at a time
  tritium, TRITIUM_COMPILE_THREADS=0   compiled together, one thread per core
  Triton 3.6                           its own autotuner (one at a time)
Needs a CUDA GPU, torch, and Triton for its row. Prints the median of
``--repeat`` runs and the ratios.

Run: ``PYTHONPATH=python:bench python3 bench/autotune_compile.py``.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import torch
import triton
import bench_kernels as K

def one_launch(fn, quantiles=None):
    fn()
    return [1.0, 1.0, 1.0] if quantiles else 1.0

configs = K.matmul_configs_03()
kernel = triton.autotune(configs, key=["M", "N", "K"], do_bench=one_launch)(
    K.matmul_kernel)
M = N = K_ = 4096
a = torch.randn((M, K_), device="cuda", dtype=torch.float16)
b = torch.randn((K_, N), device="cuda", dtype=torch.float16)
c = torch.empty((M, N), device="cuda", dtype=torch.float16)
grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) *
                     triton.cdiv(N, META["BLOCK_SIZE_N"]),)
torch.cuda.synchronize()
t = time.perf_counter()
kernel[grid](a, b, c, M, N, K_, a.stride(0), a.stride(1), b.stride(0),
             b.stride(1), c.stride(0), c.stride(1))
torch.cuda.synchronize()
print(time.perf_counter() - t, len(configs))
"""


def run(python_path, threads, repeat):
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TRITON_CACHE_DIR=cache, TRITIUM_CACHE_DIR=cache,
                       PYTHONPATH=python_path)
            if threads is not None:
                env["TRITIUM_COMPILE_THREADS"] = str(threads)
            p = subprocess.run([sys.executable, "-c", CHILD, HERE],
                               capture_output=True, text=True, env=env)
        if p.returncode:
            raise RuntimeError("autotune run failed:\n" + p.stderr[-3000:])
        times.append(float(p.stdout.split()[-2]))
    return statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    tritium_path = os.pathsep.join([os.path.join(ROOT, "python", "compat"),
                                    os.path.join(ROOT, "python")])
    rows = [("tritium, one at a time", run(tritium_path, 1, args.repeat)),
            ("tritium, together (%d cores)" % os.cpu_count(),
             run(tritium_path, 0, args.repeat))]
    try:
        import triton  # noqa: F401
        rows.append(("Triton 3.6", run("", None, args.repeat)))
    except ImportError:
        print("Triton is not installed: tritium's rows only")
    print("| autotuning 16 matmul configs, first call | s | vs tritium one at a time |")
    print("|---|---|---|")
    for name, t in rows:
        print("| %s | %.2f | %.2f |" % (name, t, t / rows[0][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

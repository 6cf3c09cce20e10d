"""Compiles every conformance kernel for NVIDIA GPUs, as its cases specialize
it, with no GPU: each case runs on the interpreter, and every
specialization its launches compiled is compiled again for sm_80 and sm_90
through ptxas (the GPU machine runs sm_90 only, so this is where sm_80's
code meets ptxas). Each cubin must be a CUDA ELF holding the kernel. Prints
a line per target (specializations compiled, kernels, those that spill)
and every failure; exits 1 on any, 2 when there is no ptxas.

Run: ``PYTHONPATH=python:python/compat:. python3 -m conformance.cuda_compile
[KERNELS...] [--targets 80,90]``.
"""

import argparse
import os
import shutil
import struct
import sys

from . import harness
from .amd_compile import compile_for, specializations

TARGETS = (80, 90)


def find_ptxas():
    for path in (os.environ.get("TRITIUM_PTXAS"), shutil.which("ptxas"),
                 "/usr/local/cuda/bin/ptxas"):
        if path and os.path.isfile(path):
            return path
    return None


def check_cubin(data, name):
    """None, or why `data` is not a CUDA ELF holding kernel `name`."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        return "not an ELF file"
    if struct.unpack_from("<H", data, 18)[0] != 190:  # EM_CUDA
        return "machine is not EM_CUDA"
    if name.encode() not in data:
        return "no symbol %s" % name
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--targets", default=",".join(str(t) for t in TARGETS))
    ap.add_argument("--seed", type=int, default=harness.DEFAULT_SEED)
    args = ap.parse_args(argv)
    if not find_ptxas():
        print("cuda_compile: no ptxas (TRITIUM_PTXAS, PATH or /usr/local/cuda/bin)")
        return 2
    targets = [int(t) for t in args.targets.split(",") if t]
    specs, failures = specializations(args.kernels, args.seed)
    for cc in targets:
        done, names, spills = 0, set(), set()
        for fn, kernel, sig, opts in specs:
            what = "sm_%d %s [%s]" % (cc, fn.__name__, sig)
            try:
                compiled = compile_for(fn, kernel, sig, opts, cc)
                asm = compiled.asm
            except Exception as e:  # noqa: BLE001 - reported
                failures.append((what, ("%s: %s" % (type(e).__name__, e)).splitlines()[0]))
                continue
            why = check_cubin(asm.get("cubin", b""), fn.__name__)
            if why:
                failures.append((what, why))
                continue
            if getattr(compiled.metadata, "n_spills", 0):
                spills.add(fn.__name__)
            done += 1
            names.add(fn.__name__)
        print("sm_%d: %d specializations of %d kernels compiled through ptxas, %d spill%s"
              % (cc, done, len(names), len(spills),
                 (" (" + ", ".join(sorted(spills)) + ")") if spills else ""))
    for what, why in failures:
        print("FAIL %s: %s" % (what, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

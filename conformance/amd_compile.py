"""Compiles every conformance kernel for AMD GPUs, as its cases specialize it,
with no GPU: each case runs on the interpreter, and every specialization its
launches compiled is cross-compiled for gfx90a, gfx942 and gfx950 through
``triton.compile``'s path (AMDGCN, and an hsaco linked by ld.lld). Each
hsaco must be an AMDGPU HSA ELF code object holding the kernel and its
descriptor. A specialization using what the AMD back end does not lower
yet must get the located error that says so ("... is not supported on
hip:gfx942 yet"): those are counted by op. Prints a line per target
(specializations compiled, kernels, those that need scratch memory; those
not supported yet, by op) and every other failure; exits 1 on any.

Run: ``PYTHONPATH=python:python/compat:. python3 -m conformance.amd_compile
[KERNELS...] [--targets gfx90a,gfx942,gfx950]``.
"""

import argparse
import re
import struct
import sys

from . import harness
from .executors import Interp

TARGETS = ("gfx90a", "gfx942", "gfx950")


def check_hsaco(data, name):
    """None, or why `data` is not an AMDGPU code object holding `name`."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        return "not an ELF file"
    if data[7] != 64:  # ELFOSABI_AMDGPU_HSA
        return "OS/ABI %d is not AMDGPU HSA" % data[7]
    if struct.unpack_from("<H", data, 18)[0] != 224:  # EM_AMDGPU
        return "machine is not EM_AMDGPU"
    if (name + ".kd").encode() not in data:
        return "no kernel descriptor %s.kd" % name
    return None


def record_launches(out):
    """Patches kernel launches to note (jit function, compiled kernel,
    signature, launch options) in `out`; returns the undo."""
    import importlib
    tjit = importlib.import_module("tritium.jit")
    original = tjit.JITFunction.__getitem__

    def getitem(self, grid):
        launch = original(self, grid)

        def wrapped(*args, **kwargs):
            # warmup: the specialization the launch takes, with its signature.
            w = self.warmup(*args, grid=grid, **kwargs)
            opts = {k: kwargs[k] for k in ("num_warps", "num_stages") if k in kwargs}
            out.append((self, w._kernel, w.metadata.signature, opts))
            return launch(*args, **kwargs)
        return wrapped
    tjit.JITFunction.__getitem__ = getitem
    return lambda: setattr(tjit.JITFunction, "__getitem__", original)


def specializations(kernels, seed):
    """([(jit function, compiled kernel, signature, launch options)], one per
    distinct specialization the conformance cases of `kernels` (all when
    empty) launch on the interpreter, and [(what, why)] for the kernel
    files that do not load."""
    manifests, errors = harness.select(kernels)
    launches = []
    undo = record_launches(launches)
    executor = Interp()
    try:
        for m in manifests:
            for index in range(m.base_cases):
                harness.run_case(m, index, seed, executor)
    finally:
        undo()
    unique = {}
    for fn, kernel, sig, opts in launches:
        unique.setdefault((id(kernel), sig, tuple(sorted(opts.items()))),
                          (fn, kernel, sig, opts))
    failures = [("load %s" % path, text.splitlines()[-1] if text else "")
                for path, text in errors]
    return list(unique.values()), failures


def compile_for(fn, kernel, sig, opts, target):
    """The CompiledKernel of one specialization for `target` (an AMD arch
    name, or a CUDA compute capability), with its launch's options."""
    from tritium import compiler as tcompiler
    launch_opts = fn._options({"num_warps": opts.get("num_warps", 4),
                               "num_stages": opts.get("num_stages", 3),
                               "num_ctas": 1, "maxnreg": None,
                               "enable_fp_fusion": None})
    return tcompiler._compile_signature(fn, kernel, sig, launch_opts, target, dict(opts))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--seed", type=int, default=harness.DEFAULT_SEED)
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    specs, failures = specializations(args.kernels, args.seed)
    for target in targets:
        done, names, scratch, unsupported = 0, set(), set(), {}
        for fn, kernel, sig, opts in specs:
            what = "%s %s [%s]" % (target, fn.__name__, sig)
            try:
                compiled = compile_for(fn, kernel, sig, opts, target)
                asm = compiled.asm
            except Exception as e:  # noqa: BLE001 - reported
                text = str(e)
                found = re.search(r":\d+:\d+: error: .* is not supported on hip:%s yet"
                                  r".* \(in '([\w.]+)'\)" % target, text)
                if found:
                    unsupported[found.group(1)] = unsupported.get(found.group(1), 0) + 1
                else:
                    failures.append((what, ("%s: %s" % (type(e).__name__, e)).splitlines()[0]))
                continue
            why = check_hsaco(asm.get("hsaco", b""), fn.__name__)
            if why:
                failures.append((what, why))
                continue
            size = re.search(r"\.private_segment_fixed_size:\s+(\d+)", asm.get("amdgcn", ""))
            if size and int(size.group(1)):
                scratch.add(fn.__name__)
            done += 1
            names.add(fn.__name__)
        print("%s: %d specializations of %d kernels compiled and linked, %d use scratch%s; "
              "%d not supported yet%s"
              % (target, done, len(names), len(scratch),
                 (" (" + ", ".join(sorted(scratch)) + ")") if scratch else "",
                 sum(unsupported.values()),
                 (" (" + ", ".join("%s %d" % kv for kv in sorted(unsupported.items())) + ")")
                 if unsupported else ""))
    for what, why in failures:
        print("FAIL %s: %s" % (what, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Writes the fuzz targets' seed corpora from the repository (examples,
conformance kernels, lit tests) into OUT/<target>/, one file per input.

Kernel seeds for parse/tile/gpu: every Python file with an @triton.jit
kernel, and for each `--kernel K --signature "S"` a lit RUN line gives,
that file with `#kernel: K` and `#sig: S` lines in front (the directives
FuzzCompile.cpp reads). tile-ir: the .mlir tests, split at `// -----`.
npy: small arrays of every dtype the reader takes, written here by hand.
cache: metadata.json texts of the entry fuzz-cache writes, valid and
damaged. run: launches of FuzzRun.cpp's kernel in a record's launch.args
form, with trace/pid/seed lines."""

import hashlib
import json
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_files():
    for top in ("examples", "conformance", "tests"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith(".py"):
                    p = os.path.join(d, f)
                    with open(p, encoding="utf-8", errors="replace") as fh:
                        text = fh.read()
                    if "jit" in text:
                        yield p, text


RUN = re.compile(r'--kernel[= ](\w+).*?--signature[= ]"([^"]*)"')


def kernel_seeds():
    seeds = []
    for path, text in kernel_files():
        seeds.append(text)
        for k, sig in RUN.findall(text.replace("\\\n# RUN:", " ")):
            seeds.append("#kernel: %s\n#sig: %s\n%s" % (k, sig.replace('\\"', '"'), text))
    return seeds


def mlir_seeds():
    seeds = []
    for top in ("tests/ir", "tests/codegen"):
        d = os.path.join(ROOT, top)
        for f in sorted(os.listdir(d)):
            if f.endswith(".mlir"):
                with open(os.path.join(d, f)) as fh:
                    seeds.extend(s for s in fh.read().split("// -----") if s.strip())
    return seeds


def npy(descr, shape, payload, version=1):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%s)" % "".join("%d," % n for n in shape) if shape else "()")
    size_len = 2 if version == 1 else 4
    pad = (-(6 + 2 + size_len + len(header) + 1)) % 64
    header += " " * pad + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode() + payload


def npy_seeds():
    return [npy("<f4", (4,), struct.pack("<4f", 1, 2, 3, 4)),
            npy("<f2", (2, 2), b"\x00\x3c" * 4),
            npy("|b1", (3,), b"\x01\x00\x01"),
            npy("<i8", (2,), struct.pack("<2q", -1, 7), version=2),
            npy("|u1", (0,), b""),
            npy("<f8", (), struct.pack("<d", 2.5), version=3),
            npy("<u2", (2, 1, 2), b"\x01\x00" * 4)]


def cache_seeds():
    """metadata.json of the entry fuzz-cache writes: kernel.cubin is the 11
    bytes "cubin-bytes"."""
    cubin = b"cubin-bytes"
    art = {"kernel.cubin": {"size": len(cubin),
                            "sha256": hashlib.sha256(cubin).hexdigest()}}
    key = "fuzzentry0123456789abcdef"
    good = {"format": 1, "key": key, "artifacts": art,
            "metadata": {"name": "k", "num_warps": "4", "shared": "1024",
                         "global_scratch": "0", "arch": "sm_90a"}}
    return [json.dumps(good),
            json.dumps(dict(good, metadata={"num_warps": "x", "shared": "-1"})),
            json.dumps(dict(good, artifacts={"kernel.ptx": {"size": 3, "sha256": "0"}})),
            json.dumps(dict(good, artifacts={"../x": {"size": 1, "sha256": "0"}})),
            json.dumps(dict(good, format=2)),
            json.dumps(good)[:40]]


def run_seeds():
    """Launches of the kernel FuzzRun.cpp writes, k(x_ptr, y_ptr, out_ptr, n,
    scale, flag, BLOCK, MODE), as launch.args lines."""
    base = ["kernel k", "grid 2", "num-warps 4", "constexpr BLOCK=64", "constexpr MODE=1",
            "arg x_ptr=randn:f32[128]", "arg y_ptr=randint:i32[128]",
            "arg out_ptr=zeros:f32[128]", "arg n=100", "arg scale=0.5", "arg flag=True"]
    variants = [  # (lines dropped, lines added)
        ([], []),
        ([], ["trace 15", "pid 1"]),
        ([], ["trace kernel.py:17:acc", "seed 7"]),
        (["arg x_ptr="], ["arg-file x_ptr=x.npy"]),
        ([], ["debug"]),
    ]
    seeds = []
    for drop, add in variants:
        lines = [l for l in base if not any(l.startswith(d) for d in drop)] + add
        seeds.append("\n".join(lines) + "\n")
    seeds.append("kernel k\ngrid 4,1,1\nconstexpr BLOCK=32\nconstexpr MODE=0\n"
                 "arg x_ptr=rand:bf16[4,32]\narg y_ptr=ones:f16[128]\n"
                 "arg out_ptr=empty:f32[128]\narg n=1\narg scale=1e-5\narg flag=False\n")
    seeds.append("kernel k\ngrid 1\nconstexpr BLOCK=16\nconstexpr MODE=1\n"
                 "arg x_ptr=zeros:fp8e5[16]\narg y_ptr=randint:u8[16]\n"
                 "arg out_ptr=zeros:f64[16]\narg n=0x10\narg scale=inf\narg flag=1\n")
    return seeds


def main(out):
    groups = {"parse": kernel_seeds(), "tile-ir": mlir_seeds(), "npy": npy_seeds(),
              "cache": cache_seeds(), "run": run_seeds()}
    groups["tile"] = groups["gpu"] = groups["parse"]
    for target, seeds in groups.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for i, s in enumerate(seeds):
            with open(os.path.join(d, "seed-%04d" % i), "wb") as fh:
                fh.write(s if isinstance(s, bytes) else s.encode())
        print("seeds: %s: %d" % (target, len(seeds)))


if __name__ == "__main__":
    main(sys.argv[1])

"""tritium's AMD code against Triton's: MFMA use, registers, LDS, occupancy.

For the fp16 matmul (bench_kernels.matmul_kernel, and with the target's
fp8 operands on gfx942 and gfx950) in tile configurations of
the kind Triton's AMD autotuning tries, and the attention forward pass
(bench_kernels.attn_fwd, not causal, HEAD_DIM 64 and 128), each is compiled
for gfx942 (``--arch gfx90a`` or ``gfx950`` for the others) with no GPU:
  tritium  ``tritium compile ... --target hip:ARCH --emit amdgcn --report``;
  Triton   ``triton.compile(ASTSource(...), target=GPUTarget("hip", ARCH,
           64))`` in a subprocess of this Python (which must have Triton).
Both assemblies are read the same way:
  MFMA/iter  v_mfma_* instructions in the main loop's body. The loop is
             found by its backward branch: a branch (s_branch or
             s_cbranch_*) to a .LBB label that appears earlier in the text
             closes a loop whose body runs from that label to the last such
             branch. Of all loops, the one holding the most v_mfma is taken
             (the innermost on a tie). One iteration is one BLOCK_K step of
             the matmul, one BLOCK_N block of keys in attention (both of
             its products). Counts compare directly only when both sides
             use the same instruction, so the instructions are listed.
  MFMA       every v_mfma_* in the kernel (prologue and epilogue of a
             pipelined loop included).
  VGPR       architectural VGPRs: 1 + the highest v register the code
             names (tritium's assembly has no ``; NumVgprs`` comment).
  AGPR       accumulation registers, the code object's .agpr_count.
  SGPR       .sgpr_count.
  spills     .vgpr_spill_count + .sgpr_spill_count; scratch is
             .private_segment_fixed_size (bytes per lane).
  LDS        static (.group_segment_fixed_size) plus dynamic bytes: the
             kernel's metadata ``shared`` for Triton, the dynamic LDS that
             ``--report`` prints for tritium.
  occupancy  waves per SIMD (at most 8) that fit by registers and by LDS:
             512 / .vgpr_count rounded up to 8 (.vgpr_count holds VGPRs and
             AGPRs together: one register file on gfx90a and later), and
             the workgroups whose LDS fits in a CU's 64 KiB (160 KiB on
             gfx950), num_warps waves each, over its 4 SIMDs. (SGPRs never
             limit these kernels.)
Each cell is ``tritium / Triton (ratio)``. A configuration one side cannot
compile shows that side's error instead. Prints measured facts and asserts
nothing.

Run: ``python3 bench/amd_compare.py [--arch gfx942] [--tritium
build/bin/tritium] [--only matmul] [--keep DIR]`` with a Python that has
Triton (``pip install triton==3.6.0``).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS_FILE = os.path.join(HERE, "bench_kernels.py")


def matmul(m, n, k, warps, stages=2, group=8, dtype="fp16"):
    """dtype "fp8": the target's native fp8 e4m3 (fp8e4b8 on gfx942,
    fp8e4nv on gfx950; no row on gfx90a), with fp16 results."""
    params = [
        ("a_ptr", "*%s:16" % dtype), ("b_ptr", "*%s:16" % dtype), ("c_ptr", "*fp16:16"),
        ("M", "i32:16"), ("N", "i32:16"), ("K", "i32:16"),
        ("stride_am", "i32:16"), ("stride_ak", 1), ("stride_bk", 1),
        ("stride_bn", "i32:16"), ("stride_cm", "i32:16"), ("stride_cn", 1),
        ("BLOCK_SIZE_M", m), ("BLOCK_SIZE_N", n), ("BLOCK_SIZE_K", k),
        ("GROUP_SIZE_M", group)]
    return ("matmul %s %dx%dx%d w%d s%d" % (dtype, m, n, k, warps, stages),
            "matmul_kernel", params, warps, stages)


FP8 = {"gfx942": "fp8e4b8", "gfx950": "fp8e4nv"}


def for_arch(config, arch):
    """`config` with its "fp8" operands in `arch`'s native format; None
    where the target has none."""
    name, kernel, params, warps, stages = config
    if " fp8 " not in name:
        return config
    if arch not in FP8:
        return None
    params = [(p, e.replace("*fp8:", "*%s:" % FP8[arch]) if isinstance(e, str) else e)
              for p, e in params]
    return (name.replace(" fp8 ", " %s " % FP8[arch]), kernel, params, warps, stages)


def attention(head_dim, block_m, block_n, warps, stages=1):
    params = [
        ("sm_scale", "fp32"), ("M", "*fp32:16"), ("Z", "i32"), ("H", "i32"),
        ("q_ptr", "*fp16:16"), ("k_ptr", "*fp16:16"), ("v_ptr", "*fp16:16"),
        ("o_ptr", "*fp16:16"), ("N_CTX", "i32:16"), ("HEAD_DIM", head_dim),
        ("BLOCK_M", block_m), ("BLOCK_N", block_n), ("STAGE", 1),
        ("K_TRANSPOSED", False), ("warp_specialize", False)]
    return ("attention D%d %dx%d w%d s%d" % (head_dim, block_m, block_n, warps,
                                             stages),
            "attn_fwd", params, warps, stages)


# A and B both K-contiguous (B = Bt.T), as bench/gpu_bench.py and
# compile_time.py pass them. Triton's AMD tutorials tune over tiles like
# these, matmuls with two stages and attention with one.
CONFIGS = [
    matmul(128, 128, 64, 4),
    matmul(128, 256, 64, 8),
    matmul(256, 256, 64, 8),
    matmul(64, 128, 32, 4),
    matmul(256, 256, 16, 8),
    matmul(128, 128, 64, 4, dtype="fp8"),
    matmul(128, 256, 128, 8, dtype="fp8"),
    attention(64, 128, 64, 4),
    attention(128, 128, 64, 4),
]

TRITON_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import triton
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
k = triton.compile(src, target=GPUTarget("hip", spec["arch"], 64),
                   options={"num_warps": spec["warps"],
                            "num_stages": spec["stages"]})
with open(spec["out"], "w") as f:
    f.write(k.asm["amdgcn"])
print(json.dumps({"shared": k.metadata.shared}))
"""


def first_error(text):
    """The line of a compiler's output that says what went wrong."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l
    return lines[-1] if lines else "failed"


def run_triton(name, arch, out):
    _, kernel, params, warps, stages = name
    spec = json.dumps({"kernel": kernel, "params": params, "warps": warps,
                       "stages": stages, "arch": arch, "out": out})
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TRITON_CACHE_DIR=cache)
        p = subprocess.run([sys.executable, "-c", TRITON_CHILD, HERE, spec],
                           capture_output=True, text=True, env=env)
    if p.returncode:
        return None, first_error(p.stderr)
    return json.loads(p.stdout.splitlines()[-1])["shared"], None


def run_tritium(binary, config, arch, out):
    _, kernel, params, warps, stages = config
    sig = ",".join(str(v) if not isinstance(v, str) else v for _, v in params)
    cmd = [binary, "compile", KERNELS_FILE, "--kernel", kernel,
           "--signature", sig, "--target", "hip:" + arch,
           "--num-warps", str(warps), "--num-stages", str(stages),
           "--emit", "amdgcn", "--report", "-o", out]
    with tempfile.TemporaryDirectory() as cache:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           env=dict(os.environ, TRITIUM_CACHE_DIR=cache))
    if p.returncode:
        return None, first_error(p.stderr)
    dynamic = re.search(r"(\d+) bytes dynamic LDS", p.stderr)
    return int(dynamic.group(1)) if dynamic else 0, None


LABEL = re.compile(r"^(\.LBB\d+_\d+):")
BRANCH = re.compile(r"^\s*s_(?:c?branch)\w*\s+(\.LBB\d+_\d+)")
MFMA = re.compile(r"^\s*(v_mfma_\w+)")


def loop_mfma(lines):
    """v_mfma count in the body of the loop holding the most of them (see
    the module docstring), or None without a loop."""
    labels, last_back = {}, {}
    for i, line in enumerate(lines):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = i
            continue
        m = BRANCH.match(line)
        if m and m.group(1) in labels:  # defined above: a backward branch
            last_back[m.group(1)] = i
    best = None
    for label, end in last_back.items():
        start = labels[label]
        count = sum(1 for l in lines[start:end + 1] if MFMA.match(l))
        key = (count, -(end - start))
        if best is None or key > best[0]:
            best = (key, count)
    return best[1] if best else None


def metric(text, pattern):
    m = re.search(pattern, text, re.M)
    return int(m.group(1)) if m else None


def highest_register(lines, kind):
    """1 + the highest register of `kind` ("v" or "a") an instruction
    names."""
    top = -1
    pattern = re.compile(r"\b%s(?:(\d+)|\[\d+:(\d+)\])" % kind)
    for line in lines:
        if not re.match(r"^\s+[a-z]", line):  # labels, directives
            continue
        for one, last in pattern.findall(line.split(";")[0]):
            top = max(top, int(one or last))
    return top + 1


def occupancy(vgprs, lds, warps, arch):
    """Waves per SIMD by registers and LDS (see the module docstring)."""
    if vgprs is None:
        return None
    waves = min(8, 512 // max(8, -(-vgprs // 8) * 8))
    if lds:
        per_cu = (160 if arch == "gfx950" else 64) * 1024
        waves = min(waves, (per_cu // lds) * warps // 4)
    return waves


def analyze(path, dynamic_lds, warps, arch):
    with open(path) as f:
        text = f.read()
    # The kernel's code: up to the end of its first function.
    end = text.find(".Lfunc_end")
    code = (text[:end] if end >= 0 else text).splitlines()
    kinds = sorted({MFMA.match(l).group(1) for l in code if MFMA.match(l)})
    spills = [metric(text, r"^[\s-]*\.vgpr_spill_count:\s+(\d+)"),
              metric(text, r"^[\s-]*\.sgpr_spill_count:\s+(\d+)")]
    static = metric(text, r"^[\s-]*\.group_segment_fixed_size:\s+(\d+)") or 0
    return {
        "mfma kinds": ",".join(k[len("v_mfma_"):] for k in kinds) or "-",
        "MFMA/iter": loop_mfma(code),
        "MFMA": sum(1 for l in code if MFMA.match(l)),
        "VGPR": highest_register(code, "v"),
        "AGPR": metric(text, r"^[\s-]*\.agpr_count:\s+(\d+)"),
        "SGPR": metric(text, r"^[\s-]*\.sgpr_count:\s+(\d+)"),
        "spills": None if None in spills else sum(spills),
        "scratch": metric(text, r"^[\s-]*\.private_segment_fixed_size:\s+(\d+)"),
        "LDS": static + (dynamic_lds or 0),
        "occupancy": occupancy(metric(text, r"^[\s-]*\.vgpr_count:\s+(\d+)"),
                               static + (dynamic_lds or 0), warps, arch),
    }


COLUMNS = ["MFMA/iter", "MFMA", "VGPR", "AGPR", "SGPR", "spills", "scratch",
           "LDS", "occupancy"]


def cell(a, b):
    fmt = lambda v: "-" if v is None else str(v)
    if a is None or b is None or not b:
        ratio = "1.00" if a == b and a is not None else "-"
    else:
        ratio = "%.2f" % (a / b)
    return "%s / %s (%s)" % (fmt(a), fmt(b), ratio)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="gfx942",
                    choices=["gfx90a", "gfx942", "gfx950"])
    ap.add_argument("--tritium", default=os.path.join(
        HERE, "..", "build", "bin", "tritium"), help="the tritium binary")
    ap.add_argument("--only", action="append", default=[],
                    help="configurations whose name contains this (repeatable)")
    ap.add_argument("--keep", help="write both assemblies to this directory")
    args = ap.parse_args(argv)
    try:
        import triton  # noqa: F401
    except ImportError:
        print("Triton is not installed in %s: run this with a Python that has "
              "it (pip install triton==3.6.0)" % sys.executable)
        return 1
    work = args.keep or tempfile.mkdtemp(prefix="amd_compare.")
    os.makedirs(work, exist_ok=True)
    rows = []
    for config in CONFIGS:
        config = for_arch(config, args.arch)
        if config is None:
            continue
        name = config[0]
        if args.only and not any(s in name for s in args.only):
            continue
        stem = os.path.join(work, re.sub(r"\W+", "_", name))
        sides = {}
        for side, run in (("tritium", lambda o: run_tritium(args.tritium, config,
                                                             args.arch, o)),
                          ("Triton", lambda o: run_triton(config, args.arch, o))):
            out = "%s.%s.s" % (stem, side.lower())
            lds, err = run(out)
            sides[side] = ({"error": err} if err
                           else analyze(out, lds, config[3], args.arch))
        rows.append((name, sides))
        t, r = sides["tritium"], sides["Triton"]
        print("%-32s tritium %s | Triton %s" % (
            name,
            t.get("error") or "%s MFMA/iter (%s)" % (t["MFMA/iter"], t["mfma kinds"]),
            r.get("error") or "%s MFMA/iter (%s)" % (r["MFMA/iter"], r["mfma kinds"])),
            flush=True)
    print()
    print("%s: each cell is tritium / Triton (ratio)" % args.arch)
    print()
    print("| kernel | MFMA instructions | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 2) + "|")
    for name, sides in rows:
        t, r = sides["tritium"], sides["Triton"]
        if "error" in t or "error" in r:
            what = "; ".join("%s: %s" % (side, s["error"]) for side, s in sides.items()
                             if "error" in s)
            print("| %s | %s |" % (name, what.replace("|", "\\|")))
            continue
        kinds = t["mfma kinds"] if t["mfma kinds"] == r["mfma kinds"] else \
            "%s / %s" % (t["mfma kinds"], r["mfma kinds"])
        print("| %s | %s | %s |" % (name, kinds, " | ".join(
            cell(t[c], r[c]) for c in COLUMNS)))
    if args.keep:
        print("\nassemblies in %s" % work)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""ptxas's performance warnings over the benchmark's Hopper kernels.

Compiles, for sm_90a and with no GPU, every kernel bench/gpu_bench.py times
at every config of the list it is autotuned over (03's for the pointer,
block-pointer and bias matmuls, 09's for the descriptor and persistent
ones, 06's pruned list for attention; fp16, and fp8 e4m3 and fp32 (tf32)
where the benchmark has them), runs ptxas on each PTX and prints the "Potential Performance
Loss" lines and other wgmma notes (C75xx) it gives. Those that say the code
is at fault (C7514/C7515: instructions other than wgmma read or write the
registers of wgmmas in flight, and every wgmma of the kernel is serialized;
C7517: ptxas injected a wait of its own) make it exit 1; those
that say the config asks too much (C7511/C7512: not enough registers for
the wgmma pipeline, as for a 128x256 tile on 4 warps) are listed apart.
Needs ptxas.

A warning costs 10-20% of a matmul on the H100/H200, so this runs before
any device time is spent on a change to the GPU path.

Run: ``PYTHONPATH=python/compat:python:bench python3 bench/ptxas_check.py``
(``--only SUBSTRING`` to restrict, ``--jobs N`` compiles in parallel,
``--conformance`` adds the conformance corpus's kernels that use wgmma).
"""

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (os.path.join(ROOT, "python", "compat"), os.path.join(ROOT, "python"), HERE):
    if p not in sys.path:
        sys.path.insert(0, p)

import triton  # noqa: E402  (tritium's, from python/compat)
from triton.compiler import ASTSource  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

import bench_kernels as K  # noqa: E402

MATMUL_ARGS = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K",
               "stride_am", "stride_ak", "stride_bk", "stride_bn",
               "stride_cm", "stride_cn"]


def _matmul_sig(names, elem, out, ints, extra=()):
    sig = {}
    for n in names:
        if n.endswith("_ptr"):
            sig[n] = "*" + (out if n == "c_ptr" else elem)
        else:
            sig[n] = ints.get(n, "i32")
    for n in extra:
        sig[n] = "constexpr"
    return sig


def cases():
    """(name, fn, signature, constexprs, options) for each compile."""
    out = []
    blocks = ["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"]
    # B K-major: stride_bk == 1, as the benchmark passes it; unit strides
    # are constants, as the launcher's specialization makes them.
    unit = {"stride_ak": "constexpr", "stride_bk": "constexpr", "stride_cn": "constexpr"}
    for elem, outt in (("fp16", "fp16"), ("fp8e4nv", "fp16"), ("fp32", "fp32")):
        for conf in K.matmul_configs_03():
            if elem == "fp8e4nv" and conf.kwargs["BLOCK_SIZE_K"] < 32:
                continue
            for fn, names in ((K.matmul_kernel, MATMUL_ARGS),
                              (K.matmul_kernel_block_ptr, MATMUL_ARGS),
                              (K.matmul_bias_kernel,
                               MATMUL_ARGS[:2] + ["bias_ptr"] + MATMUL_ARGS[2:])):
                if fn is K.matmul_bias_kernel and elem != "fp16":
                    continue
                sig = _matmul_sig(names, elem, outt, unit, blocks)
                if fn is K.matmul_kernel_block_ptr:
                    sig.update({"stride_ak": "i32", "stride_bk": "i32", "stride_cn": "i32"})
                cst = dict(conf.kwargs)
                if fn is not K.matmul_kernel_block_ptr:
                    cst.update({"stride_ak": 1, "stride_bk": 1, "stride_cn": 1})
                out.append(("%s %s %s" % (fn.__name__, elem, _conf(conf)), fn, sig, cst,
                            {"num_warps": conf.num_warps, "num_stages": conf.num_stages}))
        for conf in K.matmul_configs_09():
            if elem == "fp8e4nv" and conf.kwargs["BLOCK_SIZE_K"] < 32:
                continue
            sig = _matmul_sig(["a_ptr", "b_ptr", "c_ptr", "M", "N", "K"], elem, outt, {},
                              blocks)
            out.append(("matmul_kernel_descriptor %s %s" % (elem, _conf(conf)),
                        K.matmul_kernel_descriptor, sig, dict(conf.kwargs),
                        {"num_warps": conf.num_warps, "num_stages": conf.num_stages}))
            sig = _matmul_sig(MATMUL_ARGS, elem, outt, unit, blocks + ["NUM_SMS"])
            cst = dict(conf.kwargs, NUM_SMS=132, stride_ak=1, stride_bk=1, stride_cn=1)
            out.append(("matmul_kernel_persistent %s %s" % (elem, _conf(conf)),
                        K.matmul_kernel_persistent, sig, cst,
                        {"num_warps": conf.num_warps, "num_stages": conf.num_stages}))
    for D in (64, 128):
        for stage in (1, 3):
            for kt in (False, True):
                confs = K.attn_prune_invalid_configs(K.attn_configs(9), None, N_CTX=4096,
                                                     STAGE=stage, HEAD_DIM=D)
                for conf in confs:
                    sig = {"sm_scale": "fp32", "M": "*fp32", "Z": "i32", "H": "i32",
                           "q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                           "o_ptr": "*fp16", "N_CTX": "i32"}
                    cst = dict(conf.kwargs, HEAD_DIM=D, STAGE=stage, K_TRANSPOSED=kt,
                               warp_specialize=False)
                    for n in cst:
                        sig[n] = "constexpr"
                    out.append(("attn_fwd D%d stage%d %s %s" % (D, stage, "kT" if kt else "K",
                                                                _conf(conf)),
                                K.attn_fwd, sig, cst,
                                {"num_warps": conf.num_warps, "num_stages": conf.num_stages}))
    return out


def conformance_cases():
    """The conformance corpus's specializations whose sm_90a code has wgmma
    (compiled once here to find them): (name, None, ptx) entries."""
    sys.path.insert(0, ROOT)
    from conformance import harness
    from conformance.amd_compile import compile_for, specializations
    specs, _ = specializations([], harness.DEFAULT_SEED)
    out = []
    for fn, kernel, sig, opts in specs:
        name = "conformance %s [%s] %s" % (fn.__name__, sig, sorted(opts.items()))
        try:
            ptx = compile_for(fn, kernel, sig, opts, 90).asm["ptx"]
        except Exception as e:  # noqa: BLE001 - reported
            out.append((name, None, "compile failed: %s" % str(e).splitlines()[0][:200]))
            continue
        if "wgmma" in ptx:
            out.append((name, None, ptx))
    return out


def _conf(conf):
    k = conf.kwargs
    tile = "x".join(str(k[n]) for n in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K",
                                         "BLOCK_M", "BLOCK_N") if n in k)
    return "%s w%d s%d" % (tile, conf.num_warps, conf.num_stages)


def check(case):
    if case[1] is None:  # PTX already made (conformance_cases)
        name, _, ptx = case
        if ptx.startswith("compile failed"):
            return name, [ptx]
        return name, _ptxas(ptx)
    name, fn, sig, cst, opts = case
    attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(sig)
             if sig[n] != "constexpr" and sig[n] != "fp32"}
    try:
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cst, attrs=attrs),
                           target=GPUTarget("cuda", 90, 32), options=opts)
        ptx = k.asm["ptx"]
    except Exception as e:  # noqa: BLE001 - reported
        return name, ["compile failed: %s" % str(e).splitlines()[0][:200]]
    return name, _ptxas(ptx)


def _ptxas(ptx):
    """ptxas's notes on the wgmmas of `ptx` (its errors, if it fails)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        r = subprocess.run(["ptxas", "-arch=sm_90a", "-v", path, "-o", os.path.join(d, "k.o")],
                           capture_output=True, text=True)
    lines = (r.stdout + r.stderr).splitlines()
    if r.returncode:
        return ["ptxas failed: " + " ".join(lines)[:200]]
    return [l.split("info    : ")[-1] for l in lines
            if "Performance Loss" in l or "(C75" in l]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--conformance", action="store_true",
                    help="also the conformance corpus's kernels that use wgmma")
    args = ap.parse_args(argv)
    todo = cases() + (conformance_cases() if args.conformance else [])
    todo = [c for c in todo if not args.only or any(s in c[0] for s in args.only)]
    bad, registers = [], []
    with ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for name, warnings in ex.map(check, todo):
            for w in warnings:
                (registers if "register resources" in w else bad).append((name, w))
    for name, w in registers:
        print("config: %s: %s" % (name, w))
    for name, w in bad:
        print("CODE: %s: %s" % (name, w))
    print("%d kernels compiled for sm_90a: %d warnings about the code, %d about "
          "configs' registers" % (len(todo), len(bad), len(registers)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

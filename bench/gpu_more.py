"""More kernels in the tutorials' styles, tritium next to Triton on a GPU.

bench/gpu_bench.py times the tutorials' own kernels, autotuned. This script
times kernels written the way users write them outside that set, each at
one fixed configuration given to both sides, same inputs, same
triton.testing.do_bench (warmup 25 ms, rep 100 ms), --rounds rounds in
alternating order, each side's median: vector add (01), RMS norm, a
column sum (reduction down the columns), a transpose through tl.trans,
split-K matmul accumulated with atomics, int8 matmul, GEMV, an embedding
gather, rotary embedding, cross entropy (online softmax over the vocabulary),
row argmax, softmax backward, 09's matmuls through host and device tensor
descriptors (plain, persistent, epilogue subtiling, warp specialization),
03's matmul with its leaky_relu epilogue, 05's dW/dB reduction, 07's
libdevice call, a 3-pass fp16 softmax, int8 row quantization, tl.sort,
tl.associative_scan (a linear recurrence), a matmul with a bias and an erf
GELU, an fp64 matmul, 3-D tl.dots (batched small matmuls in one
program, alone and accumulated over K), a W4A16 matmul dequantizing int4
weights in its loop, a decode-step GEMM (16 rows), a batched matmul with
the batch on the grid's third axis, split-KV decode attention, SwiGLU,
an fp32 matmul at full precision (FMA), an implicit-GEMM 3x3 convolution,
an index_add by atomics, group norm and a Welford (3-value) tl.reduce. Each row prints the largest
difference between the two sides' outputs.

Needs a GPU, torch and Triton. Run:
``PYTHONPATH=python python3 bench/gpu_more.py [--only SUBSTRING] [--rounds N]``.
"""
import argparse
import statistics
import sys

import torch
import triton
import tritium

from gpu_more_kernels import (vadd, rmsnorm, colsum, transpose, splitk, mm_i8, gemv, embed,
    rope, xent, argmax_rows, softmax_bwd, mm_tma, mm_tma_persistent, mm_desc_persistent,
    mm_act, ln_bwd_dwdb, asin_kernel, softmax_long, quant_rows, sort_rows,
    linear_scan, mm_gelu, mm_f64, bmm3d, bmm3d_loop, w4a16_matmul, skinny_mm, bmm,
    decode_attn, swiglu, mm_ieee, conv2d_nhwc, index_add_rows, group_norm_fwd, welford_var)

dev = "cuda"


def cases():
    """(name, kernel, grid, args, launch options, outputs, work, unit[,
    "zero"]): args is a tuple, or a function of the side ("T" for Triton,
    "t" for tritium) where each side needs its own objects (host tensor
    descriptors); work is bytes ("B", reported in GB/s) or flops ("F", in
    TFLOP/s); "zero" clears the first output before every launch (atomics
    accumulate into it)."""
    g = torch.Generator(device=dev).manual_seed(0)
    out = []

    def rn(*s, dt=torch.float32):
        return torch.randn(s, device=dev, generator=g).to(dt)

    n = 1 << 28
    x, y = rn(n), rn(n)
    o = torch.empty_like(x)
    out.append(("vadd fp32 2^28", vadd, (triton.cdiv(n, 1024),), (x, y, o, n), dict(BLOCK=1024), [o],
                3 * n * 4, "B"))
    M, N = 8192, 4096
    x = rn(M, N, dt=torch.float16); w = rn(N, dt=torch.float16); yy = torch.empty_like(x)
    out.append(("rmsnorm fp16 8192x4096", rmsnorm, (M,), (x, w, yy, N, N, 1e-6), dict(BLOCK=4096, num_warps=8), [yy],
                2 * M * N * 2, "B"))
    M, N = 8192, 8192
    x = rn(M, N); o = torch.empty(N, device=dev)
    out.append(("colsum fp32 8192^2", colsum, (N // 64,), (x, o, M, N, N), dict(BLOCK_M=64, BLOCK_N=64), [o],
                M * N * 4, "B"))
    x = rn(M, N, dt=torch.float16); yt = torch.empty_like(x)
    out.append(("transpose fp16 8192^2", transpose, (M // 64, N // 64), (x, yt, M, N), dict(BLOCK=64), [yt],
                2 * M * N * 2, "B"))
    M, N, K = 1024, 1024, 32768
    a = rn(M, K, dt=torch.float16); b = rn(K, N, dt=torch.float16); c = torch.zeros(M, N, device=dev)
    out.append(("split-K fp16 1024x1024x32768 atomics", splitk, ((M // 128) * (N // 128), 8),
                (a, b, c, M, N, K, K, N, N), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SPLIT_K=8, num_warps=8, num_stages=3),
                [c], 2 * M * N * K, "F", "zero"))
    M = N = K = 4096
    a = torch.randint(-8, 8, (M, K), device=dev, dtype=torch.int8, generator=g)
    b = torch.randint(-8, 8, (N, K), device=dev, dtype=torch.int8, generator=g)
    c = torch.empty(M, N, device=dev, dtype=torch.int32)
    out.append(("int8 matmul 4096^3", mm_i8, ((M // 128) * (N // 256),), (a, b, c, M, N, K, K, K, N),
                dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=128, num_warps=8, num_stages=3), [c], 2 * M * N * K, "F"))
    M = K = 16384
    a = rn(M, K, dt=torch.float16); xv = rn(K, dt=torch.float16); yv = torch.empty(M, device=dev)
    out.append(("gemv fp16 16384^2", gemv, (M // 64,), (a, xv, yv, M, K, K), dict(BLOCK_M=64, BLOCK_K=256, num_warps=4),
                [yv], M * K * 2, "B"))
    V, D, T = 50000, 1024, 32768
    table = rn(V, D, dt=torch.float16)
    idx = torch.randint(0, V, (T,), device=dev, generator=g)
    eo = torch.empty(T, D, device=dev, dtype=torch.float16)
    out.append(("embedding gather fp16 32768x1024", embed, (T // 16,), (idx, table, eo, D), dict(ROWS=16, BLOCK_D=1024),
                [eo], 2 * T * D * 2, "B"))
    T, H, D, S = 16384, 32, 128, 4096
    xr = rn(T, H, D, dt=torch.float16); cs = rn(S, D // 2); sn = rn(S, D // 2); ro = torch.empty_like(xr)
    out.append(("rope fp16 16384x32x128", rope, (T,), (xr, cs, sn, ro, S, H), dict(D=128, BLOCK_H=32, num_warps=4),
                [ro], 2 * T * H * D * 2, "B"))
    R, V = 4096, 32000
    lg = rn(R, V); lab = torch.randint(0, V, (R,), device=dev, generator=g); loss = torch.empty(R, device=dev)
    out.append(("cross entropy fp32 4096x32000", xent, (R,), (lg, lab, loss, V, V), dict(BLOCK=4096, num_warps=8),
                [loss], R * V * 4, "B"))
    M, N = 16384, 4096
    xa = rn(M, N); am = torch.empty(M, device=dev, dtype=torch.int32)
    out.append(("argmax fp32 16384x4096", argmax_rows, (M,), (xa, am, N, N), dict(BLOCK=4096, num_warps=8), [am],
                M * N * 4, "B"))
    M, N = 8192, 8192
    dy = rn(M, N, dt=torch.float16); ys = torch.softmax(rn(M, N), -1).half(); dx = torch.empty_like(dy)
    out.append(("softmax bwd fp16 8192^2", softmax_bwd, (M,), (dy, ys, dx, N, N), dict(BLOCK=8192, num_warps=16), [dx],
                3 * M * N * 2, "B"))
    # 09's matmuls through tensor descriptors (host ones per side: each
    # package's own TensorDescriptor), 8192^3 fp16, B K-major.
    S = 8192
    a = rn(S, S, dt=torch.float16); bT = rn(S, S, dt=torch.float16)
    c = torch.empty(S, S, device=dev, dtype=torch.float16)
    nsm = torch.cuda.get_device_properties(0).multi_processor_count
    BM, BN, BK = 128, 256, 64

    def descs(side, sub):
        TD = _triton_td() if side == "T" else _tritium_td()
        return (TD.from_tensor(a, [BM, BK]), TD.from_tensor(bT, [BN, BK]),
                TD.from_tensor(c, [BM, BN // 2 if sub else BN]))
    for ws in (False, True):
        out.append(("09 tma fp16 8192^3%s" % (" ws" if ws else ""), mm_tma, ((S // BM) * (S // BN),),
                    (lambda side: descs(side, False) + (S, S, S)),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         WARP_SPECIALIZE=ws, num_warps=8, num_stages=3), [c], 2 * S ** 3, "F"))
    for sub, ws in ((True, False), (False, False), (True, True)):
        out.append(("09 tma persistent fp16 8192^3%s%s" % (" subtile" if sub else "", " ws" if ws else ""),
                    mm_tma_persistent, (min(nsm, (S // BM) * (S // BN)),),
                    (lambda side, sub=sub: descs(side, sub) + (S, S, S)),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         EPILOGUE_SUBTILE=sub, NUM_SMS=nsm, WARP_SPECIALIZE=ws, num_warps=8, num_stages=3),
                    [c], 2 * S ** 3, "F"))
    for sub, ws, fl in ((True, False, True), (False, True, False)):
        out.append(("09 desc persistent fp16 8192^3%s%s%s" % (" subtile" if sub else "", " ws" if ws else "",
                                                            " flatten" if fl else ""),
                    mm_desc_persistent, (min(nsm, (S // BM) * (S // BN)),), (a, bT, c, S, S, S),
                    dict(BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                         EPILOGUE_SUBTILE=sub, NUM_SMS=nsm, WARP_SPECIALIZE=ws, FLATTEN=fl,
                         num_warps=8, num_stages=3), [c], 2 * S ** 3, "F"))
    M = N = K = 4096
    a = rn(M, K, dt=torch.float16); b = rn(K, N, dt=torch.float16).T.contiguous().T
    c2 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("03 matmul leaky_relu fp16 4096^3", mm_act, ((M // 128) * (N // 256),),
                (a, b, c2, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c2.stride(0), c2.stride(1)),
                dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION="leaky_relu",
                     num_warps=8, num_stages=3), [c2], 2 * M * N * K, "F"))
    G, N = 256, 8192
    dwp = rn(G, N); dbp = rn(G, N); fdw = torch.empty(N, device=dev); fdb = torch.empty(N, device=dev)
    out.append(("05 layer norm bwd dW/dB 256x8192", ln_bwd_dwdb, (N // 128,), (dwp, dbp, fdw, fdb, G, N),
                dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128), [fdw, fdb], 2 * G * N * 4, "B"))
    n = 1 << 26
    xs = torch.rand(n, device=dev, generator=g) * 2 - 1; ya = torch.empty_like(xs)
    out.append(("07 libdevice asin fp32 2^26", asin_kernel, (n // 1024,), (xs, ya, n), dict(BLOCK_SIZE=1024),
                [ya], 2 * n * 4, "B"))
    R, N = 4096, 32768
    xl = rn(R, N, dt=torch.float16); yl = torch.empty_like(xl)
    out.append(("softmax fp16 4096x32768 (3 passes)", softmax_long, (R,), (xl, yl, N, N),
                dict(BLOCK=4096, num_warps=8), [yl], 4 * R * N * 2, "B"))
    R, N = 16384, 4096
    xq = rn(R, N, dt=torch.float16); qq = torch.empty(R, N, device=dev, dtype=torch.int8)
    sq = torch.empty(R, device=dev)
    out.append(("int8 row quantization 16384x4096", quant_rows, (R,), (xq, qq, sq, N),
                dict(BLOCK=4096, num_warps=8), [qq, sq], R * N * 3, "B"))
    R, N = 16384, 1024
    xsr = rn(R, N); ysr = torch.empty_like(xsr)
    out.append(("tl.sort rows fp32 16384x1024", sort_rows, (R,), (xsr, ysr), dict(N=1024, num_warps=4),
                [ysr], 2 * R * N * 4, "B"))
    R, L = 16384, 1024
    asc = torch.rand(R, L, device=dev, generator=g); bsc = rn(R, L); hsc = torch.empty_like(bsc)
    out.append(("associative_scan recurrence 16384x1024", linear_scan, (R,), (asc, bsc, hsc), dict(L=1024),
                [hsc], 3 * R * L * 4, "B"))
    M = N = K = 4096
    a = rn(M, K, dt=torch.float16); bK = rn(N, K, dt=torch.float16); bias = rn(N, dt=torch.float16)
    c3 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("matmul bias+gelu(erf) fp16 4096^3", mm_gelu, ((M // 128) * (N // 256),),
                (a, bK, bias, c3, M, N, K), dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                                                num_warps=8, num_stages=3), [c3], 2 * M * N * K, "F"))
    M = N = K = 4096
    a64 = rn(M, K, dt=torch.float64); b64 = rn(K, N, dt=torch.float64)
    c64 = torch.empty(M, N, device=dev, dtype=torch.float64)
    out.append(("matmul fp64 4096^3", mm_f64, ((M // 64) * (N // 64),), (a64, b64, c64, M, N, K),
                dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, num_warps=4,
                     num_stages=3), [c64], 2 * M * N * K, "F"))
    P, Bt = 4096, 4
    a3 = rn(P * Bt, 64, 64, dt=torch.float16); b3 = rn(P * Bt, 64, 64, dt=torch.float16)
    c3d = torch.empty(P * Bt, 64, 64, device=dev)
    out.append(("3-D tl.dot fp16 4096 programs x 4 x 64^3", bmm3d, (P,), (a3, b3, c3d),
                dict(B=Bt, M=64, N=64, K=64, num_warps=4), [c3d], 2 * P * Bt * 64 ** 3, "F"))
    P, Bt, Kl = 512, 4, 1024
    a3l = rn(P * Bt, 64, Kl, dt=torch.float16); b3l = rn(P * Bt, Kl, 64, dt=torch.float16)
    c3l = torch.empty(P * Bt, 64, 64, device=dev)
    out.append(("3-D tl.dot in a K loop fp16 512 programs x 4 x 64x64x1024", bmm3d_loop, (P,),
                (a3l, b3l, c3l, Kl), dict(B=Bt, M=64, N=64, BK=32, num_warps=4, num_stages=3),
                [c3l], 2 * P * Bt * 64 * 64 * Kl, "F"))
    M = N = K = 4096
    aq = rn(M, K, dt=torch.float16)
    bq = torch.randint(-128, 128, (K // 2, N), device=dev, dtype=torch.int8, generator=g)
    sq = (0.01 * rn(K // 128, N)).to(torch.float16)
    cq = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("w4a16 matmul (int4 dequant in the loop) 4096^3", w4a16_matmul, (M // 128, N // 128),
                (aq, bq, sq, cq, M, N, K, K, 1, N, 1, N, 1, N, 1),
                dict(GROUP=128, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3),
                [cq], 2 * M * N * K, "F"))
    M, N, K = 16, 8192, 8192
    a16 = rn(M, K, dt=torch.float16); w = rn(K, N, dt=torch.float16)
    cs16 = torch.empty(M, N, device=dev, dtype=torch.float16)
    out.append(("decode GEMM fp16 16x8192x8192", skinny_mm, (N // 64,), (a16, w, cs16, M, N, K),
                dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=128, num_warps=4, num_stages=4), [cs16],
                N * K * 2, "B"))
    Bb, M = 64, 1024
    ab = rn(Bb, M, M, dt=torch.float16); bb = rn(Bb, M, M, dt=torch.float16)
    cb = torch.empty(Bb, M, M, device=dev, dtype=torch.float16)
    out.append(("bmm fp16 64 x 1024^3 (batch on grid axis 2)", bmm, (M // 128, M // 128, Bb),
                (ab, bb, cb, M, M, M, M * M, M * M, M * M),
                dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3), [cb],
                2 * Bb * M ** 3, "F"))
    Hh, L, D, CH = 256, 8192, 128, 1024
    qd = rn(Hh, D, dt=torch.float16); kd = rn(Hh, L, D, dt=torch.float16); vd = rn(Hh, L, D, dt=torch.float16)
    od = torch.empty(Hh * (L // CH), D, device=dev); ld = torch.empty(Hh * (L // CH), device=dev)
    out.append(("decode attention split-KV fp16 256 heads x 8192 x 128", decode_attn, (Hh, L // CH),
                (qd, kd, vd, od, ld, L, D ** -0.5), dict(CHUNK=CH, D=D, BLOCK_L=64, num_warps=4, num_stages=2),
                [od, ld], 2 * Hh * L * D * 2, "B"))
    R, N = 16384, 8192
    xs = rn(R, 2 * N, dt=torch.float16); ys = torch.empty(R, N, device=dev, dtype=torch.float16)
    out.append(("swiglu fp16 16384x8192", swiglu, (R, N // 1024), (xs, ys, R, N), dict(BLOCK=1024),
                [ys], 3 * R * N * 2, "B"))
    M = N = K = 2048
    af = rn(M, K); bf = rn(K, N); cf = torch.empty(M, N, device=dev)
    out.append(("matmul fp32 ieee (FMA) 2048^3", mm_ieee, (M // 64, N // 64), (af, bf, cf, M, N, K),
                dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=16, num_warps=4, num_stages=3), [cf],
                2 * M * N * K, "F"))
    NB, H, W, C, KO = 32, 56, 56, 128, 128
    xc = rn(NB, H, W, C, dt=torch.float16); wc = rn(9 * C, KO, dt=torch.float16)
    yc = torch.empty(NB * H * W, KO, device=dev, dtype=torch.float16)
    out.append(("conv2d 3x3 implicit GEMM fp16 NHWC 32x56x56x128", conv2d_nhwc,
                (triton.cdiv(NB * H * W, 128), KO // 128), (xc, wc, yc, NB, H, W, C, KO, H, W),
                dict(R=3, S=3, BLOCK_M=128, BLOCK_N=128, BLOCK_C=64, num_warps=8, num_stages=3), [yc],
                2 * NB * H * W * KO * 9 * C, "F"))
    T, D, V = 32768, 256, 4096
    src = rn(T, D); idx64 = torch.randint(0, V, (T,), device=dev, generator=g)
    acc_out = torch.zeros(V, D, device=dev)
    out.append(("index_add rows fp32 atomics 32768x256 into 4096", index_add_rows, (T // 16,),
                (src, idx64, acc_out, D), dict(BLOCK_D=256, ROWS=16), [acc_out], 3 * T * D * 4, "B", "zero"))
    NB, C, HW, G = 32, 256, 4096, 16
    xg = rn(NB, C, HW, dt=torch.float16); yg = torch.empty_like(xg)
    wg = rn(C, dt=torch.float16); bg = rn(C, dt=torch.float16)
    out.append(("group norm fwd fp16 32x256x64x64 G16", group_norm_fwd, (NB * G,),
                (xg, yg, wg, bg, C, HW, G, 1e-5), dict(CPG=C // G, BLOCK_HW=256), [yg],
                3 * NB * C * HW * 2, "B"))
    R, N = 16384, 4096
    xw = rn(R, N); mw = torch.empty(R, device=dev); vw = torch.empty(R, device=dev)
    out.append(("welford mean/var (3-value tl.reduce) fp32 16384x4096", welford_var, (R,), (xw, mw, vw, N),
                dict(BLOCK=4096, num_warps=8), [mw, vw], R * N * 4, "B"))
    return out


def _triton_td():
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def _tritium_td():
    from tritium.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[],
                    help="run rows whose name contains SUBSTR (repeatable)")
    ap.add_argument("--rounds", type=int, default=3)
    args_ = ap.parse_args(argv)
    try:
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=dev))
    except Exception as e:  # noqa: BLE001 - older Triton: device descriptors fail there
        print("no set_allocator:", e)
    rows = []
    for case in cases():
        name, fn, grid, args, kw, outs, work, unit = case[:8]
        if args_.only and not any(s in name for s in args_.only):
            continue
        zero = len(case) > 8
        tk = tritium.jit(fn.fn)
        res, times = {}, {}
        argsOf = {side: (args(side) if callable(args) else args) for side in ("T", "t")}
        try:
            for side, k in (("T", fn), ("t", tk)):
                for o in outs:
                    o.zero_()
                k[grid](*argsOf[side], **kw)
                torch.cuda.synchronize()
                res[side] = [o.clone() for o in outs]
                times[side] = []
            for r in range(args_.rounds):
                order = (("T", fn), ("t", tk))
                for side, k in (order if r % 2 == 0 else order[::-1]):
                    def run(k=k, a=argsOf[side]):
                        if zero:
                            outs[0].zero_()
                        k[grid](*a, **kw)
                    times[side].append(triton.testing.do_bench(run, warmup=25, rep=100))
            diff = max((a.double() - b.double()).abs().max().item()
                       for a, b in zip(res["T"], res["t"]))
            tT, tt = statistics.median(times["T"]), statistics.median(times["t"])
            perf = (lambda ms: work / ms / 1e6) if unit == "B" else (lambda ms: work / ms / 1e9)
            u = "GB/s" if unit == "B" else "TFLOP/s"
            rows.append((name, perf(tT), perf(tt), u, tT / tt, diff))
            print("%-44s Triton %.4f ms  tritium %.4f ms  ratio %.3f  max diff %.3g"
                  % (name, tT, tt, tT / tt, diff), flush=True)
        except Exception as e:  # noqa: BLE001 - the row reports it
            msg = str(e).splitlines()[0][:300] if str(e) else repr(e)
            print("%-44s ERROR %s" % (name, msg), flush=True)
            rows.append((name, 0.0, 0.0, "-", 0.0, float("nan")))
    print("\n| kernel | Triton | tritium | unit | tritium/Triton | max diff |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.1f | %.1f | %s | %.3f | %.3g |" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())

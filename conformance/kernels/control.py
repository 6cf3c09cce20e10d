"""Control flow and calls: if/elif/else on runtime scalars, while loops with
runtime trip counts, for loops with runtime bounds and steps (range and
tl.range), nested loops, static_range, values defined before loops and in
branches, ternaries, nested @jit calls with several results, random
numbers (Philox), block pointers, tensor descriptors, swizzle2d, hints and
device_print."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare, refs
from conformance.compare import Result
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand


@triton.jit
def branch_kernel(x_ptr, out_ptr, n, t, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    scale = 1.0
    if pid % 3 == 0:
        y = x * 2.0
    elif pid % 3 == 1:
        y = x - t
        scale = 0.5
    else:
        y = -x
    y = y * scale if t > 0 else y + scale
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def loops_kernel(out_ptr, n_outer, lo, hi, step, BLOCK: tl.constexpr):
    # for over runtime bounds and step, tl.range, a while loop with a
    # runtime trip count, a nested loop and static_range.
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.int32) + pid
    for i in range(lo, hi, step):
        acc += i
    for j in tl.range(0, n_outer, num_stages=2):
        for k in range(j):
            acc += 1
    w = 0
    while w < n_outer + pid:
        acc = acc * 2 % 1000003
        w += 1
    for s in tl.static_range(3):
        acc += s
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


@triton.jit
def _stats(x, mask):
    s = tl.sum(tl.where(mask, x, 0.0), axis=0)
    m = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    return s, m


@triton.jit
def _axpy(a, x, y):
    return a * x + y


@triton.jit
def _normalize(x, mask, EPS: tl.constexpr):
    s, m = _stats(x, mask)
    return _axpy(1.0 / (m + EPS), x, -s * 0.0)


@triton.jit
def calls_kernel(x_ptr, out_ptr, sum_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0.0)
    y = _normalize(x, mask, 1.0)
    s, _ = _stats(y, mask)
    tl.store(out_ptr + row * n + offs, y, mask=mask)
    tl.store(sum_ptr + row, s)


@triton.jit
def _scale_or_shift(x, k):
    # an early return on a runtime scalar
    if k > 0:
        return x * k
    return x - 1.0


@triton.jit
def early_return_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, _scale_or_shift(x, pid % 3), mask=mask)


@triton.jit
def newton_sqrt_kernel(x_ptr, out_ptr, iters_ptr, n, BLOCK: tl.constexpr):
    # A data-dependent while loop over a tensor-valued state: Newton steps
    # for sqrt until the largest update in the block is tiny.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.where(a > 1.0, a, 1.0)
    nxt = 0.5 * (y + a / y)
    delta = tl.max(tl.abs(nxt - y) / nxt, axis=0)  # fp64 before the loop
    y = nxt
    it = 1
    while (delta > 1e-12) & (it < 100):
        nxt = 0.5 * (y + a / y)
        delta = tl.max(tl.abs(nxt - y) / nxt, axis=0)
        y = nxt
        it += 1
    tl.store(out_ptr + offs, y, mask=mask)
    tl.store(iters_ptr + pid, it)


@triton.jit
def rand_kernel(out_u, out_n, out_i, out_4, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_u + offs, tl.rand(seed, offs), mask=mask)
    tl.store(out_n + offs, tl.randn(seed, offs), mask=mask)
    tl.store(out_i + offs, tl.randint(seed, offs), mask=mask)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(out_4 + offs, r0 ^ r1 ^ r2 ^ r3, mask=mask)


@triton.jit
def block_ptr_kernel(a_ptr, out_ptr, M, N, BM: tl.constexpr,
                     BN: tl.constexpr):
    # Row sums through a block pointer advanced along N, with boundary
    # checks and zero padding; the result tile is stored through a block
    # pointer too.
    pid = tl.program_id(0)
    a = tl.make_block_ptr(base=a_ptr, shape=(M, N), strides=(N, 1),
                          offsets=(pid * BM, 0), block_shape=(BM, BN),
                          order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(N, BN)):
        acc += tl.load(a, boundary_check=(0, 1), padding_option="zero")
        a = tl.advance(a, (0, BN))
    o = tl.make_block_ptr(base=out_ptr, shape=(M, BN), strides=(BN, 1),
                          offsets=(pid * BM, 0), block_shape=(BM, BN),
                          order=(1, 0))
    tl.store(o, acc, boundary_check=(0,))


@triton.jit
def descriptor_kernel(a_ptr, out_ptr, M, N, BM: tl.constexpr,
                      BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1],
                                    block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1],
                                    block_shape=[BM, BN])
    x = src.load([pm * BM, pn * BN])
    dst.store([pm * BM, pn * BN], x * 3.0)


@triton.jit
def swizzle_kernel(out_ptr, GM: tl.constexpr, GN: tl.constexpr,
                   G: tl.constexpr):
    i = tl.arange(0, GM)[:, None]
    j = tl.arange(0, GN)[None, :]
    si, sj = tl.swizzle2d(i, j, GM, GN, G)
    tl.store(out_ptr + i * GN + j, si * GN + sj)


@triton.jit
def hints_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = tl.multiple_of(pid * BLOCK, BLOCK)
    offs = tl.max_contiguous(start + tl.arange(0, BLOCK), BLOCK)
    tl.assume(n >= 0)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cg",
                eviction_policy="evict_last")
    tl.store(out_ptr + offs, x + 1, mask=mask, cache_modifier=".cs")


@triton.jit
def print_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-1)
    tl.device_print("val ", x)


# -- host side ---------------------------------------------------------------

def _br_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"), out=empty(p.n, "fp32"))


def _br_run(a, p):
    branch_kernel[(cdiv(p.n, 32),)](a.x, a.out, p.n, p.t, BLOCK=32)


def _br_ref(a, p):
    x = f64(a.x)
    pid = np.arange(p.n) // 32
    y = np.where(pid % 3 == 0, 2 * x, np.where(pid % 3 == 1, x - p.t, -x))
    scale = np.where(pid % 3 == 1, 0.5, 1.0)
    return {"out": y * scale if p.t > 0 else y + scale}


def _lp_make(p, rng):
    return dict(out=empty((p.progs, 16), "int32"))


def _lp_run(a, p):
    lo, hi, step = p.bounds
    loops_kernel[(p.progs,)](a.out, p.n_outer, lo, hi, step, BLOCK=16)


def _lp_ref(a, p):
    lo, hi, step = p.bounds
    out = []
    for pid in range(p.progs):
        acc = pid + sum(range(lo, hi, step))
        acc += sum(range(p.n_outer))
        for _ in range(p.n_outer + pid):
            acc = acc * 2 % 1000003
        acc += 3
        out.append([acc] * 16)
    return {"out": np.array(out, dtype=np.int64).reshape(p.progs, 16)}


def _cl_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), "fp32", 0, 2), out=empty((m, n), "fp32"),
                s=empty(m, "fp32"))


def _cl_run(a, p):
    m, n = p.shape
    calls_kernel[(m,)](a.x, a.out, a.s, n,
                       BLOCK=max(16, 1 << (n - 1).bit_length()))


def _cl_ref(a, p):
    x = f64(a.x)
    y = x / (x.max(axis=1, keepdims=True) + 1.0)
    return {"out": y, "s": y.sum(axis=1)}


def _er_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"), out=empty(p.n, "fp32"))


def _er_run(a, p):
    early_return_kernel[(cdiv(p.n, 16),)](a.x, a.out, p.n, BLOCK=16)


def _er_ref(a, p):
    x = f64(a.x)
    k = (np.arange(p.n) // 16) % 3
    return {"out": np.where(k > 0, x * k, x - 1.0)}


def _nw_make(p, rng):
    progs = cdiv(p.n, 64)
    return dict(x=rand(rng, p.n, "fp64", 1e-3, 1e4),
                out=empty(p.n, "fp64"), iters=empty(progs, "int32"))


def _newton_iters(a):
    """The loop's trip count per program, replayed in float64."""
    out = []
    x = f64(a)
    for start in range(0, x.size, 64):
        blk = np.concatenate([x[start:start + 64],
                              np.ones(max(0, start + 64 - x.size))])
        y = np.where(blk > 1.0, blk, 1.0)
        nxt = 0.5 * (y + blk / y)
        delta = np.max(np.abs(nxt - y) / nxt)
        y, it = nxt, 1
        while delta > 1e-12 and it < 100:
            nxt = 0.5 * (y + blk / y)
            delta = np.max(np.abs(nxt - y) / nxt)
            y, it = nxt, it + 1
        out.append(it)
    return np.array(out)


def _nw_run(a, p):
    newton_sqrt_kernel[(cdiv(p.n, 64),)](a.x, a.out, a.iters, p.n,
                                         BLOCK=64)


def _nw_ref(a, p):
    return {"out": np.sqrt(f64(a.x)), "iters": _newton_iters(a.x)}


def _rd_make(p, rng):
    return dict(u=empty(p.n, "fp32"), nrm=empty(p.n, "fp32"),
                i=empty(p.n, "uint32"), x4=empty(p.n, "uint32"),
                seed=int(rng.integers(0, 2**31 - 1)) if p.seed is None
                else p.seed)


def _rd_run(a, p):
    rand_kernel[(cdiv(p.n, 128),)](a.u, a.nrm, a.i, a.x4, a.seed, p.n,
                                   BLOCK=128)


def _rd_ref(a, p):
    offs = np.arange(p.n)
    c = refs.philox(a.seed, offs)
    return {"u": refs.rand(a.seed, offs), "nrm": refs.randn(a.seed, offs),
            "i": c[0], "x4": c[0] ^ c[1] ^ c[2] ^ c[3]}


def _bp_make(p, rng):
    m, n = p.shape
    return dict(a=rand(rng, (m, n), "fp32"), out=empty((m, 32), "fp32"))


def _bp_run(a, p):
    m, n = p.shape
    block_ptr_kernel[(cdiv(m, 16),)](a.a, a.out, m, n, BM=16, BN=32)


def _bp_ref(a, p):
    m, n = p.shape
    x = f64(a.a)
    pad = np.zeros((m, cdiv(n, 32) * 32))
    pad[:, :n] = x
    return {"out": pad.reshape(m, -1, 32).sum(axis=1)}


def _td_make(p, rng):
    m, n = p.shape
    return dict(a=rand(rng, (m, n), "fp32"), out=empty((m, n), "fp32"))


def _td_run(a, p):
    m, n = p.shape
    descriptor_kernel[(cdiv(m, 16), cdiv(n, 32))](a.a, a.out, m, n, BM=16,
                                                  BN=32)


def _td_ref(a, p):
    return {"out": 3 * f64(a.a)}


def _sw_make(p, rng):
    gm, gn, g = p.dims
    return dict(out=empty((gm, gn), "int32"))


def _sw_run(a, p):
    gm, gn, g = p.dims
    swizzle_kernel[(1,)](a.out, GM=gm, GN=gn, G=g)


def _sw_ref(a, p):
    # Triton's definition: programs grouped G rows at a time, column-major
    # inside a group.
    gm, gn, g = p.dims
    out = np.empty((gm, gn), np.int64)
    for i in range(gm):
        for j in range(gn):
            ij = i * gn + j
            size_g = g * gn
            group = ij // size_g
            off_i = group * g
            size_g2 = min(gm - off_i, g)
            ij2 = ij % size_g
            ni = off_i + ij2 % size_g2
            nj = ij2 // size_g2
            out[i, j] = ni * gn + nj
    return {"out": out}


def _hi_make(p, rng):
    return dict(x=rand(rng, p.n, "int32"), out=empty(p.n, "int32"))


def _hi_run(a, p):
    hints_kernel[(cdiv(p.n, 64),)](a.x, a.out, p.n, BLOCK=64)


def _hi_ref(a, p):
    return {"out": a.x.astype(np.int64) + 1}


def _pr_make(p, rng):
    return dict(x=rand(rng, p.n, "int32"))


def _pr_run(a, p):
    print_kernel[(cdiv(p.n, 8),)](a.x, p.n, BLOCK=8)


def _pr_ref(a, p):
    return {}


def _pr_check(text, a, p):
    found, other = refs.parse_prints(text, "val")
    other = [o for o in other if o.strip()]
    progs = cdiv(p.n, 8)
    want = {}
    for pid in range(progs):
        for lane in range(8):
            i = pid * 8 + lane
            want[((pid, 0, 0), (lane,))] = str(int(a.x[i]) if i < p.n
                                               else -1)
    if other:
        return Result(False, "unparsed output line: %r" % other[0][:80])
    if set(found) != set(want):
        missing = sorted(set(want) - set(found))[:1]
        extra = sorted(set(found) - set(want))[:1]
        return Result(False, "%d lines, expected %d (missing %s, extra %s)"
                      % (len(found), len(want), missing, extra))
    for key, v in want.items():
        if found[key] != v:
            return Result(False, "pid %s idx %s printed %s, expected %s"
                          % (key[0], key[1], found[key], v))
    return Result(True, "")


MANIFESTS = [
    Manifest("if_elif_else_ternary", branch_kernel, _br_make, _br_run,
             _br_ref, {"out": None},
             params=dict(n=[1, 31, 32, 33, 100, 257, 0], t=[2.5, -1.0])),
    Manifest("loops_runtime_bounds", loops_kernel, _lp_make, _lp_run,
             _lp_ref, {"out": None},
             params=dict(progs=[1, 3, 8], n_outer=[0, 1, 4, 7],
                         bounds=[(0, 10, 1), (3, 3, 1), (5, 100, 7),
                                 (-4, 9, 2), (10, 0, 1)])),
    Manifest("nested_jit_calls", calls_kernel, _cl_make, _cl_run, _cl_ref,
             {"out": None, "s": Out(tol=compare.tol("fp32", 128))},
             params=dict(shape=[(1, 1), (4, 15), (3, 16), (2, 100),
                                (7, 257)])),
    Manifest("early_return_helper", early_return_kernel, _er_make, _er_run,
             _er_ref, {"out": None}, params=dict(n=[1, 15, 16, 17, 100, 0])),
    Manifest("while_data_dependent", newton_sqrt_kernel, _nw_make, _nw_run,
             _nw_ref, {"out": Out(tol=compare.tol("fp64", ulp=2)),
                       "iters": Out(tol=compare.Tol(exact=True))},
             params=dict(n=[1, 63, 64, 65, 1000])),
    Manifest("random_philox", rand_kernel, _rd_make, _rd_run, _rd_ref,
             {"u": None, "nrm": Out(tol=compare.Tol(rtol=1e-3)),
              "i": None, "x4": None},
             params=dict(n=[1, 127, 128, 129, 1000, 0],
                         seed=[None, 0, 2**31 - 1, None])),
    Manifest("block_ptr_advance", block_ptr_kernel, _bp_make, _bp_run,
             _bp_ref, {"out": Out(tol=compare.tol("fp32", 8))},
             params=dict(shape=[(1, 1), (16, 32), (17, 33), (40, 100),
                                (5, 300)])),
    # (Rows of whole 16 bytes, as Triton requires of a descriptor's strides;
    # the blocks still overhang the tensor.)
    Manifest("tensor_descriptor", descriptor_kernel, _td_make, _td_run,
             _td_ref, {"out": None},
             params=dict(shape=[(16, 32), (17, 36), (1, 40), (100, 64),
                                (33, 8), (5, 4)])),
    Manifest("swizzle2d", swizzle_kernel, _sw_make, _sw_run, _sw_ref,
             {"out": None},
             params=dict(dims=[(4, 4, 2), (8, 4, 3), (16, 8, 4),
                               (2, 16, 1)])),
    Manifest("hints_cache_modifiers", hints_kernel, _hi_make, _hi_run,
             _hi_ref, {"out": None}, params=dict(n=[1, 63, 64, 65, 1000])),
    Manifest("device_print", print_kernel, _pr_make, _pr_run, _pr_ref, {},
             params=dict(n=[1, 8, 13]), capture=True,
             check_stdout=_pr_check),
]

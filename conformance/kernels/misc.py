"""libdevice functions (unary, binary, integer bit functions, predicates)
in fp32 and fp64, tl.softmax, map_elementwise, the Philox building blocks
(philox, randint4x, rand4x, randn4x, uint_to_uniform_float,
pair_uniform_to_normal), pointers loaded from memory (tl.pointer_type),
tensor descriptor extras (function forms, atomic_add, row gather/scatter),
compile-time checks with device_assert in debug mode, and tl.view."""

import math

import numpy as np

import triton
import triton.language as tl
from triton.language.extra import libdevice

from conformance import compare, formats, refs
from conformance.manifest import Manifest, Out, cdiv, empty, f64, \
    next_pow2, rand

BLOCK = 128


@triton.jit
def ld_unary_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.5)
    if FN == "trunc":
        y = libdevice.trunc(x)
    elif FN == "rint":
        y = libdevice.rint(x)
    elif FN == "round":
        y = libdevice.round(x)
    elif FN == "exp10":
        y = libdevice.exp10(x)
    elif FN == "expm1":
        y = libdevice.expm1(x)
    elif FN == "log10":
        y = libdevice.log10(x)
    elif FN == "log1p":
        y = libdevice.log1p(x)
    elif FN == "cbrt":
        y = libdevice.cbrt(x)
    elif FN == "tan":
        y = libdevice.tan(x)
    elif FN == "sinh":
        y = libdevice.sinh(x)
    elif FN == "cosh":
        y = libdevice.cosh(x)
    elif FN == "asin":
        y = libdevice.asin(x)
    elif FN == "acos":
        y = libdevice.acos(x)
    elif FN == "atan":
        y = libdevice.atan(x)
    elif FN == "asinh":
        y = libdevice.asinh(x)
    elif FN == "acosh":
        y = libdevice.acosh(x)
    elif FN == "atanh":
        y = libdevice.atanh(x)
    elif FN == "erfc":
        y = libdevice.erfc(x)
    elif FN == "lgamma":
        y = libdevice.lgamma(x)
    elif FN == "tgamma":
        y = libdevice.tgamma(x)
    else:
        y = libdevice.fabs(x)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def ld_binary_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    if FN == "atan2":
        z = libdevice.atan2(x, y)
    elif FN == "hypot":
        z = libdevice.hypot(x, y)
    elif FN == "copysign":
        z = libdevice.copysign(x, y)
    elif FN == "fmod":
        z = libdevice.fmod(x, y)
    elif FN == "fmin":
        z = libdevice.fmin(x, y)
    elif FN == "fmax":
        z = libdevice.fmax(x, y)
    elif FN == "fdim":
        z = libdevice.fdim(x, y)
    elif FN == "remainder":
        z = libdevice.remainder(x, y)
    else:
        z = libdevice.pow(x, y)
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def ld_int_kernel(x_ptr, clz_ptr, popc_ptr, brev_ptr, ffs_ptr, n,
                  BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(clz_ptr + offs, libdevice.clz(x), mask=mask)
    tl.store(popc_ptr + offs, libdevice.popc(x), mask=mask)
    tl.store(brev_ptr + offs, libdevice.brev(x), mask=mask)
    tl.store(ffs_ptr + offs, libdevice.ffs(x), mask=mask)


@triton.jit
def ld_pred_kernel(x_ptr, nan_ptr, inf_ptr, sb_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(nan_ptr + offs, libdevice.isnan(x), mask=mask)
    tl.store(inf_ptr + offs, libdevice.isinf(x), mask=mask)
    tl.store(sb_ptr + offs, libdevice.signbit(x) != 0, mask=mask)


@triton.jit
def softmax_builtin_kernel(x_ptr, out_ptr, N, BN: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + row * N + rn, mask=rn < N, other=-float("inf"))
    tl.store(out_ptr + row * N + rn, tl.softmax(x), mask=rn < N)


@triton.jit
def _leaky_or_cube(x, k):
    # per-element code with real branches
    if k > 0:
        return tl.maximum(x, 0.1 * x)
    return x * x * x


@triton.jit
def map_kernel(x_ptr, k_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    k = tl.load(k_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.map_elementwise(_leaky_or_cube, x, k),
             mask=mask)


@triton.jit
def philox_parts_kernel(seed, a_ptr, b_ptr, c_ptr, d_ptr, n,
                        BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    u0, u1, u2, u3 = tl.rand4x(seed, offs)
    n0, n1, n2, n3 = tl.randn4x(seed, offs)
    z = offs * 0
    c0, c1, c2, c3 = tl.philox(seed, offs, z + 7, z, z)
    f = tl.uint_to_uniform_float(c1)
    g0, g1 = tl.pair_uniform_to_normal(u2, u3)
    tl.store(a_ptr + offs, u0 + u1 + u2 + u3, mask=mask)
    tl.store(b_ptr + offs, n0 - n1 + n2 - n3, mask=mask)
    tl.store(c_ptr + offs, f + (c2 ^ c3).to(tl.float32) * 0.0, mask=mask)
    tl.store(d_ptr + offs, g0 * g1, mask=mask)


@triton.jit
def pointer_table_kernel(table_ptr, sizes_ptr, out_ptr, pool_ptr,
                         BLOCK: tl.constexpr):
    # Each program reads a pointer (an int64 address) and a length from
    # tables and sums that array: grouped-GEMM style indirection. The
    # arrays live in `pool`, which the kernel never names itself.
    g = tl.program_id(0)
    base = tl.load(table_ptr + g).to(tl.pointer_type(tl.float32))
    size = tl.load(sizes_ptr + g)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(base + offs, mask=offs < size, other=0.0)
    tl.store(out_ptr + g, tl.sum(acc, axis=0))


@triton.jit
def desc_extras_kernel(x_ptr, idx_ptr, acc_ptr, rows_ptr, M,
                       R: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, [M, 16], [16, 1], [16, 16])
    acc = tl.make_tensor_descriptor(acc_ptr, [M, 16], [16, 1], [16, 16])
    pid = tl.program_id(0)
    t = tl.load_tensor_descriptor(src, [pid * 16, 0])
    acc.atomic_add([0, 0], t)
    rows = tl.make_tensor_descriptor(rows_ptr, [M, 16], [16, 1], [1, 16])
    src_rows = tl.make_tensor_descriptor(x_ptr, [M, 16], [16, 1], [1, 16])
    if pid == 0:
        idx = tl.load(idx_ptr + tl.arange(0, R))
        g = src_rows.gather(idx, 0)
        rows.scatter(g * 2.0, idx, 0)


@triton.jit(debug=True)
def checked_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    tl.static_assert(x_ptr.dtype.element_ty == tl.float32)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.device_assert(x > 0, "inputs are positive", mask=mask)
    tl.device_assert(n >= 0)
    tl.store(out_ptr + offs, tl.sqrt(x), mask=mask)


@triton.jit
def view_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M * N)
    x = tl.load(x_ptr + offs)
    v = tl.view(x, (M, N))
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], v)


@triton.jit
def recurrence_kernel(x_ptr, out_ptr, n_rows, B: tl.constexpr):
    # out[i] = out[i - 1] / 2 + x[i], row by row: each iteration reads the
    # row the one before stored, through a walked pointer.
    cols = tl.arange(0, B)
    tl.store(out_ptr + cols, tl.load(x_ptr + cols))
    prev_ptrs = out_ptr + cols
    x_ptrs = x_ptr + B + cols
    for i in range(1, n_rows):
        prev = tl.load(prev_ptrs)
        tl.store(prev_ptrs + B, prev * 0.5 + tl.load(x_ptrs))
        prev_ptrs += B
        x_ptrs += B


# -- host side ---------------------------------------------------------------

def _c_math(fn, v):
    """math.lgamma/math.gamma with C's values at poles and infinities."""
    try:
        return fn(v)
    except OverflowError:
        return math.inf
    except ValueError:
        if v == 0:
            return math.inf if fn is math.lgamma else math.copysign(
                math.inf, v)
        if v == -math.inf:
            return math.inf if fn is math.lgamma else math.nan
        return math.inf if fn is math.lgamma else math.nan


def _c_remainder(x, y):
    try:
        return math.remainder(x, y)
    except ValueError:
        return math.nan


UNARY = {
    "trunc": (np.trunc, (-20, 20)), "rint": (np.rint, (-20, 20)),
    "round": (lambda v: np.copysign(np.floor(np.abs(v) + 0.5), v),
              (-20, 20)),
    "exp10": (lambda v: 10.0 ** v, (-10, 10)), "expm1": (np.expm1, (-5, 5)),
    "log10": (np.log10, (0.01, 100)), "log1p": (np.log1p, (-0.9, 10)),
    "cbrt": (np.cbrt, (-100, 100)), "tan": (np.tan, (-1.5, 1.5)),
    "sinh": (np.sinh, (-5, 5)), "cosh": (np.cosh, (-5, 5)),
    "asin": (np.arcsin, (-1, 1)), "acos": (np.arccos, (-1, 1)),
    "atan": (np.arctan, (-10, 10)), "asinh": (np.arcsinh, (-10, 10)),
    "acosh": (np.arccosh, (1, 10)), "atanh": (np.arctanh, (-0.99, 0.99)),
    "erfc": (np.vectorize(math.erfc, otypes=[float]), (-3, 3)),
    "lgamma": (np.vectorize(lambda v: _c_math(math.lgamma, v),
                            otypes=[float]), (0.1, 20)),
    "tgamma": (np.vectorize(lambda v: _c_math(math.gamma, v),
                            otypes=[float]), (0.1, 10)),
    "fabs": (np.abs, (-5, 5)),
}

BINARY = {
    "atan2": np.arctan2, "hypot": np.hypot, "copysign": np.copysign,
    "fmod": np.fmod, "fmin": np.fmin, "fmax": np.fmax,
    "fdim": lambda x, y: np.where(np.isnan(x) | np.isnan(y), np.nan,
                                  np.where(x > y, x - y, 0.0)),
    "remainder": lambda x, y: x - y * np.round(x / y),
    "pow": lambda x, y: np.abs(x) ** y,
}


def _un_make(p, rng):
    lo, hi = UNARY[p.fn][1]
    return dict(x=rand(rng, p.n, p.dtype, lo, hi), out=empty(p.n, p.dtype))


def _un_run(a, p):
    ld_unary_kernel[(cdiv(p.n, BLOCK),)](a.x, a.out, p.n, FN=p.fn,
                                         BLOCK=BLOCK)


def _un_ref(a, p):
    x = f64(a.x)
    return {"out": UNARY[p.fn][0](x) if x.size else x}


def _bin_make(p, rng):
    x = rand(rng, p.n, p.dtype, -10, 10)
    y = rand(rng, p.n, p.dtype, 0.5, 4)
    if p.fn == "pow":
        x = np.abs(x)
    elif p.fn not in ("fmod", "remainder"):
        y = np.where(rng.random(p.n) < 0.5, y, -y).astype(y.dtype)
    return dict(x=x, y=y, out=empty(p.n, p.dtype))


def _bin_run(a, p):
    ld_binary_kernel[(cdiv(p.n, BLOCK),)](a.x, a.y, a.out, p.n, FN=p.fn,
                                          BLOCK=BLOCK)


def _bin_ref(a, p):
    x, y = f64(a.x), f64(a.y)
    if p.fn == "remainder":
        # IEEE remainder: the quotient rounded to nearest even
        return {"out": np.vectorize(_c_remainder, otypes=[float])(x, y)
                if x.size else x}
    return {"out": BINARY[p.fn](x, y)}


def _int_make(p, rng):
    st = formats.STORAGE[p.dtype]
    bits = np.iinfo(st).bits
    raw = rng.integers(0, 2**63, size=p.n, dtype=np.uint64)
    shift = rng.integers(0, bits, size=p.n).astype(np.uint64)
    x = (raw >> shift).astype(np.uint64)
    x = x.astype({32: np.uint32, 64: np.uint64}[bits]).view(st)
    x[::7] = 0
    wide = "int32"
    return dict(x=x, clz=empty(p.n, wide), popc=empty(p.n, wide),
                brev=empty(p.n, p.dtype), ffs=empty(p.n, wide))


def _int_run(a, p):
    ld_int_kernel[(cdiv(p.n, BLOCK),)](a.x, a.clz, a.popc, a.brev, a.ffs,
                                       p.n, BLOCK=BLOCK)


def _int_ref(a, p):
    bits = np.iinfo(a.x.dtype).bits
    u = [int(v) & ((1 << bits) - 1) for v in a.x.tolist()]
    clz = [bits - v.bit_length() for v in u]
    popc = [bin(v).count("1") for v in u]
    brev = [int(format(v, "0%db" % bits)[::-1], 2) for v in u]
    ffs = [(v & -v).bit_length() for v in u]
    return {"clz": np.array(clz, np.int64), "popc": np.array(popc, np.int64),
            "brev": refs.wrap(np.array(brev, dtype=object), a.x.dtype),
            "ffs": np.array(ffs, np.int64)}


def _pred_make(p, rng):
    x = rand(rng, p.n, p.dtype, -3, 3)
    return dict(x=x, nan=empty(p.n, "bool"), inf=empty(p.n, "bool"),
                sb=empty(p.n, "bool"))


def _pred_run(a, p):
    ld_pred_kernel[(cdiv(p.n, BLOCK),)](a.x, a.nan, a.inf, a.sb, p.n,
                                        BLOCK=BLOCK)


def _pred_ref(a, p):
    x = f64(a.x)
    return {"nan": np.isnan(x), "inf": np.isinf(x), "sb": np.signbit(x)}


def _sm_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, (m, n), "fp32", -5, 5), out=empty((m, n), "fp32"))


def _sm_run(a, p):
    m, n = p.shape
    softmax_builtin_kernel[(m,)](a.x, a.out, n, BN=next_pow2(n))


def _sm_ref(a, p):
    x = f64(a.x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"out": e / e.sum(axis=1, keepdims=True)}


def _map_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"),
                k=rng.integers(-1, 2, size=p.n).astype(np.int32),
                out=empty(p.n, "fp32"))


def _map_run(a, p):
    map_kernel[(cdiv(p.n, BLOCK),)](a.x, a.k, a.out, p.n, BLOCK=BLOCK)


def _map_ref(a, p):
    x = f64(a.x)
    return {"out": np.where(a.k > 0, np.maximum(x, 0.1 * x), x ** 3)}


def _px_make(p, rng):
    return dict(seed=int(rng.integers(0, 2**31 - 1)), a=empty(p.n, "fp32"),
                b=empty(p.n, "fp32"), c=empty(p.n, "fp32"),
                d=empty(p.n, "fp32"))


def _px_run(a, p):
    philox_parts_kernel[(cdiv(p.n, BLOCK),)](a.seed, a.a, a.b, a.c, a.d,
                                             p.n, BLOCK=BLOCK)


def _normal_pair(u1, u2):
    u1 = np.maximum(np.float32(1e-7), u1).astype(np.float64)
    r = np.sqrt(-2.0 * np.log(u1))
    th = 6.283185307179586 * u2.astype(np.float64)
    return r * np.cos(th), r * np.sin(th)


def _px_ref(a, p):
    offs = np.arange(p.n)
    c = refs.philox(a.seed, offs)
    u = [refs.uniform(v) for v in c]
    n0, n1 = _normal_pair(u[0], u[1])
    n2, n3 = _normal_pair(u[2], u[3])
    k = refs.philox(a.seed, offs, np.full(p.n, 7))
    g0, g1 = _normal_pair(u[2], u[3])
    return {"a": sum(x.astype(np.float64) for x in u),
            "b": n0 - n1 + n2 - n3,
            "c": refs.uniform(k[1]).astype(np.float64), "d": g0 * g1}


def _pt_make(p, rng):
    pool = rand(rng, sum(p.sizes) + 1, "fp32")
    return dict(pool=pool, sizes=np.array(p.sizes, np.int32),
                out=empty(len(p.sizes), "fp32"))


def _pt_run(a, p):
    # The table holds the executor's own addresses of the arrays (slices of
    # the pool); the pool is passed to the kernel, or, unregistered, not.
    base = _address(a.pool)
    starts = np.cumsum([0] + list(p.sizes[:-1]))
    table = _like(a.sizes, np.array([base + 4 * int(s) for s in starts],
                                    dtype=np.int64))
    pool = a.pool if p.registered else a.sizes
    pointer_table_kernel[(len(p.sizes),)](table, a.sizes, a.out, pool,
                                          BLOCK=64)


def _address(x):
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    return x.__array_interface__["data"][0]


def _like(ref, host):
    if hasattr(ref, "cuda"):
        import torch
        return torch.from_numpy(host).to(ref.device)
    return host


def _pt_ref(a, p):
    pool = f64(a.pool)
    starts = np.cumsum([0] + list(p.sizes))
    parts = [pool[starts[i]:starts[i + 1]] for i in range(len(p.sizes))]
    return {"out": np.array([x.sum() for x in parts]),
            "out:scale": np.array([np.abs(x).sum() for x in parts])}


def _de_make(p, rng):
    m = p.m
    return dict(x=rand(rng, (m, 16), "fp32"),
                idx=rng.permutation(m)[:p.r].astype(np.int32),
                acc=np.zeros((m, 16), np.float32),
                rows=np.zeros((m, 16), np.float32))


def _de_run(a, p):
    desc_extras_kernel[(p.m // 16,)](a.x, a.idx, a.acc, a.rows, p.m, R=p.r)


def _de_ref(a, p):
    x = f64(a.x)
    acc = np.zeros_like(x)
    acc[:16] = x.reshape(-1, 16, 16).sum(axis=0)
    rows = np.zeros_like(x)
    rows[a.idx] = 2 * x[a.idx]
    return {"acc": acc, "rows": rows}


def _ck_make(p, rng):
    return dict(x=rand(rng, p.n, "fp32", 0.1, 4), out=empty(p.n, "fp32"))


def _ck_run(a, p):
    checked_kernel[(cdiv(p.n, 64),)](a.x, a.out, p.n, BLOCK=64)


def _ck_ref(a, p):
    return {"out": np.sqrt(f64(a.x))}


def _rec_make(p, rng):
    return dict(x=rand(rng, p.shape, "fp32"), out=empty(p.shape, "fp32"))


def _rec_run(a, p):
    recurrence_kernel[(1,)](a.x, a.out, p.shape[0], B=p.shape[1])


def _rec_ref(a, p):
    x = f64(a.x)
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, x.shape[0]):
        out[i] = out[i - 1] * 0.5 + x[i]
    return {"out": out}


def _vw_make(p, rng):
    m, n = p.shape
    return dict(x=rand(rng, m * n, "fp32"), out=empty((m, n), "fp32"))


def _vw_run(a, p):
    m, n = p.shape
    view_kernel[(1,)](a.x, a.out, M=m, N=n)


def _vw_ref(a, p):
    # tl.view may reorder elements: only the multiset is defined
    return {"out": f64(a.x).reshape(p.shape)}


N = [1, 127, 128, 129, 1000, 0]
# Box-Muller in fp32: sqrt(-2 log u) and cos/sin(2 pi u) each carry a few
# ULPs, and a single small result near a zero of cos/sin has a large
# relative error.
NORMAL_TOL = compare.Tol(rtol=1e-3)

MANIFESTS = [
    Manifest("libdevice_unary", ld_unary_kernel, _un_make, _un_run, _un_ref,
             {"out": Out(tol=lambda p: compare.tol(p.dtype, scale=8))},
             params=dict(fn=list(UNARY), dtype=["fp32", "fp64"],
                         n=[1, 127, 128, 129, 1000]),
             specials=["x"]),
    Manifest("libdevice_binary", ld_binary_kernel, _bin_make, _bin_run,
             _bin_ref,
             {"out": Out(tol=lambda p: compare.tol(p.dtype, scale=8))},
             params=dict(fn=list(BINARY), dtype=["fp32", "fp64"],
                         n=[1, 127, 128, 129, 1000]),
             specials=["x", "y"]),
    Manifest("libdevice_int_bits", ld_int_kernel, _int_make, _int_run,
             _int_ref, {"clz": None, "popc": None, "brev": None,
                        "ffs": None},
             params=dict(dtype=["int32", "int64"], n=N)),
    Manifest("libdevice_predicates", ld_pred_kernel, _pred_make, _pred_run,
             _pred_ref, {"nan": None, "inf": None, "sb": None},
             params=dict(dtype=["fp32", "fp64"], n=[1, 128, 129, 1000]),
             specials=["x"]),
    Manifest("softmax_builtin", softmax_builtin_kernel, _sm_make, _sm_run,
             _sm_ref, {"out": Out(tol=compare.tol("fp32", 64))},
             params=dict(shape=[(1, 1), (3, 7), (8, 128), (5, 1000)])),
    Manifest("map_elementwise", map_kernel, _map_make, _map_run, _map_ref,
             {"out": None}, params=dict(n=N)),
    Manifest("philox_parts", philox_parts_kernel, _px_make, _px_run,
             _px_ref, {"a": Out(tol=compare.tol("fp32", 4)),
                       "b": Out(tol=NORMAL_TOL), "c": None,
                       "d": Out(tol=NORMAL_TOL)},
             params=dict(n=N)),
    Manifest("pointer_table", pointer_table_kernel, _pt_make, _pt_run,
             _pt_ref, {"out": Out(tol=compare.tol("fp32", 300))},
             params=dict(sizes=[(1,), (64, 65, 1), (300, 7, 128, 0),
                                (1000,), (5, 5)],
                         registered=[True, True, True, True, True, False]),
             xfail=lambda p: None if p.registered or p.executor != "interp"
             else (
                 "the interpreter only lets a kernel touch buffers passed as "
                 "arguments: a load through a pointer read from memory into "
                 "an array not passed is reported out of bounds")),
    Manifest("descriptor_extras", desc_extras_kernel, _de_make, _de_run,
             _de_ref, {"acc": Out(tol=compare.tol("fp32", 8)), "rows": None},
             params=dict(m=[16, 32, 64], r=[8, 16])),
    Manifest("static_and_device_assert", checked_kernel, _ck_make, _ck_run,
             _ck_ref, {"out": None}, params=dict(n=[1, 63, 64, 65, 500])),
    Manifest("walked_recurrence", recurrence_kernel, _rec_make, _rec_run, _rec_ref,
             {"out": Out(tol=compare.tol("fp32", 4))},
             params=dict(shape=[(2, 32), (17, 128), (64, 256), (5, 1024)])),
    Manifest("view_reorder", view_kernel, _vw_make, _vw_run, _vw_ref,
             {"out": Out(unordered=True)},
             params=dict(shape=[(1, 1), (4, 8), (16, 2), (2, 64)])),
]

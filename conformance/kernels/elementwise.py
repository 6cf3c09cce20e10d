"""Elementwise arithmetic, comparisons, bit operations, selection, math
functions and type promotion, over every dtype they accept, on 1D blocks
with masked tails."""

import math

import numpy as np

import triton
import triton.language as tl
from triton.language.extra import libdevice

from conformance import compare, formats, refs
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand, \
    sizes

BLOCK = 128


@triton.jit
def float_arith_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr,
                       BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if OP == "add":
        z = x + y
    elif OP == "sub":
        z = x - y
    elif OP == "mul":
        z = x * y
    elif OP == "div":
        z = x / y
    elif OP == "neg":
        z = -x
    else:
        z = x * y + x
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def int_arith_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    if OP == "add":
        z = x + y
    elif OP == "sub":
        z = x - y
    elif OP == "mul":
        z = x * y
    elif OP == "floordiv":
        z = x // y
    elif OP == "mod":
        z = x % y
    else:
        z = -x
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def bitwise_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if OP == "and":
        z = x & y
    elif OP == "or":
        z = x | y
    elif OP == "xor":
        z = x ^ y
    elif OP == "not":
        z = ~x
    elif OP == "shl":
        z = x << y
    else:
        z = x >> y
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def compare_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if OP == "lt":
        z = x < y
    elif OP == "le":
        z = x <= y
    elif OP == "gt":
        z = x > y
    elif OP == "ge":
        z = x >= y
    elif OP == "eq":
        z = x == y
    else:
        z = x != y
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def where_kernel(c_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c = tl.load(c_ptr + offs, mask=mask)
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.where(c, x, y), mask=mask)


@triton.jit
def minmax_kernel(x_ptr, y_ptr, mx_ptr, mn_ptr, cl_ptr, n,
                  PROPAGATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if PROPAGATE:
        mx = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
        mn = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    else:
        mx = tl.maximum(x, y)
        mn = tl.minimum(x, y)
    tl.store(mx_ptr + offs, mx, mask=mask)
    tl.store(mn_ptr + offs, mn, mask=mask)
    tl.store(cl_ptr + offs, tl.clamp(x, -0.5, 0.75), mask=mask)


@triton.jit
def int_minmax_kernel(x_ptr, y_ptr, mx_ptr, mn_ptr, ab_ptr, n,
                      BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(mx_ptr + offs, tl.maximum(x, y), mask=mask)
    tl.store(mn_ptr + offs, tl.minimum(x, y), mask=mask)
    tl.store(ab_ptr + offs, tl.abs(x), mask=mask)


@triton.jit
def math_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    if FN == "exp":
        y = tl.exp(x)
    elif FN == "exp2":
        y = tl.exp2(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "log2":
        y = tl.math.log2(x)
    elif FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "erf":
        y = tl.erf(x)
    elif FN == "floor":
        y = tl.floor(x)
    elif FN == "ceil":
        y = tl.ceil(x)
    elif FN == "abs":
        y = tl.abs(x)
    elif FN == "sigmoid":
        y = tl.sigmoid(x)
    elif FN == "tanh":
        y = libdevice.tanh(x)
    else:
        y = libdevice.pow(x, 3.0)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def precise_kernel(x_ptr, y_ptr, z_ptr, sq_ptr, dv_ptr, fd_ptr, fma_ptr, n,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    z = tl.load(z_ptr + offs, mask=mask, other=1.0)
    tl.store(sq_ptr + offs, tl.sqrt_rn(tl.abs(x)), mask=mask)
    tl.store(dv_ptr + offs, tl.div_rn(x, y), mask=mask)
    tl.store(fd_ptr + offs, tl.fdiv(x, y, ieee_rounding=True), mask=mask)
    tl.store(fma_ptr + offs, tl.fma(x, y, z), mask=mask)


@triton.jit
def umulhi_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.umulhi(x, y), mask=mask)


@triton.jit
def promote_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Mixed dtypes: the result type follows Triton's promotion rules and
    # is stored into a buffer of that type.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def scalar_kernel(x_ptr, out_ptr, n, s, BLOCK: tl.constexpr):
    # Python literals and scalar arguments splat against blocks, and
    # literals keep the block's dtype.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = 2 * x + 1
    y = y - s
    y = 3 - y
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def logical_kernel(a_ptr, b_ptr, and_ptr, or_ptr, xor_ptr, not_ptr, n,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(and_ptr + offs, a & b, mask=mask)
    tl.store(or_ptr + offs, a | b, mask=mask)
    tl.store(xor_ptr + offs, a ^ b, mask=mask)
    tl.store(not_ptr + offs, a == 0, mask=mask)


# -- host side ---------------------------------------------------------------

def _grid(p):
    return (cdiv(p.n, BLOCK),)


def _binary_make(lo=None, hi=None, out_dtype=None, nonzero=False):
    def make(p, rng):
        x = rand(rng, p.n, p.dtype, lo, hi)
        # x * y + x rounds twice: keep y + 1 away from 0 (no cancellation)
        y = rand(rng, p.n, p.dtype, 0.0 if p.op == "fma" else lo, hi)
        if nonzero:
            y = np.where(y == 0, 1, y).astype(y.dtype)
        return dict(x=x, y=y, out=empty(p.n, out_dtype or p.dtype))
    return make


def _binary_run(kernel):
    def run(a, p):
        kernel[_grid(p)](a.x, a.y, a.out, p.n, OP=p.op, BLOCK=BLOCK)
    return run


def _float_ref(a, p):
    x, y = f64(a.x), f64(a.y)
    with np.errstate(all="ignore"):
        z = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y,
             "neg": -x, "fma": x * y + x}[p.op]
    if p.dtype in ("fp16", "bf16") and p.op == "div":
        z = formats.round_to(z, "fp32")
    return {"out": z}


def _int_ref(a, p):
    dt = a.x.dtype
    x = a.x.astype(object)
    y = a.y.astype(object)
    if p.op == "add":
        z = x + y
    elif p.op == "sub":
        z = x - y
    elif p.op == "mul":
        z = x * y
    elif p.op == "floordiv":
        z = refs.cdiv_int(x, y)
    elif p.op == "mod":
        z = refs.cmod_int(x, y)
    else:
        z = -x
    return {"out": refs.wrap(z, dt)}


def full_range(rng, n, dtype):
    """Integers over the whole range of a dtype."""
    st = formats.STORAGE[dtype]
    bits = np.iinfo(st).bits
    raw = rng.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + \
        rng.integers(0, 2, size=n, dtype=np.uint64)
    u = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    return raw.astype(u).view(st)


def _bit_make(p, rng):
    x = full_range(rng, p.n, p.dtype)
    if p.op in ("shl", "shr"):
        bits = np.iinfo(x.dtype).bits
        y = rng.integers(0, bits, size=p.n).astype(x.dtype)
    else:
        y = full_range(rng, p.n, p.dtype)
    return dict(x=x, y=y, out=empty(p.n, p.dtype))


def _bit_ref(a, p):
    dt = a.x.dtype
    x, y = a.x.astype(object), a.y.astype(object)
    bits = np.iinfo(dt).bits
    if p.op == "and":
        z = x & y
    elif p.op == "or":
        z = x | y
    elif p.op == "xor":
        z = x ^ y
    elif p.op == "not":
        z = ~x
    elif p.op == "shl":
        z = x << y
    else:
        z = x >> y  # arithmetic for signed, logical for unsigned
    del bits
    return {"out": refs.wrap(z, dt)}


def _cmp_ref(a, p):
    x, y = a.x, a.y
    if p.dtype == "bf16":
        x, y = f64(x), f64(y)
    with np.errstate(invalid="ignore"):
        z = {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y,
             "eq": x == y, "ne": x != y}[p.op]
    return {"out": z}


def _cmp_make(p, rng):
    x = rand(rng, p.n, p.dtype, -3, 3)
    y = rand(rng, p.n, p.dtype, -3, 3)
    # Equal pairs so that == and <= see ties.
    if p.n:
        if p.dtype == "bf16":
            y.bits[::3] = x.bits[::3]
        else:
            y[::3] = x[::3]
    return dict(x=x, y=y, out=empty(p.n, "bool"))


def _where_make(p, rng):
    return dict(c=rand(rng, p.n, "bool"), x=rand(rng, p.n, p.dtype),
                y=rand(rng, p.n, p.dtype), out=empty(p.n, p.dtype))


def _where_run(a, p):
    where_kernel[_grid(p)](a.c, a.x, a.y, a.out, p.n, BLOCK=BLOCK)


def _where_ref(a, p):
    if p.dtype == "bf16" or p.dtype.startswith("fp"):
        return {"out": np.where(a.c, f64(a.x), f64(a.y))}
    return {"out": np.where(a.c, a.x, a.y)}


def _mm_make(p, rng):
    return dict(x=rand(rng, p.n, p.dtype), y=rand(rng, p.n, p.dtype),
                mx=empty(p.n, p.dtype), mn=empty(p.n, p.dtype),
                cl=empty(p.n, p.dtype))


def _mm_run(a, p):
    minmax_kernel[_grid(p)](a.x, a.y, a.mx, a.mn, a.cl, p.n,
                            PROPAGATE=p.propagate, BLOCK=BLOCK)


def _mm_ref(a, p):
    x, y = f64(a.x), f64(a.y)
    with np.errstate(invalid="ignore"):
        if p.propagate:
            mx, mn = np.maximum(x, y), np.minimum(x, y)
        else:
            mx, mn = np.fmax(x, y), np.fmin(x, y)
        # propagate_nan=NONE: maxnum then minnum, so NaN clamps to lo
        cl = np.fmin(np.fmax(x, -0.5), 0.75)
    return {"mx": mx, "mn": mn, "cl": cl}


def _imm_make(p, rng):
    lo = None if p.dtype.startswith("u") else -100
    x = rand(rng, p.n, p.dtype, lo)
    if p.dtype.startswith("int") and p.n:
        x[0] = np.iinfo(x.dtype).min + 1
    return dict(x=x, y=rand(rng, p.n, p.dtype, lo),
                mx=empty(p.n, p.dtype), mn=empty(p.n, p.dtype),
                ab=empty(p.n, p.dtype))


def _imm_run(a, p):
    int_minmax_kernel[_grid(p)](a.x, a.y, a.mx, a.mn, a.ab, p.n, BLOCK=BLOCK)


def _imm_ref(a, p):
    return {"mx": np.maximum(a.x, a.y), "mn": np.minimum(a.x, a.y),
            "ab": np.abs(a.x.astype(object)).astype(a.x.dtype)}


MATH_DOMAIN = {"log": (0.01, 20), "log2": (0.01, 20), "sqrt": (0, 50),
               "rsqrt": (0.01, 50), "exp": (-20, 20), "exp2": (-20, 20),
               "sin": (-10, 10), "cos": (-10, 10), "erf": (-3, 3),
               "floor": (-50, 50), "ceil": (-50, 50), "abs": (-5, 5),
               "sigmoid": (-10, 10), "tanh": (-5, 5), "pow3": (-4, 4)}

ERF = np.vectorize(math.erf)


def _math_make(p, rng):
    lo, hi = MATH_DOMAIN[p.fn]
    return dict(x=rand(rng, p.n, p.dtype, lo, hi),
                out=empty(p.n, p.dtype))


def _math_run(a, p):
    math_kernel[_grid(p)](a.x, a.out, p.n, FN=p.fn, BLOCK=BLOCK)


def _math_ref(a, p):
    x = f64(a.x)
    with np.errstate(all="ignore"):
        y = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2,
             "sin": np.sin, "cos": np.cos, "sqrt": np.sqrt,
             "rsqrt": lambda v: 1 / np.sqrt(v), "floor": np.floor,
             "ceil": np.ceil, "abs": np.abs,
             "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
             "pow3": lambda v: v ** 3,
             "erf": lambda v: ERF(v) if v.size else v}[p.fn](x)
    return {"out": y}


def _precise_make(p, rng):
    return dict(x=rand(rng, p.n, p.dtype, -10, 10),
                y=rand(rng, p.n, p.dtype, 0.5, 3),
                z=rand(rng, p.n, p.dtype, -10, 10),
                sq=empty(p.n, p.dtype), dv=empty(p.n, p.dtype),
                fd=empty(p.n, p.dtype), fma=empty(p.n, p.dtype))


def _precise_run(a, p):
    precise_kernel[_grid(p)](a.x, a.y, a.z, a.sq, a.dv, a.fd, a.fma, p.n,
                             BLOCK=BLOCK)


def _precise_ref(a, p):
    x, y, z = f64(a.x), f64(a.y), f64(a.z)
    return {"sq": np.sqrt(np.abs(x)), "dv": x / y, "fd": x / y,
            "fma": x * y + z}


def _umulhi_make(p, rng):
    dt = np.uint32 if p.dtype == "uint32" else np.int32
    x = rng.integers(0, 2**32, size=p.n, dtype=np.uint64).astype(
        np.uint32).view(dt)
    y = rng.integers(0, 2**32, size=p.n, dtype=np.uint64).astype(
        np.uint32).view(dt)
    return dict(x=x, y=y, out=empty(p.n, p.dtype))


def _umulhi_run(a, p):
    umulhi_kernel[_grid(p)](a.x, a.y, a.out, p.n, BLOCK=BLOCK)


def _umulhi_ref(a, p):
    # mulhi is the high half of the unsigned product of the bit patterns
    x = a.x.view(np.uint32).astype(object)
    y = a.y.view(np.uint32).astype(object)
    return {"out": refs.wrap((x * y) >> 32, a.x.dtype)}


PROMOTE = [("int8", "int32", "int32"), ("int8", "fp16", "fp16"),
           ("uint8", "int8", "uint8"), ("int32", "uint32", "uint32"),
           ("fp16", "fp32", "fp32"), ("bf16", "fp32", "fp32"),
           ("fp16", "bf16", "fp16"), ("int64", "fp32", "fp32"),
           ("int16", "fp64", "fp64"), ("bool", "int32", "int32"),
           ("uint16", "int64", "int64"), ("fp32", "fp64", "fp64")]


def _promote_make(p, rng):
    tx, ty, tz = p.types
    return dict(x=rand(rng, p.n, tx, 0 if tx.startswith("u") else None),
                y=rand(rng, p.n, ty, 0 if ty.startswith("u") else None),
                out=empty(p.n, tz))


def _promote_run(a, p):
    promote_kernel[_grid(p)](a.x, a.y, a.out, p.n, BLOCK=BLOCK)


def _promote_ref(a, p):
    tz = p.types[2]
    if tz in formats.INTS:
        return {"out": refs.wrap(a.x.astype(object) + a.y.astype(object),
                                 formats.STORAGE[tz])}
    x, y = f64(a.x), f64(a.y)
    if p.types[:2] == ("fp16", "bf16"):
        # bf16 converts to fp16 before the add
        y = formats.round_to(y, "fp16")
    if p.types[0] in ("int64",):
        x = formats.round_to(x, "fp32")
    return {"out": x + y}


def _scalar_make(p, rng):
    return dict(x=rand(rng, p.n, p.dtype, -50, 50), out=empty(p.n, p.dtype))


def _scalar_run(a, p):
    scalar_kernel[_grid(p)](a.x, a.out, p.n, p.s, BLOCK=BLOCK)


def _scalar_ref(a, p):
    if p.dtype in formats.INTS:
        x = a.x.astype(object)
        return {"out": refs.wrap(3 - (2 * x + 1 - p.s), a.x.dtype)}
    x = f64(a.x)
    return {"out": 3 - (2 * x + 1 - p.s)}


def _logical_make(p, rng):
    n = p.n
    return dict(a=rand(rng, n, "bool"), b=rand(rng, n, "bool"),
                o_and=empty(n, "bool"), o_or=empty(n, "bool"),
                o_xor=empty(n, "bool"), o_not=empty(n, "bool"))


def _logical_run(a, p):
    logical_kernel[_grid(p)](a.a, a.b, a.o_and, a.o_or, a.o_xor, a.o_not,
                             p.n, BLOCK=BLOCK)


def _logical_ref(a, p):
    return {"o_and": a.a & a.b, "o_or": a.a | a.b, "o_xor": a.a ^ a.b,
            "o_not": ~a.a}


N = sizes(BLOCK, empty=True)
FLOAT_OPS = ["add", "sub", "mul", "div", "neg", "fma"]
FLOATS = ["fp32", "fp16", "bf16", "fp64", "fp32"]
INTS = list(formats.INTS)

MANIFESTS = [
    Manifest("float_arith", float_arith_kernel, _binary_make(),
             _binary_run(float_arith_kernel), _float_ref,
             {"out": Out(tol=None)},
             params=dict(n=N, op=FLOAT_OPS + FLOAT_OPS[:3], dtype=FLOATS),
             specials=["x", "y"]),
    Manifest("int_arith", int_arith_kernel, _binary_make(nonzero=True),
             _binary_run(int_arith_kernel), _int_ref, {"out": None},
             params=dict(n=N, op=["add", "sub", "mul", "floordiv", "mod",
                                  "neg", "floordiv", "mod", "mul"],
                         dtype=INTS + ["int32", "int8", "int64"])),
    Manifest("bitwise", bitwise_kernel, _bit_make,
             _binary_run(bitwise_kernel), _bit_ref, {"out": None},
             params=dict(n=N, op=["and", "or", "xor", "not", "shl", "shr",
                                  "shr"],
                         dtype=INTS + ["int32", "int8", "uint8"])),
    Manifest("compare", compare_kernel, _cmp_make,
             _binary_run(compare_kernel), _cmp_ref, {"out": None},
             params=dict(n=N, op=["lt", "le", "gt", "ge", "eq", "ne"],
                         dtype=INTS + list(formats.FLOATS)),
             specials=["x", "y"]),
    Manifest("where", where_kernel, _where_make, _where_run, _where_ref,
             {"out": None},
             params=dict(n=N, dtype=["fp32", "int8", "bf16", "fp16",
                                     "uint64", "fp64", "int16", "bool"]),
             specials=["x", "y"]),
    Manifest("minmax_clamp", minmax_kernel, _mm_make, _mm_run, _mm_ref,
             {"mx": None, "mn": None, "cl": None},
             params=dict(n=N, dtype=["fp32", "fp16", "fp64", "bf16"],
                         propagate=[False, True]),
             specials=["x", "y"]),
    Manifest("int_minmax_abs", int_minmax_kernel, _imm_make, _imm_run,
             _imm_ref, {"mx": None, "mn": None, "ab": None},
             params=dict(n=N, dtype=INTS)),
    Manifest("math_fp32", math_kernel, _math_make, _math_run, _math_ref,
             {"out": Out(tol=compare.tol("fp32", scale=4))},
             params=dict(n=sizes(BLOCK, large=1000),
                         fn=list(MATH_DOMAIN), dtype=["fp32"]),
             specials=["x"]),
    Manifest("math_fp64", math_kernel, _math_make, _math_run, _math_ref,
             {"out": Out(tol=compare.tol("fp64", scale=100))},
             params=dict(n=sizes(BLOCK, large=1000),
                         fn=list(MATH_DOMAIN), dtype=["fp64"]),
             specials=["x"]),
    Manifest("precise_div_sqrt_fma", precise_kernel, _precise_make,
             _precise_run, _precise_ref,
             {"sq": Out(tol=compare.tol("fp32", ulp=0)),
              "dv": Out(tol=compare.tol("fp32", ulp=0)),
              "fd": Out(tol=compare.tol("fp32", ulp=0)),
              "fma": Out(tol=compare.tol("fp32", ulp=1))},
             params=dict(n=N, dtype=["fp32"])),
    Manifest("umulhi", umulhi_kernel, _umulhi_make, _umulhi_run,
             _umulhi_ref, {"out": None},
             params=dict(n=N, dtype=["uint32", "int32"])),
    Manifest("promotion", promote_kernel, _promote_make, _promote_run,
             _promote_ref, {"out": Out(tol=None)},
             params=dict(n=sizes(BLOCK), types=PROMOTE)),
    Manifest("scalar_literals", scalar_kernel, _scalar_make, _scalar_run,
             _scalar_ref, {"out": None},
             params=dict(n=N, dtype=["fp32", "int32", "fp16", "int64",
                                     "fp64", "int16", "bf16", "uint8"],
                         s=[5, 1, 0, 2])),
    Manifest("bool_logic", logical_kernel, _logical_make, _logical_run,
             _logical_ref, {"o_and": None, "o_or": None, "o_xor": None,
                            "o_not": None},
             params=dict(n=N)),
]

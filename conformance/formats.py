"""Number formats the harness handles on the host: every tl dtype's numpy
storage, rounding of float64 values into a narrow float format (bf16 and the
fp8 formats numpy lacks) with round-to-nearest-even, decoding of raw codes,
and the ordered-integer view of floats used for ULP distances.

bf16 travels as uint16 codes and fp8 as uint8 codes; all rounding is done
directly from float64 (never through fp32, which would round twice).
"""

import numpy as np

# tl dtype name -> numpy storage dtype.
STORAGE = {
    "bool": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16,
    "uint32": np.uint32, "uint64": np.uint64, "fp16": np.float16,
    "bf16": np.uint16, "fp32": np.float32, "fp64": np.float64,
    "fp8e5": np.uint8, "fp8e4nv": np.uint8, "fp8e4b8": np.uint8,
    "fp8e5b16": np.uint8, "fp8e4b15": np.uint8,
}
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
FLOATS = ("fp16", "bf16", "fp32", "fp64")
FP8 = ("fp8e5", "fp8e4nv", "fp8e4b8", "fp8e5b16", "fp8e4b15")
ALL = ("bool",) + INTS + FLOATS

# Narrow float formats: (exponent bits, mantissa bits, bias, has inf,
# NaN encoding: "ieee" (all-ones exponent), "fn" (only S.1111.111),
# "fnuz" (only 0x80, no negative zero) or None (no NaN)).
FORMATS = {
    "bf16": (8, 7, 127, True, "ieee"),
    "fp16": (5, 10, 15, True, "ieee"),
    "fp8e5": (5, 2, 15, True, "ieee"),
    "fp8e4nv": (4, 3, 7, False, "fn"),
    "fp8e4b8": (4, 3, 8, False, "fnuz"),
    "fp8e5b16": (5, 2, 16, False, "fnuz"),
    "fp8e4b15": (4, 3, 15, False, None),
}


def _decode_table(fmt):
    """float64 value of every code of a format (NaN where the code is
    NaN)."""
    ebits, mbits, bias, has_inf, nan = FORMATS[fmt]
    width = 1 + ebits + mbits
    codes = np.arange(1 << width, dtype=np.int64)
    sign = np.where(codes >> (width - 1), -1.0, 1.0)
    exp = (codes >> mbits) & ((1 << ebits) - 1)
    man = codes & ((1 << mbits) - 1)
    normal = (1.0 + man / (1 << mbits)) * np.exp2(exp - bias)
    sub = (man / (1 << mbits)) * np.exp2(1 - bias)
    val = sign * np.where(exp == 0, sub, normal)
    top = (1 << ebits) - 1
    if nan == "ieee":
        val = np.where((exp == top) & (man != 0), np.nan, val)
        val = np.where((exp == top) & (man == 0), sign * np.inf, val)
    elif nan == "fn":
        val = np.where((exp == top) & (man == (1 << mbits) - 1), np.nan,
                       val)
    elif nan == "fnuz":
        val[1 << (width - 1)] = np.nan
    return val


_TABLES = {}


def table(fmt):
    if fmt not in _TABLES:
        _TABLES[fmt] = _decode_table(fmt)
    return _TABLES[fmt]


def max_finite(fmt):
    t = table(fmt)
    return float(np.nanmax(t[np.isfinite(t)]))


def decode(codes, fmt):
    """float64 values of raw codes of a narrow format."""
    if fmt == "bf16":
        bits = np.asarray(codes, dtype=np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    if fmt == "fp16":
        return np.asarray(codes, dtype=np.uint16).view(
            np.float16).astype(np.float64)
    return table(fmt)[np.asarray(codes).astype(np.int64)]


def round_to(x, fmt, ties="even"):
    """float64 values rounded to a float format (round to nearest, ties to
    even, or away from zero with ties="away"), overflowing to inf where the
    format has one, else to NaN."""
    with np.errstate(all="ignore"):
        return _round_to(np.asarray(x, dtype=np.float64), fmt, ties)


def _round_to(x, fmt, ties="even"):
    if fmt == "fp64":
        return x.copy()
    if fmt == "fp32":
        return x.astype(np.float32).astype(np.float64)
    if fmt == "fp16":
        return x.astype(np.float16).astype(np.float64)
    ebits, mbits, bias, has_inf, _ = FORMATS[fmt]
    emin = 1 - bias
    with np.errstate(all="ignore"):
        _, e = np.frexp(np.where(np.isfinite(x), x, 0.0))
        e = np.maximum(e - 1, emin)  # exponent of the leading bit
        quantum = np.exp2(e - mbits)
        if ties == "even":
            r = np.round(x / quantum) * quantum
        else:
            r = np.trunc(x / quantum + np.copysign(0.5, x)) * quantum
    r = np.where(np.isfinite(x), r, x)
    big = np.isfinite(r) & (np.abs(r) > max_finite(fmt))
    if has_inf:
        r = np.where(big, np.copysign(np.inf, r), r)
    else:
        r = np.where(big, np.nan, r)
        if not has_inf:
            r = np.where(np.isinf(x), np.nan, r)
    if FORMATS[fmt][4] is None:  # no NaN: saturate
        r = np.where(np.isnan(r) & ~np.isnan(x),
                     np.copysign(max_finite(fmt), x), r)
    return r


def encode(x, fmt):
    """Raw codes of float64 values rounded to a narrow format."""
    r = round_to(x, fmt)
    if fmt == "bf16":
        return (r.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    if fmt == "fp16":
        return r.astype(np.float16).view(np.uint16)
    t = table(fmt)
    finite = np.where(np.isnan(t), np.inf, t)
    order = np.argsort(finite, kind="stable")
    codes = np.empty(r.shape, dtype=np.int64)
    flat = r.reshape(-1)
    out = codes.reshape(-1)
    nan_code = int(np.flatnonzero(np.isnan(t))[0]) if np.isnan(t).any() \
        else 0
    for i, v in enumerate(flat):
        if np.isnan(v):
            out[i] = nan_code
            continue
        hits = order[finite[order] == v]
        if v == 0 and np.signbit(v):
            neg = [c for c in hits if np.signbit(t[c])]
            hits = neg or hits
        elif v == 0:
            pos = [c for c in hits if not np.signbit(t[c])]
            hits = pos or hits
        out[i] = hits[0]
    return codes.astype(np.uint8)


def ordered(values, fmt):
    """int64 integers in the order of the float values of `fmt` (adjacent
    floats differ by 1), for ULP distances; `values` are float64 already
    representable in `fmt` (NaN excluded)."""
    values = np.asarray(values, dtype=np.float64)
    if fmt == "fp64":
        bits, width = values.view(np.uint64), 64
    elif fmt == "fp32":
        bits, width = values.astype(np.float32).view(np.uint32), 32
    elif fmt == "fp16":
        bits, width = values.astype(np.float16).view(np.uint16), 16
    else:
        bits = encode(values, fmt)
        width = 16 if fmt == "bf16" else 8
    bits = bits.astype(np.uint64)
    sign = (bits >> np.uint64(width - 1)) & np.uint64(1)
    mag = (bits & np.uint64((1 << (width - 1)) - 1)).astype(np.int64)
    return np.where(sign == 1, -mag, mag)

"""The comparison rules (ANCHORS.md, "Numerics").

An executor's output is compared with the float64 reference:

* NaN and Inf must sit at the same positions (Inf with the same sign); a NaN
  passes only where the reference has one.
* Integers and bools must be equal, element by element.
* Floats: the relative norm error ``||out - ref|| / ||ref||`` over the finite
  positions (``||out - ref||`` when ``||ref|| == 0``) must stay under
  ``rtol``; when the tolerance sets ``ulp``, the distance in units in the
  last place between the output and the reference rounded to the output's
  format must stay under it too.

Every comparison reports the worst element: its index, both values, the
absolute error and (for floats) the ULP distance.
"""

import math

import numpy as np

from . import formats

# Relative norm error bounds for one rounding of an elementwise result.
BASE_RTOL = {"fp64": 1e-12, "fp32": 1e-6, "fp16": 1e-3, "bf16": 8e-3,
             "fp8e5": 0.13, "fp8e4nv": 0.07, "fp8e4b8": 0.07,
             "fp8e5b16": 0.13, "fp8e4b15": 0.07}


class Tol:
    """rtol: relative norm error bound; ulp: optional bound on the ULP
    distance of every element; exact: bit-exact values."""

    def __init__(self, rtol=None, ulp=None, exact=False):
        self.rtol, self.ulp, self.exact = rtol, ulp, exact

    def __repr__(self):
        if self.exact:
            return "exact"
        s = "rtol=%.1e" % self.rtol
        if self.ulp is not None:
            s += " ulp<=%g" % self.ulp
        return s


EXACT = Tol(exact=True)


def tol(fmt, k=1, scale=1.0, ulp=None):
    """The tolerance for a result of format `fmt` accumulated over `k`
    terms: the format's base bound grown by sqrt(k) (random rounding errors
    of a length-k sum), times `scale` (e.g. for fp16 operands of an fp32
    dot, or tf32)."""
    if fmt in formats.INTS or fmt == "bool":
        return EXACT
    return Tol(rtol=BASE_RTOL[fmt] * max(1.0, math.sqrt(k)) * scale,
               ulp=ulp)


def tf32(k):
    """fp32 dot with tf32 inputs (10-bit mantissas)."""
    return Tol(rtol=1e-3 * max(1.0, math.sqrt(k) / 4))


class Result:
    def __init__(self, ok, message="", **metrics):
        self.ok, self.message, self.metrics = ok, message, metrics

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return "Result(%s, %s, %r)" % (self.ok, self.message, self.metrics)


def _index(flat, shape):
    if not shape:
        return ()
    return tuple(int(i) for i in np.unravel_index(int(flat), shape))


def _value(v):
    v = v.item() if hasattr(v, "item") else v
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and \
            abs(v) < 2**53:
        return v
    return v


def compare(out, ref, fmt, tolerance=None, unordered=False, scale=None):
    """Compares `out` (values of format `fmt`, decoded to numbers) with the
    reference `ref`; returns a Result with metrics: rel_err (relative norm
    error), max_abs, worst_index, worst_out, worst_ref, ulp (max ULP
    distance, floats), mismatches (positions that differ).

    `scale`, when given, replaces |ref| as the magnitude the error is
    relative to: for a sum with cancellation, the sum of the magnitudes of
    its terms (its rounding error is relative to that, not to the sum)."""
    tolerance = tolerance or tol(fmt)
    out = np.asarray(out)
    ref = np.asarray(ref)
    if ref.shape != out.shape:
        try:
            ref = np.broadcast_to(ref, out.shape)
        except ValueError:
            return Result(False, "shape mismatch: output %s, reference %s"
                          % (out.shape, ref.shape))
    if unordered:
        out = np.sort(out.reshape(-1))
        ref = np.sort(ref.reshape(-1))
    shape = out.shape
    if out.size == 0:
        return Result(True, "", rel_err=0.0, max_abs=0.0, worst_index=None,
                      mismatches=0)
    if fmt == "bool" or fmt in formats.INTS:
        return _compare_exact(out, ref, shape)
    if scale is not None:
        scale = np.broadcast_to(np.abs(np.asarray(scale, np.float64)),
                                out.shape)
    with np.errstate(all="ignore"):
        return _compare_float(out.astype(np.float64),
                              ref.astype(np.float64), fmt, tolerance, shape,
                              scale)


def _compare_exact(out, ref, shape):
    if ref.dtype.kind == "f":
        if not np.all(np.isfinite(ref)) or np.any(ref != np.round(ref)):
            return Result(False, "integer output, non-integer reference")
        ref_cmp = ref
    else:
        ref_cmp = ref
    neq = out != ref_cmp
    n = int(np.count_nonzero(neq))
    diff = np.abs(out.astype(np.float64) - ref_cmp.astype(np.float64))
    if n:
        flat = int(np.flatnonzero(neq.reshape(-1))[0])
        worst = flat if not np.any(diff) else int(np.argmax(diff.reshape(-1)))
    else:
        flat = worst = int(np.argmax(diff.reshape(-1)))
    idx = _index(worst, shape)
    metrics = dict(rel_err=0.0 if n == 0 else float("inf"),
                   max_abs=float(diff.reshape(-1)[worst]),
                   worst_index=list(idx),
                   worst_out=_value(out.reshape(-1)[worst]),
                   worst_ref=_value(ref_cmp.reshape(-1)[worst]),
                   mismatches=n)
    if n:
        first = _index(flat, shape)
        return Result(False, "%d of %d elements differ; first at %s: "
                      "out %s, ref %s" % (n, out.size, list(first),
                                          _value(out.reshape(-1)[flat]),
                                          _value(ref_cmp.reshape(-1)[flat])),
                      **metrics)
    return Result(True, "", **metrics)


def _special_mismatch(out, ref):
    """Positions where NaN/Inf differ: NaN vs not NaN, Inf vs not the same
    Inf."""
    nan_o, nan_r = np.isnan(out), np.isnan(ref)
    inf_o, inf_r = np.isinf(out), np.isinf(ref)
    bad = nan_o != nan_r
    bad |= inf_o != inf_r
    bad |= inf_o & inf_r & (np.signbit(out) != np.signbit(ref))
    return bad


def _compare_float(out, ref, fmt, tolerance, shape, scale=None):
    bad = _special_mismatch(out, ref)
    finite = np.isfinite(out) & np.isfinite(ref)
    d = np.where(finite, np.abs(out - ref), 0.0)
    num = float(np.sqrt(np.sum(d * d)))
    mag = ref if scale is None else scale
    den = float(np.sqrt(np.sum(np.where(finite, mag, 0.0) ** 2)))
    rel = num / den if den > 0 else num
    flat_d = d.reshape(-1)
    worst = int(np.argmax(flat_d))
    ulp = None
    if fmt in BASE_RTOL:
        rr = formats.round_to(np.where(finite, ref, 0.0), fmt)
        oo = np.where(finite, out, 0.0)
        fin = finite & np.isfinite(rr)
        a = formats.ordered(np.where(fin, oo, 0.0), fmt)
        b = formats.ordered(np.where(fin, rr, 0.0), fmt)
        with np.errstate(over="ignore"):
            dist = np.where((a >= 0) == (b >= 0), np.abs(a - b),
                            np.abs(a.astype(np.float64) -
                                   b.astype(np.float64)))
        dist = np.where(fin, dist, 0).astype(np.float64)
        ulp = float(dist.max())
    metrics = dict(rel_err=rel, max_abs=float(flat_d[worst]),
                   worst_index=list(_index(worst, shape)),
                   worst_out=_value(out.reshape(-1)[worst]),
                   worst_ref=_value(ref.reshape(-1)[worst]),
                   ulp=ulp, mismatches=int(np.count_nonzero(bad)))
    if bad.any():
        flat = int(np.flatnonzero(bad.reshape(-1))[0])
        idx = list(_index(flat, shape))
        metrics.update(worst_index=idx,
                       worst_out=_value(out.reshape(-1)[flat]),
                       worst_ref=_value(ref.reshape(-1)[flat]))
        metrics["rel_err"] = float("inf")
        return Result(False, "NaN/Inf at different positions (%d); first "
                      "at %s: out %r, ref %r" % (
                          int(np.count_nonzero(bad)), idx,
                          float(out.reshape(-1)[flat]),
                          float(ref.reshape(-1)[flat])), **metrics)
    if tolerance.exact:
        if ulp is not None and ulp > 0:
            worst = int(np.argmax(dist.reshape(-1)))
            return Result(False, "not exact in %s: %g ULP at %s: out %r, "
                          "ref %r" % (fmt, ulp, list(_index(worst, shape)),
                                      float(out.reshape(-1)[worst]),
                                      float(ref.reshape(-1)[worst])),
                          **metrics)
        if ulp is None and np.any(d > 0):
            return Result(False, "not bit-exact: worst at %s: out %r, ref "
                          "%r" % (metrics["worst_index"], metrics["worst_out"],
                                  metrics["worst_ref"]), **metrics)
        return Result(True, "", **metrics)
    if not rel <= tolerance.rtol:
        return Result(False, "relative norm error %.3e > %.1e; worst at %s: "
                      "out %r, ref %r" % (rel, tolerance.rtol,
                                          metrics["worst_index"],
                                          metrics["worst_out"],
                                          metrics["worst_ref"]), **metrics)
    if tolerance.ulp is not None and ulp is not None and ulp > tolerance.ulp:
        worst = int(np.argmax(dist.reshape(-1)))
        return Result(False, "%g ULP > %g; worst at %s: out %r, ref %r" % (
            ulp, tolerance.ulp, list(_index(worst, shape)),
            float(out.reshape(-1)[worst]), float(ref.reshape(-1)[worst])),
            **metrics)
    return Result(True, "", **metrics)

"""What a corpus kernel declares about itself, and helpers to write it.

A corpus file holds @triton.jit kernels in standard Triton syntax and, in
host code, one ``MANIFEST`` (or a list ``MANIFESTS``) of ``Manifest``
objects. A manifest names the kernel case and gives:

* ``params``: the case parameters as lists (``n=[1, 127, 128, ...]``,
  ``dtype=[...]``). Case *i* takes value ``i % len`` from every list, so the
  first ``max(len)`` cases cover every value, and later indices keep making
  new combinations. The case index alone determines the shapes.
* ``make(p, rng)``: the inputs, a dict of numpy arrays (``Bf16`` for bf16,
  uint8 codes for fp8) and scalars, drawn from `rng`; output buffers are
  inputs too, pre-filled by ``empty``.
* ``run(a, p)``: launches the kernel(s) on the executor's arrays `a`.
* ``reference(a, p)``: float64 (or exact integer) values of every output,
  computed with numpy from the original inputs, independently of the kernel.
  An entry "NAME:scale" gives the magnitudes the error of NAME is relative
  to where cancellation makes |ref| the wrong yardstick (sums: the sum of
  the terms' magnitudes).
* ``outputs``: output name -> ``Out`` (its format and tolerance).
* ``specials``: float inputs that the NaN/Inf lane seeds with NaN, +-Inf and
  -0 (every fourth case, index 3 mod 4).
* ``xfail``: {case index or "*": reason}, or a function of the case
  parameters (and ``p.executor``) returning a reason or None, for known
  failures.
* ``isolate``: each case runs in a child process (known crashes).
* ``capture``: the run's stdout is captured and handed to ``check_stdout``.
"""

import numpy as np

from . import formats

# Shape values biased to boundaries: 1, small primes, around the block,
# larger than one program's tile.


def sizes(block, large=None, empty=False, extra=()):
    """Lengths that exercise masks: 1, a prime below the block, block - 1,
    block, block + 1, a non-multiple of the block larger than one tile, and
    0 where an empty launch is legal."""
    large = large or 3 * block + 5
    out = [1, 7 if block > 8 else 3, block - 1 if block > 1 else 1, block,
           block + 1, 97, large]
    if empty:
        out.append(0)
    out.extend(extra)
    return out


class Bf16:
    """A bf16 array on the host: uint16 codes."""

    def __init__(self, bits):
        self.bits = np.ascontiguousarray(bits, dtype=np.uint16)

    @staticmethod
    def from_float(values):
        return Bf16(formats.encode(np.asarray(values, np.float64), "bf16"))

    @property
    def shape(self):
        return self.bits.shape

    @property
    def size(self):
        return self.bits.size

    def float(self):
        return formats.decode(self.bits, "bf16")

    def copy(self):
        return Bf16(self.bits.copy())


class Out:
    """An output buffer: `fmt` decodes raw codes (fp8 outputs stored as
    uint8, "bf16"); `tol` is a compare.Tol (default: from the dtype);
    `k` the accumulation length for the default tolerance; `unordered`
    compares sorted values (atomics returning old values in any order)."""

    def __init__(self, fmt=None, tol=None, k=1, unordered=False):
        self.fmt, self.tol, self.k, self.unordered = fmt, tol, k, unordered


class Manifest:
    def __init__(self, name, kernel, make, run, reference, outputs,
                 params=None, specials=(), xfail=None, capture=False,
                 check_stdout=None, description="", isolate=False):
        self.name = name
        self.kernels = kernel if isinstance(kernel, (list, tuple)) \
            else [kernel]
        self.make, self.run, self.reference = make, run, reference
        self.outputs = {k: (v if isinstance(v, Out) else Out(tol=v))
                        for k, v in outputs.items()}
        self.params = params or {}
        self.specials = tuple(specials)
        self.xfail = xfail if callable(xfail) else dict(xfail or {})
        self.capture = capture
        self.check_stdout = check_stdout
        self.description = description
        self.isolate = isolate  # run each case in a child process
        self.file = None  # filled in by the loader

    @property
    def base_cases(self):
        lengths = [len(v) for v in self.params.values()] or [1]
        n = max(lengths)
        if self.specials:
            n = max(n, 4)
        return n

    def case_params(self, index):
        p = {k: v[index % len(v)] for k, v in self.params.items()}
        p["special"] = bool(self.specials) and index % 4 == 3
        return p

    def xfail_reason(self, index, executor=None):
        """The reason case `index` is a known failure on `executor`, or
        None. A callable xfail sees the case parameters plus `executor`."""
        if callable(self.xfail):
            p = _Params(self.case_params(index))
            p["executor"] = executor
            return self.xfail(p)
        return self.xfail.get(index, self.xfail.get("*"))


class _Params(dict):
    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


# -- input generation --------------------------------------------------------

def storage(dtype):
    return formats.STORAGE[dtype]


def rand(rng, shape, dtype, lo=None, hi=None):
    """Random values of a tl dtype: floats uniform in [lo, hi) (default
    [-2, 2)) rounded to the format, ints uniform over [lo, hi] (default the
    whole range for 8/16 bits, +-1000 wider), bools fair coins."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in formats.INTS:
        info = np.iinfo(storage(dtype))
        if lo is None:
            lo = info.min if info.bits <= 16 else max(info.min, -1000)
        if hi is None:
            hi = info.max if info.bits <= 16 else 1000
        lo, hi = max(lo, info.min), min(hi, info.max)
        return rng.integers(lo, hi, size=shape, endpoint=True,
                            dtype=storage(dtype))
    lo = -2.0 if lo is None else lo
    hi = 2.0 if hi is None else hi
    x = rng.uniform(lo, hi, size=shape)
    if dtype == "bf16":
        return Bf16.from_float(x)
    if dtype in formats.FP8:
        return formats.encode(x, dtype)
    return x.astype(storage(dtype))


def empty(shape, dtype):
    """An output buffer filled with a sentinel that no correct kernel
    leaves behind unnoticed: NaN for floats, 0x5A bytes for ints, True for
    bools."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if dtype == "bf16":
        return Bf16(np.full(shape, 0x7FC1, dtype=np.uint16))
    if dtype in formats.FP8:
        return np.full(shape, 0x7F, dtype=np.uint8)
    st = storage(dtype)
    if dtype == "bool":
        return np.ones(shape, dtype=np.bool_)
    if dtype in formats.INTS:
        return np.full(shape, 0x5A, dtype=np.uint8).repeat(
            np.dtype(st).itemsize).view(st).reshape(shape) if shape else \
            np.zeros(shape, st)
    return np.full(shape, np.nan, dtype=st)


def f64(x):
    """float64 values of a host array (bf16 codes decoded)."""
    if isinstance(x, Bf16):
        return x.float()
    return np.asarray(x).astype(np.float64)


def cdiv(a, b):
    return -(-a // b)


def next_pow2(n):
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()

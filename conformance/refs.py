"""Reference building blocks shared by corpus manifests, written with numpy
from the definitions (not from the kernels): Philox 4x32-10 and Triton's
uniform/normal mappings, C-style integer division, wrapping integer casts,
stable argsort with tie rules, and the device_print line parser."""

import re

import numpy as np

PHILOX_A, PHILOX_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85
M32 = np.uint64(0xFFFFFFFF)


def philox(seed, c0, c1=None, c2=None, c3=None, rounds=10):
    """Philox 4x32 with `rounds` rounds: counters c0..c3 (uint32 arrays),
    key = (low, high) 32 bits of `seed`; returns four uint32 arrays."""
    c0 = np.asarray(c0).astype(np.uint64) & M32
    zero = np.zeros_like(c0)
    c1 = zero if c1 is None else np.asarray(c1).astype(np.uint64) & M32
    c2 = zero if c2 is None else np.asarray(c2).astype(np.uint64) & M32
    c3 = zero if c3 is None else np.asarray(c3).astype(np.uint64) & M32
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    for _ in range(rounds):
        p0 = PHILOX_B * c2  # < 2^64: exact in uint64
        p1 = PHILOX_A * c0
        n0 = (p0 >> np.uint64(32)) ^ c1 ^ np.uint64(k0)
        n2 = (p1 >> np.uint64(32)) ^ c3 ^ np.uint64(k1)
        c1, c3 = p0 & M32, p1 & M32
        c0, c2 = n0, n2
        k0 = (k0 + KEY_A) & 0xFFFFFFFF
        k1 = (k1 + KEY_B) & 0xFFFFFFFF
    return tuple(c.astype(np.uint32) for c in (c0, c1, c2, c3))


def uniform(u32):
    """Triton's uint_to_uniform_float for 32-bit values: the bits as int32,
    x -> -x - 1 for negatives, times 4.6566127342e-10, in fp32."""
    x = np.asarray(u32).astype(np.uint32).view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return (x.astype(np.float32) * np.float32(4.6566127342e-10)).astype(
        np.float32)


def rand(seed, offsets):
    return uniform(philox(seed, np.asarray(offsets).astype(np.int64)
                          .astype(np.uint32))[0])


def randn(seed, offsets):
    c = philox(seed, np.asarray(offsets).astype(np.int64).astype(np.uint32))
    u1 = np.maximum(np.float32(1e-7), uniform(c[0])).astype(np.float64)
    u2 = uniform(c[1]).astype(np.float64)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)


def cdiv_int(a, b):
    """C division (truncating toward zero) of integer arrays."""
    a = np.asarray(a).astype(object)
    b = np.asarray(b).astype(object)
    q = np.vectorize(lambda x, y: abs(x) // abs(y) * (1 if (x >= 0) == (
        y >= 0) else -1), otypes=[object])(a, b)
    return q


def cmod_int(a, b):
    a = np.asarray(a).astype(object)
    b = np.asarray(b).astype(object)
    return a - cdiv_int(a, b) * b


def wrap(values, dtype):
    """Python ints wrapped to a numpy integer dtype (two's complement)."""
    info = np.iinfo(dtype)
    span = 1 << info.bits
    v = np.asarray(values).astype(object) % span
    if info.min < 0:
        v = np.where(v > info.max, v - span, v)
    return v.astype(dtype)


_PRINT = re.compile(r"pid \((\d+), (\d+), (\d+)\) idx \(([\d, ]*)\)\s*(.*)")


def parse_prints(text, prefix):
    """{(pid tuple, idx tuple): value string} of device_print lines with
    `prefix`, and the list of lines that did not parse."""
    found, other = {}, []
    for line in text.splitlines():
        m = _PRINT.match(line.strip())
        if not m:
            other.append(line)
            continue
        pid = tuple(int(g) for g in m.group(1, 2, 3))
        idx = tuple(int(x) for x in m.group(4).replace(" ", "").split(",")
                    if x)
        rest = m.group(5).strip()
        if not rest.startswith(prefix):
            other.append(line)
            continue
        value = rest[len(prefix):].strip().lstrip(":").strip()
        found[(pid, idx)] = value
    return found, other

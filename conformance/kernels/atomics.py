"""Atomics under contention: every program adds into a few counters (ints
exact, floats within tolerance), max/min over ints and floats of both
signs, and/or/xor, xchg, masked atomics, the old values returned (as a
multiset), atomic_cas counters, and a spin lock guarding a non-atomic
read-modify-write."""

import numpy as np

import triton
import triton.language as tl

from conformance import compare, refs
from conformance.manifest import Manifest, Out, cdiv, empty, f64, rand

BLOCK = 64


@triton.jit
def atomic_rmw_kernel(x_ptr, out_ptr, n, BINS: tl.constexpr,
                      OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    dst = out_ptr + offs % BINS
    if OP == "add":
        tl.atomic_add(dst, x, mask=mask)
    elif OP == "max":
        tl.atomic_max(dst, x, mask=mask)
    elif OP == "min":
        tl.atomic_min(dst, x, mask=mask)
    elif OP == "and":
        tl.atomic_and(dst, x, mask=mask)
    elif OP == "or":
        tl.atomic_or(dst, x, mask=mask)
    else:
        tl.atomic_xor(dst, x, mask=mask)


@triton.jit
def ticket_kernel(counter_ptr, old_ptr, n, BLOCK: tl.constexpr):
    # Every lane takes a ticket: the old values are a permutation of 0..n-1.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ones = tl.full((BLOCK,), 1, tl.int32)
    old = tl.atomic_add(counter_ptr + offs * 0, ones, mask=mask, sem="acq_rel")
    tl.store(old_ptr + offs, old, mask=mask)


@triton.jit
def xchg_kernel(slot_ptr, old_ptr, n):
    # Each program swaps its id into one slot; the old values plus the final
    # slot value are exactly the initial value and all ids.
    pid = tl.program_id(0)
    old = tl.atomic_xchg(slot_ptr, pid + 1)
    tl.store(old_ptr + pid, old)


@triton.jit
def cas_counter_kernel(counter_ptr, iters, scope_ptr):
    # Increments a counter `iters` times with compare-and-swap retries.
    for _ in range(iters):
        done = False
        while not done:
            cur = tl.load(counter_ptr, volatile=True)
            prev = tl.atomic_cas(counter_ptr, cur, cur + 1)
            done = prev == cur
    tl.atomic_add(scope_ptr, 1, sem="relaxed", scope="gpu")


@triton.jit
def spin_lock_kernel(lock_ptr, acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # A critical section: non-atomic load + store of a shared accumulator,
    # guarded by a lock taken with atomic_cas and released with atomic_xchg.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    part = tl.sum(x, axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    cur = tl.load(acc_ptr, volatile=True)
    tl.store(acc_ptr, cur + part)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)


# -- host side ---------------------------------------------------------------

INIT = {"add": 0, "max": None, "min": None, "and": -1, "or": 0, "xor": 0}


def _rmw_make(p, rng):
    lo = 0 if p.dtype.startswith("u") else None
    if p.dtype in ("fp32", "fp16", "fp64", "bf16"):
        # positive addends for add: the order of contended adds is free,
        # and without cancellation its rounding stays within k ulps
        x = rand(rng, p.n, p.dtype, 0.1 if p.op == "add" else -4, 4)
    else:
        x = rand(rng, p.n, p.dtype, lo)
    init = rand(rng, p.bins, p.dtype, lo) if p.op in ("max", "min") else \
        None
    if init is None:
        if p.op == "and":
            init = np.full(p.bins, -1).astype(x.dtype) if \
                not p.dtype.startswith("u") else np.full(
                    p.bins, np.iinfo(x.dtype).max, dtype=x.dtype)
        elif p.dtype == "bf16":
            from conformance.manifest import Bf16
            init = Bf16.from_float(np.zeros(p.bins))
        else:
            init = np.zeros(p.bins, dtype=x.dtype)
    return dict(x=x, out=init)


def _rmw_run(a, p):
    atomic_rmw_kernel[(cdiv(p.n, BLOCK),)](a.x, a.out, p.n, BINS=p.bins,
                                           OP=p.op, BLOCK=BLOCK)


def _rmw_ref(a, p):
    fl = p.dtype in ("fp32", "fp16", "fp64", "bf16")
    x = f64(a.x) if fl else a.x.astype(object)
    out = f64(a.out) if fl else a.out.astype(object)
    out = out.copy()
    for i in range(p.n):
        b = i % p.bins
        if p.op == "add":
            out[b] = out[b] + x[i]
        elif p.op == "max":
            out[b] = max(out[b], x[i])
        elif p.op == "min":
            out[b] = min(out[b], x[i])
        elif p.op == "and":
            out[b] = out[b] & x[i]
        elif p.op == "or":
            out[b] = out[b] | x[i]
        else:
            out[b] = out[b] ^ x[i]
    if not fl:
        out = refs.wrap(out, a.x.dtype)
    return {"out": out}


def _rmw_tol(p):
    if p.dtype in ("fp32", "fp16", "fp64", "bf16") and p.op == "add":
        # contended float adds happen in any order
        return compare.tol(p.dtype, p.n // p.bins + 1, scale=4)
    return None


def _ticket_make(p, rng):
    return dict(counter=np.zeros(1, np.int32), old=empty(p.n, "int32"))


def _ticket_run(a, p):
    ticket_kernel[(cdiv(p.n, BLOCK),)](a.counter, a.old, p.n, BLOCK=BLOCK)


def _ticket_ref(a, p):
    return {"counter": np.array([p.n]), "old": np.arange(p.n)}


def _xchg_make(p, rng):
    return dict(slot=np.array([-5], np.int32), old=empty(p.n, "int32"))


def _xchg_run(a, p):
    xchg_kernel[(p.n,)](a.slot, a.old, p.n)


def _xchg_ref(a, p):
    return {"all": np.concatenate([[-5], np.arange(1, p.n + 1)])}


def _cas_make(p, rng):
    return dict(counter=np.zeros(1, np.int32), progs=np.zeros(1, np.int32))


def _cas_run(a, p):
    cas_counter_kernel[(p.progs,)](a.counter, p.iters, a.progs)


def _cas_ref(a, p):
    return {"counter": np.array([p.progs * p.iters]),
            "progs": np.array([p.progs])}


def _lock_make(p, rng):
    return dict(lock=np.zeros(1, np.int32), acc=np.zeros(1, np.int64),
                x=rand(rng, max(p.n, 1), "int64"))


def _lock_run(a, p):
    spin_lock_kernel[(max(1, cdiv(p.n, BLOCK)),)](a.lock, a.acc, a.x, p.n,
                                                  BLOCK=BLOCK)


def _lock_ref(a, p):
    return {"lock": np.zeros(1, np.int32),
            "acc": np.array([int(a.x[:p.n].sum())])}


N = [1, 63, 64, 65, 1000, 4099]


MANIFESTS = [
    Manifest("atomic_add_contended", atomic_rmw_kernel, _rmw_make, _rmw_run,
             _rmw_ref, {"out": Out(tol=_rmw_tol)},
             params=dict(n=N, bins=[1, 3, 64, 7], op=["add"],
                         dtype=["int32", "fp32", "int64", "uint32", "fp16",
                                "fp64", "uint64", "bf16"])),
    Manifest("atomic_max_min", atomic_rmw_kernel, _rmw_make, _rmw_run,
             _rmw_ref, {"out": None},
             params=dict(n=N, bins=[1, 5, 64], op=["max", "min"],
                         dtype=["int32", "fp32", "uint32", "int64", "fp64",
                                "uint64", "fp32"])),
    Manifest("atomic_bitwise", atomic_rmw_kernel, _rmw_make, _rmw_run,
             _rmw_ref, {"out": None},
             params=dict(n=N, bins=[1, 4, 33], op=["and", "or", "xor"],
                         dtype=["int32", "uint32", "int64", "uint64"])),
    Manifest("atomic_ticket_old_values", ticket_kernel, _ticket_make,
             _ticket_run, _ticket_ref,
             {"counter": None, "old": Out(unordered=True)},
             params=dict(n=N)),
    Manifest("atomic_cas_counter", cas_counter_kernel, _cas_make, _cas_run,
             _cas_ref, {"counter": None, "progs": None},
             params=dict(progs=[1, 2, 8, 64], iters=[1, 5, 20]),
             # each case in its own process: a crash here (a loop-carried
             # value that scf.condition does not forward) once took the
             # whole run down
             isolate=True),
    Manifest("spin_lock", spin_lock_kernel, _lock_make, _lock_run, _lock_ref,
             {"lock": None, "acc": None}, params=dict(n=N + [0])),
]


def _xchg_manifest():
    def make(p, rng):
        d = _xchg_make(p, rng)
        return d

    def run(a, p):
        _xchg_run(a, p)
        # the final slot value joins the old values for one multiset check
        a["all"] = np.concatenate([np.asarray(_host(a.old)),
                                   np.asarray(_host(a.slot))])

    def ref(a, p):
        return _xchg_ref(a, p)
    return Manifest("atomic_xchg", xchg_kernel, make, run, ref,
                    {"all": Out(unordered=True)},
                    params=dict(n=[1, 2, 17, 256]))


def _host(v):
    return v.cpu().numpy() if hasattr(v, "cpu") else v


MANIFESTS.append(_xchg_manifest())

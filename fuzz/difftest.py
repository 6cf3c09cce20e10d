"""Differential fuzzing of whole kernels.

Each case is a random, valid Triton kernel written the way users write
them: a 1-D block or a 2-D tile per program with masked tails, loads of
fp32, fp16 and int32 inputs, a random expression over them (arithmetic,
min/max, casts, selections, exp/log/sqrt on safe domains, integer bit
operations, reductions along a tile axis broadcast back, tl.dot with an
fp16 weight tile), a loop carrying an accumulator and a branch on a
runtime scalar, and a masked store. Next to the kernel's text the generator
builds the same computation in numpy, in the kernel's own dtypes over the
padded tiles (masked lanes holding the load's `other`), which is the
reference.

Every case runs on each executor asked for (the interpreter always; the
GPU with ``--executors interp,cuda`` where there is one) and every output
is compared with the reference and, with two executors, with the other
executor's: ints exactly, floats by the conformance rules
(conformance/compare.py) with tolerances grown by the terms a value sums.
``--compile`` also compiles each kernel for those GPU architectures, on a
machine with or without a GPU. A disagreement, or a compile error or crash
on a kernel the generator knows to be valid, is a finding: the kernel is written to
``--findings`` (default build/difftest-findings) as a runnable .py with
its seed, and the run exits 1.

    python3 fuzz/difftest.py [--kernels N | --seconds S] [--seed S]
        [--executors interp[,cuda]] [--compile sm80,sm90]
        [--findings DIR] [--show SEED]

``--show SEED`` prints the kernel of one case; ``--case SEED`` runs one.
"""

import argparse
import os
import sys
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from conformance import compare  # noqa: E402

NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "bool": np.bool_}
TL = {"f32": "tl.float32", "f16": "tl.float16", "i32": "tl.int32"}
FMT = {"f32": "fp32", "f16": "fp16", "i32": "int32", "bool": "bool"}


class Node:
    """A value of the kernel: its text, its dtype, how many terms it sums
    (for the tolerance), its reference (a function of the case's numpy
    environment giving the padded array) and the magnitude its rounding
    errors scale with (a sum's: the sum of its terms' magnitudes, so that a
    cancelling difference is judged against its terms, not its result)."""

    def __init__(self, text, dtype, ref, terms=1, exact=False, mag=None):
        self.text, self.dtype, self.ref, self.terms = text, dtype, ref, terms
        # Exact values (loaded inputs, integers, comparisons of those) are
        # the same in every executor, so selections may branch on them.
        self.exact = exact
        self.mag = mag or (lambda env: np.abs(_cast(ref(env), "f32")
                                              if dtype == "f16" else ref(env)).astype(np.float64))


def _promote(a, b):
    if "f32" in (a, b):
        return "f32"
    if "f16" in (a, b):
        return "f16"
    return "i32"


def _cast(x, dtype):
    """numpy's cast as the kernel's .to(): floats to int truncate."""
    with np.errstate(all="ignore"):
        return np.asarray(x).astype(NP[dtype])


class Gen:
    """One random kernel and its reference."""

    def __init__(self, seed):
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        r = self.rng
        self.two_d = bool(r.random() < 0.5)
        if self.two_d:
            self.bm = int(r.choice([16, 32, 64]))
            self.bn = int(r.choice([16, 32, 64]))
            self.m = int(r.integers(1, 3 * self.bm))
            self.n = int(r.integers(1, 3 * self.bn))
            self.grid = (-(-self.m // self.bm), -(-self.n // self.bn))
            self.pshape = (self.grid[0] * self.bm, self.grid[1] * self.bn)
        else:
            self.block = int(r.choice([16, 32, 64, 128, 256]))
            self.n = int(r.integers(1, 4 * self.block))
            self.grid = (-(-self.n // self.block),)
            self.pshape = (self.grid[0] * self.block,)
        self.inputs = []      # (name, dtype, other, host array)
        self.lines = []       # kernel body statements
        self.env = {}         # name -> padded reference array
        self.count = 0
        self.use_dot = self.two_d and r.random() < 0.35
        self.scalar = float(np.float32(r.uniform(-2, 2)))
        self.flag = int(r.integers(-1, 2))
        self.iters = int(r.integers(0, 4))

    # -- values --------------------------------------------------------
    def fresh(self, prefix="v"):
        self.count += 1
        return "%s%d" % (prefix, self.count)

    def bind(self, node, prefix="v"):
        """`name = text` in the kernel; the name is the node from now on."""
        name = self.fresh(prefix)
        self.lines.append("%s = %s" % (name, node.text))
        value = node.ref(self.env)
        self.env[name] = value
        self.env["|" + name] = node.mag(self.env)
        return Node(name, node.dtype, lambda env, n=name: env[n], node.terms,
                    node.exact, lambda env, n=name: env["|" + n])

    def load(self, dtype):
        r = self.rng
        name = "in%d" % len(self.inputs)
        if dtype == "i32":
            host = r.integers(-50, 50, size=self.shape(), endpoint=True,
                              dtype=np.int32)
            other = int(r.integers(-3, 4))
        else:
            host = r.uniform(-2, 2, size=self.shape()).astype(NP[dtype])
            other = float(r.choice([0.0, 1.0, -0.5]))
        self.inputs.append((name, dtype, other, host))
        padded = np.full(self.pshape, other, dtype=NP[dtype])
        padded[tuple(slice(0, s) for s in host.shape)] = host
        x = self.fresh("x")
        self.lines.append("%s = tl.load(%s + offs, mask=mask, other=%r)"
                          % (x, name, other))
        self.env[x] = padded
        return Node(x, dtype, lambda env, n=x: env[n], exact=True)

    def shape(self):
        return (self.m, self.n) if self.two_d else (self.n,)

    # -- expressions ---------------------------------------------------
    def leaf(self, pool):
        return pool[int(self.rng.integers(len(pool)))]

    def expr(self, pool, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(pool)
        a = self.expr(pool, depth - 1)
        kinds = ["binary"] * 5 + ["unary"] * 2 + ["where", "cast"]
        if self.two_d:
            kinds += ["reduce"]
        if self.use_dot:
            kinds += ["dot"]
        kind = kinds[int(r.integers(len(kinds)))]
        if kind == "binary":
            return self.binary(a, self.expr(pool, depth - 1))
        if kind == "unary":
            return self.unary(a)
        if kind == "where":
            return self.where(pool, a, self.expr(pool, depth - 1))
        if kind == "cast":
            return self.cast(a)
        if kind == "reduce":
            return self.reduce(a)
        return self.dot(a)

    def binary(self, a, b):
        r = self.rng
        t = _promote(a.dtype, b.dtype)
        terms = a.terms + b.terms
        exact = a.exact and b.exact and t == "i32"
        if t == "i32":
            op = str(r.choice(["+", "-", "*", "&", "|", "^", "max", "min"]))
        else:
            op = str(r.choice(["+", "-", "*", "/", "max", "min", "s*"]))
        either = (lambda env: np.maximum(a.mag(env), b.mag(env)))
        if op == "max":
            return Node("tl.maximum(%s, %s)" % (a.text, b.text), t,
                        lambda env: np.maximum(_cast(a.ref(env), t),
                                               _cast(b.ref(env), t)), terms, exact, either)
        if op == "min":
            return Node("tl.minimum(%s, %s)" % (a.text, b.text), t,
                        lambda env: np.minimum(_cast(a.ref(env), t),
                                               _cast(b.ref(env), t)), terms, exact, either)
        if op == "/":  # a denominator of at least 1, in b's own type (ints:
            # fp32); a division with fp16 runs in fp32
            dt = "f32" if b.dtype == "i32" else b.dtype
            t = _promote(a.dtype, dt)
            t = "f32" if t == "f16" else t
            return Node("(%s / (tl.abs(%s) + 1.0))" % (a.text, b.text), t,
                        lambda env: _cast(_cast(a.ref(env), t) / _cast(_cast(
                            np.abs(_cast(b.ref(env), dt)) + NP[dt](1.0), dt), t), t), terms,
                        mag=lambda env: a.mag(env) * (1 + b.mag(env)) / (
                            np.abs(b.ref(env).astype(np.float64)) + 1))
        if op == "s*":  # times the runtime scalar
            return Node("(%s * s0)" % a.text, "f32",
                        lambda env: _cast(a.ref(env), "f32") * np.float32(self.scalar),
                        a.terms, mag=lambda env: a.mag(env) * abs(self.scalar))
        fn = {"+": np.add, "-": np.subtract, "*": np.multiply,
              "&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor}[op]
        mag = None
        if op in "+-":
            mag = (lambda env: a.mag(env) + b.mag(env))
        elif op == "*":
            mag = (lambda env: a.mag(env) * b.mag(env))
        with np.errstate(all="ignore"):
            return Node("(%s %s %s)" % (a.text, op, b.text), t,
                        lambda env: _cast(fn(_cast(a.ref(env), t),
                                             _cast(b.ref(env), t)), t), terms, exact, mag)

    def unary(self, a):
        r = self.rng
        t = a.dtype
        if t == "i32":
            op = str(r.choice(["neg", "abs", "shr", "div", "mod"]))
            k = int(r.integers(1, 7))
            if op == "neg":
                return Node("(-%s)" % a.text, t, lambda env: -a.ref(env), a.terms, a.exact)
            if op == "abs":
                return Node("tl.abs(%s)" % a.text, t, lambda env: np.abs(a.ref(env)),
                            a.terms, a.exact)
            if op == "shr":
                return Node("(%s >> %d)" % (a.text, k % 4), t,
                            lambda env: a.ref(env) >> np.int32(k % 4), a.terms, a.exact)
            # Non-negative operands: C and Python division agree there.
            sym = "//" if op == "div" else "%"
            fn = np.floor_divide if op == "div" else np.remainder
            return Node("(tl.abs(%s) %s %d)" % (a.text, sym, k), t,
                        lambda env: fn(np.abs(a.ref(env)), np.int32(k)), a.terms, a.exact)
        op = str(r.choice(["neg", "abs", "exp", "log", "sqrt", "sigmoid"]))
        if op == "neg":
            return Node("(-%s)" % a.text, t, lambda env: -a.ref(env), a.terms, mag=a.mag)
        if op == "abs":
            return Node("tl.abs(%s)" % a.text, t, lambda env: np.abs(a.ref(env)), a.terms,
                        mag=a.mag)
        # Math on fp32, over domains where it is finite and well conditioned.
        x = "%s.to(tl.float32)" % a.text if t == "f16" else a.text
        ref32 = (lambda env: _cast(a.ref(env), "f32"))
        # The result's own size plus the operand's error carried through
        # (each function's condition number is at most |x|, here <= 4 + |x|).
        cond = (lambda f: lambda env: np.abs(f(env)).astype(np.float64) * (1 + a.mag(env)))
        if op == "exp":
            return Node("tl.exp(tl.minimum(tl.maximum(%s, -4.0), 4.0))" % x, "f32",
                        lambda env: np.exp(np.clip(ref32(env), -4, 4)).astype(np.float32),
                        a.terms + 4, mag=cond(lambda env: np.exp(np.clip(ref32(env), -4, 4))))
        if op == "log":
            return Node("tl.log(tl.abs(%s) + 1.0)" % x, "f32",
                        lambda env: np.log(np.abs(ref32(env)) + 1).astype(np.float32),
                        a.terms + 4, mag=lambda env: np.log(np.abs(ref32(env)) + 1) + a.mag(env))
        if op == "sqrt":
            return Node("tl.sqrt(tl.abs(%s) + 0.25)" % x, "f32",
                        lambda env: np.sqrt(np.abs(ref32(env)) + 0.25).astype(np.float32),
                        a.terms + 2, mag=lambda env: np.sqrt(np.abs(ref32(env)) + 0.25) + a.mag(env))
        return Node("tl.sigmoid(%s)" % x, "f32",
                    lambda env: (1 / (1 + np.exp(-ref32(env).astype(np.float64))))
                    .astype(np.float32), a.terms + 4, mag=lambda env: 1 + a.mag(env))

    def where(self, pool, a, b):
        exact = [p for p in pool if p.exact]
        t = _promote(a.dtype, b.dtype)
        if len(exact) < 2:
            return self.binary(a, b)
        p, q = exact[int(self.rng.integers(len(exact)))], exact[int(self.rng.integers(len(exact)))]
        cmp = str(self.rng.choice(["<", ">", "<=", "!="]))
        fn = {"<": np.less, ">": np.greater, "<=": np.less_equal, "!=": np.not_equal}[cmp]
        ct = _promote(p.dtype, q.dtype)
        return Node("tl.where(%s %s %s, %s, %s)" % (p.text, cmp, q.text, a.text, b.text), t,
                    lambda env: np.where(fn(_cast(p.ref(env), ct), _cast(q.ref(env), ct)),
                                         _cast(a.ref(env), t), _cast(b.ref(env), t)),
                    max(a.terms, b.terms), a.exact and b.exact,
                    lambda env: np.maximum(a.mag(env), b.mag(env)))

    def cast(self, a):
        t = a.dtype
        if t == "i32":
            to = str(self.rng.choice(["f32", "f16"]))
            # |ints| stay below 2^11 after a clamp, so fp16 holds them.
            return Node("tl.minimum(tl.maximum(%s, -1000), 1000).to(%s)" % (a.text, TL[to]),
                        to, lambda env: _cast(np.clip(a.ref(env), -1000, 1000), to),
                        a.terms, a.exact)
        to = "f16" if t == "f32" else str(self.rng.choice(["f32", "i32"]))
        if to == "i32" and not a.exact:
            # Truncating a rounded value is not judged: one fp16 step (a
            # fused multiply-add on the GPU, Triton's default, against two
            # roundings) moves it across an integer, as 36.98 against 37.0.
            to = "f32"
        if to == "i32":  # truncation of a clamped value
            return Node("tl.minimum(tl.maximum(%s, -1000.0), 1000.0).to(tl.int32)" % a.text,
                        "i32", lambda env: _cast(np.clip(a.ref(env), -1000, 1000), "i32"),
                        a.terms)
        # fp32 to fp16: clamped into fp16's range first.
        src = a.text if t == "f16" else "tl.minimum(tl.maximum(%s, -6e4), 6e4)" % a.text
        return Node("%s.to(%s)" % (src, TL[to]), to,
                    lambda env: _cast(np.clip(a.ref(env), -6e4, 6e4) if t == "f32"
                                      else a.ref(env), to), a.terms,
                    mag=lambda env: np.maximum(a.mag(env), np.abs(a.ref(env)).astype(np.float64)))

    def tiles(self, x):
        gm, gn = self.grid
        return x.reshape(gm, self.bm, gn, self.bn)

    def untile(self, x):
        return x.reshape(self.pshape)

    def reduce(self, a):
        axis = int(self.rng.integers(2))
        op = str(self.rng.choice(["sum", "max", "min"]))
        t = a.dtype if a.dtype != "f16" else "f32"
        src = a.text if a.dtype != "f16" else "%s.to(tl.float32)" % a.text
        sub = "[:, None]" if axis == 1 else "[None, :]"
        fn = {"sum": np.sum, "max": np.max, "min": np.min}[op]
        n = self.bn if axis == 1 else self.bm

        def ref(env):
            x = self.tiles(_cast(a.ref(env), t))
            with np.errstate(all="ignore"):
                red = fn(x.astype(np.float64) if (op == "sum" and t == "f32") else x,
                         axis=3 if axis == 1 else 1, keepdims=True)
            return self.untile(np.broadcast_to(_cast(red, t), x.shape).copy())
        def mag(env):
            m = self.tiles(a.mag(env))
            red = (np.sum if op == "sum" else np.max)(m, axis=3 if axis == 1 else 1,
                                                      keepdims=True)
            return self.untile(np.broadcast_to(red, m.shape).copy())
        exact = op != "sum" or t == "i32"
        return Node("tl.broadcast_to(tl.%s(%s, axis=%d)%s, (BM, BN))" % (op, src, axis, sub),
                    t, ref, a.terms * (n if op == "sum" else 1), exact and a.exact, mag)

    def dot(self, a):
        """The tile (as fp16) times the fp16 weight tile [BN, BN]."""
        src = a.text if a.dtype == "f16" else \
            "tl.minimum(tl.maximum(%s, -6e4), 6e4).to(tl.float16)" % a.text

        def ref(env):
            x = self.tiles(_cast(np.clip(_cast(a.ref(env), "f32"), -6e4, 6e4), "f16"))
            y = np.einsum("aibk,kj->aibj", x.astype(np.float64),
                          env["w"].astype(np.float64))
            return self.untile(y.astype(np.float32))
        def mag(env):
            x = np.maximum(self.tiles(a.mag(env)), np.abs(self.tiles(
                _cast(np.clip(_cast(a.ref(env), "f32"), -6e4, 6e4), "f16")).astype(np.float64)))
            return self.untile(np.einsum("aibk,kj->aibj", x,
                                         np.abs(env["w"].astype(np.float64))))
        return Node("tl.dot(%s, w)" % src, "f32", ref, (a.terms + 1) * self.bn, mag=mag)

    # -- the kernel ----------------------------------------------------
    def build(self):
        r = self.rng
        pool = []
        for _ in range(int(r.integers(1, 4))):
            pool.append(self.load(str(r.choice(["f32", "f32", "f16", "i32"]))))
        if self.use_dot:
            self.w = r.uniform(-1, 1, size=(self.bn, self.bn)).astype(np.float16)
            self.lines.append("w = tl.load(w_ptr + tl.arange(0, BN)[:, None] * BN"
                              " + tl.arange(0, BN)[None, :])")
            self.env["w"] = self.w
        value = self.bind(self.expr(pool, int(r.integers(1, 4))))
        pool.append(value)
        if self.iters:  # a loop carrying an fp32 accumulator
            acc0 = self.expr(pool, 1)
            acc = self.fresh("acc")
            self.lines.append("%s = (%s).to(tl.float32)" % (acc, acc0.text))
            self.env[acc] = _cast(acc0.ref(self.env), "f32")
            self.env["|" + acc] = acc0.mag(self.env)
            accn = Node(acc, "f32", lambda env, n=acc: env[n],
                        mag=lambda env, n=acc: env["|" + n])
            step = self.expr(pool + [accn], 2)
            self.lines.append("for it in range(ITERS):")
            self.lines.append("    %s = %s * 0.5 + (%s).to(tl.float32)" % (acc, acc, step.text))
            terms = step.terms
            for _ in range(self.iters):
                value = (self.env[acc] * np.float32(0.5) +
                         _cast(step.ref(self.env), "f32")).astype(np.float32)
                mag = self.env["|" + acc] * 0.5 + step.mag(self.env)
                self.env[acc], self.env["|" + acc] = value, mag
            pool.append(Node(acc, "f32", lambda env, n=acc: env[n], terms * 2,
                             mag=lambda env, n=acc: env["|" + n]))
        if r.random() < 0.5:  # a branch on a runtime scalar
            then, other = self.expr(pool, 2), self.expr(pool, 2)
            t = _promote(then.dtype, other.dtype)
            name = self.fresh("b")
            self.lines.append("if flag > 0:")
            self.lines.append("    %s = (%s).to(%s)" % (name, then.text, TL[t]))
            self.lines.append("else:")
            self.lines.append("    %s = (%s).to(%s)" % (name, other.text, TL[t]))
            chosen = then if self.flag > 0 else other
            self.env[name] = _cast(chosen.ref(self.env), t)
            self.env["|" + name] = chosen.mag(self.env)
            pool.append(Node(name, t, lambda env, n=name: env[n],
                             max(then.terms, other.terms), mag=lambda env, n=name: env["|" + n]))
        out = self.expr(pool, int(r.integers(0, 3)))
        if r.random() < 0.5:
            out = pool[-1] if out is pool[-1] else self.binary(out, pool[-1])
        self.out = out
        self.out_ref = _cast(out.ref(self.env), out.dtype)
        self.out_mag = out.mag(self.env)
        self.lines.append("tl.store(out_ptr + offs, %s, mask=mask)" % out.text)
        return self

    def source(self):
        params = [name for name, _, _, _ in self.inputs]
        if self.use_dot:
            params.append("w_ptr")
        params += ["out_ptr", "M, N" if self.two_d else "n", "s0", "flag", "ITERS"]
        if self.two_d:
            params += ["BM: tl.constexpr", "BN: tl.constexpr"]
            head = ["rm = tl.program_id(0) * BM + tl.arange(0, BM)",
                    "rn = tl.program_id(1) * BN + tl.arange(0, BN)",
                    "mask = (rm[:, None] < M) & (rn[None, :] < N)",
                    "offs = rm[:, None] * N + rn[None, :]"]
        else:
            params += ["BLOCK: tl.constexpr"]
            head = ["offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)",
                    "mask = offs < n"]
        body = "\n".join("    " + line for line in head + self.lines)
        return ("import triton\nimport triton.language as tl\n\n\n"
                "@triton.jit\ndef fuzz_kernel(%s):\n%s\n" % (", ".join(params), body))

    def args(self):
        out = np.zeros(self.shape(), dtype=NP[self.out.dtype])
        args = [host for _, _, _, host in self.inputs]
        if self.use_dot:
            args.append(self.w)
        args.append(out)
        args += [self.m, self.n] if self.two_d else [self.n]
        args += [self.scalar, self.flag, self.iters]
        consts = dict(BM=self.bm, BN=self.bn) if self.two_d else dict(BLOCK=self.block)
        return args, consts

    def expected(self):
        return self.out_ref[tuple(slice(0, s) for s in self.shape())]

    def magnitude(self):
        return self.out_mag[tuple(slice(0, s) for s in self.shape())]

    def tolerance(self):
        fmt = FMT[self.out.dtype]
        if fmt in ("int32", "bool"):
            return compare.EXACT
        # A value rounded to fp16 on the way may land one fp16 step apart
        # (the GPU fuses fp16 multiply-adds, and one fp32 ulp can decide a
        # rounding): the output is then judged at fp16's precision.
        coarse = any("tl.float16" in line for line in self.lines) or any(
            t == "f16" for _, t, _, _ in self.inputs)
        base = compare.tol("fp16" if coarse else fmt, k=max(1, self.out.terms))
        # The GPU's exp/log and fused multiply-adds round differently (a few
        # fp32 ulps each, far below one fp16 step).
        return compare.Tol(rtol=base.rtol * (2 if coarse else 8))


def load_kernel(source, path):
    """The kernel of `source`, as a module written to `path` (so that
    tracebacks and diagnostics name a file the user can open)."""
    import importlib.util
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(
        "difftest_%d" % (abs(hash(path)) % 10**8), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fuzz_kernel


def describe(res):
    """A comparison's failure in one line: its reason, or the worst
    element and the error."""
    m = res.metrics
    worst = ""
    if m.get("worst_index") is not None:
        worst = "worst at %s: %r vs %r" % (m["worst_index"], m.get("worst_out"),
                                           m.get("worst_ref"))
    err = "rel err %.3g" % m["rel_err"] if m.get("rel_err") is not None else ""
    return "; ".join(x for x in (res.message, err, worst) if x)


def available(names):
    """The executors of `names` that can run here, and why the others
    cannot."""
    from conformance.executors import EXECUTORS
    usable, missing = [], []
    for name in names:
        ex = EXECUTORS[name]()
        why = ex.unavailable()
        if why:
            missing.append("%s (%s)" % (name, why))
        else:
            usable.append(ex)
    return usable, missing


def run_case(seed, executors, workdir, archs=()):
    """Runs one case on `executors` (conformance executor objects) and
    compiles it for each GPU architecture of `archs` ("sm90"); returns None
    or (kernel source, what went wrong)."""
    gen = Gen(seed).build()
    source = gen.source()
    path = os.path.join(workdir, "case_%d.py" % seed)
    kernel = load_kernel(source, path)
    args, consts = gen.args()
    for arch in archs:
        try:
            kernel.warmup(*args, grid=gen.grid, arch=arch, **consts)
        except Exception:  # noqa: BLE001 - a valid kernel must compile
            return source, "compile for %s: %s" % (arch, traceback.format_exc(limit=2))
    outputs = {}
    out_index = len(gen.inputs) + (1 if gen.use_dot else 0)
    for ex in executors:
        name = ex.name
        dev = [ex.to_device(a) for a in args]
        try:
            kernel[gen.grid](*dev, **consts)
            ex.synchronize()
        except Exception:  # noqa: BLE001 - a valid kernel must run
            return source, "%s: %s" % (name, traceback.format_exc(limit=3))
        outputs[name] = np.asarray(ex.to_host(dev[out_index]))
    fmt = FMT[gen.out.dtype]
    tol = gen.tolerance()
    for name, out in outputs.items():
        res = compare.compare(out, gen.expected(), fmt, tol,
                              scale=None if tol.exact else gen.magnitude())
        if not res.ok:
            return source, "%s vs reference: %s" % (name, describe(res))
    if len(outputs) == 2:
        a, b = list(outputs.values())
        res = compare.compare(b, a.astype(np.float64) if fmt not in ("int32", "bool") else a,
                              fmt, tol, scale=None if tol.exact else gen.magnitude())
        if not res.ok:
            return source, "%s vs %s: %s" % (tuple(outputs)[1], tuple(outputs)[0], describe(res))
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernels", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--seed", type=int, default=None,
                    help="first case's seed (default: from the clock)")
    ap.add_argument("--case", type=int, default=None, help="run one case")
    ap.add_argument("--show", type=int, default=None, help="print one case's kernel")
    ap.add_argument("--executors", default="interp")
    ap.add_argument("--compile", default="",
                    help="also compile each kernel for these GPU architectures "
                         "(sm80,sm90), with or without a GPU")
    ap.add_argument("--findings", default=os.path.join(ROOT, "build", "difftest-findings"))
    args = ap.parse_args(argv)
    np.seterr(all="ignore")
    if args.show is not None:
        gen = Gen(args.show).build()
        print(gen.source())
        print("# grid %s, args %s" % (gen.grid, gen.args()[1]))
        return 0
    names = [e for e in args.executors.split(",") if e]
    for e in names:
        if e not in ("interp", "cuda"):
            ap.error("unknown executor '%s' (interp, cuda)" % e)
    archs = [a for a in args.compile.split(",") if a]
    for a in archs:
        if a not in ("sm80", "sm90"):
            ap.error("unknown architecture '%s' (sm80, sm90)" % a)
    executors, missing = available(names)
    for m in missing:
        print("difftest: skipping executor %s" % m)
    if not executors:
        print("difftest: no executor can run here")
        return 1
    os.makedirs(args.findings, exist_ok=True)
    work = os.path.join(args.findings, "work")
    os.makedirs(work, exist_ok=True)
    if args.case is not None:
        seeds = iter([args.case])
    else:
        first = args.seed if args.seed is not None else int(time.time()) % 10**6 * 1000
        limit = args.kernels if args.kernels is not None else (
            None if args.seconds is not None else 100)
        seeds = iter(range(first, first + limit) if limit is not None else
                     __import__("itertools").count(first))
    start = time.time()
    ran, found = 0, 0
    for seed in seeds:
        if args.seconds is not None and time.time() - start > args.seconds:
            break
        result = run_case(seed, executors, work, archs)
        ran += 1
        if result:
            found += 1
            source, why = result
            path = os.path.join(args.findings, "finding_%d.py" % seed)
            with open(path, "w") as f:
                f.write(source + "\n# difftest seed %d: %s\n" % (
                    seed, why.replace("\n", "\n# ")))
            print("difftest: seed %d disagrees: %s\n  kept in %s" % (
                seed, why.strip().splitlines()[-1], path), flush=True)
        else:
            os.remove(os.path.join(work, "case_%d.py" % seed))
    print("difftest: %d kernels on %s%s, %d findings (%.0f s)" % (
        ran, ",".join(e.name for e in executors),
        "".join(", compiled for " + a for a in archs), found, time.time() - start))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

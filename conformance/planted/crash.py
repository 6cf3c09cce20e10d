"""A planted crash, kept out of the corpus: the launch kills its own process
(as a segfaulting executor would). With `isolate=True` the harness runs the
case in a child process and reports the crash as a failed case."""

import os
import signal

import triton
import triton.language as tl

from conformance.manifest import Manifest, empty, f64, rand


@triton.jit
def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


def _make(p, rng):
    return dict(x=rand(rng, 16, "fp32"), out=empty(16, "fp32"))


def _run(a, p):
    copy_kernel[(1,)](a.x, a.out, BLOCK=16)
    os.kill(os.getpid(), signal.SIGSEGV)


def _ref(a, p):
    return {"out": f64(a.x)}


MANIFEST = Manifest("planted_crash", copy_kernel, _make, _run, _ref,
                    {"out": None}, params=dict(n=[16]), isolate=True)

"""A planted bug, kept out of the corpus: vector add whose mask drops the
last element (`offsets < n_elements - 1`). `tritium check` on this file
must fail the cases whose last element is written, and print a replay
command for each."""

import triton
import triton.language as tl

from conformance.manifest import Manifest, cdiv, empty, f64, rand, sizes


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements - 1
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def _make(p, rng):
    return dict(x=rand(rng, p.n, "fp32"), y=rand(rng, p.n, "fp32"),
                out=empty(p.n, "fp32"))


def _run(a, p):
    add_kernel[(cdiv(p.n, 128),)](a.x, a.y, a.out, p.n, BLOCK_SIZE=128)


def _ref(a, p):
    return {"out": f64(a.x) + f64(a.y)}


MANIFEST = Manifest("planted_vector_add_off_by_one", add_kernel, _make, _run,
                    _ref, {"out": None}, params=dict(n=sizes(128)))

import triton
import triton.language as tl

import helpers
from helpers import BLOCK, scale as times


@triton.jit
def scale_kernel(x_ptr, y_ptr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, times(x) + helpers.SCALE)


@triton.jit
def broken_kernel(x_ptr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, helpers.broken(tl.load(x_ptr + offs)))

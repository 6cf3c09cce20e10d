import triton
import triton.language as tl

BLOCK: tl.constexpr = 64
SCALE = tl.constexpr(3.0)


@triton.jit
def scale(x):
    return x * SCALE


@triton.jit
def broken(x):
    return x + missing_name

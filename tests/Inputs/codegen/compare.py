import triton
import triton.language as tl


@triton.jit
def ne_kernel(x_ptr, y_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(o_ptr + offs, (x != y).to(tl.int32) + 2 * (x < y).to(tl.int32))


@triton.jit
def volatile_flag_kernel(flag_ptr, out_ptr):
    v = tl.load(flag_ptr, volatile=True)
    while v == 0:
        v = tl.load(flag_ptr, volatile=True)
    tl.store(out_ptr, v)


@triton.jit
def reload_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, a * 2, mask=m)
    b = tl.load(x_ptr + offs, mask=m)  # x and y may be one buffer
    tl.store(y_ptr + offs, b + 1, mask=m)

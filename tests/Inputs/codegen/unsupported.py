import triton
import triton.language as tl


@triton.jit
def sort_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.sort(x))


@triton.jit
def packed_asm_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(x_ptr + offs, y)

# Misuses of tl.inline_asm_elementwise's `pack` that the GPU lowering
# refuses with the call's location (tests/codegen/inline-asm.py).
import triton
import triton.language as tl


@triton.jit
def pack3_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $3;", "=r,=r,=r,r,r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=3)
    tl.store(x_ptr + offs, y)


@triton.jit
def pack_too_big_kernel(x_ptr):
    offs = tl.arange(0, 2)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x],
                                  dtype=tl.int8, is_pure=True, pack=4)
    tl.store(x_ptr + offs, y)


@triton.jit
def bad_constraints_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    # 4 x f16 come back in two b32 registers, not four.
    y = tl.inline_asm_elementwise("cvt.rn.f16.u8 $0, $4;", "=r,=r,=r,=r,r",
                                  [x], dtype=tl.float16, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)


@triton.jit
def scalar_pack_kernel(x_ptr):
    x = tl.load(x_ptr)
    y = tl.inline_asm_elementwise("mov.b32 $0, $2;", "=r,=r,r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=2)
    tl.store(x_ptr, y)


@triton.jit
def bool_pack_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x > 0],
                                  dtype=tl.int8, is_pure=True, pack=4)
    tl.store(x_ptr + offs, y)


@triton.jit
def bad_dollar_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("shl.b32 $0, $ 1, 3;", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + offs, y)


@triton.jit
def operand_out_of_range_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("add.s32 $0, $1, ${2};", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + offs, y)

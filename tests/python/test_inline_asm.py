"""tl.inline_asm_elementwise on the CPU interpreter: the kernel compiles
(a GPU launch could run it), and an interpreter launch is refused with the
call's location and the reason, every time it is tried."""

import numpy as np
import pytest

import triton
import triton.language as tl


@triton.jit
def asm_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x],
                                  dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)


def test_interpreter_refuses_inline_asm_with_location():
    x = np.arange(64, dtype=np.uint8)
    y = np.zeros_like(x)
    for _ in range(2):  # the second launch reuses the cached specialization
        with pytest.raises(triton.CompilationError) as info:
            asm_kernel[(1,)](x, y, BLOCK=64)
        message = str(info.value)
        assert "test_inline_asm.py:16:" in message
        assert "inline assembly runs only on a GPU" in message
    assert not y.any()

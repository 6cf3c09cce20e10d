# A positional argument after a keyword argument (see ../errors_syntax.py).
import triton
import triton.language as tl


@triton.jit
def k(X, n):
    # CHECK: syntax_posarg.py:[[@LINE+3]]:28: error: positional argument follows keyword argument
    # CHECK-NEXT: x = tl.load(X, mask=m, n)
    # CHECK-NEXT: {{^ *\^$}}
    x = tl.load(X, mask=m, n)

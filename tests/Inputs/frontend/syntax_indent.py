# An unexpected indent inside a kernel (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    x = n + 1
    # CHECK: syntax_indent.py:[[@LINE+3]]:7: error: unexpected indent
    # CHECK-NEXT: y = 2
    # CHECK-NEXT: {{^ *\^$}}
      y = 2

# A binary operator without its right operand (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    # CHECK: syntax_expr.py:[[@LINE+3]]:12: error: expected an expression, found end of line
    # CHECK-NEXT: x = n +
    # CHECK-NEXT: {{^ *\^$}}
    x = n +

# Assignment to a literal (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    # CHECK: syntax_assign.py:[[@LINE+3]]:5: error: cannot assign to literal
    # CHECK-NEXT: 1 = n
    # CHECK-NEXT: {{^ *\^$}}
    1 = n

# A character that is not Python (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    # CHECK: syntax_char.py:[[@LINE+3]]:11: error: invalid character '$' (U+0024)
    # CHECK-NEXT: x = n $ 1
    # CHECK-NEXT: {{^ *\^$}}
    x = n $ 1

# An unterminated string literal (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    # CHECK: syntax_string.py:[[@LINE+3]]:9: error: unterminated string literal (detected at line [[@LINE+3]])
    # CHECK-NEXT: s = "abc
    # CHECK-NEXT: {{^ *\^$}}
    s = "abc

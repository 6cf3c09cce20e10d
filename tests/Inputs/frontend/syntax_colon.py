# A 'def' without its ':' (see ../errors_syntax.py).
import triton


@triton.jit
# CHECK: syntax_colon.py:[[@LINE+3]]:12: error: expected ':' after function signature, found end of line
# CHECK-NEXT: def k(X, n)
# CHECK-NEXT: {{^ *\^$}}
def k(X, n)
    x = n + 1

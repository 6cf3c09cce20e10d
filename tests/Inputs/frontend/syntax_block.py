# A missing indented block after 'if' (see ../errors_syntax.py).
import triton


@triton.jit
def k(X, n):
    if n > 0:
    # CHECK: syntax_block.py:[[@LINE+3]]:5: error: expected an indented block after 'if' statement on line [[@LINE-1]]
    # CHECK-NEXT: x = 1
    # CHECK-NEXT: {{^ *\^$}}
    x = 1

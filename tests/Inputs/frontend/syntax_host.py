# A syntax error in host code outside any kernel: like an import, the file as
# a whole does not parse, so the (correct) kernel is not compiled (see
# ../errors_syntax.py).
import triton
import triton.language as tl


@triton.jit
def k(X, n):
    tl.store(X, n)


# CHECK: syntax_host.py:[[@LINE+3]]:9: error: '(' was never closed
# CHECK-NEXT: def host(:
# CHECK-NEXT: {{^ *\^$}}
def host(:
    pass

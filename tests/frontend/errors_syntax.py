# Syntax errors in a kernel: the parser reports them at file:line:col with a
# CPython-like message, the source line and a caret, and exits with status 1.
# Like an import in Python, one syntax error anywhere in the file stops every
# kernel of the file from compiling. A file holds one syntax error, so the
# other cases are files under tests/Inputs/frontend/ that carry their own CHECK lines.

# RUN: not tritium compile %s --kernel bad_syntax --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-PAREN
# A well-formed kernel of the same file does not compile either:
# RUN: not tritium compile %s --kernel good_kernel --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-PAREN
# RUN: not tritium compile %S/../Inputs/frontend/syntax_indent.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_indent.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_block.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_block.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_colon.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_colon.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_string.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_string.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_char.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_char.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_expr.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_expr.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_posarg.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_posarg.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_assign.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_assign.py
# RUN: not tritium compile %S/../Inputs/frontend/syntax_host.py --kernel k --signature "*fp32,i32" 2>&1 | FileCheck %S/../Inputs/frontend/syntax_host.py

import triton
import triton.language as tl


@triton.jit
def good_kernel(X, n):
    tl.store(X, n)


@triton.jit
def bad_syntax(X, n):
    # CHECK-PAREN: errors_syntax.py:[[@LINE+3]]:9: error: '(' was never closed
    # CHECK-PAREN-NEXT: x = (n + 1
    # CHECK-PAREN-NEXT: {{^ *\^$}}
    x = (n + 1
    y = 2

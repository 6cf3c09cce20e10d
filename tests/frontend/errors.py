# Frontend error corpus. Each case is a small kernel with exactly one user
# error; its RUN line compiles it and FileCheck matches the whole diagnostic:
# "FILE:LINE:COL: error: MESSAGE", then the source line and a caret under COL.
# Each CHECK sits just above the line it blames ([[@LINE+N]]). Errors of the
# command line itself (signature, kernel selection) print "tritium: error: ...".
# A syntax error would hide every kernel of this file, so those cases live in
# errors_syntax.py.
# Cases whose CHECK differs from what tritium prints today document the
# intended behaviour (see the report that came with this file).

import triton
import triton.language as tl


def host_helper(x):
    return x + 1


@triton.jit
def add_helper(a, b):
    return a + b


# RUN: not tritium compile %s --kernel bad_undefined --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-UNDEF
@triton.jit
def bad_undefined(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-UNDEF: errors.py:[[@LINE+3]]:35: error: undefined name 'y'
    # CHECK-UNDEF-NEXT: tl.store(X + tl.arange(0, N), y)
    # CHECK-UNDEF-NEXT: {{^ *\^$}}
    tl.store(X + tl.arange(0, N), y)


# RUN: not tritium compile %s --kernel bad_aug_undefined --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-AUG-UNDEF
@triton.jit
def bad_aug_undefined(X, n):
    # CHECK-AUG-UNDEF: errors.py:[[@LINE+3]]:5: error: undefined name 'acc'
    # CHECK-AUG-UNDEF-NEXT: acc += n
    # CHECK-AUG-UNDEF-NEXT: {{^ *\^$}}
    acc += n


# RUN: not tritium compile %s --kernel bad_nargs --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-NARGS
@triton.jit
def bad_nargs(X, N: tl.constexpr):
    # CHECK-NARGS: errors.py:[[@LINE+3]]:28: error: tl.arange() takes at most 2 positional arguments but 3 were given
    # CHECK-NARGS-NEXT: offs = tl.arange(0, N, 2)
    # CHECK-NARGS-NEXT: {{^ *\^$}}
    offs = tl.arange(0, N, 2)


# RUN: not tritium compile %s --kernel bad_kwarg --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-KWARG
@triton.jit
def bad_kwarg(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-KWARG: errors.py:[[@LINE+3]]:27: error: tl.load() got an unexpected keyword argument 'maks'
    # CHECK-KWARG-NEXT: x = tl.load(X + offs, maks=offs < 4)
    # CHECK-KWARG-NEXT: {{^ *\^$}}
    x = tl.load(X + offs, maks=offs < 4)


# RUN: not tritium compile %s --kernel bad_missing --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-MISSING
@triton.jit
def bad_missing(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-MISSING: errors.py:[[@LINE+3]]:5: error: tl.store() missing required argument 'value'
    # CHECK-MISSING-NEXT: tl.store(X + offs)
    # CHECK-MISSING-NEXT: {{^ *\^$}}
    tl.store(X + offs)


# RUN: not tritium compile %s --kernel bad_repeated_kw --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-REPEATED-KW
@triton.jit
def bad_repeated_kw(X, n):
    # CHECK-REPEATED-KW: errors.py:[[@LINE+3]]:33: error: keyword argument repeated: axis
    # CHECK-REPEATED-KW-NEXT: pid = tl.program_id(axis=0, axis=1)
    # CHECK-REPEATED-KW-NEXT: {{^ *\^$}}
    pid = tl.program_id(axis=0, axis=1)


# RUN: not tritium compile %s --kernel bad_tl_unknown --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-TL-UNKNOWN
@triton.jit
def bad_tl_unknown(X, N: tl.constexpr):
    # CHECK-TL-UNKNOWN: errors.py:[[@LINE+3]]:12: error: module 'tl' has no attribute 'arange_2d' that tritium supports
    # CHECK-TL-UNKNOWN-NEXT: x = tl.arange_2d(0, N)
    # CHECK-TL-UNKNOWN-NEXT: {{^ *\^$}}
    x = tl.arange_2d(0, N)


# RUN: not tritium compile %s --kernel bad_dtype_unknown --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DTYPE-UNKNOWN
@triton.jit
def bad_dtype_unknown(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-DTYPE-UNKNOWN: errors.py:[[@LINE+3]]:17: error: module 'tl' has no attribute 'float33' that tritium supports
    # CHECK-DTYPE-UNKNOWN-NEXT: y = x.to(tl.float33)
    # CHECK-DTYPE-UNKNOWN-NEXT: {{^ *\^$}}
    y = x.to(tl.float33)


# RUN: not tritium compile %s --kernel bad_tensor_attr --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-TENSOR-ATTR
@triton.jit
def bad_tensor_attr(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-TENSOR-ATTR: errors.py:[[@LINE+3]]:11: error: tensor has no attribute 'numel_of_things'
    # CHECK-TENSOR-ATTR-NEXT: y = x.numel_of_things
    # CHECK-TENSOR-ATTR-NEXT: {{^ *\^$}}
    y = x.numel_of_things


# RUN: not tritium compile %s --kernel bad_call_tensor --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-CALL-TENSOR
@triton.jit
def bad_call_tensor(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-CALL-TENSOR: errors.py:[[@LINE+3]]:9: error: 'x' (float32[64]) is not callable
    # CHECK-CALL-TENSOR-NEXT: y = x(1)
    # CHECK-CALL-TENSOR-NEXT: {{^ *\^$}}
    y = x(1)


# RUN: not tritium compile %s --kernel bad_call_host --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-HOST-CALL
@triton.jit
def bad_call_host(X, n):
    # CHECK-HOST-CALL: errors.py:[[@LINE+3]]:9: error: 'host_helper' is not a @triton.jit function, so kernels cannot call it
    # CHECK-HOST-CALL-NEXT: y = host_helper(n)
    # CHECK-HOST-CALL-NEXT: {{^ *\^$}}
    y = host_helper(n)


# RUN: not tritium compile %s --kernel bad_host_combine_fn --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-HOST-COMBINE
@triton.jit
def bad_host_combine_fn(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-HOST-COMBINE: errors.py:[[@LINE+3]]:25: error: 'host_helper' is not a @triton.jit function, so kernels cannot call it
    # CHECK-HOST-COMBINE-NEXT: y = tl.reduce(x, 0, host_helper)
    # CHECK-HOST-COMBINE-NEXT: {{^ *\^$}}
    y = tl.reduce(x, 0, host_helper)


# RUN: not tritium compile %s --kernel bad_helper_missing --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-HELPER-MISSING
@triton.jit
def bad_helper_missing(X, n):
    # CHECK-HELPER-MISSING: errors.py:[[@LINE+3]]:9: error: 'add_helper' missing required argument 'b'
    # CHECK-HELPER-MISSING-NEXT: y = add_helper(n)
    # CHECK-HELPER-MISSING-NEXT: {{^ *\^$}}
    y = add_helper(n)


# RUN: not tritium compile %s --kernel bad_helper_nargs --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-HELPER-NARGS
@triton.jit
def bad_helper_nargs(X, n):
    # CHECK-HELPER-NARGS: errors.py:[[@LINE+3]]:9: error: 'add_helper' takes 2 arguments but 3 were given
    # CHECK-HELPER-NARGS-NEXT: y = add_helper(n, n, n)
    # CHECK-HELPER-NARGS-NEXT: {{^ *\^$}}
    y = add_helper(n, n, n)


# RUN: not tritium compile %s --kernel bad_helper_kw --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-HELPER-KW
@triton.jit
def bad_helper_kw(X, n):
    # CHECK-HELPER-KW: errors.py:[[@LINE+3]]:23: error: 'add_helper' got an unexpected keyword argument 'c'
    # CHECK-HELPER-KW-NEXT: y = add_helper(n, c=n)
    # CHECK-HELPER-KW-NEXT: {{^ *\^$}}
    y = add_helper(n, c=n)


# RUN: not tritium compile %s --kernel bad_recursion --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RECURSION
@triton.jit
def bad_recursion(X, n):
    # CHECK-RECURSION: errors.py:[[@LINE+3]]:5: error: recursive call of 'bad_recursion': @jit functions cannot recurse
    # CHECK-RECURSION-NEXT: bad_recursion(X, n)
    # CHECK-RECURSION-NEXT: {{^ *\^$}}
    bad_recursion(X, n)


# RUN: not tritium compile %s --kernel bad_mutual_recursion --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-MUTUAL
@triton.jit
def mutual_a(n):
    return mutual_b(n)


@triton.jit
def mutual_b(n):
    # CHECK-MUTUAL: errors.py:[[@LINE+3]]:12: error: recursive call of 'mutual_a': @jit functions cannot recurse
    # CHECK-MUTUAL-NEXT: return mutual_a(n)
    # CHECK-MUTUAL-NEXT: {{^ *\^$}}
    return mutual_a(n)


@triton.jit
def bad_mutual_recursion(X, n):
    y = mutual_a(n)


# RUN: not tritium compile %s --kernel bad_return_types --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RET-TYPES
@triton.jit
def mixed_return(a, n):
    if n > 0:
        return a
    else:
        # CHECK-RET-TYPES: errors.py:[[@LINE+3]]:9: error: Return type mismatch: int32 and float32 in the two branches; give both branches one type (e.g. with .to(...))
        # CHECK-RET-TYPES-NEXT: return 1.0
        # CHECK-RET-TYPES-NEXT: {{^ *\^$}}
        return 1.0


@triton.jit
def bad_return_types(X, n):
    y = mixed_return(n, n)


# RUN: not tritium compile %s --kernel bad_arange_pow2 --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-POW2
@triton.jit
def bad_arange_pow2(X, N: tl.constexpr):
    # CHECK-ARANGE-POW2: errors.py:[[@LINE+3]]:12: error: arange's range must be a power of two, got 100 - 0 = 100
    # CHECK-ARANGE-POW2-NEXT: offs = tl.arange(0, 100)
    # CHECK-ARANGE-POW2-NEXT: {{^ *\^$}}
    offs = tl.arange(0, 100)


# RUN: not tritium compile %s --kernel bad_arange_order --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-ORDER
@triton.jit
def bad_arange_order(X, N: tl.constexpr):
    # CHECK-ARANGE-ORDER: errors.py:[[@LINE+3]]:12: error: arange end (16) must be greater than start (16)
    # CHECK-ARANGE-ORDER-NEXT: offs = tl.arange(16, 16)
    # CHECK-ARANGE-ORDER-NEXT: {{^ *\^$}}
    offs = tl.arange(16, 16)


# RUN: not tritium compile %s --kernel bad_arange_negative --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-NEG
@triton.jit
def bad_arange_negative(X, N: tl.constexpr):
    # CHECK-ARANGE-NEG: errors.py:[[@LINE+4]]:12: error: arange bounds must be non-negative and fit in int32, got -16 and 16
    # CHECK-ARANGE-NEG-NEXT: offs = tl.arange(-16, 16)
    # CHECK-ARANGE-NEG-NEXT: {{^ *\^$}}
    # CHECK-ARANGE-NEG-NOT: internal error
    offs = tl.arange(-16, 16)


# RUN: not tritium compile %s --kernel bad_arange_int32 --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-BIG
@triton.jit
def bad_arange_int32(X, N: tl.constexpr):
    # CHECK-ARANGE-BIG: errors.py:[[@LINE+3]]:12: error: arange bounds must be non-negative and fit in int32, got 0 and 4294967296
    # CHECK-ARANGE-BIG-NEXT: offs = tl.arange(0, 4294967296)
    # CHECK-ARANGE-BIG-NEXT: {{^ *\^$}}
    offs = tl.arange(0, 4294967296)


# RUN: not tritium compile %s --kernel bad_arange_float --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-FLOAT
@triton.jit
def bad_arange_float(X, N: tl.constexpr):
    # CHECK-ARANGE-FLOAT: errors.py:[[@LINE+3]]:25: error: arange end must be a constexpr int, got constexpr float 64.0
    # CHECK-ARANGE-FLOAT-NEXT: offs = tl.arange(0, 64.0)
    # CHECK-ARANGE-FLOAT-NEXT: {{^ *\^$}}
    offs = tl.arange(0, 64.0)


# RUN: not tritium compile %s --kernel bad_arange_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-ARANGE-RT
@triton.jit
def bad_arange_runtime(X, n):
    # CHECK-ARANGE-RT: errors.py:[[@LINE+3]]:25: error: arange end must be a compile-time constant (tl.constexpr), got a runtime value of type int32
    # CHECK-ARANGE-RT-NEXT: offs = tl.arange(0, n)
    # CHECK-ARANGE-RT-NEXT: {{^ *\^$}}
    offs = tl.arange(0, n)


# RUN: not tritium compile %s --kernel bad_zeros_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-ZEROS-RT
@triton.jit
def bad_zeros_runtime(X, n):
    # CHECK-ZEROS-RT: errors.py:[[@LINE+3]]:20: error: shape entries must be a compile-time constant (tl.constexpr), got a runtime value of type int32
    # CHECK-ZEROS-RT-NEXT: acc = tl.zeros((n,), dtype=tl.float32)
    # CHECK-ZEROS-RT-NEXT: {{^ *\^$}}
    acc = tl.zeros((n,), dtype=tl.float32)


# RUN: not tritium compile %s --kernel bad_program_id_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-PID-RT
@triton.jit
def bad_program_id_runtime(X, n):
    # CHECK-PID-RT: errors.py:[[@LINE+3]]:25: error: axis must be a compile-time constant (tl.constexpr), got a runtime value of type int32
    # CHECK-PID-RT-NEXT: pid = tl.program_id(n)
    # CHECK-PID-RT-NEXT: {{^ *\^$}}
    pid = tl.program_id(n)


# RUN: not tritium compile %s --kernel bad_static_range_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-STATIC-RANGE-RT
@triton.jit
def bad_static_range_runtime(X, n):
    # CHECK-STATIC-RANGE-RT: errors.py:[[@LINE+3]]:14: error: tl.static_range bounds must be a compile-time constant (tl.constexpr), got a runtime value of type int32
    # CHECK-STATIC-RANGE-RT-NEXT: for i in tl.static_range(n):
    # CHECK-STATIC-RANGE-RT-NEXT: {{^ *\^$}}
    for i in tl.static_range(n):
        pass


# RUN: not tritium compile %s --kernel bad_program_id_axis --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-PID3
@triton.jit
def bad_program_id_axis(X, n):
    # CHECK-PID3: errors.py:[[@LINE+3]]:25: error: program_id axis must be 0, 1, or 2 but got 3
    # CHECK-PID3-NEXT: pid = tl.program_id(3)
    # CHECK-PID3-NEXT: {{^ *\^$}}
    pid = tl.program_id(3)


# RUN: not tritium compile %s --kernel bad_numel --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-NUMEL
@triton.jit
def bad_numel(X, N: tl.constexpr):
    # CHECK-NUMEL: errors.py:[[@LINE+3]]:9: error: block has 2097152 elements, more than the limit of 1048576 (2^20)
    # CHECK-NUMEL-NEXT: x = tl.zeros((2048, 1024), dtype=tl.float32)
    # CHECK-NUMEL-NEXT: {{^ *\^$}}
    x = tl.zeros((2048, 1024), dtype=tl.float32)


# RUN: not tritium compile %s --kernel bad_zeros_pow2 --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-ZEROS-POW2
@triton.jit
def bad_zeros_pow2(X, N: tl.constexpr):
    # CHECK-ZEROS-POW2: errors.py:[[@LINE+3]]:9: error: block dimensions must be powers of two, got 48
    # CHECK-ZEROS-POW2-NEXT: x = tl.zeros((N, 48), dtype=tl.float32)
    # CHECK-ZEROS-POW2-NEXT: {{^ *\^$}}
    x = tl.zeros((N, 48), dtype=tl.float32)


# RUN: not tritium compile %s --kernel bad_zeros_dtype --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-ZEROS-DTYPE
@triton.jit
def bad_zeros_dtype(X, N: tl.constexpr):
    # CHECK-ZEROS-DTYPE: errors.py:[[@LINE+3]]:24: error: dtype must be a dtype (e.g. tl.float32), got constexpr int
    # CHECK-ZEROS-DTYPE-NEXT: x = tl.zeros((N,), dtype=5)
    # CHECK-ZEROS-DTYPE-NEXT: {{^ *\^$}}
    x = tl.zeros((N,), dtype=5)


# RUN: not tritium compile %s --kernel bad_full_block_value --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-FULL-BLOCK
@triton.jit
def bad_full_block_value(X, N: tl.constexpr):
    # CHECK-FULL-BLOCK: errors.py:[[@LINE+3]]:9: error: tl.full needs a scalar value, got int32[64]
    # CHECK-FULL-BLOCK-NEXT: x = tl.full((N,), tl.arange(0, N), tl.int32)
    # CHECK-FULL-BLOCK-NEXT: {{^ *\^$}}
    x = tl.full((N,), tl.arange(0, N), tl.int32)


# RUN: not tritium compile %s --kernel bad_static_assert --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-STATIC-ASSERT
@triton.jit
def bad_static_assert(X, N: tl.constexpr):
    # CHECK-STATIC-ASSERT: errors.py:[[@LINE+3]]:5: error: static_assert failed: N must be a multiple of 256
    # CHECK-STATIC-ASSERT-NEXT: tl.static_assert(N % 256 == 0, "N must be a multiple of 256")
    # CHECK-STATIC-ASSERT-NEXT: {{^ *\^$}}
    tl.static_assert(N % 256 == 0, "N must be a multiple of 256")


# RUN: not tritium compile %s --kernel bad_static_assert_nomsg --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-ASSERT-NOMSG
@triton.jit
def bad_static_assert_nomsg(X, N: tl.constexpr):
    # CHECK-ASSERT-NOMSG: errors.py:[[@LINE+3]]:5: error: static_assert failed
    # CHECK-ASSERT-NOMSG-NEXT: tl.static_assert(N == 3)
    # CHECK-ASSERT-NOMSG-NEXT: {{^ *\^$}}
    tl.static_assert(N == 3)


# RUN: not tritium compile %s --kernel bad_shape_index --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-SHAPE-IDX
@triton.jit
def bad_shape_index(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-SHAPE-IDX: errors.py:[[@LINE+3]]:30: error: tuple index 1 out of range for a tuple of 1
    # CHECK-SHAPE-IDX-NEXT: tl.static_assert(x.shape[1] == 4)
    # CHECK-SHAPE-IDX-NEXT: {{^ *\^$}}
    tl.static_assert(x.shape[1] == 4)


# RUN: not tritium compile %s --kernel bad_constexpr_div_zero --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-DIV-ZERO
@triton.jit
def bad_constexpr_div_zero(X, N: tl.constexpr):
    # CHECK-DIV-ZERO: errors.py:[[@LINE+3]]:11: error: integer division by zero in a constant expression
    # CHECK-DIV-ZERO-NEXT: M = N // 0
    # CHECK-DIV-ZERO-NEXT: {{^ *\^$}}
    M = N // 0


# RUN: not tritium compile %s --kernel bad_constexpr_overflow --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-CONST-OVERFLOW
@triton.jit
def bad_constexpr_overflow(X, n):
    # CHECK-CONST-OVERFLOW: errors.py:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}18446744073709551616{{.*}}
    y = n + 2**64


# RUN: not tritium compile %s --kernel bad_if_block --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-IF-BLOCK
@triton.jit
def bad_if_block(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-IF-BLOCK: errors.py:[[@LINE+3]]:8: error: if condition must be a scalar, got a block int1[128]; use tl.where for elementwise selection
    # CHECK-IF-BLOCK-NEXT: if x > 0:
    # CHECK-IF-BLOCK-NEXT: {{^ *\^$}}
    if x > 0:
        tl.store(X + tl.arange(0, N), x)


# RUN: not tritium compile %s --kernel bad_while_block --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-WHILE-BLOCK
@triton.jit
def bad_while_block(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-WHILE-BLOCK: errors.py:[[@LINE+3]]:11: error: while condition must be a scalar, got int1[64]
    # CHECK-WHILE-BLOCK-NEXT: while x > 0:
    # CHECK-WHILE-BLOCK-NEXT: {{^ *\^$}}
    while x > 0:
        x = x - 1


# RUN: not tritium compile %s --kernel bad_ternary_block --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-TERNARY-BLOCK
@triton.jit
def bad_ternary_block(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-TERNARY-BLOCK: errors.py:[[@LINE+3]]:16: error: a conditional expression needs a scalar condition, got int1[64]; use tl.where for blocks
    # CHECK-TERNARY-BLOCK-NEXT: y = 1.0 if x > 0 else 2.0
    # CHECK-TERNARY-BLOCK-NEXT: {{^ *\^$}}
    y = 1.0 if x > 0 else 2.0


# RUN: not tritium compile %s --kernel bad_while_true --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-WHILE-TRUE
@triton.jit
def bad_while_true(X, n):
    # CHECK-WHILE-TRUE: errors.py:[[@LINE+3]]:11: error: while condition is a compile-time constant: the loop would never end (or never run)
    # CHECK-WHILE-TRUE-NEXT: while True:
    # CHECK-WHILE-TRUE-NEXT: {{^ *\^$}}
    while True:
        n = n + 1


# RUN: not tritium compile %s --kernel bad_break --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-BREAK
@triton.jit
def bad_break(X, n):
    for i in range(n):
        # CHECK-BREAK: errors.py:[[@LINE+3]]:9: error: 'break' is not supported in Triton kernels; use a while loop with a condition
        # CHECK-BREAK-NEXT: break
        # CHECK-BREAK-NEXT: {{^ *\^$}}
        break


# RUN: not tritium compile %s --kernel bad_continue --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-CONTINUE
@triton.jit
def bad_continue(X, n):
    for i in range(n):
        # CHECK-CONTINUE: errors.py:[[@LINE+3]]:9: error: 'continue' is not supported in Triton kernels; guard the loop body with an if
        # CHECK-CONTINUE-NEXT: continue
        # CHECK-CONTINUE-NEXT: {{^ *\^$}}
        continue


# RUN: not tritium compile %s --kernel bad_return_in_loop --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RETURN-LOOP
@triton.jit
def bad_return_in_loop(X, n):
    for i in range(n):
        # CHECK-RETURN-LOOP: errors.py:[[@LINE+3]]:9: error: 'return' inside a loop is not supported
        # CHECK-RETURN-LOOP-NEXT: return
        # CHECK-RETURN-LOOP-NEXT: {{^ *\^$}}
        return


# RUN: not tritium compile %s --kernel bad_for_else --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-FOR-ELSE
@triton.jit
def bad_for_else(X, n):
    # CHECK-FOR-ELSE: errors.py:[[@LINE+3]]:5: error: 'for ... else' is not supported in kernels
    # CHECK-FOR-ELSE-NEXT: for i in range(n):
    # CHECK-FOR-ELSE-NEXT: {{^ *\^$}}
    for i in range(n):
        pass
    else:
        pass


# RUN: not tritium compile %s --kernel bad_for_tensor --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-FOR-TENSOR
@triton.jit
def bad_for_tensor(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-FOR-TENSOR: errors.py:[[@LINE+3]]:14: error: for loops must iterate over range(...), tl.range(...) or tl.static_range(...)
    # CHECK-FOR-TENSOR-NEXT: for v in x:
    # CHECK-FOR-TENSOR-NEXT: {{^ *\^$}}
    for v in x:
        pass


# RUN: not tritium compile %s --kernel bad_range_step_zero --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RANGE-STEP0
@triton.jit
def bad_range_step_zero(X, n):
    # CHECK-RANGE-STEP0: errors.py:[[@LINE+3]]:14: error: range() step must not be zero
    # CHECK-RANGE-STEP0-NEXT: for i in range(0, n, 0):
    # CHECK-RANGE-STEP0-NEXT: {{^ *\^$}}
    for i in range(0, n, 0):
        pass


# RUN: not tritium compile %s --kernel bad_range_float --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RANGE-FLOAT
@triton.jit
def bad_range_float(X, n):
    # CHECK-RANGE-FLOAT: errors.py:[[@LINE+3]]:14: error: range() bounds must be integer scalars, got float32
    # CHECK-RANGE-FLOAT-NEXT: for i in range(0.5):
    # CHECK-RANGE-FLOAT-NEXT: {{^ *\^$}}
    for i in range(0.5):
        pass


# RUN: not tritium compile %s --kernel bad_loop_carried_type --signature "*fp32,i32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-LOOP-TYPE
@triton.jit
def bad_loop_carried_type(X, n, N: tl.constexpr):
    acc = 0
    # CHECK-LOOP-TYPE: errors.py:[[@LINE+3]]:5: error: loop-carried variable 'acc' has type int32 before the loop but float32[128] at the end of its body; give it its final type before the loop (e.g. tl.zeros(..., dtype=...))
    # CHECK-LOOP-TYPE-NEXT: for i in range(n):
    # CHECK-LOOP-TYPE-NEXT: {{^ *\^$}}
    for i in range(n):
        x = tl.load(X + i * N + tl.arange(0, N))
        acc = acc + x


# RUN: not tritium compile %s --kernel bad_if_types --signature "*fp32,i32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-IF-TYPES
@triton.jit
def bad_if_types(X, n, N: tl.constexpr):
    if n > 0:
        v = tl.zeros((N,), dtype=tl.float32)
    else:
        # CHECK-IF-TYPES: errors.py:[[@LINE+3]]:9: error: Mismatched type for v between then block (float32[128]) and else block (int32[128]); give both branches one type (e.g. with .to(...))
        # CHECK-IF-TYPES-NEXT: v = tl.zeros((N,), dtype=tl.int32)
        # CHECK-IF-TYPES-NEXT: {{^ *\^$}}
        v = tl.zeros((N,), dtype=tl.int32)
    tl.store(X + tl.arange(0, N), v)


# RUN: not tritium compile %s --kernel bad_if_constant_types --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-IF-CONST-TYPES
@triton.jit
def bad_if_constant_types(X, n):
    if n > 0:
        b = 2.0
    else:
        # CHECK-IF-CONST-TYPES: errors.py:[[@LINE+3]]:9: error: Mismatched type for b between then block (float32) and else block (int32); give both branches one type (e.g. with .to(...))
        # CHECK-IF-CONST-TYPES-NEXT: b = 4
        # CHECK-IF-CONST-TYPES-NEXT: {{^ *\^$}}
        b = 4
    tl.store(X, b)


# RUN: not tritium compile %s --kernel bad_with --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-WITH
@triton.jit
def bad_with(X, n):
    # CHECK-WITH: errors.py:[[@LINE+3]]:5: error: 'with' statements are not supported in Triton kernels
    # CHECK-WITH-NEXT: with open("f") as f:
    # CHECK-WITH-NEXT: {{^ *\^$}}
    with open("f") as f:
        pass


# RUN: not tritium compile %s --kernel bad_lambda --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-LAMBDA
@triton.jit
def bad_lambda(X, n):
    # CHECK-LAMBDA: errors.py:[[@LINE+3]]:9: error: lambda expressions are not supported in kernels; define a @triton.jit function
    # CHECK-LAMBDA-NEXT: f = lambda a: a + 1
    # CHECK-LAMBDA-NEXT: {{^ *\^$}}
    f = lambda a: a + 1


# RUN: not tritium compile %s --kernel bad_try --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-TRY
@triton.jit
def bad_try(X, n):
    # CHECK-TRY: errors.py:[[@LINE+3]]:5: error: 'try' statements are not supported in Triton kernels
    # CHECK-TRY-NEXT: try:
    # CHECK-TRY-NEXT: {{^ *\^$}}
    try:
        x = 1
    except Exception:
        x = 2


# RUN: not tritium compile %s --kernel bad_raise --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-RAISE
@triton.jit
def bad_raise(X, n):
    # CHECK-RAISE: errors.py:[[@LINE+3]]:5: error: 'raise' statements are not supported in Triton kernels
    # CHECK-RAISE-NEXT: raise ValueError("no")
    # CHECK-RAISE-NEXT: {{^ *\^$}}
    raise ValueError("no")


# RUN: not tritium compile %s --kernel bad_nested_def --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-NESTED-DEF
@triton.jit
def bad_nested_def(X, n):
    # CHECK-NESTED-DEF: errors.py:[[@LINE+3]]:5: error: nested function definitions are not supported in kernels; define a module-level @triton.jit function
    # CHECK-NESTED-DEF-NEXT: def inner(a):
    # CHECK-NESTED-DEF-NEXT: {{^ *\^$}}
    def inner(a):
        return a
    x = inner(n)


# RUN: not tritium compile %s --kernel bad_fstring --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-FSTRING
@triton.jit
def bad_fstring(X, n):
    # CHECK-FSTRING: errors.py:[[@LINE+3]]:9: error: f-strings are not supported in kernels; use a plain string (or tl.static_print / print with arguments)
    # CHECK-FSTRING-NEXT: s = f"n={n}"
    # CHECK-FSTRING-NEXT: {{^ *\^$}}
    s = f"n={n}"


# RUN: not tritium compile %s --kernel bad_del --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-DEL
@triton.jit
def bad_del(X, n):
    a = n
    # CHECK-DEL: errors.py:[[@LINE+3]]:5: error: 'del' statements are not supported in Triton kernels
    # CHECK-DEL-NEXT: del a
    # CHECK-DEL-NEXT: {{^ *\^$}}
    del a


# RUN: not tritium compile %s --kernel bad_global --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-GLOBAL
@triton.jit
def bad_global(X, n):
    # CHECK-GLOBAL: errors.py:[[@LINE+3]]:5: error: 'global' statements are not supported in Triton kernels
    # CHECK-GLOBAL-NEXT: global COUNTER
    # CHECK-GLOBAL-NEXT: {{^ *\^$}}
    global COUNTER
    COUNTER = n


# RUN: not tritium compile %s --kernel bad_nonlocal --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-NONLOCAL
@triton.jit
def bad_nonlocal(X, n):
    # CHECK-NONLOCAL: errors.py:[[@LINE+3]]:5: error: 'nonlocal' statements are not supported in Triton kernels
    # CHECK-NONLOCAL-NEXT: nonlocal n
    # CHECK-NONLOCAL-NEXT: {{^ *\^$}}
    nonlocal n


# RUN: not tritium compile %s --kernel bad_import --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-IMPORT
@triton.jit
def bad_import(X, n):
    # CHECK-IMPORT: errors.py:[[@LINE+3]]:5: error: 'import' statements are not supported in Triton kernels
    # CHECK-IMPORT-NEXT: import math
    # CHECK-IMPORT-NEXT: {{^ *\^$}}
    import math


# RUN: not tritium compile %s --kernel bad_class --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-CLASS
@triton.jit
def bad_class(X, n):
    # CHECK-CLASS: errors.py:[[@LINE+3]]:5: error: 'class' statements are not supported in Triton kernels
    # CHECK-CLASS-NEXT: class Acc:
    # CHECK-CLASS-NEXT: {{^ *\^$}}
    class Acc:
        pass


# RUN: not tritium compile %s --kernel bad_yield --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-YIELD
@triton.jit
def bad_yield(X, n):
    # CHECK-YIELD: errors.py:[[@LINE+3]]:5: error: 'yield' statements are not supported in Triton kernels
    # CHECK-YIELD-NEXT: yield n
    # CHECK-YIELD-NEXT: {{^ *\^$}}
    yield n


# RUN: not tritium compile %s --kernel bad_match --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-MATCH
@triton.jit
def bad_match(X, n):
    # CHECK-MATCH: errors.py:[[@LINE+3]]:5: error: 'match' statements are not supported in Triton kernels
    # CHECK-MATCH-NEXT: match n:
    # CHECK-MATCH-NEXT: {{^ *\^$}}
    match n:
        case 1:
            pass


# RUN: not tritium compile %s --kernel bad_walrus --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-WALRUS
@triton.jit
def bad_walrus(X, n):
    # CHECK-WALRUS: errors.py:[[@LINE+3]]:9: error: assignment expression is not supported in Triton kernels
    # CHECK-WALRUS-NEXT: if (m := n + 1) > 0:
    # CHECK-WALRUS-NEXT: {{^ *\^$}}
    if (m := n + 1) > 0:
        pass


# RUN: not tritium compile %s --kernel bad_listcomp --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-LISTCOMP
@triton.jit
def bad_listcomp(X, n):
    # CHECK-LISTCOMP: errors.py:[[@LINE+3]]:21: error: a list comprehension in a kernel iterates over a tuple (its length known at compile time), got int32[4]
    # CHECK-LISTCOMP-NEXT: a = [i for i in tl.arange(0, 4)]
    # CHECK-LISTCOMP-NEXT: {{^ *\^$}}
    a = [i for i in tl.arange(0, 4)]


# RUN: not tritium compile %s --kernel bad_dict --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-DICT
@triton.jit
def bad_dict(X, n):
    # CHECK-DICT: errors.py:[[@LINE+3]]:9: error: dict display is not supported in Triton kernels
    # CHECK-DICT-NEXT: d = {"a": n}
    # CHECK-DICT-NEXT: {{^ *\^$}}
    d = {"a": n}


# RUN: not tritium compile %s --kernel bad_unpack --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-UNPACK
@triton.jit
def bad_unpack(X, n):
    # CHECK-UNPACK: errors.py:[[@LINE+3]]:5: error: cannot unpack a tuple of 3 values into 2 names
    # CHECK-UNPACK-NEXT: a, b = 1, 2, 3
    # CHECK-UNPACK-NEXT: {{^ *\^$}}
    a, b = 1, 2, 3


# RUN: not tritium compile %s --kernel bad_tuple_index --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-TUPLE-IDX
@triton.jit
def bad_tuple_index(X, n):
    t = (n, n)
    # CHECK-TUPLE-IDX: errors.py:[[@LINE+3]]:11: error: tuple index 2 out of range for a tuple of 2
    # CHECK-TUPLE-IDX-NEXT: y = t[2]
    # CHECK-TUPLE-IDX-NEXT: {{^ *\^$}}
    y = t[2]


# RUN: not tritium compile %s --kernel bad_subscript_assign --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-SUBSCRIPT-ASSIGN
@triton.jit
def bad_subscript_assign(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-SUBSCRIPT-ASSIGN: errors.py:[[@LINE+3]]:5: error: assignment to a subscript is not supported: tensors are immutable values (use tl.where or tl.store)
    # CHECK-SUBSCRIPT-ASSIGN-NEXT: x[0] = 1.0
    # CHECK-SUBSCRIPT-ASSIGN-NEXT: {{^ *\^$}}
    x[0] = 1.0


# RUN: not tritium compile %s --kernel bad_broadcast --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-BCAST-SHAPES
@triton.jit
def bad_broadcast(X, N: tl.constexpr):
    a = tl.arange(0, 64)
    b = tl.arange(0, 32)
    # CHECK-BCAST-SHAPES: errors.py:[[@LINE+3]]:11: error: cannot broadcast shapes [64] and [32]: dimension 0 is 64 vs 32
    # CHECK-BCAST-SHAPES-NEXT: c = a + b
    # CHECK-BCAST-SHAPES-NEXT: {{^ *\^$}}
    c = a + b


# RUN: not tritium compile %s --kernel bad_pow --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-POW
@triton.jit
def bad_pow(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-POW: errors.py:[[@LINE+3]]:11: error: '**' is not supported on tensors; use tl.extra.libdevice.pow (or multiply explicitly)
    # CHECK-POW-NEXT: y = x ** 2
    # CHECK-POW-NEXT: {{^ *\^$}}
    y = x ** 2


# RUN: not tritium compile %s --kernel bad_floordiv_float --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-FLOORDIV-FLOAT
@triton.jit
def bad_floordiv_float(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-FLOORDIV-FLOAT: errors.py:[[@LINE+3]]:11: error: '//' needs integer operands (it truncates toward zero on tensors), got float32[128] and float32[128]; use '/' and tl.floor for floats
    # CHECK-FLOORDIV-FLOAT-NEXT: y = x // x
    # CHECK-FLOORDIV-FLOAT-NEXT: {{^ *\^$}}
    y = x // x


# RUN: not tritium compile %s --kernel bad_bitwise_float --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-BITWISE-FLOAT
@triton.jit
def bad_bitwise_float(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-BITWISE-FLOAT: errors.py:[[@LINE+3]]:11: error: invalid operands of type float32[128] and float32[128] for bitwise operator & (it needs integers)
    # CHECK-BITWISE-FLOAT-NEXT: y = x & x
    # CHECK-BITWISE-FLOAT-NEXT: {{^ *\^$}}
    y = x & x


# RUN: not tritium compile %s --kernel bad_mixed_sign_floordiv --signature "*i32,*u32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-MIXED-SIGN
@triton.jit
def bad_mixed_sign_floordiv(A, B, N: tl.constexpr):
    a = tl.load(A + tl.arange(0, N))
    b = tl.load(B + tl.arange(0, N))
    # CHECK-MIXED-SIGN: errors.py:[[@LINE+3]]:11: error: Cannot use /, // or % with int32 and uint32 because they have different signedness; cast them to the same signedness
    # CHECK-MIXED-SIGN-NEXT: c = a // b
    # CHECK-MIXED-SIGN-NEXT: {{^ *\^$}}
    c = a // b


# RUN: not tritium compile %s --kernel bad_negative_unsigned --signature "*u32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-NEG-UNSIGNED
@triton.jit
def bad_negative_unsigned(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-NEG-UNSIGNED: errors.py:[[@LINE+3]]:11: error: cannot combine an unsigned uint32 with the negative number -1; cast one of them explicitly
    # CHECK-NEG-UNSIGNED-NEXT: y = x + -1
    # CHECK-NEG-UNSIGNED-NEXT: {{^ *\^$}}
    y = x + -1


# RUN: not tritium compile %s --kernel bad_scalar_range_i8 --signature "*i8,64" 2>&1 | FileCheck %s --check-prefix=CHECK-SCALAR-RANGE-I8
@triton.jit
def bad_scalar_range_i8(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-SCALAR-RANGE-I8: errors.py:[[@LINE+3]]:11: error: {{.*}}200{{.*}}out of range{{.*}}int8{{.*}}
    # CHECK-SCALAR-RANGE-I8-NEXT: y = x + 200
    # CHECK-SCALAR-RANGE-I8-NEXT: {{^ *\^$}}
    y = x + 200


# RUN: not tritium compile %s --kernel bad_scalar_range_i32 --signature "*i32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-SCALAR-RANGE-I32
@triton.jit
def bad_scalar_range_i32(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-SCALAR-RANGE-I32: errors.py:[[@LINE+3]]:15: error: {{.*}}8589934592{{.*}}out of range{{.*}}int32{{.*}}
    # CHECK-SCALAR-RANGE-I32-NEXT: y = 2**33 + x
    # CHECK-SCALAR-RANGE-I32-NEXT: {{^ *\^$}}
    y = 2**33 + x


# RUN: not tritium compile %s --kernel bad_is --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-IS
@triton.jit
def bad_is(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-IS: errors.py:[[@LINE+3]]:11: error: 'is' compares only compile-time values (None, constexprs)
    # CHECK-IS-NEXT: y = x is x
    # CHECK-IS-NEXT: {{^ *\^$}}
    y = x is x


# RUN: not tritium compile %s --kernel bad_str_operand --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-STR-OPERAND
@triton.jit
def bad_str_operand(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-STR-OPERAND: errors.py:[[@LINE+3]]:11: error: unsupported operand types for +: float32[64] and constexpr str
    # CHECK-STR-OPERAND-NEXT: y = x + "a"
    # CHECK-STR-OPERAND-NEXT: {{^ *\^$}}
    y = x + "a"


# RUN: not tritium compile %s --kernel bad_pointer_mul --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-PTR-MUL
@triton.jit
def bad_pointer_mul(X, N: tl.constexpr):
    # CHECK-PTR-MUL: errors.py:[[@LINE+3]]:11: error: unsupported pointer arithmetic: pointer<float32> * constexpr int
    # CHECK-PTR-MUL-NEXT: y = X * 2
    # CHECK-PTR-MUL-NEXT: {{^ *\^$}}
    y = X * 2


# RUN: not tritium compile %s --kernel bad_pointer_plus_pointer --signature "*fp32,*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-PTR-PTR
@triton.jit
def bad_pointer_plus_pointer(X, Y, N: tl.constexpr):
    # CHECK-PTR-PTR: errors.py:[[@LINE+3]]:11: error: cannot apply + to two pointers (pointer<float32>, pointer<float32>)
    # CHECK-PTR-PTR-NEXT: p = X + Y
    # CHECK-PTR-PTR-NEXT: {{^ *\^$}}
    p = X + Y


# RUN: not tritium compile %s --kernel bad_pointer_plus_float --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-PTR-FLOAT
@triton.jit
def bad_pointer_plus_float(X, N: tl.constexpr):
    # CHECK-PTR-FLOAT: errors.py:[[@LINE+3]]:11: error: unsupported pointer arithmetic: pointer<float32> + constexpr float
    # CHECK-PTR-FLOAT-NEXT: p = X + 1.5
    # CHECK-PTR-FLOAT-NEXT: {{^ *\^$}}
    p = X + 1.5


# RUN: not tritium compile %s --kernel bad_pointer_cast --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-PTR-CAST
@triton.jit
def bad_pointer_cast(X, N: tl.constexpr):
    # CHECK-PTR-CAST: errors.py:[[@LINE+3]]:9: error: cannot cast pointer<float32> to float32
    # CHECK-PTR-CAST-NEXT: y = X.to(tl.float32)
    # CHECK-PTR-CAST-NEXT: {{^ *\^$}}
    y = X.to(tl.float32)


# RUN: not tritium compile %s --kernel bad_index_int --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-INDEX-INT
@triton.jit
def bad_index_int(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-INDEX-INT: errors.py:[[@LINE+3]]:11: error: unsupported tensor index: only None and ':' are allowed (Triton blocks cannot be indexed by position)
    # CHECK-INDEX-INT-NEXT: y = x[0]
    # CHECK-INDEX-INT-NEXT: {{^ *\^$}}
    y = x[0]


# RUN: not tritium compile %s --kernel bad_index_slice --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-INDEX-SLICE
@triton.jit
def bad_index_slice(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-INDEX-SLICE: errors.py:[[@LINE+3]]:11: error: unsupported tensor index: only ':' (a full slice) and None can index a tensor; slices with bounds are not supported
    # CHECK-INDEX-SLICE-NEXT: y = x[1:]
    # CHECK-INDEX-SLICE-NEXT: {{^ *\^$}}
    y = x[1:]


# RUN: not tritium compile %s --kernel bad_too_many_indices --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-TOO-MANY-IDX
@triton.jit
def bad_too_many_indices(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-TOO-MANY-IDX: errors.py:[[@LINE+3]]:17: error: invalid axis 2 for a new axis of a tensor of rank 1
    # CHECK-TOO-MANY-IDX-NEXT: y = x[:, :, None]
    # CHECK-TOO-MANY-IDX-NEXT: {{^ *\^$}}
    y = x[:, :, None]


# RUN: not tritium compile %s --kernel bad_reshape --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-RESHAPE
@triton.jit
def bad_reshape(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-RESHAPE: errors.py:[[@LINE+3]]:9: error: cannot reshape float32[128] (128 elements) to (16, 16) (256 elements)
    # CHECK-RESHAPE-NEXT: y = tl.reshape(x, (16, 16))
    # CHECK-RESHAPE-NEXT: {{^ *\^$}}
    y = tl.reshape(x, (16, 16))


# RUN: not tritium compile %s --kernel bad_trans_perm --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-TRANS-PERM
@triton.jit
def bad_trans_perm(X, N: tl.constexpr):
    x = tl.zeros((16, 32), dtype=tl.float32)
    # CHECK-TRANS-PERM: errors.py:[[@LINE+3]]:9: error: (0, 0) is not a permutation of the block's dimensions
    # CHECK-TRANS-PERM-NEXT: y = tl.trans(x, (0, 0))
    # CHECK-TRANS-PERM-NEXT: {{^ *\^$}}
    y = tl.trans(x, (0, 0))


# RUN: not tritium compile %s --kernel bad_trans_1d --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-TRANS-1D
@triton.jit
def bad_trans_1d(X, N: tl.constexpr):
    # CHECK-TRANS-1D: errors.py:[[@LINE+3]]:9: error: tl.trans with no dims needs a block of rank >= 2, got float32[128]
    # CHECK-TRANS-1D-NEXT: y = tl.trans(tl.zeros((N,), dtype=tl.float32))
    # CHECK-TRANS-1D-NEXT: {{^ *\^$}}
    y = tl.trans(tl.zeros((N,), dtype=tl.float32))


# RUN: not tritium compile %s --kernel bad_expand_dims_axis --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-EXPAND-AXIS
@triton.jit
def bad_expand_dims_axis(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-EXPAND-AXIS: errors.py:[[@LINE+3]]:27: error: invalid axis 3: out of range for a result of rank 2
    # CHECK-EXPAND-AXIS-NEXT: y = tl.expand_dims(x, 3)
    # CHECK-EXPAND-AXIS-NEXT: {{^ *\^$}}
    y = tl.expand_dims(x, 3)


# RUN: not tritium compile %s --kernel bad_split --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-SPLIT
@triton.jit
def bad_split(X, N: tl.constexpr):
    x = tl.zeros((N, 4), dtype=tl.float32)
    # CHECK-SPLIT: errors.py:[[@LINE+3]]:12: error: tl.split needs a block whose last dimension is 2, got float32[64, 4]
    # CHECK-SPLIT-NEXT: a, b = tl.split(x)
    # CHECK-SPLIT-NEXT: {{^ *\^$}}
    a, b = tl.split(x)


# RUN: not tritium compile %s --kernel bad_join --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-JOIN
@triton.jit
def bad_join(X, N: tl.constexpr):
    a = tl.zeros((N,), dtype=tl.float32)
    b = tl.zeros((N,), dtype=tl.float16)
    # CHECK-JOIN: errors.py:[[@LINE+3]]:9: error: tl.join needs operands of one dtype, got float32 and float16
    # CHECK-JOIN-NEXT: c = tl.join(a, b)
    # CHECK-JOIN-NEXT: {{^ *\^$}}
    c = tl.join(a, b)


# RUN: not tritium compile %s --kernel bad_cat --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-CAT
@triton.jit
def bad_cat(X, N: tl.constexpr):
    a = tl.zeros((N,), dtype=tl.float32)
    b = tl.zeros((32,), dtype=tl.float32)
    # CHECK-CAT: errors.py:[[@LINE+3]]:9: error: tl.cat needs two blocks of one shape and dtype, got float32[64] and float32[32]
    # CHECK-CAT-NEXT: c = tl.cat(a, b)
    # CHECK-CAT-NEXT: {{^ *\^$}}
    c = tl.cat(a, b)


# RUN: not tritium compile %s --kernel bad_broadcast_to --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-BCAST-TO
@triton.jit
def bad_broadcast_to(X, N: tl.constexpr):
    a = tl.zeros((N, 2), dtype=tl.float32)
    # CHECK-BCAST-TO: errors.py:[[@LINE+3]]:9: error: cannot broadcast float32[64, 2] to shape [64, 4]
    # CHECK-BCAST-TO-NEXT: c = tl.broadcast_to(a, (N, 4))
    # CHECK-BCAST-TO-NEXT: {{^ *\^$}}
    c = tl.broadcast_to(a, (N, 4))


# RUN: not tritium compile %s --kernel bad_sum_axis --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-SUM-AXIS
@triton.jit
def bad_sum_axis(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-SUM-AXIS: errors.py:[[@LINE+3]]:19: error: tl.sum: axis 1 is out of range for a block of rank 1 (expected -1 <= axis < 1)
    # CHECK-SUM-AXIS-NEXT: y = tl.sum(x, axis=1)
    # CHECK-SUM-AXIS-NEXT: {{^ *\^$}}
    y = tl.sum(x, axis=1)


# RUN: not tritium compile %s --kernel bad_exp_fp16 --signature "*fp16,128" 2>&1 | FileCheck %s --check-prefix=CHECK-EXP-FP16
@triton.jit
def bad_exp_fp16(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-EXP-FP16: errors.py:[[@LINE+3]]:16: error: tl.exp expects float32 or float64, got float16
    # CHECK-EXP-FP16-NEXT: y = tl.exp(x)
    # CHECK-EXP-FP16-NEXT: {{^ *\^$}}
    y = tl.exp(x)


# RUN: not tritium compile %s --kernel bad_dot_k --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-K
@triton.jit
def bad_dot_k(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.float16)
    b = tl.zeros((64, 32), dtype=tl.float16)
    # CHECK-DOT-K: errors.py:[[@LINE+3]]:9: error: tl.dot: the inner dimensions differ: float16[32, 32] @ float16[64, 32] (32 vs 64)
    # CHECK-DOT-K-NEXT: c = tl.dot(a, b)
    # CHECK-DOT-K-NEXT: {{^ *\^$}}
    c = tl.dot(a, b)


# RUN: not tritium compile %s --kernel bad_dot_small_k --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-SMALL-K
@triton.jit
def bad_dot_small_k(X, N: tl.constexpr):
    a = tl.zeros((32, 8), dtype=tl.float16)
    b = tl.zeros((8, 32), dtype=tl.float16)
    # CHECK-DOT-SMALL-K: errors.py:[[@LINE+3]]:9: error: tl.dot needs K >= 16 for float16 operands, got K = 8
    # CHECK-DOT-SMALL-K-NEXT: c = tl.dot(a, b)
    # CHECK-DOT-SMALL-K-NEXT: {{^ *\^$}}
    c = tl.dot(a, b)


# RUN: not tritium compile %s --kernel bad_dot_dtype --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-DTYPE
@triton.jit
def bad_dot_dtype(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.float16)
    b = tl.zeros((32, 32), dtype=tl.float32)
    # CHECK-DOT-DTYPE: errors.py:[[@LINE+3]]:9: error: tl.dot operands must have the same dtype, got float16 and float32
    # CHECK-DOT-DTYPE-NEXT: c = tl.dot(a, b)
    # CHECK-DOT-DTYPE-NEXT: {{^ *\^$}}
    c = tl.dot(a, b)


# RUN: not tritium compile %s --kernel bad_dot_bf16_out --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-BF16
@triton.jit
def bad_dot_bf16_out(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.float16)
    b = tl.zeros((32, 32), dtype=tl.float16)
    # CHECK-DOT-BF16: errors.py:[[@LINE+3]]:22: error: out_dtype=bfloat16 is not supported; accumulate in float32 and cast
    # CHECK-DOT-BF16-NEXT: c = tl.dot(a, b, out_dtype=tl.bfloat16)
    # CHECK-DOT-BF16-NEXT: {{^ *\^$}}
    c = tl.dot(a, b, out_dtype=tl.bfloat16)


# RUN: not tritium compile %s --kernel bad_dot_small_k_int8 --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-SMALL-K-I8
@triton.jit
def bad_dot_small_k_int8(X, N: tl.constexpr):
    a = tl.zeros((32, 16), dtype=tl.int8)
    b = tl.zeros((16, 32), dtype=tl.int8)
    # CHECK-DOT-SMALL-K-I8: errors.py:[[@LINE+3]]:9: error: tl.dot needs K >= 32 for int8 operands, got K = 16
    # CHECK-DOT-SMALL-K-I8-NEXT: c = tl.dot(a, b)
    # CHECK-DOT-SMALL-K-I8-NEXT: {{^ *\^$}}
    c = tl.dot(a, b)


# RUN: not tritium compile %s --kernel bad_dot_int16 --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-INT16
@triton.jit
def bad_dot_int16(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.int16)
    # CHECK-DOT-INT16: errors.py:[[@LINE+3]]:9: error: tl.dot supports int8, fp8, fp16, bf16, fp32 and fp64 operands, got int16
    # CHECK-DOT-INT16-NEXT: c = tl.dot(a, a)
    # CHECK-DOT-INT16-NEXT: {{^ *\^$}}
    c = tl.dot(a, a)


# Triton rejects uint8 products ("only int8 supported!"); multiplying them
# as int8 would be a silent wrong answer.
# RUN: not tritium compile %s --kernel bad_dot_uint8 --signature "*u8,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-UINT8
@triton.jit
def bad_dot_uint8(X, N: tl.constexpr):
    a = tl.load(X + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    # CHECK-DOT-UINT8: errors.py:[[@LINE+3]]:9: error: tl.dot takes int8 integer operands only (as in Triton), got uint8; convert them first: to float16 (exact for 0..255) or, for values up to 127, to int8
    # CHECK-DOT-UINT8-NEXT: c = tl.dot(a, a)
    # CHECK-DOT-UINT8-NEXT: {{^ *\^$}}
    c = tl.dot(a, a)


# RUN: not tritium compile %s --kernel bad_dot_acc_shape --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-ACC
@triton.jit
def bad_dot_acc_shape(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.float16)
    # CHECK-DOT-ACC: errors.py:[[@LINE+3]]:22: error: acc must have shape of the product float32[32, 32], got float32[32, 16]
    # CHECK-DOT-ACC-NEXT: c = tl.dot(a, a, acc=tl.zeros((32, 16), dtype=tl.float32))
    # CHECK-DOT-ACC-NEXT: {{^ *\^$}}
    c = tl.dot(a, a, acc=tl.zeros((32, 16), dtype=tl.float32))


# RUN: not tritium compile %s --kernel bad_dot_input_precision --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-PRECISION
@triton.jit
def bad_dot_input_precision(X, N: tl.constexpr):
    a = tl.zeros((32, 32), dtype=tl.float32)
    # CHECK-DOT-PRECISION: errors.py:[[@LINE+3]]:22: error: input_precision must be one of tf32, tf32x3, ieee, bf16x3, bf16x6; got 'tf64'
    # CHECK-DOT-PRECISION-NEXT: c = tl.dot(a, a, input_precision="tf64")
    # CHECK-DOT-PRECISION-NEXT: {{^ *\^$}}
    c = tl.dot(a, a, input_precision="tf64")


# RUN: not tritium compile %s --kernel bad_dot_1d --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-DOT-1D
@triton.jit
def bad_dot_1d(X, N: tl.constexpr):
    a = tl.zeros((32,), dtype=tl.float16)
    # CHECK-DOT-1D: errors.py:[[@LINE+3]]:9: error: tl.dot needs two 2-D (or two 3-D, batched) blocks, got float16[32] and float16[32]
    # CHECK-DOT-1D-NEXT: c = tl.dot(a, a)
    # CHECK-DOT-1D-NEXT: {{^ *\^$}}
    c = tl.dot(a, a)


# RUN: not tritium compile %s --kernel bad_other_without_mask --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-OTHER-NOMASK
@triton.jit
def bad_other_without_mask(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-OTHER-NOMASK: errors.py:[[@LINE+3]]:27: error: 'other' cannot be given without 'mask'
    # CHECK-OTHER-NOMASK-NEXT: x = tl.load(X + offs, other=0.0)
    # CHECK-OTHER-NOMASK-NEXT: {{^ *\^$}}
    x = tl.load(X + offs, other=0.0)


# RUN: not tritium compile %s --kernel bad_load_nonpointer --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-LOAD-NONPTR
@triton.jit
def bad_load_nonpointer(X, n):
    # CHECK-LOAD-NONPTR: errors.py:[[@LINE+3]]:17: error: tl.load needs a pointer or a block of pointers, got int32
    # CHECK-LOAD-NONPTR-NEXT: x = tl.load(n)
    # CHECK-LOAD-NONPTR-NEXT: {{^ *\^$}}
    x = tl.load(n)


# RUN: not tritium compile %s --kernel bad_store_pointer_value --signature "*fp32,*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-STORE-PTR
@triton.jit
def bad_store_pointer_value(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-STORE-PTR: errors.py:[[@LINE+3]]:24: error: cannot store pointer<float32>[128] through pointer<float32>[128]
    # CHECK-STORE-PTR-NEXT: tl.store(X + offs, Y + offs)
    # CHECK-STORE-PTR-NEXT: {{^ *\^$}}
    tl.store(X + offs, Y + offs)


# RUN: not tritium compile %s --kernel bad_store_shape --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-STORE-SHAPE
@triton.jit
def bad_store_shape(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    v = tl.zeros((N, N), dtype=tl.float32)
    # CHECK-STORE-SHAPE: errors.py:[[@LINE+3]]:24: error: cannot broadcast float32[64, 64] to shape [64]
    # CHECK-STORE-SHAPE-NEXT: tl.store(X + offs, v)
    # CHECK-STORE-SHAPE-NEXT: {{^ *\^$}}
    tl.store(X + offs, v)


# RUN: not tritium compile %s --kernel bad_store_float_mask --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-STORE-FMASK
@triton.jit
def bad_store_float_mask(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-STORE-FMASK: errors.py:[[@LINE+3]]:29: error: tl.store needs a boolean mask, got float32[64]
    # CHECK-STORE-FMASK-NEXT: tl.store(X + offs, 1.0, mask=offs * 1.0)
    # CHECK-STORE-FMASK-NEXT: {{^ *\^$}}
    tl.store(X + offs, 1.0, mask=offs * 1.0)


# RUN: not tritium compile %s --kernel bad_load_float_mask --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-LOAD-FMASK
@triton.jit
def bad_load_float_mask(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    # CHECK-LOAD-FMASK: errors.py:[[@LINE+3]]:27: error: tl.load needs a boolean mask, got float32[64]
    # CHECK-LOAD-FMASK-NEXT: x = tl.load(X + offs, mask=offs * 1.0)
    # CHECK-LOAD-FMASK-NEXT: {{^ *\^$}}
    x = tl.load(X + offs, mask=offs * 1.0)


# RUN: not tritium compile %s --kernel bad_store_const_pointer --signature "*kfp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-STORE-CONST
@triton.jit
def bad_store_const_pointer(X, N: tl.constexpr):
    # CHECK-STORE-CONST: errors.py:[[@LINE+3]]:14: error: Cannot store to a constant pointer
    # CHECK-STORE-CONST-NEXT: tl.store(X, 1.0)
    # CHECK-STORE-CONST-NEXT: {{^ *\^$}}
    tl.store(X, 1.0)


# RUN: not tritium compile %s --kernel bad_cache_modifier --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-CACHE-MOD
@triton.jit
def bad_cache_modifier(X, N: tl.constexpr):
    # CHECK-CACHE-MOD: errors.py:[[@LINE+3]]:38: error: load cache_modifier must be one of .ca, .cg, .cv; got '.wb'
    # CHECK-CACHE-MOD-NEXT: x = tl.load(X + tl.arange(0, N), cache_modifier=".wb")
    # CHECK-CACHE-MOD-NEXT: {{^ *\^$}}
    x = tl.load(X + tl.arange(0, N), cache_modifier=".wb")


# RUN: not tritium compile %s --kernel bad_eviction_policy --signature "*fp32,128" 2>&1 | FileCheck %s --check-prefix=CHECK-EVICTION
@triton.jit
def bad_eviction_policy(X, N: tl.constexpr):
    # CHECK-EVICTION: errors.py:[[@LINE+3]]:38: error: eviction_policy must be 'evict_first' or 'evict_last', got 'evict_sometimes'
    # CHECK-EVICTION-NEXT: x = tl.load(X + tl.arange(0, N), eviction_policy="evict_sometimes")
    # CHECK-EVICTION-NEXT: {{^ *\^$}}
    x = tl.load(X + tl.arange(0, N), eviction_policy="evict_sometimes")


# RUN: not tritium compile %s --kernel no_such_kernel --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-NO-KERNEL
# CHECK-NO-KERNEL: {{^}}tritium: error: no function named 'no_such_kernel' in {{.*}}errors.py{{$}}
# CHECK-NO-KERNEL-NOT: {{^ *\^$}}


# RUN: not tritium compile %s --kernel not_jitted --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-NOT-JIT
# CHECK-NOT-JIT: errors.py:[[@LINE+3]]:5: error: 'not_jitted' is not decorated with @triton.jit
# CHECK-NOT-JIT-NEXT: def not_jitted(X, n):
# CHECK-NOT-JIT-NEXT: {{^ *\^$}}
def not_jitted(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_dtype --signature "*fp33,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-DTYPE
# CHECK-SIG-DTYPE: tritium: error: --signature: signature entry 0 '*fp33': unknown type (expected i1, i8..i64, u8..u64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5, fp8e4b15, '*' for pointers, or a constexpr value)
@triton.jit
def bad_sig_dtype(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_spec --signature "*fp32:8,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-SPEC
# CHECK-SIG-SPEC: tritium: error: --signature: signature entry 0 '*fp32:8': unknown specialization ':8' (expected :16 or :1)
@triton.jit
def bad_sig_spec(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_empty --signature ",i32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-EMPTY
# CHECK-SIG-EMPTY: tritium: error: --signature: signature entry 0 is empty
@triton.jit
def bad_sig_empty(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_len --signature "*fp32,i32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-LEN
# CHECK-SIG-LEN: errors.py:[[@LINE+4]]:5: error: signature has 3 entries but kernel 'bad_sig_len' has 2 parameters
# CHECK-SIG-LEN-NEXT: def bad_sig_len(X, n):
# CHECK-SIG-LEN-NEXT: {{^ *\^$}}
@triton.jit
def bad_sig_len(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_len_one --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-LEN1
# CHECK-SIG-LEN1: errors.py:[[@LINE+4]]:5: error: signature has 1 entry but kernel 'bad_sig_len_one' has 2 parameters
# CHECK-SIG-LEN1-NEXT: def bad_sig_len_one(X, n):
# CHECK-SIG-LEN1-NEXT: {{^ *\^$}}
@triton.jit
def bad_sig_len_one(X, n):
    pass


# RUN: not tritium compile %s --kernel bad_sig_constexpr --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-CONSTEXPR
# CHECK-SIG-CONSTEXPR: errors.py:[[@LINE+4]]:26: error: parameter 'BLOCK' is tl.constexpr but the signature gives the runtime type 'i32'; give a value instead
# CHECK-SIG-CONSTEXPR-NEXT: def bad_sig_constexpr(X, BLOCK: tl.constexpr):
# CHECK-SIG-CONSTEXPR-NEXT: {{^ *\^$}}
@triton.jit
def bad_sig_constexpr(X, BLOCK: tl.constexpr):
    pass


# RUN: not tritium compile %s --kernel bad_sig_bigint --signature "*i64,999999999999999999999999" 2>&1 | FileCheck %s --check-prefix=CHECK-SIG-BIGINT
# CHECK-SIG-BIGINT: {{^}}tritium: error: --signature: {{.*}}999999999999999999999999{{.*}}64 bits{{.*}}
@triton.jit
def bad_sig_bigint(X, n):
    tl.store(X, n)


# RUN: not tritium compile %s --kernel bad_permute_scalar --signature "*fp32,fp32" 2>&1 | FileCheck %s --check-prefix=CHECK-PERMUTE-SCALAR
@triton.jit
def bad_permute_scalar(X, s):
    # CHECK-PERMUTE-SCALAR: errors.py:[[@LINE+3]]:9: error: tl.permute {{.*}}float32{{.*}}
    # CHECK-PERMUTE-SCALAR-NEXT: y = tl.permute(s)
    # CHECK-PERMUTE-SCALAR-NEXT: {{^ *\^$}}
    y = tl.permute(s)


# RUN: not tritium compile %s --kernel bad_permute_pointer --signature "*fp32,fp32" 2>&1 | FileCheck %s --check-prefix=CHECK-PERMUTE-PTR
@triton.jit
def bad_permute_pointer(X, s):
    # CHECK-PERMUTE-PTR: errors.py:[[@LINE+3]]:9: error: tl.permute {{.*}}pointer<float32>{{.*}}
    # CHECK-PERMUTE-PTR-NEXT: y = tl.permute(X)
    # CHECK-PERMUTE-PTR-NEXT: {{^ *\^$}}
    y = tl.permute(X)


# RUN: not tritium compile %s --kernel bad_maximum_pointer --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-MAX-PTR
@triton.jit
def bad_maximum_pointer(X, N: tl.constexpr):
    # CHECK-MAX-PTR: errors.py:[[@LINE+3]]:9: error: tl.maximum needs numbers, got pointer<float32>
    # CHECK-MAX-PTR-NEXT: y = tl.maximum(2.0, X)
    # CHECK-MAX-PTR-NEXT: {{^ *\^$}}
    y = tl.maximum(2.0, X)


# RUN: not tritium compile %s --kernel bad_minimum_pointer --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-MIN-PTR
@triton.jit
def bad_minimum_pointer(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-MIN-PTR: errors.py:[[@LINE+3]]:9: error: tl.minimum needs numbers, got pointer<float32>[64]
    # CHECK-MIN-PTR-NEXT: y = tl.minimum(x, X + tl.arange(0, N))
    # CHECK-MIN-PTR-NEXT: {{^ *\^$}}
    y = tl.minimum(x, X + tl.arange(0, N))


# RUN: not tritium compile %s --kernel bad_clamp_pointer --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-CLAMP-PTR
@triton.jit
def bad_clamp_pointer(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-CLAMP-PTR: errors.py:[[@LINE+3]]:9: error: tl.clamp only supports floating point, got pointer<float32>
    # CHECK-CLAMP-PTR-NEXT: y = tl.clamp(x, X, 1.0)
    # CHECK-CLAMP-PTR-NEXT: {{^ *\^$}}
    y = tl.clamp(x, X, 1.0)


# RUN: not tritium compile %s --kernel bad_fma_pointer --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-FMA-PTR
@triton.jit
def bad_fma_pointer(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    # CHECK-FMA-PTR: errors.py:[[@LINE+3]]:9: error: tl.fma expects floating-point operands, got pointer<float32>
    # CHECK-FMA-PTR-NEXT: y = tl.fma(x, x, X)
    # CHECK-FMA-PTR-NEXT: {{^ *\^$}}
    y = tl.fma(x, x, X)


# @jit functions of a module whose source was not registered: the call says so.
# RUN: not tritium compile %s --kernel bad_other_module --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CHECK-XMOD
from some_kernels import scale_helper


@triton.jit
def bad_other_module(X):
    # CHECK-XMOD: errors.py:[[@LINE+1]]:17: error: 'some_kernels.scale_helper' is imported from a module whose source the compiler was not given: register that module
    tl.store(X, scale_helper(tl.load(X)))

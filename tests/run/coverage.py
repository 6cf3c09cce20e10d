# `tritium run --coverage`: per source line, how many programs ran it and
# how many lanes its masked loads and stores had active (a branch never
# taken, a load whose mask is always false); `--coverage-source PATH`
# writes the kernel's source with those counts before each line.

# RUN: tritium run %s --kernel k --grid 2 --coverage --coverage-source %t.cov \
# RUN:   --arg x_ptr=ones:f32[12] --arg out_ptr=zeros:f32[16] --arg n=12 --constexpr BLOCK=8 \
# RUN:   | FileCheck %s --check-prefix=TEXT
# TEXT: coverage: kernel k, 2 programs
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}2/2 programs [{{.*}}tile.get_program_id{{.*}}]
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}2/2 programs, lanes 12/16 active (75.0%) [{{.*}}tile.load{{.*}}]
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}2/2 programs [{{.*}}scf.if]
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}0/2 programs: never ran [arith.mulf]
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}2/2 programs, lanes 0/16 active (0.0%): its mask is always false [{{.*}}tile.load]
# TEXT-NEXT: coverage.py:{{[0-9]+}} {{ *}}2/2 programs, lanes 12/16 active (75.0%) [{{.*}}tile.store]
# RUN: FileCheck %s --check-prefix=SRC < %t.cov
# SRC: {{^}}             | @triton.jit
# SRC-NEXT: {{^}}             | def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
# SRC-NEXT: {{^}}         2/2 |     offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
# SRC-NEXT: {{^}}    2/2  75% |     x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
# SRC-NEXT: {{^}}         2/2 |     if tl.program_id(0) > 100:
# SRC-NEXT: {{^}}         0/2 |         x = x * 2.0
# SRC-NEXT: {{^}}             |     # never taken above; never true below
# SRC-NEXT: {{^}}    2/2   0% |     y = tl.load(x_ptr + offs, mask=offs < 0, other=1.0)
# SRC-NEXT: {{^}}    2/2  75% |     tl.store(out_ptr + offs, x + y, mask=offs < n)

import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.program_id(0) > 100:
        x = x * 2.0
    # never taken above; never true below
    y = tl.load(x_ptr + offs, mask=offs < 0, other=1.0)
    tl.store(out_ptr + offs, x + y, mask=offs < n)

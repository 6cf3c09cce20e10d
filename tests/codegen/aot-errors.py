# `tritium aot` names what is wrong with its input before compiling.
# RUN: rm -rf %t && mkdir -p %t
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -g "(n + B - 1) / B" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=GRID
# GRID: tritium: error: --grid: dimension 1 '(n + B - 1) / B': 'B' is not a parameter of the kernel
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -g "n; exit(1)" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=GRIDCHAR
# GRIDCHAR: tritium: error: --grid: dimension 1 'n; exit(1)': unexpected ';' (use integers, parameter names, + - * / % and parentheses)
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -g "1,2,3,4" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=DIMS
# DIMS: tritium: error: --grid: 1 to 3 comma-separated expressions
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -s "*fp32,i32,128" -g "n" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=CONSTEXPR
# CONSTEXPR: tritium: error: --signature 2: parameter 'BLOCK' is 128 here but 64 in --signature 1; signatures may differ only in ':16' and ':1'
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -s "*fp16,i32,64" -g "n" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=TYPE
# TYPE: tritium: error: --signature 2: parameter 'X' is *fp16 here but *fp32 in --signature 1
# RUN: not tritium aot %s -k k -s "*fp32,fp16,64" -g "1" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=SCALAR
# SCALAR: tritium: error: --signature 1: parameter 'n' of type fp16: aot launchers pass pointers, integers, fp32 and fp64
# RUN: not tritium aot %s -k k -s "*fp32,i32" -g "1" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=COUNT
# COUNT: tritium: error: --signature 1: 2 entries for the 3 parameters of 'k'
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -g "1" -n 2fast -o %t 2>&1 | FileCheck %s --check-prefix=NAME
# NAME: tritium: error: --name: '2fast' is not a C identifier
# RUN: not tritium aot %s -k k -s "*fp32,i32,64" -g "1" -n k_aot --target cuda:75 -o %t 2>&1 | FileCheck %s --check-prefix=TARGET
# TARGET: tritium: error: --target: expected cuda:80 or cuda:90 (got 'cuda:75')
# RUN: not tritium aot %s -k nope -s "*fp32,i32,64" -g "1" -n k_aot -o %t 2>&1 | FileCheck %s --check-prefix=KERNEL
# KERNEL: tritium: error: no function named 'nope' in
import triton
import triton.language as tl


@triton.jit
def k(X, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs, mask=offs < n) + 1, mask=offs < n)

# `tritium run` argument binding, specialization and error messages. None of
# these launch a kernel (--dry-run, or an error first), so they run with or
# without the interpreter.

# Specialization follows Triton: aligned buffers are *T:16, ints i32/i64/u64
# by range with :16 when divisible by 16, 1 folds to i32:1, floats fp32,
# bools i1; the constexpr comes from the parameter's default.
# RUN: tritium run %s --kernel k --grid 2 --dry-run --arg x_ptr=randn:f16[64] \
# RUN:   --arg n=98304 --arg scale=0.5 --arg flag=True --arg y_ptr=zeros:bf16[64] \
# RUN:   | FileCheck %s --check-prefix=CHECK-SIG
# CHECK-SIG: kernel k grid [2, 1, 1] signature *fp16:16,*bf16:16,i32:16,fp32,i1,128
# CHECK-SIG-NEXT: compile: {{[0-9.]+}} ms
# RUN: tritium run %s --kernel k --grid 2,3 --dry-run --arg x_ptr=zeros:i8[4] \
# RUN:   --arg n=1 --arg scale=2 --arg flag=False --arg y_ptr=empty:u64[2] \
# RUN:   --constexpr BLOCK=64 | FileCheck %s --check-prefix=CHECK-SIG1
# CHECK-SIG1: kernel k grid [2, 3, 1] signature *i8:16,*u64:16,i32:1,i32,i1,64
# RUN: tritium run %s --kernel k --grid 1 --dry-run --arg x_ptr=zeros:bool[4] \
# RUN:   --arg n=4294967296 --arg scale=-7 --arg flag=1 --arg y_ptr=zeros:f64[1] \
# RUN:   | FileCheck %s --check-prefix=CHECK-SIG2
# CHECK-SIG2: signature *i1:16,*fp64:16,i64:16,i32,i32:1,128
# RUN: tritium run %s --kernel k --grid 1 --dry-run --arg x_ptr=zeros:f32[4] \
# RUN:   --arg n=18446744073709551615 --arg scale=1e-3 --arg flag=0 --arg y_ptr=zeros:u8[1] \
# RUN:   | FileCheck %s --check-prefix=CHECK-SIG3
# CHECK-SIG3: signature *fp32:16,*u8:16,u64,fp32,i32:16,128

# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=zeros:f32[4] --arg bogus=3 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-UNKNOWN
# CHECK-UNKNOWN: tritium: error: --arg bogus: kernel 'k' has no parameter 'bogus' (its parameters: x_ptr, y_ptr, n, scale, flag, BLOCK)

# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=zeros:f32[4] --arg n=3 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-MISSING
# CHECK-MISSING: tritium: error: kernel 'k' needs --arg y_ptr=VALUE, --arg scale=VALUE, --arg flag=VALUE

# RUN: not tritium run %examples/vector_add.py --kernel add_kernel --grid 1 \
# RUN:   --arg x_ptr=zeros:f32[4] --arg y_ptr=zeros:f32[4] --arg output_ptr=zeros:f32[4] \
# RUN:   --arg n_elements=4 2>&1 | FileCheck %s --check-prefix=CHECK-NOCONST
# CHECK-NOCONST: tritium: error: kernel 'add_kernel' needs --constexpr BLOCK_SIZE=VALUE

# RUN: not tritium run %s --kernel k --grid 1 --arg BLOCK=4 2>&1 | FileCheck %s --check-prefix=CHECK-ARGCONST
# CHECK-ARGCONST: --arg BLOCK: 'BLOCK' is a tl.constexpr parameter; give it with --constexpr BLOCK=VALUE
# RUN: not tritium run %s --kernel k --grid 1 --constexpr n=4 2>&1 | FileCheck %s --check-prefix=CHECK-CONSTARG
# CHECK-CONSTARG: --constexpr n: 'n' is not a tl.constexpr parameter; give it with --arg n=VALUE

# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=randn:f32[N] 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-SHAPE
# CHECK-SHAPE: tritium: error: --arg x_ptr=randn:f32[N]: shape entry 'N' is not a number; give every size as an integer, e.g. randn:f32[1024]
# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=randn:f32 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-NOSHAPE
# CHECK-NOSHAPE: --arg x_ptr=randn:f32: expected KIND:DTYPE[SHAPE], e.g. randn:f32[1024,1024]
# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=gauss:f32[4] 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-GEN
# CHECK-GEN: --arg x_ptr=gauss:f32[4]: unknown generator 'gauss' (expected randn, rand, randint, zeros, ones or empty)
# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=randn:c64[4] 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-DTYPE
# CHECK-DTYPE: --arg x_ptr=randn:c64[4]: unknown dtype 'c64' (expected f16 f32 f64 bf16 i8 i16 i32 i64 u8 u16 u32 u64 bool)
# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=randn:i32[4] 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-RANDN
# CHECK-RANDN: randn needs a float dtype (f16, bf16, f32, f64); use randint for i32
# RUN: not tritium run %s --kernel k --grid 1 --arg n=twelve 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-SCALAR
# CHECK-SCALAR: --arg n=twelve: expected an integer, a float, True/False, a .npy path or a generator
# RUN: not tritium run %s --kernel k --grid 1 --arg n 2>&1 | FileCheck %s --check-prefix=CHECK-NOEQ
# CHECK-NOEQ: tritium: error: --arg 'n': expected NAME=VALUE

# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=%t.missing.npy 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-NPY
# CHECK-NPY: tritium: error: --arg x_ptr: {{.*}}.missing.npy: cannot open file
# RUN: not tritium run %s --kernel k --grid 1 --arg x_ptr=zeros:f32[4] \
# RUN:   --check x_ptr=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=CHECKNPY
# CHECKNPY: tritium: error: --check x_ptr: {{.*}}.missing.npy: cannot open file
# RUN: not tritium run %s --kernel k --grid 1 --arg n=3 --save n=%t.npy 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-SAVESCALAR
# CHECK-SAVESCALAR: tritium: error: --save n: 'n' is a scalar, not a buffer
# RUN: not tritium run %s --kernel k --grid 1 --save out=%t.npy 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-SAVEUNKNOWN
# CHECK-SAVEUNKNOWN: tritium: error: --save out: no buffer argument named 'out'

# RUN: not tritium run %s --kernel k --grid 0 2>&1 | FileCheck %s --check-prefix=CHECK-GRID0
# CHECK-GRID0: tritium: error: --grid '0': sizes must be at least 1
# RUN: not tritium run %s --kernel k --grid 1,2,3,4 2>&1 | FileCheck %s --check-prefix=CHECK-GRID4
# CHECK-GRID4: tritium: error: --grid '1,2,3,4': at most 3 dimensions (X[,Y[,Z]])
# RUN: not tritium run %s --kernel nope --grid 1 2>&1 | FileCheck %s --check-prefix=CHECK-NOKERNEL
# CHECK-NOKERNEL: tritium: error: no function named 'nope' in

# Compile errors come back rendered at the kernel's source line.
# RUN: not tritium run %s --kernel bad --grid 1 --arg x_ptr=zeros:f16[4] 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-COMPILE
# CHECK-COMPILE: cli.py:[[@LINE+7]]:16: error: tl.exp expects float32 or float64, got float16

import triton
import triton.language as tl

@triton.jit
def bad(x_ptr):
    y = tl.exp(tl.load(x_ptr))
    tl.store(x_ptr, y)


@triton.jit
def k(x_ptr, y_ptr, n, scale, flag, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if flag:
        tl.store(y_ptr + offs, x * scale, mask=mask)

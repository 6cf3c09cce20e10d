# `tritium run --sanitize nan`: the first op of each program that turns
# finite operands into a NaN or an infinity is reported with its line, the
# lane and the operands there; later NaNs that come from it are not; a
# report fails the run. TRITIUM_SANITIZE adds sanitizers; unknown names are
# errors.

# RUN: not tritium run %s --kernel log_then_nan --grid 2 --sanitize nan \
# RUN:   --arg x_ptr=zeros:f32[8] --arg out_ptr=zeros:f32[8] --constexpr BLOCK=8 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-LOG
# CHECK-LOG: NaN/Inf sanitizer: kernel log_then_nan, program (0, 0, 0), {{.*}}sanitize.py:{{[0-9]+}}: math.log made -inf at lane 3 from finite operands: 0
# CHECK-LOG-NEXT: NaN/Inf sanitizer: kernel log_then_nan, program (1, 0, 0), {{.*}}sanitize.py:{{[0-9]+}}: math.log made -inf at lane 4 from finite operands: 0
# CHECK-LOG-NEXT: tritium: error: the sanitizer reported 2 programs

# RUN: not tritium run %s --kernel div2d --grid 1 --sanitize " nan, " \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=zeros:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-DIV
# CHECK-DIV: NaN/Inf sanitizer: kernel div2d, program (0, 0, 0), {{.*}}sanitize.py:{{[0-9]+}}: arith.divf made inf at lane (0, 0) from finite operands: 1, 0

# Finite all through: nothing reported, the run succeeds.
# RUN: env TRITIUM_SANITIZE=nan tritium run %s --kernel div2d --grid 1 \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=ones:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# CHECK-CLEAN-NOT: sanitizer
# CHECK-CLEAN: launch:

# RUN: not tritium run %s --kernel div2d --grid 1 --sanitize nan,races \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=zeros:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-UNKNOWN
# CHECK-UNKNOWN: tritium: error: --sanitize: unknown sanitizer 'races' (the interpreter has: nan, uninit, race, overflow)

# `--sanitize uninit`: `empty:` buffers are garbage until written; the first
# read of each program of bytes nothing wrote is reported at the load.
# RUN: not tritium run %s --kernel accumulate --grid 1 --sanitize uninit \
# RUN:   --arg out_ptr=empty:f32[8] --arg n=7 --constexpr BLOCK=8 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-UNINIT
# CHECK-UNINIT: uninitialized-read sanitizer: kernel accumulate, program (0, 0, 0), {{.*}}sanitize.py:{{[0-9]+}}: load lane 0 reads byte 0 of buffer 'out_ptr' (32 bytes), which nothing has written
# CHECK-UNINIT-NEXT: tritium: error: the sanitizer reported 1 program
# The same buffer zeroed, or written before it is read, or read only where
# the mask is false: nothing to report.
# RUN: tritium run %s --kernel accumulate --grid 1 --sanitize uninit \
# RUN:   --arg out_ptr=zeros:f32[8] --arg n=8 --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# RUN: env TRITIUM_SANITIZE=uninit tritium run %s --kernel write_then_read --grid 1 \
# RUN:   --arg out_ptr=empty:f32[8] --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# RUN: tritium run %s --kernel accumulate --grid 1 --sanitize uninit \
# RUN:   --arg out_ptr=empty:f32[8] --arg n=0 --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN

# `--sanitize race`: programs touching the same byte, one with a plain
# store, unordered by atomics with release/acquire semantics. Both sides
# are named.
# RUN: not tritium run %s --kernel racy_hist --grid 2 --sanitize race \
# RUN:   --arg x_ptr=zeros:i32[8] --arg bins_ptr=zeros:i32[4] --constexpr BLOCK=4 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-RACE
# CHECK-RACE: race sanitizer: kernel racy_hist: program (1, 0, 0) reads byte 0 of buffer 'bins_ptr' (16 bytes) at {{.*}}sanitize.py:{{[0-9]+}} (tile.load, lane 0); program (0, 0, 0) wrote it at {{.*}}sanitize.py:{{[0-9]+}} (tile.store, lane 3), and no atomic with release and acquire semantics orders the two
# CHECK-RACE-NEXT: tritium: error: the sanitizer reported 1 program
# Atomics do not race with atomics; a spin lock (acq_rel, the default)
# orders what it protects ...
# RUN: tritium run %s --kernel atomic_hist --grid 2 --sanitize race \
# RUN:   --arg x_ptr=zeros:i32[8] --arg bins_ptr=zeros:i32[4] --constexpr BLOCK=4 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# RUN: tritium run %s --kernel locked_sum --grid 4 --sanitize race --arg x_ptr=ones:f32[16] \
# RUN:   --arg sum_ptr=zeros:f32[4] --arg lock_ptr=zeros:i32[1] --constexpr BLOCK=4 --constexpr SEM=acq_rel \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# ... and a relaxed one does not.
# RUN: not tritium run %s --kernel locked_sum --grid 4 --sanitize race --arg x_ptr=ones:f32[16] \
# RUN:   --arg sum_ptr=zeros:f32[4] --arg lock_ptr=zeros:i32[1] --constexpr BLOCK=4 --constexpr SEM=relaxed \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-RELAXED
# CHECK-RELAXED: race sanitizer: kernel locked_sum: program (1, 0, 0) reads byte 0 of buffer 'sum_ptr'
# CHECK-RELAXED: tritium: error: the sanitizer reported 3 programs
# A plain store against another program's atomic races; a plain load of what
# atomics update does not (no plain store).
# RUN: not tritium run %s --kernel store_vs_atomic --grid 2 --sanitize race \
# RUN:   --arg x_ptr=zeros:i32[1] --constexpr PLAIN_STORE=True 2>&1 | FileCheck %s --check-prefix=CHECK-MIXED
# CHECK-MIXED: race sanitizer: kernel store_vs_atomic: program (1, 0, 0) writes byte 0 of buffer 'x_ptr' (4 bytes) at {{.*}} (tile.store, lane 0); program (0, 0, 0) updated it at {{.*}} (tile.atomic_rmw, lane 0)
# RUN: tritium run %s --kernel store_vs_atomic --grid 2 --sanitize race \
# RUN:   --arg x_ptr=zeros:i32[1] --constexpr PLAIN_STORE=False 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN

# `--sanitize overflow`: the first signed integer +, -, * of each program
# whose result does not fit its type (an i32 row offset that wraps).
# RUN: not tritium run %s --kernel row_offsets --grid 3 --sanitize overflow \
# RUN:   --arg x_ptr=zeros:i32[24] --arg stride=1073741824 --constexpr BLOCK=8 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-OVERFLOW
# CHECK-OVERFLOW: integer-overflow sanitizer: kernel row_offsets, program (2, 0, 0), {{.*}}sanitize.py:{{[0-9]+}}: arith.muli overflows i32: 2 * 1073741824 = 2147483648
# CHECK-OVERFLOW-NEXT: tritium: error: the sanitizer reported 1 program
# RUN: tritium run %s --kernel row_offsets --grid 3 --sanitize overflow \
# RUN:   --arg x_ptr=zeros:i32[24] --arg stride=1024 --constexpr BLOCK=8 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN

import triton
import triton.language as tl


@triton.jit
def log_then_nan(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.abs((offs - 3 - tl.program_id(0)).to(tl.float32))
    y = tl.log(x)
    z = y * 0.0  # NaN where y is -inf: not its origin
    tl.store(out_ptr + offs, z + tl.load(x_ptr + offs))


@triton.jit
def div2d(a_ptr, b_ptr, out_ptr):
    offs = tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    q = a / b
    tl.store(out_ptr + offs, q)


@triton.jit
def accumulate(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(out_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, acc + 1.0, mask=offs < n)


@triton.jit
def write_then_read(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32))
    tl.debug_barrier()
    x = tl.load(out_ptr + BLOCK - 1 - offs)
    tl.store(out_ptr + offs, x)


@triton.jit
def racy_hist(x_ptr, bins_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x_ptr + offs)
    count = tl.load(bins_ptr + b)
    tl.store(bins_ptr + b, count + 1)


@triton.jit
def atomic_hist(x_ptr, bins_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x_ptr + offs)
    tl.atomic_add(bins_ptr + b, 1)


@triton.jit
def locked_sum(x_ptr, sum_ptr, lock_ptr, BLOCK: tl.constexpr, SEM: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    while tl.atomic_cas(lock_ptr, 0, 1, sem=SEM) == 1:
        pass
    acc = tl.load(sum_ptr + tl.arange(0, BLOCK))
    tl.store(sum_ptr + tl.arange(0, BLOCK), acc + x)
    tl.atomic_xchg(lock_ptr, 0, sem=SEM)


@triton.jit
def store_vs_atomic(x_ptr, PLAIN_STORE: tl.constexpr):
    if tl.program_id(0) == 0:
        tl.atomic_add(x_ptr, 1)
    elif PLAIN_STORE:
        tl.store(x_ptr, 5)
    else:
        tl.store(x_ptr + 0 * tl.load(x_ptr), 0, mask=False)


@triton.jit
def row_offsets(x_ptr, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = row * stride
    tl.store(x_ptr + row * BLOCK + tl.arange(0, BLOCK), start + tl.arange(0, BLOCK))

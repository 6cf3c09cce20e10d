# `tritium run --sanitize nan`: the first op of each program that turns
# finite operands into a NaN or an infinity is reported with its line, the
# lane and the operands there; later NaNs that come from it are not; a
# report fails the run. TRITIUM_SANITIZE adds sanitizers; unknown names are
# errors.

# RUN: not tritium run %s --kernel log_then_nan --grid 2 --sanitize nan \
# RUN:   --arg x_ptr=zeros:f32[8] --arg out_ptr=zeros:f32[8] --constexpr BLOCK=8 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-LOG
# CHECK-LOG: NaN/Inf sanitizer: kernel log_then_nan, program (0, 0, 0), {{.*}}sanitize.py:39: math.log made -inf at lane 3 from finite operands: 0
# CHECK-LOG-NEXT: NaN/Inf sanitizer: kernel log_then_nan, program (1, 0, 0), {{.*}}sanitize.py:39: math.log made -inf at lane 4 from finite operands: 0
# CHECK-LOG-NEXT: tritium: error: the sanitizer reported 2 programs

# RUN: not tritium run %s --kernel div2d --grid 1 --sanitize " nan, " \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=zeros:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-DIV
# CHECK-DIV: NaN/Inf sanitizer: kernel div2d, program (0, 0, 0), {{.*}}sanitize.py:49: arith.divf made inf at lane (0, 0) from finite operands: 1, 0

# Finite all through: nothing reported, the run succeeds.
# RUN: env TRITIUM_SANITIZE=nan tritium run %s --kernel div2d --grid 1 \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=ones:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# CHECK-CLEAN-NOT: sanitizer
# CHECK-CLEAN: launch:

# RUN: not tritium run %s --kernel div2d --grid 1 --sanitize nan,race \
# RUN:   --arg a_ptr=ones:f32[16] --arg b_ptr=zeros:f32[16] --arg out_ptr=zeros:f32[16] \
# RUN:   2>&1 | FileCheck %s --check-prefix=CHECK-UNKNOWN
# CHECK-UNKNOWN: tritium: error: --sanitize: unknown sanitizer 'race' (the interpreter has: nan)

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

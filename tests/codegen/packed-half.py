# 16-bit sums that LLVM narrows from fp32 (the stored value of an fp32 sum
# of two widened bf16 loads) are paired into .bf16x2 ops on the registers
# the halves were loaded in, not unpacked into one register each. 05's
# layer-norm backward keeps them across its spin lock: scalar, ptxas took
# 166 registers (one program a multiprocessor) where it takes 128.
# RUN: tritium compile %s --kernel accumulate --signature "*bf16:16,*bf16:16,*i32:16,8192" --target cuda:90 --num-warps 8 --emit ptx | FileCheck %s
# CHECK-LABEL: .entry accumulate(
# CHECK: atom.acq_rel.gpu.global.cas.b32
# CHECK: add.bf16x2
# CHECK-NOT: add.bf16 {{.*}}%rs
import triton
import triton.language as tl


@triton.jit
def accumulate(X, Acc, Lock, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + tl.program_id(0) * BLOCK + cols).to(tl.float32)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    total = x + tl.load(Acc + cols)
    tl.store(Acc + cols, total)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)

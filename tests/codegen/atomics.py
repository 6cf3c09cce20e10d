# Atomics on NVIDIA targets: inline PTX `atom` with the op's semantics and
# scope, except a bf16 add before sm_90 (PTX has no atom.add.bf16 there),
# which LLVM expands into a compare-and-swap loop on the 32-bit word.
# RUN: tritium compile %s --kernel atom_bf16 --signature "*bf16:16,*bf16:16,i32,128" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=SM90
# SM90-LABEL: .entry atom_bf16(
# SM90-NOT: atom.{{.*}}cas
# SM90: atom.relaxed.gpu.global.add.noftz.bf16
# RUN: tritium compile %s --kernel atom_bf16 --signature "*bf16:16,*bf16:16,i32,128" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=SM80
# SM80-LABEL: .entry atom_bf16(
# SM80-NOT: add.noftz.bf16
# SM80: atom.relaxed.gpu.global.cas.b32
# SM80-NOT: add.noftz.bf16
# The same kernel's fp16 add is native on both.
# RUN: tritium compile %s --kernel atom_bf16 --signature "*fp16:16,*fp16:16,i32,128" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=F16
# F16: atom.relaxed.gpu.global.add.noftz.f16
import triton
import triton.language as tl


@triton.jit
def atom_bf16(p, v, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    old = tl.atomic_add(p + o % 4, tl.load(v + o, mask=m), mask=m, sem="relaxed",
                        scope="gpu")
    tl.store(v + o, old, mask=m)

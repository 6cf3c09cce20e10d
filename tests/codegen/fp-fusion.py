# Multiplies and adds fuse into fma by default, as in Triton (its
# enable_fp_fusion); --no-fp-fusion rounds every product and sum (PTX's .rn
# keeps ptxas from fusing them either).
# RUN: tritium compile %s --kernel axpb --signature "*fp32:16,*fp32:16,fp32,fp32,128" --target cuda:90 --num-warps 1 --emit ptx | FileCheck %s --check-prefix=FUSED
# FUSED-LABEL: .entry axpb(
# FUSED: fma.rn.f32
# FUSED-NOT: mul.rn.f32
# FUSED-NOT: add.rn.f32
# RUN: tritium compile %s --kernel axpb --signature "*fp32:16,*fp32:16,fp32,fp32,128" --target cuda:90 --num-warps 1 --no-fp-fusion --emit ptx | FileCheck %s --check-prefix=PLAIN
# PLAIN-LABEL: .entry axpb(
# PLAIN-NOT: fma.rn.f32
# PLAIN: mul.rn.f32
# PLAIN: add.rn.f32
import triton
import triton.language as tl


@triton.jit
def axpb(X, Y, a, b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs) * a + b)

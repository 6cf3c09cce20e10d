# fp32 exp, exp2, log and log2 on NVIDIA, as Triton lowers them: exp is
# ex2.approx of x * log2(e) keeping subnormal results; exp2 is ex2.approx
# with flush-to-zero (libdevice's __nv_exp2f under its flush-to-zero
# reflection); log and log2 are libdevice's __nv_logf / __nv_log2f (an
# fma.rn.ftz polynomial), not lg2.approx, whose absolute error would make
# log(1 + 1e-4) wrong in its third digit.
# RUN: tritium compile %s --kernel ops --signature "*fp32:16,*fp32:16,128" --target cuda:90 --emit ptx | FileCheck %s
# CHECK-LABEL: .entry ops(
# CHECK: mul.f32 [[S:%r[0-9]+]], {{%r[0-9]+}}, 0f3FB8AA3B;
# CHECK-NEXT: ex2.approx.f32 {{%r[0-9]+}}, [[S]];
# CHECK: ex2.approx.ftz.f32
# CHECK: fma.rn.ftz.f32
# CHECK-NOT: lg2.approx
# CHECK: ret;
import triton
import triton.language as tl


@triton.jit
def ops(x_ptr, y_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)
    tl.store(y_ptr + o, tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x))

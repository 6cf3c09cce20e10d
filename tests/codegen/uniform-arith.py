# In a kernel without loops, arithmetic of the parameters alone (the same
# in every thread) is emitted first, before any per-thread work: ptxas
# then keeps it in uniform registers. 04's dropout computes Philox's key
# schedule from the seed between the rounds of its 8 counters; emitted
# there, it took vector registers (40 a thread, against 32 when first).
# RUN: tritium compile %examples/dropout.py --kernel _seeded_dropout --signature "*fp32:16,*fp32:16,i32:16,fp32,i32,1024" --target cuda:90 --emit ptx | FileCheck %s
# CHECK-LABEL: .entry _seeded_dropout(
# CHECK: ld.param.b32 [[SEED:%r[0-9]+]], [_seeded_dropout_param_4];
# CHECK-NOT: ld.global
# CHECK: add.s32 {{%r[0-9]+}}, [[SEED]], -1640531527;
# CHECK-NOT: ld.global
# CHECK: add.s32 {{%r[0-9]+}}, [[SEED]], 1013904242;
# CHECK: ld.global.v4.b32

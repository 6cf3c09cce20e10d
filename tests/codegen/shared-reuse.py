# REQUIRES: ptxas
# The slots of two pipelined loops one after the other are live at
# different times and share shared memory: a kernel with two such loops
# (as a causal attention's off-band and diagonal passes) takes what one of
# them takes, and each loop still gets every stage. Inside one loop nothing
# is shared.
# RUN: (tritium compile %s --kernel one_loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,64,64,64" --target cuda:90 --num-stages 3 --emit cubin --report -o %t.one 2>&1; \
# RUN:  tritium compile %s --kernel two_loops --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,64,64,64" --target cuda:90 --num-stages 3 --emit cubin --report -o %t.two 2>&1; \
# RUN:  tritium compile %s --kernel two_loops --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,64,64,64" --target cuda:90 --num-stages 3 --emit tile-gpu) | FileCheck %s
# CHECK: kernel one_loop {{.*}}, [[BYTES:[0-9]+]] bytes dynamic shared
# CHECK: kernel two_loops {{.*}}, [[BYTES]] bytes dynamic shared
# CHECK: tgpu.mbarrier_init {barrier = {{[0-9]+}} : i64, count = 2 : i64, numSlots = 3 : i64}
# CHECK: scf.for
# CHECK: tgpu.mbarrier_init {barrier = {{[0-9]+}} : i64, count = 2 : i64, numSlots = 3 : i64}
# CHECK: scf.for
import triton
import triton.language as tl


@triton.jit
def one_loop(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, [BM, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [K, BN], [BN, 1], [BK, BN])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a.load([0, k]), b.load([k, 0]), acc)
    tl.store(c_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)


@triton.jit
def two_loops(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, [BM, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [K, BN], [BN, 1], [BK, BN])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K // 2, BK):
        acc = tl.dot(a.load([0, k]), b.load([k, 0]), acc)
    acc = acc * 0.5
    for k in range(K // 2, K, BK):
        acc = tl.dot(a.load([0, k]), b.load([k, 0]), acc)
    tl.store(c_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)

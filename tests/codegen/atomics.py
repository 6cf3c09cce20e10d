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
#
# Split-K: a product's accumulator added into memory. On sm_90 it moves to
# 4 consecutive floats a thread, lanes side by side, and goes out as 16
# vector atoms (atom.add.v4.f32, each element atomic on its own) rather
# than 64 scalar ones whose lanes lie rows apart. The old values come back
# in the vector's registers.
# RUN: tritium compile %s --kernel split_k --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16,128,128,64,8" --num-warps 8 --target cuda:90 --emit ptx | FileCheck %s --check-prefix=SPLITK
# SPLITK-LABEL: .entry split_k(
# SPLITK: wgmma.mma_async
# SPLITK-COUNT-16: atom.acq_rel.gpu.global.add.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
# SPLITK-NOT: atom.
# SPLITK: ret;
# Before sm_90 there is no vector form: 64 scalar atoms a thread.
# RUN: tritium compile %s --kernel split_k --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16,128,128,64,8" --num-warps 8 --target cuda:80 --emit ptx | FileCheck %s --check-prefix=SPLITK80
# SPLITK80-COUNT-64: atom.acq_rel.gpu.global.add.f32
# SPLITK80-NOT: atom.
# 16-bit adds go 8 at a time (.v8.f16) where the pointers are 16-byte
# aligned; where a mask of unknown extent splits the runs, one element a
# thread with the lanes on consecutive elements (the tile of 1024 in 128
# threads: 8 atoms, each 64 contiguous bytes), not 8 elements a thread
# whose lanes lie 16 bytes apart.
# RUN: tritium compile %s --kernel accumulate --signature "*fp16:16,*fp16:16,i32:16,1024" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=V8
# V8: atom.acq_rel.gpu.global.add.noftz.v8.f16 {%rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}}
# V8-NOT: atom.
# RUN: tritium compile %s --kernel accumulate --signature "*bf16:16,*bf16:16,i32,1024" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=MASKED
# MASKED: #linear = #tgpu.linear<{register = {{\[\[}}128], [256], [512]], lane = {{\[\[}}1], [2], [4], [8], [16]], warp = {{\[\[}}32], [64]]}>
# MASKED: tile.atomic_rmw fadd, acq_rel, gpu, {{.*}} : tensor<1024x!tile.ptr<bf16>, #linear>
# Integer adds have no vector form: one element a thread.
# RUN: tritium compile %s --kernel accumulate --signature "*i32:16,*i32:16,i32:16,1024" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=I32
# I32-COUNT-8: atom.acq_rel.gpu.global.add.u32
# I32-NOT: atom.
import triton
import triton.language as tl


@triton.jit
def split_k(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
            BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BLOCK_N)
    rm = (pid // grid_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = (pid % grid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * N
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def accumulate(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@triton.jit
def atom_bf16(p, v, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    old = tl.atomic_add(p + o % 4, tl.load(v + o, mask=m), mask=m, sem="relaxed",
                        scope="gpu")
    tl.store(v + o, old, mask=m)

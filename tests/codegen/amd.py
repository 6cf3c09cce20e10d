# The AMD back end (--target hip:gfx90a|gfx942|gfx950): the same passes,
# wave64, AMDGCN, an hsaco linked by ld.lld, and --report from the code
# object's metadata. No GPU is needed.

# Every example compiles and links for the three targets.
# RUN: for a in gfx90a gfx942 gfx950; do \
# RUN:   tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,1024" --target hip:$a --emit hsaco -o %t.$a.vadd.hsaco && \
# RUN:   tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --target hip:$a --emit hsaco -o %t.$a.softmax.hsaco && \
# RUN:   tritium compile %examples/layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32,1024" --target hip:$a --emit hsaco -o %t.$a.lnf.hsaco && \
# RUN:   tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32,i32,64,1024" --target hip:$a --emit hsaco -o %t.$a.lnb.hsaco && \
# RUN:   tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dwdb --signature "*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,32,128" --target hip:$a --emit hsaco -o %t.$a.lnw.hsaco && \
# RUN:   tritium compile %examples/dropout.py --kernel _seeded_dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" --target hip:$a --emit hsaco -o %t.$a.dropout.hsaco && \
# RUN:   tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,leaky_relu" --target hip:$a --emit hsaco -o %t.$a.matmul.hsaco && \
# RUN:   tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --target hip:$a --emit hsaco -o %t.$a.attn.hsaco || exit 1; \
# RUN: done
# RUN: llvm-readelf -h -s %t.gfx942.softmax.hsaco | FileCheck %s --check-prefix=ELF
# ELF: OS/ABI: AMDGPU - HSA
# ELF: Machine: EM_AMDGPU
# ELF: Flags: {{.*}}gfx942
# ELF-DAG: FUNC {{.*}} softmax_kernel
# ELF-DAG: OBJECT {{.*}} softmax_kernel.kd
# RUN: llvm-readelf -h %t.gfx90a.attn.hsaco | FileCheck %s --check-prefix=ELF90A
# ELF90A: Flags: {{.*}}gfx90a
# RUN: llvm-readelf -h %t.gfx950.matmul.hsaco | FileCheck %s --check-prefix=ELF950
# ELF950: Flags: {{.*}}gfx950

# AMDGCN: the target, wave-wide reductions through ds_bpermute and LDS
# between the four waves, s_barrier, exp on v_exp_f32.
# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=SOFTMAX
# SOFTMAX: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
# SOFTMAX: .amdhsa_code_object_version 5
# SOFTMAX-LABEL: softmax_kernel:
# SOFTMAX: ds_bpermute_b32
# SOFTMAX: ds_write_b32
# SOFTMAX: s_barrier
# SOFTMAX: v_exp_f32
# SOFTMAX: s_endpgm
# SOFTMAX: .amdhsa_kernel softmax_kernel
# SOFTMAX: .wavefront_size: 64

# Vectorized global accesses where the axis analysis allows them, and the
# grid size from the implicit kernel arguments (num_programs).
# RUN: tritium compile %s --kernel grid_kernel --signature "*fp32:16,*i32:16,i32:16,1024" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=GRID
# GRID-LABEL: grid_kernel:
# GRID: global_load_dwordx4
# GRID: global_store_dwordx4
# GRID: .value_kind: hidden_block_count_x

# LLVM IR: atomics are LLVM's with AMDGPU sync scopes, under the mask (the
# masked load, LLVM's own, moves under it too).
# RUN: tritium compile %s --kernel atomic_kernel --signature "*fp32:16,*i32:16,i32,256" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=LLIR
# LLIR: target triple = "amdgcn-amd-amdhsa"
# LLIR: define amdgpu_kernel void @atomic_kernel(
# LLIR: br i1
# LLIR: load <1 x float>
# LLIR: atomicrmw fadd ptr addrspace(1) {{.*}} syncscope("agent") monotonic
# LLIR: cmpxchg ptr addrspace(1) {{.*}} syncscope("agent") acq_rel acquire
# LLIR: "amdgpu-flat-work-group-size"="1,256"

# Tiles a loop carries to its next iteration (the matmul's operands, loaded
# one iteration early) cross the back edge packed into 32-bit words: two
# fp16 or four 8-bit values a phi, not a VGPR each.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,leaky_relu" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=PACK16
# PACK16-NOT: phi half
# PACK16: phi <2 x half>
# PACK16-NOT: phi half
# RUN: tritium compile %s --kernel carried_i8 --signature "*i8:16,*i8:16,i32,4096" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=PACK8
# PACK8-NOT: phi i8
# PACK8: phi {{<4 x i8>|i32}}
# PACK8-NOT: phi i8
# Products with fp16/bf16 operands and an fp32 accumulator whose blocks
# give every wave its own run on MFMA (v_mfma_f32_32x32x8, four per k step
# of 32 here); others on the FMA path.
# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,leaky_relu" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA
# MFMA-COUNT-4: v_mfma_f32_32x32x8_f16
# MFMA-NOT: v_mfma
# MFMA: s_endpgm
# RUN: tritium compile %s --kernel dot_kernel --signature "*bf16:16,*bf16:16,*fp32:16,128,64,32" --target hip:gfx90a --emit amdgcn | FileCheck %s --check-prefix=MFMA-BF16
# MFMA-BF16-COUNT-8: v_mfma_f32_32x32x8bf16_1k
# MFMA-BF16-NOT: v_mfma
# The accumulator's blocks are held transposed (a lane has four consecutive
# columns of a row): the product is stored where it lies, 16 bytes per
# access in fp32, with no pass through LDS after the last MFMA.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,128,64,32" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=EPILOGUE
# EPILOGUE-COUNT-8: v_mfma_f32_32x32x8_f16
# EPILOGUE-NOT: ds_
# EPILOGUE: global_store_dwordx4
# EPILOGUE-NOT: ds_
# EPILOGUE: s_endpgm
# Tiles whose 32x32 blocks leave waves idle take v_mfma_f32_16x16x16.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,32,32,32" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA16
# MFMA16-COUNT-2: v_mfma_f32_16x16x16_f16
# MFMA16-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*bf16:16,*bf16:16,*fp32:16,64,64,64" --target hip:gfx942 --num-warps 8 --emit amdgcn | FileCheck %s --check-prefix=MFMA16-BF16
# MFMA16-BF16-COUNT-8: v_mfma_f32_16x16x16_bf16
# MFMA16-BF16-NOT: v_mfma
# gfx950 takes twice the k per instruction (v_mfma_f32_32x32x16, 16x16x32):
# half as many products, each lane reading 16 bytes of its row or column.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,128,64,32" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA950
# MFMA950: ds_read_b128
# MFMA950-COUNT-4: v_mfma_f32_32x32x16_f16
# MFMA950-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*bf16:16,*bf16:16,*fp32:16,64,64,64" --target hip:gfx950 --num-warps 8 --emit amdgcn | FileCheck %s --check-prefix=MFMA950-BF16
# MFMA950-BF16-COUNT-4: v_mfma_f32_16x16x32_bf16
# MFMA950-BF16-NOT: v_mfma
# The second product of attention reads P from registers, where a lane's
# four-value fragments of two narrow k steps fill the wide instruction's
# eight slots; V is read from LDS for the same k.
# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=ATTN950
# ATTN950-NOT: v_mfma_f32_32x32x8
# ATTN950: v_mfma_f32_32x32x16_f16
# ATTN950-NOT: v_mfma_f32_32x32x8
# A K the wider instruction does not divide keeps the narrower one.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,32,32,16" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA950-K16
# MFMA950-K16: v_mfma_f32_16x16x16_f16
# MFMA950-K16-NOT: v_mfma
# int8 operands with an int32 accumulator: v_mfma_i32_32x32x8i8 (four k
# values a lane, one dword) on gfx90a, 32x32x16_i8 (eight, a dword pair)
# on gfx942 and 32x32x32_i8 (sixteen, four dwords) on gfx950; the k steps
# shrink the products per tile accordingly (8 blocks of 32x32 here: 64, 32
# and 16 k steps of 8, 16 and 32 over K = 64).
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,128,64,64" --target hip:gfx90a --emit amdgcn | FileCheck %s --check-prefix=MFMA-I8-90A
# MFMA-I8-90A-COUNT-16: v_mfma_i32_32x32x8i8
# MFMA-I8-90A-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,128,64,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA-I8-942
# MFMA-I8-942: ds_read2_b64
# MFMA-I8-942-COUNT-8: v_mfma_i32_32x32x16_i8
# MFMA-I8-942-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,128,64,64" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA-I8-950
# MFMA-I8-950: ds_read_b128
# MFMA-I8-950-COUNT-4: v_mfma_i32_32x32x32_i8
# MFMA-I8-950-NOT: v_mfma
# 16x16 blocks: 16x16x16i8, 16x16x32_i8, 16x16x64_i8.
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,32,32,64" --target hip:gfx90a --emit amdgcn | FileCheck %s --check-prefix=MFMA16-I8-90A
# MFMA16-I8-90A-COUNT-4: v_mfma_i32_16x16x16i8
# MFMA16-I8-90A-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,32,32,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA16-I8-942
# MFMA16-I8-942-COUNT-2: v_mfma_i32_16x16x32_i8
# MFMA16-I8-942-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,32,32,64" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA16-I8-950
# MFMA16-I8-950: v_mfma_i32_16x16x64_i8
# MFMA16-I8-950-NOT: v_mfma
# A K the sixteen-value instruction does not divide (32, in 16x16 blocks)
# keeps the eight-value one on gfx950.
# RUN: tritium compile %s --kernel dot_kernel --signature "*i8:16,*i8:16,*i32:16,32,32,32" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA950-I8-K32
# MFMA950-I8-K32: v_mfma_i32_16x16x32_i8
# MFMA950-I8-K32-NOT: v_mfma
# fp8 with an fp32 accumulator, in the formats each target's MFMA reads:
# gfx942 the FNUZ ones (fp8e4b8 "fp8", fp8e5b16 "bf8"), eight a lane on
# v_mfma_f32_32x32x16_{fp8,bf8}_{fp8,bf8} (the first format is the first
# operand's: B's, the blocks being held transposed); gfx950 the OCP ones,
# thirty-two a lane on v_mfma_f32_32x32x64_f8f6f4 with the formats as
# cbsz (first) and blgp (second), 1 for e5m2.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e4b8:16,*fp8e4b8:16,*fp32:16,128,64,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA-F8-942
# MFMA-F8-942: ds_read2_b64
# MFMA-F8-942-COUNT-8: v_mfma_f32_32x32x16_fp8_fp8
# MFMA-F8-942-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e5b16:16,*fp8e4b8:16,*fp32:16,128,64,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=MFMA-F8-942-MIXED
# MFMA-F8-942-MIXED-COUNT-8: v_mfma_f32_32x32x16_fp8_bf8
# MFMA-F8-942-MIXED-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e5:16,*fp8e5:16,*fp32:16,128,64,64" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA-F8-950
# MFMA-F8-950-COUNT-2: v_mfma_f32_32x32x64_f8f6f4 {{.*}} cbsz:1 blgp:1
# MFMA-F8-950-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e4nv:16,*fp8e5:16,*fp32:16,32,32,128" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA16-F8-950
# MFMA16-F8-950: v_mfma_f32_16x16x128_f8f6f4 {{.*}} cbsz:1{{$}}
# MFMA16-F8-950-NOT: v_mfma
# A K the f8f6f4 instructions do not divide takes 32x32x16 (OCP formats on
# gfx950). Formats a target's MFMA does not read (OCP fp8 on gfx942, any on
# gfx90a) take the FMA path.
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e4nv:16,*fp8e4nv:16,*fp32:16,64,64,32" --target hip:gfx950 --emit amdgcn | FileCheck %s --check-prefix=MFMA-F8-950-K32
# MFMA-F8-950-K32-COUNT-2: v_mfma_f32_32x32x16_fp8_fp8
# MFMA-F8-950-K32-NOT: v_mfma
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e4nv:16,*fp8e4nv:16,*fp32:16,64,64,32" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=NO-MFMA
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp8e4b8:16,*fp8e4b8:16,*fp32:16,64,64,32" --target hip:gfx90a --emit amdgcn | FileCheck %s --check-prefix=NO-MFMA
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp32:16,*fp32:16,*fp32:16,64,64,32" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=NO-MFMA
# RUN: tritium compile %s --kernel dot_kernel --signature "*fp16:16,*fp16:16,*fp32:16,16,16,16" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=NO-MFMA
# NO-MFMA-NOT: v_mfma
# NO-MFMA: v_fma
# NO-MFMA-NOT: v_mfma

# --report: registers, spills, LDS, scratch and occupancy.
# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --target hip:gfx950 --emit hsaco -o %t.r.hsaco --report 2>&1 | FileCheck %s --check-prefix=REPORT
# REPORT: kernel softmax_kernel (gfx950, wave64): {{[0-9]+}} SGPRs, {{[0-9]+}} VGPRs, 0 AGPRs, 0 SGPR spills, 0 VGPR spills, 0 bytes static LDS, {{[1-9][0-9]*}} bytes dynamic LDS, 0 bytes scratch, occupancy {{[1-8]}} waves per SIMD, 256 threads per program

# device_print: ROCm's printf over hostcall (ockl, linked): the format in
# constant memory, and the hostcall buffer among the implicit arguments.
# RUN: tritium compile %s --kernel print_kernel --signature "*fp32:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=PRINT
# PRINT: @printf_fmt = {{.*}}addrspace(4) constant [32 x i8] c"pid (%u, %u, %u) idx (%2d)x %f\0A\00"
# PRINT-LABEL: define amdgpu_kernel void @print_kernel(
# PRINT-NOT: declare {{.*}}@__ockl
# RUN: tritium compile %s --kernel print_kernel --signature "*fp32:16,64" --target hip:gfx90a --emit amdgcn | FileCheck %s --check-prefix=PRINT-ASM
# PRINT-ASM-LABEL: print_kernel:
# PRINT-ASM: s_endpgm
# PRINT-ASM: .value_kind: hidden_hostcall_buffer
# RUN: tritium compile %s --kernel print_kernel --signature "*fp32:16,64" --target hip:gfx950 --emit hsaco -o %t.print.hsaco

# libdevice's integer functions are LLVM IR (amd-libdevice.py has the rest).
# RUN: tritium compile %s --kernel popc_kernel --signature "*i32:16,64" --target hip:gfx942 --emit amdgcn | FileCheck %s --check-prefix=POPC
# POPC-LABEL: popc_kernel:
# POPC: v_bcnt_u32_b32
# POPC: s_endpgm

# Math functions come from ROCm's ocml (rocm-device-libs), linked and
# inlined: no call is left.
# RUN: tritium compile %s --kernel tan_kernel --signature "*fp32:16,64" --target hip:gfx942 --emit llir | FileCheck %s --check-prefix=OCML
# OCML-LABEL: define amdgpu_kernel void @tan_kernel(
# OCML-NOT: call {{.*}}@__ocml
# OCML-NOT: declare {{.*}}@__ocml

# Errors name the place and what is missing.
# RUN: env TRITIUM_OCML=%t.missing not tritium compile %s --kernel tan_kernel --signature "*fp32:16,64" --target hip:gfx942 --emit amdgcn 2>&1 | FileCheck %s --check-prefix=NO-OCML
# NO-OCML: the kernel calls math functions (__ocml_tan_f32), which AMD targets take from ROCm's ocml.bc, not found (install rocm-device-libs or set TRITIUM_OCML)
# RUN: not tritium compile %s --kernel tan_kernel --signature "*fp32:16,64" --target hip:gfx1100 --emit amdgcn 2>&1 | FileCheck %s --check-prefix=ARCH
# ARCH: error: --target: expected cuda:80, cuda:90, hip:gfx90a, hip:gfx942 or hip:gfx950 (got 'hip:gfx1100')
# RUN: not tritium compile %s --kernel tan_kernel --signature "*fp32:16,64" --target hip:gfx942 --emit ptx 2>&1 | FileCheck %s --check-prefix=EMIT
# EMIT: error: --emit ptx is for NVIDIA targets; for hip:gfx942 use --emit amdgcn or hsaco
# RUN: not tritium compile %s --kernel tan_kernel --signature "*fp32:16,64" --target cuda:90 --emit hsaco 2>&1 | FileCheck %s --check-prefix=EMIT2
# EMIT2: error: --emit hsaco is for AMD targets (hip:gfx942, ...); for cuda:90 use --emit ptx or cubin

import triton
import triton.language as tl


@triton.jit
def grid_kernel(x_ptr, n_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x * 2, mask=offs < n)
    tl.store(n_ptr, tl.num_programs(0))


@triton.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x", x)


@triton.jit
def atomic_kernel(x_ptr, lock_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(x_ptr + offs, x, mask=offs < n, sem="relaxed")
    tl.atomic_cas(lock_ptr, 0, 1)


@triton.jit
def tan_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.math.tan(tl.load(x_ptr + offs)))


@triton.jit
def carried_i8(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    prev = tl.load(x_ptr + offs)
    for i in range(1, n):
        cur = tl.load(x_ptr + i * BLOCK + offs)
        tl.store(y_ptr + i * BLOCK + offs, prev + cur)
        prev = cur


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b))


@triton.jit
def popc_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.extra.cuda.libdevice.popc(x))

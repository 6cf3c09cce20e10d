# Every example compiles for sm_80 and sm_90 through the GPU pipeline
# (tile-gpu, LLVM IR, PTX); with ptxas present the PTX also assembles.

# The tile-gpu stage is tgpu IR (it parses back): four contiguous fp32 per
# thread, 32 lanes, 4 warps, repeated over the 1024 elements.
# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,1024" --target cuda:90 --emit tile-gpu | tile-opt | FileCheck %s --check-prefix=CHECK-VADD-GPU
# CHECK-VADD-GPU: #[[BL:blocked]] = #tgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# CHECK-VADD-GPU-LABEL: func.func @add_kernel
# CHECK-VADD-GPU: tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[BL]]>
# CHECK-VADD-GPU: tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #[[BL]]>
# CHECK-VADD-GPU-NOT: tgpu.convert_layout

# The axis analysis proves 16-byte alignment, so loads and stores are 128-bit.
# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,1024" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-VADD
# CHECK-VADD: .target sm_90
# CHECK-VADD-LABEL: .visible .entry add_kernel(
# CHECK-VADD: .maxntid 128
# CHECK-VADD: @%p{{[0-9]+}} ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}
# CHECK-VADD: @%p{{[0-9]+}} st.global.v4.b32

# Without the %16 specialization of n, masks may change inside a vector.
# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-VADD-SCALAR
# CHECK-VADD-SCALAR: .target sm_80
# CHECK-VADD-SCALAR: ld.global.b32
# CHECK-VADD-SCALAR-NOT: ld.global.v4

# A row reduction: butterfly shuffles within the warp, shared memory across.
# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-SOFTMAX
# CHECK-SOFTMAX-LABEL: .entry softmax_kernel(
# CHECK-SOFTMAX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# CHECK-SOFTMAX: bar.sync 0;
# tl.exp is ex2.approx of x * log2(e), subnormal results kept (as Triton's).
# CHECK-SOFTMAX: ex2.approx.f32

# LLVM IR: a PTX kernel of 128 threads; libdevice linked and inlined.
# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32,1024" --target cuda:90 --emit llir | FileCheck %s --check-prefix=CHECK-LN
# CHECK-LN: define ptx_kernel void @_layer_norm_fwd_fused(
# tl.sqrt is the approximate square root in fp32, as in Triton.
# CHECK-LN: call float @llvm.nvvm.sqrt.approx.ftz.f(
# CHECK-LN: "nvvm.maxntid"="128"

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8,leaky_relu" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=CHECK-MM
# CHECK-MM-LABEL: .entry matmul_kernel(
# CHECK-MM: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# CHECK-MM: st.global

# RUN: tritium compile %examples/dropout.py --kernel _seeded_dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-DROP
# CHECK-DROP: mul.hi.u32

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32,i32,64,1024" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-LNB
# CHECK-LNB: atom.acq_rel.gpu.global.cas.b32
# CHECK-LNB: atom.acq_rel.gpu.global.exch.b32

# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-ATTN
# CHECK-ATTN-LABEL: .entry _attn_fwd(
# CHECK-ATTN: ex2.approx.ftz.f32

# Assembled by ptxas for both targets, with the resource report.
# REQUIRES: ptxas
# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --target cuda:80 --emit cubin --report -o %t.80.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-REPORT
# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --target cuda:90 --emit cubin -o %t.90.cubin
# CHECK-REPORT: kernel add_kernel (sm_80): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes static shared, 0 bytes dynamic shared, 128 threads per program

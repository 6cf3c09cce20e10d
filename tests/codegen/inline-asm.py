# tl.inline_asm_elementwise on the GPU: one asm statement per run of `pack`
# consecutive elements a thread holds; elements narrower than 32 bits share
# 32-bit operands (4 x u8 or 2 x f16 in one b32, element 0 in the low bits),
# outputs first, then each argument's operands. The kernels are the ones
# tests/gpu/check_inline_asm.py runs on a GPU; inline-asm-ptxas.py
# assembles them.

# u8 -> f16, pack 4: four bytes in one b32, four halves back in two b32.
# 1024 elements on 128 threads: two runs of four per thread, no conversion.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel u8_to_f16_kernel --signature "*u8:16,*fp16:16,i32,1024" --target cuda:80 --emit llir | FileCheck %s --check-prefix=U8LL
# U8LL-LABEL: define ptx_kernel void @u8_to_f16_kernel(
# U8LL: [[W:%[0-9]+]] = bitcast <4 x i8> %{{[0-9]+}} to i32
# U8LL-NEXT: [[R:%[0-9]+]] = {{.*}}call { i32, i32 } asm "{ .reg .b8 b<4>;{{.*}}", "=r,=r,r"(i32 [[W]])
# U8LL-NEXT: extractvalue { i32, i32 } [[R]], 0
# U8LL-NEXT: extractvalue { i32, i32 } [[R]], 1
# U8LL: call { i32, i32 } asm "{ .reg .b8 b<4>;
# U8LL-NOT: call { i32, i32 } asm "{ .reg .b8 b<4>;

# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel u8_to_f16_kernel --signature "*u8:16,*fp16:16,i32,1024" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=U8
# U8-LABEL: .entry u8_to_f16_kernel(
# U8-COUNT-2: mov.b32 {b0, b1, b2, b3}, %r{{[0-9]+}}; cvt.rn.f16.u8 h0, b0;{{.*}} mov.b32 %r{{[0-9]+}}, {h0, h1}; mov.b32 %r{{[0-9]+}}, {h2, h3}; }
# U8-NOT: cvt.rn.f16.u8 h0

# 256 elements hold two per thread by default: the load is issued in the
# asm's layout instead, four per thread (one run, warps 2 and 3 replicate
# warps 0 and 1), with no conversion before the asm; the results move back
# to two per thread for the store.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel u8_to_f16_kernel --signature "*u8:16,*fp16:16,i32,256" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=U8CONV
# U8CONV-LABEL: .entry u8_to_f16_kernel(
# U8CONV-COUNT-4: ld.global.u8
# U8CONV-NOT: bar.sync
# U8CONV: mov.b32 {b0, b1, b2, b3}, %r{{[0-9]+}}; cvt.rn.f16.u8 h0, b0;
# U8CONV-NOT: cvt.rn.f16.u8 h0
# U8CONV: bar.sync

# f32, pack 2, two arguments: operands $2 $3 are a's pair, $4 $5 b's.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel sub_pairs_kernel --signature "*fp32:16,*fp32:16,*fp32:16,512" --target cuda:90 --emit llir | FileCheck %s --check-prefix=SUBLL
# SUBLL-LABEL: define ptx_kernel void @sub_pairs_kernel(
# SUBLL-COUNT-2: call { float, float } asm "sub.f32 $0, $3, $4; sub.f32 $1, $2, $5;", "=f,=f,f,f,f,f"(float %{{[0-9]+}}, float %{{[0-9]+}}, float %{{[0-9]+}}, float %{{[0-9]+}})
# SUBLL-NOT: asm "sub.f32

# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel sub_pairs_kernel --signature "*fp32:16,*fp32:16,*fp32:16,512" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=SUB
# SUB-LABEL: .entry sub_pairs_kernel(
# SUB-COUNT-2: sub.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}; sub.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
# SUB-NOT: sub.f32

# Two f16 results, pack 2: two outputs ($0 $1), then a's and b's pairs.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel f16_pairs_kernel --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,256" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PAIRS
# PAIRS-LABEL: .entry f16_pairs_kernel(
# PAIRS: prmt.b32 [[C:%r[0-9]+]], [[A:%r[0-9]+]], 0, 0x1032; add.rn.f16x2 [[D:%r[0-9]+]], [[A]], %r{{[0-9]+}};
# PAIRS-NOT: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 0x1032
# PAIRS-DAG: st.global.b32 [%rd{{[0-9]+}}], [[C]];
# PAIRS-DAG: st.global.b32 [%rd{{[0-9]+}}], [[D]];

# Mixed widths, pack 4: the bytes take one operand, the i32s four.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel byte_scale_kernel --signature "*u8:16,*i32:16,*i32:16,1024" --target cuda:80 --emit llir | FileCheck %s --check-prefix=MIXED
# MIXED-LABEL: define ptx_kernel void @byte_scale_kernel(
# MIXED-COUNT-2: call { i32, i32, i32, i32 } asm "{ .reg .b32 t;{{.*}}", "=r,=r,=r,=r,r,r,r,r,r"(i32 %{{[0-9a-z.]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}})
# MIXED-NOT: asm "{ .reg .b32 t;

# u8, pack 8: eight bytes in two b32 operands; one run per thread.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel swap_words_kernel --signature "*u8:16,*u8:16,256" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PACK8
# PACK8-LABEL: .entry swap_words_kernel(
# PACK8: mov.b32 %r{{[0-9]+}}, [[HI:%r[0-9]+]]; mov.b32 %r{{[0-9]+}}, [[LO:%r[0-9]+]];
# PACK8-NOT: mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}}; mov.b32

# 2-D: runs of four along rows of 64, and across rows of 2.
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel reverse_runs_kernel --signature "*fp32:16,*fp32:16,16,64" --target cuda:80 --emit ptx | FileCheck %s --check-prefix=ROWS
# ROWS-LABEL: .entry reverse_runs_kernel(
# ROWS-COUNT-2: mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}}; mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}}; mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}}; mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}};
# ROWS-NOT: mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}}; mov.b32
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel reverse_runs_kernel --signature "*fp32:16,*fp32:16,64,2" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=NARROW
# NARROW: #[[L:linear[0-9]*]] = #tgpu.linear<{register = {{\[\[}}0, 1], [1, 0]], lane = {{\[\[}}2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = {{\[\[}}0, 0], [0, 0]]}>
# NARROW: tile.elementwise_inline_asm {{.*}}packed_element = 4 {{.*}} -> tensor<64x2xf32, #[[L]]>

# pack 1: the element types themselves ("r" for i32, "h" for f16).
# RUN: tritium compile %S/../gpu/check_inline_asm.py --kernel pack1_kernel --signature "*i32:16,*fp16:16,*i32:16,*fp16:16,128" --target cuda:80 --emit llir | FileCheck %s --check-prefix=PACK1
# PACK1-LABEL: define ptx_kernel void @pack1_kernel(
# PACK1: call i32 asm "shl.b32 $0, $1, 3;", "=r,r"(i32 %{{[0-9]+}})
# PACK1: call half asm "neg.f16 $0, $1;", "=h,h"(half %{{[0-9]+}})

# Misuses are refused at the call, with the reason.
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel pack3_kernel --signature "*i32:16,128" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERR3
# ERR3: inline_asm_errors.py:11:9: error: inline_asm_elementwise: pack = 3 must be a power of two that divides the 128 elements of the tensor (in 'tile.elementwise_inline_asm')
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel pack_too_big_kernel --signature "*i8:16" --target cuda:80 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRBIG
# ERRBIG: inline_asm_errors.py:20:9: error: inline_asm_elementwise: pack = 4 must be a power of two that divides the 2 elements of the tensor
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel bad_constraints_kernel --signature "*u8:16,*fp16:16,128" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRCONS
# ERRCONS: inline_asm_errors.py:30:9: error: inline_asm_elementwise: constraints "=r,=r,=r,=r,r" do not match the 2 outputs (i32, i32) and 1 input (i32) that pack = 4 gives
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel scalar_pack_kernel --signature "*i32:16" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRSCALAR
# ERRSCALAR: inline_asm_errors.py:38:9: error: inline_asm_elementwise: pack = 2 needs tensor arguments (a scalar is one element)
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel bool_pack_kernel --signature "*i32:16,128" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRBOOL
# ERRBOOL: inline_asm_errors.py:47:9: error: inline_asm_elementwise: boolean arguments cannot be packed (pack = 4); convert them to int8 first
# Operand references LLVM's asm printer cannot read would abort code
# generation; they are refused with the offset in the asm string.
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel bad_dollar_kernel --signature "*i32:16,128" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRDOLLAR
# ERRDOLLAR: inline_asm_errors.py:56:9: error: inline_asm_elementwise: in the asm string at offset 12: '$' is followed by ' ', not by an operand number (an operand is $N, a dollar sign $$)
# RUN: not tritium compile %S/../Inputs/codegen/inline_asm_errors.py --kernel operand_out_of_range_kernel --signature "*i32:16,128" --target cuda:90 --emit ptx 2>&1 | FileCheck %s --check-prefix=ERRRANGE
# ERRRANGE: inline_asm_errors.py:65:9: error: inline_asm_elementwise: in the asm string at offset 16: $2 names no operand: there are 2 ($0 to $1, outputs first)

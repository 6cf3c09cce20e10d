# The inline_asm_elementwise kernels of tests/gpu/check_inline_asm.py
# (pack 1, 2, 4, 8; narrow and mixed operands; several outputs; 2-D runs)
# compile for sm_80 and sm_90 and their PTX assembles with ptxas.
# REQUIRES: ptxas
# RUN: for cc in 80 90; do \
# RUN:   for ks in "u8_to_f16_kernel *u8:16,*fp16:16,i32,1024" "u8_to_f16_kernel *u8:16,*fp16:16,i32,256" \
# RUN:             "sub_pairs_kernel *fp32:16,*fp32:16,*fp32:16,512" "f16_pairs_kernel *fp16:16,*fp16:16,*fp16:16,*fp16:16,128" \
# RUN:             "byte_scale_kernel *u8:16,*i32:16,*i32:16,1024" "swap_words_kernel *u8:16,*u8:16,256" \
# RUN:             "reverse_runs_kernel *fp32:16,*fp32:16,16,64" "reverse_runs_kernel *fp32:16,*fp32:16,64,2" \
# RUN:             "pack1_kernel *i32:16,*fp16:16,*i32:16,*fp16:16,128"; do \
# RUN:     set -- $ks; \
# RUN:     tritium compile %S/../gpu/check_inline_asm.py --kernel $1 --signature "$2" --target cuda:$cc --emit cubin -o %t.cubin || exit 1; \
# RUN:     echo "ok $cc $1"; \
# RUN:   done; \
# RUN: done | FileCheck %s
# CHECK-COUNT-18: ok {{80|90}} {{[a-z0-9_]+}}_kernel

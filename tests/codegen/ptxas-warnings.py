# ptxas's performance warnings reach `tritium compile --report`.
#
# This kernel (pointer copies, a descriptor made at its start) still has
# every wgmma serialized: LLVM puts the accumulator's zeros for the path
# that skips the loop between the loop and its full wait (C7515; 17% on
# 8192^3). Waiting only where the loop ran moves the warning elsewhere
# (C7514 on 03's matmul, whose path around the wait reads the
# accumulator), so the wait stays where it is.
# REQUIRES: ptxas
# RUN: tritium compile %S/../Inputs/codegen/block_matmul.py --kernel mm_early_desc_store --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,256,64,8" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-PTXASWARN
# CHECK-PTXASWARN: kernel mm_early_desc_store (sm_90a)
# CHECK-PTXASWARN-NEXT: tritium: warning: ptxas: {{.*}}(C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized

# 03's matmul at its largest config has none.
# RUN: tritium compile %S/../../bench/bench_kernels.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,1,i32:16,i32:16,1,128,256,64,8" --target cuda:90 --num-warps 8 --num-stages 3 --emit cubin --report -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN
# CHECK-CLEAN: kernel matmul_kernel (sm_90a)
# CHECK-CLEAN-NOT: warning

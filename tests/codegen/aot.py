# `tritium aot` writes a C launcher: the header declares it with the runtime
# parameters as C types; the source embeds one cubin per signature and
# target, dispatches to the most specialized signature the arguments fit,
# passes each kernel only the parameters it kept (stride == 1 is folded),
# and computes the grid from the given expressions. The C compiles cleanly.
# REQUIRES: ptxas
# RUN: rm -rf %t && mkdir -p %t
# RUN: tritium aot %s -k axpy -s "*fp32,*fp32,i32,i32,fp32,256" -s "*fp32:16,*fp32:16,i32:16,i32:1,fp32,256" -g "(n + BLOCK - 1) / BLOCK, 1" -n axpy_aot --target cuda:90 --target cuda:80 -w 4 -o %t
# RUN: FileCheck %s --check-prefix=HEADER < %t/axpy_aot.h
# RUN: FileCheck %s < %t/axpy_aot.c
# RUN: cc -std=c11 -Wall -Wextra -Werror -pedantic -c %t/axpy_aot.c -I%t -o %t/axpy_aot.o
# RUN: nm %t/axpy_aot.o | FileCheck %s --check-prefix=SYMBOLS

# HEADER: Signatures, most
# HEADER-NEXT: specialized first:
# HEADER-NEXT: *fp32:16,*fp32:16,i32:16,i32:1,fp32,256
# HEADER-NEXT: *fp32,*fp32,i32,i32,fp32,256
# HEADER: int axpy_aot(void *stream, uint64_t X, uint64_t Y, int32_t n, int32_t stride, float alpha);
# HEADER: int axpy_aot_load(void);
# HEADER: const char *axpy_aot_last_error(void);

# CHECK: compiled ahead of time by tritium aot for sm_90a sm_80.
# CHECK: dlopen("libcuda.so.1"
# CHECK: static const unsigned char tr_cubin_0_0[] = {
# CHECK-NEXT: 0x7f, 0x45, 0x4c, 0x46,
# CHECK: static const unsigned char tr_cubin_1_1[] = {
# CHECK: {tr_cubin_0_0, 90, "axpy", 128, 0}, {tr_cubin_0_1, 80, "axpy", 128, 0}
# CHECK: int axpy_aot(void *stream, uint64_t X, uint64_t Y, int32_t n, int32_t stride, float alpha) {
# CHECK-NEXT: const int64_t BLOCK = 256;
# CHECK: tr_grid[0] = (int64_t)((n + BLOCK - 1) / BLOCK);
# CHECK-NEXT: tr_grid[1] = (int64_t)( 1);
# CHECK-NEXT: tr_grid[2] = (int64_t)(1);
# CHECK: if (((X & 15) == 0) && ((Y & 15) == 0) && (n % 16 == 0) && (stride == 1))
# CHECK-NEXT: tr_v = 0;
# CHECK-NEXT: else if (1)
# CHECK-NEXT: tr_v = 1;
# CHECK: case 0: {
# CHECK-NEXT: uint64_t tr_a0 = (uint64_t)X;
# CHECK-NEXT: uint64_t tr_a1 = (uint64_t)Y;
# CHECK-NEXT: int32_t tr_a2 = (int32_t)n;
# CHECK-NEXT: float tr_a3 = (float)alpha;
# CHECK-NEXT: void *tr_params[] = {&tr_a0, &tr_a1, &tr_a2, &tr_a3};
# CHECK: case 1: {
# CHECK: int32_t tr_a3 = (int32_t)stride;
# CHECK-NEXT: float tr_a4 = (float)alpha;
# CHECK-NEXT: void *tr_params[] = {&tr_a0, &tr_a1, &tr_a2, &tr_a3, &tr_a4};

# SYMBOLS-DAG: T axpy_aot
# SYMBOLS-DAG: T axpy_aot_load
# SYMBOLS-DAG: T axpy_aot_last_error
import triton
import triton.language as tl


@triton.jit
def axpy(X, Y, n, stride, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs * stride, mask=m)
    tl.store(Y + offs, alpha * x + tl.load(Y + offs, mask=m), mask=m)

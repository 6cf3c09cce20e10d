# `tritium run --record DIR` saves a launch (the kernel's source, options and
# every input buffer, empty: ones as their generator); `tritium replay DIR`
# reruns it with the same inputs, observed as run's options ask.

# RUN: rm -rf %t.rec
# RUN: tritium run %s --kernel scale_acc --grid 2 --record %t.rec --seed 5 \
# RUN:   --arg x_ptr=randn:f32[16] --arg out_ptr=empty:f32[16] --arg alpha=0.25 --arg n=16 \
# RUN:   --constexpr BLOCK=8 --save out_ptr=%t.first.npy | FileCheck %s --check-prefix=FIRST
# RUN: FileCheck %s --check-prefix=ARGS < %t.rec/launch.args
# RUN: tritium replay %t.rec --check out_ptr=%t.first.npy | FileCheck %s --check-prefix=SAME
# RUN: not tritium replay %t.rec --sanitize uninit 2>&1 | FileCheck %s --check-prefix=UNINIT
# RUN: not tritium replay %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
# --executors: where the rerun goes (the GPU side runs in tests/python/test_replay_gpu.py).
# RUN: tritium replay %t.rec --executors interp | FileCheck %s --check-prefix=INTERP
# RUN: not tritium replay %t.rec --executors gpu 2>&1 | FileCheck %s --check-prefix=BADEXEC
# RUN: not tritium replay %t.rec --executors interp,interp 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not tritium replay %t.rec --executors cuda --sanitize uninit 2>&1 | FileCheck %s --check-prefix=OBSERVE

# FIRST: kernel scale_acc grid [2, 1, 1] signature *fp32:16,*fp32:16,fp32,i32:16,8
# ARGS: kernel scale_acc
# ARGS-NEXT: grid 2
# ARGS-NEXT: num-warps 4
# ARGS-NEXT: constexpr BLOCK=8
# ARGS-NEXT: arg-file x_ptr=x_ptr.npy:f32
# ARGS-NEXT: arg out_ptr=empty:f32[16]
# ARGS-NEXT: arg alpha=0.25
# ARGS-NEXT: arg n=16
# SAME: kernel scale_acc grid [2, 1, 1] signature *fp32:16,*fp32:16,fp32,i32:16,8
# SAME: check out_ptr vs {{.*}}first.npy: PASS (16 elements, rel_l2 0
# UNINIT: uninitialized-read sanitizer: kernel scale_acc, program (0, 0, 0), {{.*}}kernel.py:{{[0-9]+}}: load lane 0 reads byte 0 of buffer 'out_ptr' (64 bytes), which nothing has written
# MISSING: tritium: error: replay {{.*}}missing: no launch.args there
# INTERP: kernel scale_acc grid [2, 1, 1] signature *fp32:16,*fp32:16,fp32,i32:16,8
# BADEXEC: tritium: error: --executors gpu: expected interp, cuda or both (e.g. --executors interp,cuda), got 'gpu'
# TWICE: tritium: error: --executors interp,interp: 'interp' is given twice
# OBSERVE: tritium: error: --trace, --trace-all, --coverage, --sanitize and tritium debug observe the interpreter; add it: --executors interp,cuda

import triton
import triton.language as tl


@triton.jit
def scale_acc(x_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out_ptr + offs, mask=mask)
    acc = tl.where(acc != acc, 0.0, acc)  # the empty: poison is NaN: start from 0
    tl.store(out_ptr + offs, acc + alpha * tl.load(x_ptr + offs, mask=mask), mask=mask)

# `tritium run` end to end on the interpreter: --save, --check, and faults.
# (Numerical checks of every example against float64 references are in
# tests/unit/RunTest.cpp.)
# REQUIRES: interpreter

# vector_add with y = 0 must return x exactly: save x, then check against it.
# RUN: tritium run %examples/vector_add.py --kernel add_kernel --grid 97 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=randn:f32[98341] \
# RUN:   --arg y_ptr=zeros:f32[98341] --arg output_ptr=empty:f32[98341] \
# RUN:   --arg n_elements=98341 --seed 7 --save x_ptr=%t.x.npy --save output_ptr=%t.out.npy \
# RUN:   | FileCheck %s --check-prefix=CHECK-SAVE
# CHECK-SAVE: kernel add_kernel grid [97, 1, 1] signature *fp32:16,*fp32:16,*fp32:16,i32,1024
# CHECK-SAVE-NEXT: compile: {{[0-9.]+}} ms
# CHECK-SAVE-NEXT: launch: {{[0-9.]+}} ms
# RUN: tritium run %examples/vector_add.py --kernel add_kernel --grid 97 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=%t.x.npy --arg y_ptr=zeros:f32[98341] \
# RUN:   --arg output_ptr=zeros:f32[98341] --arg n_elements=98341 \
# RUN:   --check output_ptr=%t.x.npy --check output_ptr=%t.out.npy | FileCheck %s --check-prefix=CHECK-PASS
# CHECK-PASS: check output_ptr vs {{.*}}.x.npy: PASS (98341 elements, rel_l2 0, max_abs 0 at [0] {{.*}}, rtol 1e-05 atol 1e-06)
# CHECK-PASS: check output_ptr vs {{.*}}.out.npy: PASS (98341 elements, rel_l2 0

# y = 1 makes every element differ by exactly 1.
# RUN: not tritium run %examples/vector_add.py --kernel add_kernel --grid 97 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=%t.x.npy --arg y_ptr=ones:f32[98341] \
# RUN:   --arg output_ptr=zeros:f32[98341] --arg n_elements=98341 \
# RUN:   --check output_ptr=%t.x.npy | FileCheck %s --check-prefix=CHECK-DIFF
# CHECK-DIFF: check output_ptr vs {{.*}}.x.npy: FAIL: 98341 of 98341 elements differ (rel_l2 {{.*}}, max_abs 1 at
# ... unless the tolerance allows it.
# RUN: tritium run %examples/vector_add.py --kernel add_kernel --grid 97 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=%t.x.npy --arg y_ptr=ones:f32[98341] \
# RUN:   --arg output_ptr=zeros:f32[98341] --arg n_elements=98341 \
# RUN:   --check output_ptr=%t.x.npy --atol 1.001 --rtol 0 | FileCheck %s --check-prefix=CHECK-TOL
# CHECK-TOL: PASS (98341 elements, rel_l2 {{.*}}, max_abs 1 at {{.*}}, rtol 0 atol 1.001)

# Shapes must match.
# RUN: tritium run %examples/vector_add.py --kernel add_kernel --grid 1 \
# RUN:   --constexpr BLOCK_SIZE=16 --arg x_ptr=randn:f32[4,4] --arg y_ptr=zeros:f32[4,4] \
# RUN:   --arg output_ptr=zeros:f32[4,4] --arg n_elements=16 --save x_ptr=%t.small.npy
# RUN: not tritium run %examples/vector_add.py --kernel add_kernel --grid 1 \
# RUN:   --constexpr BLOCK_SIZE=16 --arg x_ptr=randn:f32[16] --arg y_ptr=zeros:f32[16] \
# RUN:   --arg output_ptr=zeros:f32[16] --arg n_elements=16 --check output_ptr=%t.small.npy \
# RUN:   | FileCheck %s --check-prefix=CHECK-SHAPE
# CHECK-SHAPE: check output_ptr vs {{.*}}.small.npy: FAIL: shape mismatch: the buffer is [16], the reference is [4, 4]

# dropout with p = 0 keeps every element: x / (1 - 0) == x.
# RUN: tritium run %examples/dropout.py --kernel _seeded_dropout --grid 10 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=rand:f32[10000] --arg output_ptr=empty:f32[10000] \
# RUN:   --arg n_elements=10000 --arg p=0.0 --arg seed=42 --save x_ptr=%t.dx.npy \
# RUN:   | FileCheck %s --check-prefix=CHECK-DROPSIG
# CHECK-DROPSIG: signature *fp32:16,*fp32:16,i32:16,fp32,i32,1024
# RUN: tritium run %examples/dropout.py --kernel _seeded_dropout --grid 10 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=%t.dx.npy --arg output_ptr=empty:f32[10000] \
# RUN:   --arg n_elements=10000 --arg p=0.0 --arg seed=42 --check output_ptr=%t.dx.npy \
# RUN:   --deterministic --threads 2 | FileCheck %s --check-prefix=CHECK-DROP
# CHECK-DROP: check output_ptr vs {{.*}}.dx.npy: PASS (10000 elements, rel_l2 0

# A grid too large for the buffers with a wrong n: the interpreter reports the
# out-of-bounds access and tritium exits 1.
# RUN: not tritium run %examples/vector_add.py --kernel add_kernel --grid 4 \
# RUN:   --constexpr BLOCK_SIZE=1024 --arg x_ptr=randn:f32[1000] --arg y_ptr=randn:f32[1000] \
# RUN:   --arg output_ptr=zeros:f32[1000] --arg n_elements=4096 --deterministic 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CHECK-OOB
# CHECK-OOB: kernel add_kernel grid [4, 1, 1] signature *fp32:16,*fp32:16,*fp32:16,i32:16,1024
# CHECK-OOB-NEXT: tritium: error: out-of-bounds load in kernel add_kernel, program (0, 0, 0), {{.*}}vector_add.py:19: lane 1000 {{.*}} past the end of buffer 'x_ptr' (4000 bytes)
# CHECK-OOB-NOT: launch:

// RUN: tile-opt %s --tgpu-stage-operands="num-warps=4 target=cuda:90" | tile-opt | FileCheck %s
// RUN: tile-opt %s --tgpu-stage-operands="num-warps=4 target=cuda:80" | tile-opt | FileCheck %s --check-prefix=SM80
// Operands of warpgroup MMA products that the instruction cannot read
// where they lie are written into the staging area by tgpu.local_alloc
// right before the product, A first, each on a 1024-byte boundary; those
// already in shared memory in a form it reads, and an A in the registers
// of its fragment, stay where they are.

#blocked = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tgpu.mma<{version = 3, warpsPerCTA = [4, 1]}>
#dot = #tgpu.dot_op<{opIdx = 0, parent = #mma}>
#shared = #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>
#sharedT = #tgpu.shared<{swizzle = 64, pad = 0, transposed = true}>

// Both operands in registers of a blocked layout: A as [M, K] at 0 (64 x
// 32 fp16: 64-byte rows swizzle by 64), B as [K, N] after it, on the next
// 1024-byte boundary (4096 bytes), its 128-byte rows swizzled by 128.
// CHECK-DAG: #[[S64:.*]] = #tgpu.shared<{swizzle = 64, pad = 0, transposed = false}>
// CHECK-DAG: #[[S128:.*]] = #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>
// CHECK-DAG: #[[S64T:.*]] = #tgpu.shared<{swizzle = 64, pad = 0, transposed = true}>
// CHECK-LABEL: func.func @both
// CHECK: %[[A:.*]] = tgpu.local_alloc %{{.*}} {offset = 0 : i64} : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #[[S64]]>
// CHECK-NEXT: %[[B:.*]] = tgpu.local_alloc %{{.*}} {offset = 4096 : i64} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #[[S128]]>
// CHECK-NEXT: tgpu.wgmma %[[A]], %[[B]], %{{.*}} : tensor<64x32xf16, #[[S64]]>, tensor<32x64xf16, #[[S128]]>
func.func @both(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked>,
                %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tgpu.wgmma %a, %b, %c : tensor<64x32xf16, #blocked>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
  %r = tgpu.wgmma_wait %d {pending = 0 : i64} : tensor<64x64xf32, #mma>
  return %r : tensor<64x64xf32, #mma>
}

// A in the registers of its fragment (attention's P) and B in a slot: no
// staging.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT: tgpu.local_alloc
// CHECK: tgpu.wgmma
func.func @in_place(%a: tensor<64x64xf16, #dot>, %s: i32, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %b = tgpu.shared_load slot %s {buffer = 0 : i64} : tensor<64x64xf16, #shared>
  %d = tgpu.wgmma %a, %b, %c : tensor<64x64xf16, #dot>, tensor<64x64xf16, #shared> -> tensor<64x64xf32, #mma>
  %r = tgpu.wgmma_wait %d {pending = 0 : i64} : tensor<64x64xf32, #mma>
  return %r : tensor<64x64xf32, #mma>
}

// 8-bit operands are read K-major only: A from a slot that holds it
// transposed and B from one that holds it as [K, N] are staged again, A
// as [M, K] and B stored [N, K] (transposed); A's register-fragment form
// does not exist for them.
// CHECK-LABEL: func.func @fp8
// CHECK: %[[A8:.*]] = tgpu.local_alloc %{{.*}} {offset = 0 : i64} : tensor<64x64xf8E4M3FN, #[[S64T]]> -> tensor<64x64xf8E4M3FN, #[[S64]]>
// CHECK-NEXT: %[[B8:.*]] = tgpu.local_alloc %{{.*}} {offset = 4096 : i64} : tensor<64x64xf8E4M3FN, #[[S128]]> -> tensor<64x64xf8E4M3FN, #[[S64T]]>
// CHECK-NEXT: tgpu.wgmma %[[A8]], %[[B8]]
func.func @fp8(%s: i32, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %a = tgpu.shared_load slot %s {buffer = 0 : i64} : tensor<64x64xf8E4M3FN, #sharedT>
  %b = tgpu.shared_load slot %s {buffer = 1 : i64} : tensor<64x64xf8E4M3FN, #shared>
  %d = tgpu.wgmma %a, %b, %c : tensor<64x64xf8E4M3FN, #sharedT>, tensor<64x64xf8E4M3FN, #shared> -> tensor<64x64xf32, #mma>
  %r = tgpu.wgmma_wait %d {pending = 0 : i64} : tensor<64x64xf32, #mma>
  return %r : tensor<64x64xf32, #mma>
}


// mma.sync on 16-bit floats reads its operands with ldmatrix: staged as
// they are, swizzled where the shape allows (64 x 32: 64-byte rows), else
// rows padded by 8 elements (48 rows are not a power of two).
#mma2 = #tgpu.mma<{version = 2, warpsPerCTA = [2, 2]}>
// SM80-DAG: #[[SW:.*]] = #tgpu.shared<{swizzle = 64, pad = 0, transposed = false}>
// SM80-DAG: #[[PAD:.*]] = #tgpu.shared<{swizzle = 0, pad = 8, transposed = false}>
// SM80-LABEL: func.func @mma_sync
// SM80: %[[A:.*]] = tgpu.local_alloc %{{.*}} {offset = 0 : i64} : tensor<48x32xf16, #blocked> -> tensor<48x32xf16, #[[PAD]]>
// SM80-NEXT: %[[B:.*]] = tgpu.local_alloc %{{.*}} {offset = 4096 : i64} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #[[SW]]>
// SM80-NEXT: tile.dot %[[A]], %[[B]], %{{.*}}
func.func @mma_sync(%a: tensor<48x32xf16, #blocked>, %b: tensor<32x32xf16, #blocked>,
                    %c: tensor<48x32xf32, #mma2>) -> tensor<48x32xf32, #mma2> {
  %d = tile.dot %a, %b, %c : tensor<48x32xf16, #blocked> * tensor<32x32xf16, #blocked> -> tensor<48x32xf32, #mma2>
  return %d : tensor<48x32xf32, #mma2>
}

// Products on other precisions (fp32 on the FMA units here) stage inside
// their lowering.
// SM80-LABEL: func.func @fma
// SM80-NOT: tgpu.local_alloc
// SM80: tile.dot
func.func @fma(%a: tensor<16x16xf32, #blocked>, %b: tensor<16x16xf32, #blocked>,
               %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
  %d = tile.dot %a, %b, %c {inputPrecision = 2 : i32} : tensor<16x16xf32, #blocked> * tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked>
  return %d : tensor<16x16xf32, #blocked>
}

// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD
// The tgpu encodings and ops print and parse back unchanged; printed IR
// names each encoding by its kind.

// CHECK-DAG: #[[BL:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 3, warpsPerCTA = [8, 1]}>
// CHECK-DAG: #[[SL:slice[0-9]*]] = #tgpu.slice<{dim = 1, parent = #[[BL]]}>
// CHECK-DAG: #[[DOT:dot_op[0-9]*]] = #tgpu.dot_op<{opIdx = 0, parent = #[[MMA]]}>
// CHECK-DAG: #[[SH:shared[0-9]*]] = #tgpu.shared<{swizzle = 128, pad = 0, transposed = true}>
// CHECK-DAG: #[[LIN:linear[0-9]*]] = #tgpu.linear<{register = {{\[\[}}0, 1]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []}>
#blocked = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tgpu.mma<{version = 3, warpsPerCTA = [8, 1]}>
#lin = #tgpu.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []}>

// CHECK-LABEL: func.func @encodings
// CHECK-SAME: tensor<128x64xf32, #[[BL]]>
// CHECK-SAME: tensor<128xf32, #[[SL]]>
// CHECK-SAME: tensor<128x64xf16, #[[DOT]]>
// CHECK-SAME: tensor<8x8xf32, #[[LIN]]>
// CHECK: %[[C:.*]] = tgpu.convert_layout %arg0 : tensor<128x64xf32, #[[BL]]> -> tensor<128x64xf32, #[[MMA]]>
// CHECK: return %[[C]]
func.func @encodings(%a: tensor<128x64xf32, #blocked>,
                     %b: tensor<128xf32, #tgpu.slice<{dim = 1, parent = #blocked}>>,
                     %c: tensor<128x64xf16, #tgpu.dot_op<{opIdx = 0, parent = #mma}>>,
                     %d: tensor<8x8xf32, #lin>) -> tensor<128x64xf32, #mma> {
  %0 = tgpu.convert_layout %a : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
  return %0 : tensor<128x64xf32, #mma>
}

// A conversion to the layout a value already has folds away.
// FOLD-LABEL: func.func @same_layout
// FOLD-NEXT: return %arg0
func.func @same_layout(%a: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked> {
  %0 = tgpu.convert_layout %a : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #blocked>
  return %0 : tensor<128x64xf32, #blocked>
}

// CHECK-LABEL: func.func @staging
// CHECK: tgpu.mbarrier_init {barrier = 1 : i64, count = 1 : i64, numSlots = 3 : i64}
// CHECK: tgpu.async_copy %arg0, %arg2 slot %arg3 {buffer = 0 : i64, numSlots = 3 : i64} : tensor<64x64x!tile.ptr<f16>>
// CHECK: tgpu.async_commit
// CHECK: tgpu.async_wait {pending = 1 : i64}
// CHECK: tgpu.tma_copy %arg1[%arg3, %arg3] slot %arg3 if %arg4 {barrier = 1 : i64, buffer = 1 : i64, numSlots = 3 : i64} : !tile.tensordesc<tensor<64x64xf16>>
// CHECK: tgpu.mbarrier_wait slot %arg3 phase %arg3 {barrier = 1 : i64}
// CHECK: tgpu.shared_load slot %arg3 {buffer = 0 : i64} : tensor<64x64xf16, #[[SH]]>
func.func @staging(%p: tensor<64x64x!tile.ptr<f16>>, %desc: !tile.tensordesc<tensor<64x64xf16>>,
                   %m: tensor<64x64xi1>, %s: i32, %pred: i1) -> tensor<64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = true}>> {
  tgpu.mbarrier_init {barrier = 1, numSlots = 3, count = 1}
  tgpu.async_copy %p, %m slot %s {buffer = 0, numSlots = 3} : tensor<64x64x!tile.ptr<f16>>
  tgpu.async_commit
  tgpu.async_wait {pending = 1}
  tgpu.tma_copy %desc[%s, %s] slot %s if %pred {barrier = 1, buffer = 1, numSlots = 3} : !tile.tensordesc<tensor<64x64xf16>>
  tgpu.mbarrier_wait slot %s phase %s {barrier = 1}
  %t = tgpu.shared_load slot %s {buffer = 0} : tensor<64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = true}>>
  return %t : tensor<64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = true}>>
}

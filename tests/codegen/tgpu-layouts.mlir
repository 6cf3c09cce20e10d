// RUN: tile-opt %s -test-print-layouts | FileCheck %s
// Each named encoding stands for one linear map from (register, lane, warp)
// bits to tensor coordinates; bits past a tensor's extent are replicas.

#blocked = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma2 = #tgpu.mma<{version = 2, warpsPerCTA = [2, 2]}>
#mma3 = #tgpu.mma<{version = 3, warpsPerCTA = [4, 1]}>

// CHECK-LABEL: func @maps
func.func @maps(
  // Row-major: 8 contiguous columns per thread, 8 lanes across 64 columns,
  // 4 lanes and then 4 warps down the rows, repeated twice in registers.
  // CHECK-NEXT: %arg0: linear<[32, 64] reg={{\[\[}}0,1], [0,2], [0,4], [16,0]] lane={{\[\[}}0,8], [0,16], [0,32], [1,0], [2,0]] warp={{\[\[}}4,0], [8,0]]>
  %a: tensor<32x64xf16, #blocked>,
  // Column-major (order [0, 1]): runs down the rows.
  // CHECK-NEXT: %arg1: linear<[64, 32] reg={{\[\[}}1,0], [2,0], [4,0], [0,16]] lane={{\[\[}}8,0], [16,0], [32,0], [0,1], [0,2]] warp={{\[\[}}0,4], [0,8]]>
  %b: tensor<64x32xf16, #col>,
  // A tensor smaller than the tile: the lanes past 4 rows hold replicas.
  // CHECK-NEXT: %arg2: linear<[4, 64] reg={{\[\[}}0,1], [0,2], [0,4]] lane={{\[\[}}0,8], [0,16], [0,32], [1,0], [2,0]] warp={{\[\[}}0,0], [0,0]]>
  %c: tensor<4x64xf16, #blocked>,
  // The slice of the first layout along its columns: each row's value
  // sits in the 8 lanes that held the row.
  // CHECK-NEXT: %arg3: linear<[32] reg={{\[\[}}16]] lane={{\[\[}}0], [0], [0], [1], [2]] warp={{\[\[}}4], [8]]>
  %d: tensor<32xf32, #tgpu.slice<{dim = 1, parent = #blocked}>>,
  // mma.sync m16n8 accumulator: c0,c1 at (lane/4, 2*(lane%4) + {0,1}), c2,c3
  // eight rows lower; 2x2 warps (16 rows, 8 columns each); repeats over N,
  // then M.
  // CHECK-NEXT: %arg4: linear<[64, 32] reg={{\[\[}}0,1], [8,0], [0,16], [32,0]] lane={{\[\[}}0,2], [0,4], [1,0], [2,0], [4,0]] warp={{\[\[}}16,0], [0,8]]>
  %e: tensor<64x32xf32, #mma2>,
  // More warps than m16n8 steps: the extra warps hold replicas.
  // CHECK-NEXT: %arg5: linear<[16, 16] reg={{\[\[}}0,1], [8,0]] lane={{\[\[}}0,2], [0,4], [1,0], [2,0], [4,0]] warp={{\[\[}}0,0], [0,8]]>
  %e2: tensor<16x16xf32, #mma2>,
  // wgmma accumulator: one warpgroup, each warp 16 rows; N in registers.
  // CHECK-NEXT: %arg6: linear<[64, 16] reg={{\[\[}}0,1], [8,0], [0,8]] lane={{\[\[}}0,2], [0,4], [1,0], [2,0], [4,0]] warp={{\[\[}}16,0], [32,0]]>
  %f: tensor<64x16xf32, #mma3>,
  // Operand A of the wgmma product in registers.
  // CHECK-NEXT: %arg7: linear<[64, 16] reg={{\[\[}}0,1], [8,0], [0,8]] lane={{\[\[}}0,2], [0,4], [1,0], [2,0], [4,0]] warp={{\[\[}}16,0], [32,0]]>
  %g: tensor<64x16xf16, #tgpu.dot_op<{opIdx = 0, parent = #mma3}>>,
  // CHECK-NEXT: %arg8: shared<[64, 64] x2B swizzle=128>
  %h: tensor<64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>>,
  // CHECK-NEXT: %arg9: shared<[32, 16] x4B pad=4>
  %i: tensor<16x32xf32, #tgpu.shared<{swizzle = 0, pad = 4, transposed = true}>>,
  // CHECK-NEXT: %arg10: linear<[8, 8] reg={{\[\[}}0,1]] lane={{\[\[}}0,2], [0,4], [1,0], [2,0], [4,0]] warp=[]>
  %j: tensor<8x8xf32, #tgpu.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []}>>,
  // Layouts that do not fit their tensor say why.
  // CHECK-NEXT: %arg11: no layout (the bases do not reach every element of the tile)
  %k: tensor<8x8xf32, #tgpu.linear<{register = [[0, 1]], lane = [[0, 1], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []}>>,
  // CHECK-NEXT: %arg12: no layout (a rank-2 mma layout on a rank-1 tensor)
  %l: tensor<64xf32, #mma2>,
  // CHECK-NEXT: %arg13: no layout (threadsPerWarp covers 16 lanes, a warp has 32)
  %m: tensor<64x64xf32, #tgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>,
  // A batched mma.sync accumulator: each entry as the 2-D one on one warp
  // (32x16: repeats over N, then M), 2 warps on consecutive entries, the
  // other entries in registers after.
  // CHECK-NEXT: %arg14: linear<[4, 32, 16] reg={{\[\[}}0,0,1], [0,8,0], [0,0,8], [0,16,0], [2,0,0]] lane={{\[\[}}0,0,2], [0,0,4], [0,1,0], [0,2,0], [0,4,0]] warp={{\[\[}}1,0,0]]>
  %n: tensor<4x32x16xf32, #tgpu.mma<{version = 2, warpsPerCTA = [2, 1, 1]}>>,
  // CHECK-NEXT: %arg15: no layout (a rank-3 mma layout on a rank-2 tensor)
  %o: tensor<32x16xf32, #tgpu.mma<{version = 2, warpsPerCTA = [2, 1, 1]}>>) {
  return
}

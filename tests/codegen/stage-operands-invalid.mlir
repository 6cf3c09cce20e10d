// RUN: not tile-opt %s --tgpu-stage-operands="num-warps=4 target=cuda:90" 2>&1 | FileCheck %s
// A product whose operand has no swizzled form in shared memory (96-byte
// rows) is an error on the product, not a crash.

#blocked = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tgpu.mma<{version = 3, warpsPerCTA = [4, 1]}>

// CHECK: error: 'tgpu.wgmma' op operand A ('tensor<64x48xf16, #tgpu.blocked<{{.*}}>>') has no swizzled shared-memory form that wgmma reads
func.func @unswizzled(%a: tensor<64x48xf16, #blocked>, %b: tensor<48x64xf16, #blocked>,
                      %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tgpu.wgmma %a, %b, %c : tensor<64x48xf16, #blocked>, tensor<48x64xf16, #blocked> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

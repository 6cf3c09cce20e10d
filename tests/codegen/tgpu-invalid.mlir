// RUN: tile-opt %s -split-input-file -verify-diagnostics
// Malformed tgpu encodings are rejected with the reason.

// expected-error @+1 {{blocked: order must be a permutation of 0..1}}
func.func @order(%a: tensor<4x4xf32, #tgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 1]}>>) {
  return
}

// -----

// expected-error @+1 {{blocked: every size must be a power of two (dimension 0)}}
func.func @pow2(%a: tensor<4x4xf32, #tgpu.blocked<{sizePerThread = [3, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
  return
}

// -----

// expected-error @+1 {{blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order need one entry per dimension (got 1, 2, 2, 2)}}
func.func @rank(%a: tensor<4x4xf32, #tgpu.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
  return
}

// -----

// expected-error @+1 {{missing 'order'}}
func.func @missing(%a: tensor<4x4xf32, #tgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1]}>>) {
  return
}

// -----

// expected-error @+1 {{mma: wgmma needs whole warpgroups along M (warpsPerCTA[0] a multiple of 4), got 2}}
func.func @wgmma_warps(%a: tensor<64x64xf32, #tgpu.mma<{version = 3, warpsPerCTA = [2, 2]}>>) {
  return
}

// -----

// expected-error @+1 {{mma: warpsPerCTA must be [M, N] (or, mma.sync, [batch, M, N])}}
func.func @wgmma_batched(%a: tensor<2x64x64xf32, #tgpu.mma<{version = 3, warpsPerCTA = [2, 4, 1]}>>) {
  return
}

// -----

func.func @alloc_batched_transposed(%a: tensor<2x64x64xf16>) {
  // expected-error @+1 {{result must be a 2-D (or, not transposed, 3-D) tile}}
  %0 = tgpu.local_alloc %a {offset = 0 : i64} : tensor<2x64x64xf16> -> tensor<2x64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = true}>>
  return
}

// -----

// expected-error @+1 {{mma: version must be 2 (mma.sync) or 3 (wgmma), got 1}}
func.func @mma_version(%a: tensor<64x64xf32, #tgpu.mma<{version = 1, warpsPerCTA = [2, 2]}>>) {
  return
}

// -----

// expected-error @+1 {{dot_op: only operand A (opIdx = 0) is read from registers; operand B is staged in shared memory}}
func.func @operand_b(%a: tensor<64x64xf16, #tgpu.dot_op<{opIdx = 1, parent = #tgpu.mma<{version = 2, warpsPerCTA = [2, 2]}>}>>) {
  return
}

// -----

// expected-error @+1 {{shared: swizzle must be 0, 32, 64 or 128 bytes, got 16}}
func.func @swizzle(%a: tensor<64x64xf16, #tgpu.shared<{swizzle = 16, pad = 0, transposed = false}>>) {
  return
}

// -----

// expected-error @+1 {{'sizePerThread' must list non-negative integers}}
func.func @kind(%a: tensor<4x4xf32, #tgpu.blocked<{sizePerThread = ["a", 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
  return
}

// -----

#b = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @convert_shape(%a: tensor<64x64xf32, #b>) {
  // expected-error @+1 {{'tgpu.convert_layout' op requires the same shape for all operands and results}}
  %0 = tgpu.convert_layout %a : tensor<64x64xf32, #b> -> tensor<64x32xf32, #b>
  return
}

// -----

func.func @wgmma_shapes(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operand shapes do not make a product}}
  %0 = tgpu.wgmma %a, %b, %c : tensor<64x32xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @alloc_padded(%a: tensor<64x64xf16>) {
  // expected-error @+1 {{result must be a 2-D (or, not transposed, 3-D) tile with a #tgpu.shared encoding that swizzles or pads its rows}}
  %0 = tgpu.local_alloc %a {offset = 0 : i64} : tensor<64x64xf16> -> tensor<64x64xf16, #tgpu.shared<{swizzle = 0, pad = 0, transposed = false}>>
  return
}

// -----

func.func @alloc_offset(%a: tensor<64x64xf16>) {
  // expected-error @+1 {{offset must be a multiple of 1024 bytes, not 512}}
  %0 = tgpu.local_alloc %a {offset = 512 : i64} : tensor<64x64xf16> -> tensor<64x64xf16, #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>>
  return
}

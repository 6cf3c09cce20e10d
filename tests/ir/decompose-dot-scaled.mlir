// RUN: tile-opt %s --tile-decompose-dot-scaled | FileCheck %s
// dot_scaled as upcasts to bf16 (fp16 when an operand is fp16) and a plain
// dot: e2m1 nibbles low-first along K, e8m0 scales applied in fp32.

// CHECK-LABEL: func @lhs_e2m1_rhs_e5m2
// CHECK-NOT: tile.dot_scaled
// CHECK: arith.shrui %{{.*}} : tensor<32x32xi16>
// CHECK: arith.constant dense<16128> : tensor<32x32xi16>
// CHECK: %[[LO:.*]] = tile.bitcast %{{.*}} : tensor<32x32xi16> -> tensor<32x32xbf16>
// CHECK: %[[J:.*]] = tile.join %[[LO]], %{{.*}} : tensor<32x32xbf16> -> tensor<32x32x2xbf16>
// CHECK: %[[A:.*]] = tile.reshape %[[J]] : tensor<32x32x2xbf16> -> tensor<32x64xbf16>
// CHECK: %[[B:.*]] = tile.fp_to_fp %{{.*}} : tensor<64x16xf8E5M2> -> tensor<64x16xbf16>
// CHECK: arith.constant dense<0x7FC00000> : tensor<32x2xf32>
// CHECK: tile.expand_dims %{{.*}} {axis = 2 : i32} : tensor<32x2xf32> -> tensor<32x2x1xf32>
// CHECK: tile.broadcast %{{.*}} : tensor<32x2x1xf32> -> tensor<32x2x32xf32>
// CHECK: %[[S:.*]] = tile.reshape %{{.*}} : tensor<32x2x32xf32> -> tensor<32x64xf32>
// CHECK: %[[W:.*]] = arith.extf %[[A]] : tensor<32x64xbf16> to tensor<32x64xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[W]], %[[S]] : tensor<32x64xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[M]] : tensor<32x64xf32> to tensor<32x64xbf16>
// CHECK: tile.dot %[[T]], %[[B]], %{{.*}} : tensor<32x64xbf16> * tensor<64x16xbf16> -> tensor<32x16xf32>
func.func @lhs_e2m1_rhs_e5m2(%a: tensor<32x32xi8>, %sa: tensor<32x2xi8>, %b: tensor<64x16xf8E5M2>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %d = tile.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = e5m2 {fastMath = false} : tensor<32x32xi8>, tensor<32x2xi8> * tensor<64x16xf8E5M2> -> tensor<32x16xf32>
  return %d : tensor<32x16xf32>
}

// The rhs packs K along rows: join, move the pair next to K, reshape; its
// scales are [N, K/32], transposed before broadcasting over K.
// CHECK-LABEL: func @lhs_fp16_rhs_e2m1
// CHECK: arith.constant dense<14336> : tensor<32x16xi16>
// CHECK: %[[J:.*]] = tile.join %{{.*}}, %{{.*}} : tensor<32x16xf16> -> tensor<32x16x2xf16>
// CHECK: %[[P:.*]] = tile.trans %[[J]] {order = array<i32: 0, 2, 1>} : tensor<32x16x2xf16> -> tensor<32x2x16xf16>
// CHECK: tile.reshape %[[P]] : tensor<32x2x16xf16> -> tensor<64x16xf16>
// CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x2xf32> -> tensor<2x16xf32>
// CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<2x16xf32> -> tensor<2x1x16xf32>
// CHECK: tile.broadcast %{{.*}} : tensor<2x1x16xf32> -> tensor<2x32x16xf32>
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x16xf32> to tensor<64x16xf16>
// CHECK: tile.dot %{{.*}}, %[[T]], %{{.*}} : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xf32>
func.func @lhs_fp16_rhs_e2m1(%a: tensor<16x64xf16>, %b: tensor<32x16xi8>, %sb: tensor<16x2xi8>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot_scaled %a, %b scale %sb, %c lhs = fp16 rhs = e2m1 {fastMath = false} : tensor<16x64xf16> * tensor<32x16xi8>, tensor<16x2xi8> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// A bf16 operand next to an fp16 one goes to fp16 through fp32; e4m3 given
// as its bits is bitcast first.
// CHECK-LABEL: func @mixed_16bit
// CHECK: %[[E:.*]] = arith.extf %{{.*}} : tensor<16x32xbf16> to tensor<16x32xf32>
// CHECK: arith.truncf %[[E]] : tensor<16x32xf32> to tensor<16x32xf16>
// CHECK: tile.dot %{{.*}} : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
func.func @mixed_16bit(%a: tensor<16x32xbf16>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot_scaled %a, %b, %c lhs = bf16 rhs = fp16 {fastMath = false} : tensor<16x32xbf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// CHECK-LABEL: func @e4m3_bits
// CHECK: %[[F8:.*]] = tile.bitcast %{{.*}} : tensor<32x16xi8> -> tensor<32x16xf8E4M3FN>
// CHECK: tile.fp_to_fp %[[F8]] : tensor<32x16xf8E4M3FN> -> tensor<32x16xbf16>
func.func @e4m3_bits(%a: tensor<16x32xbf16>, %b: tensor<32x16xi8>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot_scaled %a, %b, %c lhs = bf16 rhs = e4m3 {fastMath = false} : tensor<16x32xbf16> * tensor<32x16xi8> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

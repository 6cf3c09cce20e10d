// RUN: tile-opt %s -canonicalize | FileCheck %s
// Folds and canonicalization patterns of tile ops.

// CHECK-LABEL: func @splat_of_constant
// CHECK: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<64xf32>
// CHECK-NOT: tile.splat
// CHECK: return %[[C]]
func.func @splat_of_constant() -> tensor<64xf32> {
  %c = arith.constant 2.5 : f32
  %s = tile.splat %c : tensor<64xf32>
  return %s : tensor<64xf32>
}

// CHECK-LABEL: func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[S:.*]] = tile.splat %[[X]] : tensor<32x16xi32>
// CHECK-NOT: tile.broadcast
// CHECK: return %[[S]]
func.func @broadcast_of_splat(%x: i32) -> tensor<32x16xi32> {
  %s = tile.splat %x : tensor<32x1xi32>
  %b = tile.broadcast %s : tensor<32x1xi32> -> tensor<32x16xi32>
  return %b : tensor<32x16xi32>
}

// CHECK-LABEL: func @expand_dims_of_splat
// CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<1x64xf16>
// CHECK-NOT: tile.expand_dims
func.func @expand_dims_of_splat(%x: f16) -> tensor<1x64xf16> {
  %s = tile.splat %x : tensor<64xf16>
  %e = tile.expand_dims %s {axis = 0 : i32} : tensor<64xf16> -> tensor<1x64xf16>
  return %e : tensor<1x64xf16>
}

// CHECK-LABEL: func @addptr_chain
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tile.ptr<f32>>, %[[A:.*]]: tensor<8xi32>, %[[B:.*]]: tensor<8xi32>)
// CHECK: %[[SUM:.*]] = arith.addi %[[A]], %[[B]] : tensor<8xi32>
// CHECK: %[[R:.*]] = tile.addptr %[[P]], %[[SUM]]
// CHECK: return %[[R]]
func.func @addptr_chain(%p: tensor<8x!tile.ptr<f32>>, %a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8x!tile.ptr<f32>> {
  %q = tile.addptr %p, %a : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %r = tile.addptr %q, %b : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  return %r : tensor<8x!tile.ptr<f32>>
}

// CHECK-LABEL: func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>)
// CHECK-NEXT: return %[[P]]
func.func @addptr_zero(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %z = arith.constant 0 : i32
  %q = tile.addptr %p, %z : !tile.ptr<f32>, i32
  return %q : !tile.ptr<f32>
}

// CHECK-LABEL: func @trans_trans
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @trans_trans(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %u = tile.trans %t {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[R:.*]] = tile.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %a = tile.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %b = tile.reshape %a : tensor<32xf32> -> tensor<2x16xf32>
  return %b : tensor<2x16xf32>
}

// CHECK-LABEL: func @unsplat_splat
// CHECK-SAME: (%[[X:.*]]: i64)
// CHECK-NEXT: return %[[X]]
func.func @unsplat_splat(%x: i64) -> i64 {
  %s = tile.splat %x : tensor<1xi64>
  %u = tile.unsplat %s : tensor<1xi64>
  return %u : i64
}

// CHECK-LABEL: func @bitcast_roundtrip
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @bitcast_roundtrip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = tile.bitcast %x : tensor<4xf32> -> tensor<4xi32>
  %f = tile.bitcast %i : tensor<4xi32> -> tensor<4xf32>
  return %f : tensor<4xf32>
}

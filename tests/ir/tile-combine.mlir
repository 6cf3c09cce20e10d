// RUN: tile-opt %s -canonicalize -tile-combine | FileCheck %s
// The rewrites of the tile-combine pass.

// CHECK-LABEL: func @add_into_dot
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[D:.*]]: tensor<16x16xf32>)
// CHECK: %[[R:.*]] = tile.dot %[[A]], %[[B]], %[[D]]
// CHECK-NOT: arith.addf
// CHECK: return %[[R]]
func.func @add_into_dot(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %zero = tile.splat %z : tensor<16x16xf32>
  %dot = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %d, %dot : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func @add_into_int_dot
// CHECK: %[[R:.*]] = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xi8>
// CHECK-NOT: arith.addi
func.func @add_into_int_dot(%a: tensor<32x32xi8>, %d: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %dot = tile.dot %a, %a, %zero : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %r = arith.addi %dot, %d : tensor<32x32xi32>
  return %r : tensor<32x32xi32>
}

// CHECK-LABEL: func @dot_nonzero_acc_kept
// CHECK: tile.dot
// CHECK: arith.addf
func.func @dot_nonzero_acc_kept(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %dot = tile.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %dot, %d : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func @select_of_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf32>)
// CHECK: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O]] : tensor<64x!tile.ptr<f32>>
// CHECK-NOT: arith.select
// CHECK: return %[[L]]
func.func @select_of_masked_load(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  %r = arith.select %m, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r : tensor<64xf32>
}

// CHECK-LABEL: func @select_of_splat_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>>, %[[C:.*]]: i1, %[[O:.*]]: tensor<64xf32>)
// CHECK: %[[M:.*]] = tile.splat %[[C]]
// CHECK: %[[L:.*]] = tile.load %[[P]], %[[M]], %[[O]]
// CHECK: return %[[L]]
func.func @select_of_splat_masked_load(%p: tensor<64x!tile.ptr<f32>>, %c: i1, %o: tensor<64xf32>) -> tensor<64xf32> {
  %m = tile.splat %c : tensor<64xi1>
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  %r = arith.select %c, %l, %o : tensor<64xf32>
  return %r : tensor<64xf32>
}

// CHECK-LABEL: func @select_other_mask_kept
// CHECK: tile.load %{{.*}}, %{{.*}} :
// CHECK: arith.select
func.func @select_other_mask_kept(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %n: tensor<64xi1>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %l = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  %r = arith.select %n, %l, %o : tensor<64xi1>, tensor<64xf32>
  return %r : tensor<64xf32>
}

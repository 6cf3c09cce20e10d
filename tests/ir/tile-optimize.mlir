// RUN: tile-opt %s -tile-optimize | FileCheck %s
// The whole tile pipeline: private helpers are inlined and then removed.

// CHECK-NOT: func.func private @helper
// CHECK-LABEL: func @kernel
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK: %[[R:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32}
// CHECK: %[[PID:.*]] = tile.get_program_id x
// CHECK-NOT: func.call
// CHECK: tile.store
func.func private @helper(%x: tensor<64xf32>) -> tensor<64xf32> {
  %two = arith.constant 2.0 : f32
  %s = tile.splat %two : tensor<64xf32>
  %y = arith.mulf %x, %s : tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @kernel(%p: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %pid = tile.get_program_id x : i32
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %bs = tile.splat %base : tensor<64xi32>
  %offs = arith.addi %bs, %r : tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %x = tile.load %ptrs, %m : tensor<64x!tile.ptr<f32>>
  %y = func.call @helper(%x) : (tensor<64xf32>) -> tensor<64xf32>
  tile.store %ptrs, %y, %m : tensor<64x!tile.ptr<f32>>
  return
}

// RUN: tile-opt %s --tile-flatten-loops | FileCheck %s
// tl.range(..., flatten=True): a tile loop and its k loop become one loop
// over every (tile, k) pair.

// The loop carries its position (j in the inner loop, i in the outer
// one) as counters. The prologue runs under scf.if in each tile's first
// iteration (its results carried: the software pipeliner computes them,
// like the counters, ahead for its copies); the inner
// loop's carried value restarts by a select there; the epilogue runs under
// scf.if in the tile's last iteration. Invariant ops (the zeros) stay
// outside the ifs. An empty k range runs the outer loop with the inner
// loop's inits.
// CHECK-LABEL: func @tiles
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %{{.*}}, %arg3 : i32
// CHECK: %[[T:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: %[[HAS:.*]] = arith.cmpi sgt, %[[N]], %{{.*}} : i32
// CHECK: scf.if %[[HAS]] -> (i32) {
// CHECK: %[[TOTAL:.*]] = arith.muli %[[T]], %[[N]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[CNT:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}, %[[I:.*]] = %arg1) -> (i32, tensor<16xf32>, i32, i32, i32)
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : i32
// CHECK-NEXT: %[[LASTJ:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[J]], %[[LASTJ]] : i32
// CHECK-NEXT: %[[BASE:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK-NEXT: %[[BV:.*]] = arith.muli %[[I]], %c4_i32 : i32
// CHECK-NEXT: scf.yield %[[BV]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[B]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = arith.select %[[FIRST]], %cst, %[[ACC]] : tensor<16xf32>
// CHECK-NEXT: arith.addi %[[BASE]], %[[J]] : i32
// CHECK: %[[A2:.*]] = arith.addf %[[A]], %{{.*}} : tensor<16xf32>
// CHECK-NEXT: %[[E:.*]] = scf.if %[[LAST]] -> (i32) {
// CHECK: tile.store %{{.*}}, %[[A2]]
// CHECK: scf.yield %{{.*}} : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[CNT]] : i32
// The position: j wraps at the trip count of the k loop, i then steps.
// CHECK: %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : i32
// CHECK-NEXT: %[[JN:.*]] = arith.select %[[LAST]], %{{.*}}, %[[J1]] : i32
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[I]], %c4_i32 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.select %[[LAST]], %[[I1]], %[[I]] : i32
// CHECK-NEXT: scf.yield %[[E]], %[[A2]], %[[BASE]], %[[JN]], %[[IN]] : i32, tensor<16xf32>, i32, i32, i32
// CHECK-NEXT: } {tile.num_stages = 3 : i32}
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %arg1 to %arg2 step %c4_i32
// CHECK-NOT: scf.for
// CHECK: tile.store %{{.*}}, %cst
// CHECK: } {tile.no_pipeline, tile.num_stages = 3 : i32}
// CHECK-NOT: tile.flatten
func.func @tiles(%p: !tile.ptr<f32>, %lo: i32, %hi: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lo to %hi step %c4 iter_args(%n = %c0) -> (i32) : i32 {
    %base = arith.muli %i, %c4 : i32
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%a = %zero) -> (tensor<16xf32>) : i32 {
      %off = arith.addi %base, %k : i32
      %q = tile.addptr %p, %off : !tile.ptr<f32>, i32
      %x = tile.load %q : !tile.ptr<f32>
      %s = tile.splat %x : tensor<16xf32>
      %a2 = arith.addf %a, %s : tensor<16xf32>
      scf.yield %a2 : tensor<16xf32>
    }
    %rng = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %b = tile.splat %base : tensor<16xi32>
    %o = arith.addi %b, %rng : tensor<16xi32>
    %ps = tile.splat %p : tensor<16x!tile.ptr<f32>>
    %qs = tile.addptr %ps, %o : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    tile.store %qs, %acc : tensor<16x!tile.ptr<f32>>
    %n2 = arith.addi %n, %c1 : i32
    scf.yield %n2 : i32
  } {tile.flatten, tile.num_stages = 3 : i32}
  return %r : i32
}

// A prologue that loads runs under scf.if in each tile's first iteration;
// its result is carried to the others.
// CHECK-LABEL: func @loaded_prologue
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[C:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<16xf32>, f32, i32, i32)
// CHECK: %[[F:.*]] = arith.cmpi eq
// CHECK: %[[V:.*]] = scf.if %[[F]] -> (f32) {
// CHECK: %[[L:.*]] = tile.load
// CHECK-NEXT: scf.yield %[[L]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[C]] : f32
// CHECK: arith.mulf %{{.*}}, %[[V]] : f32
// CHECK: scf.yield %{{.*}}, %[[V]], %{{.*}}, %{{.*}} : tensor<16xf32>, f32, i32, i32
func.func @loaded_prologue(%p: !tile.ptr<f32>, %hi: i32, %kt: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  scf.for %i = %c0 to %hi step %c1 : i32 {
    %q = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %s = tile.load %q : !tile.ptr<f32>
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%a = %zero) -> (tensor<16xf32>) : i32 {
      %kf = arith.sitofp %k : i32 to f32
      %m = arith.mulf %kf, %s : f32
      %ms = tile.splat %m : tensor<16xf32>
      %a2 = arith.addf %a, %ms : tensor<16xf32>
      scf.yield %a2 : tensor<16xf32>
    }
    %ps = tile.splat %p : tensor<16x!tile.ptr<f32>>
    %rng = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %qs = tile.addptr %ps, %rng : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    tile.store %qs, %acc : tensor<16x!tile.ptr<f32>>
  } {tile.flatten}
  return
}

// Inner bounds computed in the outer loop: the nest stays, unmarked.
// CHECK-LABEL: func @dependent_bounds
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tile.flatten
func.func @dependent_bounds(%p: !tile.ptr<i32>, %hi: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %hi step %c1 : i32 {
    scf.for %k = %c0 to %i step %c1 : i32 {
      %q = tile.addptr %p, %k : !tile.ptr<i32>, i32
      tile.store %q, %i : !tile.ptr<i32>
    }
  } {tile.flatten}
  return
}

// RUN: tile-opt %s --tgpu-wgmma-groups="num-warps=4 target=cuda:90" | tile-opt | FileCheck %s
// RUN: tile-opt %s --tgpu-wgmma-groups="num-warps=4 target=cuda:80" | FileCheck %s --check-prefix=SM80
// Products on Hopper become warpgroup MMA groups (tgpu.wgmma), and the
// pass places their waits: an accumulator that only feeds itself through
// its loop stays in flight for one iteration; every other reader sees a
// final value. sm_80 keeps tile.dot (mma.sync).

#blocked = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tgpu.mma<{version = 3, warpsPerCTA = [4, 1]}>
#shared = #tgpu.shared<{swizzle = 64, pad = 0, transposed = false}>
#shared1 = #tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>

// The matmul's loop: operands read in place from the slots. The group
// stays in flight: wait(1) says the previous one is done, a barrier puts
// every warpgroup past its slots, and the loop waits for the last group.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[A:.*]] = tgpu.shared_load slot %{{.*}} {buffer = 0 : i64}
// CHECK: %[[B:.*]] = tgpu.shared_load slot %{{.*}} {buffer = 1 : i64}
// CHECK-NEXT: %[[G:.*]] = tgpu.wgmma %[[A]], %[[B]], %[[ACC]] : tensor<64x32xf16, #shared>, tensor<32x64xf16, #shared1> -> tensor<64x64xf32, #mma>
// CHECK-NEXT: %[[D:.*]] = tgpu.wgmma_wait %[[G]] {pending = 1 : i64}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.yield %[[D]]
// CHECK: %[[F:.*]] = tgpu.wgmma_wait %[[LOOP]] {pending = 0 : i64}
// CHECK-NEXT: return %[[F]]
// SM80-LABEL: func.func @accumulate
// SM80: tile.dot
// SM80-NOT: tgpu.wgmma
func.func @accumulate(%n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %a = tgpu.shared_load slot %i {buffer = 0 : i64} : tensor<64x32xf16, #shared>
    %b = tgpu.shared_load slot %i {buffer = 1 : i64} : tensor<32x64xf16, #shared1>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #shared> * tensor<32x64xf16, #shared1> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// A flattened loop: the accumulator restarts from zero where a tile
// starts (the select becomes the product's zero_if), and the epilogue, an
// scf.if, reads it. The branch that reads waits for all groups and yields
// what it waited for; the other yields the group in flight.
// CHECK-LABEL: func.func @flattened
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT: arith.select
// CHECK: %[[G:.*]] = tgpu.wgmma %{{.*}}, %{{.*}}, %[[ACC]] zero_if %{{.*}} :
// CHECK-NEXT: %[[D:.*]] = tgpu.wgmma_wait %[[G]] {pending = 1 : i64}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #mma>) {
// CHECK-NEXT: %[[W:.*]] = tgpu.wgmma_wait %[[D]] {pending = 0 : i64}
// CHECK-NEXT: tile.store %{{.*}}, %[[W]]
// CHECK-NEXT: scf.yield %[[W]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[D]]
// CHECK: scf.yield %[[IF]]
// CHECK: tgpu.wgmma_wait %{{.*}} {pending = 0 : i64}
func.func @flattened(%n: i32, %p: tensor<64x64x!tile.ptr<f32>, #mma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %k = arith.remsi %i, %c3 : i32
    %first = arith.cmpi eq, %k, %c0 : i32
    %last = arith.cmpi eq, %k, %c1 : i32
    %a = tgpu.shared_load slot %i {buffer = 0 : i64} : tensor<64x32xf16, #shared>
    %b = tgpu.shared_load slot %i {buffer = 1 : i64} : tensor<32x64xf16, #shared1>
    %c = arith.select %first, %zero, %acc : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #shared> * tensor<32x64xf16, #shared1> -> tensor<64x64xf32, #mma>
    scf.if %last {
      tile.store %p, %d : tensor<64x64x!tile.ptr<f32>, #mma>
    }
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// Operands in registers are staged into an area the next product
// rewrites, and a result read directly must be final: both wait at once.
// CHECK-LABEL: func.func @at_once
// CHECK: %[[G:.*]] = tgpu.wgmma %arg0, %arg1, %{{.*}} : tensor<64x32xf16, #blocked>, tensor<32x64xf16, #blocked1>
// CHECK-NEXT: %[[D:.*]] = tgpu.wgmma_wait %[[G]] {pending = 0 : i64}
// CHECK-NOT: tile.barrier
// CHECK: %[[G2:.*]] = tgpu.wgmma
// CHECK-NEXT: tgpu.wgmma_wait %[[G2]] {pending = 0 : i64}
// CHECK-NEXT: arith.addf
func.func @at_once(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked1>,
                   %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #blocked> * tensor<32x64xf16, #blocked1> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  %s = tgpu.shared_load slot %c0 {buffer = 0 : i64} : tensor<64x32xf16, #shared>
  %t = tgpu.shared_load slot %c0 {buffer = 1 : i64} : tensor<32x64xf16, #shared1>
  %e = tile.dot %s, %t, %r : tensor<64x32xf16, #shared> * tensor<32x64xf16, #shared1> -> tensor<64x64xf32, #mma>
  %f = arith.addf %e, %e : tensor<64x64xf32, #mma>
  return %f : tensor<64x64xf32, #mma>
}

// A warp-specialized loop's consumers: the producer refills a slot once
// every consumer warp has arrived on it, so no barrier follows the wait.
// CHECK-LABEL: func.func @consumer
// CHECK: tgpu.wgmma_wait %{{.*}} {pending = 1 : i64}
// CHECK-NEXT: tgpu.mbarrier_arrive
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
func.func @consumer(%n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    tgpu.mbarrier_wait slot %i phase %c0 {barrier = 0 : i64}
    %a = tgpu.shared_load slot %i {buffer = 0 : i64} : tensor<64x32xf16, #shared>
    %b = tgpu.shared_load slot %i {buffer = 1 : i64} : tensor<32x64xf16, #shared1>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #shared> * tensor<32x64xf16, #shared1> -> tensor<64x64xf32, #mma>
    tgpu.mbarrier_arrive slot %i {barrier = 1 : i64}
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

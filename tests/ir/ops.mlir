// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// Every tile op prints and parses back to itself.

// CHECK-LABEL: func @program_ids
func.func @program_ids() -> (i32, i32) {
  // CHECK: %[[PID:.*]] = tile.get_program_id y : i32
  %0 = tile.get_program_id y : i32
  // CHECK: %[[NUM:.*]] = tile.get_num_programs z : i32
  %1 = tile.get_num_programs z : i32
  return %0, %1 : i32, i32
}

// CHECK-LABEL: func @shapes
func.func @shapes(%x: f32, %t: tensor<8x4xf32>, %j: tensor<4x2xf32>) {
  // CHECK: tile.make_range {end = 136 : i32, start = 8 : i32} : tensor<128xi32>
  %r = tile.make_range {end = 136 : i32, start = 8 : i32} : tensor<128xi32>
  // CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<1x1xf32>
  %s = tile.splat %x : tensor<1x1xf32>
  // CHECK: tile.unsplat %[[S]] : tensor<1x1xf32>
  %u = tile.unsplat %s : tensor<1x1xf32>
  // CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<128x1xi32> -> tensor<128x4xi32>
  %b = tile.broadcast %e : tensor<128x1xi32> -> tensor<128x4xi32>
  // CHECK: tile.reshape %{{.*}} : tensor<8x4xf32> -> tensor<32xf32>
  %rs = tile.reshape %t : tensor<8x4xf32> -> tensor<32xf32>
  // CHECK: tile.reshape %{{.*}} allow_reorder : tensor<8x4xf32> -> tensor<4x8xf32>
  %rv = tile.reshape %t allow_reorder : tensor<8x4xf32> -> tensor<4x8xf32>
  // CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %tr = tile.trans %t {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  // CHECK: tile.join %{{.*}}, %{{.*}} : tensor<8x4xf32> -> tensor<8x4x2xf32>
  %jn = tile.join %t, %t : tensor<8x4xf32> -> tensor<8x4x2xf32>
  // CHECK: tile.split %{{.*}} : tensor<8x4x2xf32> -> tensor<8x4xf32>
  %a0, %a1 = tile.split %jn : tensor<8x4x2xf32> -> tensor<8x4xf32>
  // CHECK: tile.split %{{.*}} : tensor<4x2xf32> -> tensor<4xf32>
  %c0, %c1 = tile.split %j : tensor<4x2xf32> -> tensor<4xf32>
  // CHECK: tile.cat %{{.*}}, %{{.*}} : tensor<8x4xf32> -> tensor<16x4xf32>
  %ct = tile.cat %t, %t : tensor<8x4xf32> -> tensor<16x4xf32>
  // CHECK: tile.cat %{{.*}}, %{{.*}} {dim = 1 : i32} : tensor<8x4xf32> -> tensor<8x8xf32>
  %ct1 = tile.cat %t, %t {dim = 1 : i32} : tensor<8x4xf32> -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func @memory
func.func @memory(%p: !tile.ptr<f32>, %offs: tensor<64xi32>, %m: tensor<64xi1>,
                  %v: tensor<64xf32>, %ip: !tile.ptr<i32>, %i: i32) {
  // CHECK: %[[PS:.*]] = tile.splat %{{.*}} : tensor<64x!tile.ptr<f32>>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  // CHECK: %[[PP:.*]] = tile.addptr %[[PS]], %{{.*}} : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %pp = tile.addptr %ps, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // CHECK: tile.load %[[PP]] : tensor<64x!tile.ptr<f32>>
  %l0 = tile.load %pp : tensor<64x!tile.ptr<f32>>
  // CHECK: tile.load %[[PP]], %{{.*}}, %{{.*}} cacheModifier = cg evictionPolicy = evict_last volatile : tensor<64x!tile.ptr<f32>>
  %l1 = tile.load %pp, %m, %v cacheModifier = cg evictionPolicy = evict_last volatile : tensor<64x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<i32>
  %l2 = tile.load %ip : !tile.ptr<i32>
  // CHECK: tile.store %[[PP]], %{{.*}}, %{{.*}} cacheModifier = wt : tensor<64x!tile.ptr<f32>>
  tile.store %pp, %l1, %m cacheModifier = wt : tensor<64x!tile.ptr<f32>>
  // CHECK: tile.store %[[PP]], %{{.*}} : tensor<64x!tile.ptr<f32>>
  tile.store %pp, %v : tensor<64x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw fadd, acq_rel, gpu, %[[PP]], %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
  %o0 = tile.atomic_rmw fadd, acq_rel, gpu, %pp, %v, %m : tensor<64x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw umax, relaxed, sys, %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %o1 = tile.atomic_rmw umax, relaxed, sys, %ip, %i : !tile.ptr<i32>
  // CHECK: tile.atomic_cas acquire, cta, %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %o2 = tile.atomic_cas acquire, cta, %ip, %i, %i : !tile.ptr<i32>
  // CHECK: tile.ptr_to_int %{{.*}} : !tile.ptr<f32> -> i64
  %a = tile.ptr_to_int %p : !tile.ptr<f32> -> i64
  // CHECK: tile.int_to_ptr %{{.*}} : i64 -> !tile.ptr<f16>
  %q = tile.int_to_ptr %a : i64 -> !tile.ptr<f16>
  return
}

// CHECK-LABEL: func @dots
func.func @dots(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>,
                %a8: tensor<32x32xi8>, %c32: tensor<32x32xi32>,
                %ba: tensor<2x16x16xf32>, %bc: tensor<2x16x16xf32>,
                %f8a: tensor<32x64xf8E4M3FN>, %f8b: tensor<64x32xf8E5M2>, %f8c: tensor<32x32xf32>,
                %sa: tensor<32x2xi8>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  %d0 = tile.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  %d1 = tile.dot %ba, %ba, %bc, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %d2 = tile.dot %a8, %a8, %c32 : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E5M2> -> tensor<32x32xf32>
  %d3 = tile.dot %f8a, %f8b, %f8c : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E5M2> -> tensor<32x32xf32>
  // CHECK: tile.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x32xf8E5M2> -> tensor<32x32xf32>
  %d4 = tile.dot_scaled %f8a scale %sa, %f8b, %f8c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x32xf8E5M2> -> tensor<32x32xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<16x8xf32>, %i: tensor<16x8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // CHECK: tile.reduce(%{{.*}}, %{{.*}}) axis = 0 {
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tile.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: } : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %m, %idx = tile.reduce(%x, %i) axis = 0 {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %v = arith.select %gt, %b, %a : f32
    %vi = arith.select %gt, %bi, %ai : i32
    tile.reduce.return %v, %vi : f32, i32
  } : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  // CHECK: tile.scan(%{{.*}}) axis = 1 reverse = true {
  // CHECK: tile.scan.return
  %c = tile.scan(%i) axis = 1 reverse = true {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.scan.return %s : i32
  } : (tensor<16x8xi32>) -> tensor<16x8xi32>
  // CHECK: tile.sort %{{.*}} {axis = 1 : i32, descending = true} : tensor<16x8xf32>
  %srt = tile.sort %x {axis = 1 : i32, descending = true} : tensor<16x8xf32>
  return %m, %idx : tensor<8xf32>, tensor<8xi32>
}

// CHECK-LABEL: func @misc
func.func @misc(%v: tensor<64xi32>, %m: tensor<64xi1>, %f: tensor<64xf32>, %c: i1) {
  // CHECK: tile.histogram %{{.*}}, %{{.*}} : tensor<64xi32> -> tensor<16xi32>
  %h = tile.histogram %v, %m : tensor<64xi32> -> tensor<16xi32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  %g = tile.gather %f[%v] {axis = 0 : i32} : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  // CHECK: tile.fp_to_fp %{{.*}}, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %f8 = tile.fp_to_fp %f, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
  // CHECK: tile.fp_to_fp %{{.*}} : tensor<64xf8E4M3FN> -> tensor<64xf16>
  %f16 = tile.fp_to_fp %f8 : tensor<64xf8E4M3FN> -> tensor<64xf16>
  // CHECK: tile.bitcast %{{.*}} : tensor<64xf32> -> tensor<64xi32>
  %bc = tile.bitcast %f : tensor<64xf32> -> tensor<64xi32>
  // CHECK: tile.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<64xf32>
  %cl = tile.clampf %f, %f, %f, propagateNan = all : tensor<64xf32>
  // CHECK: tile.precise_sqrt %{{.*}} : tensor<64xf32>
  %ps = tile.precise_sqrt %f : tensor<64xf32>
  // CHECK: tile.precise_divf %{{.*}}, %{{.*}} : tensor<64xf32>
  %pd = tile.precise_divf %f, %f : tensor<64xf32>
  // CHECK: tile.mulhiui %{{.*}}, %{{.*}} : tensor<64xi32>
  %mh = tile.mulhiui %v, %v : tensor<64xi32>
  // CHECK: tile.extern_elementwise %{{.*}} {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<64xf32>) -> tensor<64xf32>
  %ex = tile.extern_elementwise %f {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<64xi32> -> tensor<64xi32>
  %asm = tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %v : tensor<64xi32> -> tensor<64xi32>
  // CHECK: tile.hint %{{.*}} {contiguity = array<i32: 64>, divisibility = array<i32: 16>} : tensor<64xi32>
  %hn = tile.hint %v {contiguity = array<i32: 64>, divisibility = array<i32: 16>} : tensor<64xi32>
  // CHECK: tile.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %{{.*}}, %{{.*}} : tensor<64xi32>, tensor<64xf32>
  tile.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %v, %f : tensor<64xi32>, tensor<64xf32>
  // CHECK: tile.print "done" {hex = false, isSigned = array<i32>}
  tile.print "done" {hex = false, isSigned = array<i32>}
  // CHECK: tile.assert %{{.*}}, "lane out of range" : tensor<64xi1>
  tile.assert %m, "lane out of range" : tensor<64xi1>
  // CHECK: tile.assume %{{.*}}
  tile.assume %c
  // CHECK: tile.barrier
  tile.barrier
  return
}

// CHECK-LABEL: func @descriptors
func.func @descriptors(%base: !tile.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64,
                       %i: i32, %j: i32, %t: tensor<64x32xf16>, %rows: tensor<8xi32>,
                       %g: tensor<8x32xf16>, %rb: !tile.ptr<f16>) {
  // CHECK: %[[D:.*]] = tile.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
  %d = tile.make_tensor_descriptor %base, [%m, %n], [%s, %one] : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
  // CHECK: tile.make_tensor_descriptor {{.*}} padding = nan : !tile.ptr<f16>
  %dn = tile.make_tensor_descriptor %base, [%m, %n], [%s, %one] padding = nan : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
  // CHECK: tile.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %l = tile.descriptor_load %d[%i, %j] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  // CHECK: tile.descriptor_store %[[D]][%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tile.descriptor_store %d[%i, %j], %t : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  // CHECK: tile.descriptor_reduce max, %[[D]][%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tile.descriptor_reduce max, %d[%i, %j], %t : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  // CHECK: %[[R:.*]] = tile.make_tensor_descriptor
  %r = tile.make_tensor_descriptor %rb, [%m, %n], [%s, %one] : !tile.ptr<f16>, !tile.tensordesc<tensor<1x32xf16>>
  // CHECK: tile.descriptor_gather %[[R]][%{{.*}}, %{{.*}}] : (!tile.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  %ga = tile.descriptor_gather %r[%rows, %j] : (!tile.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  // CHECK: tile.descriptor_scatter %[[R]][%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, tensor<8x32xf16>
  tile.descriptor_scatter %r[%rows, %j], %g : !tile.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, tensor<8x32xf16>
  return
}

// CHECK-LABEL: func @map
func.func @map(%x: tensor<64xf32>, %y: tensor<64xi32>) -> tensor<64xf32> {
  // CHECK: tile.map_elementwise(%{{.*}}, %{{.*}}) pack = 1 {
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32):
  // CHECK: cf.cond_br
  // CHECK: tile.map_elementwise.return %{{.*}} : f32
  // CHECK: } : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  %r = tile.map_elementwise(%x, %y) pack = 1 {
  ^bb0(%a: f32, %b: i32):
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %b, %z : i32
    cf.cond_br %c, ^pos, ^neg
  ^pos:
    tile.map_elementwise.return %a : f32
  ^neg:
    %n = arith.negf %a : f32
    tile.map_elementwise.return %n : f32
  } : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

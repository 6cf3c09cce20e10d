// RUN: tile-opt %s -split-input-file -verify-diagnostics
// Verifier messages name both sides of every mismatch.

func.func @range_not_pow2() {
  // expected-error @+1 {{range length 96 is not a power of two}}
  %r = tile.make_range {end = 96 : i32, start = 0 : i32} : tensor<96xi32>
  return
}

// -----

func.func @range_wrong_length() {
  // expected-error @+1 {{result length 64 differs from end - start = 128}}
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{end 4 must exceed start 4}}
  %r = tile.make_range {end = 4 : i32, start = 4 : i32} : tensor<1xi32>
  return
}

// -----

func.func @bad_broadcast(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{cannot broadcast [4x2] to [4x8]}}
  %b = tile.broadcast %x : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{rank 1 of source [4] differs from result [4x4]}}
  %b = tile.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @bad_reshape(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{cannot reshape [4x2] (8 elements) to [16] (16 elements)}}
  %r = tile.reshape %x : tensor<4x2xf32> -> tensor<16xf32>
  return
}

// -----

func.func @bad_expand(%x: tensor<4xf32>) {
  // expected-error @+1 {{result shape [4x1] should be [1x4]}}
  %r = tile.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @bad_trans(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{order is not a permutation of 0..1}}
  %t = tile.trans %x {order = array<i32: 0, 0>} : tensor<4x2xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @bad_split(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{last dimension must be 2, got shape [4x4]}}
  %a, %b = tile.split %x : tensor<4x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @bad_join(%x: tensor<4xf32>) {
  // expected-error @+1 {{result shape [8] should be [4x2]}}
  %j = tile.join %x, %x : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @bad_cat(%x: tensor<4xf32>) {
  // expected-error @+1 {{result shape [4] should be [8]}}
  %c = tile.cat %x, %x : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @other_without_mask(%p: tensor<4x!tile.ptr<f32>>, %o: tensor<4xf32>) {
  // expected-error @+1 {{mask is i1 shaped like ptr}}
  %l = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<4x!tile.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{must have the same shape}}
  %q = tile.addptr %p, %o : tensor<4x!tile.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{K of a (32) differs from K of b (16)}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_types(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operand element types differ: 'f16' vs 'bf16'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x16xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{accumulator 'tensor<16x8xf32>' should be 16x16}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @reduce_args(%x: tensor<16xf32>) {
  // expected-error @+1 {{combine region takes 1 arguments; expected 2}}
  %s = tile.reduce(%x) axis = 0 {
  ^bb0(%a: f32):
    tile.reduce.return %a : f32
  } : (tensor<16xf32>) -> f32
  return
}

// -----

func.func @reduce_result(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{result type 'tensor<16xf32>' should be 'tensor<4xf32>'}}
  %s = tile.reduce(%x) axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.reduce.return %t : f32
  } : (tensor<16x4xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @reduce_yield(%x: tensor<16xf32>) {
  // expected-error @+1 {{combine region yields 'i32' at #0; expected 'f32'}}
  %s = tile.reduce(%x) axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    tile.reduce.return %c : i32
  } : (tensor<16xf32>) -> f32
  return
}

// -----

func.func @scan_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{axis 1 out of range for rank 1}}
  %s = tile.scan(%x) axis = 1 reverse = false {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.scan.return %t : f32
  } : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @fadd_int(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd needs a float element type, got 'i32'}}
  %o = tile.atomic_rmw fadd, acq_rel, gpu, %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @narrow_no_rounding(%x: tensor<4xf32>) {
  // expected-error @+1 {{narrowing 'f32' to 'f8E5M2' needs a rounding mode}}
  %y = tile.fp_to_fp %x : tensor<4xf32> -> tensor<4xf8E5M2>
  return
}

// -----

func.func @bitcast_width(%x: tensor<4xf32>) {
  // expected-error @+1 {{bit widths differ: 'f32' has 32, 'i16' has 16}}
  %y = tile.bitcast %x : tensor<4xf32> -> tensor<4xi16>
  return
}

// -----

func.func @gather_rank(%x: tensor<4x4xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{indices rank 1 differs from source rank 2}}
  %g = tile.gather %x[%i] {axis = 0 : i32} : (tensor<4x4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @print_signs(%x: tensor<4xi32>) {
  // expected-error @+1 {{isSigned has 0 entries for 1 operands}}
  tile.print "x" {hex = false, isSigned = array<i32>} : %x : tensor<4xi32>
  return
}

// -----

func.func @unsplat_many(%x: tensor<4xi32>) {
  // expected-error @+1 {{source must hold one element, got shape [4]}}
  %s = tile.unsplat %x : tensor<4xi32>
  return
}

// -----

func.func @bad_pointee_store(%p: !tile.ptr<f32>, %v: i32) {
  // expected-error @+1 {{value is the pointee}}
  "tile.store"(%p, %v) : (!tile.ptr<f32>, i32) -> ()
  return
}

// -----

func.func @desc_rank(%p: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{has 1 sizes and 1 strides for a block of rank 2}}
  %d = tile.make_tensor_descriptor %p, [%m], [%s] : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_elem(%p: !tile.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{base points to 'f32' but the block holds 'f16'}}
  %d = tile.make_tensor_descriptor %p, [%m, %m], [%s, %s] : !tile.ptr<f32>, !tile.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_load(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{moves 'tensor<32x64xf16>' but the descriptor's block is 'tensor<64x32xf16>'}}
  %l = tile.descriptor_load %d[%i, %i] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<32x64xf16>
  return
}

// -----

func.func @desc_indices(%d: !tile.tensordesc<tensor<64x32xf16>>, %i: i32, %t: tensor<64x32xf16>) {
  // expected-error @+1 {{takes 2 indices for a rank-2 descriptor, got 1}}
  tile.descriptor_store %d[%i], %t : !tile.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  return
}

// -----

func.func @gather_rows(%d: !tile.tensordesc<tensor<1x32xf16>>, %r: tensor<8xi32>, %j: i32) {
  // expected-error @+1 {{moves 'tensor<4x32xf16>' but should move [8x32] of 'f16'}}
  %g = tile.descriptor_gather %d[%r, %j] : (!tile.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<4x32xf16>
  return
}

// -----

func.func @map_args(%x: tensor<64xf32>) {
  // expected-error @+1 {{body takes 1 arguments; expected 2 (1 operands x pack 2)}}
  %r = tile.map_elementwise(%x) pack = 2 {
  ^bb0(%a: f32):
    tile.map_elementwise.return %a, %a : f32, f32
  } : (tensor<64xf32>) -> tensor<64xf32>
  return
}

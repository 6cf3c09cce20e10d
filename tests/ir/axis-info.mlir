// RUN: tile-opt %s -test-print-axis-info -o /dev/null | FileCheck %s
// RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,1024" --emit tile-opt | tile-opt -test-print-axis-info -o /dev/null | FileCheck %s --check-prefix=VADD16
// RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --emit tile-opt | tile-opt -test-print-axis-info -o /dev/null | FileCheck %s --check-prefix=VADD
// RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,\"\"" --emit tile-opt | tile-opt -test-print-axis-info -o /dev/null | FileCheck %s --check-prefix=MM
// The axis analysis (ir/analysis/AxisInfo.h): contiguity, divisibility and
// constancy of every value, and the vector width of every load and store.
// Values named with loc("name") are printed as %name.

// make_range runs over its whole length from `start`; constants are constant
// everywhere and as aligned as their value (0: the cap); non-splat constants
// are read element by element.
// CHECK-LABEL: func @make_range_and_constants
// CHECK: %r0 = tile.make_range: contiguity = [128], divisibility = [1073741824], constancy = [1]
// CHECK: %r32 = tile.make_range: contiguity = [64], divisibility = [32], constancy = [1]
// CHECK: %c48 = arith.constant: contiguity = [1], divisibility = [16], constancy = [1], constant_value = 48
// CHECK: %zero = arith.constant: contiguity = [1], divisibility = [1073741824], constancy = [1], constant_value = 0
// CHECK: %true = arith.constant: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1
// CHECK: %splat12 = arith.constant: contiguity = [1, 1], divisibility = [4, 4], constancy = [4, 8], constant_value = 12
// CHECK: %dense_runs = arith.constant: contiguity = [4], divisibility = [8], constancy = [1]
// CHECK: %dense_pairs = arith.constant: contiguity = [1, 1], divisibility = [2, 2], constancy = [2, 2]
// CHECK: %float_splat = arith.constant: contiguity = [1], divisibility = [1], constancy = [16]
func.func @make_range_and_constants() {
  %r0 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32> loc("r0")
  %r32 = tile.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32> loc("r32")
  %c48 = arith.constant 48 : i32 loc("c48")
  %zero = arith.constant 0 : i64 loc("zero")
  %true = arith.constant true loc("true")
  %s = arith.constant dense<12> : tensor<4x8xi32> loc("splat12")
  %d = arith.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32> loc("dense_runs")
  %e = arith.constant dense<[[4, 4], [4, 4], [6, 6], [6, 6]]> : tensor<4x2xi32> loc("dense_pairs")
  %f = arith.constant dense<1.0> : tensor<16xf32> loc("float_splat")
  return
}

// Arguments start from the frontend's specialization attributes.
// CHECK-LABEL: func @function_arguments
// CHECK: %p = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %m = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %v = func.func argument: contiguity = [64], divisibility = [64], constancy = [1]
func.func @function_arguments(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32} loc("p"),
                              %n: i32 {tile.divisibility = 16 : i32} loc("n"),
                              %m: i32 loc("m"),
                              %v: tensor<64xi32> {tile.contiguity = array<i32: 64>, tile.divisibility = array<i32: 64>} loc("v")) {
  return
}

// Sums run where one side runs and the other stays put; differences only
// where the left side runs; parallel runs subtract to a constant; products
// break runs and multiply divisibilities.
// CHECK-LABEL: func @add_sub_mul
// CHECK: %pid = tile.get_program_id: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %base = arith.muli: contiguity = [1], divisibility = [128], constancy = [1]
// CHECK: %base_splat = tile.splat: contiguity = [1], divisibility = [128], constancy = [128]
// CHECK: %offs = arith.addi: contiguity = [128], divisibility = [128], constancy = [1]
// CHECK: %rev = arith.subi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %back = arith.subi: contiguity = [128], divisibility = [128], constancy = [1]
// CHECK: %diff = arith.subi: contiguity = [1], divisibility = [128], constancy = [128]
// CHECK: %scaled = arith.muli: contiguity = [1], divisibility = [4], constancy = [1]
// CHECK: %times_one = arith.muli: contiguity = [128], divisibility = [128], constancy = [1]
// CHECK: %folded = arith.addi: contiguity = [1], divisibility = [8], constancy = [1], constant_value = 8
func.func @add_sub_mul() {
  %pid = tile.get_program_id x : i32 loc("pid")
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32 loc("base")
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %sb = tile.splat %base : tensor<128xi32> loc("base_splat")
  %offs = arith.addi %sb, %r : tensor<128xi32> loc("offs")
  %rev = arith.subi %sb, %r : tensor<128xi32> loc("rev")
  %back = arith.subi %offs, %sb : tensor<128xi32> loc("back")
  %diff = arith.subi %offs, %r : tensor<128xi32> loc("diff")
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %scaled = arith.muli %r, %c4 : tensor<128xi32> loc("scaled")
  %c1 = arith.constant dense<1> : tensor<128xi32>
  %same = arith.muli %offs, %c1 : tensor<128xi32> loc("times_one")
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %folded = arith.addi %c3, %c5 : i32 loc("folded")
  return
}

// Division by a power of two turns aligned runs into constant groups;
// remainders and low-bit masks keep runs up to the divisor's alignment.
// CHECK-LABEL: func @div_rem_bits
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %n16 = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %quot4 = arith.divsi: contiguity = [1], divisibility = [1], constancy = [4]
// CHECK: %quot3 = arith.divui: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %quot_aligned = arith.divui: contiguity = [1], divisibility = [128], constancy = [128]
// CHECK: %rem32 = arith.remsi: contiguity = [32], divisibility = [32], constancy = [1]
// CHECK: %rem_n = arith.remsi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %rem_n16 = arith.remui: contiguity = [16], divisibility = [16], constancy = [1]
// CHECK: %low_bits = arith.andi: contiguity = [32], divisibility = [1073741824], constancy = [1]
// CHECK: %shl = arith.shli: contiguity = [1], divisibility = [4], constancy = [1]
// CHECK: %shrui = arith.shrui: contiguity = [1], divisibility = [1], constancy = [4]
// CHECK: %shrsi = arith.shrsi: contiguity = [1], divisibility = [1], constancy = [4]
// CHECK: %or_zero = arith.ori: contiguity = [128], divisibility = [1073741824], constancy = [1]
// CHECK: %xor = arith.xori: contiguity = [1], divisibility = [4], constancy = [128]
// CHECK: %min = arith.minsi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %max_runs = arith.maxui: contiguity = [32], divisibility = [32], constancy = [1]
func.func @div_rem_bits(%n: i32 loc("n"), %n16: i32 {tile.divisibility = 16 : i32} loc("n16")) {
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c2 = arith.constant dense<2> : tensor<128xi32>
  %c3 = arith.constant dense<3> : tensor<128xi32>
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %c31 = arith.constant dense<31> : tensor<128xi32>
  %c32 = arith.constant dense<32> : tensor<128xi32>
  %zero = arith.constant dense<0> : tensor<128xi32>
  %sn = tile.splat %n : tensor<128xi32>
  %sn16 = tile.splat %n16 : tensor<128xi32>
  %q = arith.divsi %r, %c4 : tensor<128xi32> loc("quot4")
  %q3 = arith.divui %r, %c3 : tensor<128xi32> loc("quot3")
  %m512 = arith.muli %sn16, %c32 : tensor<128xi32>
  %qa = arith.divui %m512, %c4 : tensor<128xi32> loc("quot_aligned")
  %rm = arith.remsi %r, %c32 : tensor<128xi32> loc("rem32")
  %rmn = arith.remsi %r, %sn : tensor<128xi32> loc("rem_n")
  %rmn16 = arith.remui %r, %sn16 : tensor<128xi32> loc("rem_n16")
  %and = arith.andi %r, %c31 : tensor<128xi32> loc("low_bits")
  %shl = arith.shli %r, %c2 : tensor<128xi32> loc("shl")
  %shr = arith.shrui %r, %c2 : tensor<128xi32> loc("shrui")
  %shrs = arith.shrsi %r, %c2 : tensor<128xi32> loc("shrsi")
  %or = arith.ori %r, %zero : tensor<128xi32> loc("or_zero")
  %xor = arith.xori %sn16, %c4 : tensor<128xi32> loc("xor")
  %min = arith.minsi %r, %sn16 : tensor<128xi32> loc("min")
  %max = arith.maxui %r, %rm : tensor<128xi32> loc("max_runs")
  return
}

// Masks: `offs < n` is constant over groups as aligned as n; `<=` is not.
// select keeps what both sides share within the condition's constant groups.
// CHECK-LABEL: func @compare_and_select
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %n16 = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %c = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %lt16 = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK: %lt_n = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %le16 = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %gt16_swapped = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK: %ge16 = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK: %eq16 = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %lt64 = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [64]
// CHECK: %both = arith.andi: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK: %select_mask = arith.select: contiguity = [16], divisibility = [16], constancy = [1]
// CHECK: %select_scalar = arith.select: contiguity = [128], divisibility = [256], constancy = [1]
// CHECK: %true = arith.constant: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1
// CHECK: %select_const = arith.select: contiguity = [128], divisibility = [256], constancy = [1]
func.func @compare_and_select(%n: i32 loc("n"), %n16: i32 {tile.divisibility = 16 : i32} loc("n16"), %c: i1 loc("c")) {
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %sn = tile.splat %n : tensor<128xi32>
  %sn16 = tile.splat %n16 : tensor<128xi32>
  %c64 = arith.constant dense<64> : tensor<128xi32>
  %lt16 = arith.cmpi slt, %r, %sn16 : tensor<128xi32> loc("lt16")
  %lt1 = arith.cmpi slt, %r, %sn : tensor<128xi32> loc("lt_n")
  %le16 = arith.cmpi sle, %r, %sn16 : tensor<128xi32> loc("le16")
  %gt16 = arith.cmpi sgt, %sn16, %r : tensor<128xi32> loc("gt16_swapped")
  %ge16 = arith.cmpi uge, %r, %sn16 : tensor<128xi32> loc("ge16")
  %eq16 = arith.cmpi eq, %r, %sn16 : tensor<128xi32> loc("eq16")
  %lt64 = arith.cmpi ult, %r, %c64 : tensor<128xi32> loc("lt64")
  %both = arith.andi %lt16, %lt64 : tensor<128xi1> loc("both")
  %c256 = arith.constant dense<256> : tensor<128xi32>
  %c512 = arith.constant dense<512> : tensor<128xi32>
  %a = arith.addi %r, %c256 : tensor<128xi32>
  %b = arith.addi %r, %c512 : tensor<128xi32>
  %sel = arith.select %lt16, %a, %b : tensor<128xi1>, tensor<128xi32> loc("select_mask")
  %sels = arith.select %c, %a, %b : tensor<128xi32> loc("select_scalar")
  %t = arith.constant true
  %selc = arith.select %t, %a, %r : tensor<128xi32> loc("select_const")
  return
}

// Integer casts keep the facts; constants are recast.
// CHECK-LABEL: func @casts
// CHECK: %x = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %extsi = arith.extsi: contiguity = [64], divisibility = [1073741824], constancy = [1]
// CHECK: %trunci = arith.trunci: contiguity = [64], divisibility = [1073741824], constancy = [1]
// CHECK: %extui_const = arith.extui: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 255
// CHECK: %index_cast = arith.index_cast: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %extsi_true = arith.extsi: contiguity = [1], divisibility = [1], constancy = [1], constant_value = -1
// CHECK: %true_slt_false = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1
func.func @casts(%x: i32 {tile.divisibility = 16 : i32} loc("x")) {
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %e = arith.extsi %r : tensor<64xi32> to tensor<64xi64> loc("extsi")
  %t = arith.trunci %e : tensor<64xi64> to tensor<64xi16> loc("trunci")
  %m1 = arith.constant -1 : i8
  %u = arith.extui %m1 : i8 to i32 loc("extui_const")
  %i = arith.index_cast %x : i32 to index loc("index_cast")
  %true = arith.constant true
  %st = arith.extsi %true : i1 to i32 loc("extsi_true")
  %false = arith.constant false
  %lt = arith.cmpi slt, %true, %false : i1 loc("true_slt_false")
  return
}

// addptr scales offsets by the element size (divisibility in bytes); the
// access lines are the code generator's vector-width queries.
// CHECK-LABEL: func @pointers
// CHECK: %p = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %q = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %stride = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %n16 = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %ptrs = tile.addptr: contiguity = [128], divisibility = [16], constancy = [1]
// CHECK: %l = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 128, ptr_alignment = 4, mask_alignment = none, vector_width = 4
// CHECK: %misaligned = tile.addptr: contiguity = [128], divisibility = [4], constancy = [1]
// CHECK: %lm = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 128, ptr_alignment = 1, mask_alignment = none, vector_width = 1
// CHECK: %strided = tile.addptr: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %ls = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 1, ptr_alignment = 1, mask_alignment = none, vector_width = 1
// CHECK: %scalar_ptr = tile.addptr: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %ptr_to_int = tile.ptr_to_int: contiguity = [1], divisibility = [4], constancy = [1]
// CHECK: %rows2 = tile.expand_dims: contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1]
// CHECK: %cols2 = tile.expand_dims: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]
// CHECK: %row_offs = arith.muli: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]
// CHECK: %row_offs_b = tile.broadcast: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]
// CHECK: %col_offs_b = tile.broadcast: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [16, 1]
// CHECK: %tile_offs = arith.addi: contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]
// CHECK: %tile_ptrs = tile.addptr: contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]
// CHECK: %col_mask = arith.cmpi: contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 16]
// CHECK: %col_mask_b = tile.broadcast: contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 16]
// CHECK: tile.store access [dim 1]: ptr_contiguity = 64, ptr_alignment = 8, mask_alignment = 16, vector_width = 8
func.func @pointers(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32} loc("p"),
                    %q: !tile.ptr<f16> {tile.divisibility = 16 : i32} loc("q"),
                    %stride: i32 {tile.divisibility = 16 : i32} loc("stride"),
                    %n16: i32 {tile.divisibility = 16 : i32} loc("n16")) {
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32> loc("ptrs")
  %l = tile.load %ptrs : tensor<128x!tile.ptr<f32>> loc("l")
  %c3 = arith.constant dense<3> : tensor<128xi32>
  %r3 = arith.addi %r, %c3 : tensor<128xi32>
  %mis = tile.addptr %ps, %r3 : tensor<128x!tile.ptr<f32>>, tensor<128xi32> loc("misaligned")
  %lm = tile.load %mis : tensor<128x!tile.ptr<f32>> loc("lm")
  %ss = tile.splat %stride : tensor<128xi32>
  %rs = arith.muli %r, %ss : tensor<128xi32>
  %strided = tile.addptr %ps, %rs : tensor<128x!tile.ptr<f32>>, tensor<128xi32> loc("strided")
  %ls = tile.load %strided : tensor<128x!tile.ptr<f32>> loc("ls")
  %c4 = arith.constant 4 : i32
  %pp = tile.addptr %p, %c4 : !tile.ptr<f32>, i32 loc("scalar_ptr")
  %ints = tile.ptr_to_int %ptrs : tensor<128x!tile.ptr<f32>> -> tensor<128xi64> loc("ptr_to_int")
  // A 16x64 tile of f16, rows `stride` elements apart, columns masked.
  %rows = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %cols = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32> loc("rows2")
  %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32> loc("cols2")
  %st2 = tile.splat %stride : tensor<16x1xi32>
  %ro = arith.muli %rows2, %st2 : tensor<16x1xi32> loc("row_offs")
  %rob = tile.broadcast %ro : tensor<16x1xi32> -> tensor<16x64xi32> loc("row_offs_b")
  %cob = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<16x64xi32> loc("col_offs_b")
  %off = arith.addi %rob, %cob : tensor<16x64xi32> loc("tile_offs")
  %qs = tile.splat %q : tensor<16x64x!tile.ptr<f16>>
  %tp = tile.addptr %qs, %off : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32> loc("tile_ptrs")
  %n2 = tile.splat %n16 : tensor<1x64xi32>
  %cm = arith.cmpi slt, %cols2, %n2 : tensor<1x64xi32> loc("col_mask")
  %cmb = tile.broadcast %cm : tensor<1x64xi1> -> tensor<16x64xi1> loc("col_mask_b")
  %v = arith.constant dense<0.0> : tensor<16x64xf16>
  tile.store %tp, %v, %cmb : tensor<16x64x!tile.ptr<f16>>
  return
}

// Shape ops move facts between dimensions; reorderable reshapes lose them.
// CHECK-LABEL: func @reshape_trans_join
// CHECK: %squeeze = tile.reshape: contiguity = [32], divisibility = [1073741824], constancy = [1]
// CHECK: %split_rows = tile.reshape: contiguity = [1, 8], divisibility = [1, 8], constancy = [1, 1]
// CHECK: %merge_rows = tile.reshape: contiguity = [8], divisibility = [8], constancy = [1]
// CHECK: %reorder = tile.reshape: contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]
// CHECK: %trans = tile.trans: contiguity = [8, 1], divisibility = [8, 1], constancy = [1, 1]
// CHECK: %join = tile.join: contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1]
// CHECK: %split = tile.split: contiguity = [32], divisibility = [1073741824], constancy = [1]
// CHECK: %split_0 = tile.split: contiguity = [32], divisibility = [1073741824], constancy = [1]
// CHECK: %cat = tile.cat: contiguity = [32], divisibility = [1073741824], constancy = [1]
func.func @reshape_trans_join() {
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %sq = tile.reshape %e : tensor<1x32xi32> -> tensor<32xi32> loc("squeeze")
  %sp = tile.reshape %r : tensor<32xi32> -> tensor<4x8xi32> loc("split_rows")
  %mg = tile.reshape %sp : tensor<4x8xi32> -> tensor<32xi32> loc("merge_rows")
  %ro = tile.reshape %r allow_reorder : tensor<32xi32> -> tensor<4x8xi32> loc("reorder")
  %tr = tile.trans %sp {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32> loc("trans")
  %j = tile.join %r, %r : tensor<32xi32> -> tensor<32x2xi32> loc("join")
  %a, %b = tile.split %j : tensor<32x2xi32> -> tensor<32xi32> loc("split")
  %ct = tile.cat %r, %r : tensor<32xi32> -> tensor<64xi32> loc("cat")
  return
}

// multiple_of / max_contiguous / max_constancy add to what is derived.
// CHECK-LABEL: func @hints
// CHECK: %x = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %v = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %multiple_of = tile.hint: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %max_contiguous = tile.hint: contiguity = [128], divisibility = [128], constancy = [1]
// CHECK: %max_constancy = tile.hint: contiguity = [1], divisibility = [1], constancy = [8]
// CHECK: %weaker_hint = tile.hint: contiguity = [128], divisibility = [1073741824], constancy = [1]
func.func @hints(%x: i32 loc("x"), %v: tensor<128xi32> loc("v")) {
  %h = tile.hint %x {divisibility = array<i32: 16>} : i32 loc("multiple_of")
  %hv = tile.hint %v {contiguity = array<i32: 128>, divisibility = array<i32: 128>} : tensor<128xi32> loc("max_contiguous")
  %hc = tile.hint %v {constancy = array<i32: 8>} : tensor<128xi32> loc("max_constancy")
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %hr = tile.hint %r {divisibility = array<i32: 16>} : tensor<128xi32> loc("weaker_hint")
  return
}

// Loop-carried pointers keep what holds on every iteration: a 64-element
// step keeps 16-byte alignment, a 1-element step leaves 4 bytes.
// CHECK-LABEL: func @loop_carried
// CHECK: %p = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %ptrs = tile.addptr: contiguity = [64], divisibility = [16], constancy = [1]
// CHECK: %arg2 = scf.for argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %arg3 = scf.for argument: contiguity = [64], divisibility = [16], constancy = [1]
// CHECK: %arg4 = scf.for argument: contiguity = [64], divisibility = [4], constancy = [1]
// CHECK: %iv_offs = arith.addi: contiguity = [64], divisibility = [16], constancy = [1]
// CHECK: %la = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 64, ptr_alignment = 4, mask_alignment = none, vector_width = 4
// CHECK: %lb = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 64, ptr_alignment = 1, mask_alignment = none, vector_width = 1
// CHECK: %a_next = tile.addptr: contiguity = [64], divisibility = [16], constancy = [1]
// CHECK: %b_next = tile.addptr: contiguity = [64], divisibility = [4], constancy = [1]
// CHECK: %loop#0 = scf.for: contiguity = [64], divisibility = [16], constancy = [1]
// CHECK: %loop#1 = scf.for: contiguity = [64], divisibility = [4], constancy = [1]
func.func @loop_carried(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32} loc("p"), %n: i32 loc("n")) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32> loc("ptrs")
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %one = arith.constant dense<1> : tensor<64xi32>
  %res:2 = scf.for %i = %c0 to %n step %c16 iter_args(%a = %ptrs, %b = %ptrs) -> (tensor<64x!tile.ptr<f32>>, tensor<64x!tile.ptr<f32>>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %io = arith.addi %si, %r : tensor<64xi32> loc("iv_offs")
    %la = tile.load %a : tensor<64x!tile.ptr<f32>> loc("la")
    %lb = tile.load %b : tensor<64x!tile.ptr<f32>> loc("lb")
    %a2 = tile.addptr %a, %c64 : tensor<64x!tile.ptr<f32>>, tensor<64xi32> loc("a_next")
    %b2 = tile.addptr %b, %one : tensor<64x!tile.ptr<f32>>, tensor<64xi32> loc("b_next")
    scf.yield %a2, %b2 : tensor<64x!tile.ptr<f32>>, tensor<64x!tile.ptr<f32>>
  } loc("loop")
  return
}

// scf.if and scf.while results join their incoming values.
// CHECK-LABEL: func @branches
// CHECK: %c = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %if_runs = scf.if: contiguity = [64], divisibility = [8], constancy = [1]
// CHECK: %if_mixed = scf.if: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: %arg2 = scf.while argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %arg2 = scf.while argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %while = scf.while: contiguity = [1], divisibility = [16], constancy = [1]
func.func @branches(%c: i1 loc("c"), %n: i32 loc("n")) {
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %c8 = arith.constant dense<8> : tensor<64xi32>
  %x = scf.if %c -> tensor<64xi32> {
    %a = arith.addi %r, %c64 : tensor<64xi32>
    scf.yield %a : tensor<64xi32>
  } else {
    %b = arith.addi %r, %c8 : tensor<64xi32>
    scf.yield %b : tensor<64xi32>
  } loc("if_runs")
  %y = scf.if %c -> tensor<64xi32> {
    scf.yield %r : tensor<64xi32>
  } else {
    scf.yield %c8 : tensor<64xi32>
  } loc("if_mixed")
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %w = scf.while (%arg = %c0) : (i32) -> i32 {
    %cond = arith.cmpi slt, %arg, %n : i32
    scf.condition(%cond) %arg : i32
  } do {
  ^bb0(%x2: i32):
    %next = arith.addi %x2, %c16 : i32
    scf.yield %next : i32
  } loc("while")
  return
}

// Private callees see their call sites (every caller passes a multiple of
// 16); external calls are unknown.
// CHECK-LABEL: func @helper
// CHECK: %x = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %y = arith.muli: contiguity = [1], divisibility = [64], constancy = [1]
func.func private @helper(%x: i32 loc("x")) -> i32 {
  %c4 = arith.constant 4 : i32
  %y = arith.muli %x, %c4 : i32 loc("y")
  return %y : i32
}

func.func private @external(i32) -> i32

// CHECK-LABEL: func @calls
// CHECK: %n = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %internal_call = func.call: contiguity = [1], divisibility = [64], constancy = [1]
// CHECK: %external_call = func.call: contiguity = [1], divisibility = [1], constancy = [1]
func.func @calls(%n: i32 {tile.divisibility = 16 : i32} loc("n")) {
  %a = func.call @helper(%n) : (i32) -> i32 loc("internal_call")
  %b = func.call @external(%n) : (i32) -> i32 loc("external_call")
  return
}

// Loads are unknown; elementwise float math keeps constancy.
// CHECK-LABEL: func @unknown_ops
// CHECK: %p = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK: %loaded = tile.load: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: tile.load access [dim 0]: ptr_contiguity = 32, ptr_alignment = 4, mask_alignment = none, vector_width = 4
// CHECK: %float_sum = arith.addf: contiguity = [1], divisibility = [1], constancy = [32]
func.func @unknown_ops(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32} loc("p")) {
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ps = tile.splat %p : tensor<32x!tile.ptr<i32>>
  %ptrs = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %l = tile.load %ptrs : tensor<32x!tile.ptr<i32>> loc("loaded")
  %one = arith.constant dense<1.0> : tensor<32xf32>
  %two = arith.constant dense<2.0> : tensor<32xf32>
  %sum = arith.addf %one, %two : tensor<32xf32> loc("float_sum")
  return
}


// Frontend-produced kernels. vector_add with n_elements a multiple of 16:
// `offs < n_elements` is constant over 16 lanes, so 4 x f32 per access.
// VADD16-LABEL: func @add_kernel
// VADD16: %arg3 = func.func argument: contiguity = [1], divisibility = [16], constancy = [1]
// VADD16: [[OFFS:%[0-9]+]] = arith.addi: contiguity = [1024], divisibility = [1024], constancy = [1]
// VADD16: [[MASK:%[0-9]+]] = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [16]
// VADD16: = tile.addptr: contiguity = [1024], divisibility = [16], constancy = [1]
// VADD16: tile.load access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4, mask_alignment = 16, vector_width = 4
// VADD16: tile.load access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4, mask_alignment = 16, vector_width = 4
// VADD16: tile.store access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4, mask_alignment = 16, vector_width = 4

// Without the specialization the mask may change at any lane.
// VADD-LABEL: func @add_kernel
// VADD: %arg3 = func.func argument: contiguity = [1], divisibility = [1], constancy = [1]
// VADD: = arith.cmpi: contiguity = [1], divisibility = [1], constancy = [1]
// VADD: tile.load access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4, mask_alignment = 1, vector_width = 1
// VADD: tile.store access [dim 0]: ptr_contiguity = 1024, ptr_alignment = 4, mask_alignment = 1, vector_width = 1

// matmul with M, N, K and the leading strides multiples of 16 and unit inner
// strides (constants 1): the A and B tiles advance by whole blocks each
// iteration and stay 8 x f16 accessible along their rows; `% M` / `% N`
// keep runs of 16.
// MM-LABEL: func @matmul_kernel
// MM: = arith.remsi: contiguity = [16], divisibility = [16], constancy = [1]
// MM: = arith.remsi: contiguity = [16], divisibility = [16], constancy = [1]
// MM: [[A0:%[0-9]+]] = tile.addptr: contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1]
// MM: [[B0:%[0-9]+]] = tile.addptr: contiguity = [1, 16], divisibility = [2, 16], constancy = [1, 1]
// MM: %arg9 = scf.for argument: contiguity = [1], divisibility = [1], constancy = [1]
// MM: %arg11 = scf.for argument: contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1]
// MM: %arg12 = scf.for argument: contiguity = [1, 16], divisibility = [2, 16], constancy = [1, 1]
// MM: = arith.cmpi: contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 16]
// MM: tile.load access [dim 1]: ptr_contiguity = 32, ptr_alignment = 8, mask_alignment = 16, vector_width = 8
// MM: tile.load access [dim 1]: ptr_contiguity = 16, ptr_alignment = 8, mask_alignment = 128, vector_width = 8
// MM: = scf.for: contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1]
// MM: tile.store access [dim 1]: ptr_contiguity = 128, ptr_alignment = 8, mask_alignment = 16, vector_width = 8

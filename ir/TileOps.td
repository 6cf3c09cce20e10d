//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
//
// The operations of one Triton program, modelled on Triton's `tt` dialect.
// Shapes are static; integers are signless (the frontend picks signed or
// unsigned arithmetic). Verifiers check only what the traits cannot say and
// name both sides of a mismatch.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_OPS
#define TILE_OPS

include "ir/TileDialect.td"
include "ir/TileTypes.td"
include "ir/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Tile_GlobalMemory : Resource<"::mlir::tile::GlobalMemory">;

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

// Type transformers used by TypesMatchWith (defined in TileTypes.h).
defvar PointeeLike = "::mlir::tile::getPointeeTypeLike($_self)";
defvar I1Like = "::mlir::tile::getI1TypeLike($_self)";

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

def Tile_GetProgramIdOp : Tile_Op<"get_program_id", [Pure]> {
  let summary = "Index of this program along a grid axis";
  let description = [{
    Returns the coordinate of the running program in the launch grid.

    Example: `%pid = tile.get_program_id x : i32`
  }];
  let arguments = (ins Tile_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_GetNumProgramsOp : Tile_Op<"get_num_programs", [Pure]> {
  let summary = "Number of programs along a grid axis";
  let description = [{
    Returns the launch grid's extent along `axis`.

    Example: `%n = tile.get_num_programs y : i32`
  }];
  let arguments = (ins Tile_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Creation and shape manipulation
//===----------------------------------------------------------------------===//

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The 1-D tensor start, start+1, ..., end-1";
  let description = [{
    `end - start` must be a power of two and equal the result length.

    Example: `%r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>`
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"source is the result's element type", "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "Tensor with every element equal to a scalar";
  let description = [{
    Example: `%t = tile.splat %x : tensor<64x32xf32>`
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_UnsplatOp : Tile_Op<"unsplat", [Pure,
    TypesMatchWith<"result is the source's element type", "src", "result",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "The only element of a tensor whose dimensions are all 1";
  let description = [{
    Example: `%x = tile.unsplat %t : tensor<1x1xf32>`
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Scalar:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Insert a dimension of size 1";
  let description = [{
    `axis` indexes the result: it is the position of the new dimension.

    Example: `%c = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>`
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "int32_t":$axis)>];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeat size-1 dimensions to a larger shape";
  let description = [{
    Source and result have the same rank; every source dimension equals the
    result's or is 1.

    Example: `%b = tile.broadcast %c : tensor<128x1xi32> -> tensor<128x64xi32>`
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Same elements, new shape";
  let description = [{
    Row-major reinterpretation with the same number of elements. With
    `allow_reorder` the element order of the result is unspecified (Triton's
    `view` / `can_reorder=True`); tritium keeps row-major order either way.

    Example: `%r = tile.reshape %x : tensor<4x8xf32> -> tensor<32xf32>`
  }];
  let arguments = (ins Tile_Tensor:$src, UnitAttr:$allow_reorder);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$src (`allow_reorder` $allow_reorder^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "Permute dimensions";
  let description = [{
    Result dimension i is source dimension `order[i]`.

    Example: `%t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf16> -> tensor<32x16xf16>`
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int32_t>":$order)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_JoinOp : Tile_Op<"join", [Pure, SameTypeOperands]> {
  let summary = "Stack two tensors along a new minor dimension of size 2";
  let description = [{
    Example: `%j = tile.join %a, %b : tensor<64xf32> -> tensor<64x2xf32>`
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs)>];
  let hasVerifier = 1;
}

def Tile_SplitOp : Tile_Op<"split", [Pure, AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "Split a tensor whose minor dimension is 2 into two";
  let description = [{
    Example: `%a, %b = tile.split %j : tensor<64x2xf32> -> tensor<64xf32>`
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Type:$outLHS, Tile_Type:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src)>];
  let hasVerifier = 1;
}

def Tile_CatOp : Tile_Op<"cat", [Pure, SameTypeOperands]> {
  let summary = "Concatenate two tensors along a dimension";
  let description = [{
    Example: `%c = tile.cat %a, %b {dim = 0 : i32} : tensor<32xf32> -> tensor<64xf32>`
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs,
                       DefaultValuedAttr<I32Attr, "0">:$dim);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by whole elements";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, elementwise. Offset and pointer
    have the same shape (or are both scalars).

    Example: `%p = tile.addptr %base, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>`
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<Tile_GlobalMemory>]>,
    TypesMatchWith<"result is the pointee", "ptr", "result", PointeeLike>,
    TypesMatchWith<"mask is i1 shaped like ptr", "ptr", "mask", I1Like,
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other is the pointee", "ptr", "other", PointeeLike,
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Load a tile from global memory";
  let description = [{
    Lanes whose `mask` is false are not accessed; they read `other` when given
    and are undefined otherwise. `other` requires `mask`.

    Example: `%v = tile.load %p, %m, %z cacheModifier = cg : tensor<128x!tile.ptr<f32>>`
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Type>:$other,
                       OptionalAttr<Tile_CacheModifierAttr>:$cache,
                       OptionalAttr<Tile_EvictionPolicyAttr>:$evict,
                       UnitAttr:$isVolatile);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? (`cacheModifier` `=` $cache^)?
    (`evictionPolicy` `=` $evict^)? (`volatile` $isVolatile^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    MemoryEffects<[MemWrite<Tile_GlobalMemory>]>,
    TypesMatchWith<"value is the pointee", "ptr", "value", PointeeLike>,
    TypesMatchWith<"mask is i1 shaped like ptr", "ptr", "mask", I1Like,
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Store a tile to global memory";
  let description = [{
    Lanes whose `mask` is false are not written.

    Example: `tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>`
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Type:$value,
                       Optional<Tile_BoolLike>:$mask,
                       OptionalAttr<Tile_CacheModifierAttr>:$cache,
                       OptionalAttr<Tile_EvictionPolicyAttr>:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? (`cacheModifier` `=` $cache^)?
    (`evictionPolicy` `=` $evict^)? attr-dict `:` type($ptr)
  }];
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>,
    TypesMatchWith<"value is the pointee", "ptr", "val", PointeeLike>,
    TypesMatchWith<"result is the pointee", "ptr", "result", PointeeLike>,
    TypesMatchWith<"mask is i1 shaped like ptr", "ptr", "mask", I1Like,
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write; returns the old values";
  let description = [{
    `fadd` adds floats; `max`/`min` compare signed and `umax`/`umin` unsigned
    integers (float max/min are built from them by the frontend).

    Example: `%old = tile.atomic_rmw add, acq_rel, gpu, %p, %v, %m : tensor<64x!tile.ptr<i32>>`
  }];
  let arguments = (ins Tile_RMWOpAttr:$atomic_rmw_op, Tile_PtrLike:$ptr,
                       Tile_Type:$val, Optional<Tile_BoolLike>:$mask,
                       Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>,
    TypesMatchWith<"cmp is the pointee", "ptr", "cmp", PointeeLike>,
    TypesMatchWith<"val is the pointee", "ptr", "val", PointeeLike>,
    TypesMatchWith<"result is the pointee", "ptr", "result", PointeeLike>]> {
  let summary = "Atomic compare-and-swap; returns the old values";
  let description = [{
    `old = *ptr; if (old == cmp) *ptr = val; return old`, per lane.

    Example: `%old = tile.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : !tile.ptr<i32>`
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Type:$cmp, Tile_Type:$val,
                       Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` type($ptr)
  }];
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a * b + c on 2-D (or batched 3-D) tiles";
  let description = [{
    `a` is [B,]MxK, `b` [B,]KxN, `c` and `d` [B,]MxN. `inputPrecision`
    says how fp32 operands are multiplied (tf32 rounds them first).

    Example: `%d = tile.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>`
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
      DefaultValuedAttr<Tile_InputPrecisionAttr,
                        "::mlir::tile::InputPrecision::IEEE">:$inputPrecision,
      DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict
    `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Tile_DotScaledOp : Tile_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "Dot of microscaled operands: (a * 2^sa) (b * 2^sb) + c";
  let description = [{
    Operands in e2m1 (two per byte), e4m3, e5m2, bf16 or fp16 with optional
    e8m0 scales (one per 32 elements along K).

    Example: `%d = tile.dot_scaled %a scale %sa, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xi8>, tensor<128x2xi8> * tensor<64x128xi8> -> tensor<128x128xf32>`
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
      Optional<RankedTensorOf<[I8]>>:$a_scale,
      Optional<RankedTensorOf<[I8]>>:$b_scale,
      Tile_ScaleDotElemTypeAttr:$a_elem_type,
      Tile_ScaleDotElemTypeAttr:$b_elem_type, BoolAttr:$fastMath);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)?
    `->` type($d)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions, scans and permutations
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [RecursiveMemoryEffects, SameOperandsShape]> {
  let summary = "Reduce tensors along an axis with a combine region";
  let description = [{
    The region takes (acc..., x...) scalars, one of each per operand, and
    yields the combined values with `tile.reduce.return`. Reducing a 1-D
    tensor yields scalars.

    Example:
    ```
    %s = tile.reduce(%x) axis = 0 {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tile.reduce.return %t : f32
    } : (tensor<128xf32>) -> f32
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis $combineOp attr-dict `:` functional-type($srcs, $result)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ReduceReturnOp : Tile_Op<"reduce.return",
    [HasParent<"ReduceOp">, Pure, Terminator]> {
  let summary = "Yield the combined values of a reduce region";
  let description = [{ Example: `tile.reduce.return %t : f32` }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Tile_ScanOp : Tile_Op<"scan", [RecursiveMemoryEffects, SameOperandsAndResultShape]> {
  let summary = "Inclusive scan along an axis with a combine region";
  let description = [{
    Result i along `axis` combines elements 0..i (or i..n-1 when `reverse`).

    Example:
    ```
    %c = tile.scan(%x) axis = 0 reverse = false {
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tile.scan.return %t : i32
    } : (tensor<64xi32>) -> tensor<64xi32>
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis `reverse` `=` $reverse $combineOp attr-dict
    `:` functional-type($srcs, $result)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanReturnOp : Tile_Op<"scan.return",
    [HasParent<"ScanOp">, Pure, Terminator]> {
  let summary = "Yield the combined values of a scan region";
  let description = [{ Example: `tile.scan.return %t : i32` }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Tile_SortOp : Tile_Op<"sort", [Pure, SameOperandsAndResultType]> {
  let summary = "Sort along a dimension";
  let description = [{
    Ascending unless `descending`; NaNs order as the GPU's bitonic network
    orders them (after every number, ascending).

    Example: `%s = tile.sort %x {axis = 0 : i32, descending = false} : tensor<64xf32>`
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis, BoolAttr:$descending);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure,
    TypesMatchWith<"mask is i1 shaped like src", "src", "mask", I1Like,
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">]> {
  let summary = "Counts of the values 0..N-1 in a tensor";
  let description = [{
    Bins have width 1 and start at 0; values outside [0, N) and masked-off
    lanes are not counted.

    Example: `%h = tile.histogram %x : tensor<256xi32> -> tensor<16xi32>`
  }];
  let arguments = (ins Tile_IntTensor:$src, Optional<Tile_BoolTensor>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "result[..i..] = src[..index[..i..]..] along one axis";
  let description = [{
    `indices` has the rank of `src` and the result's shape; along every other
    axis it indexes `src` directly.

    Example: `%g = tile.gather %x[%i] {axis = 0 : i32} : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>`
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_IntTensor:$indices, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Casts and special arithmetic
//===----------------------------------------------------------------------===//

def Tile_FpToFpOp : Tile_Op<"fp_to_fp", [Pure, SameOperandsAndResultShape]> {
  let summary = "Float conversion with an explicit rounding mode";
  let description = [{
    Used for fp8 formats and for round-toward-zero downcasts; `rounding` is
    required when the result is narrower than the source.

    Example: `%h = tile.fp_to_fp %x, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>`
  }];
  let arguments = (ins Tile_FloatLike:$src, OptionalAttr<Tile_RoundingModeAttr>:$rounding);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = [{
    $src (`,` `rounding` `=` $rounding^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_BitcastOp : Tile_Op<"bitcast", [Pure, SameOperandsAndResultShape]> {
  let summary = "Reinterpret bits as another type of the same width";
  let description = [{
    Example: `%i = tile.bitcast %x : tensor<64xf32> -> tensor<64xi32>`
  }];
  let arguments = (ins Tile_Type:$src);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure, SameOperandsAndResultShape]> {
  let summary = "Address (i64) to pointer";
  let description = [{ Example: `%p = tile.int_to_ptr %a : i64 -> !tile.ptr<f32>` }];
  let arguments = (ins Tile_I64Like:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure, SameOperandsAndResultShape]> {
  let summary = "Pointer to address (i64)";
  let description = [{ Example: `%a = tile.ptr_to_int %p : !tile.ptr<f32> -> i64` }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tile_ClampFOp : Tile_Op<"clampf", [Pure, SameOperandsAndResultType]> {
  let summary = "min(max(x, lo), hi) with a NaN rule";
  let description = [{
    With `propagateNan = all` a NaN operand yields NaN; with `none` NaN
    operands are ignored where the other operand is a number.

    Example: `%y = tile.clampf %x, %lo, %hi, propagateNan = none : tensor<64xf32>`
  }];
  let arguments = (ins Tile_FloatLike:$x, Tile_FloatLike:$min, Tile_FloatLike:$max,
                       Tile_PropagateNanAttr:$propagateNan);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

def Tile_PreciseSqrtOp : Tile_Op<"precise_sqrt", [Pure, SameOperandsAndResultType]> {
  let summary = "Correctly rounded square root";
  let description = [{ Example: `%y = tile.precise_sqrt %x : tensor<64xf32>` }];
  let arguments = (ins Tile_FloatLike:$x);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Tile_PreciseDivFOp : Tile_Op<"precise_divf", [Pure, SameOperandsAndResultType]> {
  let summary = "Correctly rounded division";
  let description = [{ Example: `%z = tile.precise_divf %x, %y : tensor<64xf32>` }];
  let arguments = (ins Tile_FloatLike:$x, Tile_FloatLike:$y);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def Tile_MulhiUIOp : Tile_Op<"mulhiui", [Pure, SameOperandsAndResultType]> {
  let summary = "High half of the unsigned product";
  let description = [{ Example: `%h = tile.mulhiui %x, %y : tensor<64xi32>` }];
  let arguments = (ins Tile_IntLike:$x, Tile_IntLike:$y);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [Pure]> {
  let summary = "Elementwise call of a device-library function";
  let description = [{
    `symbol` names the function (e.g. `__nv_tanhf`); operands and result have
    the same shape.

    Example: `%y = tile.extern_elementwise %x {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<64xf32>) -> tensor<64xf32>`
  }];
  let arguments = (ins Variadic<Tile_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

def Tile_ElementwiseInlineAsmOp : Tile_Op<"elementwise_inline_asm", []> {
  let summary = "Elementwise inline assembly";
  let description = [{
    GPU-only: the interpreter cannot run it. `packed_element` elements are
    processed per asm instance.

    Example: `%y = tile.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<64xi32> -> tensor<64xi32>`
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<Tile_Type>:$args);
  let results = (outs Variadic<Tile_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
}

def Tile_HintOp : Tile_Op<"hint", [Pure, SameOperandsAndResultType]> {
  let summary = "Axis facts the user asserts about a value";
  let description = [{
    Carries `tl.multiple_of` (divisibility), `tl.max_contiguous`
    (contiguity) and `tl.max_constancy` (constancy), one entry per dimension.

    Example: `%y = tile.hint %x {divisibility = array<i32: 16>} : tensor<128xi32>`
  }];
  let arguments = (ins Tile_Type:$src,
                       OptionalAttr<DenseI32ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI32ArrayAttr>:$contiguity,
                       OptionalAttr<DenseI32ArrayAttr>:$constancy);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

def Tile_MakeTensorDescOp : Tile_Op<"make_tensor_descriptor", [Pure,
    SameVariadicOperandSize]> {
  let summary = "Describe a strided global tensor for block access";
  let description = [{
    `shape` (i32) and `strides` (i64, in elements; the last must be 1) have
    one entry per dimension of the descriptor's block type.

    Example: `%d = tile.make_tensor_descriptor %base, [%m, %n], [%s, %c1] : !tile.ptr<f16>, !tile.tensordesc<tensor<64x64xf16>>`
  }];
  let arguments = (ins Tile_PtrType:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides,
                       DefaultValuedAttr<Tile_PaddingOptionAttr,
                                         "::mlir::tile::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs Tile_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` (`padding` `=` $padding^)? attr-dict
    `:` qualified(type($base)) `,` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorLoadOp : Tile_Op<"descriptor_load", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>]>]> {
  let summary = "Load the block at `indices` of a tensor descriptor";
  let description = [{
    Lanes outside the described tensor read the descriptor's padding.

    Example: `%t = tile.descriptor_load %d[%i, %j] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>`
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$indices,
                       OptionalAttr<Tile_CacheModifierAttr>:$cache,
                       OptionalAttr<Tile_EvictionPolicyAttr>:$evict);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorStoreOp : Tile_Op<"descriptor_store", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Store a block at `indices` of a tensor descriptor";
  let description = [{
    Lanes outside the described tensor are not written.

    Example: `tile.descriptor_store %d[%i, %j], %t : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>`
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Tile_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorReduceOp : Tile_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Atomically combine a block into a tensor descriptor";
  let description = [{
    `*dst = kind(*dst, src)` per in-bounds lane (desc.atomic_add and friends).

    Example: `tile.descriptor_reduce add, %d[%i, %j], %t : !tile.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>`
  }];
  let arguments = (ins Tile_DescriptorReduceKindAttr:$kind,
                       Tile_TensorDescType:$desc, Tile_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorGatherOp : Tile_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>]>]> {
  let summary = "Gather rows `x_offsets` of a 2-D descriptor from column `y_offset`";
  let description = [{
    The result has one row per entry of `x_offsets`; its width is the
    descriptor block's.

    Example: `%t = tile.descriptor_gather %d[%rows, %col] : (!tile.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> tensor<8x64xf16>`
  }];
  let arguments = (ins Tile_TensorDescType:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorScatterOp : Tile_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Scatter rows of `src` to rows `x_offsets`, column `y_offset`";
  let description = [{
    Example: `tile.descriptor_scatter %d[%rows, %col], %t : !tile.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, tensor<8x64xf16>`
  }];
  let arguments = (ins Tile_TensorDescType:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
                       Tile_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($x_offsets) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Per-element code
//===----------------------------------------------------------------------===//

def Tile_MapElementwiseOp : Tile_Op<"map_elementwise", [RecursiveMemoryEffects,
    SameOperandsAndResultShape]> {
  let summary = "Apply a scalar region to every element (tl.map_elementwise)";
  let description = [{
    The region takes one scalar per operand (`pack` consecutive elements of
    each when `pack` > 1) and yields one scalar per result with
    `tile.map_elementwise.return`; it may branch.

    Example:
    ```
    %r = tile.map_elementwise(%x) pack = 1 {
    ^bb0(%a: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %a, %z : f32
      tile.map_elementwise.return %m : f32
    } : (tensor<64xf32>) -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<Tile_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let assemblyFormat = [{
    `(` $srcs `)` `pack` `=` $pack $scalarOp attr-dict `:` functional-type($srcs, $result)
  }];
  let hasRegionVerifier = 1;
}

def Tile_MapElementwiseReturnOp : Tile_Op<"map_elementwise.return",
    [HasParent<"MapElementwiseOp">, Pure, Terminator]> {
  let summary = "Yield the scalars of a map_elementwise region";
  let description = [{ Example: `tile.map_elementwise.return %m : f32` }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Debug and synchronization
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Print values from every program (device_print)";
  let description = [{
    One line per element: `pid (x, y, z) idx (i, j) prefix value`.
    `isSigned` says, per operand, whether integers print as signed.

    Example: `tile.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<16xi32>`
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<Tile_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Stop the kernel when a lane's condition is false";
  let description = [{
    The op's location gives the file and line reported.

    Example: `tile.assert %c, "index out of range" : tensor<64xi1>`
  }];
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_AssumeOp : Tile_Op<"assume", []> {
  let summary = "The user promises a condition holds";
  let description = [{ Example: `tile.assume %c` }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def Tile_BarrierOp : Tile_Op<"barrier",
    [MemoryEffects<[MemRead<Tile_GlobalMemory>, MemWrite<Tile_GlobalMemory>]>]> {
  let summary = "Synchronize the threads of a program (debug_barrier)";
  let description = [{ Example: `tile.barrier` }];
  let assemblyFormat = "attr-dict";
}

#endif // TILE_OPS

//===- TileTypes.td - tile dialect types and constraints ---*- tablegen -*-===//
//
// `!tile.ptr<T>` and the type constraints the ops are declared with.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TYPES
#define TILE_TYPES

include "ir/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to a global-memory element";
  let description = [{
    A pointer to one element of type `T` in global memory. Tensors of
    pointers (`tensor<128x!tile.ptr<f32>>`) address a whole tile.

    Example: `!tile.ptr<f16>`
  }];
  let parameters = (ins "Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

def Tile_TensorDescType : Tile_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "Descriptor of a strided global tensor, read and written in blocks";
  let description = [{
    Made by `tile.make_tensor_descriptor`; `blockType` is the tile one
    descriptor access moves (a TMA box on Hopper).

    Example: `!tile.tensordesc<tensor<64x64xf16>>`
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

// Element types Triton kernels compute with. Integers are signless: the
// frontend tracks signedness and picks signed or unsigned operations.
def Tile_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3B11FNUZ, F8E4M3FNUZ,
                            F8E5M2FNUZ, F16, BF16, F32, F64], "floating-point">;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;

def Tile_FloatTensor : RankedTensorOf<[Tile_Float]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_PtrType]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;

def Tile_FloatLike : AnyTypeOf<[Tile_Float, Tile_FloatTensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def Tile_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_BoolTensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_PtrType, Tile_PtrTensor]>;

def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int, Tile_PtrType]>;
def Tile_Tensor : RankedTensorOf<[Tile_Float, Tile_Int, Tile_PtrType]>;
def Tile_Type : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILE_TYPES

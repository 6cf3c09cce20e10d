//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
//
// The dialect every tritium stage shares: the frontend emits it, the
// interpreter executes it, codegen lowers it. Values are builtin scalars,
// builtin ranked tensors of scalars, and `!tile.ptr<T>` (scalar or tensor).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DIALECT
#define TILE_DIALECT

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level (tile) operations of Triton kernels";
  let description = [{
    One program of a kernel works on whole tiles: ranked tensors whose shapes
    are compile-time powers of two. The dialect models Triton's `tt` dialect:
    program ids, ranges, shape operations, pointer arithmetic, masked memory
    access, dot products, reductions and scans with combine regions,
    atomics, and debug operations. Elementwise arithmetic is `arith`/`math`,
    control flow is `scf`, calls are `func`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TILE_DIALECT

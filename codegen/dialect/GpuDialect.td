//===- GpuDialect.td - the tgpu dialect --------------------*- tablegen -*-===//
//
// The GPU level of the code generator: tile IR whose tensor types carry
// their layout as the type's encoding, plus the ops that only exist on a
// GPU (shared-memory slots, asynchronous copies, TMA, mbarriers, layout
// conversions). The frontend and the interpreter never see it.
//
//===----------------------------------------------------------------------===//
#ifndef TGPU_DIALECT
#define TGPU_DIALECT

include "mlir/IR/OpBase.td"

def TGpu_Dialect : Dialect {
  let name = "tgpu";
  let cppNamespace = "::mlir::tgpu";
  let summary = "Tile IR with thread layouts, as one GPU program runs it";
  let description = [{
    A tensor value of this level says in its type how its elements are
    spread over the registers, lanes and warps of a program (a distributed
    encoding), or where it sits in shared memory (a shared encoding). Every
    encoding is one linear map over GF(2) (codegen/layouts/LinearLayout.h);
    the named ones (`blocked`, `slice`, `mma`, `dot_op`, `shared`) are the
    forms the passes build, `linear` is any other map.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

#endif // TGPU_DIALECT

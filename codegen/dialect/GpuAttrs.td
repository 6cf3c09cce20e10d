//===- GpuAttrs.td - layout encodings of the tgpu dialect --*- tablegen -*-===//
//
// Tensor encodings. Each one names a linear map from (register, lane, warp)
// bits to tensor coordinates, given the tensor's shape
// (tgpu::toLinearLayout); `shared` says how a tile sits in shared memory
// (tgpu::toSharedLayout). All print as `<{key = value, ...}>`.
//
//===----------------------------------------------------------------------===//
#ifndef TGPU_ATTRS
#define TGPU_ATTRS

include "codegen/dialect/GpuDialect.td"
include "mlir/IR/AttrTypeBase.td"

class TGpu_Attr<string name, string attrMnemonic> : AttrDef<TGpu_Dialect, name> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
}

def TGpu_BlockedEncodingAttr : TGpu_Attr<"BlockedEncoding", "blocked"> {
  let summary = "Contiguous runs per thread, lanes and warps tiling the tensor";
  let description = [{
    Each thread holds `sizePerThread` contiguous elements per dimension; a
    warp's lanes tile `threadsPerWarp`, the program's warps `warpsPerCTA`;
    `order` lists dimensions from fastest to slowest. A tensor larger than
    that tile repeats it in registers; a smaller one is replicated.

    Example: `#tgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let genVerifyDecl = 1;
}

def TGpu_SliceEncodingAttr : TGpu_Attr<"SliceEncoding", "slice"> {
  let summary = "A parent layout with one dimension removed";
  let description = [{
    The layout of a reduction's result (or of a row that expand_dims makes
    into a tile of `parent`): dimension `dim` of the parent is gone, the
    threads that held it hold replicas.

    Example: `#tgpu.slice<{dim = 1, parent = #tgpu.blocked<{...}>}>`
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
}

def TGpu_MmaEncodingAttr : TGpu_Attr<"MmaEncoding", "mma"> {
  let summary = "The accumulator of tensor-core products";
  let description = [{
    `version = 2`: mma.sync m16n8, warps tiling [M, N] as `warpsPerCTA`;
    for a batched (3-D) product `warpsPerCTA` is [batch, M, N]: the warps
    of [M, N] tile each batch entry, the batch warps take consecutive
    entries, and the entries left repeat in registers.
    `version = 3`: wgmma (sm_90), warpgroups of four warps tiling M by 64
    rows first, then N; `warpsPerCTA` counts warps ([4 * groups along M,
    groups along N]).

    Example: `#tgpu.mma<{version = 3, warpsPerCTA = [8, 1]}>`
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let genVerifyDecl = 1;
}

def TGpu_DotOperandEncodingAttr : TGpu_Attr<"DotOperandEncoding", "dot_op"> {
  let summary = "An operand of a tensor-core product, in registers";
  let description = [{
    Operand `opIdx` (0: A, [M, K]) of a product whose accumulator is
    `parent`, held in the registers the instruction reads.

    Example: `#tgpu.dot_op<{opIdx = 0, parent = #tgpu.mma<{...}>}>`
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent);
  let genVerifyDecl = 1;
}

def TGpu_LinearEncodingAttr : TGpu_Attr<"LinearEncoding", "linear"> {
  let summary = "Any distributed layout, by the basis vectors of its map";
  let description = [{
    Bit b of the register (lane, warp) index moves to the coordinate
    `register[b]` (`lane[b]`, `warp[b]`); an element's coordinate is the
    XOR of the vectors of its set bits. A zero vector is a replicated bit.

    Example: `#tgpu.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]]}>`
  }];
  let parameters = (ins "::mlir::ArrayAttr":$registerBases,
                        "::mlir::ArrayAttr":$laneBases,
                        "::mlir::ArrayAttr":$warpBases);
}

def TGpu_SharedEncodingAttr : TGpu_Attr<"SharedEncoding", "shared"> {
  let summary = "A tile in shared memory, read there by its users";
  let description = [{
    Rows (the leading dimensions) of `swizzle` bytes per column block, the
    16-byte chunks of each row XORed with the row's bits, as wgmma, TMA and
    ldmatrix read them; `swizzle = 0` is row-major with `pad` elements
    after each row. `transposed`: a 2-D tile stored [cols, rows].

    Example: `#tgpu.shared<{swizzle = 128, pad = 0, transposed = false}>`
  }];
  let parameters = (ins "unsigned":$swizzle, "unsigned":$pad, "bool":$transposed);
  let genVerifyDecl = 1;
}

#endif // TGPU_ATTRS

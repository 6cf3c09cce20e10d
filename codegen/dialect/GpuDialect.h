//===- GpuDialect.h - the tgpu dialect, its encodings and ops ---*- C++ -*-===//
//
// The GPU level of the code generator (GpuDialect.td): layout encodings on
// tensor types and the GPU-only ops. toLinearLayout / toSharedLayout turn
// an encoding into the map the lowering works with; linearEncoding goes the
// other way.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_DIALECT_GPUDIALECT_H
#define TRITIUM_CODEGEN_DIALECT_GPUDIALECT_H

#include "codegen/layouts/LinearLayout.h"
#include "codegen/layouts/SharedLayout.h"
#include "ir/TileDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <optional>

#include "codegen/dialect/GpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "codegen/dialect/GpuAttrs.h.inc"

#define GET_OP_CLASSES
#include "codegen/dialect/GpuOps.h.inc"

namespace mlir::tgpu {

/// The distributed layout `encoding` gives a tensor of `shape`; none for a
/// shared encoding, a missing one, or one that does not fit the shape
/// (`why` then says how, when given).
std::optional<tritium::codegen::LinearLayout>
toLinearLayout(Attribute encoding, ArrayRef<int64_t> shape, unsigned lanesPerWarp = 32,
               std::string *why = nullptr);
/// How a tile of `type` with a `#tgpu.shared` encoding sits in shared
/// memory (rows: the leading dimensions; transposed: [cols, rows]).
std::optional<tritium::codegen::SharedLayout> toSharedLayout(Type tensorType);

/// `#tgpu.linear` for `layout`.
LinearEncodingAttr linearEncoding(MLIRContext *ctx, const tritium::codegen::LinearLayout &layout);
/// `#tgpu.blocked` with the parameters of `p`.
BlockedEncodingAttr blockedEncoding(MLIRContext *ctx,
                                    const tritium::codegen::BlockedParams &p);
/// `type` (a ranked tensor) with encoding `encoding`.
RankedTensorType withEncoding(Type type, Attribute encoding);

/// Adds tgpu (and the tile dialects it builds on) to a registry.
void registerGpuDialect(DialectRegistry &registry);

} // namespace mlir::tgpu

#endif // TRITIUM_CODEGEN_DIALECT_GPUDIALECT_H

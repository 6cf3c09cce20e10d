//===- TileDialect.h - the tile dialect, its types and ops ------*- C++ -*-===//
//
// The one header every other stage includes to see the tile dialect: the
// dialect class, `!tile.ptr`, the enums and every op. `registerTileDialects`
// adds the tile dialect and everything the frontend emits besides it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_TILEDIALECT_H
#define TRITIUM_IR_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/TileDialect.h.inc"
#include "ir/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/TileTypes.h.inc"

namespace mlir::tile {

/// The side-effect resource of global memory (loads, stores, atomics, print).
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// The program's shared memory (asynchronous staging on GPUs).
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

/// `!tile.ptr<T>` -> T; `tensor<S x !tile.ptr<T>>` -> `tensor<S x T>`.
Type getPointeeTypeLike(Type ptrLike);
/// T -> i1; `tensor<S x T>` -> `tensor<S x i1>`.
Type getI1TypeLike(Type type);
/// T -> `!tile.ptr<T>`, elementwise over tensors.
Type getPointerTypeLike(Type elementLike);
/// A type with `like`'s shape (or scalar) and element type `element`.
Type withElementType(Type like, Type element);

/// Marks the op of a value that starts a loop-carried slot and is never
/// read (tile-flatten-loops' placeholders): analyses may assume anything
/// of it.
inline constexpr llvm::StringLiteral kPlaceholderAttr = "tile.placeholder";

/// "[64x32]": a shape in verifier messages.
std::string shapeStr(ArrayRef<int64_t> shape);

/// Adds tile, arith, math, scf, func (with its inliner) and cf (branches in
/// map_elementwise bodies) to a registry.
void registerTileDialects(DialectRegistry &registry);

} // namespace mlir::tile

#define GET_OP_CLASSES
#include "ir/TileOps.h.inc"

#endif // TRITIUM_IR_TILEDIALECT_H

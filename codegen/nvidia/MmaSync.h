//===- MmaSync.h - tl.dot on mma.sync (sm_80+) --------------------------===//
//
// The tensor-core lowerings of tile.dot before wgmma (and for what wgmma
// does not take): nvidia/MmaSyncToLLVM.cpp. DotToLLVM.cpp decides which
// path a product takes and holds the FMA path.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVIDIA_MMASYNC_H
#define TRITIUM_CODEGEN_NVIDIA_MMASYNC_H

#include "codegen/Lowering.h"

#include "ir/TileDialect.h"

namespace tritium::codegen {

/// fp32 rounded to tf32 (10 mantissa bits), round to nearest even; NaN and
/// infinity pass through.
llvm::Value *roundTf32(Lowering &L, llvm::Value *x);
/// The PTX name of an 8-bit operand type of mma.sync.m16n8k32 (e4m3, e5m2,
/// s8), or null.
const char *mma8BitType(mlir::Type t);

/// fp16/bf16 operands (m16n8k16), read from shared memory with ldmatrix or
/// A from the registers of its fragment.
mlir::LogicalResult dotMma(Lowering &L, mlir::tile::DotOp op);
/// fp32 operands at tf32 or tf32x3 precision (m16n8k8).
mlir::LogicalResult dotMmaTf32(Lowering &L, mlir::tile::DotOp op);
/// fp64 operands (DMMA).
mlir::LogicalResult dotMmaF64(Lowering &L, mlir::tile::DotOp op);
/// int8 and fp8 operands (m16n8k32).
mlir::LogicalResult dotMma8Bit(Lowering &L, mlir::tile::DotOp op);

} // namespace tritium::codegen

#endif

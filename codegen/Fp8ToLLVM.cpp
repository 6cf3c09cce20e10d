//===- Fp8ToLLVM.cpp - fp8 conversions on the GPU ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

using namespace tritium::codegen;
llvm::Value *tritium::codegen::emitFp8Convert(Lowering &, llvm::Value *, mlir::Type,
                                             mlir::Type, bool) {
  return nullptr;
}


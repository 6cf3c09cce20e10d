//===- MemoryAccess.h - what global and shared accesses share -------------===//
//
// Helpers of the memory lowerings (MemoryToLLVM.cpp, SharedToLLVM.cpp): how
// wide a thread's vector accesses are, and a value's registers in the
// layout an access runs in.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_MEMORYACCESS_H
#define TRITIUM_CODEGEN_MEMORYACCESS_H

#include "codegen/Lowering.h"

#include <vector>

namespace tritium::codegen::mem {

/// Bits an element of `et` takes in a vector access (bools a byte,
/// pointers 64).
unsigned elemBitsOf(llvm::Type *et);

/// Elements per vector access along `dim` (consecutive registers of
/// `layout` that are consecutive in memory), capped at 128 bits and at what
/// the axis analysis proves of `ptr` and `mask`; a power of two.
unsigned vectorWidth(Lowering &L, const LinearLayout &layout, mlir::Value ptr,
                     mlir::Value mask, llvm::Type *et, unsigned dim);

/// The LLVM type `ptr` (a pointer or a tensor of pointers) points to.
llvm::Type *pointeeType(Lowering &L, mlir::Value ptr);

/// Registers of `v` (tensor in `layout`, or a scalar repeated).
std::vector<llvm::Value *> regsIn(Lowering &L, mlir::Value v, const LayoutRef &layout);

} // namespace tritium::codegen::mem

#endif

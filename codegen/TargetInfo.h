//===- TargetInfo.h - What the lowering asks of a GPU target --------------===//
//
// The lowering is written once; everything vendor-specific it needs is a
// virtual call here: special registers, barriers, warp shuffles, printf and
// assert, the data layout, and turning the final LLVM module into assembly
// and a loadable binary. nvidia/ implements it for NVPTX, amd/ for AMDGPU.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TARGETINFO_H
#define TRITIUM_CODEGEN_TARGETINFO_H

#include "llvm/IR/IRBuilder.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace tritium::codegen {

class TargetInfo {
public:
  virtual ~TargetInfo() = default;

  /// e.g. "cuda:90".
  virtual std::string name() const = 0;
  virtual unsigned warpSize() const { return 32; }
  /// NVIDIA (PTX): global accesses, conversions and math go through PTX
  /// instructions; elsewhere through LLVM's own operations.
  virtual bool isNvidia() const { return true; }
  /// Address spaces of global and shared memory.
  virtual unsigned globalAddrSpace() const = 0;
  virtual unsigned sharedAddrSpace() const = 0;

  virtual llvm::Value *threadIdX(llvm::IRBuilderBase &b) = 0;
  virtual llvm::Value *programId(llvm::IRBuilderBase &b, unsigned axis) = 0;
  virtual llvm::Value *numPrograms(llvm::IRBuilderBase &b, unsigned axis) = 0;
  /// A barrier across the program's threads (with shared memory ordering).
  virtual void barrier(llvm::IRBuilderBase &b) = 0;
  /// A barrier among the first `threads` threads (named barrier `id`).
  virtual void barrier(llvm::IRBuilderBase &b, unsigned id, unsigned threads) = 0;
  /// value from the lane `lane ^ mask` (32-bit values).
  virtual llvm::Value *shuffleXor(llvm::IRBuilderBase &b, llvm::Value *v,
                                  unsigned mask) = 0;
  /// `v`, a value equal in every lane of a warp, in a form the assembler
  /// knows to be so (it can then live in the warp's uniform registers).
  virtual llvm::Value *warpUniform(llvm::IRBuilderBase &, llvm::Value *v) { return v; }
  /// Whether warps can store 8x8 matrices of 16-bit elements to shared
  /// memory in one instruction from the tensor-core fragment layout
  /// (stmatrix, sm_90).
  virtual bool hasStmatrix() const { return false; }
  /// printf(format, args...) on the device.
  virtual void printf(llvm::IRBuilderBase &b, llvm::StringRef format,
                      llvm::ArrayRef<llvm::Value *> args) = 0;
  /// Report a failed assertion and stop the kernel.
  virtual void assertFail(llvm::IRBuilderBase &b, llvm::StringRef message,
                          llvm::StringRef file, unsigned line,
                          llvm::StringRef function) = 0;
  /// Marks `fn` as a kernel launched with `numThreads` threads, using at
  /// most `maxRegisters` registers per thread (0: no limit).
  virtual void markKernel(llvm::Function *fn, unsigned numThreads,
                          unsigned maxRegisters) = 0;
  /// Triple and data layout for new modules.
  virtual void configureModule(llvm::Module &m) = 0;
};

std::unique_ptr<TargetInfo> createNvidiaTargetInfo(unsigned computeCapability);

} // namespace tritium::codegen

#endif

// The lowering's IR builder folds identities by looking at operands only.
#include "codegen/Lowering.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <catch2/catch.hpp>

using tritium::codegen::IdentityFolder;

TEST_CASE("identity folder: x + 0 and friends are x", "[codegen]") {
  llvm::LLVMContext ctx;
  llvm::Module m("m", ctx);
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(i32, {i32, i32}, false),
                                    llvm::Function::ExternalLinkage, "f", m);
  llvm::IRBuilder<IdentityFolder> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::Value *x = fn->getArg(0), *y = fn->getArg(1);
  auto *zero = b.getInt32(0), *one = b.getInt32(1), *ones = b.getInt32(-1);
  CHECK(b.CreateAdd(x, zero) == x);
  CHECK(b.CreateAdd(zero, x) == x);
  CHECK(b.CreateOr(x, zero, "", /*IsDisjoint=*/true) == x);
  CHECK(b.CreateXor(x, zero) == x);
  CHECK(b.CreateSub(x, zero) == x);
  CHECK(b.CreateShl(x, zero) == x);
  CHECK(b.CreateLShr(x, zero) == x);
  CHECK(b.CreateMul(one, x) == x);
  CHECK(b.CreateUDiv(x, one) == x);
  CHECK(b.CreateAnd(x, ones) == x);
  // Constants still fold; everything else is created.
  CHECK(b.CreateAdd(one, one) == b.getInt32(2));
  CHECK(llvm::isa<llvm::Instruction>(b.CreateAdd(x, one)));
  CHECK(llvm::isa<llvm::Instruction>(b.CreateSub(zero, x)));
  CHECK(llvm::isa<llvm::Instruction>(b.CreateAnd(x, y)));
}

TEST_CASE("identity folder: no reasoning through a loop's unfinished phi", "[codegen]") {
  // A loop's accumulator phi has only its entry edge (0.0) while the body
  // is built; acc + x must stay an add, not become x.
  llvm::LLVMContext ctx;
  llvm::Module m("m", ctx);
  auto *f32 = llvm::Type::getFloatTy(ctx);
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(f32, {f32}, false),
                                    llvm::Function::ExternalLinkage, "g", m);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  auto *body = llvm::BasicBlock::Create(ctx, "body", fn);
  llvm::IRBuilder<IdentityFolder> b(entry);
  b.CreateBr(body);
  b.SetInsertPoint(body);
  llvm::PHINode *acc = b.CreatePHI(f32, 2);
  acc->addIncoming(llvm::ConstantFP::get(f32, 0.0), entry);
  llvm::Value *sum = b.CreateFAdd(acc, fn->getArg(0));
  CHECK(llvm::isa<llvm::Instruction>(sum));
  llvm::PHINode *i = nullptr;
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  i = b.CreatePHI(i32, 2);
  i->addIncoming(b.getInt32(0), entry);
  CHECK(llvm::isa<llvm::Instruction>(b.CreateAdd(i, b.getInt32(1))));
  CHECK(b.CreateAdd(i, b.getInt32(0)) == i);
}

//===- DescriptorToLLVM.cpp - tensor descriptors on the GPU ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

using namespace tritium::codegen;
void tritium::codegen::populateDescriptorHandlers(HandlerTable &) {}


//===- SortToLLVM.cpp - tile.sort on the GPU ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

using namespace tritium::codegen;
void tritium::codegen::populateSortHandlers(HandlerTable &) {}


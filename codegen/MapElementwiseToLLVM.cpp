//===- MapElementwiseToLLVM.cpp - tile.map_elementwise on the GPU ---===//
//
// (being written)
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

using namespace tritium::codegen;
void tritium::codegen::populateMapHandlers(HandlerTable &) {}


//===- Types.cpp - the host API's element types and values ----------------===//
//
// Element type names and sizes, fp16/bf16 conversions, buffer arguments,
// constexpr literals and the CUDA and HIP availability queries of the public C++ API
// (runtime/Tritium.h).
//
//===----------------------------------------------------------------------===//
#include "runtime/Tritium.h"

#include "runtime/CudaLaunch.h"
#include "runtime/HipLaunch.h"
#include "runtime/Specialize.h"

#include <cstdio>

using namespace tritium;


const char *tritium::dtypeName(DType t) {
  switch (t) {
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::U8: return "u8";
  case DType::U16: return "u16";
  case DType::U32: return "u32";
  case DType::U64: return "u64";
  case DType::F16: return "fp16";
  case DType::BF16: return "bf16";
  case DType::F32: return "fp32";
  case DType::F64: return "fp64";
  case DType::F8E4NV: return "fp8e4nv";
  case DType::F8E5: return "fp8e5";
  case DType::F8E4B15: return "fp8e4b15";
  case DType::F8E4B8: return "fp8e4b8";
  case DType::F8E5B16: return "fp8e5b16";
  }
  return "?";
}

size_t tritium::dtypeBytes(DType t) {
  switch (t) {
  case DType::I1: case DType::I8: case DType::U8: return 1;
  case DType::F8E4NV: case DType::F8E5: case DType::F8E4B15:
  case DType::F8E4B8: case DType::F8E5B16: return 1;
  case DType::I16: case DType::U16: case DType::F16: case DType::BF16: return 2;
  case DType::I32: case DType::U32: case DType::F32: return 4;
  case DType::I64: case DType::U64: case DType::F64: return 8;
  }
  return 1;
}

uint16_t tritium::toHalf(float f) { return rt::floatToHalf(f); }
float tritium::fromHalf(uint16_t bits) { return rt::halfToFloat(bits); }
uint16_t tritium::toBf16(float f) { return rt::floatToBf16(f); }
float tritium::fromBf16(uint16_t bits) { return rt::bf16ToFloat(bits); }

bool tritium::cudaAvailable(std::string *why) { return rt::cudaAvailable(why); }

bool tritium::hipAvailable(std::string *why) { return rt::hipAvailable(why); }

std::optional<int> tritium::cudaDeviceAttribute(int attribute,
                                                std::string *why) {
  return rt::cudaDeviceAttribute(attribute, why);
}

Arg tritium::buffer(void *data, size_t bytes, DType dtype) {
  Arg a;
  a.kind = Arg::Buffer;
  a.data = data;
  a.bytes = bytes;
  a.dtype = dtype;
  return a;
}

Constexpr::Constexpr(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  text_ = buf;
  if (text_.find_first_of(".eni") == std::string::npos)
    text_ += ".0";
}

//===- FuzzNpy.cpp - the .npy reader (tritium run's --arg x=FILE.npy) -----===//
//
// Any bytes: an array or an error message, never a crash; an array that
// parses is written back and reads again the same.
//
//===----------------------------------------------------------------------===//
#include "fuzz/Finding.h"

#include "runtime/Npy.h"

#include <cstdint>

using namespace tritium;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rt::NpyArray a;
  if (rt::parseNpy("x.npy", data, size, a))
    return 0;
  std::string bytes = rt::serializeNpy(a);
  rt::NpyArray b;
  if (auto e = rt::parseNpy("again.npy", reinterpret_cast<const uint8_t *>(bytes.data()),
                            bytes.size(), b))
    fuzz::finding("npy", "an array read from the input does not read back: " + *e);
  if (a.dtype != b.dtype || a.shape != b.shape || a.data != b.data)
    fuzz::finding("npy", "an array read from the input reads back different");
  return 0;
}

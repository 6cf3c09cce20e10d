//===- SharedLayout.cpp - How a tile sits in shared memory -----------------===//
#include "codegen/layouts/SharedLayout.h"

#include <cassert>

using namespace tritium::codegen;

namespace {
bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
} // namespace

std::optional<unsigned> SharedLayout::swizzleFor(int64_t rows, int64_t cols,
                                                 unsigned elemBytes) {
  if (!isPow2(rows) || !isPow2(cols) || rows % 8 || !isPow2(elemBytes))
    return std::nullopt;
  int64_t rowBytes = cols * elemBytes;
  for (unsigned s : {128u, 64u, 32u})
    if (rowBytes % s == 0)
      return s;
  return std::nullopt;
}

SharedLayout SharedLayout::swizzled(int64_t rows, int64_t cols, unsigned elemBytes,
                                    unsigned swizzleBytes) {
  SharedLayout l;
  l.rows = rows, l.cols = cols, l.elemBytes = elemBytes, l.swizzleBytes = swizzleBytes;
  return l;
}

SharedLayout SharedLayout::padded(int64_t rows, int64_t cols, unsigned elemBytes,
                                  unsigned pad) {
  SharedLayout l;
  l.rows = rows, l.cols = cols, l.elemBytes = elemBytes, l.pad = pad;
  return l;
}

SharedLayout SharedLayout::best(int64_t rows, int64_t cols, unsigned elemBytes,
                                unsigned pad) {
  if (auto s = swizzleFor(rows, cols, elemBytes))
    return swizzled(rows, cols, elemBytes, *s);
  return padded(rows, cols, elemBytes, pad);
}

int64_t SharedLayout::bytes() const {
  if (isSwizzled())
    return rows * cols * elemBytes;
  return rows * (cols + pad) * elemBytes;
}

int64_t SharedLayout::byteOffset(int64_t row, int64_t col) const {
  if (!isSwizzled())
    return (row * (cols + pad) + col) * elemBytes;
  int64_t block = col / blockCols();
  int64_t o = row * swizzleBytes + (col % blockCols()) * elemBytes;
  o ^= ((o >> 7) & (swizzleBytes / 16 - 1)) << 4;
  return block * blockBytes() + o;
}

LinearLayout SharedLayout::toLinear() const {
  assert(isSwizzled() && "only the swizzled form is linear");
  // The swizzle is an involution (it changes bits 4.. of the offset from
  // bits 7..), so the element at offset p is the unswizzled p ^ f(p).
  std::vector<Coord> reg;
  int64_t elems = rows * cols;
  for (int64_t e = 1; e < elems; e *= 2) {
    int64_t p = e * elemBytes;
    int64_t o = p ^ (((p >> 7) & (swizzleBytes / 16 - 1)) << 4);
    int64_t block = o / blockBytes(), within = o % blockBytes();
    reg.push_back({within / swizzleBytes,
                   block * blockCols() + (within % swizzleBytes) / elemBytes});
  }
  return LinearLayout({rows, cols}, reg, {}, {});
}

std::string SharedLayout::str() const {
  std::string s = "shared<[" + std::to_string(rows) + ", " + std::to_string(cols) +
                  "] x" + std::to_string(elemBytes) + "B ";
  if (isSwizzled())
    s += "swizzle=" + std::to_string(swizzleBytes);
  else
    s += "pad=" + std::to_string(pad);
  return s + ">";
}

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
  // 8-byte elements (fp64 products' operands, read as 4 rows x 32 bytes a
  // half warp: A's 4 rows x 4 k, B's 4 k x 4 columns) go in rows padded to
  // 32 bytes past a multiple of 128, where those four runs fill the banks
  // once; no 16-byte swizzle keeps them apart. Whole rows (cp.async, row
  // stores) stay conflict-free.
  if (elemBytes == 8)
    return padded(rows, cols, elemBytes, unsigned((4 - cols % 16 + 15) % 16 + 1));
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

SharedLayout::RegisterTerm SharedLayout::registerTerm(const LinearLayout &from,
                                                     unsigned reg, bool transposed) const {
  int64_t width = from.shape().back();
  // (row, col) here of a coordinate of `from`. Shapes are powers of two, so
  // this map, like the swizzled offset, is linear over GF(2): the offset of
  // (reg, lane, warp) is that of (0, lane, warp) combined with that of
  // (reg, 0, 0).
  auto place = [&](const Coord &c) -> std::pair<int64_t, int64_t> {
    if (transposed)
      return {c[1], c[0]};
    int64_t lin = 0;
    for (unsigned d = 0; d < from.rank(); ++d)
      lin = lin * from.shape()[d] + c[d];
    return {lin / width, lin % width};
  };
  auto [regRow, regCol] = place(from.applyOne(LinearLayout::Reg, reg));
  // Bits the thread part can set, in (row, col) and in the offset.
  int64_t rowBits = 0, colBits = 0, offsetBits = 0;
  for (auto d : {LinearLayout::Lane, LinearLayout::Warp})
    for (const Coord &basis : from.bases(d)) {
      auto [r, c] = place(basis);
      rowBits |= r;
      colBits |= c;
      offsetBits |= byteOffset(r, c);
    }
  int64_t k = byteOffset(regRow, regCol);
  if (isSwizzled() && !(isPow2(rows) && isPow2(cols)))
    return {RegisterTerm::None, 0}; // column blocks apart by a non-power of two
  if (isSwizzled()) // bits the thread never sets: XOR is an add
    return {(k & offsetBits) ? RegisterTerm::Xor : RegisterTerm::Add, k};
  // Padded rows: linear over the integers in (row, col), so a register
  // whose coordinate bits the thread never sets adds a constant.
  if (!(regRow & rowBits) && !(regCol & colBits))
    return {RegisterTerm::Add, k};
  return {RegisterTerm::None, 0};
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

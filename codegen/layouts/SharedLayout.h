//===- SharedLayout.h - How a tile sits in shared memory -------------------===//
//
// A 2-D tile [rows, cols] (rows: the product of the leading dimensions,
// cols contiguous in global memory) in shared memory, in one of two forms:
//
// - swizzled (NVMMA form, what wgmma's matrix descriptors, TMA and ldmatrix
//   read): the columns are cut into blocks of `swizzleBytes` (32, 64 or
//   128); each block is `rows` rows of `swizzleBytes` bytes, stored one
//   after the other; inside a block, byte offset o = row * S + colByte has
//   its 16-byte chunk bits [4, 4 + log2(S/16)) XORed with bits [7, ...) of
//   o. Eight rows make one swizzle atom (S * 8 bytes); any eight
//   consecutive rows read at the same column land in distinct banks.
// - padded: row-major with `pad` elements after each row (for tiles too
//   narrow to swizzle).
//
// Both are linear over GF(2) when the tile's dimensions are powers of two
// and there is no padding: `toLinear` gives the map from the bits of an
// element's offset to its (row, col), a LinearLayout whose register bits
// are the offset bits. Depends on nothing but LinearLayout.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LAYOUTS_SHAREDLAYOUT_H
#define TRITIUM_CODEGEN_LAYOUTS_SHAREDLAYOUT_H

#include "codegen/layouts/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tritium::codegen {

struct SharedLayout {
  int64_t rows = 0, cols = 0;
  unsigned elemBytes = 1;
  unsigned swizzleBytes = 0; ///< 32, 64 or 128; 0: padded row-major
  unsigned pad = 0;          ///< elements after each row (padded form)

  /// The widest swizzle (128, 64 or 32 bytes) that divides a row's bytes,
  /// when rows is a multiple of 8 and rows and cols are powers of two;
  /// none otherwise.
  static std::optional<unsigned> swizzleFor(int64_t rows, int64_t cols, unsigned elemBytes);
  static SharedLayout swizzled(int64_t rows, int64_t cols, unsigned elemBytes,
                               unsigned swizzleBytes);
  static SharedLayout padded(int64_t rows, int64_t cols, unsigned elemBytes, unsigned pad);
  /// Swizzled where swizzleFor allows, else padded by `pad`; 8-byte elements always padded.
  static SharedLayout best(int64_t rows, int64_t cols, unsigned elemBytes, unsigned pad);

  bool isSwizzled() const { return swizzleBytes != 0; }
  /// Columns of one swizzle block.
  int64_t blockCols() const { return swizzleBytes / elemBytes; }
  /// Bytes between consecutive column blocks (swizzled form).
  int64_t blockBytes() const { return rows * swizzleBytes; }
  /// Bytes the tile takes.
  int64_t bytes() const;
  /// Byte offset of element (row, col).
  int64_t byteOffset(int64_t row, int64_t col) const;
  /// The offset-bits -> (row, col) map (swizzled form; register bit i is
  /// bit i of the element index offset / elemBytes).
  LinearLayout toLinear() const;

  /// How the offset of element `reg` of each thread of `from` (a tile of
  /// rows x cols elements; with `transposed`, a 2-D tile whose element
  /// (r, c) sits at (c, r)) relates to the offset of that thread's
  /// register 0: plus `constant` (Add), XOR `constant` (Xor), or neither
  /// (None: padded rows where the register's coordinate bits overlap the
  /// thread's). Lets a thread compute one base and reach its other
  /// registers by immediates.
  struct RegisterTerm {
    enum Kind { Add, Xor, None } kind;
    int64_t constant;
  };
  RegisterTerm registerTerm(const LinearLayout &from, unsigned reg, bool transposed) const;

  bool operator==(const SharedLayout &o) const {
    return rows == o.rows && cols == o.cols && elemBytes == o.elemBytes &&
           swizzleBytes == o.swizzleBytes && pad == o.pad;
  }
  /// e.g. `shared<[64, 256] x2B swizzle=128>` or `shared<[64, 8] x2B pad=8>`.
  std::string str() const;
};

} // namespace tritium::codegen

#endif

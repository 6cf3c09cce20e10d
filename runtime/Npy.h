//===- Npy.h - NumPy .npy files in and out of host memory -------*- C++ -*-===//
//
// Reads NumPy's .npy format (versions 1.0, 2.0 and 3.0) and writes version
// 1.0, for little-endian, C-order arrays of the numeric dtypes Triton uses:
//
//   |b1 (bool)   |i1 <i2 <i4 <i8   |u1 <u2 <u4 <u8   <f2 <f4 <f8
//
// Dtypes numpy does not have are stored as their raw integer views, which is
// what `torch.Tensor.view(torch.int16/uint8)` or ml_dtypes give too:
//   * bfloat16 tensors are written as `<u2` (the 16 raw bits) and a `<u2`
//     (or `<i2`) file is read back as bf16 when the consumer asks for bf16;
//   * every fp8 flavour (e4m3/e4nv, e5m2, e4b15, ...) is written as `|u1`.
// So a .npy never says "bf16" by itself; the consumer (e.g. `tritium run
// --arg x=in.npy:bf16`) says how to view the bits.
//
// Arrays live in a 64-byte aligned allocation: kernels specialize on pointer
// divisibility (`*fp32:16`), so host buffers are always 16-byte divisible.
//
// Errors come back as values: a message naming the file and the reason
// (truncated file, bad magic, Fortran order, big-endian, object or
// unsupported dtypes such as `<c8`).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_NPY_H
#define TRITIUM_RUNTIME_NPY_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tritium::rt {

/// A std::allocator that hands out `Align`-byte aligned storage.
template <typename T, size_t Align> struct AlignedAllocator {
  using value_type = T;
  template <typename U> struct rebind { using other = AlignedAllocator<U, Align>; };
  AlignedAllocator() = default;
  template <typename U> AlignedAllocator(const AlignedAllocator<U, Align> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(Align)));
  }
  void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(Align)); }
  template <typename U> bool operator==(const AlignedAllocator<U, Align> &) const {
    return true;
  }
  template <typename U> bool operator!=(const AlignedAllocator<U, Align> &) const {
    return false;
  }
};

/// Alignment of every host buffer (bytes).
constexpr size_t kBufferAlignment = 64;
using AlignedBytes = std::vector<uint8_t, AlignedAllocator<uint8_t, kBufferAlignment>>;

/// An n-d array in host memory, in C order.
struct NpyArray {
  /// numpy's canonical spelling: "|b1", "|i1", "<i2", ..., "|u1", ...,
  /// "<f2", "<f4", "<f8".
  std::string dtype = "<f4";
  std::vector<int64_t> shape;
  AlignedBytes data;

  /// Bytes per element of `dtype` (0 when the dtype is not supported).
  size_t itemSize() const { return npyItemSize(dtype); }
  /// Product of the shape (1 for a 0-d array).
  size_t numElements() const;
  size_t numBytes() const { return numElements() * itemSize(); }
  /// Sizes `data` for the shape (zero-filled).
  void allocate() { data.assign(numBytes(), 0); }

  static size_t npyItemSize(const std::string &dtype);
};

/// Canonicalizes a descr ("<f4", "=f4", "|u1", "<u1", "bool", "?") to the
/// spelling NpyArray uses; returns an error message for dtypes this module
/// does not support (big-endian, complex, object, strings, datetimes...).
std::optional<std::string> canonicalNpyDtype(const std::string &descr,
                                             std::string &out);

/// Parses the bytes of a .npy file; `name` is used in error messages.
std::optional<std::string> parseNpy(const std::string &name, const uint8_t *bytes,
                                    size_t size, NpyArray &out);

/// Reads a .npy file. Errors start with the path.
std::optional<std::string> readNpy(const std::string &path, NpyArray &out);

/// The bytes of a version 1.0 .npy file holding `array`.
std::string serializeNpy(const NpyArray &array);

/// Writes `array` as a version 1.0 .npy file.
std::optional<std::string> writeNpy(const std::string &path, const NpyArray &array);

/// Writes arrays as an .npz (a zip of NAME.npy entries, stored, as
/// numpy.savez does); np.load(path)[NAME] reads each back.
std::optional<std::string> writeNpz(const std::string &path,
                                    const std::vector<std::pair<std::string, NpyArray>> &arrays);

} // namespace tritium::rt

#endif // TRITIUM_RUNTIME_NPY_H

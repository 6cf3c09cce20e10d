//===- KernelCache.h - compiled kernels on disk -----------------*- C++ -*-===//
//
// Compiling a kernel for the GPU takes far longer than launching it, so
// every stage's output is kept on disk under a key that names everything
// the output depends on:
//
//   KernelCache cache; // TRITIUM_CACHE_DIR, $XDG_CACHE_HOME/tritium or
//                      // ~/.cache/tritium
//   std::string key = KernelCache::makeKey(source, "*fp32:16,i32,1024",
//                                          "num_warps=4,num_stages=3",
//                                          "cuda:90", compilerVersion);
//   std::string why;
//   if (auto entry = cache.lookup(key, &why)) {
//     use(entry->artifacts.at("kernel.cubin"), entry->metadata);
//   } else {
//     CacheEntry e;            // why: "no entry", "kernel.ptx: size ...", ...
//     e.artifacts["kernel.ptx"] = ptx;
//     e.metadata["name"] = "add_kernel";
//     cache.store(key, e);
//   }
//
// An entry is the directory <dir>/<key[0:2]>/<key>/ holding one file per
// artifact and metadata.json, which records each artifact's size and
// SHA-256 and the free-form metadata. Entries are written whole into a
// temporary directory beside their final place and renamed into it, so a
// reader never sees half an entry and concurrent writers (threads or
// processes) of one key leave exactly one. A lookup checks every artifact
// against metadata.json; an entry that fails (truncated, corrupted, edited)
// is a miss and is deleted. TRITIUM_ALWAYS_COMPILE=1 turns every lookup into
// a miss (stores still happen).
//
// Pure C++; shared by the C++ API, the C API and the tools.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_KERNELCACHE_H
#define TRITIUM_RUNTIME_KERNELCACHE_H

#include "runtime/Tritium.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tritium {

/// SHA-256 (FIPS 180-4), incrementally.
class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t bytes);
  void update(const std::string &s) { update(s.data(), s.size()); }
  /// The digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> finish();
  /// Lower-case hex of the digest of `data`.
  static std::string hex(const std::string &data);

private:
  void compress(const uint8_t *block);
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_;
  size_t buffered_ = 0;
  uint64_t totalBytes_ = 0;
};

/// One cache entry's content.
struct CacheEntry {
  /// Artifact file name ("kernel.ptx", "kernel.cubin", "tile.mlir") to
  /// contents (text or binary). Names are plain file names: no '/', not
  /// starting with '.', and not "metadata.json".
  std::map<std::string, std::string> artifacts;
  /// Free-form key/values stored in metadata.json ("name", "num_warps",
  /// "shared"); numbers are kept as their decimal text.
  std::map<std::string, std::string> metadata;
};

/// The metadata value `name` of `entry` as a count (decimal digits only,
/// fitting 64 bits); none when it is missing or anything else, as in a
/// damaged or hostile entry.
std::optional<uint64_t> metadataCount(const CacheEntry &entry, const std::string &name);

class KernelCache {
public:
  /// A cache in `directory` (created on the first store).
  explicit KernelCache(std::string directory);
  /// A cache in defaultDirectory().
  KernelCache();

  /// TRITIUM_CACHE_DIR, else $XDG_CACHE_HOME/tritium, else
  /// $HOME/.cache/tritium (/tmp/tritium-cache without a home).
  static std::string defaultDirectory();

  /// The key of a compilation: hex SHA-256 over the five inputs, each
  /// length-prefixed so no two different tuples share a key.
  static std::string makeKey(const std::string &source,
                             const std::string &specialization,
                             const std::string &options,
                             const std::string &target,
                             const std::string &compilerVersion);

  const std::string &directory() const { return directory_; }
  /// Where the entry for `key` lives (whether or not it exists).
  std::string entryPath(const std::string &key) const;

  /// The verified entry for `key`, or nullopt on a miss with the reason in
  /// `whyMiss`: "no entry", TRITIUM_ALWAYS_COMPILE, or what was wrong with
  /// the entry (which is then removed).
  std::optional<CacheEntry> lookup(const std::string &key,
                                   std::string *whyMiss = nullptr) const;

  /// Writes `entry` under `key` atomically. When an entry for `key` already
  /// exists (another writer won the race) that one is kept and this is not
  /// an error. Errors are I/O failures and invalid names.
  std::optional<Error> store(const std::string &key,
                             const CacheEntry &entry) const;

  /// Deletes the entry for `key`, if any; true if one was there.
  bool remove(const std::string &key) const;

private:
  std::string directory_;
};

} // namespace tritium

#endif // TRITIUM_RUNTIME_KERNELCACHE_H

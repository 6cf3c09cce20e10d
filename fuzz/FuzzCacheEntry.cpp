//===- FuzzCacheEntry.cpp - the kernel cache's entry reader ---------------===//
//
// The input is an entry's metadata.json (truncated, corrupt, hostile: any
// bytes), beside one artifact, kernel.cubin. A lookup gives an entry whose
// artifacts are the files metadata.json lists with their sizes and
// SHA-256, or a miss; a miss on a damaged entry removes it. Every count the
// launcher reads from an entry reads as a count or as nothing.
//
//===----------------------------------------------------------------------===//
#include "fuzz/Finding.h"

#include "runtime/KernelCache.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace tritium;
namespace fs = std::filesystem;

namespace {

const std::string kKey = "fuzzentry0123456789abcdef";
const std::string kCubin = "cubin-bytes";

const KernelCache &cache() {
  static const KernelCache c((fs::temp_directory_path() /
                              ("tritium-fuzz-cache-" + std::to_string(::getpid())))
                                 .string());
  return c;
}

void write(const fs::path &p, const uint8_t *data, size_t size) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fs::path entry = cache().entryPath(kKey);
  std::error_code ec;
  fs::remove_all(entry, ec);
  fs::create_directories(entry, ec);
  write(entry / "metadata.json", data, size);
  write(entry / "kernel.cubin", reinterpret_cast<const uint8_t *>(kCubin.data()), kCubin.size());

  std::string why;
  auto found = cache().lookup(kKey, &why);
  if (!found) {
    if (why.find("entry removed") == std::string::npos)
      fuzz::finding("cache", "a miss on a present entry that is not said to be damaged: " + why);
    if (fs::exists(entry, ec))
      fuzz::finding("cache", "a damaged entry was kept: " + why);
    return 0;
  }
  for (const auto &[name, bytes] : found->artifacts) {
    if (name.empty() || name.find('/') != std::string::npos || name[0] == '.')
      fuzz::finding("cache", "an entry names an artifact outside its directory: " + name);
    if (name == "kernel.cubin" && bytes != kCubin)
      fuzz::finding("cache", "kernel.cubin read back different");
  }
  for (const char *count : {"num_warps", "shared", "global_scratch"})
    (void)metadataCount(*found, count);
  return 0;
}

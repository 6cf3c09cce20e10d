//===- KernelCache.cpp - compiled kernels on disk -------------------------===//
//
// SHA-256 for keys and artifact checksums, the entry layout with its
// metadata.json (read and written with nlohmann::json, exceptions caught
// here), atomic stores by directory rename, and verified lookups.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelCache.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tritium {

//===----------------------------------------------------------------------===//
// SHA-256
//===----------------------------------------------------------------------===//

namespace {

constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

std::string toHex(const std::array<uint8_t, 32> &digest) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

} // namespace

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19},
      buffer_{} {}

void Sha256::compress(const uint8_t *block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 |
           uint32_t(block[4 * i + 2]) << 8 | uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3],
           e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = h + s1 + ch + kRoundConstants[i] + w[i];
    uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(const void *data, size_t bytes) {
  const uint8_t *p = static_cast<const uint8_t *>(data);
  totalBytes_ += bytes;
  if (buffered_) {
    size_t take = std::min(bytes, size_t(64) - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    bytes -= take;
    if (buffered_ < 64)
      return;
    compress(buffer_.data());
    buffered_ = 0;
  }
  for (; bytes >= 64; p += 64, bytes -= 64)
    compress(p);
  std::memcpy(buffer_.data(), p, bytes);
  buffered_ = bytes;
}

std::array<uint8_t, 32> Sha256::finish() {
  // Padding: a 1 bit, zeros up to 56 mod 64 bytes, the bit length (64-bit
  // big endian).
  uint64_t bits = totalBytes_ * 8;
  uint8_t pad[72] = {0x80};
  size_t padBytes = (buffered_ < 56 ? 56 : 120) - buffered_;
  for (int i = 0; i < 8; ++i)
    pad[padBytes + i] = uint8_t(bits >> (56 - 8 * i));
  update(pad, padBytes + 8);
  std::array<uint8_t, 32> out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = uint8_t(state_[i] >> (24 - 8 * j));
  return out;
}

std::string Sha256::hex(const std::string &data) {
  Sha256 h;
  h.update(data);
  return toHex(h.finish());
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

namespace {

constexpr const char *kMetadataFile = "metadata.json";
constexpr int kFormatVersion = 1;

Error cacheError(std::string message) {
  Error e;
  e.message = "kernel cache: " + std::move(message);
  return e;
}

bool validKey(const std::string &key) {
  if (key.size() < 3 || key.size() > 128)
    return false;
  for (char c : key)
    if (!std::isalnum((unsigned char)c) && c != '_' && c != '-')
      return false;
  return true;
}

bool validArtifactName(const std::string &name) {
  return !name.empty() && name[0] != '.' &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos && name != kMetadataFile;
}

bool readFile(const fs::path &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return !in.bad();
}

bool writeFile(const fs::path &path, const std::string &data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), std::streamsize(data.size()));
  out.flush();
  return bool(out);
}

/// A name no other thread or process uses at the same time, for
/// directories that are renamed into or out of place.
std::string uniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  return std::to_string(::getpid()) + "-" +
         std::to_string(
             std::hash<std::thread::id>()(std::this_thread::get_id()) %
             100000) +
         "-" + std::to_string(counter++);
}

/// Removes an entry so that no reader sees it half deleted: rename it out
/// of place first (atomic), then delete the renamed copy.
bool removeEntryDir(const fs::path &entry) {
  std::error_code ec;
  if (!fs::exists(entry, ec))
    return false;
  fs::path doomed = entry.parent_path() / (".del-" + entry.filename().string() +
                                           "-" + uniqueSuffix());
  if (::rename(entry.c_str(), doomed.c_str()) != 0)
    return false; // someone else removed (or replaced) it first
  fs::remove_all(doomed, ec);
  return true;
}

/// Deletes temporary directories that writers or removers left behind in
/// `shard` when they died mid-way. Only old ones: a young one may belong to
/// a store in progress.
void sweepAbandoned(const fs::path &shard) {
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(shard, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(".tmp-", 0) != 0 && name.rfind(".del-", 0) != 0)
      continue;
    std::error_code timeEc;
    auto written = fs::last_write_time(it->path(), timeEc);
    if (!timeEc && now - written > std::chrono::hours(1)) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

bool alwaysCompile() {
  const char *env = std::getenv("TRITIUM_ALWAYS_COMPILE");
  return env && *env && std::strcmp(env, "0") != 0;
}

} // namespace

KernelCache::KernelCache(std::string directory)
    : directory_(std::move(directory)) {}

KernelCache::KernelCache() : KernelCache(defaultDirectory()) {}

std::string KernelCache::defaultDirectory() {
  if (const char *dir = std::getenv("TRITIUM_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/tritium";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tritium";
  return "/tmp/tritium-cache";
}

std::optional<uint64_t> metadataCount(const CacheEntry &entry, const std::string &name) {
  auto it = entry.metadata.find(name);
  if (it == entry.metadata.end() || it->second.empty() || it->second.size() > 20)
    return std::nullopt;
  uint64_t v = 0;
  for (char c : it->second) {
    if (c < '0' || c > '9')
      return std::nullopt;
    uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

std::string KernelCache::makeKey(const std::string &source,
                                 const std::string &specialization,
                                 const std::string &options,
                                 const std::string &target,
                                 const std::string &compilerVersion) {
  Sha256 h;
  for (const std::string *part :
       {&source, &specialization, &options, &target, &compilerVersion}) {
    std::string len = std::to_string(part->size()) + ":";
    h.update(len);
    h.update(*part);
  }
  return toHex(h.finish());
}

std::string KernelCache::entryPath(const std::string &key) const {
  return (fs::path(directory_) / key.substr(0, 2) / key).string();
}

std::optional<CacheEntry> KernelCache::lookup(const std::string &key,
                                              std::string *whyMiss) const {
  auto miss = [&](const std::string &why) -> std::optional<CacheEntry> {
    if (whyMiss)
      *whyMiss = why;
    return std::nullopt;
  };
  if (alwaysCompile())
    return miss("TRITIUM_ALWAYS_COMPILE is set");
  if (!validKey(key))
    return miss("invalid cache key '" + key + "'");
  fs::path entryDir = entryPath(key);
  std::error_code ec;
  if (!fs::is_directory(entryDir, ec))
    return miss("no entry");

  // From here on a problem means the entry is damaged: drop it, so the
  // caller's recompilation can store a good one.
  auto corrupt = [&](const std::string &why) -> std::optional<CacheEntry> {
    removeEntryDir(entryDir);
    return miss(entryDir.string() + ": " + why + " (entry removed)");
  };
  std::string text;
  if (!readFile(entryDir / kMetadataFile, text))
    return corrupt("no readable metadata.json");
  CacheEntry entry;
  std::map<std::string, std::pair<uint64_t, std::string>> expected;
  try {
    nlohmann::json meta = nlohmann::json::parse(text);
    if (meta.at("format").get<int>() != kFormatVersion)
      return corrupt("metadata.json has an unknown format");
    if (meta.at("key").get<std::string>() != key)
      return corrupt("metadata.json belongs to another key");
    for (auto &[name, info] : meta.at("artifacts").items())
      expected[name] = {info.at("size").get<uint64_t>(),
                        info.at("sha256").get<std::string>()};
    for (auto &[k, v] : meta.at("metadata").items())
      entry.metadata[k] = v.get<std::string>();
  } catch (const nlohmann::json::exception &e) {
    return corrupt(std::string("bad metadata.json: ") + e.what());
  }

  for (const auto &[name, sizeAndDigest] : expected) {
    if (!validArtifactName(name))
      return corrupt("metadata.json lists an invalid artifact name '" + name +
                     "'");
    std::string data;
    if (!readFile(entryDir / name, data))
      return corrupt(name + " is missing");
    if (data.size() != sizeAndDigest.first)
      return corrupt(name + " has " + std::to_string(data.size()) +
                     " bytes, metadata.json says " +
                     std::to_string(sizeAndDigest.first));
    if (Sha256::hex(data) != sizeAndDigest.second)
      return corrupt(name + " does not match its SHA-256 in metadata.json");
    entry.artifacts[name] = std::move(data);
  }
  return entry;
}

std::optional<Error> KernelCache::store(const std::string &key,
                                        const CacheEntry &entry) const {
  if (!validKey(key))
    return cacheError("invalid cache key '" + key + "'");
  for (const auto &[name, data] : entry.artifacts)
    if (!validArtifactName(name))
      return cacheError("invalid artifact name '" + name + "'");

  fs::path entryDir = entryPath(key);
  std::error_code ec;
  if (fs::is_directory(entryDir, ec))
    return std::nullopt; // an entry is there already; keep it
  fs::path parent = entryDir.parent_path();
  fs::create_directories(parent, ec);
  if (ec)
    return cacheError("cannot create " + parent.string() + ": " + ec.message());

  // Build the entry beside its final place (same file system, so the
  // rename below is atomic) under a name only this writer uses.
  fs::path tmp = parent / (".tmp-" + key + "-" + uniqueSuffix());
  fs::create_directory(tmp, ec);
  if (ec)
    return cacheError("cannot create " + tmp.string() + ": " + ec.message());
  auto fail = [&](const std::string &why) {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    return cacheError(why);
  };

  nlohmann::json artifacts = nlohmann::json::object();
  for (const auto &[name, data] : entry.artifacts) {
    if (!writeFile(tmp / name, data))
      return fail("cannot write " + (tmp / name).string());
    artifacts[name] = {{"size", data.size()}, {"sha256", Sha256::hex(data)}};
  }
  nlohmann::json metadata = nlohmann::json::object();
  for (const auto &[k, v] : entry.metadata)
    metadata[k] = v;
  nlohmann::json meta = {{"format", kFormatVersion},
                         {"key", key},
                         {"artifacts", artifacts},
                         {"metadata", metadata}};
  std::string text;
  try {
    // Metadata values may come from anywhere; invalid UTF-8 is replaced
    // rather than thrown on.
    text = meta.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
  } catch (const nlohmann::json::exception &e) {
    return fail(std::string("cannot encode metadata.json: ") + e.what());
  }
  if (!writeFile(tmp / kMetadataFile, text))
    return fail("cannot write " + (tmp / kMetadataFile).string());

  if (::rename(tmp.c_str(), entryDir.c_str()) != 0) {
    int err = errno;
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    // Another writer renamed its entry into place first: theirs stays.
    if (err == EEXIST || err == ENOTEMPTY)
      return std::nullopt;
    return cacheError("cannot rename " + tmp.string() + " to " +
                      entryDir.string() + ": " + std::strerror(err));
  }
  sweepAbandoned(parent);
  return std::nullopt;
}

bool KernelCache::remove(const std::string &key) const {
  if (!validKey(key))
    return false;
  return removeEntryDir(entryPath(key));
}

} // namespace tritium

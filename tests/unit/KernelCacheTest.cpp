//===- KernelCacheTest.cpp - the on-disk kernel cache ---------------------===//
//
// SHA-256 against FIPS 180-4 vectors; cache keys; entries stored and found
// again; damaged entries (truncated or altered artifacts, broken
// metadata.json) read as misses and removed; concurrent writers of one key;
// TRITIUM_ALWAYS_COMPILE; the directory chosen from the environment.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelCache.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace tritium;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the system temp dir, removed afterwards.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string tmpl =
        (fs::temp_directory_path() / "tritium-cache-test-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// Sets an environment variable for one scope, restoring it afterwards.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const char *n, const char *value) : name(n) {
    if (const char *v = std::getenv(n))
      old = v;
    if (value)
      ::setenv(n, value, 1);
    else
      ::unsetenv(n);
  }
  ~ScopedEnv() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

CacheEntry sampleEntry() {
  CacheEntry e;
  e.artifacts["tile.mlir"] = "tt.func @add_kernel() { tt.return }\n";
  e.artifacts["kernel.ptx"] = ".version 8.0\n.target sm_90a\n";
  std::string cubin = "\177ELF";
  cubin += std::string("\0\1\2\3\xff", 5);
  cubin += std::string(5000, 'x');
  e.artifacts["kernel.cubin"] = cubin;
  e.metadata["name"] = "add_kernel";
  e.metadata["num_warps"] = "4";
  e.metadata["shared"] = "16384";
  return e;
}

std::string keyOf(const std::string &source) {
  return KernelCache::makeKey(source, "*fp32:16,i32", "num_warps=4", "cuda:90",
                              "tritium-test");
}

void writeText(const fs::path &p, const std::string &text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

} // namespace

TEST_CASE("SHA-256 matches the FIPS 180-4 test vectors", "[cache]") {
  CHECK(Sha256::hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256::hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(
      Sha256::hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(
      Sha256::hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(Sha256::hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Lengths around the 55/56/64-byte padding boundaries agree whether fed
  // at once or in odd pieces.
  for (size_t len : {55, 56, 57, 63, 64, 65, 119, 120, 128}) {
    std::string data(len, 'q');
    for (size_t i = 0; i < len; ++i)
      data[i] = char('a' + i % 26);
    Sha256 h;
    for (size_t i = 0; i < len; i += 7)
      h.update(data.data() + i, std::min<size_t>(7, len - i));
    std::array<uint8_t, 32> d = h.finish();
    std::string hex;
    char buf[3];
    for (uint8_t b : d) {
      std::snprintf(buf, sizeof buf, "%02x", b);
      hex += buf;
    }
    CHECK(hex == Sha256::hex(data));
  }
}

TEST_CASE("cache keys depend on every input, unambiguously", "[cache]") {
  std::string k = KernelCache::makeKey("src", "sig", "opt", "tgt", "v1");
  CHECK(k.size() == 64);
  CHECK(k == KernelCache::makeKey("src", "sig", "opt", "tgt", "v1"));
  CHECK(k != KernelCache::makeKey("src2", "sig", "opt", "tgt", "v1"));
  CHECK(k != KernelCache::makeKey("src", "sig2", "opt", "tgt", "v1"));
  CHECK(k != KernelCache::makeKey("src", "sig", "opt2", "tgt", "v1"));
  CHECK(k != KernelCache::makeKey("src", "sig", "opt", "tgt2", "v1"));
  CHECK(k != KernelCache::makeKey("src", "sig", "opt", "tgt", "v2"));
  // Moving text across a field boundary changes the key.
  CHECK(KernelCache::makeKey("ab", "c", "", "", "") !=
        KernelCache::makeKey("a", "bc", "", "", ""));
}

TEST_CASE("a stored entry is found again, byte for byte", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  std::string key = keyOf("round trip");
  std::string why;
  CHECK_FALSE(cache.lookup(key, &why));
  CHECK(why == "no entry");

  CacheEntry in = sampleEntry();
  REQUIRE_FALSE(cache.store(key, in));
  fs::path entry = cache.entryPath(key);
  CHECK(entry == dir.path / key.substr(0, 2) / key);
  CHECK(fs::is_regular_file(entry / "metadata.json"));
  CHECK(fs::file_size(entry / "kernel.cubin") ==
        in.artifacts["kernel.cubin"].size());

  auto out = cache.lookup(key, &why);
  REQUIRE(out);
  CHECK(out->artifacts == in.artifacts);
  CHECK(out->metadata == in.metadata);

  // Only the entry is left behind: no temporary directories.
  size_t n = 0;
  for (auto &e : fs::directory_iterator(entry.parent_path())) {
    (void)e;
    ++n;
  }
  CHECK(n == 1);

  // A second store of the key keeps the first entry.
  CacheEntry other;
  other.artifacts["kernel.ptx"] = "different";
  REQUIRE_FALSE(cache.store(key, other));
  CHECK(cache.lookup(key)->artifacts == in.artifacts);

  CHECK(cache.remove(key));
  CHECK_FALSE(fs::exists(entry));
  CHECK_FALSE(cache.remove(key));
}

TEST_CASE("an entry with no artifacts and odd metadata round-trips",
          "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  CacheEntry in;
  in.metadata["quote\"and\\slash"] = "line\nbreak\ttab \xc3\xa9";
  in.artifacts["empty.txt"] = "";
  std::string key = keyOf("odd");
  REQUIRE_FALSE(cache.store(key, in));
  auto out = cache.lookup(key);
  REQUIRE(out);
  CHECK(out->metadata == in.metadata);
  CHECK(out->artifacts == in.artifacts);
}

TEST_CASE("invalid keys and artifact names are refused", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  CacheEntry e;
  e.artifacts["../escape"] = "x";
  auto err = cache.store(keyOf("names"), e);
  REQUIRE(err);
  CHECK(err->message.find("invalid artifact name '../escape'") !=
        std::string::npos);
  e.artifacts.clear();
  e.artifacts["metadata.json"] = "x";
  CHECK(cache.store(keyOf("names"), e));
  CHECK(cache.store("../../etc", CacheEntry()));
  std::string why;
  CHECK_FALSE(cache.lookup("a/b", &why));
  CHECK(why.find("invalid cache key") != std::string::npos);
}

TEST_CASE("damaged entries are misses and are removed", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  std::string key = keyOf("damage");
  fs::path entry = cache.entryPath(key);
  std::string why;

  SECTION("truncated artifact") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    fs::resize_file(entry / "kernel.cubin", 100);
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("kernel.cubin has 100 bytes") != std::string::npos);
    CHECK(why.find("entry removed") != std::string::npos);
    CHECK_FALSE(fs::exists(entry));
    // The next compile stores a good entry again.
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    CHECK(cache.lookup(key));
  }
  SECTION("altered artifact of the same size") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    std::string ptx = sampleEntry().artifacts["kernel.ptx"];
    ptx[0] = '#';
    writeText(entry / "kernel.ptx", ptx);
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("kernel.ptx does not match its SHA-256") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(entry));
  }
  SECTION("missing artifact") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    fs::remove(entry / "tile.mlir");
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("tile.mlir is missing") != std::string::npos);
    CHECK_FALSE(fs::exists(entry));
  }
  SECTION("corrupt metadata.json") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    writeText(entry / "metadata.json", "{\"format\": 1, \"key\": ");
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("bad metadata.json") != std::string::npos);
    CHECK_FALSE(fs::exists(entry));
  }
  SECTION("metadata.json of the wrong shape") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    writeText(entry / "metadata.json",
              "{\"format\": 1, \"key\": \"" + key +
                  "\", \"artifacts\": {\"kernel.ptx\": {\"size\": \"big\"}},"
                  " \"metadata\": {}}");
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("bad metadata.json") != std::string::npos);
    CHECK_FALSE(fs::exists(entry));
  }
  SECTION("missing metadata.json") {
    REQUIRE_FALSE(cache.store(key, sampleEntry()));
    fs::remove(entry / "metadata.json");
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("no readable metadata.json") != std::string::npos);
    CHECK_FALSE(fs::exists(entry));
  }
  SECTION("an entry copied under another key") {
    std::string other = keyOf("other");
    REQUIRE_FALSE(cache.store(other, sampleEntry()));
    fs::create_directories(entry.parent_path());
    fs::copy(cache.entryPath(other), entry, fs::copy_options::recursive);
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("another key") != std::string::npos);
    CHECK(cache.lookup(other));
  }
}

TEST_CASE("concurrent writers of one key leave one valid entry", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  std::string key = keyOf("race");
  constexpr int kWriters = 8;
  std::vector<CacheEntry> entries(kWriters);
  for (int i = 0; i < kWriters; ++i) {
    entries[i] = sampleEntry();
    entries[i].artifacts["kernel.ptx"] += std::string(size_t(i) * 1000, 'p');
    entries[i].metadata["writer"] = std::to_string(i);
  }
  std::vector<std::optional<Error>> errors(kWriters);
  std::vector<std::thread> threads;
  for (int round = 0; round < 5; ++round) {
    cache.remove(key);
    threads.clear();
    for (int i = 0; i < kWriters; ++i)
      threads.emplace_back([&, i] {
        // Each writer stores, then reads, as a compiling process would.
        errors[i] = cache.store(key, entries[i]);
        (void)cache.lookup(key);
      });
    for (std::thread &t : threads)
      t.join();
    for (auto &e : errors)
      CHECK_FALSE(e);
    std::string why;
    auto out = cache.lookup(key, &why);
    INFO(why);
    REQUIRE(out);
    int winner = std::stoi(out->metadata.at("writer"));
    CHECK(out->artifacts == entries[winner].artifacts);
    size_t n = 0;
    for (auto &e :
         fs::directory_iterator(fs::path(cache.entryPath(key)).parent_path())) {
      (void)e;
      ++n;
    }
    CHECK(n == 1); // no temporary directories left
  }
}

TEST_CASE("temporaries abandoned by dead writers are swept", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  std::string key = keyOf("sweep");
  fs::path shard = fs::path(cache.entryPath(key)).parent_path();
  fs::create_directories(shard / (".tmp-" + key + "-1-2-3"));
  fs::create_directories(shard / (".del-" + key + "-4-5-6"));
  fs::create_directories(shard / (".tmp-" + key + "-7-8-9"));
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(2);
  fs::last_write_time(shard / (".tmp-" + key + "-1-2-3"), old);
  fs::last_write_time(shard / (".del-" + key + "-4-5-6"), old);
  REQUIRE_FALSE(cache.store(key, sampleEntry()));
  CHECK_FALSE(fs::exists(shard / (".tmp-" + key + "-1-2-3")));
  CHECK_FALSE(fs::exists(shard / (".del-" + key + "-4-5-6")));
  // A young one may be a store in progress.
  CHECK(fs::exists(shard / (".tmp-" + key + "-7-8-9")));
  CHECK(cache.lookup(key));
}

TEST_CASE("TRITIUM_ALWAYS_COMPILE makes every lookup a miss", "[cache]") {
  ScratchDir dir;
  KernelCache cache(dir.path.string());
  std::string key = keyOf("always");
  REQUIRE_FALSE(cache.store(key, sampleEntry()));
  {
    ScopedEnv env("TRITIUM_ALWAYS_COMPILE", "1");
    std::string why;
    CHECK_FALSE(cache.lookup(key, &why));
    CHECK(why.find("TRITIUM_ALWAYS_COMPILE") != std::string::npos);
    // The entry itself is left alone.
    CHECK(fs::exists(cache.entryPath(key)));
  }
  {
    ScopedEnv env("TRITIUM_ALWAYS_COMPILE", "0");
    CHECK(cache.lookup(key));
  }
  CHECK(cache.lookup(key));
}

TEST_CASE("the cache directory comes from the environment", "[cache]") {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv dir("TRITIUM_CACHE_DIR", "/custom/cache");
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    CHECK(KernelCache::defaultDirectory() == "/custom/cache");
  }
  {
    ScopedEnv dir("TRITIUM_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    CHECK(KernelCache::defaultDirectory() == "/xdg/tritium");
    CHECK(KernelCache().directory() == "/xdg/tritium");
  }
  {
    ScopedEnv dir("TRITIUM_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    CHECK(KernelCache::defaultDirectory() == "/home/someone/.cache/tritium");
  }
}

TEST_CASE("metadata counts read as decimal counts or as nothing", "[cache]") {
  CacheEntry e;
  e.metadata = {{"a", "4"},      {"b", "18446744073709551615"}, {"c", "18446744073709551616"},
                {"d", ""},       {"e", "-1"},                   {"f", "4x"},
                {"g", " 4"},     {"h", "0"},                    {"i", "000000000000000000007"}};
  CHECK(metadataCount(e, "a") == 4u);
  CHECK(metadataCount(e, "b") == UINT64_MAX);
  CHECK(metadataCount(e, "h") == 0u);
  for (const char *bad : {"c", "d", "e", "f", "g", "i", "missing"})
    CHECK_FALSE(metadataCount(e, bad).has_value());
}

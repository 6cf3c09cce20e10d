//===- NpyTest.cpp - .npy read/write round trips and errors ---------------===//
#include "runtime/Npy.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>

using namespace tritium::rt;

namespace {
NpyArray makeArray(const std::string &dtype, std::vector<int64_t> shape) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.allocate();
  for (size_t i = 0; i < a.data.size(); ++i)
    a.data[i] = uint8_t(i * 37 + 11);
  if (dtype == "|b1")
    for (auto &b : a.data)
      b &= 1;
  return a;
}

/// A file with an arbitrary header dict and version.
std::string rawNpy(int major, const std::string &dict, const std::string &data) {
  std::string header = dict;
  size_t prefix = major == 1 ? 10 : 12;
  size_t total = prefix + header.size() + 1;
  header.append((total + 63) / 64 * 64 - total, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  size_t n = header.size();
  out += char(n & 0xff);
  out += char(n >> 8 & 0xff);
  if (major != 1) {
    out += char(n >> 16 & 0xff);
    out += char(n >> 24 & 0xff);
  }
  return out + header + data;
}

std::optional<std::string> parse(const std::string &bytes, NpyArray &out) {
  return parseNpy("t.npy", reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
                  out);
}
} // namespace

TEST_CASE("npy: every supported dtype round-trips", "[npy]") {
  for (const char *dt : {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
                         "<f2", "<f4", "<f8"}) {
    for (auto shape : std::vector<std::vector<int64_t>>{{}, {5}, {2, 3}, {2, 1, 4}, {0, 3}}) {
      NpyArray a = makeArray(dt, shape);
      std::string bytes = serializeNpy(a);
      CHECK((bytes.size() - a.numBytes()) % 64 == 0);
      CHECK(bytes[bytes.size() - a.numBytes() - 1] == '\n');
      NpyArray b;
      auto err = parse(bytes, b);
      INFO(dt);
      REQUIRE(!err);
      CHECK(b.dtype == dt);
      CHECK(b.shape == shape);
      CHECK(b.data.size() == a.data.size());
      CHECK(std::equal(a.data.begin(), a.data.end(), b.data.begin()));
      CHECK(reinterpret_cast<uintptr_t>(b.data.data()) % kBufferAlignment == 0);
    }
  }
}

TEST_CASE("npy: header matches numpy's spelling", "[npy]") {
  NpyArray a = makeArray("<f4", {3});
  std::string bytes = serializeNpy(a);
  CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }") == 10);
  CHECK(bytes.size() == 128 + 12); // numpy's data offset for this header is 128
  NpyArray m = makeArray("<i8", {2, 3});
  CHECK(serializeNpy(m).find("'shape': (2, 3), }") != std::string::npos);
  NpyArray s = makeArray("<f8", {});
  CHECK(serializeNpy(s).find("'shape': (), }") != std::string::npos);
}

TEST_CASE("npy: versions 2.0 and 3.0 and header variants read", "[npy]") {
  std::string data(24, '\x01');
  for (int major : {1, 2, 3}) {
    NpyArray a;
    auto err = parse(rawNpy(major, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
                            data),
                     a);
    REQUIRE(!err);
    CHECK(a.dtype == "<i4");
    CHECK(a.shape == std::vector<int64_t>{2, 3});
  }
  NpyArray a;
  // Key order, double quotes, no trailing comma, native-order and '?' spellings.
  REQUIRE(!parse(rawNpy(1, "{\"shape\": (6,), \"fortran_order\": False, \"descr\": \"=f4\"}",
                        data),
                 a));
  CHECK(a.dtype == "<f4");
  REQUIRE(!parse(rawNpy(1, "{'descr': '?', 'fortran_order': False, 'shape': (4,)}",
                        std::string(4, '\x01')),
                 a));
  CHECK(a.dtype == "|b1");
  REQUIRE(!parse(rawNpy(1, "{'descr': '<u1', 'fortran_order': True, 'shape': (4,)}",
                        std::string(4, '\x01')),
                 a));
  CHECK(a.dtype == "|u1"); // 1-D Fortran order is C order
}

TEST_CASE("npy: errors name the file and the reason", "[npy]") {
  NpyArray a;
  auto err = [&](const std::string &bytes) {
    auto e = parse(bytes, a);
    REQUIRE(e);
    CHECK(e->rfind("t.npy: ", 0) == 0);
    return *e;
  };
  std::string ok = serializeNpy(makeArray("<f4", {4}));
  CHECK_THAT(err("PK\x03\x04 not numpy at all"), Catch::Contains("bad magic"));
  CHECK_THAT(err(ok.substr(0, 4)), Catch::Contains("too short"));
  CHECK_THAT(err(ok.substr(0, 40)), Catch::Contains("truncated file (header)"));
  CHECK_THAT(err(ok.substr(0, ok.size() - 1)), Catch::Contains("truncated file"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                        std::string(8, 0))),
             Catch::Contains("unsupported dtype '<c8'"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                        std::string(4, 0))),
             Catch::Contains("big-endian"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
                        std::string(8, 0))),
             Catch::Contains("object arrays"));
  CHECK_THAT(err(rawNpy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                        std::string(4, 0))),
             Catch::Contains("structured"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                        std::string(16, 0))),
             Catch::Contains("Fortran-order"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '<U8', 'fortran_order': False, 'shape': (1,), }",
                        std::string(32, 0))),
             Catch::Contains("unsupported dtype"));
  std::string v4 = ok;
  v4[6] = 4;
  CHECK_THAT(err(v4), Catch::Contains("version 4.0"));
  CHECK_THAT(err(rawNpy(1, "{'descr': '<f4', 'fortran_order': False}", "")),
             Catch::Contains("no 'shape'"));
}

TEST_CASE("npy: files on disk", "[npy]") {
  std::string path = "tritium-npy-test.npy";
  NpyArray a = makeArray("<u8", {3, 2});
  REQUIRE(!writeNpy(path, a));
  NpyArray b;
  REQUIRE(!readNpy(path, b));
  CHECK(b.shape == a.shape);
  CHECK(std::equal(a.data.begin(), a.data.end(), b.data.begin()));
  std::remove(path.c_str());
  auto e = readNpy("no/such/file.npy", b);
  REQUIRE(e);
  CHECK(*e == "no/such/file.npy: cannot open file");
  NpyArray bad;
  bad.dtype = "<c8";
  CHECK(writeNpy(path, bad));
}

//===- Npy.cpp - NumPy .npy read and write --------------------------------===//
//
// The .npy layout: the magic "\x93NUMPY", a major and minor version byte, the
// header length (uint16 for 1.0, uint32 for 2.0/3.0), then an ASCII (UTF-8
// for 3.0) Python dict literal {'descr': ..., 'fortran_order': ...,
// 'shape': (...)} padded with spaces and a newline so that the data starts at
// a multiple of 64 bytes, then the raw array bytes.
//
//===----------------------------------------------------------------------===//
#include "runtime/Npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

using namespace tritium::rt;

size_t NpyArray::npyItemSize(const std::string &dtype) {
  if (dtype.size() != 3)
    return 0;
  char k = dtype[1];
  if (k != 'b' && k != 'i' && k != 'u' && k != 'f')
    return 0;
  return size_t(dtype[2] - '0');
}

size_t NpyArray::numElements() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= size_t(d);
  return n;
}

std::optional<std::string> tritium::rt::canonicalNpyDtype(const std::string &descr,
                                                          std::string &out) {
  std::string d = descr;
  if (d == "bool" || d == "?" || d == "b1")
    d = "|b1";
  if (d.empty())
    return std::string("empty dtype");
  char order = d[0];
  std::string kind = d.substr(1);
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    order = '=';
    kind = d;
  }
  if (kind == "?")
    kind = "b1";
  if (kind == "O" || kind.rfind("O", 0) == 0)
    return "object arrays (dtype '" + descr + "') are not supported";
  static const char *kSupported[] = {"b1", "i1", "i2", "i4", "i8", "u1",
                                     "u2", "u4", "u8", "f2", "f4", "f8"};
  bool known = false;
  for (const char *s : kSupported)
    known |= kind == s;
  if (!known)
    return "unsupported dtype '" + descr +
           "' (supported: bool, int8..int64, uint8..uint64, float16, float32, "
           "float64; bf16 and fp8 travel as their uint16/uint8 views)";
  bool single = kind[1] == '1';
  if (order == '>' && !single)
    return "big-endian dtype '" + descr + "' is not supported (save it little-endian)";
  out = std::string(single ? "|" : "<") + kind;
  return std::nullopt;
}

namespace {
/// A tiny reader for the header's Python dict literal.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &s) : s_(s) {}

  std::optional<std::string> parse(std::string &descr, bool &fortran,
                                   std::vector<int64_t> &shape) {
    bool haveDescr = false, haveShape = false;
    skipSpace();
    if (!eat('{'))
      return std::string("header is not a dict");
    while (true) {
      skipSpace();
      if (eat('}'))
        break;
      std::string key;
      if (!readString(key))
        return std::string("header: expected a quoted key");
      skipSpace();
      if (!eat(':'))
        return "header: expected ':' after '" + key + "'";
      skipSpace();
      if (key == "descr") {
        if (peek() == '[')
          return std::string("structured dtypes are not supported");
        if (!readString(descr))
          return std::string("header: 'descr' is not a string");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (s_.compare(pos_, 4, "True") == 0) {
          fortran = true;
          pos_ += 4;
        } else if (s_.compare(pos_, 5, "False") == 0) {
          fortran = false;
          pos_ += 5;
        } else {
          return std::string("header: 'fortran_order' is not True/False");
        }
      } else if (key == "shape") {
        if (auto err = readShape(shape))
          return err;
        haveShape = true;
      } else {
        return "header: unknown key '" + key + "'";
      }
      skipSpace();
      if (eat(','))
        continue;
      skipSpace();
      if (eat('}'))
        break;
      return std::string("header: expected ',' or '}'");
    }
    if (!haveDescr)
      return std::string("header has no 'descr'");
    if (!haveShape)
      return std::string("header has no 'shape'");
    return std::nullopt;
  }

private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool eat(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace((unsigned char)s_[pos_]))
      ++pos_;
  }
  bool readString(std::string &out) {
    char q = peek();
    if (q != '\'' && q != '"')
      return false;
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos)
      return false;
    out = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return true;
  }
  std::optional<std::string> readShape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!eat('('))
      return std::string("header: 'shape' is not a tuple");
    while (true) {
      skipSpace();
      if (eat(')'))
        return std::nullopt;
      size_t start = pos_;
      while (std::isdigit((unsigned char)peek()))
        ++pos_;
      if (start == pos_)
        return std::string("header: bad 'shape' entry");
      std::string num = s_.substr(start, pos_ - start);
      if (s_.compare(pos_, 1, "L") == 0) // Python 2 longs
        ++pos_;
      if (num.size() > 18)
        return std::string("header: 'shape' entry too large");
      shape.push_back(std::stoll(num));
      skipSpace();
      if (eat(','))
        continue;
      skipSpace();
      if (eat(')'))
        return std::nullopt;
      return std::string("header: bad 'shape' tuple");
    }
  }

  const std::string &s_;
  size_t pos_ = 0;
};
} // namespace

std::optional<std::string> tritium::rt::parseNpy(const std::string &name,
                                                 const uint8_t *bytes, size_t size,
                                                 NpyArray &out) {
  auto fail = [&](const std::string &why) {
    return std::optional<std::string>(name + ": " + why);
  };
  static const char kMagic[] = "\x93NUMPY";
  if (size < 10 || std::memcmp(bytes, kMagic, 6) != 0)
    return fail(size < 6 ? "not a .npy file (too short)"
                         : "not a .npy file (bad magic; expected \\x93NUMPY)");
  unsigned major = bytes[6], minor = bytes[7];
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = size_t(bytes[8]) | size_t(bytes[9]) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return fail("truncated file (header length)");
    headerLen = size_t(bytes[8]) | size_t(bytes[9]) << 8 | size_t(bytes[10]) << 16 |
                size_t(bytes[11]) << 24;
    offset = 12;
  } else {
    return fail("unsupported .npy format version " + std::to_string(major) + "." +
                std::to_string(minor));
  }
  if (offset + headerLen > size)
    return fail("truncated file (header)");
  std::string header(reinterpret_cast<const char *>(bytes + offset), headerLen);
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  if (auto err = HeaderParser(header).parse(descr, fortran, shape))
    return fail(*err);
  NpyArray a;
  if (auto err = canonicalNpyDtype(descr, a.dtype))
    return fail(*err);
  if (fortran) {
    bool trivial = shape.size() <= 1;
    if (!trivial)
      return fail("Fortran-order arrays are not supported (save with "
                  "np.ascontiguousarray)");
  }
  a.shape = shape;
  size_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > std::numeric_limits<size_t>::max() / 16 / size_t(d))
      return fail("array too large");
    count *= size_t(d);
  }
  size_t need = count * a.itemSize();
  size_t dataStart = offset + headerLen;
  if (size - dataStart < need)
    return fail("truncated file: the header promises " + std::to_string(need) +
                " data bytes, the file has " + std::to_string(size - dataStart));
  a.data.assign(bytes + dataStart, bytes + dataStart + need);
  out = std::move(a);
  return std::nullopt;
}

std::optional<std::string> tritium::rt::readNpy(const std::string &path,
                                                NpyArray &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open file";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  return parseNpy(path, reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
                  out);
}

std::string tritium::rt::serializeNpy(const NpyArray &array) {
  std::string dict = "{'descr': '" + array.dtype + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    dict += (i ? ", " : "") + std::to_string(array.shape[i]);
  if (array.shape.size() == 1)
    dict += ","; // a 1-tuple: "(3,)"
  dict += "), }";
  // Pad with spaces and a final newline so the data starts at a multiple of 64.
  size_t total = 10 + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8 & 0xff);
  out += dict;
  out.append(reinterpret_cast<const char *>(array.data.data()),
             std::min(array.data.size(), array.numBytes()));
  return out;
}

std::optional<std::string> tritium::rt::writeNpy(const std::string &path,
                                                 const NpyArray &array) {
  if (array.itemSize() == 0)
    return path + ": cannot write dtype '" + array.dtype + "'";
  if (array.data.size() < array.numBytes())
    return path + ": array holds fewer bytes than its shape needs";
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return path + ": cannot open file for writing";
  std::string bytes = serializeNpy(array);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out)
    return path + ": write failed";
  return std::nullopt;
}

namespace {
uint32_t crc32(const std::string &data) {
  static uint32_t table[256] = {};
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = true;
  }
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data)
    c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put16(std::string &out, uint32_t v) {
  out += char(v & 0xFF);
  out += char(v >> 8 & 0xFF);
}
void put32(std::string &out, uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}
} // namespace

std::optional<std::string>
tritium::rt::writeNpz(const std::string &path,
                      const std::vector<std::pair<std::string, NpyArray>> &arrays) {
  // Zip (stored entries, no compression; 32-bit sizes and offsets).
  std::string zip, central;
  for (const auto &[name, array] : arrays) {
    if (array.itemSize() == 0)
      return path + ": cannot write dtype '" + array.dtype + "' (" + name + ")";
    std::string file = name + ".npy";
    std::string data = serializeNpy(array);
    if (zip.size() + data.size() > 0xFFFFFFF0u)
      return path + ": over 4 GiB, which this writer does not support";
    uint32_t crc = crc32(data), offset = uint32_t(zip.size());
    std::string local = "PK\x03\x04";
    put16(local, 20);            // version needed
    put16(local, 0);             // flags
    put16(local, 0);             // stored
    put16(local, 0);             // time
    put16(local, 0x21);          // date: 1980-01-01
    put32(local, crc);
    put32(local, uint32_t(data.size()));
    put32(local, uint32_t(data.size()));
    put16(local, uint32_t(file.size()));
    put16(local, 0);             // extra
    zip += local + file + data;
    std::string entry = "PK\x01\x02";
    put16(entry, 20);            // version made by
    put16(entry, 20);
    put16(entry, 0);
    put16(entry, 0);
    put16(entry, 0);
    put16(entry, 0x21);
    put32(entry, crc);
    put32(entry, uint32_t(data.size()));
    put32(entry, uint32_t(data.size()));
    put16(entry, uint32_t(file.size()));
    put16(entry, 0);             // extra
    put16(entry, 0);             // comment
    put16(entry, 0);             // disk
    put16(entry, 0);             // internal attributes
    put32(entry, 0);             // external attributes
    put32(entry, offset);
    central += entry + file;
  }
  if (arrays.size() > 0xFFFF)
    return path + ": more than 65535 arrays, which this writer does not support";
  std::string end = "PK\x05\x06";
  put16(end, 0);
  put16(end, 0);
  put16(end, uint32_t(arrays.size()));
  put16(end, uint32_t(arrays.size()));
  put32(end, uint32_t(central.size()));
  put32(end, uint32_t(zip.size()));
  put16(end, 0);
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return path + ": cannot open file for writing";
  out << zip << central << end;
  if (!out.flush())
    return path + ": write failed";
  return std::nullopt;
}

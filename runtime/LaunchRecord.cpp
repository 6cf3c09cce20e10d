//===- LaunchRecord.cpp - saving a launch for tritium replay --------------===//
#include "runtime/LaunchRecord.h"

#include "runtime/Npy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace tritium;

namespace {
/// numpy's dtype and `tritium run`'s spelling of a buffer's element type.
std::pair<const char *, const char *> npyAndName(DType t) {
  switch (t) {
  case DType::I1: return {"|b1", "bool"};
  case DType::I8: return {"|i1", "i8"};
  case DType::I16: return {"<i2", "i16"};
  case DType::I32: return {"<i4", "i32"};
  case DType::I64: return {"<i8", "i64"};
  case DType::U8: return {"|u1", "u8"};
  case DType::U16: return {"<u2", "u16"};
  case DType::U32: return {"<u4", "u32"};
  case DType::U64: return {"<u8", "u64"};
  case DType::F16: return {"<f2", "f16"};
  case DType::BF16: return {"<u2", "bf16"};
  case DType::F32: return {"<f4", "f32"};
  case DType::F64: return {"<f8", "f64"};
  case DType::F8E4NV: return {"|u1", "fp8e4nv"};
  case DType::F8E5: return {"|u1", "fp8e5"};
  case DType::F8E4B15: return {"|u1", "fp8e4b15"};
  case DType::F8E4B8: return {"|u1", "fp8e4b8"};
  case DType::F8E5B16: return {"|u1", "fp8e5b16"};
  }
  return {"|u1", "u8"};
}

bool makeDir(const std::string &dir) {
  if (::mkdir(dir.c_str(), 0777) == 0)
    return true;
  struct stat st;
  return errno == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
} // namespace

Expected<std::string> rt::writeLaunchRecord(const std::string &root, const LaunchToRecord &l) {
  if (!makeDir(root))
    return Error{"TRITIUM_RECORD=" + root + ": cannot create it: " + std::strerror(errno),
                 Error::Runtime};
  // The first free <kernel>-<n>.
  std::string dir;
  for (int n = 1;; ++n) {
    dir = root + "/" + l.kernel + "-" + std::to_string(n);
    if (::mkdir(dir.c_str(), 0777) == 0)
      break;
    if (errno != EEXIST || n > 100000)
      return Error{"TRITIUM_RECORD=" + root + ": cannot create " + dir + ": " +
                       std::strerror(errno),
                   Error::Runtime};
  }
  std::ostringstream args;
  args << "kernel " << l.kernel << "\n"
       << "grid " << l.grid[0] << "," << l.grid[1] << "," << l.grid[2] << "\n"
       << "num-warps " << l.numWarps << "\n";
  if (l.debug)
    args << "debug\n";
  for (auto &[name, literal] : l.constexprs)
    args << "constexpr " << name << "=" << literal << "\n";
  size_t buffer = 0;
  for (auto &[name, a] : l.args) {
    switch (a->kind) {
    case Arg::Buffer: {
      auto [npy, elem] = npyAndName(a->dtype);
      rt::NpyArray arr;
      arr.dtype = npy;
      size_t item = dtypeBytes(a->dtype);
      arr.shape = {int64_t(a->bytes / item)};
      arr.allocate();
      const std::vector<uint8_t> &bytes = l.before[buffer++];
      std::memcpy(arr.data.data(), bytes.data(), std::min(bytes.size(), arr.data.size()));
      std::string file = name + ".npy";
      if (auto e = rt::writeNpy(dir + "/" + file, arr))
        return Error{"TRITIUM_RECORD: " + *e, Error::Runtime};
      args << "arg-file " << name << "=" << file << ":" << elem << "\n";
      break;
    }
    case Arg::Int:
      args << "arg " << name << "="
           << (a->isUnsigned ? std::to_string(uint64_t(a->i)) : std::to_string(a->i)) << "\n";
      break;
    case Arg::Float: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", a->f);
      std::string text = buf;
      if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0";
      args << "arg " << name << "=" << text << "\n";
      break;
    }
    case Arg::Bool:
      args << "arg " << name << "=" << (a->i ? "True" : "False") << "\n";
      break;
    default:
      return Error{"TRITIUM_RECORD: argument '" + name +
                       "' is a tuple or a tensor descriptor, which a record cannot hold yet",
                   Error::Runtime};
    }
  }
  std::ofstream src(dir + "/kernel.py", std::ios::binary);
  src << l.source;
  std::ofstream out(dir + "/launch.args");
  out << args.str();
  if (!src.flush() || !out.flush())
    return Error{"TRITIUM_RECORD: cannot write into " + dir, Error::Runtime};
  return dir;
}

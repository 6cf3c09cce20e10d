//===- LaunchRecord.cpp - saving a launch for tritium replay --------------===//
#include "runtime/LaunchRecord.h"

#include "runtime/Record.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
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

} // namespace

Expected<std::string> rt::writeLaunchRecord(const std::string &root, const LaunchToRecord &l) {
  if (auto e = makeDirectory(root))
    return Error{"TRITIUM_RECORD=" + root + ": cannot create it: " + *e, Error::Runtime};
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
  RecordedLaunch r;
  r.kernel = l.kernel;
  r.source = l.source;
  r.grid = std::to_string(l.grid[0]) + "," + std::to_string(l.grid[1]) + "," +
           std::to_string(l.grid[2]);
  r.numWarps = l.numWarps;
  r.debug = l.debug;
  for (auto &[name, literal] : l.constexprs)
    r.constexprs.push_back(name + "=" + literal);
  std::vector<NpyArray> arrays; // the buffers as .npy arrays, one per buffer argument
  arrays.reserve(l.before.size());
  size_t buffer = 0;
  for (auto &[name, a] : l.args) {
    RecordedArg ra;
    ra.name = name;
    switch (a->kind) {
    case Arg::Buffer: {
      auto [npy, elem] = npyAndName(a->dtype);
      NpyArray &arr = arrays.emplace_back();
      arr.dtype = npy;
      arr.shape = {int64_t(a->bytes / dtypeBytes(a->dtype))};
      arr.allocate();
      const std::vector<uint8_t> &bytes = l.before[buffer++];
      std::memcpy(arr.data.data(), bytes.data(), std::min(bytes.size(), arr.data.size()));
      ra.array = &arr;
      ra.elem = elem;
      break;
    }
    case Arg::Int:
      ra.literal = recordedInt(a->i, a->isUnsigned);
      break;
    case Arg::Float:
      ra.literal = recordedFloat(a->f);
      break;
    case Arg::Bool:
      ra.literal = a->i ? "True" : "False";
      break;
    default:
      return Error{"TRITIUM_RECORD: argument '" + name +
                       "' is a tuple or a tensor descriptor, which a record cannot hold yet",
                   Error::Runtime};
    }
    r.args.push_back(std::move(ra));
  }
  if (auto e = writeRecord(dir, r))
    return Error{"TRITIUM_RECORD: " + *e, Error::Runtime};
  return dir;
}

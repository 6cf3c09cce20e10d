//===- Trace.cpp - printing the values a source line computes -----------===//
//
// `tritium run --trace [FILE:]LINE [--pid X,Y,Z]`: each time a traced
// program runs an op of that line whose result another line uses (the
// line's outputs, marked when the program is built), its values are added
// to the program's output, shaped as the tile (rows of at most 8 shown in
// full, longer ones as their first and last 3), with the lanes a load's
// mask turned off shown as "--".
//
//===----------------------------------------------------------------------===//
#include "interpreter/Interpreter.h"
#include "interpreter/Program.h"

#include <cstdio>
#include <cstring>

namespace tritium::interp {

std::string elementText(const Frame &f, int slot, int64_t i, int digits) {
  const SlotInfo &si = f.prog->slots[slot];
  char buf[64];
  const void *p = f.slot[slot];
  if (isFloat(si.kind))
    std::snprintf(buf, sizeof buf, "%.*g", digits, readFloat(p, i, si.kind));
  else if (si.kind == EK::I1)
    return readInt(p, i, si.kind, false) ? "True" : "False";
  else if (isInt(si.kind))
    std::snprintf(buf, sizeof buf, "%lld",
                  static_cast<long long>(readInt(p, i, si.kind, true)));
  else if (si.kind == EK::Ptr)
    std::snprintf(buf, sizeof buf, "0x%llx",
                  static_cast<unsigned long long>(static_cast<const uint64_t *>(p)[i]));
  else
    return "?";
  return buf;
}

namespace {
/// Appends dimension `d` of the tile starting at element `base` (strides
/// row-major) to `out`.
void formatDim(std::string &out, const Frame &f, int slot, const uint8_t *mask,
               llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> strides, size_t d,
               int64_t base) {
  int64_t n = shape[d];
  auto item = [&](int64_t k) {
    int64_t at = base + k * strides[d];
    if (d + 1 < shape.size())
      formatDim(out, f, slot, mask, shape, strides, d + 1, at);
    else
      out += mask && !mask[at] ? "--" : elementText(f, slot, at);
  };
  std::string sep = d + 1 < shape.size() ? ",\n" + std::string(d + 1, ' ') : ", ";
  out += "[";
  for (int64_t k = 0; k < n; ++k) {
    if (n > 8 && k == 3) {
      out += "..." + sep;
      k = n - 4;
      continue;
    }
    item(k);
    if (k + 1 < n)
      out += sep;
  }
  out += "]";
}

bool traced(const TraceSpec &t, const Op &op, const Frame &f) {
  if (op.line != t.line || op.n < 0)
    return false;
  if (!t.file.empty()) {
    std::string file = op.loc.substr(0, op.loc.rfind(':'));
    if (file != t.file && !(file.size() > t.file.size() &&
                            file.compare(file.size() - t.file.size(), t.file.size(),
                                         t.file) == 0 &&
                            file[file.size() - t.file.size() - 1] == '/'))
      return false;
  }
  if (t.pids.empty())
    return f.pid == std::array<int64_t, 3>{0, 0, 0};
  for (const auto &p : t.pids)
    if (p == f.pid)
      return true;
  return false;
}
} // namespace

std::string formatValue(const Op &op, size_t result, const Frame &f) {
  int slot = op.res[result];
  const SlotInfo &si = f.prog->slots[slot];
  // A load's mask (op.a) says which lanes it read.
  const uint8_t *mask = nullptr;
  if (result == 0 && !std::strcmp(op.name, "tile.load") && op.a >= 0)
    mask = f.get<uint8_t>(op.a);
  std::string out = std::string(op.name);
  if (op.res.size() > 1)
    out += " result " + std::to_string(result);
  out += " (" + std::string(kindName(si.kind));
  for (size_t d = 0; d < si.shape.size(); ++d)
    out += (d ? ", " : "[") + std::to_string(si.shape[d]) + (d + 1 == si.shape.size() ? "]" : "");
  out += ")\n";
  if (si.shape.empty()) {
    out += elementText(f, slot, 0);
  } else {
    auto strides = rowMajorStrides(si.shape);
    formatDim(out, f, slot, mask, si.shape, strides, 0, 0);
  }
  return out;
}

void traceOp(const Op &op, Frame &f) {
  if (!traced(*f.trace, op, f))
    return;
  for (size_t k = 0; k < op.res.size(); ++k)
    f.printOut += "trace " + op.loc + " program " + f.pidText() + ": " +
                  formatValue(op, k, f) + "\n";
}

namespace {
const char *npyDtypeOf(EK k) {
  switch (k) {
  case EK::I1: return "|b1";
  case EK::I8: return "|i1";
  case EK::I16: return "<i2";
  case EK::I32: return "<i4";
  case EK::I64: return "<i8";
  case EK::F16: return "<f2";
  case EK::BF16: return "<u2";
  case EK::F32: return "<f4";
  case EK::F64: return "<f8";
  case EK::Ptr: return "<u8";
  default: return "|u1"; // fp8
  }
}
} // namespace

void dumpOp(const Op &op, Frame &f) {
  DumpSpec &d = *f.dump;
  if (op.n < 0 || f.pid != d.pid || op.res.empty() || d.truncated)
    return;
  std::string base = op.locCol.empty() ? op.loc : op.locCol;
  // The file's name, not its directories.
  size_t slash = base.rfind('/', base.find(':'));
  if (slash != std::string::npos)
    base = base.substr(slash + 1);
  base += std::string(" ") + op.name;
  for (size_t k = 0; k < op.res.size(); ++k) {
    std::string key = base + (op.res.size() > 1 ? "." + std::to_string(k) : "");
    int run = d.seen[key]++;
    if (run)
      key += " #" + std::to_string(run);
    int slot = op.res[k];
    const SlotInfo &si = f.prog->slots[slot];
    size_t bytes = size_t(si.elems) * elemBytes(si.kind);
    if (d.bytes + bytes > d.maxBytes) {
      d.truncated = true;
      return;
    }
    DumpedValue v;
    v.key = key;
    v.npyDtype = npyDtypeOf(si.kind);
    v.shape.assign(si.shape.begin(), si.shape.end());
    v.bytes.assign(f.slot[slot], f.slot[slot] + bytes);
    d.bytes += bytes;
    d.values.push_back(std::move(v));
  }
}

} // namespace tritium::interp

//===- Trace.cpp - printing the values a source line computes -----------===//
//
// `tritium run --trace [FILE:]LINE [--pid X,Y,Z]`: each time a traced
// program runs an op of that line whose result another line uses (the
// line's outputs, marked when the program is built), its values are added
// to the program's output, shaped as the tile (rows of at most 8 shown in
// full, longer ones as their first and last 3), with the lanes a load's
// mask turned off shown as "--". `--trace [FILE:]LINE:NAME` prints instead
// each value the variable NAME is given at that line (an op's result, or a
// block argument: a loop-carried variable as an iteration starts, a kernel
// parameter).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Interpreter.h"
#include "interpreter/Program.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

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

/// Whether `loc` ("file:line") is in the file `file` names (its name or a
/// suffix of its path after a '/'; empty: any file).
bool inFile(const std::string &file, const std::string &loc) {
  if (file.empty())
    return true;
  std::string f = loc.substr(0, loc.rfind(':'));
  return f == file || (f.size() > file.size() &&
                       f.compare(f.size() - file.size(), file.size(), file) == 0 &&
                       f[f.size() - file.size() - 1] == '/');
}

bool tracedProgram(const TraceSpec &t, const Frame &f) {
  if (t.pids.empty())
    return f.pid == std::array<int64_t, 3>{0, 0, 0};
  for (const auto &p : t.pids)
    if (p == f.pid)
      return true;
  return false;
}

/// --trace LINE:NAME: whether `slot` is NAME's value defined at LINE.
bool tracedSlot(const TraceSpec &t, const SlotInfo &si) {
  return si.line == t.line && si.hasName(t.name) && inFile(t.file, si.loc);
}

/// The value of `slot`, NAME's, as --trace NAME prints it.
void traceSlot(const Frame &f, const std::string &name, int slot, const char *what,
               const uint8_t *mask, std::string &out) {
  const SlotInfo &si = f.prog->slots[slot];
  out += "trace " + si.loc + " program " + f.pidText() + ": " + name + " = " + what + " (" +
         typeText(si.kind, si.shape) + ")\n" + formatSlot(f, slot, mask) + "\n";
}
} // namespace

std::string typeText(EK kind, llvm::ArrayRef<int64_t> shape) {
  std::string out = kindName(kind);
  for (size_t d = 0; d < shape.size(); ++d)
    out += (d ? ", " : "[") + std::to_string(shape[d]) + (d + 1 == shape.size() ? "]" : "");
  return out;
}

const uint8_t *loadMask(const Op &op, size_t result, const Frame &f) {
  if (result == 0 && !std::strcmp(op.name, "tile.load") && op.a >= 0)
    return f.get<uint8_t>(op.a);
  return nullptr;
}

std::vector<int64_t> viewShape(llvm::ArrayRef<int64_t> shape, const std::vector<SliceDim> *view) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!view) {
      out.push_back(shape[d]);
    } else if (!(*view)[d].index) {
      const SliceDim &s = (*view)[d];
      out.push_back((s.stop - s.start + s.step - 1) / s.step);
    }
  }
  return out;
}

std::string variableList(const Program &p) {
  std::set<std::string> names;
  for (const SlotInfo &si : p.slots)
    for (const std::string &n : si.names)
      if (n.find('[') == std::string::npos)
        names.insert(n);
  std::string list;
  for (const std::string &n : names)
    list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::optional<std::string> parseSlices(const std::string &text, llvm::ArrayRef<int64_t> shape,
                                       std::vector<SliceDim> &out) {
  out.clear();
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (parts.size() > shape.size())
    return "[" + text + "]: " + std::to_string(parts.size()) + " subscripts for a tile of " +
           std::to_string(shape.size()) + " dimension" + (shape.size() == 1 ? "" : "s");
  auto trim = [](std::string x) {
    size_t b = x.find_first_not_of(" \t"), e = x.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
  };
  auto number = [&](const std::string &x, int64_t &v) {
    char *end = nullptr;
    long long n = std::strtoll(x.c_str(), &end, 10);
    if (x.empty() || *end)
      return false;
    v = n;
    return true;
  };
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t n = shape[d];
    SliceDim s{0, n, 1, false};
    std::string p = d < parts.size() ? trim(parts[d]) : ":";
    std::vector<std::string> fields;
    size_t b = 0;
    while (true) {
      size_t c = p.find(':', b);
      fields.push_back(trim(p.substr(b, c == std::string::npos ? c : c - b)));
      if (c == std::string::npos)
        break;
      b = c + 1;
    }
    std::string bad = "[" + text + "]: '" + p + "' is not an index or a start:stop:step range";
    if (fields.size() > 3 || (fields.size() == 1 && fields[0].empty()))
      return bad;
    if (fields.size() == 1) {
      int64_t i = 0;
      if (!number(fields[0], i))
        return bad;
      if (i < -n || i >= n)
        return "[" + text + "]: index " + std::to_string(i) + " is out of range for dimension " +
               std::to_string(d) + " of size " + std::to_string(n);
      s.start = i < 0 ? i + n : i;
      s.stop = s.start + 1;
      s.index = true;
      out.push_back(s);
      continue;
    }
    if (fields.size() == 3 && !fields[2].empty() && !number(fields[2], s.step))
      return bad;
    if (s.step <= 0)
      return "[" + text + "]: the step must be positive";
    auto bound = [&](const std::string &x, int64_t dflt, int64_t &v) {
      if (x.empty()) {
        v = dflt;
        return true;
      }
      if (!number(x, v))
        return false;
      if (v < 0)
        v += n;
      v = std::clamp<int64_t>(v, 0, n);
      return true;
    };
    if (!bound(fields[0], 0, s.start) || !bound(fields[1], n, s.stop))
      return bad;
    if (s.stop < s.start)
      s.stop = s.start;
    out.push_back(s);
  }
  return std::nullopt;
}

std::string formatSlot(const Frame &f, int slot, const uint8_t *mask,
                       const std::vector<SliceDim> *view) {
  const SlotInfo &si = f.prog->slots[slot];
  if (si.shape.empty())
    return elementText(f, slot, 0);
  auto full = rowMajorStrides(si.shape);
  std::vector<int64_t> shape = viewShape(si.shape, view), strides;
  int64_t base = 0;
  for (size_t d = 0; d < si.shape.size(); ++d) {
    SliceDim s = view ? (*view)[d] : SliceDim{0, si.shape[d], 1, false};
    base += s.start * full[d];
    if (!s.index)
      strides.push_back(full[d] * s.step);
  }
  std::string out;
  if (shape.empty()) {
    out = mask && !mask[base] ? "--" : elementText(f, slot, base);
    return out;
  }
  for (int64_t n : shape)
    if (n == 0)
      return "[]";
  formatDim(out, f, slot, mask, shape, strides, 0, base);
  return out;
}

std::string formatValue(const Op &op, size_t result, const Frame &f) {
  int slot = op.res[result];
  const SlotInfo &si = f.prog->slots[slot];
  std::string out = std::string(op.name);
  if (op.res.size() > 1)
    out += " result " + std::to_string(result);
  out += " (" + typeText(si.kind, si.shape) + ")\n";
  return out + formatSlot(f, slot, loadMask(op, result, f));
}

void traceOp(const Op &op, Frame &f) {
  const TraceSpec &t = *f.trace;
  if (op.n < 0 || !tracedProgram(t, f))
    return;
  if (!t.name.empty()) {
    for (size_t k = 0; k < op.res.size(); ++k)
      if (tracedSlot(t, f.prog->slots[op.res[k]]))
        traceSlot(f, t.name, op.res[k], op.name, loadMask(op, k, f), f.printOut);
    return;
  }
  if (!op.lineOutput || op.line != t.line || !inFile(t.file, op.loc))
    return;
  for (size_t k = 0; k < op.res.size(); ++k)
    f.printOut += "trace " + op.loc + " program " + f.pidText() + ": " +
                  formatValue(op, k, f) + "\n";
}

void traceArgs(const Op &op, Frame &f) {
  const TraceSpec &t = *f.trace;
  if (t.name.empty() || !tracedProgram(t, f))
    return;
  for (int s : op.entersArgs)
    if (tracedSlot(t, f.prog->slots[s]))
      traceSlot(f, t.name, s, "block argument", nullptr, f.printOut);
}

std::optional<std::string> checkTraceName(const Program &p, const TraceSpec &t) {
  if (t.name.empty())
    return std::nullopt;
  std::set<std::string> lines;
  for (const SlotInfo &si : p.slots)
    if (si.hasName(t.name)) {
      if (tracedSlot(t, si))
        return std::nullopt;
      lines.insert(si.loc);
    }
  std::string spec = "--trace " + (t.file.empty() ? "" : t.file + ":") + std::to_string(t.line) +
                     ":" + t.name + ": ";
  if (lines.empty()) {
    std::string list = variableList(p);
    return spec + "kernel '" + p.kernelName + "' has no tensor variable '" + t.name + "'" +
           (list.empty() ? std::string() : " (its tensor variables: " + list + ")");
  }
  std::string list;
  for (const std::string &l : lines)
    list += (list.empty() ? "" : ", ") + l;
  return spec + "'" + t.name + "' is not given a value at line " + std::to_string(t.line) +
         "; it is at " + list;
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

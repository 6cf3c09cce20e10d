//===- RunArgs.cpp - host values for `tritium run` ------------------------===//
//
// Element types, `--arg` value parsing and generation, specialization
// strings, and the float64 comparison behind `--check`.
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunArgs.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <sstream>

using namespace tritium;
using namespace tritium::run;

namespace {
const ElemType kTypes[] = {
    {"f16", "fp16", "<f2", ElemType::Float, 2},
    {"f32", "fp32", "<f4", ElemType::Float, 4},
    {"f64", "fp64", "<f8", ElemType::Float, 8},
    {"bf16", "bf16", "<u2", ElemType::Float, 2},
    {"i8", "i8", "|i1", ElemType::Int, 1},
    {"i16", "i16", "<i2", ElemType::Int, 2},
    {"i32", "i32", "<i4", ElemType::Int, 4},
    {"i64", "i64", "<i8", ElemType::Int, 8},
    {"u8", "u8", "|u1", ElemType::UInt, 1},
    {"u16", "u16", "<u2", ElemType::UInt, 2},
    {"u32", "u32", "<u4", ElemType::UInt, 4},
    {"u64", "u64", "<u8", ElemType::UInt, 8},
    {"bool", "i1", "|b1", ElemType::Bool, 1},
    {"fp8e4nv", "fp8e4nv", "|u1", ElemType::Fp8, 1},
    {"fp8e5", "fp8e5", "|u1", ElemType::Fp8, 1},
    {"fp8e4b15", "fp8e4b15", "|u1", ElemType::Fp8, 1},
    {"fp8e4b8", "fp8e4b8", "|u1", ElemType::Fp8, 1},
    {"fp8e5b16", "fp8e5b16", "|u1", ElemType::Fp8, 1},
};

std::string trim(const std::string &s) {
  size_t a = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, e - a + 1);
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A uniform double in [0, 1) from 53 random bits.
double uniform01(std::mt19937_64 &g) { return double(g() >> 11) * 0x1.0p-53; }

const char *kValueForms =
    "expected an integer, a float, True/False, a .npy path or a generator "
    "such as randn:f32[1024] (randn, rand, randint, zeros, ones, empty)";
} // namespace

const ElemType *tritium::run::lookupElemType(const std::string &s) {
  static const std::pair<const char *, const char *> kAliases[] = {
      {"fp16", "f16"},     {"float16", "f16"},   {"half", "f16"},
      {"fp32", "f32"},     {"float32", "f32"},   {"float", "f32"},
      {"fp64", "f64"},     {"float64", "f64"},   {"double", "f64"},
      {"bfloat16", "bf16"}, {"int8", "i8"},      {"int16", "i16"},
      {"int32", "i32"},    {"int64", "i64"},     {"uint8", "u8"},
      {"uint16", "u16"},   {"uint32", "u32"},    {"uint64", "u64"},
      {"i1", "bool"},      {"int1", "bool"},     {"fp8e4m3", "fp8e4nv"},
      {"fp8e5m2", "fp8e5"}};
  std::string name = s;
  for (auto &[alias, canon] : kAliases)
    if (name == alias)
      name = canon;
  for (const ElemType &t : kTypes)
    if (name == t.name)
      return &t;
  return nullptr;
}

const ElemType *tritium::run::elemTypeForNpy(const std::string &npyDtype) {
  for (const ElemType &t : kTypes)
    if (npyDtype == t.npy && t.cls != ElemType::Fp8 && std::strcmp(t.name, "bf16") != 0)
      return &t;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

double tritium::run::loadElement(const rt::NpyArray &a, const ElemType &t, size_t i) {
  const uint8_t *p = a.data.data() + i * t.bytes;
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (t.cls) {
  case ElemType::Float:
    if (t.bytes == 8)
      return get(double());
    if (t.bytes == 4)
      return get(float());
    return std::strcmp(t.name, "bf16") == 0 ? bf16ToFloat(get(uint16_t()))
                                            : halfToFloat(get(uint16_t()));
  case ElemType::Int:
    switch (t.bytes) {
    case 1: return get(int8_t());
    case 2: return get(int16_t());
    case 4: return get(int32_t());
    default: return double(get(int64_t()));
    }
  case ElemType::Bool:
    return *p ? 1.0 : 0.0;
  case ElemType::UInt:
  case ElemType::Fp8: // compared by raw bits
    switch (t.bytes) {
    case 1: return get(uint8_t());
    case 2: return get(uint16_t());
    case 4: return get(uint32_t());
    default: return double(get(uint64_t()));
    }
  }
  return 0;
}

void tritium::run::storeElement(rt::NpyArray &a, const ElemType &t, size_t i, double v) {
  uint8_t *p = a.data.data() + i * t.bytes;
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof(x)); };
  switch (t.cls) {
  case ElemType::Float:
    if (t.bytes == 8)
      put(v);
    else if (t.bytes == 4)
      put(float(v));
    else
      put(std::strcmp(t.name, "bf16") == 0 ? floatToBf16(float(v)) : floatToHalf(float(v)));
    return;
  case ElemType::Bool:
    put(uint8_t(v != 0));
    return;
  case ElemType::Int:
  case ElemType::UInt:
  case ElemType::Fp8: {
    int64_t x = int64_t(v);
    switch (t.bytes) {
    case 1: put(uint8_t(x)); return;
    case 2: put(uint16_t(x)); return;
    case 4: put(uint32_t(x)); return;
    default: put(x); return;
    }
  }
  }
}

//===----------------------------------------------------------------------===//
// Parsing --arg values
//===----------------------------------------------------------------------===//

std::string HostValue::specialization() const {
  switch (kind) {
  case Buffer:
    return rt::specializePointer(elem->sig, array.data.data());
  case Float:
    return rt::specializeFloat();
  case Bool:
    return rt::specializeBool();
  case Int:
    return rt::specializeInt(i, isUnsigned);
  }
  return "";
}

std::optional<std::string> tritium::run::splitAssignment(const std::string &opt,
                                                         const std::string &text,
                                                         std::string &name,
                                                         std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || trim(text.substr(0, eq)).empty())
    return opt + " '" + text + "': expected NAME=VALUE";
  name = trim(text.substr(0, eq));
  value = trim(text.substr(eq + 1));
  if (value.empty())
    return opt + " '" + text + "': the value after '=' is empty";
  return std::nullopt;
}

std::optional<std::string> tritium::run::parseGrid(const std::string &text,
                                                   std::array<int64_t, 3> &grid) {
  grid = {1, 1, 1};
  std::stringstream ss(text);
  std::string item;
  size_t n = 0;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (n == 3)
      return "--grid '" + text + "': at most 3 dimensions (X[,Y[,Z]])";
    if (item.empty() || item.size() > 12 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      return "--grid '" + text + "': '" + item + "' is not a positive integer";
    grid[n] = std::stoll(item);
    if (grid[n] < 1)
      return "--grid '" + text + "': sizes must be at least 1";
    ++n;
  }
  if (n == 0)
    return "--grid '" + text + "': expected X[,Y[,Z]]";
  return std::nullopt;
}

static std::optional<std::string> parseScalar(const std::string &name,
                                              const std::string &s, HostValue &out) {
  out.kind = HostValue::Int;
  out.name = name;
  if (s == "True" || s == "False" || s == "true" || s == "false") {
    out.kind = HostValue::Bool;
    out.i = s[0] == 'T' || s[0] == 't';
    return std::nullopt;
  }
  std::string digits;
  for (char c : s)
    if (c != '_')
      digits += c;
  bool neg = !digits.empty() && digits[0] == '-';
  std::string body = digits.substr(neg || (!digits.empty() && digits[0] == '+') ? 1 : 0);
  bool hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  bool isInt = !body.empty() &&
               (hex ? body.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos
                    : body.find_first_not_of("0123456789") == std::string::npos);
  if (isInt) {
    errno = 0;
    unsigned long long u = std::strtoull(body.c_str(), nullptr, hex ? 16 : 10);
    if (errno == ERANGE || (neg && u > (1ull << 63)))
      return "--arg " + name + "=" + s + ": the integer does not fit in 64 bits";
    out.i = neg ? int64_t(0 - u) : int64_t(u);
    out.isUnsigned = !neg && u > uint64_t(INT64_MAX);
    return std::nullopt;
  }
  char *end = nullptr;
  double f = std::strtod(s.c_str(), &end);
  if (!s.empty() && end && *end == 0) {
    out.kind = HostValue::Float;
    out.f = f;
    return std::nullopt;
  }
  return "--arg " + name + "=" + s + ": " + kValueForms;
}

static std::optional<std::string> loadNpyArg(const std::string &name,
                                             const std::string &spec, HostValue &out) {
  std::string path = spec, view;
  size_t dot = spec.rfind(".npy:");
  if (dot != std::string::npos) {
    path = spec.substr(0, dot + 4);
    view = spec.substr(dot + 5);
  }
  out.kind = HostValue::Buffer;
  out.name = name;
  if (auto err = rt::readNpy(path, out.array))
    return "--arg " + name + ": " + *err;
  if (view.empty()) {
    out.elem = elemTypeForNpy(out.array.dtype);
    return std::nullopt;
  }
  const ElemType *t = lookupElemType(view);
  if (!t)
    return "--arg " + name + "=" + spec + ": unknown dtype '" + view + "'";
  bool sameBits = out.array.dtype == t->npy;
  bool intView = out.array.itemSize() == t->bytes &&
                 (out.array.dtype[1] == 'u' || out.array.dtype[1] == 'i');
  if (!sameBits && !intView)
    return "--arg " + name + "=" + spec + ": cannot view a '" + out.array.dtype +
           "' file as " + t->name + " (needs a " + std::to_string(t->bytes) +
           "-byte integer array)";
  out.elem = t;
  out.array.dtype = t->npy;
  return std::nullopt;
}

static std::optional<std::string> generate(const std::string &name, const std::string &spec,
                                           uint64_t seed, HostValue &out) {
  auto fail = [&](const std::string &why) {
    return std::optional<std::string>("--arg " + name + "=" + spec + ": " + why);
  };
  size_t colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  static const char *kKinds[] = {"randn", "rand", "randint", "zeros", "ones", "empty"};
  bool known = false;
  for (const char *k : kKinds)
    known |= kind == k;
  if (!known)
    return fail("unknown generator '" + kind +
                "' (expected randn, rand, randint, zeros, ones or empty)");
  size_t lb = spec.find('[', colon), rb = spec.rfind(']');
  if (lb == std::string::npos || rb == std::string::npos || rb < lb ||
      rb + 1 != spec.size())
    return fail("expected KIND:DTYPE[SHAPE], e.g. " + kind + ":f32[1024,1024]");
  std::string dtype = trim(spec.substr(colon + 1, lb - colon - 1));
  const ElemType *t = lookupElemType(dtype);
  if (!t)
    return fail("unknown dtype '" + dtype +
                "' (expected f16 f32 f64 bf16 i8 i16 i32 i64 u8 u16 u32 u64 bool)");
  std::vector<int64_t> shape;
  std::string dims = spec.substr(lb + 1, rb - lb - 1);
  if (!trim(dims).empty()) {
    std::stringstream ss(dims);
    std::string d;
    while (std::getline(ss, d, ',')) {
      d = trim(d);
      if (d.empty() || d.size() > 12 || d.find_first_not_of("0123456789") != std::string::npos)
        return fail("shape entry '" + d +
                    "' is not a number; give every size as an integer, e.g. " + kind +
                    ":" + dtype + "[1024]");
      shape.push_back(std::stoll(d));
    }
  }
  bool isFloat = t->cls == ElemType::Float;
  if (t->cls == ElemType::Fp8 && kind != "zeros" && kind != "empty")
    return fail(std::string(t->name) + " buffers can only be generated by zeros or empty");
  if ((kind == "randn" || kind == "rand") && !isFloat)
    return fail(kind + " needs a float dtype (f16, bf16, f32, f64); use randint for " +
                t->name);
  out = HostValue();
  out.kind = HostValue::Buffer;
  out.name = name;
  out.elem = t;
  out.array.dtype = t->npy;
  out.array.shape = shape;
  size_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > (size_t(1) << 36) / size_t(d))
      return fail("the buffer is too large");
    n *= size_t(d);
  }
  try {
    out.array.allocate();
  } catch (const std::bad_alloc &) {
    return fail("out of memory allocating " + std::to_string(n * t->bytes) + " bytes");
  }
  if (kind == "zeros")
    return std::nullopt;
  if (kind == "empty") {
    std::fill(out.array.data.begin(), out.array.data.end(),
              uint8_t(isFloat || t->cls == ElemType::Fp8 ? 0xFF : 0xCD));
    out.uninitialized = true;
    return std::nullopt;
  }
  uint64_t stream = seed;
  for (char c : name) // FNV-1a over the name: one stream per argument
    stream = (stream ^ uint8_t(c)) * 0x100000001b3ull;
  std::mt19937_64 g(splitmix64(stream));
  for (size_t i = 0; i < n; ++i) {
    double v = 1;
    if (kind == "rand") {
      v = uniform01(g);
    } else if (kind == "randn") {
      // Box-Muller; u1 in (0, 1] keeps the log finite.
      double u1 = 1.0 - uniform01(g), u2 = uniform01(g);
      v = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    } else if (kind == "randint") {
      uint64_t r = g();
      if (t->cls == ElemType::Bool)
        v = double(r >> 63);
      else if (t->cls == ElemType::UInt)
        v = double(r % 200);
      else
        v = double(int64_t(r % 200) - 100);
    }
    storeElement(out.array, *t, i, v);
  }
  return std::nullopt;
}

std::optional<std::string> tritium::run::parseHostValue(const std::string &name,
                                                        const std::string &text,
                                                        uint64_t seed, HostValue &out) {
  std::string s = trim(text);
  out = HostValue();
  if (endsWith(s, ".npy") || s.find(".npy:") != std::string::npos)
    return loadNpyArg(name, s, out);
  if (s.find(':') != std::string::npos)
    return generate(name, s, seed, out);
  return parseScalar(name, s, out);
}

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

Tolerance tritium::run::defaultTolerance(const ElemType &t) {
  if (t.cls != ElemType::Float)
    return {0, 0};
  if (t.bytes == 8)
    return {1e-9, 1e-12};
  if (t.bytes == 4)
    return {1e-5, 1e-6};
  return {1e-2, 1e-2};
}

std::string tritium::run::formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

static std::string unravel(size_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? int64_t(flat % size_t(shape[d])) : 0;
    flat = shape[d] ? flat / size_t(shape[d]) : 0;
  }
  return formatShape(idx);
}

static std::string num(double v) {
  std::ostringstream os;
  os.precision(7);
  os << v;
  return os.str();
}

CheckResult tritium::run::compareWithReference(const HostValue &out,
                                               const rt::NpyArray &ref,
                                               const std::string &refName,
                                               Tolerance tol) {
  CheckResult r;
  std::string head = "check " + out.name + " vs " + refName + ": ";
  if (out.kind != HostValue::Buffer) {
    r.line = head + "FAIL: '" + out.name + "' is not a buffer";
    return r;
  }
  if (out.array.shape != ref.shape) {
    r.line = head + "FAIL: shape mismatch: the buffer is " + formatShape(out.array.shape) +
             ", the reference is " + formatShape(ref.shape);
    return r;
  }
  // The reference holds the buffer's own bits (e.g. bf16 as <u2) or any
  // numeric dtype, decoded as itself.
  const ElemType *rt = ref.dtype == out.array.dtype ? out.elem : elemTypeForNpy(ref.dtype);
  if (!rt) {
    r.line = head + "FAIL: unsupported reference dtype '" + ref.dtype + "'";
    return r;
  }
  size_t n = out.array.numElements(), worst = 0, nanMismatch = 0, firstNan = 0;
  double diff2 = 0, ref2 = 0, worstOut = 0, worstRef = 0;
  for (size_t i = 0; i < n; ++i) {
    double o = loadElement(out.array, *out.elem, i), e = loadElement(ref, *rt, i);
    if (std::isnan(o) || std::isnan(e)) {
      if (std::isnan(o) != std::isnan(e) && nanMismatch++ == 0)
        firstNan = i;
      continue;
    }
    double d = o == e ? 0 : std::fabs(o - e);
    if (std::isfinite(e))
      ref2 += e * e;
    diff2 += std::isfinite(d) ? d * d : std::numeric_limits<double>::infinity();
    if (!(d <= tol.atol + tol.rtol * std::fabs(e)))
      ++r.failures;
    if (d > r.maxAbs || (i == 0 && d == 0)) {
      r.maxAbs = d;
      worst = i;
      worstOut = o;
      worstRef = e;
    }
  }
  r.relL2 = ref2 > 0 ? std::sqrt(diff2) / std::sqrt(ref2) : std::sqrt(diff2);
  r.failures += nanMismatch;
  r.pass = r.failures == 0;
  std::string stats = "rel_l2 " + num(r.relL2) + ", max_abs " + num(r.maxAbs);
  if (n)
    stats += " at " + unravel(worst, out.array.shape) + " (out " + num(worstOut) +
             ", ref " + num(worstRef) + ")";
  stats += ", rtol " + num(tol.rtol) + " atol " + num(tol.atol);
  if (r.pass) {
    r.line = head + "PASS (" + std::to_string(n) + " elements, " + stats + ")";
  } else {
    r.line = head + "FAIL: " + std::to_string(r.failures) + " of " + std::to_string(n) +
             " elements differ (" + stats + ")";
    if (nanMismatch)
      r.line += "; " + std::to_string(nanMismatch) + " NaN position mismatches, first at " +
                unravel(firstNan, out.array.shape);
  }
  return r;
}

//===- Sanitize.cpp - the interpreter's NaN/Inf sanitizer -----------------===//
//
// After each op of a program (runBlock), while the program has reported
// nothing yet: a float result holding a NaN or an infinity where the op's
// float operands were finite is the NaN's origin, and is reported with the
// op, its line, the lane and the operands' values there. Operands shaped
// like the result are compared lane by lane (a NaN elsewhere in them does
// not hide a new one); an operand of another shape (a scalar, a tile a
// reduction or product reads whole) counts as non-finite if any element is.
// Ops that read memory (a NaN loaded is the data's, not the op's),
// bitcasts (the bits were a NaN's already) and control flow (its results are its regions' yields, whose ops are checked
// themselves) are not checked; nor are the per-lane ops of combine regions
// (their reduction is).
//
//===----------------------------------------------------------------------===//
#include "interpreter/Interpreter.h"
#include "interpreter/Program.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tritium::interp {

namespace {
bool finite(const Frame &f, int slot, int64_t i) {
  return std::isfinite(readFloat(f.slot[slot], i, f.prog->slots[slot].kind));
}

bool allFinite(const Frame &f, int slot) {
  int64_t n = f.prog->slots[slot].elems;
  for (int64_t i = 0; i < n; ++i)
    if (!finite(f, slot, i))
      return false;
  return true;
}

} // namespace

bool nanCheckable(const Op &op, const std::vector<SlotInfo> &slots) {
  if (op.n < 0 || op.res.empty())
    return false; // a combine region's per-lane op, or nothing to check
  const char *name = op.name;
  if (!std::strncmp(name, "scf.", 4) || std::strstr(name, "load") ||
      std::strstr(name, "gather") || std::strstr(name, "atomic") ||
      std::strstr(name, "bitcast"))
    return false;
  for (int s : op.in)
    if (slots[s].kind == EK::Ptr)
      return false;
  return true;
}

void checkNanOrigin(const Op &op, Frame &f) {
  const auto &slots = f.prog->slots;
  // Operands read whole (not shaped like the result) must be finite
  // throughout; operands shaped like the result, at the lane.
  for (int r : op.res) {
    const SlotInfo &ri = slots[r];
    if (!isFloat(ri.kind))
      continue;
    std::vector<int> lanewise;
    bool wholeFinite = true;
    for (int s : op.in) {
      if (!isFloat(slots[s].kind))
        continue;
      if (slots[s].elems == ri.elems)
        lanewise.push_back(s);
      else if (!allFinite(f, s))
        wholeFinite = false;
    }
    if (!wholeFinite)
      continue;
    for (int64_t i = 0; i < ri.elems; ++i) {
      if (finite(f, r, i))
        continue;
      bool fromFinite = true;
      for (int s : lanewise)
        fromFinite &= finite(f, s, i);
      if (!fromFinite)
        continue;
      double v = readFloat(f.slot[r], i, ri.kind);
      std::string what = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
      std::string text = "NaN/Inf sanitizer: kernel " + f.prog->kernelName + ", program " +
                         f.pidText() + ", " + op.loc + ": " + op.name +
                         (op.text.empty() ? "" : " (" + op.text + ")") + " made " + what;
      if (ri.elems > 1)
        text += " at lane " + laneText(op, i);
      text += " from finite operands";
      if (!op.in.empty()) {
        text += ":";
        for (size_t k = 0; k < op.in.size(); ++k) {
          int s = op.in[k];
          text += k ? ", " : " ";
          if (slots[s].elems == ri.elems)
            text += elementText(f, s, i, 9);
          else if (slots[s].elems == 1)
            text += elementText(f, s, 0, 9);
          else
            text += "(a tile of " + std::to_string(slots[s].elems) + ")";
        }
      }
      if (!f.reports.empty())
        f.reports += "\n";
      f.reports += text;
      f.nanReported = true;
      return;
    }
  }
}

void checkSignedOverflow(const Op &op, Frame &f) {
  EK k = op.kind;
  if (!isInt(k) || k == EK::I1)
    return;
  unsigned bits = elemBytes(k) * 8;
  const int64_t lo = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
  const int64_t hi = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
  const auto &slots = f.prog->slots;
  int a = op.in[0], b = op.in[1];
  int64_t na = slots[a].elems, nb = slots[b].elems, n = slots[op.res[0]].elems;
  const char sym = op.signedArith;
  for (int64_t i = 0; i < n; ++i) {
    int64_t x = readInt(f.slot[a], na == n ? i : 0, k, true);
    int64_t y = readInt(f.slot[b], nb == n ? i : 0, k, true);
    __int128 r = sym == '+'   ? __int128(x) + y
                 : sym == '-' ? __int128(x) - y
                              : __int128(x) * y;
    if (r >= lo && r <= hi)
      continue;
    auto text128 = [](__int128 v) {
      bool neg = v < 0;
      unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
      std::string s;
      do {
        s.insert(s.begin(), char('0' + int(u % 10)));
        u /= 10;
      } while (u);
      return neg ? "-" + s : s;
    };
    if (!f.reports.empty())
      f.reports += "\n";
    f.reports += "integer-overflow sanitizer: kernel " + f.prog->kernelName + ", program " +
                 f.pidText() + ", " + op.loc + ": " + op.name + " overflows " + kindName(k) +
                 (n > 1 ? " at lane " + laneText(op, i) : std::string()) + ": " +
                 std::to_string(x) + " " + sym + " " + std::to_string(y) + " = " + text128(r);
    f.overflowReported = true;
    return;
  }
}

void printReports(const std::vector<std::string> &reports) {
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < reports.size() && i < kShown; ++i)
    std::fprintf(stderr, "%s\n", reports[i].c_str());
  if (reports.size() > kShown)
    std::fprintf(stderr, "sanitizer: %zu more programs reported (%zu in all)\n",
                 reports.size() - kShown, reports.size());
  std::fflush(stderr);
}

std::optional<std::string> parseSanitizers(const std::string &list, unsigned &bits) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos)
      end = list.size();
    std::string name = list.substr(start, end - start);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name == "nan")
      bits |= SanitizeNan;
    else if (name == "uninit")
      bits |= SanitizeUninit;
    else if (name == "race")
      bits |= SanitizeRace;
    else if (name == "overflow")
      bits |= SanitizeOverflow;
    else if (!name.empty())
      return "unknown sanitizer '" + name +
             "' (the interpreter has: nan, uninit, race, overflow)";
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> sanitizersFromEnvironment(unsigned &bits) {
  const char *env = std::getenv("TRITIUM_SANITIZE");
  if (!env || !*env)
    return std::nullopt;
  if (auto err = parseSanitizers(env, bits))
    return "TRITIUM_SANITIZE: " + *err;
  return std::nullopt;
}

} // namespace tritium::interp

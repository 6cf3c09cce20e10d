//===- Signature.cpp - Triton AOT signatures and constexpr literals -------===//
//
// Parses a kernel specialization written the way Triton's AOT compiler takes
// it ("*fp32:16,i32,1024,...") into one ParamSpec per parameter, and the
// literal spelling of compile-time values used by signatures and by builtin
// parameter defaults.
//
//===----------------------------------------------------------------------===//
#include "frontend/Emitter.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

using namespace tritium::fe;

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

std::optional<std::string>
tritium::fe::parseSignature(const std::string &sig, std::vector<ParamSpec> &out) {
  out.clear();
  if (sig.find_first_not_of(" \t") == std::string::npos)
    return std::nullopt;
  std::stringstream ss(sig);
  std::string item;
  int index = 0;
  while (std::getline(ss, item, ',')) {
    size_t a = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    std::string s = a == std::string::npos ? "" : item.substr(a, e - a + 1);
    if (s.empty())
      return "signature entry " + std::to_string(index) + " is empty";
    ParamSpec p;
    std::string type = s, attr;
    size_t colon = s.find(':');
    if (colon != std::string::npos) {
      type = s.substr(0, colon);
      attr = s.substr(colon + 1);
    }
    DType d;
    if (DType::fromSigName(type, d)) {
      p.kind = ParamSpec::Runtime;
      p.type = type;
      if (attr == "16")
        p.divisibility = 16;
      else if (attr == "1") {
        if (d.isPtr())
          return "signature entry " + std::to_string(index) + " '" + s +
                 "': ':1' (equal to one) applies to integers, not pointers";
        p.equalsOne = true;
      } else if (!attr.empty())
        return "signature entry " + std::to_string(index) + " '" + s +
               "': unknown specialization ':" + attr + "' (expected :16 or :1)";
    } else {
      bool looksLikeType = !s.empty() && (s[0] == '*' ||
          ((s.rfind("i", 0) == 0 || s.rfind("u", 0) == 0 || s.rfind("fp", 0) == 0 ||
            s.rfind("bf", 0) == 0) && s.size() <= 8 &&
           s.find_first_not_of("iufpbe0123456789nvkm") == std::string::npos &&
           std::isdigit((unsigned char)s.back())));
      if (looksLikeType || colon != std::string::npos)
        return "signature entry " + std::to_string(index) + " '" + s +
               "': unknown type (expected i1, i8..i64, u8..u64, fp16, bf16, "
               "fp32, fp64, fp8e4nv, fp8e5, fp8e4b15, '*' for pointers, or a "
               "constexpr value)";
      p.kind = ParamSpec::Constexpr;
      p.value = s;
      bool integer = s.find_first_not_of("0123456789", s[0] == '-' ? 1 : 0) ==
                         std::string::npos && s != "-";
      if (integer) {
        errno = 0;
        if (s[0] == '-')
          (void)std::strtoll(s.c_str(), nullptr, 10);
        else
          (void)std::strtoull(s.c_str(), nullptr, 10);
        if (errno == ERANGE)
          return "signature entry " + std::to_string(index) + " '" + s +
                 "': the integer does not fit in 64 bits";
      }
    }
    out.push_back(p);
    ++index;
  }
  return std::nullopt;
}

/// A constexpr from its signature spelling: int, float, bool, None, string.
TValue tritium::fe::parseConstexprLiteral(const std::string &s) {
  if (s == "True" || s == "true") return TValue::boolean(true);
  if (s == "False" || s == "false") return TValue::boolean(false);
  if (s == "None") return TValue::none();
  if (s.empty()) return TValue::str("");
  if (s == "()") return TValue::tuple({});
  DType d;
  if (DType::fromTlName(s, d)) return TValue::type(d);
  char *end = nullptr;
  errno = 0;
  long long i = std::strtoll(s.c_str(), &end, 0);
  if (end && *end == 0 && errno == 0) return TValue::integer(i);
  if (end && *end == 0 && s[0] != '-') { // [2^63, 2^64): an unsigned int
    errno = 0;
    unsigned long long u = std::strtoull(s.c_str(), &end, 0);
    if (errno == 0) {
      TValue v = TValue::integer(int64_t(u));
      v.unsignedInt = true;
      return v;
    }
  }
  double f = std::strtod(s.c_str(), &end);
  if (end && *end == 0) return TValue::floating(f);
  std::string str = s;
  if (str.size() >= 2 && (str[0] == '"' || str[0] == '\'') && str.back() == str[0])
    str = str.substr(1, str.size() - 2);
  return TValue::str(str);
}

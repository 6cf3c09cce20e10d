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

namespace {

/// Splits `s` at the commas outside parentheses and quotes; an error for
/// unbalanced parentheses or an unterminated quote.
std::optional<std::string> splitTop(const std::string &s, std::vector<std::string> &out) {
  out.clear();
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : s) {
    if (quote) {
      cur += c;
      if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[' || c == '<')
      ++depth;
    else if ((c == ')' || c == ']' || c == '>') && --depth < 0)
      return std::string("unbalanced '") + c + "'";
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (quote)
    return std::string("unterminated quote");
  if (depth)
    return std::string("an unclosed '(', '[' or '<'");
  out.push_back(cur);
  return std::nullopt;
}

std::string trimmed(const std::string &item) {
  size_t a = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
  return a == std::string::npos ? "" : item.substr(a, e - a + 1);
}

/// One entry (a type, a constexpr literal or a parenthesized tuple) into
/// `p`; `where` names it in messages ("signature entry 2", "... element 1").
std::optional<std::string> parseEntry(const std::string &s, const std::string &where,
                                      ParamSpec &p) {
  if (s.empty())
    return where + " is empty";
  if (s.front() == '(') {
    if (s.back() != ')')
      return where + " '" + s + "': text after the tuple's ')'";
    std::string inner = trimmed(s.substr(1, s.size() - 2));
    p.kind = ParamSpec::Tuple;
    if (inner.empty())
      return std::nullopt;
    std::vector<std::string> items;
    if (auto err = splitTop(inner, items))
      return where + " '" + s + "': " + *err;
    if (items.size() > 1 && trimmed(items.back()).empty())
      items.pop_back(); // "(x,)"
    for (size_t i = 0; i < items.size(); ++i) {
      ParamSpec e;
      if (auto err = parseEntry(trimmed(items[i]), where + " element " + std::to_string(i), e))
        return err;
      p.elems.push_back(std::move(e));
    }
    return std::nullopt;
  }
  if (s.rfind("tensordesc<", 0) == 0) {
    // tensordesc<fp16[64,64]> or tensordesc<fp16[64,64],nan>, then ":16"
    // when the shape is a multiple of 16 in every dimension.
    std::string bad = where + " '" + s + "': expected tensordesc<TYPE[B0,B1,...]> "
                                         "with an optional ',nan' or ',zero' padding "
                                         "and an optional ':16' after it";
    std::string d = s;
    if (d.size() > 3 && d.compare(d.size() - 3, 3, ":16") == 0) {
      p.divisibility = 16;
      d = d.substr(0, d.size() - 3);
    }
    size_t open = d.find('['), close = d.find(']');
    if (d.back() != '>' || open == std::string::npos || close == std::string::npos ||
        close < open)
      return bad;
    p.kind = ParamSpec::Descriptor;
    p.type = trimmed(d.substr(11, open - 11));
    DType et;
    if (!DType::fromSigName(p.type, et) || et.isPtr())
      return where + " '" + s + "': unknown element type '" + p.type + "'";
    std::vector<std::string> dims;
    splitTop(d.substr(open + 1, close - open - 1), dims);
    for (auto &dim : dims) {
      std::string t = trimmed(dim);
      if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos ||
          t.size() > 9)
        return bad;
      p.block.push_back(std::stoll(t));
    }
    std::string rest = trimmed(d.substr(close + 1, d.size() - close - 2));
    if (!rest.empty()) {
      if (rest[0] != ',')
        return bad;
      p.padding = trimmed(rest.substr(1));
      if (p.padding != "nan" && p.padding != "zero")
        return bad;
    }
    return std::nullopt;
  }
  if (s.rfind("@jit:", 0) == 0) { // a @jit function, by its qualified name
    p.kind = ParamSpec::Constexpr;
    p.value = s;
    return std::nullopt;
  }
  std::string type = s, attr;
  size_t colon = s.find(':');
  bool quoted = s.front() == '\'' || s.front() == '"';
  if (colon != std::string::npos && !quoted) {
    type = s.substr(0, colon);
    attr = s.substr(colon + 1);
  }
  DType d;
  if (!quoted && DType::fromSigName(type, d)) {
    p.kind = ParamSpec::Runtime;
    p.type = type;
    if (attr == "16")
      p.divisibility = 16;
    else if (attr == "1") {
      if (d.isPtr())
        return where + " '" + s + "': ':1' (equal to one) applies to integers, not pointers";
      p.equalsOne = true;
    } else if (!attr.empty())
      return where + " '" + s + "': unknown specialization ':" + attr +
             "' (expected :16 or :1)";
    return std::nullopt;
  }
  bool looksLikeType = !quoted && (s[0] == '*' ||
      ((s.rfind("i", 0) == 0 || s.rfind("u", 0) == 0 || s.rfind("fp", 0) == 0 ||
        s.rfind("bf", 0) == 0) && s.size() <= 8 &&
       s.find_first_not_of("iufpbe0123456789nvkm") == std::string::npos &&
       std::isdigit((unsigned char)s.back())));
  if (looksLikeType || (colon != std::string::npos && !quoted))
    return where + " '" + s +
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
      return where + " '" + s + "': the integer does not fit in 64 bits";
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string>
tritium::fe::parseSignature(const std::string &sig, std::vector<ParamSpec> &out) {
  out.clear();
  if (sig.find_first_not_of(" \t") == std::string::npos)
    return std::nullopt;
  std::vector<std::string> items;
  if (auto err = splitTop(sig, items))
    return "signature '" + sig + "': " + *err;
  for (size_t i = 0; i < items.size(); ++i) {
    ParamSpec p;
    if (auto err = parseEntry(trimmed(items[i]), "signature entry " + std::to_string(i), p))
      return err;
    out.push_back(std::move(p));
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

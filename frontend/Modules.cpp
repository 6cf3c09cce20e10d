//===- Modules.cpp - the Python modules a kernel may import ---------------===//
//
// Implements Modules.h: registration with name checks, parsing a module on
// first use, and the package arithmetic of relative imports.
//
//===----------------------------------------------------------------------===//
#include "frontend/Modules.h"

using namespace tritium::fe;

namespace {
bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (static_cast<unsigned char>(c) & 0x80);
}

bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9');
}

/// Whether `name` is NAME ('.' NAME)*.
bool isDottedName(const std::string &name) {
  bool atStart = true;
  for (char c : name) {
    if (c == '.') {
      if (atStart)
        return false;
      atStart = true;
    } else if (atStart ? isIdentifierStart(c) : isIdentifierChar(c)) {
      atStart = false;
    } else {
      return false;
    }
  }
  return !atStart;
}

bool isPackageFile(const std::string &path) {
  static const std::string init = "__init__.py";
  if (path.size() < init.size() ||
      path.compare(path.size() - init.size(), init.size(), init) != 0)
    return false;
  if (path.size() == init.size())
    return true;
  char sep = path[path.size() - init.size() - 1];
  return sep == '/' || sep == '\\';
}
} // namespace

std::optional<std::string> ModuleSet::add(const std::string &name,
                                          std::string text, std::string path) {
  if (!isDottedName(name))
    return "'" + name +
           "' is not a module name (dotted Python identifiers, "
           "e.g. 'helpers' or 'pkg.sub')";
  auto it = entries_.find(name);
  if (it != entries_.end() && it->second->path == path &&
      it->second->text == text)
    return std::nullopt;
  auto entry = std::make_shared<Entry>();
  entry->path = std::move(path);
  entry->text = std::move(text);
  entries_[name] = std::move(entry);
  return std::nullopt;
}

const ParseResult *ModuleSet::parsed(const std::string &name) const {
  auto it = entries_.find(name);
  if (it == entries_.end())
    return nullptr;
  const Entry &e = *it->second;
  if (!e.parsed)
    e.parsed = std::make_unique<ParseResult>(parseSource(e.path, e.text));
  return e.parsed.get();
}

std::string ModuleSet::pathOf(const std::string &name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? "" : it->second->path;
}

std::string ModuleSet::nameOf(const std::string &path,
                              const std::string &text) const {
  for (auto &[name, entry] : entries_)
    if (entry->path == path && entry->text == text)
      return name;
  return "";
}

std::string ModuleSet::packageOf(const std::string &name) const {
  if (isPackageFile(pathOf(name)))
    return name;
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

std::optional<std::string>
tritium::fe::resolveRelativeImport(const std::string &qualified,
                                   const std::string &package) {
  size_t level = 0;
  while (level < qualified.size() && qualified[level] == '.')
    ++level;
  if (level == 0)
    return qualified;
  // One dot is the package itself; each further dot climbs one level.
  std::string base = package;
  if (base.empty())
    return std::nullopt;
  for (size_t i = 1; i < level; ++i) {
    size_t dot = base.rfind('.');
    if (dot == std::string::npos)
      return std::nullopt;
    base.resize(dot);
  }
  std::string rest = qualified.substr(level);
  return rest.empty() ? base : base + "." + rest;
}

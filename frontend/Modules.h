//===- Modules.h - the Python modules a kernel may import -------*- C++ -*-===//
//
// A kernel's file is not the only source IRGen reads: `@jit` helpers and
// `tl.constexpr` globals may live in other Python modules, reached through
// `import helpers`, `from pkg.sub import f as g`, `from . import x` or
// `from helpers import *`. A ModuleSet maps dotted module names to their
// source text and file name; IRGen asks it for a module the first time a
// name resolves there, and the module is parsed then, once. Modules that are
// not in the set (triton, triton.language, math, numpy, ...) keep their
// built-in meaning or stay opaque.
//
// A module whose file name is `__init__.py` is a package: relative imports in
// it resolve against its own name; in any other module, against its parent.
// A module registered with the kernel file's own name is the kernel's module
// (so helpers can import it back, and relative imports in the kernel's file
// know their package).
//
// Copies share the parsed modules. Not thread-safe, like the Compiler.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_MODULES_H
#define TRITIUM_FRONTEND_MODULES_H

#include "frontend/Parser.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tritium::fe {

class ModuleSet {
public:
  /// Registers module `name` ("helpers", "pkg.sub") with its source `text`;
  /// `path` appears in messages and locations. Registering a name again
  /// replaces it (unless path and text are unchanged). Returns an error
  /// message when `name` is not a dotted Python identifier.
  std::optional<std::string> add(const std::string &name, std::string text,
                                 std::string path);

  bool contains(const std::string &name) const {
    return entries_.count(name) != 0;
  }
  bool empty() const { return entries_.empty(); }
  /// The parse of module `name` (parsed on the first call); null when it is
  /// not registered.
  const ParseResult *parsed(const std::string &name) const;
  /// The file name module `name` was registered with ("" when it was not).
  std::string pathOf(const std::string &name) const;
  /// The name of the module registered with file `path` and source `text`,
  /// or "". (A function defined inside another is compiled from a text of
  /// its own that names its file: it is not that file's module.)
  std::string nameOf(const std::string &path, const std::string &text) const;
  /// What relative imports in module `name` resolve against: the module
  /// itself for a package (`__init__.py`), else its parent ("" at the top).
  std::string packageOf(const std::string &name) const;

private:
  struct Entry {
    std::string path, text;
    mutable std::unique_ptr<ParseResult> parsed;
  };
  std::map<std::string, std::shared_ptr<const Entry>> entries_;
};

/// The absolute name of a relative import `qualified` (leading dots, as the
/// parser records `from .. import x` as "..x") made in package `package`;
/// nullopt when it climbs above the top-level package. Names without
/// leading dots come back unchanged.
std::optional<std::string> resolveRelativeImport(const std::string &qualified,
                                                 const std::string &package);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_MODULES_H

//===- Builtins.h - registration of the tl.* builtin families ---*- C++ -*-===//
//
// Internal to the frontend. Each Builtins*.cpp file registers one family of
// `tl` functions (and tensor methods, as "tensor.<name>") into the table
// `builtinTable()` serves, plus the small helpers they share.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_BUILTINS_H
#define TRITIUM_FRONTEND_BUILTINS_H

#include "frontend/Emitter.h"

namespace tritium::fe {

using BuiltinTable = std::unordered_map<std::string, BuiltinFn>;

void registerCoreBuiltins(BuiltinTable &t);   // Builtins.cpp
void registerShapeBuiltins(BuiltinTable &t);  // BuiltinsShape.cpp
void registerReduceBuiltins(BuiltinTable &t); // BuiltinsReduce.cpp
void registerMathBuiltins(BuiltinTable &t);   // BuiltinsMath.cpp
void registerMiscBuiltins(BuiltinTable &t);   // BuiltinsMisc.cpp
void registerRandomBuiltins(BuiltinTable &t); // BuiltinsRandom.cpp
void registerAtomicBuiltins(BuiltinTable &t); // BuiltinsAtomic.cpp
void registerDescriptorBuiltins(BuiltinTable &t); // BuiltinsDescriptor.cpp

/// Calls the builtin `name` with positional `args` (a located error if the
/// table has no such entry).
TValue callBuiltin(Emitter &em, const std::string &name, std::vector<TValue> args,
                   SourceLoc l);

/// Registers `names` as aliases of the existing entry `to`.
void alias(BuiltinTable &t, const std::string &to,
           std::initializer_list<const char *> names);

/// A shape given as one tuple/list/int argument `name` or as varargs.
std::vector<int64_t> shapeArgs(Emitter &em, const BoundArgs &a,
                               const std::string &name, SourceLoc l);

/// `v` if it is a tensor (scalar or block), else a located error.
TValue requireBlock(Emitter &em, const TValue &v, SourceLoc l,
                    const std::string &what);

/// A block of `shape` filled with `value` (a constexpr or a scalar tensor).
TValue fullOf(Emitter &em, const std::vector<int64_t> &shape,
              const TValue &value, DType d, SourceLoc l);

} // namespace tritium::fe

#endif // TRITIUM_FRONTEND_BUILTINS_H

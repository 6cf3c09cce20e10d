#include "frontend/Builtins.h"
void tritium::fe::registerAtomicBuiltins(BuiltinTable &t) {}

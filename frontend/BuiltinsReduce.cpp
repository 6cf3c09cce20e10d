#include "frontend/Builtins.h"
void tritium::fe::registerReduceBuiltins(BuiltinTable &t) {}

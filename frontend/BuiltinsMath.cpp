#include "frontend/Builtins.h"
void tritium::fe::registerMathBuiltins(BuiltinTable &t) {}

#include "frontend/Builtins.h"
void tritium::fe::registerRandomBuiltins(BuiltinTable &t) {}

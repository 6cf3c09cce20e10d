"""``triton.compiler``: ``ASTSource`` and ``compile`` (compiling without a
launch, for the current target or cross-compiling for a CUDA one), the
errors, ``GPUTarget``."""

from tritium.compiler import ASTSource, compile
from tritium.errors import CompilationError

from ..backends.compiler import GPUTarget

__all__ = ["ASTSource", "CompilationError", "GPUTarget", "compile"]

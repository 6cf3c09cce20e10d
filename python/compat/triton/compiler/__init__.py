"""``triton.compiler``: ``ASTSource`` and ``compile`` (compiling without a
launch, for the current target or cross-compiling for a CUDA one), the
errors, ``GPUTarget``."""

from tritium.compiler import ASTSource, compile
from tritium.errors import CompilationError

from ..backends.compiler import GPUTarget
from . import errors  # noqa: F401  (triton.compiler.errors.CompilationError)

__all__ = ["ASTSource", "CompilationError", "GPUTarget", "compile"]

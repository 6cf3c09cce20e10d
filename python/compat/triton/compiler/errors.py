"""``triton.compiler.errors``."""

from tritium.errors import CompilationError

__all__ = ["CompilationError"]

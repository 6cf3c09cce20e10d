"""``triton.compiler``: the names Triton code imports from here.
(``triton.compile``/``ASTSource`` are not provided yet: tritium compiles
through ``kernel[grid]``, ``kernel.warmup`` and ``tritium compile``.)"""

from tritium.errors import CompilationError

from ..backends.compiler import GPUTarget

__all__ = ["CompilationError", "GPUTarget"]

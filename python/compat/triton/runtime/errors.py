"""``triton.runtime.errors``: the exceptions Triton's runtime raises, as
tritium raises them."""

from tritium.errors import (AutotunerError, CompilationError,
                            InterpreterError, OutOfResources, PTXASError,
                            TritonError)

__all__ = ["AutotunerError", "CompilationError", "InterpreterError",
           "OutOfResources", "PTXASError", "TritonError"]

"""Exceptions raised by tritium's host API (Triton-compatible names)."""


class TritonError(Exception):
    """Base class of tritium's errors, as in Triton."""


class CompilationError(TritonError):
    """A kernel does not compile.

    The message is the rendered diagnostic: ``file:line:col: error: ...``,
    the source line and a caret under the column; ``error_message`` is the
    reason alone (Triton's attribute).
    """

    def __init__(self, message):
        super().__init__(message)
        self.message = message
        first = message.split("\n", 1)[0]
        self.error_message = first
        for line in message.split("\n"):
            if ": error: " in line:
                self.error_message = line.split(": error: ", 1)[1]
                break

    def __str__(self):
        return self.message


class InterpreterError(TritonError, RuntimeError):
    """A fault while running a kernel on the CPU interpreter.

    For example an out-of-bounds load or a failed ``device_assert``; the
    message names the program id and the source line.
    """

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return self.message


class LaunchOptionError(TypeError, AssertionError):
    """A launch option out of its range (say ``num_warps=3``): a
    ``TypeError``, and an ``AssertionError`` as Triton's checks raise."""


class InterpretedCompilationError(CompilationError, InterpreterError):
    """A kernel that does not compile, launched with ``TRITON_INTERPRET=1``:
    also an ``InterpreterError``, which is what Triton's interpreter raises
    for the same mistakes (it has no compile step)."""


class UnknownArgumentError(KeyError, TypeError):
    """A keyword argument that is neither a kernel parameter nor a launch
    option (a ``KeyError`` as in Triton, and a ``TypeError`` as in Python)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class OutOfResources(TritonError):
    """A config needs more resources than the device has (Triton's name;
    the autotuner counts such configs as infinitely slow)."""

    def __init__(self, required=0, limit=0, name="resources", message=None):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(message or "out of resource: %s, Required: %s, "
                         "Hardware limit: %s" % (name, required, limit))


class PTXASError(TritonError):
    """ptxas rejected a kernel's PTX (the autotuner counts such configs as
    infinitely slow)."""


class AutotunerError(TritonError):
    """The autotuner has no config left to run."""


class CompileReason(TritonError):
    """The reason of a CompilationError, without its location (the error's
    ``__cause__``, as Triton chains the exception its frontend raised)."""

"""``heuristics``: meta-parameters computed from the launch arguments."""

from .jit import KernelInterface


class Heuristics(KernelInterface):
    """Wraps a kernel (a JITFunction or another wrapper); before each launch
    sets ``kwargs[name] = fn(args)`` for each heuristic, where ``args`` maps
    every parameter name given so far to its value."""

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.arg_names = arg_names
        self.values = values
        self.__name__ = getattr(fn, "__name__", "kernel")

    def _apply(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic(named)
            named[name] = kwargs[name]
        return kwargs

    def run(self, *args, **kwargs):
        grid = kwargs.pop("grid", None)
        warmup = kwargs.pop("warmup", False)
        kwargs = self._apply(args, kwargs)
        return self.fn.run(*args, grid=grid, warmup=warmup, **kwargs)

    def warmup(self, *args, grid=None, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


def heuristics(values):
    """``@heuristics({"BLOCK": lambda args: ...})`` above ``@jit``."""

    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)

    return decorator

"""``triton.language.extra.libdevice``: every public name is a placeholder,
since libdevice has hundreds of functions and Python never calls them (the
frontend implements the ones kernels use)."""

from ..core import Placeholder


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    value = Placeholder("triton.language.extra.libdevice." + name)
    globals()[name] = value
    return value

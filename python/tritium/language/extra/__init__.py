"""``triton.language.extra``: ``libdevice`` and ``cuda`` placeholder
modules."""

from . import cuda, libdevice  # noqa: F401

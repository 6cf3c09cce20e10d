"""``triton.language.extra``: the ``libdevice`` placeholder module."""

from . import libdevice  # noqa: F401

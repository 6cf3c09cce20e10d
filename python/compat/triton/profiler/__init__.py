"""``triton.profiler`` (Triton's proton, ``import triton.profiler as
proton``): tritium's profiler under Triton's module name. ``start``,
``activate``, ``deactivate``, ``finalize``, ``scope`` / ``cpu_timed_scope``
(context managers and decorators), ``enter_scope`` / ``exit_scope``,
``profile``, ``get_data`` / ``clear_data``; ``triton.profiler.viewer``
reads the ``.hatchet`` files ``finalize`` writes (see tritium.profiler)."""

from tritium.profiler import (DEFAULT_PROFILE_NAME, activate,  # noqa: F401
                              clear_data, cpu_timed_scope, deactivate,
                              enter_scope, exit_scope, finalize, get_data,
                              profile, scope, start)

__all__ = ["DEFAULT_PROFILE_NAME", "activate", "clear_data", "cpu_timed_scope",
           "deactivate", "enter_scope", "exit_scope", "finalize", "get_data",
           "profile", "scope", "start"]

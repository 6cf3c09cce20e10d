"""``triton.runtime.cache``: where compiled kernels are kept.

tritium's cache is written by its C++ runtime: ``TRITIUM_CACHE_DIR`` (or
``TRITON_CACHE_DIR``), default ``~/.cache/tritium``; every stage and a
checksummed ``metadata.json`` per kernel."""

import os


def default_cache_dir():
    return os.path.join(os.path.expanduser("~"), ".cache", "tritium")


def get_cache_dir():
    """The directory compiled kernels are cached in."""
    return (os.environ.get("TRITIUM_CACHE_DIR")
            or os.environ.get("TRITON_CACHE_DIR") or default_cache_dir())


__all__ = ["default_cache_dir", "get_cache_dir"]

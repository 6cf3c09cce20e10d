"""``triton.runtime._allocation``: the allocator kernels may ask for
scratch memory (``triton.set_allocator``).

tritium's runtime allocates the global scratch its kernels need itself (the
tensor maps of descriptors copied by TMA, one buffer per stream), so the
allocator is kept for code that sets and reads it, and never called."""


class NullAllocator:
    """The default: no allocator was set."""

    def __call__(self, size, alignment, stream):
        raise RuntimeError(
            "kernel requested global scratch memory, but no allocator was "
            "set (triton.set_allocator)")


_allocator = NullAllocator()


def set_allocator(allocator):
    """Sets the function ``(size, alignment, stream) -> buffer`` used for
    scratch memory."""
    global _allocator
    if not callable(allocator):
        raise TypeError("set_allocator expects a callable (size, alignment, "
                        "stream), got %s" % type(allocator).__name__)
    _allocator = allocator


def get_allocator():
    return _allocator

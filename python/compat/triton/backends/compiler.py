"""``triton.backends.compiler``: ``GPUTarget``."""

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class GPUTarget:
    """A compile target: ``GPUTarget("cuda", 90, 32)``; tritium's CPU
    interpreter is ``GPUTarget("cpu", 0, 1)``."""

    backend: str
    arch: Union[int, str]
    warp_size: int


__all__ = ["GPUTarget"]

"""``triton.runtime.autotuner``: tritium's autotuner under Triton's
module name."""

from tritium.autotuner import Autotuner, Config, autotune  # noqa: F401
from tritium.heuristics import Heuristics, heuristics  # noqa: F401

__all__ = ["Autotuner", "Config", "Heuristics", "autotune", "heuristics"]

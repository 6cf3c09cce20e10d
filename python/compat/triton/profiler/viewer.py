"""``triton.profiler.viewer``: ``parse(metrics, file)`` and
``print_tree(tree, metrics)`` over ``.hatchet`` profiles, and
``python -m triton.profiler.viewer -m time/ms,tflop16/s FILE`` (see
tritium.profiler.viewer)."""

import sys

from tritium.profiler.viewer import (Node, Profile,  # noqa: F401
                                     available_metrics, derive_metrics,
                                     filter_frames, main, max_bps, max_flops,
                                     parse, print_tree, read, show_metrics)

__all__ = ["Node", "Profile", "available_metrics", "derive_metrics",
           "filter_frames", "main", "max_bps", "max_flops", "parse",
           "print_tree", "read", "show_metrics"]

if __name__ == "__main__":
    sys.exit(main())

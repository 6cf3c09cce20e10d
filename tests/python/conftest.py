"""pytest setup: the tritium package and the `triton` compatibility package
from the source tree (ctest also sets PYTHONPATH and TRITIUM_LIBRARY)."""

import os
import sys

_root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
for _p in (os.path.join(_root, "python", "compat"),
           os.path.join(_root, "python")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

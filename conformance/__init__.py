"""Conformance harness: runs the kernel corpus (``conformance/kernels``) on
each executor (the CPU interpreter, a CUDA device) and on a float64 numpy
reference, and diffs the outputs per kernel under the tolerance rules of
``compare.py``. Entry point: ``python -m conformance.harness`` (or
``tritium check``)."""

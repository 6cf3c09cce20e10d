"""``triton.language.extra.cuda``: NVIDIA-specific kernel functions
(placeholders; the frontend implements them) and its ``libdevice``."""

from ...core import placeholders
from .. import libdevice  # noqa: F401

placeholders(globals(), "triton.language.extra.cuda.", """
    convert_custom_float8_sm70 convert_custom_float8_sm80 gdc_launch_dependents
    gdc_wait globaltimer num_threads num_warps smid
""")

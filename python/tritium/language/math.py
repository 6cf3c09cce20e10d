"""``triton.language.math`` placeholders (kernel-side only)."""

from .core import placeholders

placeholders(globals(), "triton.language.math.", """
    abs ceil cos div_rn erf exp exp2 fdiv floor fma log log2 max min rsqrt
    sin sqrt sqrt_rn umulhi cdiv clamp
""")

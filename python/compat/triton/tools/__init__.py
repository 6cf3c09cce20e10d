"""``triton.tools``."""

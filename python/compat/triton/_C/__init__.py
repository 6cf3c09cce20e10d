"""``triton._C``: Triton's native extension, by name. tritium has no such
module; ``triton._C.libtriton`` holds the parts user scripts import from it
outside compiling kernels (the vendor BLAS the tutorials compare against)."""

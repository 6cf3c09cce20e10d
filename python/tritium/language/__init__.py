"""``tritium.language`` (``triton.language``, imported as ``tl``): the names
kernel modules use at import time. See core.py."""

import builtins

from . import core
from .core import (DTYPES, Placeholder, block_type, constexpr, constexpr_type,
                   dtype, pointer_type, placeholders)
from .core import (bfloat16, float8e4b8, float8e4b15, float8e4nv, float8e5,
                   float8e5b16, float16, float32, float64, int1, int8, int16,
                   int32, int64, pi32_t, uint8, uint16, uint32, uint64, void)
from . import extra, math

TRITON_MAX_TENSOR_NUMEL = 1048576

# Functions and classes of triton.language (kernel-side only).
placeholders(globals(), "triton.language.", """
    PropagateNan abs add advance arange argmax argmin associative_scan assume
    atomic_add atomic_and atomic_cas atomic_max atomic_min atomic_or
    atomic_xchg atomic_xor broadcast broadcast_to cast cat cdiv ceil clamp
    condition const cos cumprod cumsum debug_barrier device_assert
    device_print div_rn dot dot_scaled erf exp exp2 expand_dims fdiv flip
    floor fma full gather histogram inline_asm_elementwise interleave join
    load load_tensor_descriptor log log2 make_block_ptr
    make_tensor_descriptor map_elementwise max max_constancy max_contiguous
    maximum min minimum mul multiple_of num_programs pair_uniform_to_normal
    permute philox philox_impl program_id rand rand4x randint randint4x
    randn randn4x range ravel reduce reshape rsqrt sigmoid sin softmax sort
    split sqrt sqrt_rn static_assert static_print static_range store sub
    to_tensor
    store_tensor_descriptor sum swizzle2d tensor tensor_descriptor topk
    trans tuple tuple_type umulhi uint_to_uniform_float view where xor_sum
    zeros zeros_like
""")


def str_to_ty(name, c=None):
    """The type a signature string names: "fp16", "i32", "u8", "*fp32"
    (a pointer), "*kfp32" (a const pointer), "constexpr" (the value `c`),
    or a dtype name ("float16", "int32")."""
    if isinstance(name, builtins.tuple):
        return builtins.tuple(str_to_ty(n, c) for n in name)
    if name.startswith("*"):
        rest, const = name[1:], False
        if rest.startswith("k"):
            rest, const = rest[1:], True
        return pointer_type(str_to_ty(rest), const=const)
    if name == "constexpr":
        return constexpr(c)
    if name == "none":
        return None
    short = {"i1": "int1", "u1": "int1", "B": "int1", "i8": "int8",
             "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
             "u16": "uint16", "u32": "uint32", "u64": "uint64"}
    try:
        return dtype(short.get(name, name))
    except ValueError:
        raise TypeError("unknown type string %r" % (name,)) from None

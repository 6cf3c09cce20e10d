"""Host-side stand-ins for ``triton.language``: ``constexpr``, the dtypes
and placeholders of the ``tl.*`` functions.

tritium's C++ frontend reads kernel bodies from the source file; Python
never executes them. These names exist so that kernel modules import, their
annotations and module-level constexprs evaluate, and host code can use
dtypes and constexpr values.
"""


def _unwrap(v):
    return v.value if isinstance(v, constexpr) else v


class constexpr:
    """Marks a kernel parameter as compile-time (``BLOCK: tl.constexpr``) and
    wraps module-level compile-time values (``BLOCK = tl.constexpr(128)``).
    Host code may use a wrapped value like the value itself."""

    def __init__(self, value):
        self.value = _unwrap(value)

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return self.value == _unwrap(other)

    def __ne__(self, other):
        return self.value != _unwrap(other)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)


def _binary(name):
    def op(self, other):
        return constexpr(getattr(self.value, name)(_unwrap(other)))
    op.__name__ = name
    return op


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
              "lshift", "rshift", "and", "or", "xor", "lt", "le", "gt", "ge"):
    for _dunder in ("__%s__" % _name, "__r%s__" % _name):
        if hasattr(int, _dunder):
            setattr(constexpr, _dunder, _binary(_dunder))
for _name in ("neg", "pos", "invert", "abs"):
    _dunder = "__%s__" % _name
    setattr(constexpr, _dunder,
            (lambda d: lambda self: constexpr(getattr(self.value, d)()))(
                _dunder))


# Triton's dtype names, with the tl attribute each is bound to and, for
# floats, (mantissa bits, exponent bias).
_FLOATS = {
    "fp8e4b15": ("float8e4b15", 8, 3, 15),
    "fp8e4nv": ("float8e4nv", 8, 3, 7),
    "fp8e4b8": ("float8e4b8", 8, 3, 8),
    "fp8e5": ("float8e5", 8, 2, 15),
    "fp8e5b16": ("float8e5b16", 8, 2, 16),
    "fp16": ("float16", 16, 10, 15),
    "bf16": ("bfloat16", 16, 7, 127),
    "fp32": ("float32", 32, 23, 127),
    "fp64": ("float64", 64, 52, 1023),
}
_ALIASES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32",
            "float64": "fp64", "float8e4b15": "fp8e4b15",
            "float8e4nv": "fp8e4nv", "float8e4b8": "fp8e4b8",
            "float8e5": "fp8e5", "float8e5b16": "fp8e5b16", "bool": "int1"}


class dtype:
    """A Triton element type: ``tl.dtype("fp16")``; ``name`` is Triton's
    spelling ("fp16", "int32", "fp8e4nv")."""

    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16",
                "fp16", "bf16", "fp32", "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    class SIGNEDNESS:
        SIGNED = 0
        UNSIGNED = 1

    class KIND:
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    def __init__(self, name, _bitwidth=None):
        name = _unwrap(name)
        if _bitwidth is not None:  # pointer and block types
            self.name = name
            self.primitive_bitwidth = _bitwidth
            return
        if not isinstance(name, str):
            raise TypeError("tl.dtype expects a type name such as 'fp16' or "
                            "'int32', got %r" % (name,))
        name = _ALIASES.get(name, name)
        if name not in (self.SINT_TYPES + self.UINT_TYPES + self.FP_TYPES +
                        self.OTHER_TYPES):
            raise ValueError(
                "unknown Triton dtype %r (one of %s)" % (
                    name, ", ".join(self.SINT_TYPES + self.UINT_TYPES +
                                    self.FP_TYPES + self.OTHER_TYPES)))
        self.name = name
        if name in self.SINT_TYPES or name in self.UINT_TYPES:
            bits = 1 if name == "int1" else int(name.lstrip("uint"))
            self.int_signedness = (self.SIGNEDNESS.SIGNED
                                   if name in self.SINT_TYPES
                                   else self.SIGNEDNESS.UNSIGNED)
            self.int_bitwidth = bits
            self.primitive_bitwidth = bits
        elif name in self.FP_TYPES:
            _, bits, mantissa, bias = _FLOATS[name]
            self.fp_mantissa_width = mantissa
            self.primitive_bitwidth = bits
            self.exponent_bias = bias
        else:
            self.primitive_bitwidth = 0

    # -- the tl attribute this type is bound to ("float16") --------------
    @property
    def _tl_name(self):
        f = _FLOATS.get(self.name)
        return f[0] if f else self.name

    def codegen_name(self):
        return self._tl_name

    # -- predicates ------------------------------------------------------
    def is_fp8(self):
        return self.name in self.FP_TYPES and self.primitive_bitwidth == 8

    def is_floating(self):
        return self.name in self.FP_TYPES

    def is_standard_floating(self):
        return self.name in self.STANDARD_FP_TYPES

    def is_int_signed(self):
        return self.name in self.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in self.UINT_TYPES

    def is_int(self):
        return self.name in self.SINT_TYPES + self.UINT_TYPES

    def is_bool(self):
        return self.name == "int1"

    def is_void(self):
        return self.name == "void"

    def is_ptr(self):
        return False

    def is_block(self):
        return False

    def is_const(self):
        return False

    @staticmethod
    def is_dtype(type_str):
        return type_str in (dtype.SINT_TYPES + dtype.UINT_TYPES +
                            dtype.FP_TYPES + dtype.OTHER_TYPES)

    def kind(self):
        if self.is_bool():
            return self.KIND.BOOLEAN
        if self.is_int():
            return self.KIND.INTEGRAL
        return self.KIND.FLOATING

    def get_int_max_value(self):
        if self.is_int_signed():
            return 2 ** (self.int_bitwidth - 1) - 1
        if self.is_int_unsigned():
            return 2 ** self.int_bitwidth - 1
        raise RuntimeError("%s is not an integer type" % self)

    def get_int_min_value(self):
        if self.is_int_signed():
            return -2 ** (self.int_bitwidth - 1)
        if self.is_int_unsigned():
            return 0
        raise RuntimeError("%s is not an integer type" % self)

    @property
    def scalar(self):
        return self

    @property
    def itemsize(self):
        return max(self.primitive_bitwidth // 8, 1)

    @property
    def cache_key_part(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and str(self) == str(other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "triton.language." + self._tl_name


# is_fp16(), is_int32(), is_uint8(), is_fp8e4nv(), ... for every type.
for _n in (dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES):
    setattr(dtype, "is_" + _n,
            (lambda n: lambda self: self.name == n)(_n))


class pointer_type(dtype):
    """A pointer to ``element_ty``."""

    def __init__(self, element_ty, address_space=1, const=False):
        super().__init__("%spointer<%s>" % ("const " if const else "",
                                             element_ty), 64)
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const

    def is_ptr(self):
        return True

    def is_const(self):
        return self.const

    def is_floating(self):
        return False

    def is_int(self):
        return False

    def __repr__(self):
        return "triton.language.pointer_type(%r)" % (self.element_ty,)


class block_type(dtype):
    """A tensor type: ``element_ty`` over ``shape``."""

    def __init__(self, element_ty, shape):
        super().__init__("<%s, %s>" % (list(shape), element_ty),
                         element_ty.primitive_bitwidth)
        self.element_ty = element_ty
        self.shape = tuple(shape)

    def is_block(self):
        return True

    @property
    def scalar(self):
        return self.element_ty


class constexpr_type:
    """The type of a compile-time value (what ``.type`` of a constexpr is
    in a kernel): equal when the values are."""

    def __init__(self, value):
        self.value = _unwrap(value)

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "constexpr_type[%r]" % (self.value,)


void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)

DTYPES = (int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
          float8e5, float8e5b16, float8e4nv, float8e4b8, float8e4b15,
          float16, bfloat16, float32, float64)


class Placeholder:
    """A ``tl.*`` function or class: usable in annotations and as a value,
    meaningful only inside a kernel, which tritium compiles from source."""

    def __init__(self, qualname):
        self.__name__ = qualname.rsplit(".", 1)[-1]
        self.__qualname__ = qualname

    def __repr__(self):
        return "<tritium placeholder %s>" % self.__qualname__

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "%s can only be used inside a @triton.jit kernel (tritium "
            "compiles kernels from their source; Python never runs them)"
            % self.__qualname__)


def placeholders(module_globals, prefix, names):
    """Defines a Placeholder per name in `module_globals`."""
    for name in names.split():
        module_globals.setdefault(name, Placeholder(prefix + name))

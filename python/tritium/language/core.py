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


class dtype:
    """A Triton element type; ``name`` is Triton's spelling ("float16")."""

    SINT_TYPES = ("int8", "int16", "int32", "int64")
    UINT_TYPES = ("int1", "uint8", "uint16", "uint32", "uint64")
    FP_TYPES = ("fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16",
                "float16", "bfloat16", "float32", "float64")

    def __init__(self, name, bitwidth):
        self.name = name
        self.primitive_bitwidth = bitwidth

    def is_floating(self):
        return self.name in self.FP_TYPES

    def is_int(self):
        return self.name in self.SINT_TYPES + self.UINT_TYPES

    def is_int_signed(self):
        return self.name in self.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in self.UINT_TYPES

    def is_bool(self):
        return self.name == "int1"

    def is_ptr(self):
        return False

    @property
    def itemsize(self):
        return max(self.primitive_bitwidth // 8, 1)

    def __eq__(self, other):
        return isinstance(other, dtype) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "triton.language." + self.name


class pointer_type(dtype):
    """A pointer to ``element_ty``."""

    def __init__(self, element_ty, address_space=1, const=False):
        super().__init__("pointer<%s>" % element_ty, 64)
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const

    def is_ptr(self):
        return True


class block_type(dtype):
    """A tensor type: ``element_ty`` over ``shape``."""

    def __init__(self, element_ty, shape):
        super().__init__("<%s, %s>" % (list(shape), element_ty),
                         element_ty.primitive_bitwidth)
        self.element_ty = element_ty
        self.shape = tuple(shape)


void = dtype("void", 0)
int1 = dtype("int1", 1)
int8 = dtype("int8", 8)
int16 = dtype("int16", 16)
int32 = dtype("int32", 32)
int64 = dtype("int64", 64)
uint8 = dtype("uint8", 8)
uint16 = dtype("uint16", 16)
uint32 = dtype("uint32", 32)
uint64 = dtype("uint64", 64)
float8e5 = dtype("fp8e5", 8)
float8e5b16 = dtype("fp8e5b16", 8)
float8e4nv = dtype("fp8e4nv", 8)
float8e4b8 = dtype("fp8e4b8", 8)
float8e4b15 = dtype("fp8e4b15", 8)
float16 = dtype("float16", 16)
bfloat16 = dtype("bfloat16", 16)
float32 = dtype("float32", 32)
float64 = dtype("float64", 64)
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

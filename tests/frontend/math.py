# tl.math functions, maximum/minimum/clamp, sigmoid/softmax and libdevice
# (BuiltinsMath.cpp).
#
# RUN: tritium compile %s --kernel unary --signature "*fp32,*fp64,16" --emit tile | FileCheck %s --check-prefix=UNARY
# RUN: tritium compile %s --kernel abs_kernel --signature "*fp32,*i32,*u32,*fp16,16" --emit tile | FileCheck %s --check-prefix=ABS
# RUN: tritium compile %s --kernel binary --signature "*fp32,*fp16,*u32,16" --emit tile | FileCheck %s --check-prefix=BIN
# RUN: tritium compile %s --kernel extrema --signature "*fp32,*bf16,*i8,*u32,16" --emit tile | FileCheck %s --check-prefix=EXT
# RUN: tritium compile %s --kernel standard --signature "*fp32,16" --emit tile | FileCheck %s --check-prefix=STD
# RUN: tritium compile %s --kernel libdev --signature "*fp32,*fp64,16" --emit tile | FileCheck %s --check-prefix=LIB
# RUN: not tritium compile %s --kernel exp_fp16 --signature "*fp16,16" 2>&1 | FileCheck %s --check-prefix=ERR-EXP
# RUN: not tritium compile %s --kernel sqrt_rn_fp64 --signature "*fp64,16" 2>&1 | FileCheck %s --check-prefix=ERR-SQRTRN
# RUN: not tritium compile %s --kernel tanh_fp16 --signature "*fp16,16" 2>&1 | FileCheck %s --check-prefix=ERR-TANH
# RUN: not tritium compile %s --kernel clamp_int --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=ERR-CLAMP
# RUN: not tritium compile %s --kernel fdiv_int --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=ERR-FDIV
# RUN: not tritium compile %s --kernel umulhi_i16 --signature "*i16,16" 2>&1 | FileCheck %s --check-prefix=ERR-UMULHI
# RUN: not tritium compile %s --kernel bad_nan --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=ERR-NAN

import triton
import triton.language as tl
from triton.language.extra import libdevice


# UNARY-LABEL: func.func @unary
# UNARY: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# UNARY: math.exp %[[X]] : tensor<16xf32>
# UNARY: math.exp2 %[[X]] : tensor<16xf32>
# UNARY: math.log %[[X]] : tensor<16xf32>
# UNARY: math.log2 %[[X]] : tensor<16xf32>
# UNARY: math.sin %[[X]] : tensor<16xf32>
# UNARY: math.cos %[[X]] : tensor<16xf32>
# UNARY: math.sqrt %[[X]] : tensor<16xf32>
# UNARY: math.rsqrt %[[X]] : tensor<16xf32>
# UNARY: math.erf %[[X]] : tensor<16xf32>
# UNARY: math.floor %[[X]] : tensor<16xf32>
# UNARY: math.ceil %[[X]] : tensor<16xf32>
# UNARY: tile.precise_sqrt %[[X]] : tensor<16xf32>
# UNARY: %[[D:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f64>>
# UNARY: math.exp %[[D]] : tensor<16xf64>
# UNARY: math.sqrt %[[D]] : tensor<16xf64>
# UNARY: math.erf %[[D]] : tensor<16xf64>
@triton.jit
def unary(x_ptr, d_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sin(x) + tl.cos(x)
    y += tl.sqrt(x) + tl.rsqrt(x) + tl.erf(x) + tl.floor(x) + x.ceil() + tl.sqrt_rn(x)
    d = tl.load(d_ptr + o)
    e = tl.math.exp(d) + d.sqrt() + tl.math.erf(d)
    tl.store(x_ptr + o, y)
    tl.store(d_ptr + o, e)


# ABS-LABEL: func.func @abs_kernel
# ABS: %[[F:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# ABS: math.absf %[[F]] : tensor<16xf32>
# ABS: %[[I:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# ABS: math.absi %[[I]] : tensor<16xi32>
# Unsigned abs is the identity: the loaded value is stored unchanged.
# ABS: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# ABS-NOT: math.absi
# ABS: tile.store %{{.*}}, %[[U]]
# ABS: %[[H:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# ABS: math.absf %[[H]] : tensor<16xf16>
@triton.jit
def abs_kernel(f_ptr, i_ptr, u_ptr, h_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(f_ptr + o, tl.abs(tl.load(f_ptr + o)))
    tl.store(i_ptr + o, tl.abs(tl.load(i_ptr + o)))
    tl.store(u_ptr + o, tl.load(u_ptr + o).abs())
    tl.store(h_ptr + o, tl.abs(tl.load(h_ptr + o)))


# BIN-LABEL: func.func @binary
# BIN: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# BIN: %[[C2:.*]] = arith.constant 2.000000e+00 : f32
# BIN: %[[S2:.*]] = tile.splat %[[C2]] : tensor<16xf32>
# BIN: math.fma %[[X]], %[[S2]], %[[X]] : tensor<16xf32>
# fdiv computes fp16 in fp32.
# BIN: %[[H:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# BIN: %[[HW:.*]] = arith.extf %[[H]] : tensor<16xf16> to tensor<16xf32>
# BIN: arith.divf %[[HW]], %[[X]] : tensor<16xf32>
# BIN: tile.precise_divf %[[X]], %[[X]] : tensor<16xf32>
# BIN: tile.precise_divf %[[X]], %{{.*}} : tensor<16xf32>
# BIN: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# BIN: tile.mulhiui %[[U]], %[[U]] : tensor<16xi32>
@triton.jit
def binary(x_ptr, h_ptr, u_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    a = tl.fma(x, 2.0, x)
    b = tl.fdiv(tl.load(h_ptr + o), x)
    c = tl.fdiv(x, x, ieee_rounding=True)
    d = tl.div_rn(x, 3.0)
    u = tl.load(u_ptr + o)
    tl.store(x_ptr + o, a + b + c + d)
    tl.store(u_ptr + o, tl.umulhi(u, u))


# EXT-LABEL: func.func @extrema
# EXT: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# EXT: arith.maxnumf %[[X]], %{{.*}} : tensor<16xf32>
# EXT: arith.minimumf %[[X]], %[[X]] : tensor<16xf32>
# bf16 operands are promoted to fp32.
# EXT: %[[B:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<bf16>>
# EXT: %[[BW1:.*]] = arith.extf %[[B]] : tensor<16xbf16> to tensor<16xf32>
# EXT: %[[BW2:.*]] = arith.extf %[[B]] : tensor<16xbf16> to tensor<16xf32>
# EXT: arith.maximumf %[[BW1]], %[[BW2]] : tensor<16xf32>
# EXT: %[[I:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i8>>
# EXT: arith.maxsi %[[I]], %[[I]] : tensor<16xi8>
# EXT: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# EXT: arith.minui %[[U]], %[[U]] : tensor<16xi32>
# EXT: tile.clampf %[[X]], %{{.*}}, %{{.*}}, propagateNan = none : tensor<16xf32>
# EXT: tile.clampf %[[X]], %{{.*}}, %{{.*}}, propagateNan = all : tensor<16xf32>
@triton.jit
def extrema(x_ptr, b_ptr, i_ptr, u_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    a = tl.maximum(x, 0.5)
    m = tl.minimum(x, x, propagate_nan=65535)
    b = tl.load(b_ptr + o)
    bm = tl.maximum(b, b, "all")
    i = tl.load(i_ptr + o)
    im = tl.maximum(i, i)
    u = tl.load(u_ptr + o)
    um = tl.minimum(u, u)
    c = tl.clamp(x, 0.0, 1.0)
    d = tl.clamp(x, -1.0, 1.0, propagate_nan=65535)
    tl.store(x_ptr + o, a + m + bm + c + d)
    tl.store(i_ptr + o, im)
    tl.store(u_ptr + o, um)


# sigmoid(x) = 1 / (1 + exp(-x)); softmax = exp(x - max) / sum along dim 0.
# STD-LABEL: func.func @standard
# STD: %[[X:.*]] = tile.load
# STD: %[[NEG:.*]] = arith.negf %[[X]] : tensor<16xf32>
# STD: %[[E:.*]] = math.exp %[[NEG]] : tensor<16xf32>
# STD: %[[DEN:.*]] = arith.addf %{{.*}}, %[[E]] : tensor<16xf32>
# STD: arith.divf %{{.*}}, %[[DEN]] : tensor<16xf32>
# STD: %[[M:.*]] = tile.reduce(%[[X]]) axis = 0 {
# STD: arith.maxnumf
# STD: %[[MS:.*]] = tile.splat %[[M]] : tensor<16xf32>
# STD: %[[Z:.*]] = arith.subf %[[X]], %[[MS]] : tensor<16xf32>
# STD: %[[NUM:.*]] = math.exp %[[Z]] : tensor<16xf32>
# STD: %[[S:.*]] = tile.reduce(%[[NUM]]) axis = 0 {
# STD: arith.addf
# STD: %[[SS:.*]] = tile.splat %[[S]] : tensor<16xf32>
# STD: arith.divf %[[NUM]], %[[SS]] : tensor<16xf32>
@triton.jit
def standard(x_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    s = tl.sigmoid(x)
    sm = x.softmax()
    tl.store(x_ptr + o, s + sm)


# LIB-LABEL: func.func @libdev
# LIB: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# LIB: tile.extern_elementwise %[[X]] {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<16xf32>) -> tensor<16xf32>
# LIB: %[[D:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f64>>
# LIB: tile.extern_elementwise %[[D]] {{{.*}}symbol = "__nv_tanh"} : (tensor<16xf64>) -> tensor<16xf64>
# An exact (fp32, int32) signature is used as is...
# LIB: tile.extern_elementwise %[[X]], %{{.*}} {{{.*}}symbol = "__nv_powif"} : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
# ...other combinations are promoted first.
# LIB: arith.extf %[[X]] : tensor<16xf32> to tensor<16xf64>
# LIB: tile.extern_elementwise %{{.*}}, %[[D]] {{{.*}}symbol = "__nv_pow"} : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xf64>
# Predicates return int32 and are converted to int1.
# LIB: %[[NAN:.*]] = tile.extern_elementwise %[[X]] {{{.*}}symbol = "__nv_isnanf"} : (tensor<16xf32>) -> tensor<16xi32>
# LIB: arith.cmpi ne, %[[NAN]], %{{.*}} : tensor<16xi32>
# LIB: tile.extern_elementwise %[[X]], %[[X]] {{{.*}}symbol = "__nv_fdiv_rz"}
# tl.math keeps the libdevice-only functions of Triton 2.x.
# LIB: tile.extern_elementwise %[[X]] {{{.*}}symbol = "__nv_erfinvf"}
@triton.jit
def libdev(x_ptr, d_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    t = libdevice.tanh(x)
    d = tl.load(d_ptr + o)
    td = libdevice.tanh(d)
    p = libdevice.pow(x, 3)
    pd = libdevice.pow(x, d)
    n = libdevice.isnan(x)
    q = libdevice.div_rz(x, x)
    e = tl.math.erfinv(x)
    tl.store(x_ptr + o, tl.where(n, t + p + q + e, 0.0))
    tl.store(d_ptr + o, td + pd)


# ERR-EXP: math.py:[[@LINE+4]]:16: error: tl.exp expects float32 or float64, got float16
@triton.jit
def exp_fp16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.exp(x)


# ERR-SQRTRN: math.py:[[@LINE+4]]:20: error: tl.sqrt_rn expects float32, got float64
@triton.jit
def sqrt_rn_fp64(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.sqrt_rn(x)


# ERR-TANH: math.py:[[@LINE+4]]:9: error: libdevice.tanh does not support argument types (float16); expected one of (float32), (float64)
@triton.jit
def tanh_fp16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = libdevice.tanh(x)


# ERR-CLAMP: math.py:[[@LINE+4]]:9: error: tl.clamp only supports floating point, got int32
@triton.jit
def clamp_int(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.clamp(x, 0, 1)


# ERR-FDIV: math.py:[[@LINE+4]]:9: error: both operands of tl.fdiv must have floating scalar type, got int32 and float32
@triton.jit
def fdiv_int(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.fdiv(x, 2.0)


# ERR-UMULHI: math.py:[[@LINE+4]]:19: error: tl.umulhi expects int32, int64, uint32 or uint64, got int16
@triton.jit
def umulhi_i16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.umulhi(x, x)


# ERR-NAN: math.py:[[@LINE+4]]:26: error: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got constexpr int 3
@triton.jit
def bad_nan(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.maximum(x, x, propagate_nan=3)

# tl.math functions, maximum/minimum/clamp, sigmoid/softmax and libdevice
# (BuiltinsMath.cpp).
#
# RUN: tritium compile %s --kernel unary --signature "*fp32,*fp64,16" --emit tile | FileCheck %s --check-prefix=CHECK-UNARY
# RUN: tritium compile %s --kernel abs_kernel --signature "*fp32,*i32,*u32,*fp16,16" --emit tile | FileCheck %s --check-prefix=CHECK-ABS
# RUN: tritium compile %s --kernel binary --signature "*fp32,*fp16,*u32,16" --emit tile | FileCheck %s --check-prefix=CHECK-BIN
# RUN: tritium compile %s --kernel extrema --signature "*fp32,*bf16,*i8,*u32,16" --emit tile | FileCheck %s --check-prefix=CHECK-EXT
# RUN: tritium compile %s --kernel standard --signature "*fp32,16" --emit tile | FileCheck %s --check-prefix=CHECK-STD
# RUN: tritium compile %s --kernel libdev --signature "*fp32,*fp64,16" --emit tile | FileCheck %s --check-prefix=CHECK-LIB
# RUN: not tritium compile %s --kernel exp_fp16 --signature "*fp16,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-EXP
# RUN: not tritium compile %s --kernel sqrt_rn_fp64 --signature "*fp64,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-SQRTRN
# RUN: not tritium compile %s --kernel tanh_fp16 --signature "*fp16,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-TANH
# RUN: not tritium compile %s --kernel clamp_int --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-CLAMP
# RUN: not tritium compile %s --kernel fdiv_int --signature "*i32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-FDIV
# RUN: not tritium compile %s --kernel umulhi_i16 --signature "*i16,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-UMULHI
# RUN: not tritium compile %s --kernel bad_nan --signature "*fp32,16" 2>&1 | FileCheck %s --check-prefix=CHECK-ERR-NAN

import triton
import triton.language as tl
from triton.language.extra import libdevice


# CHECK-UNARY-LABEL: func.func @unary
# CHECK-UNARY: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-UNARY: math.exp %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.exp2 %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.log %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.log2 %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.sin %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.cos %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.sqrt %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.rsqrt %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.erf %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.floor %[[X]] : tensor<16xf32>
# CHECK-UNARY: math.ceil %[[X]] : tensor<16xf32>
# CHECK-UNARY: tile.precise_sqrt %[[X]] : tensor<16xf32>
# CHECK-UNARY: %[[D:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f64>>
# CHECK-UNARY: math.exp %[[D]] : tensor<16xf64>
# CHECK-UNARY: math.sqrt %[[D]] : tensor<16xf64>
# CHECK-UNARY: math.erf %[[D]] : tensor<16xf64>
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


# CHECK-ABS-LABEL: func.func @abs_kernel
# CHECK-ABS: %[[F:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-ABS: math.absf %[[F]] : tensor<16xf32>
# CHECK-ABS: %[[I:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-ABS: math.absi %[[I]] : tensor<16xi32>
# Unsigned abs is the identity: the loaded value is stored unchanged.
# CHECK-ABS: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-ABS-NOT: math.absi
# CHECK-ABS: tile.store %{{.*}}, %[[U]]
# CHECK-ABS: %[[H:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# CHECK-ABS: math.absf %[[H]] : tensor<16xf16>
@triton.jit
def abs_kernel(f_ptr, i_ptr, u_ptr, h_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(f_ptr + o, tl.abs(tl.load(f_ptr + o)))
    tl.store(i_ptr + o, tl.abs(tl.load(i_ptr + o)))
    tl.store(u_ptr + o, tl.load(u_ptr + o).abs())
    tl.store(h_ptr + o, tl.abs(tl.load(h_ptr + o)))


# CHECK-BIN-LABEL: func.func @binary
# CHECK-BIN: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-BIN: %[[C2:.*]] = arith.constant 2.000000e+00 : f32
# CHECK-BIN: %[[S2:.*]] = tile.splat %[[C2]] : tensor<16xf32>
# CHECK-BIN: math.fma %[[X]], %[[S2]], %[[X]] : tensor<16xf32>
# fdiv computes fp16 in fp32.
# CHECK-BIN: %[[H:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# CHECK-BIN: %[[HW:.*]] = arith.extf %[[H]] : tensor<16xf16> to tensor<16xf32>
# CHECK-BIN: arith.divf %[[HW]], %[[X]] : tensor<16xf32>
# CHECK-BIN: tile.precise_divf %[[X]], %[[X]] : tensor<16xf32>
# CHECK-BIN: tile.precise_divf %[[X]], %{{.*}} : tensor<16xf32>
# CHECK-BIN: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-BIN: tile.mulhiui %[[U]], %[[U]] : tensor<16xi32>
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


# CHECK-EXT-LABEL: func.func @extrema
# CHECK-EXT: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-EXT: arith.maxnumf %[[X]], %{{.*}} : tensor<16xf32>
# CHECK-EXT: arith.minimumf %[[X]], %[[X]] : tensor<16xf32>
# bf16 operands are promoted to fp32.
# CHECK-EXT: %[[B:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<bf16>>
# CHECK-EXT: %[[BW1:.*]] = arith.extf %[[B]] : tensor<16xbf16> to tensor<16xf32>
# CHECK-EXT: %[[BW2:.*]] = arith.extf %[[B]] : tensor<16xbf16> to tensor<16xf32>
# CHECK-EXT: arith.maximumf %[[BW1]], %[[BW2]] : tensor<16xf32>
# CHECK-EXT: %[[I:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i8>>
# CHECK-EXT: arith.maxsi %[[I]], %[[I]] : tensor<16xi8>
# CHECK-EXT: %[[U:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
# CHECK-EXT: arith.minui %[[U]], %[[U]] : tensor<16xi32>
# CHECK-EXT: tile.clampf %[[X]], %{{.*}}, %{{.*}}, propagateNan = none : tensor<16xf32>
# CHECK-EXT: tile.clampf %[[X]], %{{.*}}, %{{.*}}, propagateNan = all : tensor<16xf32>
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
# CHECK-STD-LABEL: func.func @standard
# CHECK-STD: %[[X:.*]] = tile.load
# CHECK-STD: %[[NEG:.*]] = arith.negf %[[X]] : tensor<16xf32>
# CHECK-STD: %[[E:.*]] = math.exp %[[NEG]] : tensor<16xf32>
# CHECK-STD: %[[DEN:.*]] = arith.addf %{{.*}}, %[[E]] : tensor<16xf32>
# CHECK-STD: arith.divf %{{.*}}, %[[DEN]] : tensor<16xf32>
# CHECK-STD: %[[M:.*]] = tile.reduce(%[[X]]) axis = 0 {
# CHECK-STD: arith.maxnumf
# CHECK-STD: %[[MS:.*]] = tile.splat %[[M]] : tensor<16xf32>
# CHECK-STD: %[[Z:.*]] = arith.subf %[[X]], %[[MS]] : tensor<16xf32>
# CHECK-STD: %[[NUM:.*]] = math.exp %[[Z]] : tensor<16xf32>
# CHECK-STD: %[[S:.*]] = tile.reduce(%[[NUM]]) axis = 0 {
# CHECK-STD: arith.addf
# CHECK-STD: %[[SS:.*]] = tile.splat %[[S]] : tensor<16xf32>
# CHECK-STD: arith.divf %[[NUM]], %[[SS]] : tensor<16xf32>
@triton.jit
def standard(x_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    s = tl.sigmoid(x)
    sm = x.softmax()
    tl.store(x_ptr + o, s + sm)


# CHECK-LIB-LABEL: func.func @libdev
# CHECK-LIB: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-LIB: tile.extern_elementwise %[[X]] {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<16xf32>) -> tensor<16xf32>
# CHECK-LIB: %[[D:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f64>>
# CHECK-LIB: tile.extern_elementwise %[[D]] {{{.*}}symbol = "__nv_tanh"} : (tensor<16xf64>) -> tensor<16xf64>
# An exact (fp32, int32) signature is used as is...
# CHECK-LIB: tile.extern_elementwise %[[X]], %{{.*}} {{{.*}}symbol = "__nv_powif"} : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
# ...other combinations are promoted first.
# CHECK-LIB: arith.extf %[[X]] : tensor<16xf32> to tensor<16xf64>
# CHECK-LIB: tile.extern_elementwise %{{.*}}, %[[D]] {{{.*}}symbol = "__nv_pow"} : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xf64>
# Predicates return int32 and are converted to int1.
# CHECK-LIB: %[[NAN:.*]] = tile.extern_elementwise %[[X]] {{{.*}}symbol = "__nv_isnanf"} : (tensor<16xf32>) -> tensor<16xi32>
# CHECK-LIB: arith.cmpi ne, %[[NAN]], %{{.*}} : tensor<16xi32>
# CHECK-LIB: tile.extern_elementwise %[[X]], %[[X]] {{{.*}}symbol = "__nv_fdiv_rz"}
# tl.math keeps the libdevice-only functions of Triton 2.x.
# CHECK-LIB: tile.extern_elementwise %[[X]] {{{.*}}symbol = "__nv_erfinvf"}
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


# CHECK-ERR-EXP: math.py:[[@LINE+4]]:16: error: tl.exp expects float32 or float64, got float16
@triton.jit
def exp_fp16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.exp(x)


# CHECK-ERR-SQRTRN: math.py:[[@LINE+4]]:20: error: tl.sqrt_rn expects float32, got float64
@triton.jit
def sqrt_rn_fp64(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.sqrt_rn(x)


# CHECK-ERR-TANH: math.py:[[@LINE+4]]:9: error: libdevice.tanh does not support argument types (float16); expected one of (float32), (float64)
@triton.jit
def tanh_fp16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = libdevice.tanh(x)


# CHECK-ERR-CLAMP: math.py:[[@LINE+4]]:9: error: tl.clamp only supports floating point, got int32
@triton.jit
def clamp_int(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.clamp(x, 0, 1)


# CHECK-ERR-FDIV: math.py:[[@LINE+4]]:9: error: both operands of tl.fdiv must have floating scalar type, got int32 and float32
@triton.jit
def fdiv_int(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.fdiv(x, 2.0)


# CHECK-ERR-UMULHI: math.py:[[@LINE+4]]:19: error: tl.umulhi expects int32, int64, uint32 or uint64, got int16
@triton.jit
def umulhi_i16(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.umulhi(x, x)


# CHECK-ERR-NAN: math.py:[[@LINE+4]]:26: error: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got constexpr int 3
@triton.jit
def bad_nan(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.maximum(x, x, propagate_nan=3)

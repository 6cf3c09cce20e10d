# Kernel discovery: import aliases, decorator forms, constexpr globals, helper
# order, and host code the frontend must skip (details in the docstring).
"""Kernel discovery in a realistic module (module docstring on purpose).

Every import alias of triton / triton.language, decorator forms (plain,
called with options, stacked under autotune / heuristics), module-level
constexpr globals, helper @jit functions defined after their caller, and host
code of every kind around the kernels, which the frontend must skip.
"""
# RUN: tritium compile %s --kernel k_tl_alias --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-TL
# RUN: tritium compile %s --kernel k_from_imports --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-FROM
# RUN: tritium compile %s --kernel k_language_alias --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-LANG
# RUN: tritium compile %s --kernel k_full_module_path --signature "*fp16" --emit tile | FileCheck %s --check-prefix=CHECK-FULLPATH
# RUN: tritium compile %s --kernel k_stacked --signature "*fp32,i32,32,True" --emit tile | FileCheck %s --check-prefix=CHECK-STACKED
# RUN: tritium compile %s --kernel k_stacked --signature "*fp32,i32,64,False" --emit tile | FileCheck %s --check-prefix=CHECK-STACKED-ODD
# RUN: tritium compile %s --kernel k_globals --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-GLOBALS
# RUN: tritium compile %s --kernel k_decorator_options --signature "*fp32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-DECO-OPTS
# RUN: tritium compile %s --kernel k_core_module --signature "*i32" --emit tile | FileCheck %s --check-prefix=CHECK-CORE
# RUN: tritium compile %s --kernel k_libdevice --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-LIBDEVICE
# RUN: tritium compile %s --kernel k_star_import --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-STAR
# RUN: tritium compile %s --kernel k_under_if --signature "*fp32" --emit tile | FileCheck %s --check-prefix=CHECK-UNDER-IF
# RUN: not tritium compile %s --kernel k_plain_global --signature "*i32" 2>&1 | FileCheck %s --check-prefix=CHECK-PLAIN-GLOBAL

import argparse
import math
import os
import sys
from dataclasses import dataclass
from functools import partial
from typing import Optional

import torch

import triton
import triton.language
import triton.language as tl
import triton.language as language
import triton.language.core as core
from triton import jit
from triton.language import arange as ar, load
from triton.language import program_id, store
from triton.language import *
from triton.language.extra import libdevice

BLOCK: tl.constexpr = 128
X = tl.constexpr(3)
SCALE = tl.constexpr(0.5)
SHAPE = tl.constexpr((16, 32))
DTYPE = tl.float16
USE_FAST: tl.constexpr = True
PLAIN = 7
NAME = "host"
DEVICE = torch.device("cuda") if torch.cuda.is_available() else None
TABLE = {"a": [1, 2, 3], "b": (4, 5)}
SQUARES = [i * i for i in range(8)]


@dataclass
class LaunchConfig:
    block: int = 128
    warps: Optional[int] = None

    def describe(self) -> str:
        return f"block={self.block!r:>8}"


# CHECK-TL-LABEL: func.func @k_tl_alias(%arg0: !tile.ptr<f32>)
# CHECK-TL: %[[OFFS:.*]] = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
# CHECK-TL: %[[X:.*]] = tile.load %{{.*}} : tensor<128x!tile.ptr<f32>>
# CHECK-TL: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
# CHECK-TL: %[[S:.*]] = tile.splat %[[THREE]] : tensor<128xf32>
# CHECK-TL: %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : tensor<128xf32>
# CHECK-TL: tile.store %{{.*}}, %[[Y]] : tensor<128x!tile.ptr<f32>>
@triton.jit
def k_tl_alias(P):
    offs = tl.arange(0, BLOCK)
    tl.store(P + offs, tl.load(P + offs) * X)


# CHECK-FROM-LABEL: func.func @k_from_imports(%arg0: !tile.ptr<f32>)
# CHECK-FROM: %[[PID:.*]] = tile.get_program_id x : i32
# CHECK-FROM: %[[OFFS:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
# CHECK-FROM: %[[X:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-FROM: tile.store %{{.*}}, %[[X]] : tensor<64x!tile.ptr<f32>>
@jit
def k_from_imports(P):
    pid = program_id(0)
    offs = pid * 64 + ar(0, 64)
    store(P + offs, load(P + offs))


# CHECK-LANG-LABEL: func.func @k_language_alias(%arg0: !tile.ptr<f32>)
# CHECK-LANG: tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
# CHECK-LANG: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-LANG: tile.store %{{.*}}, %[[X]] : tensor<16x!tile.ptr<f32>>
@triton.jit(debug=True)
def k_language_alias(P):
    offs = language.arange(0, 16)
    language.store(P + offs, language.load(P + offs))


# CHECK-FULLPATH-LABEL: func.func @k_full_module_path(%arg0: !tile.ptr<f16>)
# CHECK-FULLPATH: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f16>>
# CHECK-FULLPATH: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
# CHECK-FULLPATH: tile.store %{{.*}}, %[[X]] : tensor<16x!tile.ptr<f16>>
@triton.jit()
def k_full_module_path(P):
    offs = triton.language.arange(0, 16)
    x = triton.language.load(P + offs)
    z = triton.language.zeros(SHAPE, dtype=DTYPE)
    triton.language.store(P + offs, x.to(DTYPE))


@jit(noinline=True)
def helper_noinline(x):
    return x + 1


# autotune and heuristics stacked above @triton.jit; the helpers are defined
# after the kernel, one of them noinline (kept as a call).
# CHECK-STACKED-LABEL: func.func @k_stacked(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-STACKED: %[[X:.*]] = tile.load %{{.*}} : tensor<32x!tile.ptr<f32>>
# CHECK-STACKED: %[[H:.*]] = call @helper_after(%[[X]]) : (tensor<32xf32>) -> tensor<32xf32>
# CHECK-STACKED: %[[N:.*]] = call @helper_noinline{{.*}}(%[[H]]) {{.*}}: (tensor<32xf32>) -> tensor<32xf32>
# CHECK-STACKED: tile.store %{{.*}}, %[[N]] : tensor<32x!tile.ptr<f32>>
# CHECK-STACKED: func.func private @helper_after(%arg0: tensor<32xf32>) -> tensor<32xf32>
# CHECK-STACKED: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
# CHECK-STACKED: func.func private @helper_noinline{{.*}}(%arg0: tensor<32xf32>) -> tensor<32xf32> attributes {noinline}
# With EVEN false, the store is compiled away:
# CHECK-STACKED-ODD-LABEL: func.func @k_stacked(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-STACKED-ODD: tile.load %{{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-STACKED-ODD-NOT: tile.store
# CHECK-STACKED-ODD: return
@triton.autotune(
    configs=[triton.Config({"B": 32}, num_warps=4), triton.Config({"B": 64}, num_stages=2)],
    key=["n"],
)
@triton.heuristics({"EVEN": lambda args: args["n"] % args["B"] == 0})
@triton.jit
def k_stacked(P, n, B: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, B)
    x = helper_after(tl.load(P + offs))
    y = helper_noinline(x)
    if EVEN:
        tl.store(P + offs, y)


@triton.jit
def helper_after(x):
    return x * SCALE


# Module-level constexprs of every form: annotated, tl.constexpr(...) of an
# int, a float, a tuple, a bool, and a dtype.
# CHECK-GLOBALS-LABEL: func.func @k_globals(%arg0: !tile.ptr<f32>)
# CHECK-GLOBALS: tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
# CHECK-GLOBALS: arith.constant dense<0.000000e+00> : tensor<16x32xf16>
# CHECK-GLOBALS: %[[C:.*]] = arith.constant 1.500000e+00 : f32
# CHECK-GLOBALS: tile.store %arg0, %[[C]] : !tile.ptr<f32>
@triton.jit
def k_globals(P):
    offs = tl.arange(0, BLOCK)
    z = tl.zeros(SHAPE, dtype=DTYPE)
    if USE_FAST:
        tl.store(P, X * SCALE)
    else:
        tl.store(P, 0.0)


# Decorator keyword options that only matter to the host are accepted.
# CHECK-DECO-OPTS-LABEL: func.func @k_decorator_options(%arg0: !tile.ptr<f32>, %arg1: i32)
# CHECK-DECO-OPTS: %[[F:.*]] = arith.sitofp %arg1 : i32 to f32
# CHECK-DECO-OPTS: tile.store %arg0, %[[F]] : !tile.ptr<f32>
@triton.jit(
    do_not_specialize=["n"],
    repr=lambda meta: "k_decorator_options",
    noinline=False,
)
def k_decorator_options(P, n):
    tl.store(P, n)


# CHECK-CORE-LABEL: func.func @k_core_module(%arg0: !tile.ptr<i32>)
# CHECK-CORE: %[[PID:.*]] = tile.get_program_id y : i32
# CHECK-CORE: tile.store %arg0, %[[PID]] : !tile.ptr<i32>
@triton.jit
# a comment between the decorator and the def
def k_core_module(P):
    tl.store(P, core.program_id(1))


# CHECK-LIBDEVICE-LABEL: func.func @k_libdevice(%arg0: !tile.ptr<f32>)
# CHECK-LIBDEVICE: %[[X:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<f32>>
# CHECK-LIBDEVICE: tile.extern_elementwise %[[X]] {{{.*}}symbol = "__nv_tanhf"{{.*}}} : (tensor<16xf32>) -> tensor<16xf32>
@triton.jit
def k_libdevice(P):
    offs = tl.arange(0, 16)
    tl.store(P + offs, libdevice.tanh(tl.load(P + offs)))


# Names brought in by 'from triton.language import *' are the tl builtins.
# CHECK-STAR-LABEL: func.func @k_star_import(%arg0: !tile.ptr<f32>)
# CHECK-STAR: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
# CHECK-STAR: tile.reduce
# CHECK-STAR: tile.store
@triton.jit
def k_star_import(P):
    z = zeros((16, 32), dtype=float32)
    store(P + arange(0, 16), sum(z, axis=1))


# Host code around the kernels: functions, classes, comprehensions,
# f-strings, with, try, lambdas, async, match, walrus, decorators that are
# not triton's ...


def host_launch(x: "torch.Tensor", *args, block=BLOCK, **kwargs) -> tuple:
    grid = lambda meta: (triton.cdiv(x.numel(), meta["B"]),)
    vals = [i * 2 for i in range(10) if i % 3]
    d = {k: v for k, v in zip("ab", (1, 2))}
    s = {v for v in vals}
    g = (v + 1 for v in vals)
    try:
        with open(os.devnull) as f, open(os.devnull) as f2:
            f.read()
    except (OSError, ValueError) as e:
        raise RuntimeError(f"failed {e!r} at {x.shape[0]:>10d}") from e
    else:
        pass
    finally:
        del d
    if (n := len(vals)) > 3:
        print(n, end="", file=sys.stderr)
    k_stacked[grid](x, x.numel())
    return vals, s, g


class Runner:
    """A host class whose methods look a bit like kernels."""

    scale: float = 2.0

    def __init__(self, n: int = 4, *args, **kwargs) -> None:
        self.n = n
        self.fn = partial(host_launch, block=64)

    async def run(self):
        async with self:
            await self.other()
        async for item in self.stream():
            yield item

    @property
    def name(self):
        global NAME
        return NAME

    @staticmethod
    def arange(a, b):
        return list(range(a, b))

    def __repr__(self):
        return f"Runner({self.n})"


def plain_function_named_like_tl(tl):
    return tl.arange(0, 3) ** 2 // 1.5


# A kernel defined under a module-level 'if' (as libraries do for optional
# dependencies) is still a module-level function.
# CHECK-UNDER-IF-LABEL: func.func @k_under_if(%arg0: !tile.ptr<f32>)
# CHECK-UNDER-IF: %[[C:.*]] = arith.constant 1.000000e+00 : f32
# CHECK-UNDER-IF: tile.store %arg0, %[[C]] : !tile.ptr<f32>
if triton is not None:
    @triton.jit
    def k_under_if(P):
        tl.store(P, 1.0)


# A global that is not a constexpr cannot be read in a kernel (Triton:
# "Cannot access global variable PLAIN from within @jit'ed function ...").
@triton.jit
def k_plain_global(P):
    # CHECK-PLAIN-GLOBAL: imports.py:[[@LINE+1]]:17: error: {{.*}}global{{.*}}'PLAIN'{{.*}}constexpr{{.*}}
    tl.store(P, PLAIN)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=1024)
    args = parser.parse_args()
    print(f"{args.size=}")
    match args.size:
        case 1 | 2:
            pass
        case _:
            pass
    xs = [y for y in range(3) if y]
    z = lambda q: q ** 2
    local_var: int = 3
    assert math.isfinite(z(local_var)), "bad"
    with torch.no_grad():
        host_launch(torch.randn(args.size, device=DEVICE))
    del z

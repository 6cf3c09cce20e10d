# `tritium compile --time-stages` prints the seconds of each stage it ran,
# in order, to stderr (the output stays on stdout).
# RUN: tritium compile %s --kernel scale --signature "*fp32:16,*fp32:16,i32,128" --target cuda:90 --emit ptx --time-stages -o /dev/null 2>&1 | FileCheck %s
# CHECK: stage seconds
# CHECK-NEXT: parse {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: ir generation {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: tile passes {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: gpu passes {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: lowering {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: llvm opt {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: nvptx {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: total {{[0-9]+\.[0-9]+}}

# Without a target: the stages up to tile IR only.
# RUN: tritium compile %s --kernel scale --signature "*fp32:16,*fp32:16,i32,128" --emit tile-opt --time-stages 2>&1 >/dev/null | FileCheck %s --check-prefix=TILE
# TILE: stage seconds
# TILE-NEXT: parse
# TILE-NEXT: ir generation
# TILE-NEXT: tile passes
# TILE-NEXT: total
import triton
import triton.language as tl


@triton.jit
def scale(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(Y + offs, tl.load(X + offs, mask=m) * 2, mask=m)

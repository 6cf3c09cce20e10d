# tl.sort, tl.topk and tl.map_elementwise through the GPU pipeline to PTX.
# Short axes are sorted by a network in each thread's registers; long axes
# stay spread over lanes (shuffles) and warps (shared memory). Floats sort
# by an integer key that also holds the element's position, so the network
# is stable like the interpreter's sort.
import triton
import triton.language as tl

# Integers ascending in registers: the network is signed min/max pairs.
# RUN: tritium compile %s --kernel sort_rows --signature "*i32,*i32,4,16,False" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-SORTI-GPU
# CHECK-SORTI-GPU: #[[L:linear[0-9]*]] = #tgpu.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8]],
# CHECK-SORTI-GPU-LABEL: func.func @sort_rows
# CHECK-SORTI-GPU: tile.sort {{.*}} : tensor<4x16xi32, #[[L]]>
# RUN: tritium compile %s --kernel sort_rows --signature "*i32,*i32,4,16,False" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-SORTI
# CHECK-SORTI-LABEL: .entry sort_rows(
# CHECK-SORTI-DAG: min.s32
# CHECK-SORTI-DAG: max.s32
# CHECK-SORTI-NOT: shfl.sync

# Descending int8: the same network with min and max exchanged.
# RUN: tritium compile %s --kernel sort_rows --signature "*i8,*i8,2,8,True" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-SORTI8
# CHECK-SORTI8-LABEL: .entry sort_rows(
# CHECK-SORTI8: {{min|max}}.s16

# Floats descending: each element becomes its 32-bit total-order key (a
# bijection of the bits, inverted), the network runs min/max on the keys
# alone, and the elements come back from them: no 64-bit key with a
# position, no compare-and-select of value and key.
# RUN: tritium compile %s --kernel sort_rows --signature "*fp32,*fp32,4,16,True" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-SORTF
# CHECK-SORTF-LABEL: .entry sort_rows(
# CHECK-SORTF-NOT: setp.lt.u64
# CHECK-SORTF: min.u32
# CHECK-SORTF: max.u32
# CHECK-SORTF-NOT: setp.lt.u64
# CHECK-SORTF: ret;

# A long axis stays over lanes and warps: shuffles and shared memory.
# RUN: tritium compile %s --kernel sort_rows --signature "*fp16,*fp16,2,256,False" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-SORTL
# CHECK-SORTL-LABEL: .entry sort_rows(
# CHECK-SORTL: shfl.sync.bfly.b32
# CHECK-SORTL: bar.sync 0;
# CHECK-SORTL: st.shared

# topk: a descending sort and a gather.
# RUN: tritium compile %s --kernel topk_row --signature "*fp32,*fp32,64,8" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-TOPK
# CHECK-TOPK-LABEL: .entry topk_row(
# CHECK-TOPK: shfl.sync.bfly.b32
# CHECK-TOPK: ld.shared

# map_elementwise: the region's branch per element.
# RUN: tritium compile %s --kernel mapped --signature "*fp32,*i32,*fp32,128" --target cuda:90 --emit ptx | FileCheck %s --check-prefix=CHECK-MAP
# CHECK-MAP-LABEL: .entry mapped(
# CHECK-MAP: setp.gt.s32
# CHECK-MAP: max.f32

# pack = 2: each pair of consecutive elements in one thread's registers.
# RUN: tritium compile %s --kernel mapped_pairs --signature "*fp32,*fp32,128" --target cuda:90 --emit tile-gpu | FileCheck %s --check-prefix=CHECK-PACK
# CHECK-PACK: #[[L:linear[0-9]*]] = #tgpu.linear<{register = {{\[\[}}1]], lane = {{\[\[}}2], [4], [8], [16], [32]],
# CHECK-PACK-LABEL: func.func @mapped_pairs
# CHECK-PACK: tile.map_elementwise
# CHECK-PACK: -> tensor<128xf32, #[[L]]>

# Every case assembles (f64 and a 1024-long axis included).
# REQUIRES: ptxas
# RUN: tritium compile %s --kernel sort_rows --signature "*fp64,*fp64,1,1024,True" --target cuda:90 --emit cubin -o %t.f64.cubin
# RUN: tritium compile %s --kernel sort_rows --signature "*bf16,*bf16,8,32,False" --target cuda:90 --emit cubin -o %t.bf16.cubin
# RUN: tritium compile %s --kernel sort_rows --signature "*i64,*i64,2,128,True" --target cuda:90 --emit cubin -o %t.i64.cubin
# RUN: tritium compile %s --kernel topk_row --signature "*fp16,*fp16,128,4" --target cuda:90 --emit cubin -o %t.topk.cubin
# RUN: tritium compile %s --kernel mapped --signature "*fp32,*i32,*fp32,1024" --target cuda:90 --emit cubin -o %t.map.cubin
# RUN: tritium compile %s --kernel mapped_pairs --signature "*fp32,*fp32,256" --target cuda:80 --emit cubin -o %t.pack.cubin


@triton.jit
def sort_rows(X, Y, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(Y + offs, tl.sort(tl.load(X + offs), descending=DESC))


@triton.jit
def topk_row(X, Y, N: tl.constexpr, K: tl.constexpr):
    tl.store(Y + tl.arange(0, K), tl.topk(tl.load(X + tl.arange(0, N)), K))


@triton.jit
def leaky_or_cube(x, k):
    if k > 0:
        return tl.maximum(x, 0.1 * x)
    return x * x * x


@triton.jit
def swap_pair(a, b):
    return b, a


@triton.jit
def mapped(X, K, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = tl.map_elementwise(leaky_or_cube, tl.load(X + offs), tl.load(K + offs))
    tl.store(Y + offs, y)


@triton.jit
def mapped_pairs(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.map_elementwise(swap_pair, tl.load(X + offs), pack=2))

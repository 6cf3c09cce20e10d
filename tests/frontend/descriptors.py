# Tensor descriptors (tl.make_tensor_descriptor and its methods) and
# tl.map_elementwise.
import triton
import triton.language as tl


# RUN: tritium compile %s --kernel desc_copy --signature "*fp16,*fp16,i32,i32,i32" | FileCheck %s --check-prefix=CHECK-DESC
# CHECK-DESC-LABEL: func.func @desc_copy
# CHECK-DESC: %[[S:.*]] = arith.extsi %arg4 : i32 to i64
# CHECK-DESC: %[[D:.*]] = tile.make_tensor_descriptor %arg0, [%arg2, %arg3], [%[[S]], %{{.*}}] : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
# CHECK-DESC: %[[O:.*]] = tile.make_tensor_descriptor %arg1, {{.*}} padding = nan : !tile.ptr<f16>, !tile.tensordesc<tensor<64x32xf16>>
# CHECK-DESC: %[[T:.*]] = tile.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
# CHECK-DESC: tile.descriptor_store %[[O]][%{{.*}}, %{{.*}}], %[[T]]
# CHECK-DESC: tile.descriptor_reduce add, %[[O]]
# CHECK-DESC: tile.descriptor_load %[[D]]
@triton.jit
def desc_copy(src, dst, M, N, stride):
    d = tl.make_tensor_descriptor(src, shape=[M, N], strides=[stride, 1], block_shape=[64, 32])
    o = tl.make_tensor_descriptor(dst, [M, N], [stride, 1], [64, 32], padding_option="nan")
    pid = tl.program_id(0)
    t = d.load([pid * 64, 0])
    o.store([pid * 64, 0], t)
    o.atomic_add([pid * 64, 0], t)
    u = tl.load_tensor_descriptor(d, [0, 32])
    tl.store_tensor_descriptor(o, [0, 32], u + 1)


# RUN: tritium compile %s --kernel desc_rows --signature "*fp32,*i32,i32" | FileCheck %s --check-prefix=CHECK-ROWS
# CHECK-ROWS-LABEL: func.func @desc_rows
# CHECK-ROWS: %[[G:.*]] = tile.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tile.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
# CHECK-ROWS: tile.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, tensor<8x16xf32>
@triton.jit
def desc_rows(X, IDX, M):
    d = tl.make_tensor_descriptor(X, [M, 16], [16, 1], [1, 16])
    rows = tl.load(IDX + tl.arange(0, 8))
    g = d.gather(rows, 0)
    d.scatter(g * 2.0, rows, 0)


# RUN: not tritium compile %s --kernel desc_stride --signature "*fp32,i32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-STRIDE
@triton.jit
def desc_stride(X, M, s):
    # CHECK-STRIDE: descriptors.py:[[@LINE+1]]:46: error: the last stride of a tensor descriptor must be the constant 1, got int32
    d = tl.make_tensor_descriptor(X, [M, M], [s, s], [16, 16])


# RUN: not tritium compile %s --kernel desc_narrow --signature "*fp16,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-NARROW
@triton.jit
def desc_narrow(X, M):
    # CHECK-NARROW: descriptors.py:[[@LINE+1]]:54: error: Descriptor block shape must have at least 16 bytes in the last dimension, got 4 x float16
    d = tl.make_tensor_descriptor(X, [M, M], [M, 1], [16, 4])


@triton.jit
def relu_or_neg(x, flag):
    if flag > 0:
        return tl.maximum(x, 0.0)
    return -x


# RUN: tritium compile %s --kernel mapped --signature "*fp32,*i32" | FileCheck %s --check-prefix=CHECK-MAP
# RUN: tritium compile %s --kernel mapped --signature "*fp32,*i32" --emit tile-opt | FileCheck %s --check-prefix=CHECK-MAPOPT
# CHECK-MAP-LABEL: func.func @mapped
# CHECK-MAP: %[[R:.*]] = tile.map_elementwise(%{{.*}}, %{{.*}}) pack = 1 {
# CHECK-MAP: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: i32):
# CHECK-MAP: call @relu_or_neg(%[[A]], %[[B]])
# CHECK-MAP: tile.map_elementwise.return
# CHECK-MAP: } : (tensor<32xf32>, tensor<32xi32>) -> tensor<32xf32>
# CHECK-MAPOPT-LABEL: func.func @mapped
# CHECK-MAPOPT: tile.map_elementwise
# CHECK-MAPOPT: scf.if
# CHECK-MAPOPT-NOT: call
@triton.jit
def mapped(X, F):
    offs = tl.arange(0, 32)
    y = tl.map_elementwise(relu_or_neg, tl.load(X + offs), tl.load(F + offs))
    tl.store(X + offs, y)


# Loops do not carry tensor descriptors: reassigning one in a loop body is
# an error at the loop, not a silently stale descriptor.
# RUN: not tritium compile %s --kernel desc_in_loop --signature "*fp32,*fp32,i32,i32" 2>&1 | FileCheck %s --check-prefix=CHECK-LOOP
# CHECK-LOOP: descriptors.py:[[@LINE+5]]:5: error: tensor descriptor 'd' is reassigned inside the loop; loops cannot carry tensor descriptors yet: make one descriptor per tensor before the loop
@triton.jit
def desc_in_loop(A, B, M, N):
    d = tl.make_tensor_descriptor(A, shape=[M, N], strides=[N, 1], block_shape=[16, 16])
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(2):
        acc += d.load([0, 0])
        d = tl.make_tensor_descriptor(B, shape=[M, N], strides=[N, 1], block_shape=[16, 16])
    tl.store(A + tl.arange(0, 16)[:, None] * N + tl.arange(0, 16)[None, :], acc)

# Memory access (TRITON.md 1.7): tl.load / tl.store with mask, other,
# cache_modifier, eviction_policy and volatile; scalar accesses; bool memory
# (through i8); block pointers (tl.make_block_ptr / tl.advance, materialized
# as pointer arithmetic plus a boundary mask); pointers to pointers; and
# ptr.dtype.element_ty.

import triton
import triton.language as tl


# Every load/store option is printed on the op; 'other' is splat and cast to
# the element type; stored values are cast to the pointee type.
# RUN: tritium compile %s --kernel load_store_options --signature "*fp32,*fp16,i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-OPTS
# CHECK-OPTS-LABEL: func.func @load_store_options(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f16>, %arg2: i32)
# CHECK-OPTS: %[[OFFS:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
# CHECK-OPTS: %[[N:.*]] = tile.splat %arg2 : tensor<64xi32>
# CHECK-OPTS: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %[[N]] : tensor<64xi32>
# CHECK-OPTS: %[[XS:.*]] = tile.splat %arg0 : tensor<64x!tile.ptr<f32>>
# CHECK-OPTS: %[[XP:.*]] = tile.addptr %[[XS]], %[[OFFS]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
# CHECK-OPTS: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-OPTS: %[[OTHER:.*]] = tile.splat %[[ZERO]] : tensor<64xf32>
# CHECK-OPTS: %[[X:.*]] = tile.load %[[XP]], %[[MASK]], %[[OTHER]] cacheModifier = cg evictionPolicy = evict_last volatile : tensor<64x!tile.ptr<f32>>
# An int 'other' is cast to the f32 element type:
# CHECK-OPTS: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-OPTS: %[[ONEF:.*]] = arith.sitofp %[[ONE]] : i32 to f32
# CHECK-OPTS: %[[OTHER1:.*]] = tile.splat %[[ONEF]] : tensor<64xf32>
# CHECK-OPTS: %[[Y:.*]] = tile.load %{{.*}}, %[[MASK]], %[[OTHER1]] cacheModifier = ca : tensor<64x!tile.ptr<f32>>
# mask and other given positionally:
# CHECK-OPTS: %[[Z:.*]] = tile.load %{{.*}}, %[[MASK]], %{{.*}} evictionPolicy = evict_first : tensor<64x!tile.ptr<f32>>
# CHECK-OPTS: %[[W:.*]] = tile.load %{{.*}} cacheModifier = cv : tensor<64x!tile.ptr<f32>>
# Stores to the fp16 pointer truncate:
# CHECK-OPTS: %[[XH:.*]] = arith.truncf %[[X]] : tensor<64xf32> to tensor<64xf16>
# CHECK-OPTS: tile.store %{{.*}}, %[[XH]], %[[MASK]] cacheModifier = cs evictionPolicy = evict_first : tensor<64x!tile.ptr<f16>>
# CHECK-OPTS: %[[YH:.*]] = arith.truncf %[[Y]] : tensor<64xf32> to tensor<64xf16>
# CHECK-OPTS: tile.store %{{.*}}, %[[YH]] cacheModifier = wt : tensor<64x!tile.ptr<f16>>
# CHECK-OPTS: %[[ZH:.*]] = arith.truncf %[[Z]] : tensor<64xf32> to tensor<64xf16>
# CHECK-OPTS: tile.store %{{.*}}, %[[ZH]], %[[MASK]] cacheModifier = wb : tensor<64x!tile.ptr<f16>>
# CHECK-OPTS: %[[WH:.*]] = arith.truncf %[[W]] : tensor<64xf32> to tensor<64xf16>
# CHECK-OPTS: tile.store %{{.*}}, %[[WH]] cacheModifier = cg : tensor<64x!tile.ptr<f16>>
@triton.jit
def load_store_options(X, Y, n, N: tl.constexpr):
    offs = tl.arange(0, N)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0, cache_modifier=".cg", eviction_policy="evict_last", volatile=True)
    y = tl.load(X + offs, mask=mask, other=1, cache_modifier=".ca")
    z = tl.load(X + offs, mask, 2.0, eviction_policy="evict_first")
    w = tl.load(X + offs, cache_modifier=".cv")
    tl.store(Y + offs, x, mask=mask, cache_modifier=".cs", eviction_policy="evict_first")
    tl.store(Y + offs, y, cache_modifier=".wt")
    tl.store(Y + offs, z, mask, cache_modifier=".wb")
    tl.store(Y + offs, w, cache_modifier=".cg")


# A mask and an 'other' of a smaller shape broadcast to the pointer block.
# RUN: tritium compile %s --kernel mask_broadcast --signature "*fp32,i32,16,32" --emit tile | FileCheck %s --check-prefix=CHECK-MASK-BCAST
# CHECK-MASK-BCAST-LABEL: func.func @mask_broadcast
# CHECK-MASK-BCAST: %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
# CHECK-MASK-BCAST: %[[COLS:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1x32xi32>
# CHECK-MASK-BCAST: %[[M:.*]] = tile.broadcast %[[COLS]] : tensor<1x32xi1> -> tensor<16x32xi1>
# CHECK-MASK-BCAST: %[[NEG:.*]] = arith.constant -1.000000e+00 : f32
# CHECK-MASK-BCAST: %[[OTHER:.*]] = tile.splat %[[NEG]] : tensor<16x32xf32>
# CHECK-MASK-BCAST: %[[X:.*]] = tile.load %[[PTRS]], %[[M]], %[[OTHER]] : tensor<16x32x!tile.ptr<f32>>
# CHECK-MASK-BCAST: %[[ROWS:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16x1xi32>
# CHECK-MASK-BCAST: %[[SM:.*]] = tile.broadcast %[[ROWS]] : tensor<16x1xi1> -> tensor<16x32xi1>
# CHECK-MASK-BCAST: tile.store %[[PTRS]], %[[X]], %[[SM]] : tensor<16x32x!tile.ptr<f32>>
@triton.jit
def mask_broadcast(X, n, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    ptrs = X + rm[:, None] * N + rn[None, :]
    x = tl.load(ptrs, mask=rn[None, :] < n, other=-1.0)
    tl.store(ptrs, x, mask=rm[:, None] < n)


# Scalar loads and stores: a plain pointer, a masked one, pointer + literal,
# and a literal stored through a float pointer.
# RUN: tritium compile %s --kernel scalar_access --signature "*fp32,*fp32,i32" --emit tile | FileCheck %s --check-prefix=CHECK-SCALAR
# CHECK-SCALAR-LABEL: func.func @scalar_access(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: i32)
# CHECK-SCALAR: %[[X:.*]] = tile.load %arg0 : !tile.ptr<f32>
# CHECK-SCALAR: %[[P:.*]] = tile.addptr %arg0, %arg2 : !tile.ptr<f32>, i32
# CHECK-SCALAR: %[[C0:.*]] = arith.constant 0 : i32
# CHECK-SCALAR: %[[M:.*]] = arith.cmpi sgt, %arg2, %[[C0]] : i32
# CHECK-SCALAR: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-SCALAR: %[[Y:.*]] = tile.load %[[P]], %[[M]], %[[Z]] : !tile.ptr<f32>
# CHECK-SCALAR: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
# CHECK-SCALAR: tile.store %arg1, %[[S]] : !tile.ptr<f32>
# CHECK-SCALAR: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-SCALAR: %[[Q:.*]] = tile.addptr %arg1, %[[ONE]] : !tile.ptr<f32>, i32
# CHECK-SCALAR: %[[THREE:.*]] = arith.constant 3 : i32
# CHECK-SCALAR: %[[THREEF:.*]] = arith.sitofp %[[THREE]] : i32 to f32
# CHECK-SCALAR: tile.store %[[Q]], %[[THREEF]] : !tile.ptr<f32>
@triton.jit
def scalar_access(X, Y, n):
    x = tl.load(X)
    y = tl.load(X + n, mask=n > 0, other=0.0)
    tl.store(Y, x + y)
    tl.store(Y + 1, 3)


# bool memory goes through i8: a *i1 pointer is bitcast to *i8, the loaded
# byte compared with 0; a stored bool is zero-extended to i8.
# RUN: tritium compile %s --kernel bool_memory --signature "*i1,*i1,64" --emit tile | FileCheck %s --check-prefix=CHECK-BOOL
# CHECK-BOOL-LABEL: func.func @bool_memory(%arg0: !tile.ptr<i1>, %arg1: !tile.ptr<i1>)
# CHECK-BOOL: %[[P:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i1>>, tensor<64xi32>
# CHECK-BOOL: %[[P8:.*]] = tile.bitcast %[[P]] : tensor<64x!tile.ptr<i1>> -> tensor<64x!tile.ptr<i8>>
# CHECK-BOOL: %[[BYTES:.*]] = tile.load %[[P8]] : tensor<64x!tile.ptr<i8>>
# CHECK-BOOL: %[[Z:.*]] = arith.constant dense<0> : tensor<64xi8>
# CHECK-BOOL: %[[B:.*]] = arith.cmpi ne, %[[BYTES]], %[[Z]] : tensor<64xi8>
# CHECK-BOOL: %[[Q:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i1>>, tensor<64xi32>
# CHECK-BOOL: %[[Q8:.*]] = tile.bitcast %[[Q]] : tensor<64x!tile.ptr<i1>> -> tensor<64x!tile.ptr<i8>>
# CHECK-BOOL: %[[BW:.*]] = arith.extui %[[B]] : tensor<64xi1> to tensor<64xi8>
# CHECK-BOOL: tile.store %[[Q8]], %[[BW]] : tensor<64x!tile.ptr<i8>>
# The scalar case:
# CHECK-BOOL: %[[S8:.*]] = tile.bitcast %arg0 : !tile.ptr<i1> -> !tile.ptr<i8>
# CHECK-BOOL: %[[SB:.*]] = tile.load %[[S8]] : !tile.ptr<i8>
# CHECK-BOOL: %[[SZ:.*]] = arith.constant 0 : i8
# CHECK-BOOL: arith.cmpi ne, %[[SB]], %[[SZ]] : i8
@triton.jit
def bool_memory(B, C, N: tl.constexpr):
    offs = tl.arange(0, N)
    b = tl.load(B + offs)
    tl.store(C + offs, b)
    s = tl.load(B)
    tl.store(C, s)


# A 2-D block pointer: base + sum_d (offset_d + arange) * stride_d in i64,
# written as a scalar base + sum_d offset_d * stride_d and a tensor
# sum_d arange_d * stride_d (what a loop advancing the offsets recomputes is
# scalar); boundary_check=(0, 1) the mask 0 <= coord < shape on both dims,
# as -offset_d <= arange_d < shape_d - offset_d; padding_option="zero" the
# 'other'; tl.advance moves the offsets; a store with boundary_check=(1,)
# masks the columns only.
# RUN: tritium compile %s --kernel block_pointer --signature "*fp16,i32,i32,i32,i32,32,16" --emit tile | FileCheck %s --check-prefix=CHECK-BPTR
# CHECK-BPTR-LABEL: func.func @block_pointer(%arg0: !tile.ptr<f16>, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32)
# CHECK-BPTR: %[[PID:.*]] = tile.get_program_id x : i32
# CHECK-BPTR: %[[ROW0:.*]] = arith.muli %[[PID]], %{{.*}}{{( \{tile.signed\})?}} : i32
# CHECK-BPTR: %[[M:.*]] = arith.extsi %arg1 : i32 to i64
# CHECK-BPTR: %[[K:.*]] = arith.extsi %arg2 : i32 to i64
# CHECK-BPTR: %[[SM:.*]] = arith.extsi %arg3 : i32 to i64
# CHECK-BPTR: %[[SK:.*]] = arith.extsi %arg4 : i32 to i64
# Rows: base + (pid*BM) * stride_m, then arange(0, 32) * stride_m as a
# [32, 1] column, in -row0 <= r < M - row0.
# CHECK-BPTR: %[[ROW64:.*]] = arith.extsi %[[ROW0]] : i32 to i64
# CHECK-BPTR: %[[ROWB:.*]] = arith.muli %[[ROW64]], %[[SM]]{{( \{tile.signed\})?}} : i64
# CHECK-BPTR: %[[BASE0:.*]] = tile.addptr %arg0, %[[ROWB]] : !tile.ptr<f16>, i64
# CHECK-BPTR: %[[RR:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
# CHECK-BPTR: %[[ROWS:.*]] = {{tile.reshape|tile.expand_dims}} %{{.*}} : tensor<32xi64> -> tensor<32x1xi64>
# CHECK-BPTR: %[[SMS:.*]] = tile.splat %[[SM]] : tensor<32x1xi64>
# CHECK-BPTR: %[[ROWOFF:.*]] = arith.muli %[[ROWS]], %[[SMS]]{{( \{tile.signed\})?}} : tensor<32x1xi64>
# CHECK-BPTR: %[[NROW:.*]] = arith.subi %{{.*}}, %[[ROW64]]{{( \{tile.signed\})?}} : i64
# CHECK-BPTR: %[[NROWS:.*]] = tile.splat %[[NROW]] : tensor<32x1xi64>
# CHECK-BPTR: %[[RLO:.*]] = arith.cmpi sge, %[[ROWS]], %[[NROWS]] : tensor<32x1xi64>
# CHECK-BPTR: %[[MR:.*]] = arith.subi %[[M]], %[[ROW64]]{{( \{tile.signed\})?}} : i64
# CHECK-BPTR: %[[MRS:.*]] = tile.splat %[[MR]] : tensor<32x1xi64>
# CHECK-BPTR: %[[RHI:.*]] = arith.cmpi slt, %[[ROWS]], %[[MRS]] : tensor<32x1xi64>
# CHECK-BPTR: %[[RIN:.*]] = arith.andi %[[RLO]], %[[RHI]] : tensor<32x1xi1>
# Columns: the base + 0 * stride_k, arange(0, 16) * stride_k as a [1, 16]
# row, in -0 <= c < K - 0.
# CHECK-BPTR: %[[COL64:.*]] = arith.extsi %{{.*}} : i32 to i64
# CHECK-BPTR: %[[COLB:.*]] = arith.muli %[[COL64]], %[[SK]]{{( \{tile.signed\})?}} : i64
# CHECK-BPTR: %[[BASE:.*]] = tile.addptr %[[BASE0]], %[[COLB]] : !tile.ptr<f16>, i64
# CHECK-BPTR: %[[CR:.*]] = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
# CHECK-BPTR: %[[COLS:.*]] = {{tile.reshape|tile.expand_dims}} %{{.*}} : tensor<16xi64> -> tensor<1x16xi64>
# CHECK-BPTR: %[[SKS:.*]] = tile.splat %[[SK]] : tensor<1x16xi64>
# CHECK-BPTR: %[[COLOFF:.*]] = arith.muli %[[COLS]], %[[SKS]]{{( \{tile.signed\})?}} : tensor<1x16xi64>
# CHECK-BPTR: %[[ROB:.*]] = tile.broadcast %[[ROWOFF]] : tensor<32x1xi64> -> tensor<32x16xi64>
# CHECK-BPTR: %[[COB:.*]] = tile.broadcast %[[COLOFF]] : tensor<1x16xi64> -> tensor<32x16xi64>
# CHECK-BPTR: %[[OFFS:.*]] = arith.addi %[[ROB]], %[[COB]]{{( \{tile.signed\})?}} : tensor<32x16xi64>
# CHECK-BPTR: %[[CLO:.*]] = arith.cmpi sge, %[[COLS]], %{{.*}} : tensor<1x16xi64>
# CHECK-BPTR: %[[KC:.*]] = arith.subi %[[K]], %[[COL64]]{{( \{tile.signed\})?}} : i64
# CHECK-BPTR: %[[KS:.*]] = tile.splat %[[KC]] : tensor<1x16xi64>
# CHECK-BPTR: %[[CHI:.*]] = arith.cmpi slt, %[[COLS]], %[[KS]] : tensor<1x16xi64>
# CHECK-BPTR: %[[CIN:.*]] = arith.andi %[[CLO]], %[[CHI]] : tensor<1x16xi1>
# CHECK-BPTR: %[[RINB:.*]] = tile.broadcast %[[RIN]] : tensor<32x1xi1> -> tensor<32x16xi1>
# CHECK-BPTR: %[[CINB:.*]] = tile.broadcast %[[CIN]] : tensor<1x16xi1> -> tensor<32x16xi1>
# CHECK-BPTR: %[[MASK:.*]] = arith.andi %[[RINB]], %[[CINB]] : tensor<32x16xi1>
# CHECK-BPTR: %[[BASES:.*]] = tile.splat %[[BASE]] : tensor<32x16x!tile.ptr<f16>>
# CHECK-BPTR: %[[PTRS:.*]] = tile.addptr %[[BASES]], %[[OFFS]] : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi64>
# CHECK-BPTR: %[[PAD:.*]] = tile.splat %{{.*}} : tensor<32x16xf16>
# CHECK-BPTR: %[[A:.*]] = tile.load %[[PTRS]], %[[MASK]], %[[PAD]] : tensor<32x16x!tile.ptr<f16>>
# tl.advance(p, (0, BK)): the column offset becomes 0 + 16.
# CHECK-BPTR: %[[C16:.*]] = arith.constant 16 : i32
# CHECK-BPTR: %[[COL1:.*]] = arith.addi %{{.*}}, %[[C16]]{{( \{tile.signed\})?}} : i32
# The second load has no boundary_check, so no mask:
# CHECK-BPTR: %[[B:.*]] = tile.load %{{.*}} : tensor<32x16x!tile.ptr<f16>>
# CHECK-BPTR: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : tensor<32x16xf16>
# CHECK-BPTR: %[[SCOLS:.*]] = {{tile.reshape|tile.expand_dims}} %{{.*}} : tensor<16xi64> -> tensor<1x16xi64>
# CHECK-BPTR: %[[SCIN:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<1x16xi1>
# CHECK-BPTR: %[[SPTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi64>
# CHECK-BPTR: %[[SMASK:.*]] = tile.broadcast %[[SCIN]] : tensor<1x16xi1> -> tensor<32x16xi1>
# CHECK-BPTR: tile.store %[[SPTRS]], %[[SUM]], %[[SMASK]] : tensor<32x16x!tile.ptr<f16>>
@triton.jit
def block_pointer(A, M, K, stride_m, stride_k, BM: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(base=A, shape=(M, K), strides=(stride_m, stride_k), offsets=(pid * BM, 0),
                          block_shape=(BM, BK), order=(1, 0))
    a = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    p = tl.advance(p, (0, BK))
    b = tl.load(p)
    tl.store(p, a + b, boundary_check=(1,))


# padding_option="nan" pads with a quiet NaN.
# RUN: tritium compile %s --kernel block_pointer_nan --signature "*fp32,i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-BPTR-NAN
# CHECK-BPTR-NAN-LABEL: func.func @block_pointer_nan
# CHECK-BPTR-NAN: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64xi1>
# CHECK-BPTR-NAN: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
# CHECK-BPTR-NAN: %[[PAD:.*]] = tile.splat %[[NAN]] : tensor<64xf32>
# CHECK-BPTR-NAN: tile.load %{{.*}}, %[[MASK]], %[[PAD]] : tensor<64x!tile.ptr<f32>>
@triton.jit
def block_pointer_nan(A, M, N: tl.constexpr):
    p = tl.make_block_ptr(A, (M,), (1,), (0,), (N,), (0,))
    x = tl.load(p, boundary_check=(0,), padding_option="nan")
    tl.store(p, x + 1.0)


# A pointer to pointers (signature '**fp32'): loading it gives a pointer.
# RUN: tritium compile %s --kernel pointer_to_pointer --signature "**fp32,*fp32,64" --emit tile | FileCheck %s --check-prefix=CHECK-PTR-PTR
# CHECK-PTR-PTR-LABEL: func.func @pointer_to_pointer(%arg0: !tile.ptr<!tile.ptr<f32>>, %arg1: !tile.ptr<f32>)
# CHECK-PTR-PTR: %[[P:.*]] = tile.load %arg0 : !tile.ptr<!tile.ptr<f32>>
# CHECK-PTR-PTR: %[[OFFS:.*]] = tile.make_range
# CHECK-PTR-PTR: %[[PS:.*]] = tile.splat %[[P]] : tensor<64x!tile.ptr<f32>>
# CHECK-PTR-PTR: %[[Q:.*]] = tile.addptr %[[PS]], %[[OFFS]] : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
# CHECK-PTR-PTR: %[[X:.*]] = tile.load %[[Q]] : tensor<64x!tile.ptr<f32>>
# CHECK-PTR-PTR: tile.store %{{.*}}, %[[X]] : tensor<64x!tile.ptr<f32>>
# Storing a pointer through it:
# CHECK-PTR-PTR: tile.store %arg0, %arg1 : !tile.ptr<!tile.ptr<f32>>
@triton.jit
def pointer_to_pointer(PP, Y, N: tl.constexpr):
    p = tl.load(PP)
    offs = tl.arange(0, N)
    x = tl.load(p + offs)
    tl.store(Y + offs, x)
    tl.store(PP, Y)


# ptr.dtype.element_ty is the pointee dtype, usable in .to() and tl.zeros.
# RUN: tritium compile %s --kernel element_type --signature "*fp32,*bf16,64" --emit tile | FileCheck %s --check-prefix=CHECK-ELEM
# CHECK-ELEM-LABEL: func.func @element_type
# CHECK-ELEM: %[[X:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-ELEM: %[[XB:.*]] = arith.truncf %[[X]] : tensor<64xf32> to tensor<64xbf16>
# CHECK-ELEM: tile.store %{{.*}}, %[[XB]] : tensor<64x!tile.ptr<bf16>>
# CHECK-ELEM: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64xbf16>
# CHECK-ELEM: tile.store %{{.*}}, %[[Z]] : tensor<64x!tile.ptr<bf16>>
@triton.jit
def element_type(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Y + offs, x.to(Y.dtype.element_ty))
    z = tl.zeros((N,), dtype=Y.dtype.element_ty)
    tl.store(Y + offs, z)


# A stored value is cast to the pointee type (float -> int: fptosi), and a
# scalar value is splat over a block of pointers.
# RUN: tritium compile %s --kernel store_converts --signature "*fp32,*i32,64" --emit tile | FileCheck %s --check-prefix=CHECK-STORE-CAST
# CHECK-STORE-CAST-LABEL: func.func @store_converts
# CHECK-STORE-CAST: %[[X:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK-STORE-CAST: %[[P:.*]] = tile.addptr {{.*}} : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
# CHECK-STORE-CAST: %[[XI:.*]] = arith.fptosi %[[X]] : tensor<64xf32> to tensor<64xi32>
# CHECK-STORE-CAST: tile.store %[[P]], %[[XI]] : tensor<64x!tile.ptr<i32>>
# CHECK-STORE-CAST: %[[C:.*]] = arith.constant 1.500000e+00 : f32
# CHECK-STORE-CAST: %[[CI:.*]] = arith.fptosi %[[C]] : f32 to i32
# CHECK-STORE-CAST: %[[CS:.*]] = tile.splat %[[CI]] : tensor<64xi32>
# CHECK-STORE-CAST: tile.store %{{.*}}, %[[CS]] : tensor<64x!tile.ptr<i32>>
@triton.jit
def store_converts(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Y + offs, x)
    tl.store(Y + offs, 1.5)


# int64 offsets give int64 addptr offsets; an unsigned offset narrower than
# 64 bits is zero-extended to i64 first (addptr treats offsets as signed).
# RUN: tritium compile %s --kernel offset_types --signature "*fp32,*i64,*u32,64" --emit tile | FileCheck %s --check-prefix=CHECK-OFFSETS
# CHECK-OFFSETS-LABEL: func.func @offset_types
# CHECK-OFFSETS: %[[O64:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i64>>
# CHECK-OFFSETS: %[[OU:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<i32>>
# CHECK-OFFSETS: tile.addptr %{{.*}}, %[[O64]] : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
# CHECK-OFFSETS: %[[OUW:.*]] = arith.extui %[[OU]] : tensor<64xi32> to tensor<64xi64>
# CHECK-OFFSETS: tile.addptr %{{.*}}, %[[OUW]] : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
@triton.jit
def offset_types(X, O64, OU, N: tl.constexpr):
    offs = tl.arange(0, N)
    o64 = tl.load(O64 + offs)
    ou = tl.load(OU + offs)
    a = tl.load(X + o64)
    b = tl.load(X + ou)
    tl.store(X + offs, a + b)


# A block stored through a scalar pointer, or a block mask on a scalar load,
# is an error in Triton ("Value argument cannot be block type if pointer
# argument is not a block"), not a splat of the pointer.
# RUN: not tritium compile %s --kernel store_block_through_scalar --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-BLOCK-SCALAR-STORE
@triton.jit
def store_block_through_scalar(X, N: tl.constexpr):
    x = tl.zeros((N,), dtype=tl.float32)
    # CHECK-BLOCK-SCALAR-STORE: memory.py:[[@LINE+1]]:17: error: {{.*}}block{{.*}}scalar pointer{{.*}}
    tl.store(X, x)


# RUN: not tritium compile %s --kernel block_mask_scalar_load --signature "*fp32,64" 2>&1 | FileCheck %s --check-prefix=CHECK-BLOCK-SCALAR-MASK
@triton.jit
def block_mask_scalar_load(X, N: tl.constexpr):
    m = tl.arange(0, N) < 4
    # CHECK-BLOCK-SCALAR-MASK: memory.py:[[@LINE+1]]:20: error: {{.*}}block{{.*}}scalar pointer{{.*}}
    x = tl.load(X, mask=m)


# Pointers stored in memory: an address loaded as uint64 and cast to a
# pointer with tl.pointer_type (grouped GEMM style).
# RUN: tritium compile %s --kernel pointer_from_int --signature "*u64,*fp16,64" | FileCheck %s --check-prefix=CHECK-PTRTYPE
# CHECK-PTRTYPE-LABEL: func.func @pointer_from_int
# CHECK-PTRTYPE: %[[A:.*]] = tile.load %{{.*}} : !tile.ptr<i64>
# CHECK-PTRTYPE: %[[P:.*]] = tile.int_to_ptr %[[A]] : i64 -> !tile.ptr<f16>
# CHECK-PTRTYPE: tile.splat %[[P]] : tensor<64x!tile.ptr<f16>>
@triton.jit
def pointer_from_int(P, X, BLOCK: tl.constexpr):
    base = tl.load(P + tl.program_id(0)).to(tl.pointer_type(tl.float16))
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(base + offs))

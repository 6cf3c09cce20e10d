# Specialization from the signature: ':16' marks divisibility, ':1' folds the
# argument to the constant 1, bare values bind tl.constexpr parameters.
import triton
import triton.language as tl

# RUN: tritium compile %s --kernel spec --signature "*fp32:16,*bf16,i32:16,i64,i32:1,u32,fp32,1024,True" | FileCheck %s --check-prefix=CHECK-S
# CHECK-S-LABEL: func.func @spec(
# CHECK-S-SAME: %arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32},
# CHECK-S-SAME: %arg1: !tile.ptr<bf16>,
# CHECK-S-SAME: %arg2: i32 {tile.divisibility = 16 : i32},
# CHECK-S-SAME: %arg3: i64, %arg4: i32, %arg5: f32)
# CHECK-S-SAME: attributes {tile.kernel, tile.num_warps = 4 : i32}
# CHECK-S: tile.make_range {end = 1024 : i32, start = 0 : i32}
# CHECK-S: arith.muli %arg2, %{{.*}}{{( \{tile.signed\})?}} : i32
@triton.jit
def spec(a, b, n, big, stride, u, scale, BLOCK: tl.constexpr, FLAG: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(a + offs * stride)
    x = x * scale + n * 2
    if FLAG:
        tl.store(a + offs, x)


# RUN: tritium compile %s --kernel spec --signature "*fp32:16,*bf16,i32:16,i64,i32:1,u32,fp32,1024,True" --num-warps 8 | FileCheck %s --check-prefix=CHECK-W
# CHECK-W: tile.num_warps = 8 : i32


# RUN: tritium compile %s --kernel spec --signature "*fp32:16,*bf16,i32:16,i64,i32:1,u32,fp32,1024,True" --emit tile --locations | FileCheck %s --check-prefix=CHECK-LOC
# CHECK-LOC-DAG: loc("{{.*}}signature.py":16:5)
# CHECK-LOC-DAG: loc("{{.*}}signature.py":17:12)


# RUN: tritium compile %s --kernel spec --signature "*fp32:16,*bf16,i32:16,i64,i32:1,u32,fp32,1024,True" --emit ast | FileCheck %s --check-prefix=CHECK-AST
# CHECK-AST: FunctionDef spec

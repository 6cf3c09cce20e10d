# Loads keep their program order through layout assignment: a load that
# conversion removal issues in another layout (the row indices here, read
# in the layout of the 2-D tile they address) stays where it was, before
# the tile's load, rather than moving down to its user.
# RUN: tritium compile %s --kernel index_add_rows --signature "*fp32:16,*i64:16,*fp32:16,i32:16,256,16" --target cuda:90 --num-warps 4 --emit tile-gpu | FileCheck %s
# CHECK: tile.load {{.*}} : tensor<16x!tile.ptr<i64>
# CHECK: tile.load {{.*}} : tensor<16x256x!tile.ptr<f32>
# CHECK: tile.atomic_rmw
import triton
import triton.language as tl


@triton.jit
def index_add_rows(src_ptr, idx_ptr, out_ptr, D, BLOCK_D: tl.constexpr, ROWS: tl.constexpr):
    # out[idx[i], :] += src[i, :]
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_D)
    dst = tl.load(idx_ptr + rows)
    v = tl.load(src_ptr + rows[:, None] * D + cols[None, :])
    tl.atomic_add(out_ptr + dst[:, None] * D + cols[None, :], v, sem="relaxed")

# Layout assignment (tgpu-assign-layouts) and conversion removal
# (tgpu-remove-conversions) through tile-opt, on tile IR from the frontend.
# (Kernels: Inputs/codegen/layouts.py.)

# A tile read column-major (`base + rows + cols * stride`) is loaded in a
# layout with the rows fastest (4 floats per thread along dim 0); the pointer
# math arrives there by conversions, and the data moves once, into the
# row-major layout of the store.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel transpose_copy --signature "*fp32:16,*fp32:16,i32:16,64,32" --emit tile-opt | tile-opt --tgpu-assign-layouts="num-warps=4 target=cuda:90" | FileCheck %s --check-prefix=TR
# TR-DAG: #[[COL:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
# TR-DAG: #[[ROW:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
# TR-LABEL: func.func @transpose_copy
# TR: %[[P:.*]] = tgpu.convert_layout %{{.*}} : tensor<64x32x!tile.ptr<f32>, #[[ROW]]> -> tensor<64x32x!tile.ptr<f32>, #[[COL]]>
# TR: %[[X:.*]] = tile.load %[[P]] : tensor<64x32x!tile.ptr<f32>, #[[COL]]>
# TR: %[[Y:.*]] = arith.mulf %[[X]], %{{.*}} : tensor<64x32xf32, #[[COL]]>
# TR: %[[Z:.*]] = tgpu.convert_layout %[[Y]] : tensor<64x32xf32, #[[COL]]> -> tensor<64x32xf32, #[[ROW]]>
# TR: tile.store %{{.*}}, %[[Z]] : tensor<64x32x!tile.ptr<f32>, #[[ROW]]>

# After conversion removal only the data's move is left: ranges, splats and
# the pointer arithmetic over them are computed in the layouts wanted.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel transpose_copy --signature "*fp32:16,*fp32:16,i32:16,64,32" --emit tile-opt | tile-opt --tgpu-assign-layouts="num-warps=4 target=cuda:90" --tgpu-remove-conversions="num-warps=4 target=cuda:90" | FileCheck %s --check-prefix=TRRM
# TRRM-LABEL: func.func @transpose_copy
# TRRM-NOT: tgpu.convert_layout
# TRRM: tile.load
# TRRM-NOT: tgpu.convert_layout
# TRRM: arith.mulf
# TRRM-NEXT: tgpu.convert_layout
# TRRM-NEXT: tile.store
# TRRM-NOT: tgpu.convert_layout

# A product accumulated in a loop: the loop carries the wgmma accumulator
# (what its body yields), the zeros enter it by one conversion before the
# loop, and the result moves once, into the store's layout.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel dot_loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,64,64,32" --emit tile-opt | tile-opt --tgpu-assign-layouts="num-warps=4 target=cuda:90" | FileCheck %s --check-prefix=DOT
# DOT-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 3, warpsPerCTA = [4, 1]}>
# DOT-LABEL: func.func @dot_loop
# DOT: %[[Z:.*]] = tgpu.convert_layout %{{.*}} : tensor<64x64xf32, #{{blocked[0-9]*}}> -> tensor<64x64xf32, #[[MMA]]>
# DOT: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<64x64xf32, #[[MMA]]>)
# DOT: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]] : {{.*}} -> tensor<64x64xf32, #[[MMA]]>
# DOT: scf.yield %[[D]] : tensor<64x64xf32, #[[MMA]]>
# DOT: tgpu.convert_layout %[[R]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #{{blocked[0-9]*}}>

# The same on sm_80 with 8 warps: an mma.sync accumulator; after conversion
# removal the zeros are made in it.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel dot_loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,64,64,32" --emit tile-opt | tile-opt --tgpu-assign-layouts="num-warps=8 target=cuda:80" --tgpu-remove-conversions="num-warps=8 target=cuda:80" | FileCheck %s --check-prefix=DOT80
# DOT80-DAG: #[[MMA:mma[0-9]*]] = #tgpu.mma<{version = 2, warpsPerCTA = [4, 2]}>
# DOT80-LABEL: func.func @dot_loop
# DOT80: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[MMA]]>
# DOT80: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (tensor<64x64xf32, #[[MMA]]>)

# A row reduction's result is the slice of its source's layout; broadcast
# back over the row, it meets the source where the source lies. The load
# runs 16 bytes a thread (its pointers, recomputed, take the layout memory
# allows rather than the ranges' default of 8 bytes).
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel center_rows --signature "*fp32:16,*fp32:16,256" --emit tile-opt | tile-opt --tgpu-assign-layouts="num-warps=4 target=cuda:90" --tgpu-remove-conversions="num-warps=4 target=cuda:90" | FileCheck %s --check-prefix=RED
# RED-DAG: #[[B:blocked[0-9]*]] = #tgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
# RED-DAG: #[[S:slice[0-9]*]] = #tgpu.slice<{dim = 1, parent = #[[B]]}>
# RED-LABEL: func.func @center_rows
# RED: %[[X:.*]] = tile.load %{{.*}} : tensor<4x256x!tile.ptr<f32>, #[[B]]>
# RED: } : (tensor<4x256xf32, #[[B]]>) -> tensor<4xf32, #[[S]]>
# RED: arith.divf %{{.*}}, %{{.*}} : tensor<4xf32, #[[S]]>
# RED: %[[M:.*]] = tile.broadcast %{{.*}} -> tensor<4x256xf32, #[[B]]>
# RED: arith.subf %[[X]], %[[M]] : tensor<4x256xf32, #[[B]]>

# Bad options are reported.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel center_rows --signature "*fp32:16,*fp32:16,256" --emit tile-opt | not tile-opt --tgpu-assign-layouts="target=cuda:7x" 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: unknown target 'cuda:7x' (cuda:80 or cuda:90)

# A where() between a product's scores and a mask compared from ranges takes
# the scores' layout (the mask is recomputed there): no conversion of the
# accumulator in the loop, on sm_90 (wgmma) as on AMD (MFMA).
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel masked_scores --signature "*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32,128,64,64" --target cuda:90 --num-warps 8 --num-stages 1 --emit tile-gpu | FileCheck %s --check-prefix=WHERE
# WHERE: scf.for
# WHERE-NOT: tgpu.convert_layout {{.*}} : tensor<128x64xf32
# WHERE: scf.yield
# On AMD, q (made before the loop) is converted once into the registers of
# MFMA's A fragments, before the loop; P stays where exp2 leaves it.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel masked_scores --signature "*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32,128,64,64" --target hip:gfx942 --num-warps 4 --num-stages 1 --emit tile-gpu | FileCheck %s --check-prefix=WHERE-AMD
# WHERE-AMD: %[[Q:.*]] = tgpu.convert_layout {{.*}} : tensor<128x64xf16, #{{.*}}> -> tensor<128x64xf16, #[[ACC:linear[0-9]*]]>
# WHERE-AMD: scf.for
# WHERE-AMD-NOT: tgpu.convert_layout {{.*}} : tensor<128x64xf{{16|32}}
# WHERE-AMD: tile.dot %[[Q]], {{.*}} -> tensor<128x64xf32, #[[ACC]]>
# WHERE-AMD-NOT: tgpu.convert_layout {{.*}} : tensor<128x64xf{{16|32}}
# WHERE-AMD: tile.dot %{{.*}}, {{.*}} : tensor<128x64xf16, #[[ACC]]> * {{.*}} -> tensor<128x64xf32, #[[ACC]]>
# WHERE-AMD: scf.yield

# A vector loaded once and broadcast along a tile (a bias row added to an
# accumulator) is loaded in the slice of the tile's layout: no conversion,
# so no round trip through shared memory and no barrier for it.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel bias_epilogue --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,128,128,32" --target cuda:90 --num-warps 8 --emit tile-gpu | FileCheck %s --check-prefix=BIAS
# BIAS: %[[BIAS:.*]] = tile.load {{.*}} : tensor<128x!tile.ptr<f32>, #[[SLICE:linear[0-9]*]]>
# BIAS-NEXT: tile.expand_dims %[[BIAS]] {axis = 0 : i32} : tensor<128xf32, #[[SLICE]]>
# BIAS-NOT: tgpu.convert_layout
# BIAS: tgpu.wgmma
# Not when the load's pointers need a costly op (a remainder) that the
# accumulator's layout would repeat in every register of a row.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel bias_mod_epilogue --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,128,256,32" --target cuda:90 --num-warps 8 --emit tile-gpu | FileCheck %s --check-prefix=BIASMOD
# BIASMOD: arith.remsi
# BIASMOD-NOT: arith.remsi
# BIASMOD: tgpu.convert_layout {{.*}} : tensor<1x256xf32
# BIASMOD-NOT: arith.remsi
# BIASMOD: tile.store
# A load in a layout that would read memory in narrower runs stays as it
# is (transpose_copy above: the data moves once, after the load).
# A load is issued again in another layout only where nothing can have
# written memory since: here a store to the same place comes between.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel load_store_broadcast --signature "*fp32:16,*fp32:16,64,32" --target cuda:90 --num-warps 4 --emit tile-gpu | FileCheck %s --check-prefix=RAW
# RAW: tile.load
# RAW: tile.store
# RAW-NOT: tile.load
# RAW: tile.store
#
# A value made before a loop and broadcast to a product's layout inside it
# (a column of row maxima) moves once, before the loop, not in every
# iteration.
# RUN: tritium compile %S/../Inputs/codegen/layouts.py --kernel rows_in_loop --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,128,64,32" --target cuda:90 --num-warps 4 --emit tile-gpu | FileCheck %s --check-prefix=HOIST
# HOIST: tgpu.convert_layout {{.*}} : tensor<128x1xf32
# HOIST: scf.for
# HOIST-NOT: tgpu.convert_layout
# HOIST: tgpu.wgmma
# HOIST-NOT: tgpu.convert_layout
# HOIST: scf.yield

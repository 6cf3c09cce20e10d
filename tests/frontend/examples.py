# Every example kernel compiles to verified tile IR, before and after the tile
# pipeline, and its ops carry the example's file:line:col; a value bound to a
# variable carries the variable's name around it.

# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --emit tile-opt --locations | FileCheck %s --check-prefix=CHECK-VADD
# CHECK-VADD-LABEL: func.func @add_kernel
# CHECK-VADD: %[[X:.*]] = tile.load %{{.*}}, %[[M:.*]] : tensor<1024x!tile.ptr<f32>> loc(#[[LX:loc[0-9]+]])
# CHECK-VADD: %[[Y:.*]] = tile.load %{{.*}}, %[[M]] : tensor<1024x!tile.ptr<f32>>
# CHECK-VADD: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32>
# CHECK-VADD: tile.store %{{.*}}, %[[S]], %[[M]] : tensor<1024x!tile.ptr<f32>>
# CHECK-VADD: #[[LXPOS:loc[0-9]+]] = loc("{{.*}}examples/vector_add.py":19:9)
# CHECK-VADD: #[[LX]] = loc("x"(#[[LXPOS]]))

# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --emit tile-opt | FileCheck %s --check-prefix=CHECK-SOFTMAX
# CHECK-SOFTMAX-LABEL: func.func @softmax_kernel
# CHECK-SOFTMAX: scf.for
# CHECK-SOFTMAX: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>>
# CHECK-SOFTMAX: tile.reduce
# CHECK-SOFTMAX: math.exp
# CHECK-SOFTMAX: tile.reduce
# CHECK-SOFTMAX: arith.divf
# CHECK-SOFTMAX: tile.store
# CHECK-SOFTMAX: } {tile.num_stages = 4 : i32}

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,leaky_relu" --emit tile-opt | FileCheck %s --check-prefix=CHECK-MM
# CHECK-MM-LABEL: func.func @matmul_kernel
# CHECK-MM: %[[ACC:[0-9]+]]:3 = scf.for
# CHECK-MM:   %[[A:.*]] = tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>>
# CHECK-MM:   %[[B:.*]] = tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>>
# CHECK-MM:   tile.dot %[[A]], %[[B]], %{{.*}} : tensor<128x32xf16> * tensor<32x128xf16> -> tensor<128x128xf32>
# CHECK-MM: arith.cmpf oge, %[[ACC]]#0
# CHECK-MM: arith.select
# CHECK-MM: arith.truncf %{{.*}} : tensor<128x128xf32> to tensor<128x128xf16>
# CHECK-MM: tile.store

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,\"\"" --emit tile-opt | FileCheck %s --check-prefix=CHECK-MMPLAIN
# CHECK-MMPLAIN-LABEL: func.func @matmul_kernel
# CHECK-MMPLAIN-NOT: arith.cmpf
# CHECK-MMPLAIN: arith.truncf

# RUN: tritium compile %examples/dropout.py --kernel _seeded_dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" --emit tile-opt | FileCheck %s --check-prefix=CHECK-DROP
# CHECK-DROP-LABEL: func.func @_seeded_dropout
# CHECK-DROP: tile.mulhiui
# CHECK-DROP: arith.cmpf ogt
# CHECK-DROP: arith.select
# CHECK-DROP: tile.store

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32,1024" --emit tile-opt | FileCheck %s --check-prefix=CHECK-LNF
# CHECK-LNF-LABEL: func.func @_layer_norm_fwd_fused
# CHECK-LNF-COUNT-2: scf.for
# CHECK-LNF: math.sqrt
# CHECK-LNF: scf.for

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32,i32,64,1024" --emit tile-opt | FileCheck %s --check-prefix=CHECK-LNB
# CHECK-LNB-LABEL: func.func @_layer_norm_bwd_dx_fused
# CHECK-LNB: scf.while
# CHECK-LNB: tile.atomic_cas
# CHECK-LNB: tile.barrier
# CHECK-LNB: tile.atomic_rmw xchg

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dwdb --signature "*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,32,128" --emit tile-opt | FileCheck %s --check-prefix=CHECK-LNW
# CHECK-LNW-LABEL: func.func @_layer_norm_bwd_dwdb
# CHECK-LNW: scf.for
# CHECK-LNW: tile.reduce

# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,False" --emit tile-opt | FileCheck %s --check-prefix=CHECK-ATTN
# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --emit tile-opt | FileCheck %s --check-prefix=CHECK-ATTNC
# CHECK-ATTN-LABEL: func.func @_attn_fwd
# CHECK-ATTN: scf.for
# CHECK-ATTN: tile.trans
# CHECK-ATTN: tile.dot
# CHECK-ATTN: math.exp2
# CHECK-ATTN: tile.dot
# CHECK-ATTN-NOT: scf.for
# CHECK-ATTN: arith.divf
# CHECK-ATTNC-LABEL: func.func @_attn_fwd
# CHECK-ATTNC-COUNT-2: scf.for

# Every example kernel compiles to verified tile IR, before and after the tile
# pipeline, and its ops carry the example's file:line:col.

# RUN: tritium compile %examples/vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --emit tile-opt --locations | FileCheck %s --check-prefix=VADD
# VADD-LABEL: func.func @add_kernel
# VADD: %[[X:.*]] = tile.load %{{.*}}, %[[M:.*]] : tensor<1024x!tile.ptr<f32>> loc(#[[LX:loc[0-9]+]])
# VADD: %[[Y:.*]] = tile.load %{{.*}}, %[[M]] : tensor<1024x!tile.ptr<f32>>
# VADD: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32>
# VADD: tile.store %{{.*}}, %[[S]], %[[M]] : tensor<1024x!tile.ptr<f32>>
# VADD: #[[LX]] = loc("{{.*}}examples/vector_add.py":19:9)

# RUN: tritium compile %examples/softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" --emit tile-opt | FileCheck %s --check-prefix=SOFTMAX
# SOFTMAX-LABEL: func.func @softmax_kernel
# SOFTMAX: scf.for
# SOFTMAX: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>>
# SOFTMAX: tile.reduce
# SOFTMAX: math.exp
# SOFTMAX: tile.reduce
# SOFTMAX: arith.divf
# SOFTMAX: tile.store
# SOFTMAX: } {tile.num_stages = 4 : i32}

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,leaky_relu" --emit tile-opt | FileCheck %s --check-prefix=MM
# MM-LABEL: func.func @matmul_kernel
# MM: %[[ACC:[0-9]+]]:3 = scf.for
# MM:   %[[A:.*]] = tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>>
# MM:   %[[B:.*]] = tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>>
# MM:   tile.dot %[[A]], %[[B]], %{{.*}} : tensor<128x32xf16> * tensor<32x128xf16> -> tensor<128x128xf32>
# MM: arith.cmpf oge, %[[ACC]]#0
# MM: arith.select
# MM: arith.truncf %{{.*}} : tensor<128x128xf32> to tensor<128x128xf16>
# MM: tile.store

# RUN: tritium compile %examples/matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,\"\"" --emit tile-opt | FileCheck %s --check-prefix=MMPLAIN
# MMPLAIN-LABEL: func.func @matmul_kernel
# MMPLAIN-NOT: arith.cmpf
# MMPLAIN: arith.truncf

# RUN: tritium compile %examples/dropout.py --kernel _seeded_dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" --emit tile-opt | FileCheck %s --check-prefix=DROP
# DROP-LABEL: func.func @_seeded_dropout
# DROP: tile.mulhiui
# DROP: arith.cmpf ogt
# DROP: arith.select
# DROP: tile.store

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32,1024" --emit tile-opt | FileCheck %s --check-prefix=LNF
# LNF-LABEL: func.func @_layer_norm_fwd_fused
# LNF-COUNT-2: scf.for
# LNF: math.sqrt
# LNF: scf.for

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32,i32,64,1024" --emit tile-opt | FileCheck %s --check-prefix=LNB
# LNB-LABEL: func.func @_layer_norm_bwd_dx_fused
# LNB: scf.while
# LNB: tile.atomic_cas
# LNB: tile.barrier
# LNB: tile.atomic_rmw xchg

# RUN: tritium compile %examples/layer_norm.py --kernel _layer_norm_bwd_dwdb --signature "*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,32,128" --emit tile-opt | FileCheck %s --check-prefix=LNW
# LNW-LABEL: func.func @_layer_norm_bwd_dwdb
# LNW: scf.for
# LNW: tile.reduce

# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,False" --emit tile-opt | FileCheck %s --check-prefix=ATTN
# RUN: tritium compile %examples/attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,i32:1,i32,i32,i32,64,128,64,True" --emit tile-opt | FileCheck %s --check-prefix=ATTNC
# ATTN-LABEL: func.func @_attn_fwd
# ATTN: scf.for
# ATTN: tile.trans
# ATTN: tile.dot
# ATTN: math.exp2
# ATTN: tile.dot
# ATTN-NOT: scf.for
# ATTN: arith.divf
# ATTNC-LABEL: func.func @_attn_fwd
# ATTNC-COUNT-2: scf.for

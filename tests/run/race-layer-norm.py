# A race planted in a real kernel: examples/layer_norm.py's backward with its
# spin lock released before the partial dW/dB stores instead of after. The
# race sanitizer names the reading program, the load's line, the writing
# program and the store's line; the example as written is clean.

# RUN: python3 -c "import sys; s = open(sys.argv[1]).read(); \
# RUN:   old = '    tl.store(DW, partial_dw, mask=mask)\n    tl.store(DB, partial_db, mask=mask)\n    tl.debug_barrier()\n    tl.atomic_xchg(Lock, 0)\n'; \
# RUN:   new = '    tl.atomic_xchg(Lock, 0)\n    tl.store(DW, partial_dw, mask=mask)\n    tl.store(DB, partial_db, mask=mask)\n'; \
# RUN:   assert old in s; open(sys.argv[2], 'w').write(s.replace(old, new))" %examples/layer_norm.py %t.py
# RUN: not tritium run %t.py --kernel _layer_norm_bwd_dx_fused --grid 16 --sanitize race \
# RUN:   --arg DX=empty:f16[16,64] --arg DY=randn:f16[16,64] --arg DW=zeros:f32[4,64] \
# RUN:   --arg DB=zeros:f32[4,64] --arg X=randn:f16[16,64] --arg W=randn:f16[64] \
# RUN:   --arg Mean=randn:f32[16] --arg Rstd=ones:f32[16] --arg Lock=zeros:i32[8] \
# RUN:   --arg stride=64 --arg N=64 --constexpr GROUP_SIZE_M=4 --constexpr BLOCK_SIZE_N=64 \
# RUN:   2>&1 | FileCheck %s --check-prefix=BUG
# BUG: race sanitizer: kernel _layer_norm_bwd_dx_fused: program (4, 0, 0) reads byte 0 of buffer 'DW' (1024 bytes) at {{.*}}.py:91 (tile.load, lane 0); program (0, 0, 0) wrote it at {{.*}}.py:94 (tile.store, lane 0), and no atomic with release and acquire semantics orders the two
# BUG: tritium: error: the sanitizer reported 12 programs
# RUN: tritium run %examples/layer_norm.py --kernel _layer_norm_bwd_dx_fused --grid 16 --sanitize race \
# RUN:   --arg DX=empty:f16[16,64] --arg DY=randn:f16[16,64] --arg DW=zeros:f32[4,64] \
# RUN:   --arg DB=zeros:f32[4,64] --arg X=randn:f16[16,64] --arg W=randn:f16[64] \
# RUN:   --arg Mean=randn:f32[16] --arg Rstd=ones:f32[16] --arg Lock=zeros:i32[8] \
# RUN:   --arg stride=64 --arg N=64 --constexpr GROUP_SIZE_M=4 --constexpr BLOCK_SIZE_N=64 \
# RUN:   2>&1 | FileCheck %s --check-prefix=CLEAN
# CLEAN-NOT: sanitizer
# CLEAN: launch:

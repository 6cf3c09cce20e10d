# `tritium run --trace [FILE:]LINE [--pid X,Y,Z]`: the values a line computes
# (its ops whose results later lines use), each time it runs, for program
# (0, 0, 0) or the programs --pid names; shaped as the tile, rows longer than
# 8 shown as their first and last 3, lanes a load's mask turned off as --.

# RUN: tritium run %s --kernel k --grid 2 --trace 51 --pid 1 --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 | FileCheck %s --check-prefix=LOAD
# LOAD: trace {{.*}}trace.py:51 program (1, 0, 0): tile.load (f32[8])
# LOAD-NEXT: [1, 1, 1, 1, --, --, --, --]

# Once per iteration of the loop, for the programs given.
# RUN: tritium run %s --kernel k --grid 2 --trace trace.py:54 --pid 0 --pid 1,0,0 \
# RUN:   --arg x_ptr=ones:f32[12] --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 \
# RUN:   | FileCheck %s --check-prefix=LOOP
# LOOP: trace {{.*}}trace.py:54 program (0, 0, 0): arith.addf (f32[8])
# LOOP-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
# LOOP-NEXT: trace {{.*}}trace.py:54 program (0, 0, 0): arith.addf (f32[8])
# LOOP-NEXT: [3, 3, 3, 3, 3, 3, 3, 3]
# LOOP-NEXT: trace {{.*}}trace.py:54 program (1, 0, 0): arith.addf (f32[8])
# LOOP-NEXT: [1, 1, 1, 1, 0, 0, 0, 0]

# A 2-D tile; long rows elided.
# RUN: tritium run %s --kernel grid2d --grid 1 --trace 60 --arg out_ptr=zeros:i32[64] \
# RUN:   | FileCheck %s --check-prefix=TILE
# TILE: trace {{.*}}trace.py:60 program (0, 0, 0): arith.addi (i32[4, 16])
# TILE-NEXT: {{^}}{{\[\[}}0, 1, 2, ..., 13, 14, 15],
# TILE-NEXT: {{^}} [16, 17, 18, ..., 29, 30, 31],
# TILE-NEXT: {{^}} [32, 33, 34, ..., 45, 46, 47],
# TILE-NEXT: {{^}} [48, 49, 50, ..., 61, 62, 63]]

# Another file, or a line with nothing to show: a note, no values.
# RUN: tritium run %s --kernel grid2d --grid 1 --trace other.py:60 --arg out_ptr=zeros:i32[64] \
# RUN:   2>&1 | FileCheck %s --check-prefix=NONE
# NONE-NOT: trace {{.*}}program
# NONE: tritium: note: --trace other.py:60: nothing of line 60 ran in the traced programs

# RUN: not tritium run %s --kernel grid2d --grid 1 --trace 60 --pid 0,1 --arg out_ptr=zeros:i32[64] \
# RUN:   2>&1 | FileCheck %s --check-prefix=BADPID
# BADPID: tritium: error: --pid 0,1: program 1 on axis 1 is outside the grid [1, 1, 1]
# RUN: not tritium run %s --kernel grid2d --grid 1 --pid 0 --arg out_ptr=zeros:i32[64] \
# RUN:   2>&1 | FileCheck %s --check-prefix=NOTRACE
# NOTRACE: tritium: error: --pid chooses the programs --trace prints; give --trace [FILE:]LINE too

import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(2):
        acc += x * (i + 1)
    tl.store(out_ptr + offs, acc, mask=offs < n)


@triton.jit
def grid2d(out_ptr):
    offs = tl.arange(0, 4)[:, None] * 16 + tl.arange(0, 16)[None, :]
    tl.store(out_ptr + offs, offs)


# --trace [FILE:]LINE:NAME: the values the variable NAME is given at LINE.
# Its update in the loop body, each iteration:
# RUN: tritium run %s --kernel k --grid 2 --trace 54:acc --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 | FileCheck %s --check-prefix=NAMED
# NAMED: trace {{.*}}trace.py:54 program (0, 0, 0): acc = arith.addf (f32[8])
# NAMED-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
# NAMED-NEXT: trace {{.*}}trace.py:54 program (0, 0, 0): acc = arith.addf (f32[8])
# NAMED-NEXT: [3, 3, 3, 3, 3, 3, 3, 3]
# At the loop statement: as each iteration starts, then the loop's result.
# RUN: tritium run %s --kernel k --grid 2 --trace trace.py:53:acc --pid 1 --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 | FileCheck %s --check-prefix=CARRIED
# CARRIED: trace {{.*}}trace.py:53 program (1, 0, 0): acc = block argument (f32[8])
# CARRIED-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
# CARRIED-NEXT: trace {{.*}}trace.py:53 program (1, 0, 0): acc = block argument (f32[8])
# CARRIED-NEXT: [1, 1, 1, 1, 0, 0, 0, 0]
# CARRIED-NEXT: trace {{.*}}trace.py:53 program (1, 0, 0): acc = scf.for (f32[8])
# CARRIED-NEXT: [3, 3, 3, 3, 0, 0, 0, 0]
# A load keeps its masked-off lanes; a parameter is traced as the program starts.
# RUN: tritium run %s --kernel k --grid 2 --trace 51:x --pid 1 --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 | FileCheck %s --check-prefix=NAMEDLOAD
# NAMEDLOAD: trace {{.*}}trace.py:51 program (1, 0, 0): x = tile.load (f32[8])
# NAMEDLOAD-NEXT: [1, 1, 1, 1, --, --, --, --]
# RUN: tritium run %s --kernel k --grid 2 --trace 49:n --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 | FileCheck %s --check-prefix=PARAM
# PARAM: trace {{.*}}trace.py:49 program (0, 0, 0): n = block argument (i32)
# PARAM-NEXT: 12
# A name given no value at that line, or none at all: errors that say where to look.
# RUN: not tritium run %s --kernel k --grid 2 --trace 54:x --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=WRONGLINE
# WRONGLINE: tritium: error: --trace 54:x: 'x' is not given a value at line 54; it is at {{.*}}trace.py:51
# RUN: not tritium run %s --kernel k --grid 2 --trace 54:nope --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=NONAME
# NONAME: tritium: error: --trace 54:nope: kernel 'k' has no tensor variable 'nope' (its tensor variables: acc, n, offs, out_ptr, x, x_ptr)
# RUN: not tritium run %s --kernel k --grid 2 --trace 54:1x --arg x_ptr=ones:f32[12] \
# RUN:   --arg out_ptr=zeros:f32[12] --arg n=12 --constexpr BLOCK=8 2>&1 | FileCheck %s --check-prefix=BADNAME
# BADNAME: tritium: error: --trace 54:1x: expected [FILE:]LINE[:NAME] with a line number

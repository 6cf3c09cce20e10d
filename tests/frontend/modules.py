# A kernel importing @jit helpers and constexpr globals from another module:
# `tritium compile --module NAME=PATH` gives the compiler that module's
# source. Ops emitted from a helper carry the helper's file; errors in it
# point there (the helper's parameter, its body).

# RUN: tritium compile %S/../Inputs/frontend/modules/kernel.py -k scale_kernel -s "*fp32:16,*fp32:16" --module helpers=%S/../Inputs/frontend/modules/helpers.py --emit tile --locations | FileCheck %s
# CHECK: #[[XPOS:loc[0-9]+]] = loc("{{.*}}modules/helpers.py":9:11)
# CHECK: loc("x"(#[[XPOS]]))
# CHECK: tile.make_range {end = 64 : i32, start = 0 : i32}
# CHECK: call @scale(
# CHECK: func.func private @scale(
# CHECK: arith.constant 3.000000e+00
# CHECK: #loc{{[0-9]+}} = loc("{{.*}}modules/helpers.py":10:14)

# RUN: not tritium compile %S/../Inputs/frontend/modules/kernel.py -k broken_kernel -s "*fp32:16" --module helpers=%S/../Inputs/frontend/modules/helpers.py 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: modules/helpers.py:15:16: error: undefined name 'missing_name'

# RUN: not tritium compile %S/../Inputs/frontend/modules/kernel.py -k scale_kernel -s "*fp32:16,*fp32:16" --module helpers 2>&1 | FileCheck %s --check-prefix=BADARG
# BADARG: --module expects NAME=PATH, got 'helpers'

# RUN: not tritium compile %S/../Inputs/frontend/modules/kernel.py -k scale_kernel -s "*fp32:16,*fp32:16" --module helpers=%S/does-not-exist.py 2>&1 | FileCheck %s --check-prefix=NOFILE
# NOFILE: --module helpers: cannot open

# Every example kernel (as tests/frontend/examples.py specializes them)
# compiles for sm_80 and sm_90 and its PTX assembles with ptxas.
# REQUIRES: ptxas
# RUN: grep '^# RUN: tritium compile' %S/../frontend/examples.py | sed -e 's/^# RUN: tritium compile //' -e 's/ --emit.*//' -e 's|%%examples|%examples|' > %t.sigs
# RUN: while read -r line; do for cc in 80 90; do eval "tritium compile $line --target cuda:$cc --emit cubin -o %t.cubin" || exit 1; echo "ok $cc"; done; done < %t.sigs | FileCheck %s
# CHECK-COUNT-20: ok {{80|90}}

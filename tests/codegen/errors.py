# What the GPU code generator cannot lower yet is refused with the user's
# location, and bad targets are named.

# RUN: not tritium compile %S/../Inputs/codegen/unsupported.py --kernel sort_kernel --signature "*fp32:16,128" --target cuda:7 --emit ptx 2>&1 | FileCheck %s --check-prefix=CHECK-TARGET
# CHECK-TARGET: error: --target: expected cuda:80, cuda:90, hip:gfx90a, hip:gfx942 or hip:gfx950 (got 'cuda:7')

# RUN: not tritium compile %S/../Inputs/codegen/unsupported.py --kernel sort_kernel --signature "*fp32:16,128" --emit ptx 2>&1 | FileCheck %s --check-prefix=CHECK-NOTARGET
# CHECK-NOTARGET: error: --emit ptx needs --target cuda:80 or cuda:90

# No input crashes the frontend: every truncation of a real kernel file either
# compiles or fails with a located error (exit status 1), never a crash.
# RUN: bash %s.sh %examples/matmul.py %t.py
# CHECK is in the script: it exits non-zero on any status other than 0 or 1.
# CHECK: never matched; the RUN line's exit status is the test

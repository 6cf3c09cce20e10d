#!/usr/bin/env bash
# Truncates $1 at many byte offsets into $2 and compiles each prefix.
set -u
src=$1; tmp=$2
size=$(wc -c < "$src")
sig="*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,128,128,32,8,leaky_relu"
for ((n = 0; n <= size; n += 23)); do
  head -c "$n" "$src" > "$tmp"
  tritium compile "$tmp" --kernel matmul_kernel --signature "$sig" > /dev/null 2>&1
  rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "crash (status $rc) on the first $n bytes of $src"
    exit 1
  fi
done
echo "ok"

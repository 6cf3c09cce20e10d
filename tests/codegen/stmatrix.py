# A tensor-core accumulator of 16-bit elements converted for a coalesced
# store goes to shared memory with stmatrix on sm_90 (four 8x8 matrices per
# instruction, straight from the fragment layout), one 16-byte row address
# per lane; read back 16 bytes per thread. sm_80 has no stmatrix.
# RUN: tritium compile %s --kernel mm --signature "*fp16:16,*fp16:16,*fp16:16,64,64,32" --target cuda:90 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=SM90
# SM90-LABEL: .entry mm(
# SM90: wgmma.mma_async
# SM90: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
# SM90-NOT: st.shared.b16
# SM90: ld.shared.v4.b32
# SM90: st.global.v4.b32
# RUN: tritium compile %s --kernel mm --signature "*fp16:16,*fp16:16,*fp16:16,64,64,32" --target cuda:80 --num-warps 4 --emit ptx | FileCheck %s --check-prefix=SM80
# SM80-LABEL: .entry mm(
# SM80-NOT: stmatrix
# SM80: st.global.v4.b32
import triton
import triton.language as tl


@triton.jit
def mm(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    k = tl.arange(0, BK)
    a = tl.load(A + m[:, None] * BK + k[None, :])
    b = tl.load(B + k[:, None] * BN + n[None, :])
    c = tl.dot(a, b).to(tl.float16)
    tl.store(C + m[:, None] * BN + n[None, :], c)

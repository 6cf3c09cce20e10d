"""``triton._C.libtriton``: ``nvidia.cublas.CublasLt`` and
``amd.hipblas.HipblasLt``, the vendor matrix products Triton's tutorials time
their kernels against (09-persistent-matmul: ``CublasLt(workspace)``, then
``matmul(A, B, C)`` for C = A @ B^T and ``gemm(A, B, C, D, alpha, beta)`` for
D = alpha A @ B^T + beta C). Here torch computes them (it calls cuBLAS and
hipBLASLt itself), with the same checks on the arguments: 2-D tensors of one
dtype among float8_e4m3fn, float16, bfloat16 and float32, B given as
[N, K]."""

import types

_DTYPES = ("torch.float8_e4m3fn", "torch.float16", "torch.float32", "torch.bfloat16")


def _check(a, b, c, names=("A", "B", "C")):
    na, nb, nc = names
    dts = [str(x.dtype) for x in (a, b, c)]
    if dts[0] != dts[1] or dts[0] != dts[2]:
        raise RuntimeError("Data types do not match: %s is %s, %s is %s, %s is %s."
                           % (na, dts[0], nb, dts[1], nc, dts[2]))
    if dts[0] not in _DTYPES:
        raise RuntimeError("Unsupported data type %s (%s)." % (dts[0], ", ".join(_DTYPES)))
    for n, x in zip(names, (a, b, c)):
        if len(x.shape) != 2:
            raise RuntimeError("Only 2D matrices are supported: %s has shape %s."
                               % (n, list(x.shape)))
    (m, k), (n, kb), (mc, ncols) = a.shape, b.shape, c.shape
    if k != kb:
        raise RuntimeError("Matrix dimensions do not match. %s is [%d, %d], %s is [%d, %d]. "
                           "Expected %s.shape[1] == %s.shape[1]. Note that %s needs to be "
                           "transposed." % (na, m, k, nb, n, kb, na, nb, nb))
    if (mc, ncols) != (m, n):
        raise RuntimeError("Matrix dimensions do not match: %s is [%d, %d], expected [%d, %d] "
                           "(%s.shape[0], %s.shape[0])." % (nc, mc, ncols, m, n, na, nb))


def _product(a, b):
    """A @ B^T, in A's dtype (fp32 accumulation)."""
    import torch
    if a.dtype == torch.float8_e4m3fn:
        one = torch.ones((), device=a.device, dtype=torch.float32)
        return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.float16)
    return a @ b.t()


class _BlasLt:
    """Products through the vendor BLAS (torch's); `workspace` is the device
    tensor Triton's binding hands the library as scratch."""

    def __init__(self, workspace):
        if not (hasattr(workspace, "data_ptr") and hasattr(workspace, "numel")):
            raise TypeError("workspace: expected a device tensor, got %s"
                            % type(workspace).__name__)
        self.workspace = workspace

    def matmul(self, A, B, C):
        """C = A @ B^T."""
        _check(A, B, C)
        import torch
        if A.dtype == torch.float8_e4m3fn:
            C.copy_(_product(A, B))
        else:
            torch.matmul(A, B.t(), out=C)

    def gemm(self, A, B, C, D, alpha, beta):
        """D = alpha * A @ B^T + beta * C (C float16, shaped like D)."""
        _check(A, B, D, ("A", "B", "D"))
        if str(C.dtype) != "torch.float16":
            raise RuntimeError("C dtype must be float16, got %s" % C.dtype)
        if tuple(C.shape) != tuple(D.shape):
            raise RuntimeError("C and D shapes must match: C is %s, D is %s"
                               % (list(C.shape), list(D.shape)))
        D.copy_(alpha * _product(A, B).float() + beta * C.float())


class CublasLt(_BlasLt):
    pass


class HipblasLt(_BlasLt):
    pass


nvidia = types.SimpleNamespace(cublas=types.SimpleNamespace(CublasLt=CublasLt))
amd = types.SimpleNamespace(hipblas=types.SimpleNamespace(HipblasLt=HipblasLt))

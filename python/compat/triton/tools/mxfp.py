"""``triton.tools.mxfp``: host-side OCP microscaling helpers (torch).

``MXFP4Tensor`` holds e2m1 codes (one per uint8, 0..15: sign bit 3, then
2 exponent bits and 1 mantissa bit) and converts them to and from floats
(round to nearest, ties to even; out-of-range values saturate to +-6) and
to the packed form kernels read (two codes per byte along a dimension, the
lower index in the low nibble). ``MXScaleTensor`` holds e8m0 scales (uint8
exponents with bias 127; 255 is NaN)."""

import torch

_E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


class _Codes:
    """uint8 codes in ``data``: encoded from float ``data``, or zeros of
    ``size``."""

    def __init__(self, data=None, size=None, device=None):
        if data is not None:
            self.device = data.device
            self.data = self._encode(data.to(torch.float32))
        else:
            if size is None:
                raise ValueError("%s needs data or a size" % type(self).__name__)
            self.device = device
            self.data = torch.zeros(size, dtype=torch.uint8, device=device)


class MXFP4Tensor(_Codes):

    def random(self):
        self.data = torch.randint(0, 16, self.data.shape, dtype=torch.uint8, device=self.device)
        return self

    @staticmethod
    def _encode(x):
        mags = torch.tensor(_E2M1_VALUES, device=x.device)
        a = x.abs().clamp(max=6.0)
        # Nearest magnitude; ties go to the code with an even mantissa bit.
        dist = (a.unsqueeze(-1) - mags).abs()
        best = dist.min(dim=-1, keepdim=True).values
        tied = dist == best
        codes = torch.arange(8, device=x.device)
        even = tied & (codes % 2 == 0)
        pick = torch.where(even.any(dim=-1, keepdim=True), even, tied)
        code = pick.to(torch.uint8).argmax(dim=-1)
        sign = (torch.signbit(x) & (code != 0)).to(torch.uint8) << 3
        out = code.to(torch.uint8) | sign
        return torch.where(torch.isnan(x), torch.zeros_like(out), out)

    def to(self, dtype):
        mags = torch.tensor(_E2M1_VALUES, device=self.data.device)
        v = mags[(self.data & 7).long()]
        v = torch.where((self.data & 8) != 0, -v, v)
        return v.to(dtype)

    def to_packed_tensor(self, dim):
        x = self.data
        dim = dim % x.dim()
        if x.shape[dim] % 2:
            pad = list(x.shape)
            pad[dim] = 1
            x = torch.cat([x, torch.zeros(pad, dtype=x.dtype, device=x.device)], dim=dim)
        pairs = x.unflatten(dim, (-1, 2))
        lo, hi = pairs.select(dim + 1, 0), pairs.select(dim + 1, 1)
        return (lo | (hi << 4)).contiguous()

    def unpack_packed_tensor(self, packed, dim, original_shape):
        dim = dim % packed.dim()
        lo, hi = packed & 15, packed >> 4
        both = torch.stack([lo, hi], dim=dim + 1).flatten(dim, dim + 1)
        return both.narrow(dim, 0, original_shape[dim]).contiguous()


class MXScaleTensor(_Codes):

    def random(self, low=None, high=None):
        lo = -127 if low is None else int(torch.floor(torch.log2(torch.tensor(float(low)))))
        hi = 127 if high is None else int(torch.floor(torch.log2(torch.tensor(float(high)))))
        lo, hi = max(lo, -127), min(hi, 127)
        exps = torch.randint(lo, hi + 1, self.data.shape, device=self.device)
        self.data = (exps + 127).to(torch.uint8)
        return self

    @staticmethod
    def _encode(x):
        e = torch.round(torch.log2(x.abs())).clamp(-127, 127) + 127
        e = torch.where(torch.isfinite(e), e, torch.full_like(e, 255))
        return e.to(torch.uint8)

    def to(self, dtype):
        e = self.data.to(torch.float32)
        v = torch.exp2(e - 127)
        return torch.where(self.data == 255, torch.full_like(v, float("nan")), v).to(dtype)

"""Seeded dropout.

The keep/drop mask is generated on the fly from (seed, element offset) with
Triton's Philox-based tl.rand, so no mask tensor has to be stored: the same
seed always reproduces the same mask.
"""

import torch

import triton
import triton.language as tl


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # Uniform random numbers in [0, 1), one per element.
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def seeded_dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    output = torch.empty_like(x)
    assert x.is_contiguous()
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']),)
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    torch.manual_seed(0)
    p = 0.5
    x = torch.randn(65537, device="cuda")
    out = seeded_dropout(x, p=p, seed=123)
    # Reference: every element is either dropped or scaled by 1 / (1 - p).
    kept = out != 0
    ref = torch.where(kept, x / (1 - p), torch.zeros_like(x))
    torch.testing.assert_close(out, ref)
    # Same seed must give the same mask; a different seed a different one.
    assert torch.equal(out, seeded_dropout(x, p=p, seed=123))
    assert not torch.equal(out, seeded_dropout(x, p=p, seed=512))
    keep_frac = kept.float().mean().item()
    assert abs(keep_frac - (1 - p)) < 0.02, keep_frac
    print(f"dropout: max abs error {(out - ref).abs().max().item()} (kept {keep_frac:.3f})")

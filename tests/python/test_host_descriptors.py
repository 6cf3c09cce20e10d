"""Host tensor descriptors (``triton.tools.tensor_descriptor``) as kernel
arguments: loads and stores through them (boundary padding included), their
shape, strides and block shape inside the kernel, the block shape in the
specialization, descriptors inside tuples, and the errors for bad ones."""

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def scale_kernel(in_desc, out_desc, info, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = in_desc.load([pid_m * BM, pid_n * BN])
    out_desc.store([pid_m * BM, pid_n * BN], x * 2 + 1)
    if pid_m == 0 and pid_n == 0:
        tl.store(info + 0, in_desc.shape[0])
        tl.store(info + 1, in_desc.shape[1])
        tl.store(info + 2, in_desc.strides[0])
        tl.store(info + 3, in_desc.block_shape[1])


def test_load_and_store_through_host_descriptors():
    x = np.arange(40 * 24, dtype=np.float32).reshape(40, 24)
    out = np.zeros((40, 24), np.float32)
    info = np.zeros(4, np.int64)
    a = TensorDescriptor.from_tensor(x, [16, 8])
    b = TensorDescriptor(out, out.shape, [24, 1], [16, 8])
    scale_kernel[(3, 3)](a, b, info, 16, 8)
    np.testing.assert_array_equal(out, x * 2 + 1)
    assert info.tolist() == [40, 24, 24, 8]


@triton.jit
def copy_block(in_desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    x = in_desc.load([0, 0])
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offs, x)


def test_out_of_bounds_lanes_read_the_padding():
    x = np.ones((3, 5), np.float32)
    # Rows padded to 8 elements (32 bytes) to keep strides 16-byte aligned.
    base = np.zeros((3, 8), np.float32)
    base[:, :5] = x
    out = np.zeros((4, 8), np.float32)
    copy_block[(1,)](TensorDescriptor(base, [3, 5], [8, 1], [4, 8]), out, 4, 8)
    expect = np.zeros((4, 8), np.float32)
    expect[:3, :5] = 1
    np.testing.assert_array_equal(out, expect)
    copy_block[(1,)](TensorDescriptor(base, [3, 5], [8, 1], [4, 8], padding="nan"),
                     out, 4, 8)
    assert np.isnan(out[3]).all() and np.isnan(out[:3, 5:]).all()
    np.testing.assert_array_equal(out[:3, :5], 1)


def test_the_block_shape_is_part_of_the_specialization():
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    out = np.zeros((8, 8), np.float32)
    k = copy_block.warmup(TensorDescriptor.from_tensor(x, [4, 8]), out, 4, 8,
                          grid=(1,))
    assert "tensordesc<fp32[4,8]>" in k.metadata.signature
    k = copy_block.warmup(TensorDescriptor.from_tensor(x, [8, 8], "nan"), out, 8,
                          8, grid=(1,))
    assert "tensordesc<fp32[8,8],nan>" in k.metadata.signature


@triton.jit
def _load_scaled(desc, off, scale: tl.constexpr):
    # A helper given a descriptor sees its shape too.
    return desc.load([off]) * scale + desc.shape[0]


@triton.jit
def helper_kernel(X, out, n, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, [n], [1], [BLOCK])
    for i in range(0, 2):
        tl.store(out + i * BLOCK + tl.arange(0, BLOCK), _load_scaled(desc, i * BLOCK, 2))


def test_descriptors_passed_to_helpers_inside_loops():
    x = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    helper_kernel[(1,)](x, out, 32, 16)
    np.testing.assert_array_equal(out, x * 2 + 32)


@triton.jit
def pair_kernel(descs, BM: tl.constexpr):
    x = descs[0].load([0])
    descs[1].store([0], x + 1)


def test_descriptors_inside_tuples():
    x = np.arange(16, dtype=np.int32)
    out = np.zeros(16, np.int32)
    pair_kernel[(1,)]((TensorDescriptor.from_tensor(x, [16]),
                       TensorDescriptor.from_tensor(out, [16])), 16)
    np.testing.assert_array_equal(out, x + 1)


@pytest.mark.parametrize("make,words", [
    (lambda x: TensorDescriptor(x, [8, 8], [8, 2], [4, 4]),
     "the last dimension must be contiguous"),
    (lambda x: TensorDescriptor(x, [8, 8], [8, 1], [4, 3]),
     "block_shape entries must be powers of two"),
    (lambda x: TensorDescriptor(x, [8, 8], [3, 1], [4, 4]),
     "strides but the last must be multiples of 16 bytes"),
    (lambda x: TensorDescriptor(x, [8], [8, 1], [4, 4]),
     "one entry per dimension"),
    (lambda x: TensorDescriptor(x[:, 1:], [8, 7], [8, 1], [4, 4]),
     "base must be 16-byte aligned"),
    (lambda x: TensorDescriptor(x.astype(np.int32), [8, 8], [8, 1], [4, 4],
                                padding="nan"),
     "padding 'nan' needs a floating-point base"),
])
def test_bad_descriptors_are_named_errors(make, words):
    x = np.zeros((8, 8), np.float32)
    with pytest.raises(ValueError, match=words):
        make(x)

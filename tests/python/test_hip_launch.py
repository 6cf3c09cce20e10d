"""Launches of a ROCm build of torch's tensors (device type "cuda",
``torch.version.hip`` set) go to the HIP device, with no AMD GPU needed: the
HIP runtime is the build's mock libamdhip64 (TRITIUM_HIP_LIBRARY), which
simulates gfx942 GPUs in host memory and records each launch, and torch is a
small stand-in module of the same shape. Each case runs in a process of its
own (the HIP runtime is chosen once per process): the launch reaches HIP
with the tensors' pointers, the kernel's geometry and torch's current
stream, repeated launches too (the C launcher leaves ROCm tensors to Python);
without a HIP runtime the kernel runs on the interpreter on host copies and
says so once; a CUDA build of torch is left as it was."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from tritium import _capi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _mock_library():
    """The mock libamdhip64 of the build that made libtritium.so."""
    path = os.environ.get("TRITIUM_MOCK_HIP")
    if not path:
        _capi.lib()
        path = os.path.join(os.path.dirname(os.path.dirname(_capi._lib_path)),
                            "tests", "libtritium-mock-hip.so")
    if not os.path.isfile(path):
        pytest.skip("no mock HIP runtime at %s (built with the tests)" % path)
    # The child runs elsewhere, and the runtime must dlopen the same file.
    return os.path.abspath(path)


needs_lld = pytest.mark.skipif(
    not (shutil.which("ld.lld") or os.path.exists("/usr/lib/llvm-22/bin/ld.lld")),
    reason="ld.lld (lld-22) is not installed: no AMD code objects")

# A stand-in for torch: `hip` is torch.version.hip; "cuda" tensors live in
# the mock's device memory (host memory) when `mock` is its path, else in
# numpy arrays.
FAKE_TORCH = textwrap.dedent('''
    import ctypes
    import sys
    import types

    import numpy as np


    class MockLaunch(ctypes.Structure):  # MockHip.h's MockHipLaunch
        _fields_ = [("kernel", ctypes.c_char * 64), ("device", ctypes.c_int),
                    ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                    ("sharedBytes", ctypes.c_uint), ("stream", ctypes.c_void_p),
                    ("numParams", ctypes.c_int),
                    ("paramSizes", ctypes.c_uint * 16),
                    ("params", (ctypes.c_ubyte * 16) * 16)]


    def make_torch(hip, mock):
        torch = types.ModuleType("torch")
        torch.version = types.SimpleNamespace(hip=hip, cuda=None if hip else "12.4")
        lib = ctypes.CDLL(mock) if mock else None

        class dtype:
            def __init__(self, name):
                self.name = name

            def __str__(self):
                return "torch." + self.name

        torch.dtype = dtype
        torch.float32 = dtype("float32")

        class Device:
            def __init__(self, type_):
                self.type = type_
                self.index = 0 if type_ == "cuda" else None

        class Tensor:
            def __init__(self, array, device="cpu", keep=None):
                self.array, self.keep = array, keep
                self.device = Device(device)
                self.dtype = torch.float32
                self.shape = array.shape

            @property
            def is_cuda(self):
                return self.device.type == "cuda"

            def data_ptr(self):
                return self.array.ctypes.data

            def get_device(self):
                return 0 if self.is_cuda else -1

            def element_size(self):
                return self.array.itemsize

            def numel(self):
                return self.array.size

            def stride(self):
                return tuple(s // self.array.itemsize for s in self.array.strides)

            def is_contiguous(self):
                return True

            def detach(self):
                return self

            def cpu(self):
                return Tensor(self.array.copy())

            def copy_(self, other):
                self.array[...] = other.array
                return self

        def tensor(values, device="cpu"):
            values = np.asarray(values, dtype=np.float32)
            if device != "cuda" or lib is None:
                return Tensor(values.copy(), device)
            ptr = ctypes.c_void_p()
            assert lib.hipMalloc(ctypes.byref(ptr), ctypes.c_size_t(values.nbytes)) == 0
            array = np.ctypeslib.as_array(
                (ctypes.c_float * values.size).from_address(ptr.value))
            array[...] = values
            return Tensor(array, "cuda", keep=ptr)

        torch.Tensor = Tensor
        torch.tensor = tensor
        stream = ctypes.c_void_p()
        if lib is not None:
            assert lib.hipStreamCreateWithFlags(ctypes.byref(stream), 1) == 0
        torch.stream = stream.value or 0
        torch._C = types.SimpleNamespace(
            _cuda_getCurrentRawStream=lambda index: torch.stream,
            _cuda_getDevice=lambda: 0)
        sys.modules["torch"] = torch
        return torch, lib
''')

KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)
''')


def _run(tmp_path, body, hip_library, hip="6.2.41133"):
    """Runs `body` after the stand-in torch and the kernel are set up, in a
    process whose HIP runtime is `hip_library`; its stdout and stderr."""
    (tmp_path / "fake_torch.py").write_text(FAKE_TORCH)
    (tmp_path / "kernels.py").write_text(KERNEL)
    mock = hip_library if hip_library.endswith("mock-hip.so") else None
    script = tmp_path / "case.py"
    script.write_text(
        "import sys\nsys.path.insert(0, %r)\n" % str(tmp_path)
        + "from fake_torch import make_torch, MockLaunch\n"
        + "torch, lib = make_torch(%r, %r)\n" % (hip, mock)
        + "import ctypes\nimport numpy as np\nfrom kernels import add_kernel\n"
        + textwrap.dedent(body))
    env = dict(os.environ)
    env["TRITIUM_HIP_LIBRARY"] = hip_library
    env["TRITIUM_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "compat"),
         env.get("PYTHONPATH", "")])
    for forced in ("TRITIUM_INTERPRET", "TRITON_INTERPRET"):
        env.pop(forced, None)
    p = subprocess.run([sys.executable, str(script)], env=env, cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout, p.stderr


@needs_lld
def test_rocm_tensors_launch_on_the_hip_device(tmp_path):
    _run(tmp_path, '''
        from tritium import _capi
        assert _capi.hip_available() == (True, ""), _capi.hip_available()
        # As on a machine with a CUDA GPU too: the C launcher, which sends
        # the tensors it packs to CUDA, must still leave ROCm ones alone.
        _capi.cuda_available = lambda: (True, "")
        n = 3000
        x = torch.tensor(np.arange(n), device="cuda")
        y = torch.tensor(np.ones(n), device="cuda")
        out = torch.tensor(np.zeros(n), device="cuda")
        last = MockLaunch()
        for launch in range(3):  # the first, then the cached paths
            add_kernel[(3,)](x, y, out, n, BLOCK=1024)
            assert lib.mockHipLastLaunch(ctypes.byref(last)) == 1
            assert last.kernel == b"add_kernel"
            assert list(last.grid) == [3, 1, 1]
            assert list(last.block) == [256, 1, 1]  # 4 warps of 64 lanes
            assert last.stream == torch.stream
            assert last.numParams == 4
            pointers = [ctypes.c_void_p.from_buffer_copy(bytes(last.params[i][:8])).value
                        for i in range(3)]
            assert pointers == [t.data_ptr() for t in (x, y, out)]
            assert ctypes.c_int32.from_buffer_copy(bytes(last.params[3][:4])).value == n
        # num_warps and the grid come through; the C launcher never took a
        # ROCm tensor (it would have sent it to CUDA, which is not there).
        add_kernel[(2,)](x, y, out, 2000, BLOCK=1024, num_warps=8)
        lib.mockHipLastLaunch(ctypes.byref(last))
        assert list(last.block) == [512, 1, 1] and last.grid[0] == 2
        assert add_kernel.warmup(x, y, out, n, BLOCK=1024, grid=(1,)) \\
            .metadata.signature.startswith("*fp32:16")
        # A ROCm tensor beside a CPU one is named with torch's device names.
        try:
            add_kernel[(3,)](x, torch.tensor(np.ones(n)), out, n, BLOCK=1024)
        except ValueError as e:
            assert "is on cpu but argument 'x_ptr' is on cuda:0" in str(e), e
        else:
            raise AssertionError("mixed devices were not named")
    ''', _mock_library())


def test_without_hip_rocm_tensors_run_on_the_interpreter_said_once(tmp_path):
    out, err = _run(tmp_path, '''
        from tritium import _capi
        ok, why = _capi.hip_available()
        assert not ok and why.startswith("no HIP runtime: "), why
        n = 100
        x = torch.tensor(np.arange(n), device="cuda")
        y = torch.tensor(np.ones(n), device="cuda")
        out = torch.tensor(np.zeros(n), device="cuda")
        for _ in range(2):
            add_kernel[(1,)](x, y, out, n, BLOCK=128)
        np.testing.assert_array_equal(out.array, np.arange(n) + 1.0)
    ''', "/nonexistent/libamdhip64.so")
    assert err.count("tritium: note: no AMD GPU is usable through HIP "
                     "(no HIP runtime: ") == 1, err
    assert "kernels on ROCm tensors run on the interpreter" in err


def test_a_cuda_build_of_torch_is_not_sent_to_hip(tmp_path):
    if _capi.cuda_available()[0]:
        pytest.skip("a CUDA GPU is usable: the stand-in's host memory would go to it")
    out, err = _run(tmp_path, '''
        from tritium import _capi
        n = 100
        x = torch.tensor(np.arange(n), device="cuda")
        out = torch.tensor(np.zeros(n), device="cuda")
        add_kernel[(1,)](x, x, out, n, BLOCK=128)
        np.testing.assert_array_equal(out.array, 2.0 * np.arange(n))
        assert _capi._hip is None  # never asked
    ''', "/nonexistent/libamdhip64.so", hip=None)
    assert "HIP" not in err, err

"""``triton.profiler`` (proton's API): sessions, scopes, launch metadata,
the .hatchet file finalize writes, and the viewer's derived metrics. On
the interpreter kernels are timed by wall time; the CUDA tests (events on
torch's stream) skip without a GPU."""

import importlib
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import triton
import triton.language as tl
import triton.profiler as proton
import triton.profiler.viewer as proton_viewer

_jit = importlib.import_module("tritium.jit")
_profiler = importlib.import_module("tritium.profiler")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

CALLS = []


def scale_metadata(grid, kernel, args):
    CALLS.append((grid, kernel.name, dict(args)))
    n = args["n"]
    return {"name": "%s [n=%d]" % (kernel.name, n), "flops32": 2.0 * n,
            "bytes": 8 * n, "ignored": 123}


@triton.jit(launch_metadata=scale_metadata)
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)


@triton.jit
def plain_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


@pytest.fixture(autouse=True)
def _no_session_left():
    CALLS.clear()
    yield
    proton.finalize()  # closes whatever a failed test left open
    assert _jit._PROFILER is None


def _launch(n, x=None):
    x = np.arange(n, dtype=np.float32) if x is None else x
    y = np.empty_like(x)
    scale_kernel[(triton.cdiv(n, 64),)](x, y, n, BLOCK=64)
    np.testing.assert_array_equal(y, 2 * x)


def _load(path):
    with open(path) as f:
        return json.load(f)


def _child(node, name):
    names = [c["frame"]["name"] for c in node["children"]]
    assert name in names, names
    return node["children"][names.index(name)]


def _profile(tmp_path, reps=4):
    """A session: `reps` launches at the top level, a scope with 3
    launches of another size and a nested scope; launches outside the
    active session in between."""
    _launch(256)  # compiled before the session; not recorded
    name = str(tmp_path / "prof")
    sid = proton.start(name, hook="triton")
    proton.deactivate()
    _launch(256)  # inactive: not recorded
    proton.activate(sid)
    for _ in range(reps):
        _launch(256)
    with proton.scope("outer", {"bytes": 100, "flops16": 1e6}):
        for _ in range(3):
            _launch(128)
        with proton.scope("inner"):
            sum(range(1000))
    proton.deactivate(sid)
    _launch(256)  # inactive again
    proton.finalize()
    return name + ".hatchet"


def test_launch_metadata_is_kept_on_the_kernel():
    assert scale_kernel.launch_metadata is scale_metadata
    assert plain_kernel.launch_metadata is None


def test_finalize_writes_the_hatchet_tree(tmp_path):
    path = _profile(tmp_path, reps=4)
    data = _load(path)
    assert isinstance(data, list) and len(data) == 2
    root, devices = data
    assert root["frame"] == {"name": "ROOT", "type": "function"}
    # The root lists the inclusive metrics (as zeros), as proton does.
    assert root["metrics"] == {"bytes": 0, "count": 0, "flops16": 0,
                               "flops32": 0, "time (ns)": 0}
    if not _gpu_present():
        assert devices == {}  # no GPU to describe
    assert [c["frame"]["name"] for c in root["children"]] == [
        "scale_kernel [n=256]", "outer"]

    top = _child(root, "scale_kernel [n=256]")["metrics"]
    assert top["count"] == 4
    assert top["flops32"] == 4 * 2.0 * 256
    assert top["bytes"] == 4 * 8 * 256
    assert "ignored" not in top
    assert top["time (ns)"] > 0
    # numpy arrays run on the interpreter, or on the GPU when there is one.
    assert top["device_type"] == "CPU" or (_gpu_present() and top["device_type"] == "CUDA")

    outer = _child(root, "outer")
    assert outer["metrics"]["bytes"] == 100
    assert outer["metrics"]["flops16"] == 1e6
    assert "count" not in outer["metrics"]  # kernels ran inside it
    assert [c["frame"]["name"] for c in outer["children"]] == [
        "scale_kernel [n=128]", "inner"]
    inner_k = _child(outer, "scale_kernel [n=128]")["metrics"]
    assert inner_k["count"] == 3 and inner_k["flops32"] == 3 * 256.0
    inner = _child(outer, "inner")
    assert inner["metrics"]["count"] == 1 and inner["children"] == []
    assert inner["metrics"]["time (ns)"] > 0

    # launch_metadata got the grid, the kernel and every bound argument;
    # only launches inside the active session called it.
    assert len(CALLS) == 4 + 3
    grid, kname, args = CALLS[0]
    assert grid == (4,) and kname == "scale_kernel"
    assert set(args) == {"x_ptr", "y_ptr", "n", "BLOCK"}
    assert args["n"] == 256 and args["BLOCK"] == 64


def test_viewer_parses_and_derives(tmp_path, capsys):
    path = _profile(tmp_path, reps=5)
    tree, metrics = proton_viewer.parse(
        ["tflop32/s", "time/ms", "count", "gbyte/s", "avg_time/us", "time/%"],
        path)
    assert metrics == ["tflop32/s (inc)", "time/ms (inc)", "count (inc)",
                       "gbyte/s (inc)", "avg_time/us (inc)", "time/% (inc)"]
    root = tree.roots[0]
    assert root.name == "ROOT"
    assert root.values["count (inc)"] == 5 + 3 + 1
    top = tree.find("scale_kernel [n=256]")
    assert top.values["count (inc)"] == 5
    seconds = top.metrics["time (ns)"] * 1e-9
    assert top.values["tflop32/s (inc)"] > 0
    assert math.isclose(top.values["tflop32/s (inc)"],
                        5 * 512.0 / seconds / 1e12)
    assert math.isclose(top.values["time/ms (inc)"], seconds * 1e3)
    assert math.isclose(top.values["avg_time/us (inc)"], seconds * 1e6 / 5)
    outer = tree.find("outer")
    inc_bytes = 100 + 3 * 8 * 128
    assert outer.values["count (inc)"] == 4
    outer_ns = sum(n.metrics["time (ns)"] for n in tree.nodes()
                   if n is outer or n.parent is outer)
    assert math.isclose(outer.values["gbyte/s (inc)"],
                        inc_bytes / (outer_ns * 1e-9) / 1e9)
    assert math.isclose(root.values["time/% (inc)"], 100.0)
    # A frame whose subtree has no flops32 has none derived from it.
    assert math.isnan(tree.find("inner").values["tflop32/s (inc)"])

    proton_viewer.print_tree(tree, metrics)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["tflop32/s", "(inc)"]
    assert lines[1].endswith("ROOT")
    assert any(line.endswith("├─ scale_kernel [n=256]") for line in lines)
    assert any(line.endswith("└─ outer") for line in lines)
    assert any(line.endswith("   └─ inner") for line in lines)


def test_viewer_unknown_metric_is_a_value_error(tmp_path):
    path = _profile(tmp_path, reps=1)
    with pytest.raises(ValueError) as e:
        proton_viewer.parse(["tflop/ss"], path)
    message = str(e.value)
    assert "'tflop/ss'" in message and "time/ms" in message \
        and "tflop32/s" in message
    # A derived metric whose input is not in the file names the input.
    with pytest.raises(ValueError, match="tflop8/s.*flops8"):
        proton_viewer.parse(["tflop8/s"], path)
    with pytest.raises(ValueError, match="'nothing'"):
        proton_viewer.parse(["time/ms", "nothing"], path)
    if not _gpu_present():
        with pytest.raises(ValueError, match="util"):
            proton_viewer.parse(["util"], path)  # no GPU information


def test_viewer_filters(tmp_path):
    path = _profile(tmp_path, reps=2)
    tree, _ = proton_viewer.parse(["time/ns", "count"], path,
                                  include="inner")
    assert [n.name for n in tree.nodes()] == ["ROOT", "outer", "inner"]
    assert tree.roots[0].values["count (inc)"] == 1
    tree, _ = proton_viewer.parse(["time/ns"], path, exclude="out.*")
    assert [n.name for n in tree.nodes()] == ["ROOT", "scale_kernel [n=256]"]
    tree, cols = proton_viewer.parse(["count"], path, threshold=2.5)
    assert [n.name for n in tree.nodes()] == ["ROOT", "outer",
                                              "scale_kernel [n=128]"]


def test_viewer_command_line(tmp_path):
    path = _profile(tmp_path, reps=2)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "compat")]))
    run = subprocess.run(
        [sys.executable, "-m", "triton.profiler.viewer", "-m",
         "time/ms,tflop32/s", path], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "time/ms (inc)" in run.stdout and "scale_kernel [n=256]" in \
        run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "triton.profiler.viewer", "-l", path],
        capture_output=True, text=True, env=env)
    assert run.returncode == 0 and "tflop32/s" in run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "triton.profiler.viewer", "-m", "bogus", path],
        capture_output=True, text=True, env=env)
    assert run.returncode == 1 and "'bogus'" in run.stderr


def test_nothing_is_recorded_without_an_active_session(tmp_path):
    assert _jit._PROFILER is None
    # Before start: scopes are no-ops, activate()/deactivate() of all
    # sessions too, and finalize writes nothing.
    with proton.scope("s"):
        _launch(64)
    assert proton.enter_scope("e") is None and proton.exit_scope() is None
    proton.activate()
    proton.deactivate()
    assert _jit._PROFILER is None
    proton.finalize()
    # As in Triton, a session id that was never started is an error.
    with pytest.raises(RuntimeError, match="no such profiling session"):
        proton.activate(0)
    with pytest.raises(RuntimeError, match="no such profiling session"):
        proton.deactivate(12345)
    assert CALLS == []

    name = str(tmp_path / "idle")
    sid = proton.start(name, hook="triton")
    assert _jit._PROFILER is not None
    proton.deactivate(sid)
    assert _jit._PROFILER is None  # the launch path is back to one test
    _launch(64)
    with proton.scope("paused"):
        _launch(64)
    assert CALLS == []
    proton.finalize()
    data = _load(name + ".hatchet")
    assert data[0]["children"] == [] and data[0]["metrics"] == {}
    with pytest.raises(ValueError, match="empty"):
        proton_viewer.parse(["time/ms"], name + ".hatchet")
    # After finalize the session is gone.
    with pytest.raises(RuntimeError):
        proton.activate(sid)
    _launch(64)
    assert CALLS == []


def test_without_the_hook_kernels_keep_their_names(tmp_path):
    name = str(tmp_path / "plain")
    proton.start(name)
    _launch(64)
    x = np.zeros(64, dtype=np.float32)
    plain_kernel[(1,)](x, 64, BLOCK=64)
    proton.finalize()
    assert CALLS == []  # launch_metadata is only called with hook="triton"
    root = _load(name + ".hatchet")[0]
    assert [c["frame"]["name"] for c in root["children"]] == [
        "scale_kernel", "plain_kernel"]
    metrics = root["children"][0]["metrics"]
    assert metrics["count"] == 1 and "flops32" not in metrics


def test_general_launch_path_is_recorded(tmp_path):
    # A None argument is compiled in as a constant: the general path.
    @triton.jit
    def maybe_add(x_ptr, other, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        mask = offs < n
        v = tl.load(x_ptr + offs, mask=mask)
        if other is not None:
            v += tl.load(other + offs, mask=mask)
        tl.store(x_ptr + offs, v + 1, mask=mask)

    name = str(tmp_path / "general")
    proton.start(name)
    x = np.zeros(16, dtype=np.float32)
    maybe_add[(1,)](x, None, 16, BLOCK=16)
    maybe_add[(1,)](x, x, 16, BLOCK=16)
    proton.finalize()
    root = _load(name + ".hatchet")[0]
    assert [c["frame"]["name"] for c in root["children"]] == ["maybe_add"]
    assert root["children"][0]["metrics"]["count"] == 2
    np.testing.assert_array_equal(x, np.full(16, 3, dtype=np.float32))


def test_scope_decorator_enter_exit_and_sessions(tmp_path):
    @proton.scope("decorated", {"flops": 10})
    def work():
        _launch(64)
        return 7

    name = str(tmp_path / "scopes")
    sid = proton.start(name, hook="triton")
    assert proton.start(name) == sid  # the same name: the same session
    assert work() == 7 and work() == 7
    assert isinstance(proton.enter_scope("manual", metrics={"bytes": 5}),
                      int)
    _launch(64)
    with pytest.raises(ValueError, match="mismatch"):
        proton.exit_scope("other")
    proton.exit_scope("manual", metrics={"bytes": 6})
    with proton.cpu_timed_scope("timed"):
        pass
    data = proton.get_data(sid)
    proton.finalize()
    root = data[0]
    assert [c["frame"]["name"] for c in root["children"]] == [
        "decorated", "manual", "timed"]
    dec = _child(root, "decorated")
    assert dec["metrics"]["flops"] == 20
    assert _child(dec, "scale_kernel [n=64]")["metrics"]["count"] == 2
    manual = _child(root, "manual")
    assert manual["metrics"]["bytes"] == 11
    assert _child(root, "timed")["metrics"]["cpu_time (ns)"] >= 0
    assert "cpu_time (ns)" not in root["metrics"]  # exclusive
    assert _load(name + ".hatchet")[0]["frame"]["name"] == "ROOT"
    tree, cols = proton_viewer.parse(["flop/s", "cpu_time/ns"],
                                     name + ".hatchet")
    assert tree.find("decorated").values["flop/s (inc)"] > 0
    with pytest.raises(ValueError, match="reserved"):
        proton.cpu_timed_scope("x", {"cpu_time": 1})


def test_profile_decorator_and_bad_options(tmp_path):
    name = str(tmp_path / "decorator")

    @proton.profile(name=name, hook="triton")
    def run():
        _launch(64)

    run()
    assert _jit._PROFILER is None  # deactivated on return, kept for finalize
    proton.finalize()
    root = _load(name + ".hatchet")[0]
    assert root["children"][0]["frame"]["name"] == "scale_kernel [n=64]"
    for kw in ({"data": "trace"}, {"context": "python"},
               {"backend": "instrumentation"}, {"hook": "launch"},
               {"mode": "pcsampling"}):
        with pytest.raises(ValueError):
            proton.start(str(tmp_path / "bad"), **kw)
    with pytest.raises(ValueError, match="hatchet"):
        proton.finalize(output_format="chrome_trace")


def test_viewer_reads_tritons_own_files(tmp_path):
    """A profile as Triton's proton writes it on an H100: launch-metadata
    frames, CUDA device information, util."""
    kernel = {"frame": {"name": "matmul_kernel [M=8192, N=8192, K=512]",
                        "type": "function"},
              "metrics": {"count": 10, "time (ns)": 2000000,
                          "device_id": "0", "device_type": "CUDA",
                          "flops16": 10 * 2.0 * 8192 * 8192 * 512,
                          "bytes": 10 * 2 * (2 * 8192 * 512 + 8192 * 8192)},
              "children": []}
    meta = {"frame": {"name": "__proton_launch_metadata", "type": "function"},
            "metrics": {"count": 1, "time (ns)": 5, "device_id": "0",
                        "device_type": "CUDA"}, "children": []}
    empty = {"frame": {"name": "empty", "type": "function"}, "metrics": {},
             "children": []}
    data = [{"frame": {"name": "ROOT", "type": "function"},
             "metrics": {"bytes": 0, "count": 0, "flops16": 0,
                         "time (ns)": 0},
             "children": [kernel, meta, empty]},
            {"CUDA": {"0": {"clock_rate": 1980000,
                            "memory_clock_rate": 2619000,
                            "bus_width": 5120, "arch": "90",
                            "num_sms": 132}}}]
    path = str(tmp_path / "triton.hatchet")
    with open(path, "w") as f:
        json.dump(data, f)
    tree, cols = proton_viewer.parse(["tflop16/s", "time/ms", "util",
                                      "tbyte/s"], path)
    assert [n.name for n in tree.nodes()] == ["ROOT", kernel["frame"]["name"]]
    node = tree.roots[0].children[0]
    assert math.isclose(node.values["tflop16/s (inc)"],
                        kernel["metrics"]["flops16"] / 2e-3 / 1e12)
    assert math.isclose(node.values["time/ms (inc)"], 2.0)
    peak = 132 / 114 * 1980000 / 1755e3 * 1513e12 / 2
    assert math.isclose(node.values["util"],
                        kernel["metrics"]["flops16"] / peak / 2e-3)
    assert math.isnan(tree.roots[0].values["util"])


def _gpu_present():
    """Whether the profiler can describe a CUDA GPU in its files."""
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def _cuda():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU: GPU timing with CUDA events runs on the "
                    "GPU machine")
    return torch


def test_cuda_kernels_and_scopes_are_timed_with_events(tmp_path, monkeypatch):
    torch = _cuda()
    monkeypatch.setattr(_profiler, "FLUSH_AT", 50)  # several batches
    n = 1 << 20
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    scale_kernel[(n // 1024,)](x, y, n, BLOCK=1024)
    name = str(tmp_path / "cuda")
    sid = proton.start(name, hook="triton")
    for _ in range(120):
        scale_kernel[(n // 1024,)](x, y, n, BLOCK=1024)
    with proton.scope("torch", {"flops32": 2.0 * 512 ** 3}):
        a = torch.randn(512, 512, device="cuda")
        a @ a
    assert len(_profiler._pending) < 50
    proton.deactivate(sid)
    assert _profiler._pending == []
    proton.finalize()
    torch.testing.assert_close(y, 2 * x)
    data = _load(name + ".hatchet")
    root, devices = data
    k = _child(root, "scale_kernel [n=%d]" % n)["metrics"]
    assert k["count"] == 120 and k["device_type"] == "CUDA"
    assert k["time (ns)"] > 0
    scope = _child(root, "torch")["metrics"]
    assert scope["count"] == 1 and scope["time (ns)"] > 0
    dev = devices["CUDA"][k["device_id"]]
    assert dev["num_sms"] > 0 and dev["arch"].isdigit()
    tree, cols = proton_viewer.parse(["tflop32/s", "time/ms", "gbyte/s"],
                                     name + ".hatchet")
    assert tree.find("scale_kernel [n=%d]" % n).values["gbyte/s (inc)"] > 1


def test_cpu_torch_tensors_and_scopes_use_wall_time(tmp_path):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if torch.cuda.is_available():
        pytest.skip("CUDA is available: scopes are timed with CUDA events "
                    "(test_cuda_kernels_and_scopes_are_timed_with_events)")
    x = torch.arange(256, dtype=torch.float32)
    y = torch.empty_like(x)
    name = str(tmp_path / "cpu_torch")
    proton.start(name, hook="triton")
    with proton.scope("torch", {"flops32": 2.0 * 64 ** 3}):
        a = torch.randn(64, 64)
        a @ a
    scale_kernel[(4,)](x, y, 256, BLOCK=64)
    proton.finalize()
    assert torch.equal(y, 2 * x)
    root = _load(name + ".hatchet")[0]
    scope = _child(root, "torch")["metrics"]
    assert scope["device_type"] == "CPU" and scope["time (ns)"] > 0
    k = _child(root, "scale_kernel [n=256]")["metrics"]
    assert k["count"] == 1 and k["device_type"] == "CPU"

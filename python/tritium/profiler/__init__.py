"""Profiling sessions with the API of Triton's ``proton`` profiler
(``import triton.profiler as proton``).

``start(name, hook="triton")`` opens a session (active at once) and returns
its id; ``deactivate``/``activate`` pause and resume it; ``finalize`` writes
``<name>.hatchet``, a JSON tree in the hatchet "literal" layout that
Triton's proton writes and its viewer reads (``tritium.profiler.viewer``
reads it too)::

    [{"frame": {"name": "ROOT", "type": "function"},
      "metrics": {"count": 0, "time (ns)": 0, ...},   # the inclusive names
      "children": [{"frame": {...}, "metrics": {"time (ns)": 1234,
                    "count": 10, "flops16": 2.1e10, "bytes": 6291456,
                    "device_id": "0", "device_type": "CUDA"},
                    "children": [...]}, ...]},
     {"CUDA": {"0": {"clock_rate": ..., "memory_clock_rate": ...,
                     "bus_width": ..., "arch": "90", "num_sms": 132}}}]

What is measured:

- Every tritium kernel launch while a session is active is a node under
  the innermost open scope, named by the kernel's function name; with
  ``hook="triton"`` the kernel's ``launch_metadata(grid, kernel, args)``
  names it (``"name"``) and adds its ``flops8/16/32/64``, ``flops`` and
  ``bytes``. Each launch adds 1 to ``count`` and its time to
  ``time (ns)``: on the GPU the time between two CUDA events recorded on
  torch's current stream around the launch (read in batches, so long loops
  keep few events alive; while the GPU waits on the host, the host's work
  to launch falls inside that window too), on the interpreter the wall
  time of the launch.
- ``scope(name, metrics)`` is a node whose body is timed the same way
  (CUDA events on the current stream when torch has CUDA, else wall time);
  it adds `metrics`. Launches and scopes inside it are its children, and
  its own ``time (ns)`` is what its children's times leave of its body's,
  so inclusive times add up; a scope counts as one operation (``count``)
  when nothing inside it was recorded.

With no active session a launch costs one test of a module-level name
(``tritium.jit._PROFILER``).
"""

import functools
import importlib
import json
import os
import sys
import threading
import time

from .. import _capi

# The module (the package's name `jit` is the decorator).
_jit = importlib.import_module("..jit", __package__)

DEFAULT_PROFILE_NAME = "proton"

# launch_metadata keys that become metrics of a kernel's node.
LAUNCH_METRICS = ("flops8", "flops16", "flops32", "flops64", "bytes", "flops")

TIME = "time (ns)"
COUNT = "count"

# GPU timings wait as CUDA event pairs; once this many records are
# pending they are read in one go (deactivate, finalize and get_data read
# them too).
FLUSH_AT = 2000
_POOL_MAX = 4096

_CPU = ("CPU", "0")


class _Node:
    __slots__ = ("name", "children", "metrics")

    def __init__(self, name):
        self.name = name
        self.children = {}
        self.metrics = {}

    def child(self, name):
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = _Node(name)
        return node

    def add(self, key, value, replace=False):
        metrics = self.metrics
        if replace or key not in metrics or isinstance(value, str) \
                or isinstance(metrics[key], str):
            metrics[key] = value
        else:
            metrics[key] += value

    def to_json(self):
        return {"frame": {"name": self.name, "type": "function"},
                "metrics": dict(self.metrics),
                "children": [c.to_json() for c in self.children.values()]}


class _Session:
    def __init__(self, sid, name, hook):
        self.id = sid
        self.name = name
        self.hook = hook
        self.active = True
        self.clear()

    def clear(self):
        self.root = _Node("ROOT")
        self.inclusive = set()  # metric names summed over subtrees
        self.devices = set()    # (device_type, device_id)

    def node(self, path):
        node = self.root
        for name in path:
            node = node.child(name)
        return node

    def hatchet(self):
        """The profile as the hatchet JSON list: [root, device info]."""
        root = self.root.to_json()
        for name in sorted(self.inclusive):
            root["metrics"][name] = 0
        return [root, _device_json(self.devices)]

    def file_name(self):
        path = os.path.expanduser(self.name)
        return path if path.endswith(".hatchet") else path + ".hatchet"

    def write(self):
        data = json.dumps(self.hatchet(), indent=4)
        if self.name in ("", "-"):
            sys.stdout.write(data + "\n")
            return
        with open(self.file_name(), "w") as f:
            f.write(data + "\n")


def _cuda_device(index):
    """Device information as proton writes it (clock rates in kHz, bus
    width in bits, arch as "90" for sm_90)."""
    from .. import _capi
    try:
        attr = _capi.cuda_device_attribute
        return {"clock_rate": attr(13), "memory_clock_rate": attr(36),
                "bus_width": attr(37), "arch": str(attr(75) * 10 + attr(76)),
                "num_sms": attr(16)}
    except Exception:  # noqa: BLE001 - no driver: what torch knows
        torch = sys.modules.get("torch")
        if torch is None:
            return {}
        p = torch.cuda.get_device_properties(index)
        return {"clock_rate": getattr(p, "clock_rate", 0),
                "memory_clock_rate": getattr(p, "memory_clock_rate", 0),
                "bus_width": getattr(p, "memory_bus_width", 0),
                "arch": str(p.major * 10 + p.minor),
                "num_sms": p.multi_processor_count}


def _device_json(devices):
    out = {}
    for kind, index in sorted(devices):
        if kind == "CUDA":
            out.setdefault(kind, {})[index] = _cuda_device(int(index))
    return out


def _scalar(key, value):
    if isinstance(value, (int, float, str)):
        return int(value) if isinstance(value, bool) else value
    item = getattr(value, "item", None)  # torch / numpy scalars
    if item is not None:
        try:
            return item()
        except (TypeError, ValueError, RuntimeError):
            pass
    raise TypeError("metric '%s': a metric's value is a number (or a "
                    "one-element tensor), not %s" % (key, type(value).__name__))


def _add_metrics(session, node, metrics):
    """User metrics: "name (exc)" is exclusive (not summed over subtrees),
    "name (pty)" a property (replaced, not added)."""
    for key, value in metrics.items():
        value = _scalar(key, value)
        if key.endswith("(exc)"):
            node.add(key[:-5].strip(), value)
        elif key.endswith("(pty)"):
            name = key[:-5].strip()
            session.inclusive.add(name)
            node.add(name, value, replace=True)
        else:
            session.inclusive.add(key)
            node.add(key, value)


# -- the recorder -------------------------------------------------------------

_lock = threading.RLock()
_sessions = {}          # id -> _Session, from start to finalize
_active = ()            # the active sessions
_started = False        # between start() and finalize() of all
_next_id = 0
_pending = []           # GPU records waiting for their events
_events = {}            # device index -> unused timing events
_cuda_ok = None         # torch.cuda.is_available(), once torch is there
_local = threading.local()


def _stack():
    try:
        return _local.stack
    except AttributeError:
        _local.stack = []
        return _local.stack


def _set_active():
    global _active
    _active = tuple(s for s in _sessions.values() if s.active)
    _jit._PROFILER = _RECORDER if _active else None
    # The C launcher leaves recorded launches to the Python one.
    try:
        fast = _capi.launch_module()
    except ImportError:  # no library: nothing launches
        fast = None
    if fast is not None:
        fast.set_enabled(not _active)


def _event(torch):
    pool = _events.get(torch.cuda.current_device())
    if pool:
        return pool.pop()
    return torch.cuda.Event(enable_timing=True)


def _scope_torch():
    """torch when scopes are timed with CUDA events, else None."""
    global _cuda_ok
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    if _cuda_ok is None:
        try:
            _cuda_ok = bool(torch.cuda.is_available())
        except Exception:  # noqa: BLE001 - a torch without CUDA support
            _cuda_ok = False
    if not _cuda_ok or torch.cuda.is_current_stream_capturing():
        return None
    return torch


def _credit(sessions, path, parent, own, ns, device, count, metrics):
    """Adds a timed operation to the sessions' trees: `own` is the open
    scope record for a scope (its children's time is taken off its own),
    `parent` the scope it ran in."""
    total = ns
    if own is not None:
        ns = max(0, ns - own.child_ns)
    for s in sessions:
        node = s.node(path)
        node.add(TIME, ns)
        s.inclusive.add(TIME)
        if count:
            node.add(COUNT, count)
            s.inclusive.add(COUNT)
        node.metrics["device_id"] = device[1]
        node.metrics["device_type"] = device[0]
        s.devices.add(device)
        if metrics:
            _add_metrics(s, node, metrics)
    if parent is not None:
        parent.child_ns += total


def _flush():
    """Reads the pending CUDA events and adds their times."""
    global _pending
    with _lock:
        pending, _pending = _pending, []
        for sessions, path, parent, own, start, end, device, count, \
                metrics in pending:
            end.synchronize()
            ns = int(round(start.elapsed_time(end) * 1e6))
            _credit(sessions, path, parent, own, ns, device, count, metrics)
            pool = _events.setdefault(int(device[1]), [])
            if len(pool) < _POOL_MAX:
                pool.append(start)
                pool.append(end)


class _KernelInfo:
    """The `kernel` argument of launch_metadata: ``name`` (the kernel's
    function name) and, on demand, the compiled kernel's metadata
    (``num_warps``, ``shared``, ...)."""

    def __init__(self, kernel, name):
        self._kernel = kernel
        self.name = name

    def __getattr__(self, attr):
        if attr.startswith("__") or attr == "_kernel":
            raise AttributeError(attr)
        from ..compiled import CompiledKernel
        return getattr(CompiledKernel(self._kernel, self.name).metadata, attr)


class _Recorder:
    """What tritium.jit calls around a launch while a session is active."""

    @staticmethod
    def begin(fn, kernel, grid, args, gpu):
        sessions = _active
        if not sessions:
            return None
        name = fn.__name__
        metrics = None
        hook = fn.launch_metadata
        if hook is not None and any(s.hook for s in sessions):
            meta = hook(grid, _KernelInfo(kernel, name), args)
            if meta:
                name = str(meta.get("name", name))
                metrics = {k: meta[k] for k in LAUNCH_METRICS if k in meta}
        stack = _stack()
        frame = stack[-1] if stack else None
        path = (frame.path if frame is not None else ()) + (name,)
        torch = sys.modules.get("torch") if gpu else None
        if torch is not None:
            if torch.cuda.is_current_stream_capturing():
                return None  # a graph being captured runs later, if ever
            start = _event(torch)
            start.record()
            device = ("CUDA", str(torch.cuda.current_device()))
            return (sessions, path, frame, metrics, start, device, torch)
        return (sessions, path, frame, metrics, time.perf_counter_ns(), _CPU,
                None)

    @staticmethod
    def end(record):
        if record is None:
            return
        sessions, path, frame, metrics, start, device, torch = record
        if frame is not None:
            frame.has_ops = True
        if torch is None:
            ns = time.perf_counter_ns() - start
            with _lock:
                _credit(sessions, path, frame, None, ns, device, 1, metrics)
            return
        end = _event(torch)
        end.record()
        _pending.append((sessions, path, frame, None, start, end, device, 1,
                         metrics))
        if len(_pending) >= FLUSH_AT:
            _flush()


_RECORDER = _Recorder()


# -- scopes -------------------------------------------------------------------

class _Frame:
    """An open scope."""
    __slots__ = ("name", "path", "parent", "sessions", "metrics", "start",
                 "device", "torch", "child_ns", "has_ops", "id")

    def __init__(self, name, parent, metrics):
        self.name = name
        self.path = (parent.path if parent is not None else ()) + (name,)
        self.parent = parent
        self.sessions = _active
        self.metrics = metrics
        self.child_ns = 0
        self.has_ops = False
        self.id = None
        self.torch = None
        self.start = None
        self.device = _CPU
        if self.sessions:
            torch = _scope_torch()
            if torch is not None:
                self.torch = torch
                self.device = ("CUDA", str(torch.cuda.current_device()))
                self.start = _event(torch)
                self.start.record()
            else:
                self.start = time.perf_counter_ns()


def _enter(name, metrics):
    """Opens a scope (None when profiling has not started)."""
    if not _started:
        return None
    stack = _stack()
    frame = _Frame(str(name), stack[-1] if stack else None, metrics)
    stack.append(frame)
    return frame


def _exit(frame, metrics=None):
    if frame is None:
        return
    stack = _stack()
    if stack and stack[-1] is frame:
        stack.pop()
    elif frame in stack:
        stack.remove(frame)
    if not frame.sessions:
        return
    if frame.metrics:
        combined = dict(frame.metrics)
        for key, value in (metrics or {}).items():
            value = _scalar(key, value)
            if key in combined and not key.endswith("(pty)"):
                value = _scalar(key, combined[key]) + value
            combined[key] = value
        metrics = combined
    count = 0 if frame.has_ops else 1
    if frame.parent is not None:
        frame.parent.has_ops = True
    if frame.torch is None:
        ns = time.perf_counter_ns() - frame.start
        with _lock:
            _credit(frame.sessions, frame.path, frame.parent, frame, ns,
                    frame.device, count, metrics)
        return
    end = _event(frame.torch)
    end.record()
    _pending.append((frame.sessions, frame.path, frame.parent, frame,
                     frame.start, end, frame.device, count, metrics))
    if len(_pending) >= FLUSH_AT:
        _flush()


class scope:
    """A named region of the profile, as a context manager or a decorator::

        with proton.scope("torch", {"flops16": 2 * M * N * K}):
            c = torch.matmul(a, b)

        @proton.scope("step")
        def step(): ...

    Its body is timed, `metrics` (name -> number) are added to it each
    time it is entered, and kernels launched inside are its children. A
    no-op before ``start``."""

    def __init__(self, name, metrics=None):
        self.name = name
        self.metrics = metrics
        self._frames = []

    def __enter__(self):
        self._frames.append(_enter(self.name, self.metrics))
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _exit(self._frames.pop() if self._frames else None)

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            frame = _enter(self.name, self.metrics)
            try:
                return func(*args, **kwargs)
            finally:
                _exit(frame)
        return wrapper


class cpu_timed_scope(scope):
    """A scope that also records its wall time as the exclusive metric
    ``cpu_time (ns)``."""

    def __init__(self, name, metrics=None):
        if metrics and "cpu_time" in metrics:
            raise ValueError("the metric name 'cpu_time' is reserved by "
                             "cpu_timed_scope")
        super().__init__(name, metrics)
        self._starts = []

    def __enter__(self):
        self._starts.append(time.perf_counter_ns())
        return super().__enter__()

    def __exit__(self, exc_type, exc_value, traceback):
        frame = self._frames.pop() if self._frames else None
        t0 = self._starts.pop() if self._starts else None
        extra = None
        if frame is not None and t0 is not None:
            extra = {"cpu_time (ns)(exc)": time.perf_counter_ns() - t0}
        _exit(frame, extra)

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return wrapper


_scope_ids = [0]


def enter_scope(name, *, metrics=None):
    """Opens scope `name` until the matching ``exit_scope``; returns its id
    (None before ``start``)."""
    frame = _enter(name, metrics)
    if frame is None:
        return None
    with _lock:
        _scope_ids[0] += 1
        frame.id = _scope_ids[0]
    return frame.id


def exit_scope(name=None, *, metrics=None):
    """Closes the innermost scope opened by ``enter_scope`` (a ValueError
    when `name` is given and is not its name); `metrics` are added to it.
    Returns its id (None before ``start``)."""
    if not _started:
        return None
    stack = _stack()
    frames = [f for f in stack if f.id is not None]
    if not frames:
        raise ValueError("exit_scope(%s): no scope opened by enter_scope is "
                         "open" % ("" if name is None else repr(name)))
    frame = frames[-1]
    if name is not None and name != frame.name:
        raise ValueError("exit_scope: scope name mismatch: %r != %r (the "
                         "innermost open scope)" % (name, frame.name))
    _exit(frame, metrics)
    return frame.id


# -- sessions -----------------------------------------------------------------

def _session(sid, verb):
    try:
        return _sessions[sid]
    except (KeyError, TypeError):
        raise RuntimeError(
            "%s(%r): no such profiling session (sessions open: %s); "
            "proton.start() returns a session's id"
            % (verb, sid, ", ".join(map(str, _sessions)) or "none")) \
            from None


def start(name=None, *, context="shadow", data="tree", backend=None,
          mode=None, hook=None):
    """Starts (and activates) a profiling session writing ``<name>.hatchet``
    at ``finalize`` (``proton.hatchet`` by default); returns its id. A
    session of the same name is activated again instead. ``hook="triton"``
    names kernels and adds their metrics through their ``launch_metadata``.
    """
    global _started, _next_id
    if context != "shadow":
        raise ValueError("start(context=%r): tritium's profiler keeps the "
                         "scopes itself (context='shadow' only)" % (context,))
    if data != "tree":
        raise ValueError("start(data=%r): tritium's profiler writes trees "
                         "(data='tree' only)" % (data,))
    if backend not in (None, "cupti"):
        raise ValueError("start(backend=%r): tritium times kernels with CUDA "
                         "events on the GPU and wall time on the interpreter "
                         "(backend=None)" % (backend,))
    if mode:
        raise ValueError("start(mode=%r): no profiling modes are supported"
                         % (mode,))
    if hook not in (None, "triton"):
        raise ValueError("start(hook=%r): the hooks are None and 'triton'"
                         % (hook,))
    name = DEFAULT_PROFILE_NAME if name is None else str(name)
    with _lock:
        for s in _sessions.values():
            if s.name == name:
                s.active = True
                s.hook = s.hook or hook == "triton"
                break
        else:
            s = _Session(_next_id, name, hook == "triton")
            _next_id += 1
            _sessions[s.id] = s
        _started = True
        _set_active()
    return s.id


def activate(session=None):
    """Resumes recording into `session` (every session when None)."""
    with _lock:
        if session is None:
            for s in _sessions.values():
                s.active = True
        else:
            _session(session, "activate").active = True
        _set_active()


def deactivate(session=None):
    """Pauses recording into `session` (every session when None); what
    was recorded stays for ``finalize``."""
    with _lock:
        if session is None:
            for s in _sessions.values():
                s.active = False
        else:
            _session(session, "deactivate").active = False
        _set_active()
        _flush()


def finalize(session=None, output_format=""):
    """Writes `session`'s profile (every session's when None) to
    ``<name>.hatchet`` and closes it. Unknown sessions are ignored."""
    global _started
    if output_format not in ("", "hatchet"):
        raise ValueError("finalize(output_format=%r): tritium writes "
                         "'hatchet' profiles only" % (output_format,))
    with _lock:
        _flush()
        if session is None:
            done = list(_sessions.values())
            _started = False
        elif session in _sessions:
            done = [_sessions[session]]
        else:
            done = []
        for s in done:
            s.active = False
            del _sessions[s.id]
        _set_active()
    for s in done:
        s.write()


def get_data(session):
    """`session`'s profile so far, as the JSON list ``finalize`` writes."""
    with _lock:
        _flush()
        return _session(session, "get_data").hatchet()


def clear_data(session):
    """Drops what `session` recorded so far."""
    with _lock:
        _flush()
        _session(session, "clear_data").clear()


def profile(func=None, *, name=None, context="shadow", data="tree",
            backend=None, mode=None, hook=None):
    """``@profile`` / ``@profile(name=..., hook=...)``: each call of the
    function starts (or resumes) a session and deactivates it on return."""
    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            sid = start(name, context=context, data=data, backend=backend,
                        mode=mode, hook=hook)
            try:
                return f(*args, **kwargs)
            finally:
                deactivate(sid)
        return wrapper
    return decorate if func is None else decorate(func)


__all__ = ["DEFAULT_PROFILE_NAME", "activate", "clear_data", "cpu_timed_scope",
           "deactivate", "enter_scope", "exit_scope", "finalize", "get_data",
           "profile", "scope", "start"]

"""``autotune`` and ``Config``: pick the fastest meta-parameters per key.

As Triton's ``runtime/autotuner.py``: the tuning key is the values of the
``key`` arguments plus the dtypes of the tensor arguments; on a new key each
(pruned) config is benchmarked with ``do_bench`` (wall clock on the
interpreter) and the fastest is cached; the configs within 5% of the
fastest are timed once more, in reverse order, and scored by the mean of
their two timings (a GPU's clocks fall as it heats, which favours the
configs timed first). Configs that fail to compile count as
infinitely slow. Before the benchmarks, the configs are compiled together,
their GPU code generation on one thread per core (``_precompile``).
"""

import builtins
import hashlib
import json
import os
import time

from . import _precompile
from .errors import AutotunerError, CompilationError, OutOfResources
from .jit import KernelInterface


class Config:
    """One set of meta-parameters (``kwargs``, passed to the kernel as
    keyword arguments) and launch options to try."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1,
                 maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def __setstate__(self, state):
        self.__dict__.update(state)

    def all_kwargs(self):
        """The keyword arguments a launch with this config passes."""
        options = (("num_warps", self.num_warps),
                   ("num_ctas", self.num_ctas),
                   ("num_stages", self.num_stages),
                   ("maxnreg", self.maxnreg),
                   ("ir_override", self.ir_override))
        out = dict(self.kwargs)
        out.update((k, v) for k, v in options if v is not None)
        return out

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps,
                  "num_ctas: %s" % self.num_ctas,
                  "num_stages: %s" % self.num_stages,
                  "maxnreg: %s" % self.maxnreg]
        return ", ".join(parts)

    def __repr__(self):
        return "Config(%s)" % self


def _zero(x):
    if hasattr(x, "zero_"):
        x.zero_()
    else:
        x[...] = 0


def _clone(x):
    return x.clone() if hasattr(x, "clone") else x.copy()


def _restore(dst, src):
    if hasattr(dst, "copy_"):
        dst.copy_(src)
    else:
        dst[...] = src


def _device_of(nargs):
    """The device a launch with these arguments runs on, as the on-disk
    tuning cache tells devices apart: the GPU's name and compute capability
    for CUDA (or ROCm) torch tensors, else the interpreter."""
    for value in (nargs or {}).values():
        dev = getattr(value, "device", None)
        if getattr(dev, "type", None) == "cuda":
            import torch
            index = dev.index if dev.index is not None else \
                torch.cuda.current_device()
            return "%s sm_%d%d" % ((torch.cuda.get_device_name(index),)
                                   + tuple(torch.cuda.get_device_capability(
                                       index)))
    return "interpreter"


def _compiler_identity():
    """tritium's version plus the size and modification time of the library
    in use, as its kernel cache names the compiler: a rebuilt or upgraded
    tritium tunes again."""
    from . import _capi
    _capi.lib()
    path = getattr(_capi, "_lib_path", None)
    try:
        st = os.stat(path)
        return "%s;%d;%d" % (_capi.version(), st.st_size, st.st_mtime_ns)
    except (OSError, TypeError):
        return _capi.version()


# str(dtype) of the dtypes seen in tuning keys (a torch dtype's str is
# slow enough to show in every launch).
_DTYPE_NAMES = {}
_NO_DTYPE = object()


def _flag(name):
    return os.environ.get(name, "0").lower() in ("1", "true", "on", "yes")


class Autotuner(KernelInterface):
    """Wraps a kernel (a JITFunction or another wrapper, e.g. heuristics)
    and launches it with the best of ``configs`` for the current key."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None,
                 restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.base_fn = fn
        while hasattr(self.base_fn, "fn") and not hasattr(
                self.base_fn, "signature"):
            self.base_fn = self.base_fn.fn
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.arg_names = list(arg_names)
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self._arg_set = frozenset(self.arg_names)
        # Where each key argument sits among the parameters (for launches
        # with positional arguments only).
        self._key_positions = [self.arg_names.index(k) for k in self.keys
                               if k in self._arg_set]
        self._config_kwargs = {}
        self.cache = {}
        self.configs_timings = None
        self.bench_time = None
        self.best_config = None
        self.precompiled = 0  # configs compiled together before the last tuning
        self.nargs = None
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        for name in self.reset_to_zero + self.restore_value:
            if name not in self.arg_names:
                raise ValueError("autotune: '%s' is not a parameter of %s"
                                 % (name, self.__name__))
        self.restore_copies = {}
        self.user_pre_hook = pre_hook is not None
        self.user_post_hook = post_hook is not None
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.cache_results = cache_results or _flag(
            "TRITON_CACHE_AUTOTUNING")
        self.use_cuda_graph = use_cuda_graph  # no CUDA graphs here
        if do_bench is not None:
            self.do_bench = do_bench
        else:
            from . import testing
            bench_warmup = 25 if warmup is None else warmup
            bench_rep = 100 if rep is None else rep

            def default_bench(kernel_call, quantiles):
                return testing.do_bench(kernel_call, warmup=bench_warmup,
                                        rep=bench_rep, quantiles=quantiles)

            self.do_bench = default_bench

    # -- hooks ------------------------------------------------------------

    def _default_pre_hook(self, kwargs, reset_only=False):
        for name in self.reset_to_zero:
            _zero(kwargs[name])
        if not reset_only:
            self.restore_copies = {name: _clone(kwargs[name])
                                   for name in self.restore_value}

    def _default_post_hook(self, kwargs, exception):
        for name in self.restore_value:
            if name in self.restore_copies:
                _restore(kwargs[name], self.restore_copies[name])
        self.restore_copies = {}

    # -- tuning -----------------------------------------------------------

    def prune_configs(self, kwargs):
        """The configs worth benchmarking: ``early_config_prune``, then the
        ``top_k`` best by ``perf_model``."""
        pruned = self.configs
        if self.early_config_prune:
            pruned = list(self.early_config_prune(self.configs, self.nargs,
                                                  **kwargs))
            if not pruned:
                raise AutotunerError(
                    "%s: early_config_prune left no config" % self.__name__)
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("autotune: top_k must be an int or a float "
                                "<= 1.0, got %r" % (top_k,))
            top_k = max(top_k, 1)
            if len(pruned) > top_k:
                estimates = {
                    config: self.perf_model(**self.nargs, **kwargs,
                                            **config.all_kwargs())
                    for config in pruned}
                pruned = sorted(estimates, key=estimates.get)[:top_k]
        return pruned

    def _bench(self, *args, config, **meta):
        verbose = _flag("TRITON_PRINT_AUTOTUNING")
        if verbose:
            print("Autotuning kernel %s with config %s"
                  % (self.__name__, config))
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(
                "Conflicting meta-parameters: %s. Make sure that you don't "
                "re-define auto-tuned symbols." % ", ".join(sorted(conflicts)))
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)

        try:
            return self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except (CompilationError, OutOfResources) as e:
            if verbose:
                print("Autotuning failed with %s" % e)
            return [float("inf"), float("inf"), float("inf")]

    # A config whose first timing is within this factor of the best one is
    # timed again before the choice.
    RETIME_WITHIN = 1.05

    def _retime_contenders(self, timings, args, kwargs):
        """Times the configs close to the best a second time, in reverse
        order, and scores each by the mean of its two timings.

        A GPU runs faster for the first tens of milliseconds after idling
        (its clocks drop as it heats), so on one pass the configs timed first
        look faster than they run in steady use. Reversing the order for the
        second pass evens that out between the contenders; configs far from
        the best are not timed again."""
        def first(t):
            return t[0] if isinstance(t, (list, tuple)) else t
        finite = [first(t) for t in timings.values()
                  if first(t) != float("inf")]
        if not finite:
            return
        bound = builtins.min(finite) * self.RETIME_WITHIN
        close = [c for c, t in timings.items() if first(t) <= bound]
        if len(close) < 2:
            return
        for config in reversed(close):
            again = self._bench(*args, config=config, **kwargs)
            old = timings[config]
            if isinstance(old, (list, tuple)) and \
                    isinstance(again, (list, tuple)):
                timings[config] = [(a + b) / 2 for a, b in zip(old, again)]
            else:
                timings[config] = (first(old) + first(again)) / 2

    def _disk_cache_path(self, key):
        base = os.environ.get("TRITON_CACHE_DIR") or os.path.join(
            os.environ.get("TRITON_HOME") or os.path.expanduser("~"),
            ".triton", "cache")
        source = ""
        path = getattr(self.base_fn, "file", None)
        if path and os.path.isfile(path):
            with open(path, "rb") as f:
                source = hashlib.sha256(f.read()).hexdigest()
        text = repr((source, self.__name__, key,
                     [str(c) for c in self.configs], _device_of(self.nargs),
                     _compiler_identity()))
        digest = hashlib.sha256(text.encode()).hexdigest()
        return os.path.join(base, "autotune", digest + ".json")

    def _load_cached(self, key):
        path = self._disk_cache_path(key)
        try:
            with open(path, encoding="utf-8") as f:
                index = json.load(f)["config_index"]
            return self.configs[index]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None

    def _store_cached(self, key, config):
        path = self._disk_cache_path(key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + ".tmp%d" % os.getpid()
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"key": [str(k) for k in key],
                           "config_index": self.configs.index(config),
                           "config": str(config)}, f)
            os.replace(tmp, path)
        except OSError:
            pass

    def _tuning_key(self, args, kwargs):
        """The key values, then the dtype of every argument that has one
        (in parameter order, positional first)."""
        if kwargs:
            named = dict(zip(self.arg_names, args))
            for k, v in kwargs.items():
                if k in self._arg_set:
                    named[k] = v
            key = [named[k] for k in self.keys if k in named]
            values = named.values()
        else:  # the common launch: positional arguments only
            n = len(args)
            key = [args[i] for i in self._key_positions if i < n]
            values = args
        names = _DTYPE_NAMES
        for value in values:
            dt = getattr(value, "dtype", _NO_DTYPE)
            if dt is _NO_DTYPE:
                continue
            try:
                text = names.get(dt)
            except TypeError:  # an unhashable dtype
                text = None
            if text is None:
                text = str(dt)
                try:
                    if len(names) < 256:
                        names[dt] = text
                except TypeError:
                    pass
            key.append(text)
        return tuple(key)

    def _launch_kwargs(self, config):
        """config.all_kwargs(), made once per config."""
        kw = self._config_kwargs.get(config)
        if kw is None:
            kw = config.all_kwargs()
            self._config_kwargs[config] = kw
        return kw

    def run(self, *args, **kwargs):
        """Tunes on a new key, then launches with the best config."""
        if len(self.configs) > 1:
            # A key already tuned, with a config without pre_hook: straight
            # to the launch.
            try:
                config = self.cache.get(self._tuning_key(args, kwargs))
            except TypeError:  # an unhashable key value
                config = None
            if config is not None and config.pre_hook is None:
                self.best_config = config
                return self.fn.run(*args, **kwargs,
                                   **self._launch_kwargs(config))
        self.nargs = dict(zip(self.arg_names, args))
        used_cached = True
        key = None
        if len(self.configs) > 1:
            key = self._tuning_key(args, kwargs)
            if key not in self.cache:
                config = (self._load_cached(key) if self.cache_results
                          else None)
                if config is not None:
                    self.cache[key] = config
                else:
                    used_cached = False
                    pruned = self.prune_configs(kwargs)
                    start = time.time()
                    self.precompiled = _precompile.compile_all(
                        self.fn, [(args, dict(kwargs, **config.all_kwargs()))
                                  for config in pruned]) if len(pruned) > 1 else 0
                    timings = {config: self._bench(*args, config=config,
                                                   **kwargs)
                               for config in pruned}
                    self._retime_contenders(timings, args, kwargs)
                    self.bench_time = time.time() - start
                    best = builtins.min(timings, key=timings.get)
                    self.cache[key] = best
                    full_nargs = {**self.nargs, **kwargs,
                                  **best.all_kwargs()}
                    self.pre_hook(full_nargs, reset_only=True)
                    self.configs_timings = timings
                    if self.cache_results:
                        self._store_cached(key, best)
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        if not used_cached and _flag("TRITON_PRINT_AUTOTUNING"):
            print("Triton autotuning for function %s,\nwith key as %s,\n"
                  "finished after %.2fs,\nbest config selected: %s;"
                  % (self.__name__, key, self.bench_time, config))
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        try:
            return self.fn.run(*args, **kwargs, **config.all_kwargs())
        finally:
            self.nargs = None

    def warmup(self, *args, **kwargs):
        """Compiles every (pruned) config without launching."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                    for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
             restore_value=None, pre_hook=None, post_hook=None, warmup=None,
             rep=None, use_cuda_graph=False, do_bench=None,
             cache_results=False):
    """``@autotune(configs=[Config(...), ...], key=["n"])`` above ``@jit``
    (or ``@heuristics``): benchmarks the configs on each new key and
    launches with the fastest (``kernel.best_config``)."""

    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key,
                         reset_to_zero=reset_to_zero,
                         restore_value=restore_value, pre_hook=pre_hook,
                         post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup,
                         rep=rep, use_cuda_graph=use_cuda_graph,
                         do_bench=do_bench, cache_results=cache_results)

    return decorator

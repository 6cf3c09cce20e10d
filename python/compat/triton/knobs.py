"""``triton.knobs``: the settings users set, each backed by its environment
variable (read when not set in Python), as in Triton:

    triton.knobs.cache.dir = "/tmp/kernels"     # TRITON_CACHE_DIR
    with triton.knobs.runtime.scope():
        triton.knobs.runtime.debug = True       # TRITON_DEBUG

Setting a knob also sets its variable while ``propagate_env`` is true (the
default), so tritium's C++ runtime, which reads the variables, sees it:
``cache.dir`` sets ``TRITIUM_CACHE_DIR`` too, ``cache.always_compile``
``TRITIUM_ALWAYS_COMPILE``, ``runtime.interpret`` ``TRITIUM_INTERPRET``.
"""

import contextlib
import copy
import functools
import os

propagate_env = True

_TRUE = ("1", "true", "yes", "on", "y")


class env_base:
    """A knob read from environment variable `key` (`default` when unset);
    `mirror` names tritium's own variable that setting it also sets."""

    def __init__(self, key, default=None, mirror=None):
        self.key = key
        self.default = default
        self.mirror = mirror
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def parse(self, text):
        return text

    def render(self, value):
        return str(value)

    def get(self):
        text = os.environ.get(self.key)
        if text is None:
            return self.default() if callable(self.default) else \
                self.default
        return self.parse(text)

    def __get__(self, obj, objclass=None):
        if obj is None:
            return self
        if self.name in obj._set:
            return obj._set[self.name]
        return self.get()

    def __set__(self, obj, value):
        obj._set[self.name] = value
        if propagate_env:
            for key in (self.key, self.mirror):
                if not key:
                    continue
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = self.render(value)

    def __delete__(self, obj):
        obj._set.pop(self.name, None)


class env_str(env_base):
    pass


class env_opt_str(env_base):
    pass


class env_bool(env_base):
    def __init__(self, key, default=False, mirror=None):
        super().__init__(key, default, mirror)

    def parse(self, text):
        return text.strip().lower() in _TRUE

    def render(self, value):
        return "1" if value else "0"


class env_int(env_base):
    def __init__(self, key, default=0, mirror=None):
        super().__init__(key, default, mirror)

    def parse(self, text):
        return int(text)


class env_opt_bool(env_bool):
    def __init__(self, key, mirror=None):
        env_base.__init__(self, key, None, mirror)


class base_knobs:
    """A set of knobs; ``knob_descriptors`` names them."""

    def __init__(self):
        self._set = {}

    @property
    def knob_descriptors(self):
        out = {}
        for cls in reversed(type(self).__mro__):
            for name, value in vars(cls).items():
                if isinstance(value, env_base):
                    out[name] = value
        return out

    @property
    def knobs(self):
        return {name: getattr(self, name) for name in self.knob_descriptors}

    def copy(self):
        new = copy.copy(self)
        new._set = dict(self._set)
        return new

    def reset(self):
        """Forgets every value set in Python (the variables stay)."""
        self._set = {}
        return self

    @contextlib.contextmanager
    def scope(self):
        """Values set inside the block are forgotten at its end."""
        saved = dict(self._set)
        env = {d.key: os.environ.get(d.key)
               for d in self.knob_descriptors.values()}
        env.update({d.mirror: os.environ.get(d.mirror)
                    for d in self.knob_descriptors.values() if d.mirror})
        try:
            yield self
        finally:
            self._set = saved
            for key, value in env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _home():
    return os.environ.get("TRITON_HOME") or os.path.expanduser("~")


class cache_knobs(base_knobs):
    home_dir = env_str("TRITON_HOME", _home)
    dir = env_str("TRITON_CACHE_DIR",
                  lambda: os.environ.get("TRITIUM_CACHE_DIR") or
                  os.path.join(os.path.expanduser("~"), ".cache", "tritium"),
                  mirror="TRITIUM_CACHE_DIR")
    dump_dir = env_str("TRITON_DUMP_DIR",
                       lambda: os.path.join(_home(), ".triton", "dump"))
    override_dir = env_str("TRITON_OVERRIDE_DIR",
                           lambda: os.path.join(_home(), ".triton",
                                                "override"))
    always_compile = env_bool("TRITON_ALWAYS_COMPILE",
                              mirror="TRITIUM_ALWAYS_COMPILE")


class compilation_knobs(base_knobs):
    override = env_bool("TRITON_KERNEL_OVERRIDE")
    dump_ir = env_bool("MLIR_ENABLE_DUMP")
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY")
    always_compile = env_bool("TRITON_ALWAYS_COMPILE",
                              mirror="TRITIUM_ALWAYS_COMPILE")
    use_ir_loc = env_opt_str("USE_IR_LOC")
    enable_asan = env_bool("TRITON_ENABLE_ASAN")
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO")
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING")
    allow_non_constexpr_globals = env_bool(
        "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    enable_experimental_consan = env_bool("TRITON_ENABLE_EXPERIMENTAL_CONSAN")
    listener = None


class autotuning_knobs(base_knobs):
    cache = env_bool("TRITON_CACHE_AUTOTUNING")
    print = env_bool("TRITON_PRINT_AUTOTUNING")


class runtime_knobs(base_knobs):
    interpret = env_bool("TRITON_INTERPRET", mirror="TRITIUM_INTERPRET")
    debug = env_bool("TRITON_DEBUG")
    override_arch = env_opt_str("TRITON_OVERRIDE_ARCH")
    launch_enter_hook = None
    launch_exit_hook = None
    jit_cache_hook = None
    jit_post_compile_hook = None


class language_knobs(base_knobs):
    fp32_default = env_opt_str("TRITON_F32_DEFAULT")
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True)


class nvidia_knobs(base_knobs):
    cuda_home = env_opt_str("CUDA_HOME")
    ptxas_path = env_opt_str("TRITON_PTXAS_PATH", mirror="TRITIUM_PTXAS")
    dump_nvptx = env_bool("NVPTX_ENABLE_DUMP")
    disable_ptxas_opt = env_bool("DISABLE_PTXAS_OPT")
    ptxas_options = env_opt_str("PTXAS_OPTIONS")
    libdevice_path = env_opt_str("TRITON_LIBDEVICE_PATH",
                                 mirror="TRITIUM_LIBDEVICE")

    @property
    def ptxas(self):
        """The ptxas tritium uses: ``.path`` and ``.version`` ("12.8")."""
        return _ptxas()


class amd_knobs(base_knobs):
    use_buffer_ops = env_bool("AMDGCN_USE_BUFFER_OPS", True)
    dump_amdgcn = env_bool("AMDGCN_ENABLE_DUMP")


class build_knobs(base_knobs):
    cc = env_opt_str("CC")
    backend_dirs = None


class _Ptxas:
    def __init__(self, path, version):
        self.path, self.version = path, version


@functools.lru_cache(maxsize=None)
def _ptxas_version(path):
    """The release ("12.8") `path --version` reports, or None."""
    import re
    import subprocess
    try:
        out = subprocess.run([path, "--version"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else "0.0"


def _ptxas():
    import shutil
    candidates = [os.environ.get("TRITIUM_PTXAS"),
                  os.environ.get("TRITON_PTXAS_PATH"), shutil.which("ptxas"),
                  "/usr/local/cuda/bin/ptxas"]
    for path in candidates:
        if path and os.path.isfile(path):
            version = _ptxas_version(path)
            if version is not None:
                return _Ptxas(path, version)
    return _Ptxas(None, "0.0")


cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
build = build_knobs()

__all__ = ["amd", "autotuning", "base_knobs", "build", "cache",
           "compilation", "language", "nvidia", "propagate_env", "runtime"]

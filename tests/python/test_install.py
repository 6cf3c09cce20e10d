"""`pip install ./python` (scripts/setup runs it into build/venv) gives a
package that finds its own libtritium.so, with no environment variables."""

import os
import subprocess
import sys
import tempfile

import pytest


def test_installed_package_finds_its_library():
    probe = subprocess.run(
        [sys.executable, "-c",
         "import importlib.util as u; s = u.find_spec('tritium'); "
         "print(s.origin if s else '')"],
        capture_output=True, text=True, cwd=tempfile.mkdtemp(),
        env={k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "TRITIUM_LIBRARY")})
    origin = probe.stdout.strip()
    if "site-packages" not in origin:
        pytest.skip("tritium is not installed in this interpreter "
                    "(scripts/setup installs it into build/venv)")
    run = subprocess.run(
        [sys.executable, "-c",
         "import tritium._capi as c; print(c.lib()._name); "
         "print(c.launch_module() is not None)"],
        capture_output=True, text=True, cwd=tempfile.mkdtemp(),
        env={k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "TRITIUM_LIBRARY")})
    assert run.returncode == 0, run.stderr
    lib, fast = run.stdout.split()
    assert lib == os.path.join(os.path.dirname(origin), "libtritium.so")
    assert os.path.isfile(lib)
    # The launcher's C extension is installed beside it and loads.
    assert fast == "True"

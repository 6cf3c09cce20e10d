"""Installs the `tritium` package together with libtritium.so.

The shared library is built by CMake (build/lib/libtritium.so, or the file
TRITIUM_LIBRARY names) and copied into the installed package, with the
launcher's C extension beside it (tritium_launch.abi3.so), where the package
finds them without any environment variable:
    bash scripts/setup && pip install ./python
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def find_library():
    env = os.environ.get("TRITIUM_LIBRARY")
    candidates = [env] if env else []
    candidates.append(os.path.join(HERE, "..", "build", "lib", "libtritium.so"))
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    raise SystemExit("libtritium.so not found: run `bash scripts/setup` first "
                     "(or set TRITIUM_LIBRARY to the library's path)")


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = find_library()
        target = os.path.join(self.build_lib, "tritium", "libtritium.so")
        shutil.copyfile(library, target)
        # The launcher's C fast path, built beside the library when Python's
        # headers were there; the package works without it.
        fast = os.path.join(os.path.dirname(library), "tritium_launch.abi3.so")
        if os.path.isfile(fast):
            shutil.copyfile(fast, os.path.join(self.build_lib, "tritium",
                                               "tritium_launch.abi3.so"))


setup(cmdclass={"build_py": BuildWithLibrary})

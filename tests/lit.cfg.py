# lit configuration: tests/ir (*.mlir through tile-opt) and tests/frontend
# (*.py through tritium). Tools come from the build tree, FileCheck and
# not from LLVM's.
import os
import lit.formats

config.name = "tritium"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "python"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tritium_obj_root, "tests")

path = [os.path.join(config.tritium_obj_root, "bin"),
        os.path.join(config.tritium_obj_root, "tools", "tile-opt"),
        os.path.join(config.tritium_obj_root, "tools", "tritium"),
        config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.tritium_src_root, "examples")))

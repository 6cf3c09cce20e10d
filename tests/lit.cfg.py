# lit configuration: tests/ir (*.mlir through tile-opt) and tests/frontend
# (*.py through tritium). Tools come from the build tree, FileCheck and
# not from LLVM's.
import os
import lit.formats

config.name = "tritium"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "python", "gpu",
                   "triton_suite"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tritium_obj_root, "tests")

path = [os.path.join(config.tritium_obj_root, "bin"),
        os.path.join(config.tritium_obj_root, "tools", "tile-opt"),
        os.path.join(config.tritium_obj_root, "tools", "tritium"),
        config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.tritium_src_root, "examples")))

# ptxas (CUDA toolkit) assembles the generated PTX in tests/codegen.
import shutil
ptxas = os.environ.get("TRITIUM_PTXAS") or shutil.which("ptxas") or next(
    (p for p in ("/usr/local/cuda/bin/ptxas",) if os.path.exists(p)), None)
if ptxas:
    config.available_features.add("ptxas")
    config.environment["TRITIUM_PTXAS"] = ptxas
    config.environment["PATH"] = os.path.dirname(ptxas) + os.pathsep + config.environment["PATH"]

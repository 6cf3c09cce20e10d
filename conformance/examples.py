"""The @jit kernels of examples/*.py, loaded without running their host
code.

The examples import torch for their host wrappers; the corpus checks the
kernels themselves, on any executor, so only the module's triton imports and
its @jit functions are executed here. The functions keep the example file as
their source file, so the frontend compiles the example exactly as written.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def _is_jit(dec):
    node = dec.func if isinstance(dec, ast.Call) else dec
    name = node.attr if isinstance(node, ast.Attribute) else getattr(
        node, "id", "")
    return name == "jit"


def _keep(node):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        mods = [a.name for a in node.names] if isinstance(node, ast.Import) \
            else [node.module or ""]
        return all(m.split(".")[0] == "triton" for m in mods)
    if isinstance(node, ast.FunctionDef):
        return any(_is_jit(d) for d in node.decorator_list)
    return False


def load(name):
    """A namespace with the @jit functions of examples/<name>.py."""
    path = os.path.join(EXAMPLES, name + ".py")
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    tree.body = [n for n in tree.body if _keep(n)]
    namespace = {"__name__": "examples_" + name, "__file__": path}
    exec(compile(tree, path, "exec"), namespace)  # noqa: S102
    return type("Example", (), {k: v for k, v in namespace.items()
                                if not k.startswith("__")})

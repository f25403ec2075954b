"""The package's layout is its pipeline: each stage imports only the stages below it.

Two checks: a static one over every ``import`` statement (including any inside a function,
which would hide a cycle), and a dynamic one importing every module on its own in a fresh
interpreter (forked after the third-party libraries and the top-level package are loaded,
so it stays fast; see the test for why that is the same check).
"""

import ast
import pathlib
import subprocess
import sys

import pytest

import tdadp

ROOT = pathlib.Path(tdadp.__file__).parent

# Stage order, bottom first. A module may import its own stage and any stage below it.
STAGES = ["utils", "dp", "latent", "graphs", "io", "datasets", "release", "ergm", "pufferfish",
          "privacy", "embed", "topology", "cluster", "recipes", "experiments", "cli", "pipelines"]
RANK = {name: i for i, name in enumerate(STAGES)}


def _modules():
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(["tdadp", *parts]), path))
    return out


MODULES = _modules()


def _stage(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _imports(module, path):
    """(target module, inside a function) for every tdadp import of a module."""
    tree = ast.parse(path.read_text())
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.Lambda))
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[:len(package) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.startswith("tdadp"):
                    found.append((target, nested))
            elif isinstance(child, ast.Import):
                found.extend((a.name, nested) for a in child.names
                             if a.name.startswith("tdadp"))
            visit(child, nested)

    visit(tree, False)
    return found


def test_every_module_belongs_to_a_stage():
    for module, _ in MODULES:
        stage = _stage(module)
        assert stage is None or stage in RANK, f"{module} is in no known stage"


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_imports_go_down_the_pipeline(module, path):
    stage = _stage(module)
    for target, in_function in _imports(module, path):
        assert not in_function, f"{module} imports {target} inside a function"
        if stage is None:  # the top-level package re-exports everything
            continue
        other = _stage(target)
        assert other is not None, f"{module} imports the top-level package {target}"
        assert RANK[other] <= RANK[stage], (
            f"{module} (stage {stage!r}) imports {target} (stage {other!r}, above it)")


_FRESH = r"""
import os, sys, importlib
import numpy, scipy.sparse, scipy.linalg, scipy.special, scipy.stats, sklearn.base
import sklearn.pipeline, sklearn.cluster, sklearn.neighbors, joblib, gudhi, ripser, numba
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot
# Importing any tdadp module first runs tdadp/__init__.py, the same code in every fresh
# interpreter: run it once here, and fork every child from that state.
try:
    import tdadp
except BaseException as exc:
    print(f"tdadp: {type(exc).__name__}: {exc}", flush=True)
    sys.exit(1)
# One forked child per module, as many at once as there are cores.
failed, running = [], {}
def reap():
    pid, status = os.wait()
    if status:
        failed.append(running[pid])
    del running[pid]
for name in sys.argv[1:]:
    if len(running) >= (os.cpu_count() or 1):
        reap()
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(name)
        except BaseException as exc:
            print(f"{name}: {type(exc).__name__}: {exc}", flush=True)
            os._exit(1)
        os._exit(0)
    running[pid] = name
while running:
    reap()
sys.exit(1 if failed else 0)
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_every_module_imports_on_its_own_in_a_fresh_interpreter():
    # A fresh interpreter asked for tdadp.a.b runs tdadp/__init__.py (which imports every
    # public module, in its own fixed order), then tdadp/a/__init__.py, then tdadp.a.b: no
    # module of the package can be imported without the top-level package first. So each
    # child forked after `import tdadp` is in the very state a fresh interpreter reaches on
    # its way to the module, and fails exactly when a fresh `import tdadp.a.b` fails (and
    # when `import tdadp` itself fails, the parent says so). Every child used to repeat that
    # whole package import, 120 times (130 s of a 2-core run).
    names = [m for m, _ in MODULES]
    proc = subprocess.run([sys.executable, "-c", _FRESH, *names], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# One folder per system: a file's name says which folder it belongs to.
SYSTEM_WORDS = {"ergm": ("ergm",), "pufferfish": ("quilt", "markov", "wasserstein", "pufferfish")}


@pytest.mark.parametrize("folder,words", sorted(SYSTEM_WORDS.items()))
def test_each_system_lives_in_its_own_folder(folder, words):
    strays = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")
              if p.parent.name != folder and any(w in p.name.lower() for w in words)]
    assert not strays, f"files of tdadp.{folder} outside its folder: {strays}"


@pytest.mark.parametrize("init", sorted(ROOT.glob("*/__init__.py")),
                         ids=lambda p: p.parent.name)
def test_a_folder_exports_only_its_own_names(init):
    # Re-exporting another folder's names is how a concept ends up with two homes.
    for node in ast.walk(ast.parse(init.read_text())):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1 and node.module and node.module.startswith("_"), (
                f"tdadp.{init.parent.name} re-exports from {'.' * node.level}{node.module}")


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_no_private_name_crosses_a_file(module, path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.level or
                                                 (node.module or "").startswith("tdadp")):
            private = [a.name for a in node.names if a.name.startswith("_")]
            assert not private, f"{module} imports private names {private} from {node.module}"


def test_modules_stay_small():
    big = {str(p.relative_to(ROOT)): n for p in ROOT.rglob("*.py")
           if (n := len(p.read_text().splitlines())) > 850}
    assert not big, f"modules over ~800 lines (split them by concept): {big}"


def test_every_public_name_is_at_the_root_and_in_its_own_folder():
    import importlib

    for name in tdadp.__all__:
        obj = getattr(tdadp, name)
        home = getattr(obj, "__module__", "") or ""
        if not home.startswith("tdadp."):
            continue
        folder = importlib.import_module(".".join(home.split(".")[:2]))
        assert getattr(folder, name, None) is obj, f"tdadp.{name} is not in {folder.__name__}"


def test_privacy_holds_only_the_checks():
    import tdadp.privacy

    assert not hasattr(tdadp.privacy, "EdgeFlip")
    assert not hasattr(tdadp.privacy, "PrivacyGuarantee")

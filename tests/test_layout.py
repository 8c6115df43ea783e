"""The library's layout rules, checked statically (ast) and by import:

* no module under src imports another module's private (underscore) name, by ``from x import _y`` or ``x._y``
  (private *modules* such as ``privtest._validate`` or ``privtest_artifact.outputs._co`` may be imported);
* the static import graph of privtest is acyclic (no circular imports, not even lazy ones inside functions);
* one module per output in ``privtest_artifact.outputs`` (``simulate(cfg, rng, inputs)``, no ``claims``) and in
  ``privtest_artifact.outputs`` (``claims(raw, cfg)``, or ``claims(raw, cfg, analysis)`` where ``privtest_artifact.outputs`` has a
  module for the output), for the same outputs;
* no ``hasattr``/``getattr`` probing anywhere in the library, and no ``importlib`` tester loading;
* every entry of Table 1 evaluates (``bounds.Entry.evaluate``) at one common set of parameters.
"""

import ast
import importlib
import inspect
import math
from pathlib import Path

import pytest

from privtest import bounds

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "privtest"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (SRC / rel).with_suffix(".py").is_file() or (SRC / rel / "__init__.py").is_file()


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _privtest_imports(path: Path):
    """(imported module, imported name or None, node) for every privtest import of the file, at any depth."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "privtest":
                    yield a.name, None, node
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "privtest":
            for a in node.names:
                yield node.module, a.name, node


def test_no_module_imports_another_modules_private_name():
    bad = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        aliases = {}  # local name -> privtest module it is bound to
        for mod, imported, node in _privtest_imports(path):
            if imported is None:
                aliases[mod.split(".")[0]] = "privtest"
                continue
            full = f"{mod}.{imported}"
            if _is_module(full):
                aliases[next(a.asname or a.name for a in node.names if a.name == imported)] = full
            elif imported.startswith("_"):
                bad.append(f"{name}: from {mod} import {imported}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not _is_module(f"{aliases[node.value.id]}.{node.attr}")
            ):
                bad.append(f"{name}: {node.value.id}.{node.attr}")
    assert not bad, bad


def test_import_graph_is_acyclic():
    graph = {}
    for name, path in MODULES.items():
        deps = set()
        for mod, imported, _ in _privtest_imports(path):
            full = f"{mod}.{imported}" if imported and _is_module(f"{mod}.{imported}") else mod
            if full != name:
                deps.add(full)
        graph[name] = deps
    state = {}

    def visit(n, stack):
        if state.get(n) == "done":
            return
        assert state.get(n) != "open", "import cycle: " + " -> ".join(stack + [n])
        state[n] = "open"
        for d in sorted(graph.get(n, ())):
            visit(d, stack + [n])
        state[n] = "done"

    for n in sorted(graph):
        visit(n, [])
    assert "privtest.testers" not in graph["privtest.bounds"]


def _outputs(package: str) -> set[str]:
    return {p.stem for p in (PKG / package).glob("*.py") if not p.stem.startswith("_")}


def test_one_experiment_and_one_check_module_per_output():
    experiments, checks = _outputs("experiments"), _outputs("checks")
    assert experiments == checks and len(experiments) >= 22
    for out in sorted(experiments):
        exp = importlib.import_module(f"privtest_artifact.outputs.{out}")
        assert not hasattr(exp, "claims"), f"privtest_artifact.outputs.{out} must not define claims"
        assert list(inspect.signature(exp.simulate).parameters) == ["cfg", "rng", "inputs"], out
        check = importlib.import_module(f"privtest_artifact.outputs.{out}")
        params = list(inspect.signature(check.claims).parameters)
        # an output with an analysis (privtest_artifact.outputs.<id>) may pass its tables to the check
        assert params in (["raw", "cfg"], ["raw", "cfg", "analysis"]), out
    assert _outputs("analysis") <= experiments


def test_notebook_facing_summaries_have_one_name():
    for out in sorted(_outputs("experiments")):
        exp = importlib.import_module(f"privtest_artifact.outputs.{out}")
        assert not hasattr(exp, "summary"), f"privtest_artifact.outputs.{out}: the job is called summarize"


def test_no_attribute_probing_or_dynamic_loading_in_the_library():
    allowed = {
        ("privtest.exact", "getattr"),  # Stream.__post_init__ converts its own declared fields
        # the package's lazy public names (PEP 562 __getattr__ over the literal _EXPORTS table, which the
        # workflow's dependency derivation reads)
        ("privtest", "getattr"),
        ("privtest", "import_module"),
    }
    found = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("hasattr", "getattr")
            ):
                found.add((name, node.func.id))
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
            ):
                found.add((name, "import_module"))
    assert found <= allowed, sorted(found - allowed)


def test_every_table1_entry_evaluates():
    values = dict(t=100, T=100, pstar=0.2, eps=1.0, eps1=0.1, beta=0.05, theta=1.0, gamma=1.5, eps0=0.02, delta=1e-6)
    values["beta_II"] = values["beta"]  # Theorem 31 with beta_t^II = beta (Remark 32), as Table 1
    for e in bounds.TABLE1:
        v = e.evaluate(**values)
        if e.row == "privacy":
            assert isinstance(v, bounds.Privacy), (e.method, e.row)
        elif e.row == "requirement":
            assert v is True, (e.method, e.row)
        else:
            assert isinstance(v, float | int) and math.isfinite(v) and v > 0, (e.method, e.row, v)
    with pytest.raises(TypeError):
        bounds.table1_entry("noise_penalty", "GTM").evaluate(t=1)  # a missing argument is an error, not a default

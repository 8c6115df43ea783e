"""The layout rules of the library ``privtest`` and the artifact ``privtest_artifact``, checked statically (ast) and by
import:

* the library imports nothing from the artifact: no import of ``privtest_artifact`` in ``src/privtest`` at any depth,
  no string naming one of its modules (importlib, ``"module:attribute"``), no import statement naming it in the text
  (the wheel ships ``privtest`` alone);
* no module under src imports another module's private (underscore) name, by ``from x import _y`` or ``x._y``
  (private *modules* such as ``privtest._validate`` or ``privtest_artifact.outputs._co`` may be imported);
* the static import graph of both packages is acyclic (no circular imports, not even lazy ones inside functions);
* one module per output of the catalogue in ``privtest_artifact.outputs``, with exactly ``simulate(cfg, rng,
  inputs)``, ``analyse(raw, cfg)`` and ``claims(tables, cfg)``;
* no ``hasattr``/``getattr`` probing anywhere in either package, and no ``importlib`` tester loading;
* every entry of Table 1 evaluates (``bounds.Entry.evaluate``) at one common set of parameters.
"""

import ast
import importlib
import inspect
import math
import re
from pathlib import Path

import pytest
from privtest_workflow import catalogue

from privtest import bounds

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
#: The library and the artifact (the reproduction): every module of both is checked.
PACKAGES = ("privtest", "privtest_artifact")
LIBRARY, ARTIFACT = PACKAGES
OUTPUTS = "privtest_artifact.outputs"


def _module_name(path: Path, src: Path = SRC) -> str:
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (SRC / rel).with_suffix(".py").is_file() or (SRC / rel / "__init__.py").is_file()


def _modules(package: str) -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / package).rglob("*.py"))}


MODULES = {name: path for package in PACKAGES for name, path in _modules(package).items()}


def _own_imports(path: Path, packages: tuple[str, ...] = PACKAGES, src: Path = SRC):
    """(imported module, imported name or None, node) for every import of one of ``packages`` in the file at
    ``src/<package path>``, at any depth (inside functions, try blocks, ``if TYPE_CHECKING``); relative imports are
    resolved against the file's package."""
    package = _module_name(path, src).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in packages:
                    yield a.name, None, node
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            if module.split(".")[0] in packages:
                for a in node.names:
                    yield module, a.name, node


# --- the library does not depend on the artifact -------------------------------------------------------------------

#: An import statement naming the artifact in source text (a line of code, of an exec'd string, of a doctest):
#: ``from privtest_artifact... import``, or ``import ..., privtest_artifact...`` starting a line or a string.
_ARTIFACT_IMPORT = re.compile(
    rf"\bfrom\s+{ARTIFACT}(?:\.\w+)*\s+import\b"
    rf"|(?:^[ \t>.]*|[;\"'][ \t]*)import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*{ARTIFACT}\b",
    re.MULTILINE,
)
#: A string naming a module of the artifact (as ``importlib.import_module`` or a ``"module:attribute"`` factory would).
_ARTIFACT_STRING = re.compile(rf"^{ARTIFACT}(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*)?$")


def _artifact_references(path: Path, src: Path = SRC) -> list[str]:
    """Where the module at ``path`` (under ``src``) would import the artifact: ast imports at any depth, strings
    naming an artifact module, import statements in its text. Mentions in prose (docstrings, comments) are allowed."""
    source = path.read_text()
    found = [
        f"line {node.lineno}: imports {mod}" + (f" ({name})" if name else "")
        for mod, name, node in _own_imports(path, (ARTIFACT,), src)
    ]
    found += [
        f"line {node.lineno}: names the module {node.value!r}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _ARTIFACT_STRING.match(node.value)
    ]
    found += [
        f"line {source.count(chr(10), 0, m.start()) + 1}: {m.group(0).strip()!r}"
        for m in _ARTIFACT_IMPORT.finditer(source)
    ]
    return found


def test_the_library_imports_nothing_from_the_artifact():
    library = _modules(LIBRARY)
    assert len(library) >= 30 and "privtest.gtm" in library and "privtest.co.graphs" in library
    bad = {name: refs for name, path in library.items() if (refs := _artifact_references(path))}
    assert not bad, bad


@pytest.mark.parametrize(
    "source, found",
    [
        ("import privtest_artifact\n", 2),  # the import node and the import statement
        ("import numpy, privtest_artifact.io as io\n", 2),
        ("import numpy as np, privtest_artifact.io\n", 2),
        ("def f():\n    from privtest_artifact.claims import Claim\n", 2),
        ("try:\n    import privtest_artifact.data\nexcept ImportError:\n    pass\n", 2),
        ("from .. import privtest_artifact\n", 0),  # resolves to privtest.privtest_artifact: not the artifact
        ("import importlib\nimportlib.import_module('privtest_artifact.registry')\n", 1),
        ("F = {'x': 'privtest_artifact.registry:make_tester'}\n", 1),
        ('exec("from privtest_artifact import io")\n', 1),
        ('"""Example.\n\n>>> from privtest_artifact.io import job_rng\n"""\n', 1),
        ('"""Factory for :data:`privtest_artifact.registry.FACTORIES`; see privtest_artifact.io."""\n', 0),
        ("from privtest import gtm  # not privtest_artifact\nimport privtest_artifactual\n", 0),
    ],
)
def test_the_artifact_import_check_can_fail(tmp_path, source, found):
    path = tmp_path / "privtest" / "sub" / "m.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    assert len(_artifact_references(path, tmp_path)) == found, _artifact_references(path, tmp_path)


# --- private names and import cycles, over both packages -----------------------------------------------------------


def test_modules_of_both_packages_are_checked():
    assert {n.split(".")[0] for n in MODULES} == set(PACKAGES)
    assert {"privtest.gtm", "privtest.co.graphs", "privtest_artifact.claims", f"{OUTPUTS}._co"} <= set(MODULES)


def test_no_module_imports_another_modules_private_name():
    bad = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        aliases = {}  # local name -> the module of either package it is bound to
        for mod, imported, node in _own_imports(path):
            if imported is None:
                alias = next(a for a in node.names if a.name == mod)
                if alias.asname:
                    aliases[alias.asname] = mod
                else:
                    aliases[mod.split(".")[0]] = mod.split(".")[0]
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


def _import_graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        deps = set()
        for mod, imported, _ in _own_imports(path):
            full = f"{mod}.{imported}" if imported and _is_module(f"{mod}.{imported}") else mod
            if full != name:
                deps.add(full)
        graph[name] = deps
    return graph


def test_import_graph_is_acyclic():
    graph = _import_graph()
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
    # the graph spans both packages: the artifact's modules import the library's
    assert any(d.split(".")[0] == LIBRARY for d in graph[f"{OUTPUTS}._co"])
    assert any(d.split(".")[0] == ARTIFACT for d in graph[f"{OUTPUTS}.table2"])


# --- one module per output -----------------------------------------------------------------------------------------


def _outputs() -> set[str]:
    return {p.stem for p in (SRC / Path(*OUTPUTS.split("."))).glob("*.py") if not p.stem.startswith("_")}


#: The three stages of an output and their exact parameters.
STAGES = {"simulate": ["cfg", "rng", "inputs"], "analyse": ["raw", "cfg"], "claims": ["tables", "cfg"]}
CATALOGUE = catalogue.load(ROOT)


def test_one_output_module_per_catalogue_output():
    assert _outputs() == set(CATALOGUE) and len(_outputs()) >= 22
    assert catalogue.OUTPUT_MODULE == OUTPUTS + ".{}"


@pytest.mark.parametrize("out", sorted(_outputs()))
def test_an_output_module_has_exactly_simulate_analyse_and_claims(out):
    # an output that draws nothing (catalogue `simulate: false`; its analysis reads other outputs' raw tables) has
    # analyse and claims only
    module = importlib.import_module(f"{OUTPUTS}.{out}")
    stages = STAGES if CATALOGUE[out].simulates else {k: v for k, v in STAGES.items() if k != "simulate"}
    for stage, params in stages.items():
        function = getattr(module, stage, None)
        assert inspect.isfunction(function) and function.__module__ == module.__name__, (out, stage)
        assert list(inspect.signature(function).parameters) == params, (out, stage)
    assert set(STAGES) - set(stages) == {n for n in STAGES if n not in vars(module)}, out


@pytest.mark.parametrize("out", sorted(_outputs()))
def test_notebook_facing_summaries_have_one_name(out):
    module = importlib.import_module(f"{OUTPUTS}.{out}")
    assert not hasattr(module, "summary"), f"{OUTPUTS}.{out}: the job is called summarize"


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

"""The API reference is generated from the docstrings, and the docstrings hold: every public module of the library
declares ``__all__`` (its public names, no imported helper such as ``np`` or ``math``), every public function and
class has an ``Example`` section whose doctests pass, and the Sphinx build of docs/api (``make docs-api``) passes with
warnings as errors and documents every name of ``privtest.__all__``.

The modules are those of the ``privtest`` that is imported (the installed wheel in tests/test_oldest_versions.py's
venv, the checkout's src/privtest under ``make install``); the doctests run with pyproject's
``doctest_optionflags`` (as ``pytest --doctest-modules src/privtest`` does), one test per module."""

import doctest
import importlib
import inspect
import re
import subprocess
import sys
import types
from importlib.util import find_spec
from pathlib import Path

import pytest

import privtest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(privtest.__file__).parent
#: pyproject's doctest_optionflags
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
EXAMPLE = re.compile(r"^\s*Examples?:\s*$", re.MULTILINE)
IMPORTED = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.MULTILINE)


def _public_modules() -> list[str]:
    """Every module of the package whose dotted name has no part starting with an underscore (``__init__`` aside)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if not any(p.startswith("_") for p in parts):
            names.append(".".join(parts))
    return names


MODULES = _public_modules()


def _needs_missing_extra(module: str) -> bool:
    return module == "privtest.opendp" and find_spec("opendp") is None


def _defined_public(mod: types.ModuleType) -> dict[str, object]:
    """The module's public functions and classes that it defines itself (re-exports are checked where defined)."""
    names = mod.__all__ if hasattr(mod, "__all__") else [n for n in vars(mod) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(mod, name, None)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == mod.__name__:
            out[name] = obj
    return out


@pytest.mark.parametrize("module", MODULES)
def test_every_public_module_declares_its_public_names(module):
    mod = importlib.import_module(module)
    assert hasattr(mod, "__all__"), f"{module} has no __all__"
    assert len(set(mod.__all__)) == len(mod.__all__), f"{module}.__all__ repeats a name"
    helpers = []
    for name in mod.__all__:
        if module == "privtest" and name in privtest._OPTIONAL and find_spec(privtest._OPTIONAL[name][0]) is None:
            continue  # a name of a missing optional extra (tests/test_api.py checks what it says)
        assert hasattr(mod, name), f"{module}.__all__ names {name}, which the module does not have"
        obj = getattr(mod, name)
        if inspect.ismodule(obj):
            helpers.append(name)  # np, math, ...
        elif (inspect.isclass(obj) or inspect.isroutine(obj)) and not (obj.__module__ or "").startswith("privtest"):
            helpers.append(name)  # dataclass, Callable, a scipy function, ...: not this library's API
    assert not helpers, f"{module}.__all__ exports imported helpers: {helpers}"


@pytest.mark.parametrize("module", MODULES)
def test_every_public_function_and_class_has_an_example(module):
    if _needs_missing_extra(module):
        pytest.skip("opendp is not installed")
    mod = importlib.import_module(module)
    missing = sorted(
        name
        for name, obj in _defined_public(mod).items()
        if not (
            (doc := inspect.getdoc(obj) or "")
            and (m := EXAMPLE.search(doc))
            and ">>>" in doc[m.end() :]
            and obj.__doc__  # its own docstring, not one inherited from a base class
        )
    )
    assert not missing, f"{module}: no Example section with a doctest in {missing}"


def _missing_imports(test: doctest.DocTest) -> set[str]:
    """The top-level packages a docstring's examples import that are not installed (pandas for the functions that
    take a caller's DataFrame: the library does not depend on it)."""
    names = {m for ex in test.examples for m in IMPORTED.findall(ex.source)}
    return {m for m in names if find_spec(m) is None}


@pytest.mark.parametrize("module", MODULES)
def test_the_doctests_pass(module):
    if _needs_missing_extra(module):
        pytest.skip("opendp is not installed")
    mod = importlib.import_module(module)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out: list[str] = []
    skipped = []
    for test in doctest.DocTestFinder().find(mod, module):
        if missing := _missing_imports(test):
            skipped.append(f"{test.name} (needs {', '.join(sorted(missing))})")
            continue
        runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    if skipped:
        print(f"{module}: not run, a package its examples import is not installed: {skipped}")


@pytest.mark.slow  # about 15 s: Sphinx imports and renders every module
def test_the_api_reference_builds_without_warnings_and_documents_every_public_name(tmp_path):
    pytest.importorskip("sphinx")
    documented = set()
    for page in (ROOT / "docs" / "api").glob("*.rst"):
        documented |= set(re.findall(r"^\.\. automodule:: (\S+)", page.read_text(), re.MULTILINE))
    assert documented == set(MODULES), (sorted(set(MODULES) - documented), sorted(documented - set(MODULES)))
    # the command of `make docs-api`, into a temporary directory; -E: no cached environment
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html"]
    res = subprocess.run(
        [*cmd, "-d", str(tmp_path / "doctrees"), str(ROOT / "docs" / "api"), str(tmp_path / "html")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, f"the API reference has warnings (-W):\n{res.stderr[-20000:]}"
    page = (tmp_path / "html" / "privtest.html").read_text()
    absent = [name for name in privtest.__all__ if f'id="privtest.{name}"' not in page]
    assert not absent, f"not documented on the privtest page: {absent}"

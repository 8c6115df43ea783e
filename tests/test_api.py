"""The public API is one namespace, listed in one place (privtest's module docstring): every name of ``__all__`` is
documented there in the same order and imports from ``privtest`` as the object its module defines; ``dir`` and
``help`` show that API and nothing else (no helper such as ``version``, no loaded submodule); ``import privtest``
loads no submodule; a name of an optional extra that is not installed says which extra to install; the version comes
from the installed package's metadata (one source of truth: pyproject.toml)."""

import importlib
import inspect
import pydoc
import re
import subprocess
import sys
from importlib.metadata import version
from importlib.util import find_spec
from pathlib import Path

import pytest

import privtest

#: A term of the docstring's definition lists: a line that starts with an inline literal and is followed by an
#: indented definition; one or more names per term (``omega(t)``, ``beta_t(t, beta)``, ``zeta()``).
NAME = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)")


def _documented() -> list[str]:
    lines = privtest.__doc__.splitlines()
    terms = [a for a, b in zip(lines, lines[1:], strict=False) if a.startswith("``") and b.startswith("    ")]
    return [n for term in terms for n in NAME.findall(term)]


def _available(name: str) -> bool:
    """Whether the optional extra ``name`` needs (if any) is installed."""
    extra = privtest._OPTIONAL.get(name)
    return extra is None or find_spec(extra[0]) is not None


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_every_public_name_is_documented_in_order_and_is_its_modules_object():
    assert _documented() == privtest.__all__, "the docstring's names differ from __all__ (or their order)"
    assert list(privtest._EXPORTS) == privtest.__all__
    for name, module in privtest._EXPORTS.items():
        if not _available(name):
            continue
        mod = importlib.import_module(module)
        assert getattr(privtest, name) is getattr(mod, name), name
        if hasattr(mod, "__all__"):  # every module's __all__: tests/test_api_reference.py
            assert name in mod.__all__, f"{name} is exported by privtest but is not in {module}.__all__"


def test_no_public_name_is_also_a_submodule():
    # `privtest.audit` cannot be both the function audit and the module privtest.audit: which one
    # `from privtest import audit` returns would depend on what was imported first
    package = Path(privtest.__file__).parent
    submodules = {p.stem for p in package.glob("*.py")} | {p.parent.name for p in package.glob("*/__init__.py")}
    assert not set(privtest.__all__) & submodules


def test_the_deeper_tools_modules_are_attributes_loaded_on_first_use():
    # the auditor's witness search is privtest.audit.audit after a bare `import privtest`, as scipy.stats after
    # `import scipy`; every listed module is documented in the package docstring and is a real submodule
    res = _python(
        "import sys, privtest; assert 'privtest.audit' not in sys.modules; "
        "from privtest.audit import audit; assert privtest.audit.audit is audit; "
        "from privtest import audit as module; assert module is sys.modules['privtest.audit']; print('ok')"
    )
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr
    for name in privtest._SUBMODULES:
        assert f":mod:`privtest.{name}`" in privtest.__doc__, name
        assert getattr(privtest, name) is importlib.import_module(f"privtest.{name}")
    with pytest.raises(AttributeError):
        privtest.not_a_module  # noqa: B018


def test_dir_and_help_show_the_public_api_only():
    shown = {n for n in dir(privtest) if not (n.startswith("__") and n.endswith("__"))}
    assert shown == {n for n in privtest.__all__ if _available(n)} | set(privtest._SUBMODULES)
    helpers = ("version", "importlib", "annotations", "PackageNotFoundError", "gtm", "mechanisms", "__getattr__")
    for helper in helpers:
        assert helper not in dir(privtest)
    with pytest.raises(AttributeError):
        privtest.version  # noqa: B018
    listed = {n for n, _ in inspect.getmembers(privtest) if not n.startswith("_")}  # what help(privtest) lists
    assert listed == shown
    text = pydoc.render_doc(privtest, renderer=pydoc.plaintext)
    assert "FUNCTIONS" in text and "class GTMTester" in text and "importlib" not in text and "__dir__" not in text


def test_importing_privtest_loads_no_submodule():
    res = _python(
        "import sys, privtest; "
        "print(sorted(m for m in sys.modules if m.startswith(('privtest.', 'numpy', 'scipy', 'importlib.metadata'))))"
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_a_missing_extra_names_itself():
    # opendp made unimportable (sys.modules[name] = None): find_spec reports it missing
    res = _python(
        "import sys; sys.modules['opendp'] = None\n"
        "import pydoc, privtest\n"
        "assert 'make_gtm' not in dir(privtest) and 'make_gtm' in privtest.__all__\n"
        "pydoc.render_doc(privtest)  # help(privtest) still works\n"
        "from privtest import make_gtm\n"
    )
    assert res.returncode == 1
    assert res.stderr.strip().splitlines()[-1] == (
        'ModuleNotFoundError: privtest.make_gtm needs opendp, an optional dependency: pip install "privtest[opendp]"'
    )


def test_version_is_the_package_metadata_and_py_typed_ships():
    assert privtest.__version__ == version("privtest")
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert f'version = "{privtest.__version__}"' in pyproject
    assert (Path(privtest.__file__).parent / "py.typed").is_file()

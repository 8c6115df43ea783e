"""The public API is listed in one place (privtest's module docstring): every name of ``__all__`` is documented there,
every documented name exists (``module.name`` entries are imported from that submodule), and the version comes from
the installed package's metadata (one source of truth: pyproject.toml)."""

import importlib
import re
from importlib.metadata import version
from pathlib import Path

import privtest

ENTRY = re.compile(r"^    ((?:[a-z_]+\.)?[A-Za-z_][A-Za-z0-9_]*)(?:\(|\s|,|$)", re.MULTILINE)


def _documented() -> set[str]:
    names = set()
    for line in privtest.__doc__.splitlines():
        m = ENTRY.match(line)
        if m:
            names.add(m.group(1))
            # "omega(t), beta_t(t, beta), zeta()" and "lambda_left(...), lambda_right(...)": several names per entry
            head = re.split(r"\s{2,}", line.strip())[0]  # the signature part, before the description
            names |= set(re.findall(r"(?:^|, )([A-Za-z_][A-Za-z0-9_]*)\(", head))
    return names


def test_every_public_name_is_documented_and_every_documented_name_exists():
    documented = _documented()
    top = {n for n in documented if "." not in n}
    assert set(privtest.__all__) == top, (sorted(set(privtest.__all__) - top), sorted(top - set(privtest.__all__)))
    for name in privtest.__all__:
        assert hasattr(privtest, name), name
    for qualified in sorted(n for n in documented if "." in n):
        module, name = qualified.rsplit(".", 1)
        mod = importlib.import_module(f"privtest.{module}")
        assert name in vars(mod), qualified


def test_version_is_the_package_metadata_and_py_typed_ships():
    assert privtest.__version__ == version("privtest")
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert f'version = "{privtest.__version__}"' in pyproject
    assert (Path(privtest.__file__).parent / "py.typed").is_file()

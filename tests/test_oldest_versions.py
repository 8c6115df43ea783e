"""The library works with the oldest versions its ranges admit: the lower bounds of pyproject.toml's core dependencies
(numpy, scipy, mpmath) and of the ``opendp`` extra are the versions tested here, so they are claims, not guesses.

A fresh venv gets exactly those versions from the index (``name==lower bound``, wheels only), pytest and the other
test tools at their requirements.lock pins, and the wheel with ``--no-deps``; nothing else (no pandas: the library
does not need it). In it, with pytest's pythonpath emptied (``-o pythonpath=``: ``import privtest`` finds the
installed wheel, never the checkout's src), run the library's own tests (:func:`test_packaging.library_tests`: the
test files that import no reproduction code). Among them, tests/test_api_reference.py runs the doctests of every
module of the installed package with pyproject's doctest flags (what ``pytest --doctest-modules`` runs), leaving out
only the docstrings whose examples import a package that is not installed (pandas, for the functions that take a
caller's DataFrame). ``make test-oldest`` runs this test alone; ``make test`` runs it in its unit tier."""

import json
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from test_packaging import ROOT, library_tests

#: The extras whose lower bounds are tested too (the library's tests of them run in the venv).
EXTRAS = ("opendp",)


def lower_bounds() -> dict[str, str]:
    """Canonical name -> the lower bound (``>=``) of every core dependency and of the :data:`EXTRAS`' dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *(r for e in EXTRAS for r in project["optional-dependencies"][e])]
    bounds = {}
    for req in map(Requirement, requirements):
        (low,) = [s.version for s in req.specifier if s.operator == ">="]  # every range has exactly one lower bound
        bounds[canonicalize_name(req.name)] = low
    return bounds


def _run(cmd, **kw) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the venv's own paths only
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)
    assert res.returncode == 0, f"{' '.join(map(str, cmd))}\n{res.stdout[-6000:]}\n{res.stderr[-3000:]}"
    return res.stdout


def test_every_core_dependency_has_a_lower_bound():
    assert set(lower_bounds()) == {"numpy", "scipy", "mpmath", "opendp"}


@pytest.mark.slow
@pytest.mark.packaging
def test_the_library_passes_its_tests_at_the_lower_bounds(tmp_path, privtest_wheel):
    start = time.monotonic()
    oldest = lower_bounds()
    wheel = privtest_wheel
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    py = venv / "bin" / "python"
    # the test tools and what the oldest versions pull in (opendp's Deprecated) at their locked versions
    pins = [line.strip() for line in (ROOT / "requirements.lock").read_text().splitlines() if "==" in line]
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("\n".join(p for p in pins if canonicalize_name(p.split("==")[0]) not in oldest) + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--only-binary=:all:"]
    _run([*pip, "-c", str(constraints), *(f"{n}=={v}" for n, v in sorted(oldest.items())), "pytest"])
    _run([*pip, "--no-deps", str(wheel)])
    listing = "import json, importlib.metadata as m; "
    listing += "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"
    found = {canonicalize_name(n): v for n, v in json.loads(_run([str(py), "-c", listing])).items()}
    assert {n: found.get(n) for n in oldest} == oldest, "the venv does not hold exactly the lower bounds"
    where = _run([str(py), "-c", "import privtest, pathlib; print(pathlib.Path(privtest.__file__).parent)"], cwd=ROOT)
    assert venv in Path(where.strip()).parents, "privtest is not imported from the installed wheel"
    # the library's tests, its doctests among them, against the wheel
    selection = library_tests()
    assert "tests/test_api_reference.py" in selection  # the doctests of every module
    pytest_ = [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "pythonpath="]
    out = _run([*pytest_, "-m", "not workflow and not slurm and not packaging", *selection], cwd=ROOT)
    assert " passed" in out and " failed" not in out
    versions = ", ".join(f"{n} {v}" for n, v in sorted(oldest.items()))
    print(f"oldest versions ({versions}), {time.monotonic() - start:.0f} s: {out.strip().splitlines()[-1]}")

"""privtest installs as a library from pyproject.toml's compatible ranges alone, and its core is small.

The core: ``pip install privtest`` (no extra) resolves, against the index, to the library with numpy, scipy and mpmath
and nothing else. The ranges: build the wheel; let pip resolve ``privtest[test]`` from the ranges (not from
requirements.lock) against the index (``pip install --dry-run --report``: needs PyPI); install that resolved set into
a fresh venv, reusing the distributions ``make install`` already installed where the resolved version is the locked
one (the new venv reads them from .venv's site-packages, after its own) and installing only the others; then run
tests against the installed wheel (not the source tree): the library's own tests (:func:`library_tests`, fast tier)
when a direct dependency of privtest resolves to another version than the lock's (the main run has not tested that
version), else the API test, plus an import of every module of the wheel. The lower ends of the ranges:
tests/test_oldest_versions.py."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
FAST_TIER = "not workflow and not slow and not slurm"
SMOKE = ("tests/test_api.py",)


def library_tests() -> list[str]:
    """The test files of the library alone: they import no reproduction code (``privtest_artifact``, the workflow's
    ``privtest_workflow``, the repository copies or the can-fail helpers)."""
    artifact = ("privtest_artifact", "privtest_workflow", "repo_copies", "can_fail")
    return sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "tests").glob("test_*.py")
        if not any(name in p.read_text() for name in artifact)
    )


def _run(cmd, **kw):
    # without the test process's PYTHONPATH: importing privtest_workflow (any test of the session may have) puts the
    # checkout's src on it for the workflow's jobs, and the fresh venv must import the installed wheel, not src
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)
    assert res.returncode == 0, f"{' '.join(map(str, cmd))}\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res.stdout


def _locked() -> dict[str, str]:
    """Canonical name -> version pinned in requirements.lock."""
    pins = [line.split("==") for line in (ROOT / "requirements.lock").read_text().split() if "==" in line]
    return {canonicalize_name(n): v for n, v in pins}


def build_wheel(tmp_path: Path) -> Path:
    """The wheel, built from a copy of what it needs (setuptools' build/ directory never lands in the work tree)."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(tree)])
    (wheel,) = dist.glob("privtest-*.whl")
    return wheel


def _resolved(wheel_spec: str, report: Path) -> dict[str, dict]:
    """Canonical name -> metadata of every distribution pip would install for ``wheel_spec`` into an empty
    environment, resolved against the index."""
    pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
    _run([*pip, "--report", str(report), wheel_spec])
    return {canonicalize_name(i["metadata"]["name"]): i["metadata"] for i in json.loads(report.read_text())["install"]}


@pytest.mark.slow
@pytest.mark.packaging
def test_the_core_is_numpy_scipy_and_mpmath(tmp_path, privtest_wheel):
    wheel = privtest_wheel
    resolved = _resolved(str(wheel), tmp_path / "report.json")
    assert set(resolved) == {"privtest", "numpy", "scipy", "mpmath"}, sorted(resolved)


@pytest.mark.slow
@pytest.mark.packaging
def test_wheel_installs_from_ranges_into_a_fresh_venv_and_passes_its_tests(tmp_path, privtest_wheel):
    start = time.monotonic()
    wheel = privtest_wheel
    # What pip installs from the ranges alone (every dependency resolved against the index, nothing installed).
    pip = [sys.executable, "-m", "pip"]
    installs = _resolved(f"{wheel}[test]", tmp_path / "report.json")
    resolved = {n: m["version"] for n, m in installs.items()}
    direct = {canonicalize_name(Requirement(r).name) for r in installs["privtest"].get("requires_dist", [])}
    locked = _locked()
    assert resolved.pop("privtest") == wheel.name.split("-")[1]
    assert {"numpy", "scipy", "snakemake", "pytest", "pytest-xdist"} <= set(resolved)
    others = sorted(f"{n}=={v}" for n, v in resolved.items() if locked.get(n) != v)
    # The fresh venv: its own site-packages (the wheel and the versions the lock does not have) before .venv's.
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    py = venv / "bin" / "python"
    own = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip())
    (own / "zz_locked.pth").write_text(sysconfig.get_path("purelib") + "\n")  # a path entry: its .pth files unread
    _run([*pip, "--python", str(py), "install", "--no-deps", "--quiet", str(wheel), *others])
    listing = "import json, importlib.metadata as m; "
    listing += "print(json.dumps([[d.metadata['Name'], d.version] for d in m.distributions()]))"
    found: dict[str, str] = {}
    for name, v in json.loads(_run([str(py), "-c", listing])):
        found.setdefault(canonicalize_name(name), v)  # the first on sys.path is the one imported
    assert {n: found.get(n) for n in resolved} == resolved, "the venv does not hold the resolved set"
    # The package under test is the installed wheel: its files live in the venv and it ships py.typed.
    where = _run([str(py), "-c", "import privtest, pathlib; print(pathlib.Path(privtest.__file__).parent)"], cwd=ROOT)
    pkg = Path(where.strip())
    assert venv in pkg.parents and (pkg / "py.typed").is_file()
    modules = sorted(
        ".".join(("privtest", *p.relative_to(pkg).with_suffix("").parts)).removesuffix(".__init__")
        for p in pkg.rglob("*.py")
    )
    _run([str(py), "-c", f"import importlib; [importlib.import_module(m) for m in {modules!r}]"], cwd=ROOT)
    moved = sorted(n for n in direct if n in resolved and locked.get(n) != resolved[n])
    # the library's own tests (those that use no reproduction code), against the wheel: pytest's pythonpath
    # (src, workflow/lib) emptied so that `import privtest` finds the installed wheel, never the source tree
    selection = ["-o", "pythonpath=", "-m", FAST_TIER, *(library_tests() if moved else SMOKE)]
    # the fast tier as `make test-fast` selects it (a later -m replaces pyproject's "not slurm")
    out = _run([str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", *selection], cwd=ROOT)
    assert " passed" in out and " failed" not in out
    summary = out.strip().splitlines()[-1]
    print(f"resolved {len(resolved)} distributions, not the locked version: {others}; direct ones: {moved}")
    print(f"fresh venv from the ranges + tests: {time.monotonic() - start:.0f} s\n{summary}")

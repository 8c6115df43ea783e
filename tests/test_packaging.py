"""privtest installs as a library from pyproject.toml's compatible ranges alone: build the wheel, install it with the
``test`` extra into a fresh venv (pip resolves every dependency from the ranges, not from requirements.lock), and
run the fast test tier against the installed package (not the source tree). Needs PyPI; minutes."""

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAST_TIER = "not workflow and not slow and not slurm"


def _run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert res.returncode == 0, f"{' '.join(map(str, cmd))}\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res.stdout


@pytest.mark.slow
@pytest.mark.packaging
def test_wheel_installs_from_ranges_into_a_fresh_venv_and_passes_the_fast_tier(tmp_path):
    start = time.monotonic()
    # Build from a copy of what the wheel needs, so setuptools' build/ directory never lands in the work tree.
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(tree)])
    (wheel,) = dist.glob("privtest-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "--quiet", f"{wheel}[test]"])
    frozen = _run([str(py), "-m", "pip", "freeze"])
    assert "privtest @ file" in frozen or "privtest==" in frozen
    # The package under test is the installed wheel: its files live in the venv and it ships py.typed.
    where = _run([str(py), "-c", "import privtest, pathlib; print(pathlib.Path(privtest.__file__).parent)"], cwd=ROOT)
    pkg = Path(where.strip())
    assert venv in pkg.parents and (pkg / "py.typed").is_file()
    out = _run(
        # the fast tier, as `make test-fast` selects it (a later -m replaces pyproject's "not slurm")
        [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", FAST_TIER, "tests"],
        cwd=ROOT,
    )
    assert " passed" in out and " failed" not in out
    print(f"fresh-venv install + fast tier: {time.monotonic() - start:.0f} s\n{out.strip().splitlines()[-1]}")

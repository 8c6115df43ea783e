"""The library's wheel holds the library only: ``privtest`` and its subpackages, never the reproduction code of
``src/privtest_artifact`` (which runs from the checkout), and the library imports nothing from the artifact (checked
statically in tests/test_layout.py)."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # builds the wheel with pip (build isolation: setuptools from the index)
def test_wheel_contains_the_library_and_no_artifact_module(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    dist = tmp_path / "dist"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist)]
    res = subprocess.run([*cmd, str(tree)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    (wheel,) = dist.glob("privtest-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"privtest"}, sorted(top)
    shipped = {n for n in names if n.endswith(".py")}
    library = {p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src" / "privtest").rglob("*.py")}
    assert shipped == library  # every library module, nothing else
    assert not any("privtest_artifact" in n for n in names)

"""Every workflow job starts a Python process that imports the library and its output's module: about 100 jobs in the
default run. ``scipy.stats`` alone costs ~0.4 s of CPU to import (0.5 s against 1.1 s for an output module), and
``scipy.integrate``, ``scipy.optimize``, ``scipy.sparse`` and ``scipy.linalg`` together another ~0.3 s, so the modules
import them on use, in the few functions that call them. This keeps it that way: importing the library, every output
module and the plotting helpers must import none of them. The notebook jobs' driver
(workflow/scripts/run_notebook.py) only writes text files: its helpers must not import numpy or pandas."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Imported on use only (in the functions that call them), never by importing a module of the library or artifact.
ON_USE = ("scipy.stats", "scipy.integrate", "scipy.optimize", "scipy.sparse", "scipy.linalg")

PROBE = f"""
import importlib, pkgutil, sys
ON_USE = {ON_USE!r}
import privtest, privtest_artifact.outputs as outputs
for pkg in (privtest,):
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if m.name != "privtest.opendp":  # the OpenDP bridge imports OpenDP, on request only
            importlib.import_module(m.name)
for m in pkgutil.iter_modules(outputs.__path__):
    importlib.import_module("privtest_artifact.outputs." + m.name)
import privtest_artifact.claims, privtest_artifact.plotting, privtest_artifact.io
print(" ".join(m for m in ON_USE if m in sys.modules))
"""

#: What workflow/scripts/run_notebook.py imports from the artifact (the notebook's kernel is another process).
DRIVER_PROBE = """
import sys
from privtest_artifact import provenance
from privtest_artifact.io import write_text_atomic
print(" ".join(m for m in ("numpy", "pandas", "tqdm") if m in sys.modules))
"""


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env={"PYTHONPATH": "src"}
    )
    return out.stdout.strip()


def test_library_and_output_modules_do_not_import_slow_scipy_modules():
    loaded = _run(PROBE)
    assert loaded == "", f"a module imports {loaded} at import time: import it in the function that uses it"


def test_the_probe_sees_an_import_of_scipy_stats():
    """The probe can fail: a module that imports scipy.stats at import time is seen."""
    assert _run("import scipy.stats\n" + PROBE) != ""


def test_the_notebook_driver_imports_neither_numpy_nor_pandas():
    loaded = _run(DRIVER_PROBE)
    assert loaded == "", f"privtest_artifact.io or .provenance imports {loaded} at import time"


def test_the_driver_probe_sees_an_import_of_pandas():
    assert "pandas" in _run("import pandas\n" + DRIVER_PROBE)

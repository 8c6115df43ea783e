"""Every workflow job starts a Python process that imports the library and its output's module: about 90 jobs in the
default run. ``scipy.stats`` alone costs ~0.4 s of CPU to import (0.5 s against 1.1 s for an output module), so the
modules import it on use, in the few functions that call it. This keeps it that way: importing the library, every
output module and the plotting helpers must not import ``scipy.stats``."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import importlib, pkgutil, sys
import privtest, privtest_artifact.outputs as outputs
for pkg in (privtest,):
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if m.name != "privtest.opendp":  # the OpenDP bridge imports OpenDP, on request only
            importlib.import_module(m.name)
for m in pkgutil.iter_modules(outputs.__path__):
    importlib.import_module("privtest_artifact.outputs." + m.name)
import privtest_artifact.claims, privtest_artifact.plotting, privtest_artifact.io
print("scipy.stats" in sys.modules)
"""


def test_library_and_output_modules_do_not_import_scipy_stats():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True, env={"PYTHONPATH": "src"}
    )
    assert out.stdout.strip() == "False", "a module imports scipy.stats at import time: import it in the function"


def test_the_probe_sees_an_import_of_scipy_stats():
    """The probe can fail: a module that imports scipy.stats at import time is seen."""
    out = subprocess.run(
        [sys.executable, "-c", "import scipy.stats\n" + PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": "src"},
    )
    assert out.stdout.strip() == "True"

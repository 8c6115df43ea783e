"""Workflow-side helpers of privtest (not part of the library): the output catalogue (``config/catalogue.yaml``) and
the code files each job depends on, derived from its imports. Imported by ``workflow/rules/common.smk``, the job
scripts and the tests.

Importing it puts this checkout's ``src`` first on ``sys.path`` and on ``PYTHONPATH`` (which every job, notebook
kernel and cluster job started from this process inherits): the artifact package ``privtest_artifact`` is not in
the library's wheel and runs from the checkout, so the workflow finds it however the library was installed.
"""

import os
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[3] / "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)
_paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
if SRC not in _paths:
    os.environ["PYTHONPATH"] = os.pathsep.join([SRC, *_paths])

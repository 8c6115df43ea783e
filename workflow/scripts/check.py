"""Snakemake script: check the paper's claims on one output's raw results -> ``results/claims/<id>.csv``.

Reads ``results/raw/<id>.csv`` with ``pandas.read_csv``, calls ``<module>.claims(raw, cfg)`` (with
``analysis=`` the output's analysis tables, :func:`privtest.analysis.read` of ``results/analysis/<id>/``, where
the output has an analysis), decides the statistical
claims at the output's family-wise level (:func:`privtest.claims.family_alpha` of the catalogue's number of outputs)
and writes the claims with exactly :data:`privtest.claims.COLUMNS`. Runs without any notebook: editing a notebook never
reruns a check. A failing check leaves its full traceback in the rule's log (``privtest_workflow.joblog``).
"""

import importlib
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # opened before the library is imported: an import error is logged too

from privtest.analysis import read  # noqa: E402
from privtest.claims import family_alpha, to_frame  # noqa: E402
from privtest.io import write_csv_atomic  # noqa: E402

exp = sm.wildcards.id
module = importlib.import_module(sm.params.module)
tables = {"analysis": read(sm.input.analysis)} if "analysis" in sm.input.keys() else {}
claims = module.claims(pd.read_csv(sm.input.raw), dict(sm.params.cfg), **tables)
frame = to_frame(claims, exp, alpha=family_alpha(sm.params.n_outputs))
write_csv_atomic(frame, sm.output.claims)
print(
    f"{exp}: {len(frame)} claims, " + ", ".join(f"{v} {n}" for v, n in frame["verdict"].value_counts().items()),
    file=log,
)

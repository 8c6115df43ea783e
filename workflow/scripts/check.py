"""Snakemake script: check the paper's claims on one output's analysis tables -> ``results/claims/<id>.csv``.

Calls ``<module>.claims(tables, cfg)`` on the output's analysis tables (:func:`privtest_artifact.io.read_analysis` of
``results/analysis/<id>/``; ``module`` is ``privtest_artifact.outputs.<id>``), decides the statistical claims at the
output's family-wise level (:func:`privtest_artifact.claims.family_alpha` of the catalogue's number of outputs) and
writes the claims with exactly :data:`privtest_artifact.claims.COLUMNS`. Runs without the raw results or any notebook:
editing a notebook never reruns a check. A failing check leaves its full traceback in the rule's log
(``privtest_workflow.joblog``).
"""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # opened before the library is imported: an import error is logged too

from privtest_artifact.claims import family_alpha, to_frame  # noqa: E402
from privtest_artifact.io import read_analysis, write_csv_atomic  # noqa: E402

exp = sm.wildcards.id
module = importlib.import_module(sm.params.module)
claims = module.claims(read_analysis(sm.input.analysis), dict(sm.params.cfg))
frame = to_frame(claims, exp, alpha=family_alpha(sm.params.n_outputs))
write_csv_atomic(frame, sm.output.claims)
print(
    f"{exp}: {len(frame)} claims, " + ", ".join(f"{v} {n}" for v, n in frame["verdict"].value_counts().items()),
    file=log,
)

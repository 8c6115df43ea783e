"""Snakemake script: run ``<module>.analyse(raw, cfg)`` for one output and write its results tables.

``module`` is ``privtest_artifact.outputs.<id>``; ``raw`` is ``results/raw/<id>.csv`` read with ``pandas.read_csv``
(what was
drawn), or, for an output whose analysis reads other outputs' raw tables (catalogue ``reads``), ``{name: DataFrame}``
of those and of its own (if it has a simulation); ``cfg`` is the output's whole config section, analysis keys
(``x-stage: analysis``) included. The tables go to
``results/analysis/<id>/<name>.csv`` (:func:`privtest_artifact.io.write_analysis`, each file atomically), which the
check, the
notebook and the generated documentation read. A failing analysis leaves its full traceback in the rule's log
(``privtest_workflow.joblog``).
"""

import importlib
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # opened before the library is imported: an import error is logged too

from privtest_artifact.io import write_analysis  # noqa: E402

exp = sm.wildcards.id
start = time.perf_counter()
module = importlib.import_module(sm.params.module)
if sm.params.reads:
    raw = {name: pd.read_csv(sm.input[f"raw_{name}"]) for name in sm.params.reads}
else:
    raw = pd.read_csv(sm.input.raw)
tables = module.analyse(raw, dict(sm.params.cfg))
write_analysis(tables, sm.output.analysis)
rows = ", ".join(f"{name} {len(frame)} rows" for name, frame in tables.items())
print(f"{exp}: {rows} in {time.perf_counter() - start:.1f} s", file=log)

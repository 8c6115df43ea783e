"""Snakemake script: the generated documentation of a run (privtest.docs), under the config's docs root.

Writes docs/results/<id>.md for every output and docs/results/README.md from figures/claims.csv, the outputs' run
times (results/benchmarks/), the tables' figures/<id>.md and, where they exist, results/analysis/<id>.csv; the
snapshots they are rendered from (docs/results/claims.csv, docs/results/runtimes.csv, so that tests/test_docs.py
can render them again from committed files); and each document of DOCUMENTS (docs.smk) with its generated blocks
rendered from the same claims and benchmarks/reproduction_time.json.
"""

import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log

from privtest_workflow.captions import title_cell  # noqa: E402

from privtest import docs  # noqa: E402
from privtest.io import write_csv_atomic, write_text_atomic  # noqa: E402

outputs = [
    docs.OutputInfo(o["id"], o["kind"], o["section"], title_cell(f"notebooks/{o['id']}.ipynb"))
    for o in sm.params.outputs
]
ids = [o.id for o in outputs]
claims = pd.read_csv(sm.input.claims, dtype=str, keep_default_na=False)
runtimes = docs.read_runtimes("results/benchmarks", ids)
tables = {o.id: Path(f"figures/{o.id}.md").read_text() for o in outputs if o.kind == "table"}
analyses = {Path(p).stem: pd.read_csv(p) for p in sm.input.analysis}
write_csv_atomic(claims, sm.output.claims)
write_csv_atomic(runtimes, sm.output.runtimes)
for path, text in docs.render_all(outputs, claims, runtimes, tables, analyses).items():
    write_text_atomic(text, str(Path(sm.params.root, path)))
measurement = json.loads(Path(sm.input.measurement).read_text())
bodies = docs.standard_blocks(claims, measurement, ids)
for document, target in zip(sm.params.documents, sm.output.documents, strict=True):
    write_text_atomic(docs.render_blocks(Path(document).read_text(), bodies), target)
    print(f"{document} -> {target}: blocks {docs.block_names(Path(document).read_text())}", file=log)

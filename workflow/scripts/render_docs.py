"""Snakemake script: the generated documentation of a run (privtest_artifact.docs), under the config's docs root.

Writes docs/results/<id>.md for every output, docs/results/README.md and the index by paper result
docs/paper_index.md from figures/claims.csv, the committed
per-job measurement record benchmarks/job_times.csv (never this run's results/benchmarks/), the tables'
figures/<id>.md and the analysis tables results/analysis/<id>/<name>.csv of the outputs that have them (those
that only repeat an output's data, figures/data/<id>*.csv or a table's figures/<id>.csv, are linked, not drawn); the
snapshot they are rendered from
(docs/results/claims.csv, so that tests/test_docs.py can render them again from committed files); and each document
of DOCUMENTS (docs.smk) with its generated blocks rendered from the same claims and benchmarks/reproduction_time.json.
All of it is privtest_artifact.docs.render_repository: a pure function of those tracked inputs.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log

from privtest_workflow.captions import title_cell  # noqa: E402

from privtest_artifact import docs  # noqa: E402
from privtest_artifact.io import write_text_atomic  # noqa: E402

outputs = [
    docs.OutputInfo(o["id"], o["kind"], o["section"], title_cell(f"notebooks/{o['id']}.ipynb"))
    for o in sm.params.outputs
]
files = docs.render_repository(".", outputs, sm.params.documents, sm.input.analysis)
targets = dict(zip(sm.params.documents, sm.output.documents, strict=True))
for path, text in files.items():
    write_text_atomic(text, targets.get(path, str(Path(sm.params.root, path))))
for document, target in targets.items():
    print(f"{document} -> {target}: blocks {docs.block_names(Path(document).read_text())}", file=log)

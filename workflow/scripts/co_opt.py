"""Snakemake script: exact OPT_t of densest subgraph for one CO stream (Charikar's LP) -> results/co/opt_<s>.csv."""

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log

from privtest.co.graphs import densest_subgraph_opt  # noqa: E402
from privtest_artifact.data import load_stream  # noqa: E402
from privtest_artifact.io import write_csv_atomic  # noqa: E402

stream = load_stream(sm.wildcards.stream, sm.input.wheel, sm.params.T_max)
opt, kind = densest_subgraph_opt(stream, sm.params.stride)
table = pd.DataFrame({"t": range(1, stream.T + 1), "label": stream.labels, "opt": opt, "opt_kind": kind})
write_csv_atomic(table, sm.output.opt)
print(f"{sm.wildcards.stream}: OPT_t for {stream.T} steps (stride {sm.params.stride})", file=log)

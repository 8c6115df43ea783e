"""Snakemake script: exact OPT_t of densest subgraph for one CO stream (Charikar's LP) -> results/co/opt_<s>.csv."""

import pandas as pd

from privtest.co.graphs import densest_subgraph_opt, load_stream
from privtest.io import write_csv_atomic

sm = snakemake  # noqa: F821  (injected by Snakemake)
stream = load_stream(sm.wildcards.stream, sm.input.wheel, sm.params.T_max)
opt, kind = densest_subgraph_opt(stream, sm.params.stride)
table = pd.DataFrame({"t": range(1, stream.T + 1), "label": stream.labels, "opt": opt, "opt_kind": kind})
write_csv_atomic(table, sm.output.opt)

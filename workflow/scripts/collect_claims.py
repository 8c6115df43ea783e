"""Snakemake script: concatenate every experiment's claims into figures/claims.csv and figures/claims.md."""

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

from privtest.claims import COLUMNS  # noqa: E402
from privtest.io import write_csv_atomic, write_text_atomic  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log
frames = [pd.read_csv(path, dtype=str, keep_default_na=False) for path in sm.input]
claims = pd.concat(frames, ignore_index=True)[COLUMNS]
write_csv_atomic(claims, sm.output.csv)
counts = claims["verdict"].value_counts()
lines = [
    "# Claims checked by this reproduction",
    "",
    f"{len(claims)} claims: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("PASS", "FAIL", "INCONCLUSIVE")) + ".",
    "Verdicts come from 95% confidence intervals (Monte Carlo) or exact computation; see README for tolerances.",
    "",
]
for exp, group in claims.groupby("experiment", sort=False):
    lines += [f"## {exp}", "", "| claim | source | measured | bound | verdict | note |", "|---|---|---|---|---|---|"]
    for row in group.itertuples():
        note = row.note.replace("|", "\\|")
        lines.append(f"| `{row.claim_id}` | {row.source} | {row.measured} | {row.bound} | **{row.verdict}** | {note} |")
    lines.append("")
write_text_atomic("\n".join(lines), sm.output.md)
print(counts.to_string(), file=log)

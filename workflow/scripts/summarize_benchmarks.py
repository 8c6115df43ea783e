"""Snakemake script: per-job wall times from Snakemake's benchmark files -> figures/benchmarks.md."""

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log

from privtest_artifact.io import write_text_atomic  # noqa: E402

rows = []
for tsv in sorted(Path("results/benchmarks").rglob("*.tsv")):
    bench = pd.read_csv(tsv, sep="\t")
    rows.append(
        {
            "rule": tsv.parent.name,
            "job": tsv.stem,
            "s": float(bench["s"].iloc[-1]),
            "max_rss_mb": float(bench["max_rss"].iloc[-1]) if "max_rss" in bench else float("nan"),
        }
    )
table = pd.DataFrame(rows).sort_values(["rule", "s"], ascending=[True, False])
lines = [
    "# Per-job run times",
    "",
    "Wall time of each job's last run (Snakemake `benchmark:` files under "
    "`results/benchmarks/`). Jobs run in parallel, so the total is CPU-seconds, not the reproduction's wall time.",
    "",
    "| rule | job | seconds | max RSS (MB) |",
    "|---|---|---:|---:|",
]
lines += [f"| {r.rule} | {r.job} | {r.s:.1f} | {r.max_rss_mb:.0f} |" for r in table.itertuples()]
for rule, group in table.groupby("rule"):
    lines.append(f"| **{rule} total** | | **{group.s.sum():.1f}** | |")
lines.append(f"| **all jobs** | | **{table.s.sum():.1f}** | |")
write_text_atomic("\n".join(lines) + "\n", sm.output[0])
print(table.to_string(index=False), file=log)

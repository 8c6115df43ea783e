"""Snakemake script: concatenate every output's claims into figures/claims.csv and figures/claims.md (and its HTML
rendering for the report, figures/claims.html).

``claims.md`` opens with a summary (counts per verdict kind, per paper section, and the error policy in words), then
lists each output's claims.
"""

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402
from privtest_workflow.reporting import write_markdown_html  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # a failure leaves its traceback in the rule's log

from privtest_artifact.claims import COLUMNS, FILE_ALPHA, PASS_CONFIDENCE, VERDICTS, family_alpha  # noqa: E402
from privtest_artifact.docs import VERDICTS_DOC  # noqa: E402  (where the verdicts are defined, the one place)
from privtest_artifact.io import write_csv_atomic, write_text_atomic  # noqa: E402


def summary(claims: pd.DataFrame, sections: dict[str, str]) -> list[str]:
    """Markdown lines: counts per kind, a section x kind table and the policy."""
    n_out = len(sections)
    counts = claims["verdict"].value_counts()
    by_section = claims.assign(section=claims["experiment"].map(sections)).pivot_table(
        index="section", columns="verdict", values="claim_id", aggfunc="count", fill_value=0, sort=False
    )
    by_section = by_section.reindex(columns=list(VERDICTS), fill_value=0)
    lines = [
        "# Claims checked by this reproduction",
        "",
        f"{len(claims)} claims: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS) + ".",
        "",
        f"What each verdict means: [docs/claims.md](../{VERDICTS_DOC}).",
        "",
        "Per paper section (the catalogue's `section` of each output):",
        "",
        "| section | " + " | ".join(VERDICTS) + " | total |",
        "|---|" + "---|" * (len(VERDICTS) + 1),
    ]
    for section, row in by_section.iterrows():
        lines.append(f"| {section} | " + " | ".join(str(int(row[v])) for v in VERDICTS) + f" | {int(row.sum())} |")
    lines += [
        "",
        "**Error policy** (`privtest_artifact.claims`). Exact claims (quadrature, closed forms, deterministic counts) "
        "are PASS or FAIL with no sampling error. A statistical claim carries its evidence (counts k/n, a mean and its "
        "standard error, or a bracket of measured thresholds) and the bound's direction. It is FAIL (or ERRATUM) "
        f"only if Holm's step-down procedure over all statistical cells of its output rejects it at level "
        f"{FILE_ALPHA:g}/{n_out} = {family_alpha(n_out):.3g} ({FILE_ALPHA:g} split over the {n_out} outputs of "
        f"the catalogue), so the probability that this file shows any false FAIL is at most {FILE_ALPHA:.0%}. "
        f"It is PASS if every cell's one-sided {PASS_CONFIDENCE:.1%} confidence limit lies on the statement's side "
        "of the bound (95% for a bracket of two measured thresholds), and INCONCLUSIVE otherwise. The asymmetry is "
        "deliberate: a FAIL accuses the paper, so its file-wide error is controlled; a false PASS needs a false "
        f"statement and then happens with probability at most {1 - PASS_CONFIDENCE:.1%} for that statement.",
        "",
    ]
    return lines


frames = [pd.read_csv(path, dtype=str, keep_default_na=False) for path in sm.input.claims]
claims = pd.concat(frames, ignore_index=True)[COLUMNS]
write_csv_atomic(claims, sm.output.csv)
lines = summary(claims, dict(sm.params.sections))
for exp, group in claims.groupby("experiment", sort=False):
    lines += [f"## {exp}", "", "| claim | source | measured | bound | verdict | note |", "|---|---|---|---|---|---|"]
    for row in group.itertuples():
        note = row.note.replace("|", "\\|")
        lines.append(f"| `{row.claim_id}` | {row.source} | {row.measured} | {row.bound} | **{row.verdict}** | {note} |")
    lines.append("")
write_text_atomic("\n".join(lines), sm.output.md)
write_markdown_html(sm.output.md, sm.output.html)  # what the Snakemake report shows
print(claims["verdict"].value_counts().to_string(), file=log)
